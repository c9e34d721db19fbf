"""D19, the path counts: a ship that rolls over land on its way runs aground where it first crossed the coast.

Hand-built paths over the rules fixtures' map: one block of land, x 0.25-0.50, y 0.20-0.70 (metres); the
full-value route "somalia" at x = 0.62 east of it, the safe route "africa" at x = 0.12 west of it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from shapely import Point

from physics import DiePath, OffBoard
from physics.dice import resting_orientation
from rules_fixtures import HALF, N, config, game, place, rest, roll, slide, world
from somaliland.rules import Card, Status, apply_roll
from somaliland.rules.events import Arrived, Grounded, LostTurn, Replaced
from somaliland.rules.landfall import ROLLING_HEIGHT, landfall
from somaliland.rules.placement import FLAT_REACH, RELEASE_GAP

AFRICA_N = dict(card=Card(30, N), route="africa", sailed_turn=1)
SOMALIA_N = dict(card=Card(30, N), route="somalia", sailed_turn=1)


def _across(name: str = "red-6a", y: float = 0.40, to: float = 0.60, step: float = 0.01) -> DiePath:
    """Return a die's path rolling east along y from x = 0.12 (africa's lane) to x = `to`: over the land block."""
    n = round((to - 0.12) / step)
    return slide(name, *[(0.12 + k * step, y) for k in range(n + 1)])


def _sail(path: DiePath, cfg=None, *others):
    """Return red-6a (on africa, north) thrown along `path` to its end, with the state and events after."""
    cfg = cfg or config()
    state = place(replace(game(cfg), turn=2), "red-6a", 0.12, 0.40, **AFRICA_N)
    for name, x, y in others:
        state = place(state, name, x, y, **SOMALIA_N)
    end = path.positions[-1]
    return apply_roll(state, "red-6a", roll(rest("red-6a", end[0], end[1]), paths=(path,)), world(), cfg)


def test_D19_a_die_that_rolls_across_land_and_stops_at_sea_beyond_is_aground_where_it_crossed_the_coast() -> None:
    state, events = _sail(_across())
    grounded = next(e for e in events if isinstance(e, Grounded))
    assert grounded.crossed == pytest.approx((0.25, 0.40))  # the west coast of the block
    assert grounded.time == pytest.approx(13 / 60)  # 13 cm from the start at 1 cm a sample
    red = state.ship("red-6a")
    assert (red.status, red.skip) == (Status.AGROUND, 1)
    assert LostTurn("red-6a", "aground") in events
    # set down at the nearest open sea to the crossing: a whole die on the sea at any heading (as D17)
    assert red.pose.position[0] <= 0.25 - FLAT_REACH * 0.016 + 1e-9
    assert abs(red.pose.position[1] - 0.40) < 0.01 and red.pose.position[2] == pytest.approx(HALF)
    assert grounded.at == pytest.approx(red.pose.position[:2])


def test_D19_variant_rest_judges_only_where_the_die_stops() -> None:
    state, events = _sail(_across(), config(grounding_on="rest"))
    assert not any(isinstance(e, Grounded) for e in events)
    assert state.ship("red-6a").pose.position[:2] == pytest.approx((0.60, 0.40))


def test_D19_a_die_in_flight_over_land_is_not_aground() -> None:
    high = HALF + ROLLING_HEIGHT + 0.002  # its lowest corner 5 mm up: flying
    path = _across()
    flying = DiePath(path.name, path.times, tuple((x, y, high if 0.24 <= x <= 0.51 else z) for x, y, z in path.positions),
                     path.orientations)
    state, events = _sail(flying)
    assert not any(isinstance(e, Grounded) for e in events)
    assert state.ship("red-6a").status is Status.AT_SEA


def test_D19_a_die_that_touches_down_once_deep_inside_land_between_flights_is_aground() -> None:
    path = _across()
    high = HALF + ROLLING_HEIGHT + 0.002
    # in flight over the whole block but for one sample at x = 0.37, 12 cm inside the land
    touch = DiePath(path.name, path.times, tuple(
        (x, y, high if 0.24 <= x <= 0.51 and abs(x - 0.37) > 1e-9 else z) for x, y, z in path.positions),
        path.orientations)
    _, events = _sail(touch)
    grounded = next(e for e in events if isinstance(e, Grounded))
    assert grounded.crossed == pytest.approx((0.25, 0.40))  # where its flight came over the land


def test_D19_a_graze_shorter_than_the_coast_tolerance_is_not_aground_and_a_longer_one_is() -> None:
    def dip(depth: float) -> DiePath:  # east into the block's west coast (x = 0.25) by `depth`, and back out
        return slide("red-6a", (0.20, 0.30), (0.25 + depth, 0.30), (0.20, 0.3001))

    _, events = _sail(dip(0.001))  # 1 mm in and 1 mm out: 2 mm over land, 1 mm deep
    assert not any(isinstance(e, Grounded) for e in events)
    _, events = _sail(dip(0.004))  # 8 mm over land
    assert any(isinstance(e, Grounded) for e in events)
    _, events = _sail(dip(0.001), config(coast_tolerance=0.001))
    assert any(isinstance(e, Grounded) for e in events)


def test_D19_D11_footprint_counts_a_path_within_half_a_die_of_the_land() -> None:
    path = slide("red-6a", *[(0.244, 0.10 + k * 0.01) for k in range(31)])  # 6 mm off the coast, north
    _, events = _sail(path)
    assert not any(isinstance(e, Grounded) for e in events)
    _, events = _sail(path, config(grounding="footprint"))
    grounded = next(e for e in events if isinstance(e, Grounded))
    # where the block's corner came within 8 mm: y = 0.20 - sqrt(0.008^2 - 0.006^2)
    assert grounded.crossed == pytest.approx((0.244, 0.20 - (0.008 ** 2 - 0.006 ** 2) ** 0.5), abs=1e-4)


def test_D19_a_ship_pushed_over_land_runs_aground_too() -> None:
    cfg = config()
    state = place(replace(game(cfg), turn=2), "red-6a", 0.12, 0.40, **AFRICA_N)
    state = place(state, "green-6a", 0.20, 0.40, **SOMALIA_N)
    thrown = slide("red-6a", (0.12, 0.40), (0.16, 0.40), (0.18, 0.40))
    pushed = slide("green-6a", *[(0.20 + k * 0.01, 0.40) for k in range(16)])  # to x = 0.35, on the land
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.18, 0.40), rest("green-6a", 0.35, 0.40),
                                                     contacts=(("red-6a", "green-6a"),), paths=(thrown, pushed)),
                               world(), cfg)
    grounded = next(e for e in events if isinstance(e, Grounded))
    assert grounded.ship == "green-6a" and grounded.crossed == pytest.approx((0.25, 0.40))
    assert state.ship("green-6a").status is Status.AGROUND


def test_D19_a_ship_that_ran_aground_and_then_left_the_board_is_set_down_at_the_coast_not_put_back() -> None:
    path = slide("red-6a", *[(0.12 + k * 0.02, 0.40) for k in range(33)])  # to x = 0.76, beyond the board's edge
    state = place(replace(game(), turn=2), "red-6a", 0.12, 0.40, **AFRICA_N)
    off = OffBoard("red-6a", (0.76, 0.40, HALF), False)
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.76, 0.40), off_board=(off,), paths=(path,)),
                               world(), config())
    assert not any(isinstance(e, Replaced) for e in events)
    assert next(e for e in events if isinstance(e, Grounded)).crossed == pytest.approx((0.25, 0.40))
    assert state.ship("red-6a").pose.position[0] < 0.25


def test_D19_a_ship_set_down_inside_its_own_destination_arrives() -> None:
    # somalia's north zone is x 0.55-0.70, y 0.75-0.88; a land strip at its west edge, x 0.50-0.58, in this map
    from shapely import box

    from somaliland.map.model import Land
    mapped = replace(world(), lands=world().lands + (Land("quay", box(0.50, 0.78, 0.58, 0.86)),))
    state = place(replace(game(), turn=2), "red-6a", 0.66, 0.70, **SOMALIA_N)
    path = slide("red-6a", *[(0.66 - k * 0.01, 0.70 + k * 0.01) for k in range(13)])  # north-west onto the quay
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.54, 0.82), paths=(path,)), mapped, config())
    assert [type(e) for e in events if isinstance(e, (Grounded, Arrived))] == [Grounded, Arrived]
    assert state.ship("red-6a").status is Status.ARRIVED


def test_D19_land_the_die_lay_on_does_not_count_until_its_path_leaves_it() -> None:
    cfg = config(grounding_on="path")
    state = place(replace(game(cfg), turn=2), "red-6a", 0.49, 0.40, status=Status.AGROUND, **SOMALIA_N)  # aground at rest before
    path = slide("red-6a", *[(0.49 + k * 0.01, 0.40) for k in range(8)])  # off the land eastward, to x = 0.56
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.56, 0.40), paths=(path,)), world(), cfg)
    assert not any(isinstance(e, Grounded) for e in events)
    assert landfall(slide("x", (0.30, 0.40), (0.40, 0.40)), world(), cfg) is None  # it never left the land


def test_D19_the_set_down_spot_is_two_die_edges_clear_of_every_other_die() -> None:
    # green-6a lies at sea just west of the crossing point: the ship goes elsewhere
    _, events = _sail(_across(), None, ("green-6a", 0.235, 0.40))
    at = next(e for e in events if isinstance(e, Grounded)).at
    gap = Point(at).distance(Point(0.235, 0.40))
    assert gap >= (RELEASE_GAP + 1) * 0.016 - 1e-9  # two edges of water between two flat dice: 3 edges apart
