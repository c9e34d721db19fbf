"""Pirates: the nearest ship is seized (R13, D8), on full-value routes only (D15); the collision pair (R20); release (D17)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from shapely import Point, box

from rules_fixtures import N, S, config, game, place, pose, rest, roll, world
from somaliland.map.model import Land, PiratePort
from somaliland.rules import Card, Status, apply_roll, begin_turn, lose_turn, nearest, seize, throwable
from somaliland.rules.accidents import footprint
from somaliland.rules.events import Arrived, Released, Seized, TurnSkipped
from somaliland.rules.placement import clear_pose, open_sea, open_sea_toward

SOMALIA_N = dict(card=Card(30, N), route="somalia", sailed_turn=1)


def fleet_at(*ships: tuple[str, float, float], **extra):
    state = replace(game(), turn=1)
    for name, x, y in ships:
        state = place(state, name, x, y, **{**SOMALIA_N, **extra})
    return state


def test_R13_D8_nearest_ship_to_any_port_is_seized() -> None:
    # eyl (0.52, 0.45), bosaso (0.72, 0.70): red-8 is 3 cm from bosaso, green-6a 8 cm from eyl
    state = fleet_at(("green-6a", 0.60, 0.45), ("red-8", 0.72, 0.67), ("red-6a", 0.62, 0.20))
    state, events = seize(state, world(), config())
    ship = state.ship("red-8")
    assert (ship.status, ship.skip) == (Status.HELD, 1)
    assert ship.pose.position[:2] == (0.72, 0.70)
    assert events[0].port == "bosaso" and events[0].distance == pytest.approx(0.03)
    assert state.ship("green-6a").status is Status.AT_SEA


def test_R13_the_ransom_is_the_pips_on_the_top_face_and_ransoms_add_up() -> None:
    state = fleet_at(("red-8", 0.72, 0.67))  # face +z of the 8 shows 2
    state, events = seize(state, world(), config())
    assert events[0].ransom == 2 and state.sheets[0].ransom == 2
    state = place(state, "red-24", 0.55, 0.45, **SOMALIA_N)
    state, events = seize(state, world(), config())
    assert events[0].ship == "red-24" and events[0].ransom == 4
    assert state.sheets[0].ransom == 6 and state.sheets[0].points == -6


def test_R13_the_seized_ship_loses_a_turn() -> None:
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), config())
    state = replace(state, turn=2)
    assert "red-8" not in throwable(state, config())
    state, events = lose_turn(state, "red-8", world(), config())
    assert events[0].status == "held"
    state = replace(state, turn=3)
    assert "red-8" in throwable(state, config())


def test_D8_arrived_unlaunched_and_held_ships_are_never_the_nearest() -> None:
    state = fleet_at(("green-6a", 0.60, 0.45))
    state = place(state, "red-6a", 0.72, 0.70, status=Status.ARRIVED, **SOMALIA_N)
    state = place(state, "red-8", 0.52, 0.46, status=Status.HELD, skip=1, **SOMALIA_N)
    state = place(state, "red-12", status=Status.IN_PORT, card=Card(30, N), route="somalia")
    assert nearest(state, world(), config())[0].id == "green-6a"
    assert nearest(state, world(), config(pirates_ignore=()))[0].id == "red-6a"


def test_D8_nobody_is_seized_when_no_ship_is_at_sea() -> None:
    state = place(game(), "red-6a", status=Status.IN_PORT, card=Card(30, N), route="somalia")
    assert seize(state, world(), config()) == (state, ())


def test_D8_D20_a_held_ship_is_released_after_its_lost_turn_and_is_then_a_ship_at_sea() -> None:
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), config())
    assert state.ship("red-8").status is Status.HELD  # held (immune) while it serves its lost turn (D8)
    assert seize(state, world(), config())[0].sheets[0].ransom == 2  # not taken again while held
    state, _ = lose_turn(replace(state, turn=2), "red-8", world(), config())
    red = state.ship("red-8")
    assert (red.status, red.held_in, red.seized_from) == (Status.AT_SEA, "", None)  # D20: at sea like any other
    assert seize(state, world(), config())[1] == ()  # D8: its lost turn lasts to the end of turn 2, raid included
    state = begin_turn(state, config())  # turn 3
    state, events = seize(state, world(), config())
    assert [e.ship for e in events if isinstance(e, Seized)] == ["red-8"]  # the nearest again: taken again (D20)
    assert state.sheets[0].ransom == 4


def test_D8_D20_variant_held_a_released_ship_stays_immune_until_it_sails() -> None:
    cfg = config(after_release="held")
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), cfg)
    state, _ = lose_turn(replace(state, turn=2), "red-8", world(), cfg)
    assert state.ship("red-8").status is Status.HELD  # still held (immune) until it sails
    state, _ = seize(state, world(), cfg)
    assert state.sheets[0].ransom == 2  # not taken again from its port
    state = replace(state, turn=3)
    state, _ = apply_roll(state, "red-8", roll(rest("red-8", 0.72, 0.60)), world(), cfg)
    assert state.ship("red-8").status is Status.AT_SEA


def test_D8_where_seized_variant_puts_the_released_ship_back_where_it_was_taken() -> None:
    cfg = config(held_release="where_seized")
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), cfg)
    state, _ = lose_turn(replace(state, turn=2), "red-8", world(), cfg)
    assert state.ship("red-8").pose.position[:2] == pytest.approx((0.72, 0.67))


def _aground_by_eyl(cfg):
    """Return red-6a aground 2 cm from eyl (owing its lost turn, R17) seized, green-6a 4 cm off at sea."""
    state = fleet_at(("green-6a", 0.56, 0.45))
    state = place(state, "red-6a", 0.50, 0.47, status=Status.AGROUND, skip=1, **SOMALIA_N)
    return seize(state, world(), cfg)


def test_R20_pirates_take_ships_aground() -> None:
    state, events = _aground_by_eyl(config())
    assert events[0].ship == "red-6a" and state.ship("red-6a").status is Status.HELD


def test_D16_a_ship_aground_then_seized_still_loses_one_move() -> None:
    state, _ = _aground_by_eyl(config())
    assert state.ship("red-6a").skip == 1
    state, events = lose_turn(replace(state, turn=2), "red-6a", world(), config())
    assert [e.kind for e in events] == ["turn_skipped", "released"]  # one move lost, then free
    assert state.ship("red-6a").skip == 0
    assert "red-6a" in throwable(replace(state, turn=3), config())


def test_D16_add_up_variant_aground_then_seized_loses_two_moves() -> None:
    cfg = config(lost_turns="add_up")
    state, _ = _aground_by_eyl(cfg)
    assert state.ship("red-6a").skip == 2
    state, events = lose_turn(replace(state, turn=2), "red-6a", world(), cfg)
    assert [e.kind for e in events] == ["turn_skipped"]  # still held: a second move to lose
    state = replace(state, turn=3)
    assert "red-6a" not in throwable(state, cfg)
    state, events = lose_turn(state, "red-6a", world(), cfg)
    assert [e.kind for e in events] == ["turn_skipped", "released"]


def _collided(gap: float):
    """Return red-6a thrown into green-6a next to eyl; green comes to rest `gap` metres east of red."""
    state = replace(fleet_at(("red-6a", 0.62, 0.30), ("green-6a", 0.60, 0.45)), turn=2)
    r = roll(rest("red-6a", 0.54, 0.45), rest("green-6a", 0.54 + 0.016 + gap, 0.45),
             contacts=(("red-6a", "green-6a"),))
    state, _ = apply_roll(state, "red-6a", r, world(), config())
    return state


def test_R20_a_seized_ship_still_touching_its_collision_partner_takes_it_along() -> None:
    state, events = seize(_collided(0.0005), world(), config())
    assert [(e.ship, e.with_partner_of) for e in events] == [("red-6a", ""), ("green-6a", "red-6a")]
    assert state.ship("green-6a").status is Status.HELD
    assert state.sheets[0].ransom == 1 and state.sheets[1].ransom == 1


def test_R20_a_collision_partner_no_longer_touching_stays_free() -> None:
    state, events = seize(_collided(0.01), world(), config())
    assert [e.ship for e in events] == ["red-6a"]
    assert state.ship("green-6a").status is Status.LOST_TURN


def test_R13_a_second_ship_seized_into_an_occupied_port_is_set_down_beside_the_first() -> None:
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), config())
    state = place(state, "green-8", 0.72, 0.66, **SOMALIA_N)
    state, events = seize(state, world(), config())
    first, second = state.ship("red-8").pose.position, state.ship("green-8").pose.position
    assert events[0].ship == "green-8" and first[:2] == (0.72, 0.70)
    assert math.dist(first[:2], second[:2]) == pytest.approx(1.5 * 0.016)


def _taken_then_covered(cfg):
    """Return the state after red-8, seized at (0.72, 0.67), is released there while green-8 lies on that spot."""
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), cfg)
    state = place(state, "green-8", 0.72, 0.67, **SOMALIA_N)
    return lose_turn(replace(state, turn=2), "red-8", world(), cfg)


def test_D8_D17_where_seized_release_is_set_down_two_die_edges_clear_of_a_die_now_lying_there() -> None:
    state, events = _taken_then_covered(config(held_release="where_seized"))
    red, green = state.ship("red-8").pose, state.ship("green-8").pose
    assert footprint(red, 0.016).distance(footprint(green, 0.016)) >= 2 * 0.016
    assert math.dist(red.position[:2], (0.72, 0.67)) <= 0.016 * (2 + math.sqrt(2)) + 0.008  # the nearest ring
    assert red.position[0] <= 0.75 - 0.008 * math.sqrt(2)  # wholly on the board
    assert events[-1] == Released("red-8", "bosaso", red.position[:2])


def test_D8_D17_in_port_variant_where_seized_release_makes_room_by_one_and_a_half_die_edges() -> None:
    state, events = _taken_then_covered(config(held_release="where_seized", release_spot="in_port"))
    assert math.dist(state.ship("red-8").pose.position[:2], (0.72, 0.67)) == pytest.approx(1.5 * 0.016)
    assert [e.kind for e in events] == ["turn_skipped"]


def test_D15_half_value_ships_are_never_seized() -> None:
    # only an Africa ship at sea: the pirates take nobody
    state = fleet_at(("red-8", 0.15, 0.45), card=Card(30, N), route="africa")
    assert seize(state, world(), config()) == (state, ())
    # a Gulf ship further away is taken instead of the nearer Africa ship
    state = place(state, "green-6a", 0.62, 0.05, **SOMALIA_N)  # 41 cm from eyl; red-8 is 37 cm
    state, events = seize(state, world(), config())
    assert [e.ship for e in events] == ["green-6a"] and state.ship("red-8").status is Status.AT_SEA


def test_D15_any_route_variant_takes_the_nearest_on_any_route() -> None:
    cfg = config(pirate_targets="any_route")
    state = fleet_at(("red-8", 0.15, 0.45), card=Card(30, N), route="africa")
    state = place(state, "green-6a", 0.62, 0.05, **SOMALIA_N)
    state, events = seize(state, world(), cfg)
    assert [(e.ship, e.port) for e in events] == [("red-8", "eyl")]
    assert events[0].distance == pytest.approx(0.37) and state.ship("red-8").status is Status.HELD


def _collided_across_routes():
    """Return red-6a (Gulf) thrown into green-6a (Africa route) beside eyl; both immobilised, still touching."""
    state = replace(fleet_at(("red-6a", 0.62, 0.30)), turn=2)
    state = place(state, "green-6a", 0.60, 0.45, card=Card(30, N), route="africa", sailed_turn=1)
    r = roll(rest("red-6a", 0.54, 0.45), rest("green-6a", 0.5565, 0.45), contacts=(("red-6a", "green-6a"),))
    state, _ = apply_roll(state, "red-6a", r, world(), config())
    return state


def test_D15_R20_a_half_value_collision_partner_is_not_taken_along() -> None:
    state, events = seize(_collided_across_routes(), world(), config())
    assert [e.ship for e in events] == ["red-6a"] and state.ship("green-6a").status is Status.LOST_TURN
    state, events = seize(_collided_across_routes(), world(), config(pirate_targets="any_route"))
    assert [(e.ship, e.with_partner_of) for e in events] == [("red-6a", ""), ("green-6a", "red-6a")]


# D17: a port on land 1 cm inside the coast (the land's east coast is x = 0.50); the sea where a whole die
# lies at any heading starts 0.008 * sqrt(2) m off the coast, at x = 0.5113
HOBYO = (0.49, 0.45)


def inland_port():
    return replace(world(), pirate_ports=(PiratePort("hobyo", HOBYO),))


def _held_in_hobyo(cfg, *others: tuple[str, float, float]):
    """Return red-8 seized into hobyo, with these ships then at sea near it, when its lost turn comes (turn 2)."""
    state = fleet_at(("red-8", 0.56, 0.45))
    state, _ = seize(state, inland_port(), cfg)
    for name, x, y in others:
        state = place(state, name, x, y, **SOMALIA_N)
    return replace(state, turn=2)


def test_D17_a_ship_held_in_a_port_on_land_is_released_at_the_nearest_open_sea() -> None:
    state = _held_in_hobyo(config())
    assert state.ship("red-8").pose.position[:2] == HOBYO  # held in the port itself until its lost turn
    state, events = lose_turn(state, "red-8", inland_port(), config())
    red = state.ship("red-8")
    # rings 8 mm apart round the port: rings 1-2 reach only x = 0.506; ring 3 due east is the first at sea
    assert red.pose.position == pytest.approx((0.514, 0.45, 0.008))
    assert (red.status, red.skip) == (Status.AT_SEA, 0)  # set down once, then a ship at sea (D20)
    assert events == (TurnSkipped("red-8", "held"), Released("red-8", "hobyo", red.pose.position[:2]))
    assert not inland_port().land.intersects(footprint(red.pose, 0.016))


def test_D17_a_released_ship_is_set_down_two_die_edges_clear_of_every_die() -> None:
    # green-8 44 mm south of ring 3's first spot: 28 mm of water between them, less than two edges (32 mm);
    # the next spot on the ring, 20 degrees round, leaves 36 mm
    state = _held_in_hobyo(config(), ("green-8", 0.514, 0.406))
    state, _ = lose_turn(state, "red-8", inland_port(), config())
    red, green = state.ship("red-8").pose, state.ship("green-8").pose
    angle = math.radians(20)
    assert red.position[:2] == pytest.approx((0.49 + 0.024 * math.cos(angle), 0.45 + 0.024 * math.sin(angle)))
    assert footprint(red, 0.016).distance(footprint(green, 0.016)) == pytest.approx(0.024 * math.sin(angle) + 0.028)


def test_D17_the_release_spot_is_chosen_when_the_lost_turn_is_served_among_the_dice_lying_then() -> None:
    state = _held_in_hobyo(config())
    early, _ = lose_turn(state, "red-8", inland_port(), config())
    late, _ = lose_turn(place(state, "green-8", 0.514, 0.45, **SOMALIA_N), "red-8", inland_port(), config())
    assert early.ship("red-8").pose.position[:2] == pytest.approx((0.514, 0.45))
    gap = footprint(late.ship("red-8").pose, 0.016).distance(footprint(late.ship("green-8").pose, 0.016))
    assert gap >= 2 * 0.016


def test_D17_in_port_variant_the_released_ship_sails_on_from_where_it_was_held() -> None:
    cfg = config(release_spot="in_port")
    state = _held_in_hobyo(cfg, ("green-8", 0.514, 0.406))
    state, events = lose_turn(state, "red-8", inland_port(), cfg)
    assert state.ship("red-8").pose.position[:2] == HOBYO  # on land, where the pirates put it
    assert events == (TurnSkipped("red-8", "held"),)


def _lagoon_port():
    """Return the test map with a lagoon inside the land (x 0.44-0.48) and a port on land between it and the sea.

    The port (0.487, 0.45) is 0.7 cm from the lagoon's water and 1.3 cm from the sea's; but a whole die
    lies in the lagoon from x = 0.4687 (ring 3 west of the port, 2.4 cm) and in the sea only from x = 0.5113
    (ring 4 east, 3.2 cm): the nearest water a die fits in is the lagoon's.
    """
    land = box(0.25, 0.20, 0.50, 0.70).difference(box(0.44, 0.40, 0.48, 0.50))
    return replace(world(), lands=(replace(world().lands[0], polygon=land),),
                   pirate_ports=(PiratePort("hobyo", (0.487, 0.45)),))


def test_D17_a_released_ship_is_never_set_down_in_a_lagoon_it_could_not_sail_out_of() -> None:
    lagoon = _lagoon_port()
    state = fleet_at(("red-8", 0.56, 0.45))
    state, _ = seize(state, lagoon, config())
    state, events = lose_turn(replace(state, turn=2), "red-8", lagoon, config())
    red = state.ship("red-8").pose
    assert red.position[:2] == pytest.approx((0.487 + 4 * 0.008, 0.45))  # ring 4 east, in the open sea
    assert events[-1] == Released("red-8", "hobyo", red.position[:2])
    # the plain open sea (every water a die lies in) has the lagoon's spot on ring 3, which D17 passes over
    assert open_sea(lagoon, 0.016).contains(Point(0.487 - 3 * 0.008, 0.45))


def test_D8_D17_a_ship_taken_in_a_lagoon_is_released_where_seized_into_water_that_leads_out() -> None:
    lagoon, cfg = _lagoon_port(), config(held_release="where_seized")
    state = fleet_at(("red-8", 0.46, 0.46))
    state, _ = seize(state, lagoon, cfg)
    state = place(state, "green-8", 0.46, 0.44, **SOMALIA_N)  # in the lagoon too, beside where red-8 was taken
    state, _ = lose_turn(replace(state, turn=2), "red-8", lagoon, cfg)
    red = state.ship("red-8").pose
    assert red.position[0] >= 0.50 + 0.008 * math.sqrt(2)  # east of the land, in the sea that leads out
    assert not lagoon.land.intersects(footprint(red, 0.016))


def test_D17_water_joined_to_the_sea_by_a_strait_too_narrow_for_a_die_is_open_sea() -> None:
    lagoon = _lagoon_port()
    land = lagoon.lands[0].polygon.difference(box(0.47, 0.485, 0.51, 0.495))  # a 1 cm channel out of the lagoon
    joined = replace(lagoon, lands=(replace(lagoon.lands[0], polygon=land),))
    state = fleet_at(("red-8", 0.56, 0.45))
    state, _ = seize(state, joined, config())
    state, _ = lose_turn(replace(state, turn=2), "red-8", joined, config())
    x, y = state.ship("red-8").pose.position[:2]
    assert 0.44 < x < 0.48 and 0.40 < y < 0.50  # ring 3, in the lagoon: nearer than the sea east of the land


def test_D17_enclosed_water_a_leg_arrives_in_is_open_sea_for_that_leg_only() -> None:
    # an atoll east of the Somalia route's northern end whose lagoon the northbound destination overlaps
    atoll = Land("atoll", box(0.52, 0.76, 0.60, 0.86).difference(box(0.54, 0.78, 0.58, 0.84)))
    board = replace(world(), lands=world().lands + (atoll,))
    north, south = (board.route("somalia").leg(d).destination for d in (N, S))
    assert open_sea_toward(board, 0.016, north).contains(Point(0.56, 0.81))
    assert not open_sea_toward(board, 0.016, south).contains(Point(0.56, 0.81))
    assert open_sea_toward(board, 0.016, south).contains(Point(0.65, 0.81))


def test_D17_a_ship_with_no_leg_is_released_into_water_that_reaches_some_destination() -> None:
    area = open_sea_toward(_lagoon_port(), 0.016, None)
    assert not area.contains(Point(0.463, 0.45)) and area.contains(Point(0.52, 0.45))


def test_D17_when_nothing_is_two_edges_clear_the_spot_with_the_most_room_is_taken() -> None:
    # only the ring spots due east and west of (0.61, 0.31) lie in this strip; a die lies at (0.605, 0.31)
    strip = box(0.58, 0.3099, 0.64, 0.3101)
    spot = clear_pose(pose(0.61, 0.31), (0.61, 0.31), [pose(0.605, 0.31)], world(), 0.016, strip)
    assert spot.position[:2] == pytest.approx((0.634, 0.31))  # ring 3 east: 13 mm of water, the most there is


def _released_red_8(cfg):
    """Return red-8 seized at sea near bosaso and released at its lost turn (turn 2), with the release's events."""
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), cfg)
    return lose_turn(replace(state, turn=2), "red-8", world(), cfg)


def test_D20_a_released_ship_that_loses_another_turn_stays_where_it_lies() -> None:
    state, events = _released_red_8(config())
    assert [type(e) for e in events] == [TurnSkipped, Released]
    at = state.ship("red-8").pose.position
    state = place(state, "green-6a", at[0], at[1] - 0.03, **SOMALIA_N)  # green strikes it in turn 3
    state = replace(state, turn=3)
    state, _ = apply_roll(state, "green-6a", roll(rest("green-6a", at[0], at[1] - 0.017), contacts=(("green-6a", "red-8"),)),
                          world(), config())
    assert (state.ship("red-8").status, state.ship("red-8").skip) == (Status.LOST_TURN, 1)
    state, events = lose_turn(replace(state, turn=4), "red-8", world(), config())
    assert events == (TurnSkipped("red-8", "lost_turn"),)  # not released again: one set-down per seizure
    assert state.ship("red-8").pose.position == at


def test_D20_variant_held_a_lost_turn_before_it_sails_releases_it_again() -> None:
    cfg = config(after_release="held")
    state, _ = _released_red_8(cfg)
    state = replace(state, ships=tuple(replace(s, skip=1) if s.id == "red-8" else s for s in state.ships))
    state, events = lose_turn(replace(state, turn=3), "red-8", world(), cfg)
    assert [type(e) for e in events] == [TurnSkipped, Released]  # the reading before D20


def test_D20_a_released_ship_pushed_into_its_destination_arrives() -> None:
    state, _ = _released_red_8(config())
    at = state.ship("red-8").pose.position
    state = place(state, "green-6a", at[0], at[1] - 0.03, **SOMALIA_N)
    state = replace(state, turn=3)
    pushed = rest("red-8", 0.62, 0.80)  # into somalia's north zone (x 0.55-0.70, y 0.75-0.88)
    state, events = apply_roll(state, "green-6a", roll(rest("green-6a", at[0], at[1] - 0.017), pushed,
                                                        contacts=(("green-6a", "red-8"),)), world(), config())
    assert Arrived("red-8", "somalia", "north") in events
    assert state.ship("red-8").status is Status.ARRIVED
