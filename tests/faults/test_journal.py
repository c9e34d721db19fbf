"""Issue 18 item 7: what a killed run leaves in its journal, and games beyond the plan.

A run killed before its first chunk leaves its finished games in journal.jsonl only: readers and reports
count them (and say where they are); a torn last line (a kill mid-write) is cut off when the next run opens
the folder, so the next game's line cannot fuse with it. A folder holding more games than the study now
plans says so, instead of "6 of 4 done".
"""

import os
import signal
import subprocess
import sys
import time

from somaliland.cli.main import main
from somaliland.study import read_table
from somaliland.study.store import journal_games
from support import assert_same_games, rerun
from test_study_support import ROOT


def killed_with_games_in_the_journal(path, out, at_least: int) -> int:
    """Run the study with chunks bigger than it, kill it (and its workers) once the journal holds games."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    run = subprocess.Popen([sys.executable, "-m", "somaliland.cli.main", "study", "run", str(path), "--out", str(out),
                            "--workers", "1", "--chunk", "100", "--quiet"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        if journal.exists() and journal.read_bytes().count(b"\n") >= at_least:
            break
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before it could be killed"
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    return journal.read_bytes().count(b"\n")


def test_a_report_on_a_killed_run_counts_the_games_in_its_journal(reference, tmp_path, capsys):
    path, ref = reference
    out = tmp_path / "out"
    waiting = killed_with_games_in_the_journal(path, out, at_least=2)
    assert 2 <= waiting < 6 and not list((out / "chunks").glob("*.json"))  # only in the journal
    assert len(read_table(out, "games")) == waiting == journal_games(out)
    assert main(["study", "report", str(out)]) == 0
    report = (out / "report.md").read_text()
    assert f"**Partial run**: {waiting} of the 6 games this study plans" in report
    assert f"{waiting} of these games are still in the journal of an interrupted run" in report
    with open(out / "journal.jsonl", "ab") as journal:
        journal.write(b'{"cell": 1, "game": 2, "seed": 5, "ok": tr')  # killed mid-write
    said = []
    summary = rerun(path, out, say=said.append)
    assert summary.done_before == waiting and summary.played == 6 - waiting
    assert said == [f"repaired {out / 'journal.jsonl'}: cut a torn last line (42 bytes, the game being written "
                    f"when the run stopped; it is played again)"]
    assert_same_games(out, ref)


def test_a_torn_last_line_is_cut_even_when_no_game_follows_it(damaged, reference):
    path, out = damaged
    journal = out / "journal.jsonl"
    journal.write_bytes(b'{"cell": 0, "game": 2, "se')  # the run was complete; a copy added a torn line
    said = []
    assert rerun(path, out, say=said.append).played == 0
    assert "cut a torn last line (26 bytes" in said[0] and journal.read_bytes() == b""
    assert_same_games(out, reference[1])


def test_a_finished_run_with_games_beyond_the_plan_says_so(damaged, capsys):
    path, out = damaged
    fewer = path.parent / "fewer.toml"
    fewer.write_text(path.read_text().replace("games_per_cell = 3", "games_per_cell = 2"))
    assert main(["study", "run", str(fewer), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    said = capsys.readouterr().out
    assert "0 games played" in said and ("4 of 4 done (and 2 games beyond games_per_cell = 2, kept from a run that "
                                         "planned more; reports use them too)") in said
