"""Shared fixtures: one PyBullet roller per test session (each roll builds a fresh world anyway)."""

import pytest

from physics import make_roller


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
