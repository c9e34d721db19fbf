"""Helpers of the fault-injection tests (no tests here): compare results game by game, repair a folder."""

from __future__ import annotations

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
