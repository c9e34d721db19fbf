"""Fault-injection tests of balance studies (issue 18): a tiny study played once without faults, as the reference.

Each test damages a copy of the reference's results folder (or interrupts a run of the same study), repairs
it the way a user would, and compares the results with the reference game by game.
"""

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the scripted players and study helpers

from test_study_support import tiny_study  # noqa: E402

from somaliland.study import load_study  # noqa: E402
from somaliland.study.executors import local_executors  # noqa: E402
from somaliland.study.runner import run_study  # noqa: E402

GAMES = 3  # per cell; the tiny study has 2 cells
CHUNK = 2  # games per chunk, so the reference has 3 chunks


@pytest.fixture(scope="session")
def reference(tmp_path_factory) -> tuple[Path, Path]:
    """Return (study file, results folder) of the tiny study played without a fault."""
    folder = tmp_path_factory.mktemp("reference")
    path = tiny_study(folder, games=GAMES)
    out = folder / "out"
    run_study(load_study(path), path.read_text(), out, local_executors(2), 2, progress=False, chunk_games=CHUNK)
    return path, out


@pytest.fixture
def damaged(reference, tmp_path) -> tuple[Path, Path]:
    """Return (study file, a copy of the reference's results folder) to damage."""
    path, out = reference
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    return path, copy


@pytest.fixture(scope="session")
def tuned(tmp_path_factory) -> tuple[Path, Path, dict]:
    """Return (tuning file, its folder, `tune --json`'s summary) of the toy tuning run without a fault."""
    from support import tune_json, toy_tuning

    folder = tmp_path_factory.mktemp("tuned")
    path = toy_tuning(folder)
    out = folder / "out"
    code, summary, err = tune_json(path, out)
    assert code == 0, err
    return path, out, summary
