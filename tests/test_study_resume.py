"""Kill a study run with SIGKILL mid-run, run it again: no finished game lost, none duplicated."""

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd

from somaliland.study import load_study, read_table
from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study
from test_study_support import ROOT, tiny_study


def start(path, out):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    return subprocess.Popen([sys.executable, "-m", "somaliland.cli.main", "study", "run", str(path), "--out", str(out),
                             "--workers", "2", "--chunk", "4", "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def finished_games(out) -> set:
    """Return the games a killed run had recorded: in marked chunks or whole journal lines."""
    done = set()
    for mark in (out / "chunks").glob("*.json"):
        done.update((c, g) for c, g, _, _ in json.loads(mark.read_text())["games"])
    journal = out / "journal.jsonl"
    for line in journal.read_text().splitlines() if journal.exists() else []:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        done.add((row["cell"], row["game"]))
    return done


def kill_when(proc, out, at_least: int, timeout_s: float = 60) -> set:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        if len(finished_games(out)) >= at_least:
            break
        time.sleep(0.05)
    assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read().decode()[-500:]}"
    os.killpg(proc.pid, signal.SIGKILL)  # the runner and its workers, at once
    proc.wait()
    return finished_games(out)


def test_sigkill_loses_only_games_in_flight_and_duplicates_none(tmp_path):
    path = tiny_study(tmp_path, games=12)  # 24 games
    out = tmp_path / "out"
    before_first = kill_when(start(path, out), out, at_least=5)
    before_second = kill_when(start(path, out), out, at_least=len(before_first) + 3)
    assert before_first <= before_second  # the second run kept what the first had finished
    # a torn journal line, as a kill mid-write leaves it
    with open(out / "journal.jsonl", "a") as journal:
        journal.write('{"cell": 0, "game": 11, "seed": 1, "ok": tr')
    summary = run_study(load_study(path), path.read_text(), out, local_executors(2), 2, progress=False)
    assert summary.done_before == len(before_second)
    assert summary.done_before + summary.played == 24
    players, games = read_table(out, "players"), read_table(out, "games")
    assert len(games) == 24 and not games.duplicated(["cell", "game"]).any()
    assert len(players) == 48 and not players.duplicated(["cell", "game", "seat"]).any()
    assert not list(out.glob(".staging/*"))
    one_line = pd.read_parquet(out / "players")  # what a data scientist types
    assert len(one_line) == 48


def test_a_chunk_cut_short_before_its_mark_is_discarded_and_replayed(tmp_path):
    path = tiny_study(tmp_path, games=2)
    out = tmp_path / "out"
    study = load_study(path)
    run_study(study, path.read_text(), out, local_executors(2), 2, progress=False, chunk_games=2)
    marks = sorted((out / "chunks").glob("*.json"))
    lost = json.loads(marks[-1].read_text())["games"]
    marks[-1].unlink()  # killed after its Parquet files were renamed in, before its mark
    summary = run_study(study, path.read_text(), out, local_executors(2), 2, progress=False)
    assert summary.played == len(lost) == 2
    players = pd.read_parquet(out / "players")
    assert len(players) == 8 and not players.duplicated(["cell", "game", "seat"]).any()
