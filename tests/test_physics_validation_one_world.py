"""The physics validation (test_physics_validation.py) in one Bullet world kept for all of a check's rolls
(`SimSettings.world = "per_game"`): each check's rolls share a world, as a game's rolls do, so every check after
its first roll runs in a world earlier rolls have used (its broadphase's pairs and counters left as they left them).
"""

import pytest

from test_physics_validation import *  # noqa: F401,F403 (the checks, run again here with this module's world)
from test_physics_validation import lone

from physics import Throw

WORLD = "per_game"


@pytest.fixture(scope="module")
def world():
    """Return how this module's rollers keep their Bullet worlds: one world for all of a check's rolls."""
    return WORLD


def test_the_checks_roll_in_a_kept_world(roller):
    """The rolls of this module go through the world kept for the game, not a fresh world each."""
    roller.roll(lone(), Throw("d", (0.3, 0.3), 0.0, 0.5))
    kept = roller._kept
    assert kept is not None and kept.built and kept.fits(lone())
