"""Shared fixtures: one PyBullet roller per test session (each roll builds a fresh world anyway)."""

import pytest

from physics import make_roller


@pytest.fixture(scope="session")
def roller():
    r = make_roller()
    yield r
    r.close()
