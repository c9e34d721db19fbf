"""Shared fixtures: one PyBullet roller per test session (each roll builds a fresh world anyway)."""

import os
import shutil
import tempfile

import pytest

from physics import make_roller

_CACHE_ENV = "SOMALILAND_CACHE"
# The files whose tests play hundreds of games, a search's surveys or a tuning, heaviest first (by their times in a
# full run, 2026-12-06): begun first, so that `make test`'s workers (pytest-xdist, a file to a worker) end on short
# files, not one of these with the other worker idle. A file not named here keeps its place after them.
HEAVY_FIRST = ("test_physics_validation.py", "test_physics_validation_one_world.py", "test_game_invariants.py",
               "test_players_search.py", "test_tune.py", "test_results_frozen.py", "test_cli.py",
               "test_players_strategies.py", "test_env.py", "test_record_events.py")


def pytest_configure(config):
    """Keep the session's surveys in a folder of its own (subprocesses inherit it), not in ~/.cache/somaliland: a
    test's result never rests on what an earlier run, or a study, left there.

    One folder for the whole run: pytest-xdist's workers (`make test` runs `-n auto`) inherit it from the process
    that starts them, so what one worker keeps on disk the others read instead of making it again. That process
    makes the folder and removes it at the end."""
    if hasattr(config, "workerinput"):  # an xdist worker: the folder is its controller's
        config._somaliland_cache = None
        return
    config._somaliland_cache = tempfile.mkdtemp(prefix="somaliland-test-cache-")
    config._somaliland_cache_was = os.environ.get(_CACHE_ENV)
    os.environ[_CACHE_ENV] = config._somaliland_cache


def pytest_collection_modifyitems(config, items):
    """Put the heavy files' tests first (`HEAVY_FIRST`), each file's tests together and in their order."""
    rank = {name: k for k, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_unconfigure(config):
    if config._somaliland_cache is None:
        return
    shutil.rmtree(config._somaliland_cache, ignore_errors=True)
    if config._somaliland_cache_was is None:
        os.environ.pop(_CACHE_ENV, None)
    else:
        os.environ[_CACHE_ENV] = config._somaliland_cache_was


@pytest.fixture(scope="session")
def roller():
    r = make_roller()
    yield r
    r.close()


@pytest.fixture
def fresh_caches(monkeypatch, tmp_path):
    """Return a function that empties the players' in-memory caches (survey, calibration) and points the disk
    cache ($SOMALILAND_CACHE) at a new empty folder: what comes next is computed anew, not read back."""
    from somaliland.players import calibration, survey

    count = iter(range(1_000_000))

    def fresh() -> None:
        monkeypatch.setattr(survey, "_CACHE", {})
        monkeypatch.setattr(calibration, "_CACHE", {})
        monkeypatch.setenv("SOMALILAND_CACHE", str(tmp_path / f"cache-{next(count)}"))

    return fresh
