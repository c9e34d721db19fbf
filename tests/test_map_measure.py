"""The route measurement's parts: the player's hand, where a ship may aim, the landing spread."""

import math

import numpy as np
import pytest
from shapely import prepare

from somaliland.map import Direction, load
from somaliland.map import measure
from somaliland.seeding import make_rng

TINY = load("maps/tiny.toml")
prepare(TINY.land)


def test_hand_interpolates_strength_for_a_distance():
    hand = measure.Hand(1.8, (0.5, 1.0), (0.1, 0.5))
    assert hand.reach == 0.5
    assert hand.strength_for(0.3) == pytest.approx(0.75)
    assert hand.strength_for(0.9) == 1.0  # never harder than a firm throw


def test_spread_is_centred_on_the_aimed_point():
    along, side = measure._spread()
    assert len(along) == len(side) == 25
    assert np.median(along) == 1.0 and np.median(side) == 0.0
    assert along.min() == measure.SHORT and along.max() == measure.LONG


def test_afloat_a_ship_aims_only_over_water():
    # from (25, 15) west, the island's coast is 5 cm away: aim at most 4 whole cm out
    reach = measure._reachable(TINY, measure.Point(0.25, 0.15), math.pi, 0.2, 0.0, overland=False)
    assert reach.max() == pytest.approx(0.04) and reach.min() == pytest.approx(0.01)
    over = measure._reachable(TINY, measure.Point(0.25, 0.15), math.pi, 0.2, 0.0, overland=True)
    assert over.max() == pytest.approx(0.2) and not np.any((over > 0.05) & (over < 0.15))  # skips the island


def test_aground_a_ship_rolls_off_its_land_the_short_way_only():
    here = measure.Point(0.195, 0.15)  # on the island, 5 mm from its east coast
    ashore = TINY.land.boundary.distance(here) + 2 * measure.SAMPLE
    east = measure._reachable(TINY, here, 0.0, 0.2, ashore, overland=False)
    west = measure._reachable(TINY, here, math.pi, 0.2, ashore, overland=False)
    assert east.min() == pytest.approx(0.01) and east.max() == pytest.approx(0.1)  # to the board's edge
    assert len(west) == 0  # 9.5 cm of island that way


def test_progress_ignores_stretches_far_from_the_ship():
    somalia = load("maps/horn-of-africa.toml").route("somalia")
    ashore = measure.Point(0.505, 0.415)  # on the Horn's tip: nearer the route's cape stretch than the gulf
    done = somalia.progress(Direction.SOUTH, 0.45, 0.445)  # a ship in the Gulf of Aden, heading east
    far = somalia.progress(Direction.SOUTH, ashore.x, ashore.y)
    near = measure._progress_near(somalia, Direction.SOUTH, ashore, done, 0.05)
    assert far > done + 0.12  # measured on the whole line it would count as rounding the cape
    assert done < near < done + 0.06  # near the ship, it is a few cm along the gulf


def test_firm_throw_rolls_about_half_a_metre(roller):
    distances = measure.roll_distances(roller, TINY, make_rng(1), 12)
    assert 0.30 < float(np.median(distances)) < 0.70  # the README's 51 cm, from 200 throws
