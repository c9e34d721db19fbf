"""The throw model measured from physics: its sample size, caching, shape, and that it predicts a real roll."""

from __future__ import annotations

import math

import pytest

from physics import Board, DieSpec, Materials, PlacedDie, Pose, Roller, Scene, SimSettings
from physics import Throw
from physics.throw import MAX_SPIN
from somaliland.players.calibration import SAMPLE_ROLLS, calibrate, roll_throw, tumble_spin

SIZE, MASS = 0.016, 0.004


@pytest.fixture(scope="session")
def per_roll_roller():
    """A roller that rolls every roll in a fresh world: practice rolls (calibration, survey) go through it itself, not
    through a private roller as they do when a game's rolls share a world (`physics.roller.private_roller`)."""
    from physics import make_roller

    with make_roller(SimSettings(world="per_roll")) as r:
        yield r


class CountingRoller:
    """A roller that counts the rolls it is asked for and passes them on."""

    def __init__(self, inner: Roller) -> None:
        self.inner, self.rolls = inner, 0
        self.settings: SimSettings = inner.settings

    def new_game(self, board: Board | None, materials: Materials | None = None) -> None:
        self.inner.new_game(board, materials)

    def roll(self, scene, throw):
        self.rolls += 1
        return self.inner.roll(scene, throw)

    def close(self) -> None:
        pass


def test_calibration_rolls_its_stated_sample_once_then_caches(per_roll_roller):
    counting = CountingRoller(per_roll_roller)
    first = calibrate(counting, SIZE, MASS, tumble=0.0123)  # a tumble no other test measures
    assert counting.rolls == SAMPLE_ROLLS == 66
    assert calibrate(counting, SIZE, MASS, tumble=0.0123) is first
    assert counting.rolls == SAMPLE_ROLLS


def test_model_shape(roller):
    model = calibrate(roller, SIZE, MASS, tumble=0.05)
    assert model.rolls == SAMPLE_ROLLS
    assert all(a < b for a, b in zip(model.reach, model.reach[1:]))
    assert 0.02 < model.min_roll < 0.06 and 0.4 < model.max_roll < 0.7  # measured: 3.8 cm and 52 cm
    # a push tips the die over an edge: a quarter moves it about one die width, a half about two
    assert model.quarter == pytest.approx(1.17 * SIZE, rel=0.1)
    assert model.half == pytest.approx(2 * model.quarter, rel=0.05)
    for d in (0.05, 0.2, 0.4):
        assert float(model.reach_at(model.speed_for(d))) == pytest.approx(d, rel=1e-6)


def test_a_roll_carries_about_what_the_model_says(roller):
    model = calibrate(roller, SIZE, MASS, tumble=0.05)
    spec = DieSpec(faces=(1, 1, 1, 1, 1, 1), size=(SIZE,) * 3, mass=MASS)
    start = (0.30, 0.20)
    scene = Scene(Board(), (PlacedDie("d", spec, Pose.resting(spec, *start)),))
    for heading, distance in ((1.2, 0.15), (2.0, 0.30)):  # headings the sample never threw
        rest = roller.roll(scene, roll_throw(model, "d", start, heading, distance)).thrown.position
        assert math.dist(rest[:2], start) == pytest.approx(distance, abs=0.03)
        bearing = math.atan2(rest[1] - start[1], rest[0] - start[0])
        assert abs((bearing - heading + math.pi) % (2 * math.pi) - math.pi) < math.radians(6)


def test_a_tumble_is_held_within_the_physics_layers_spin_limit_and_left_alone_below_it():
    for size in (0.002, 0.01, 0.012, 0.016, 0.024):  # the die sizes the rules allow go down to 2 mm
        for speed in (0.5, 1.0, 2.5, 9.9):
            for tumble in (-1.0, -0.15, 0.15, 1.0):
                for k in range(2001):
                    heading = -math.pi + k * math.pi / 1000
                    spin = tumble_spin(size, tumble, heading, speed)
                    Throw("d", (0.0, 0.0), heading, speed, spin, 0.02)  # Throw checks every component
                    rate = tumble * speed / (size / 2)
                    free = (-math.sin(heading) * rate, math.cos(heading) * rate, 0.0)
                    if max(abs(c) for c in free) <= MAX_SPIN:
                        assert spin == free  # bit for bit: no throw the physics layer took changes
                    else:
                        assert max(abs(c) for c in spin) == pytest.approx(MAX_SPIN)
                        assert math.atan2(spin[1], spin[0]) == pytest.approx(math.atan2(free[1], free[0]), abs=1e-9)
