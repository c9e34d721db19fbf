"""Helpers of the fault-injection tests (no tests here): compare results game by game, repair a folder, a toy
tuning and a small disk."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pandas as pd

from somaliland.study import load_study, read_table
from somaliland.study.executors import local_executors
from somaliland.study.runner import RunSummary, run_study
from somaliland.study.tables import TABLES
from somaliland.study.worker import MEASURED_COLUMNS as VARYING  # the only columns two runs may differ in


def results(out: Path) -> dict[str, pd.DataFrame]:
    """Return every table of a results folder, rows in (cell, game) order, without the run-dependent columns."""
    tables = {}
    for table in TABLES:
        frame = read_table(out, table)
        if not frame.empty:
            frame = frame.drop(columns=[c for c in VARYING if c in frame])
            frame = frame.sort_values(["cell", "game"], kind="stable").reset_index(drop=True)
        tables[table] = frame
    return tables


def assert_same_games(out: Path, reference: Path) -> None:
    """Assert two results folders hold the same games with the same rows, game by game."""
    got, want = results(out), results(reference)
    for table in TABLES:
        a, b = got[table], want[table]
        assert a.empty == b.empty, f"{table}: {len(a)} rows vs {len(b)}"
        if a.empty:
            continue
        games = lambda f: sorted(set(zip(f.cell, f.game)))  # noqa: E731
        assert games(a) == games(b), f"{table}: other games"
        assert sorted(a.columns) == sorted(b.columns), f"{table}: other columns"
        pd.testing.assert_frame_equal(a, b[a.columns], check_dtype=False, obj=table)


def rerun(path: Path, out: Path, workers: int = 1, **options) -> RunSummary:
    """Run the study again on `out`, as `somaliland study run` does after a fault."""
    return run_study(load_study(path), path.read_text(), out, local_executors(workers), workers, progress=False,
                     chunk_games=2, **options)


def toy_tuning(folder: Path, name: str = "toy") -> Path:
    """Write a small tuning of the tiny board with scripted players (2 candidates, rungs of 2 and 3 games, 2
    validation games: 14 games, seconds) and return its path."""
    from test_study_support import TINY_MAP

    path = folder / f"{name}.toml"
    path.write_text(f'''name = "{name}"
map = "{TINY_MAP}"
master_seed = 5
policy_factory = "scripted:scripted_factory"

[rules]
players = 2
rounds = 1

[seats]
strategy = ["africa", "somalia"]

[search]
trials = 2
batch = 2
rungs = [2, 3]
startup = 2

[validation]
games = 2

[[knob]]
name = "port_y"
path = "map:pirate_port[Cove].at[1]"
range = [12.0, 28.0]

[[target]]
measure = "fulfilment"
goal = [0.5, inf]
''')
    return path


def tune_json(path: Path, out: Path) -> tuple[int, dict | None, str]:
    """Run `somaliland tune PATH --out OUT --json` (one worker) as a user would; return its exit status, its summary
    (None unless 0) and its standard error."""
    import json
    import os
    import subprocess
    import sys

    from test_study_support import ROOT

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-m", "somaliland.cli.main", "tune", str(path), "--out", str(out),
                           "--workers", "1", "--json"], capture_output=True, text=True, cwd=ROOT, env=env)
    return done.returncode, json.loads(done.stdout) if done.returncode == 0 else None, done.stderr


@contextlib.contextmanager
def tmpfs(folder: Path, size_kib: int):
    """Mount a tmpfs of `size_kib` KiB on `folder` (made) for the block, then unmount it; skip the test where this
    process may not mount (not root, or a container without the right)."""
    import shutil
    import subprocess

    import pytest

    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a small disk is a tmpfs, and only root may mount one")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def grow(folder: Path, size_kib: int) -> None:
    """Give a mounted tmpfs more room (the user making room on a full disk)."""
    import subprocess

    subprocess.run(["mount", "-o", f"remount,size={size_kib}k", str(folder)], check=True)
