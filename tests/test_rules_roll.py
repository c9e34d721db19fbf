"""Applying a roll: launch, arrival, grounding (R17, D11), collisions (R18, D12), off-board (R19, D13), lost turns (D16)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import OffBoard, TipOver
from physics.dice import resting_orientation
from shapely import Point, box

from rules_fixtures import N, config, game, place, rest, roll, world
from somaliland.engine.events import Stamped, decode, encode
from somaliland.rules import Card, RollMismatchError, Status, apply_roll, lose_turn
from somaliland.rules.accidents import bottom_face_centre, is_aground
from somaliland.rules.events import Arrived

SOMALIA_N = dict(card=Card(30, N), route="somalia", sailed_turn=1)


def at_sea(*ships: tuple[str, float, float], cfg=None):
    state = replace(game(cfg), turn=2)
    for name, x, y in ships:
        state = place(state, name, x, y, **SOMALIA_N)
    return state


def test_R12_a_ship_in_port_is_launched_by_its_first_roll() -> None:
    state = place(game(), "red-6a", status=Status.IN_PORT, card=Card(30, N), route="somalia")
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.62, 0.3)), world(), config())
    ship = state.ship("red-6a")
    assert (ship.status, ship.pose.position[:2], ship.moves, ship.sailed_turn) == (Status.AT_SEA, (0.62, 0.3), 1, 1)
    assert [e.kind for e in events] == ["launched"]


def test_R9_a_ship_resting_in_its_destination_zone_has_arrived() -> None:
    state = at_sea(("red-6a", 0.62, 0.6))
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.60, 0.80)), world(), config())
    assert state.ship("red-6a").status is Status.ARRIVED
    assert events[0] == Arrived("red-6a", "somalia", "north")


def test_R9_the_other_legs_destination_is_not_arrival() -> None:
    state = at_sea(("red-6a", 0.62, 0.3))
    state, _ = apply_roll(state, "red-6a", roll(rest("red-6a", 0.62, 0.1)), world(), config())
    assert state.ship("red-6a").status is Status.AT_SEA


def test_R17_D11_a_ship_whose_bottom_centre_rests_on_land_is_aground() -> None:
    state = at_sea(("red-6a", 0.55, 0.4))
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.495, 0.4)), world(), config())
    ship = state.ship("red-6a")
    assert (ship.status, ship.skip) == (Status.AGROUND, 1)
    assert [e.kind for e in events] == ["grounded", "lost_turn"]


def test_D11_half_off_the_coast_is_afloat_by_centre_but_aground_by_footprint() -> None:
    state = at_sea(("red-6a", 0.55, 0.4))
    r = roll(rest("red-6a", 0.505, 0.4))  # centre 5 mm off the coast, the die's west edge 3 mm on land
    afloat, _ = apply_roll(state, "red-6a", r, world(), config())
    aground, _ = apply_roll(state, "red-6a", r, world(), config(grounding="footprint"))
    assert afloat.ship("red-6a").status is Status.AT_SEA
    assert aground.ship("red-6a").status is Status.AGROUND


def test_D11_the_bottom_face_centre_of_a_tilted_die() -> None:
    from physics import Pose
    lying = Pose((0.3, 0.3, 0.008), resting_orientation(4))
    assert bottom_face_centre(lying, 0.016) == pytest.approx((0.3, 0.3))
    q = (0.0, math.sin(math.radians(30) / 2), 0.0, math.cos(math.radians(30) / 2))  # tilted 30 deg about y
    x, _ = bottom_face_centre(Pose((0.3, 0.3, 0.01), q), 0.016)
    assert x == pytest.approx(0.3 - 0.008 * math.sin(math.radians(30)))
    assert is_aground(lying, world(), config())


def test_R18_D12_both_ships_of_a_collision_lose_a_turn() -> None:
    state = at_sea(("red-6a", 0.62, 0.3), ("green-6a", 0.62, 0.5))
    r = roll(rest("red-6a", 0.62, 0.48), rest("green-6a", 0.62, 0.5, yaw=0.2), contacts=(("red-6a", "green-6a"),))
    state, events = apply_roll(state, "red-6a", r, world(), config())
    for name, partner in (("red-6a", "green-6a"), ("green-6a", "red-6a")):
        ship = state.ship(name)
        assert (ship.status, ship.skip, ship.partners) == (Status.LOST_TURN, 1, (partner,))
    assert [e.kind for e in events] == ["collision", "lost_turn", "lost_turn"]
    assert events[0] == events[0].__class__("red-6a", "green-6a", "red-6a")


def test_R18_D12_off_only_the_ship_that_was_hit_loses_a_turn() -> None:
    state = at_sea(("red-6a", 0.62, 0.3), ("green-6a", 0.62, 0.5))
    r = roll(rest("red-6a", 0.62, 0.48), rest("green-6a", 0.62, 0.5, yaw=0.2), contacts=(("red-6a", "green-6a"),))
    state, _ = apply_roll(state, "red-6a", r, world(), config(collision_both_lose_turn=False))
    assert state.ship("red-6a").status is Status.AT_SEA
    assert state.ship("green-6a").status is Status.LOST_TURN


def test_R18_the_ship_that_tips_another_over_sinks_and_its_owner_has_fewer_ships() -> None:
    state = at_sea(("red-24", 0.62, 0.3), ("green-6a", 0.62, 0.5))
    r = roll(rest("red-24", 0.62, 0.48, value=4), rest("green-6a", 0.62, 0.51, face=0),
             contacts=(("red-24", "green-6a"),), tipovers=(TipOver("green-6a", 4, 0, 1, 1),))
    state, events = apply_roll(state, "red-24", r, world(), config())
    assert state.ship("red-24").status is Status.SUNK and state.ship("red-24").pose is None
    assert state.ship("green-6a").status is Status.LOST_TURN
    assert [e.kind for e in events] == ["collision", "tipped", "sunk", "lost_turn"]
    from somaliland.rules import contract_cap
    assert contract_cap(state, 0, config()) == 50


def test_D12_top_value_variant_a_tip_that_shows_the_same_pips_does_not_sink() -> None:
    state = at_sea(("red-24", 0.62, 0.3), ("green-6a", 0.62, 0.5))
    r = roll(rest("red-24", 0.62, 0.48, value=4), rest("green-6a", 0.62, 0.51, face=0),
             contacts=(("red-24", "green-6a"),), tipovers=(TipOver("green-6a", 4, 0, 1, 1),))
    state, _ = apply_roll(state, "red-24", r, world(), config(tipped_over="top_value"))
    assert state.ship("red-24").status is Status.LOST_TURN


def test_R19_D13_a_ship_off_the_board_is_put_back_at_the_nearest_sea_and_loses_a_turn() -> None:
    state = at_sea(("red-6a", 0.62, 0.85))
    r = roll(rest("red-6a", 0.70, 0.95), off_board=(OffBoard("red-6a", (0.70, 0.95, -0.003), False),))
    state, events = apply_roll(state, "red-6a", r, world(), config())
    ship = state.ship("red-6a")
    assert (ship.status, ship.skip) == (Status.OFF_BOARD, 1)
    assert ship.pose.position == pytest.approx((0.70, 0.90 - 0.008, 0.008))
    assert [e.kind for e in events] == ["replaced", "lost_turn"]


def test_D13_the_nearest_sea_skips_land_but_nearest_board_does_not() -> None:
    state = at_sea(("red-6a", 0.55, 0.1))
    r = roll(rest("red-6a", 0.40, -0.05), off_board=(OffBoard("red-6a", (0.40, -0.05, -0.003), False),))
    sea, _ = apply_roll(state, "red-6a", r, world(), config())
    assert sea.ship("red-6a").pose.position[:2] == pytest.approx((0.40, 0.008))
    state = at_sea(("red-6a", 0.55, 0.1))
    r = roll(rest("red-6a", 0.40, 0.25), off_board=(OffBoard("red-6a", (0.40, 0.25, -0.003), False),))
    board, _ = apply_roll(state, "red-6a", r, world(), config(off_board="nearest_board"))
    assert board.ship("red-6a").pose.position[:2] == pytest.approx((0.40, 0.25))
    sea2, _ = apply_roll(state, "red-6a", r, world(), config())
    assert sea2.ship("red-6a").pose.position[:2] == pytest.approx((0.40, 0.20 - 0.008))
    back, _ = apply_roll(state, "red-6a", r, world(), config(off_board="move_start"))
    assert back.ship("red-6a").pose.position[:2] == pytest.approx((0.55, 0.1))


def test_a_roll_of_another_die_or_of_a_ship_not_on_the_board_is_rejected() -> None:
    state = at_sea(("red-6a", 0.62, 0.3))
    with pytest.raises(RollMismatchError, match="green-6a"):
        apply_roll(state, "red-6a", roll(rest("red-6a", 0.62, 0.4), rest("green-6a", 0.6, 0.4)), world(), config())
    with pytest.raises(RollMismatchError, match="threw"):
        apply_roll(state, "red-6a", roll(rest("red-8", 0.62, 0.4)), world(), config())


def test_a_pushed_ship_into_its_destination_arrives() -> None:
    state = at_sea(("red-6a", 0.62, 0.6), ("green-6a", 0.62, 0.74))
    r = roll(rest("red-6a", 0.62, 0.70), rest("green-6a", 0.62, 0.78), contacts=(("red-6a", "green-6a"),))
    state, events = apply_roll(state, "red-6a", r, world(), config())
    assert state.ship("green-6a").status is Status.ARRIVED
    assert state.ship("red-6a").status is Status.LOST_TURN


def _bumped_aground(cfg):
    """Return the state after red-6a is thrown into green-6a, which lies aground owing its lost turn (R17)."""
    state = at_sea(("red-6a", 0.55, 0.3), cfg=cfg)
    state = place(state, "green-6a", 0.495, 0.4, status=Status.AGROUND, skip=1, **SOMALIA_N)
    r = roll(rest("red-6a", 0.52, 0.4), rest("green-6a", 0.4955, 0.4), contacts=(("red-6a", "green-6a"),))
    return apply_roll(state, "red-6a", r, world(), cfg)


def test_D16_a_ship_owing_a_lost_turn_loses_no_more_for_another_accident() -> None:
    state, events = _bumped_aground(config())
    green = state.ship("green-6a")
    assert (green.status, green.skip) == (Status.AGROUND, 1)  # hit and still aground: one move to lose
    assert [e.kind for e in events] == ["collision", "grounded", "lost_turn", "lost_turn"]  # still told
    assert state.ship("red-6a").skip == 1


def test_D16_add_up_variant_another_accident_adds_a_second_lost_turn() -> None:
    state, _ = _bumped_aground(config(lost_turns="add_up"))
    assert state.ship("green-6a").skip == 2 and state.ship("red-6a").skip == 1


def _destination_at_the_edge():
    """Return the test map with the Gulf route's north destination reaching the board's north edge."""
    route = world().route("somalia")
    route = replace(route, north=replace(route.north, destination=box(0.55, 0.75, 0.70, 0.90)))
    return replace(world(), routes=(route, world().route("africa")))


def _thrown_off_into_the_destination(cfg):
    """Return red-6a thrown off the north edge from (0.62, 0.70): put back at (0.62, 0.892), in its destination."""
    state = at_sea(("red-6a", 0.62, 0.70), cfg=cfg)
    r = roll(rest("red-6a", 0.62, 0.95), off_board=(OffBoard("red-6a", (0.62, 0.95, -0.003), False),))
    return apply_roll(state, "red-6a", r, _destination_at_the_edge(), cfg)


def test_R19_put_back_ship_does_not_arrive_that_throw() -> None:
    state, events = _thrown_off_into_the_destination(config())
    ship = state.ship("red-6a")
    assert ship.pose.position[:2] == pytest.approx((0.62, 0.892))
    assert (ship.status, ship.skip) == (Status.OFF_BOARD, 1)  # not arrived, and its lost turn stays
    assert [e.kind for e in events] == ["replaced", "lost_turn"]


def test_R19_put_back_ship_arrives_by_its_next_move_after_losing_its_turn() -> None:
    state, _ = _thrown_off_into_the_destination(config())
    state, _ = lose_turn(replace(state, turn=3), "red-6a", _destination_at_the_edge(), config())
    state = replace(state, turn=4)
    state, events = apply_roll(state, "red-6a", roll(rest("red-6a", 0.62, 0.885)), _destination_at_the_edge(),
                               config())
    assert state.ship("red-6a").status is Status.ARRIVED and [e.kind for e in events] == ["arrived"]


def test_R19_a_put_back_ship_pushed_off_the_board_does_not_arrive_either() -> None:
    state = at_sea(("red-6a", 0.62, 0.70), ("green-6a", 0.62, 0.85))
    r = roll(rest("red-6a", 0.62, 0.84), rest("green-6a", 0.62, 0.95), contacts=(("red-6a", "green-6a"),),
             off_board=(OffBoard("green-6a", (0.62, 0.95, -0.003), False),))
    state, _ = apply_roll(state, "red-6a", r, _destination_at_the_edge(), config())
    green = state.ship("green-6a")
    assert (green.status, green.skip) == (Status.OFF_BOARD, 1)
    assert _destination_at_the_edge().route("somalia").north.destination.covers(Point(green.pose.position[:2]))


def test_R19_same_throw_variant_put_back_ship_arrives_at_once_and_keeps_no_lost_turn() -> None:
    state, events = _thrown_off_into_the_destination(config(off_board_arrival="same_throw"))
    ship = state.ship("red-6a")
    assert (ship.status, ship.skip) == (Status.ARRIVED, 0)
    assert [e.kind for e in events] == ["replaced", "arrived"]


def test_R19_a_ship_put_back_where_another_die_lies_is_set_down_clear_of_it() -> None:
    state = at_sea(("red-6a", 0.62, 0.85), ("green-6a", 0.70, 0.892))
    r = roll(rest("red-6a", 0.70, 0.95), off_board=(OffBoard("red-6a", (0.70, 0.95, -0.003), False),))
    state, _ = apply_roll(state, "red-6a", r, world(), config())
    back = state.ship("red-6a").pose.position[:2]
    assert math.dist(back, (0.70, 0.892)) >= 1.5 * 0.016 - 1e-9
    assert 0.008 <= back[0] <= 0.742 and 0.008 <= back[1] <= 0.892 + 1e-9


def test_R19_a_die_put_back_on_raised_land_rests_on_its_relief() -> None:
    from somaliland.map.model import Land
    raised = replace(world(), lands=(Land("africa", world().lands[0].polygon, relief=0.004),))
    state = at_sea(("red-6a", 0.55, 0.1))
    r = roll(rest("red-6a", 0.40, 0.25), off_board=(OffBoard("red-6a", (0.40, 0.25, -0.003), False),))
    state, _ = apply_roll(state, "red-6a", r, raised, config(off_board="nearest_board"))
    assert state.ship("red-6a").pose.position == pytest.approx((0.40, 0.25, 0.012))


ships_on_board = ["red-6a", "red-8", "green-6a", "green-24"]


@st.composite
def scripted_rolls(draw):
    """Draw a position of four ships at sea and a roll of one of them that may push, tip or lose the others."""
    xs = [draw(st.floats(0.05, 0.70)) for _ in ships_on_board]
    ys = [0.05 + 0.2 * i for i in range(len(ships_on_board))]
    thrown = draw(st.sampled_from(ships_on_board))
    movers = [n for n in ships_on_board if n == thrown or draw(st.booleans())]
    rests = [rest(n, draw(st.floats(-0.1, 0.85)), draw(st.floats(-0.1, 1.0)), face=draw(st.integers(0, 5)))
             for n in movers]
    rests.sort(key=lambda r: r.name != thrown)
    off = tuple(OffBoard(r.name, r.position, False) for r in rests
                if not (0 <= r.position[0] <= 0.75 and 0 <= r.position[1] <= 0.90))
    contacts = tuple((thrown, n) for n in movers[1:] if n != thrown and draw(st.booleans()))
    tips = tuple(TipOver(n, 4, 0, 1, 1) for _, n in contacts if draw(st.booleans()))
    return list(zip(ships_on_board, xs, ys)), thrown, roll(*rests, contacts=contacts, tipovers=tips, off_board=off)


@settings(max_examples=150, deadline=None)
@given(scripted_rolls())
def test_R12_R19_any_roll_leaves_a_consistent_state(case) -> None:
    position, thrown, r = case
    state = at_sea(*position)
    after, events = apply_roll(state, thrown, r, world(), config())
    for ship in after.ships:
        assert (ship.pose is None) == (ship.status in (Status.IN_PORT, Status.SUNK))
        assert ship.skip <= max(state.ship(ship.id).skip, 1)  # D16: lost turns do not add up
        if ship.pose is not None and ship.id in {o.name for o in r.off_board}:
            assert 0 <= ship.pose.position[0] <= 0.75 and 0 <= ship.pose.position[1] <= 0.90  # R19
            assert not world().is_land(*ship.pose.position[:2])  # D13: the sea
            assert ship.status is not Status.ARRIVED  # R19: being put back is not a move
    assert after.ship(thrown).moves == 1
    assert (after.ship(thrown).status is Status.SUNK) == bool(r.tipovers)  # R18
    assert all(decode(encode(Stamped(1, 2, e))).event == e for e in events)  # the record tells them as they are
