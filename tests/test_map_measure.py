"""The firm throw that `somaliland map measure` reports beside the players' survey."""

import numpy as np

from somaliland.map import load
from somaliland.map import measure
from somaliland.seeding import make_rng

TINY = load("maps/tiny.toml")


def test_firm_throw_rolls_about_half_a_metre(roller):
    distances = measure.roll_distances(roller, TINY, make_rng(1), 12)
    assert 0.30 < float(np.median(distances)) < 0.70  # the README's 51 cm, from 200 throws


def test_firm_throws_scatter_in_speed_and_spin():
    throw = measure.firm_throw(make_rng(3), (0.1, 0.1), 0.0)
    assert abs(throw.speed / measure.FIRM_SPEED - 1) <= measure.SPEED_SPREAD
    assert all(abs(w) <= measure.SPIN for w in throw.spin) and throw.release_height == measure.RELEASE
