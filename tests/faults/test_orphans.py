"""Issue 18 item 3: kill -9 of `study run` must not leave its pool workers alive; two runs never share a folder.

Each local worker asks the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG), so nothing is left
playing games nobody will record; the same command run again then finishes the study with the games an
uninterrupted run plays, game by game. A run locks its results folder, so a second run on it stops at once
instead of writing the same chunks.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from somaliland.cli.main import main
from somaliland.study import read_table
from support import assert_same_games
from test_study_support import ROOT, tiny_study


def children(pid: int) -> list[int]:
    """Return the pids of the live processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Return whether a process exists and is not a zombie waiting for its (new) parent to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def start_run(path, out) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    return subprocess.Popen([sys.executable, "-m", "somaliland.cli.main", "study", "run", str(path), "--out",
                             str(out), "--workers", "2", "--quiet"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def two_workers(run: subprocess.Popen) -> list[int]:
    deadline = time.monotonic() + 60
    while len(workers := children(run.pid)) < 2 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    assert len(workers) == 2, "the run did not start its two workers"
    return workers


def test_pool_workers_die_with_a_killed_run_and_the_same_command_finishes_it(reference, tmp_path, capsys):
    path, ref = reference  # the tiny study's 6 games, played without a fault
    out = tmp_path / "out"
    run = start_run(path, out)
    try:
        workers = two_workers(run)
        journal = out / "journal.jsonl"
        deadline = time.monotonic() + 60  # kill once a game is recorded: the others are being played
        while not (journal.exists() and journal.read_bytes().count(b"\n")) and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(run.pid, signal.SIGKILL)  # the main process alone, as `kill -9 PID` does
        assert run.wait() == -signal.SIGKILL, "the run finished before it could be killed"
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if alive(w)], "pool workers outlived the killed run"
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)  # whatever is left of the session, if the test failed
        except ProcessLookupError:
            pass
    kept = len(read_table(out, "games"))  # in chunks and in the journal
    assert 1 <= kept < 6, f"{kept} of 6 games kept by the killed run"
    assert main(["study", "run", str(path), "--out", str(out), "--workers", "2", "--quiet"]) == 0  # the same command
    assert f"{6 - kept} games played (0 errors, 0 retried after a worker died)" in capsys.readouterr().out
    assert_same_games(out, ref)


def test_a_second_run_on_a_folder_in_use_stops_at_once(tmp_path, capsys):
    path, out = tiny_study(tmp_path, games=20), tmp_path / "out"
    run = start_run(path, out)
    try:
        two_workers(run)  # by then the first run holds the folder
        assert main(["study", "run", str(path), "--out", str(out), "--workers", "1", "--quiet"]) == 2
        assert capsys.readouterr().err == (
            f"somaliland study: error: {out}: (folder): expected a results folder no other `study run` is writing, "
            f"found 'in use by another run'; wait for it to finish, or stop it (Ctrl-C or kill; its finished games "
            f"are kept)\n")
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
