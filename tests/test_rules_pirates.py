"""Pirates: the nearest ship to any port is seized (R13, D8); grounded and collided ships, the collision pair (R20)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from rules_fixtures import N, config, game, place, rest, roll, world
from somaliland.rules import Card, Status, apply_roll, lose_turn, nearest, seize, throwable

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
    state, events = lose_turn(state, "red-8", config())
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


def test_D8_a_held_ship_is_released_after_its_lost_turn_and_sails_on_from_the_port() -> None:
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), config())
    state, _ = lose_turn(replace(state, turn=2), "red-8", config())
    assert state.ship("red-8").status is Status.HELD  # still held (immune) until it sails
    state, _ = seize(state, world(), config())
    assert state.sheets[0].ransom == 2  # not taken again from its port
    state = replace(state, turn=3)
    state, _ = apply_roll(state, "red-8", roll(rest("red-8", 0.72, 0.60)), world(), config())
    assert state.ship("red-8").status is Status.AT_SEA


def test_D8_where_seized_variant_puts_the_released_ship_back_where_it_was_taken() -> None:
    cfg = config(held_release="where_seized")
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), cfg)
    state, _ = lose_turn(replace(state, turn=2), "red-8", cfg)
    assert state.ship("red-8").pose.position[:2] == pytest.approx((0.72, 0.67))


def test_R20_pirates_take_ships_aground() -> None:
    state = fleet_at(("green-6a", 0.56, 0.45))
    state = place(state, "red-6a", 0.50, 0.47, status=Status.AGROUND, skip=1, **SOMALIA_N)
    state, events = seize(state, world(), config())
    assert events[0].ship == "red-6a" and state.ship("red-6a").skip == 2


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


def test_D8_where_seized_release_makes_room_if_another_die_now_lies_there() -> None:
    cfg = config(held_release="where_seized")
    state = fleet_at(("red-8", 0.72, 0.67))
    state, _ = seize(state, world(), cfg)
    state = place(state, "green-8", 0.72, 0.67, **SOMALIA_N)
    state, _ = lose_turn(replace(state, turn=2), "red-8", cfg)
    assert math.dist(state.ship("red-8").pose.position[:2], (0.72, 0.67)) == pytest.approx(1.5 * 0.016)


def test_R13_as_written_pirates_take_the_nearest_ship_even_on_the_safe_route() -> None:
    # only an Africa ship at sea: by default (R13 as written) the pirates still take it
    state = fleet_at(("red-8", 0.15, 0.45), card=Card(30, N), route="africa")
    state, events = seize(state, world(), config())
    assert events[0].ship == "red-8" and state.ship("red-8").status is Status.HELD


def test_R13_variant_full_route_pirates_never_take_a_ship_on_the_safe_route() -> None:
    cfg = config(pirate_targets="full_route")
    state = fleet_at(("red-8", 0.15, 0.45), card=Card(30, N), route="africa")
    assert seize(state, world(), cfg) == (state, ())
    # a Gulf ship further away is taken instead of the nearer Africa ship
    state = place(state, "green-6a", 0.62, 0.05, **SOMALIA_N)  # 41 cm from eyl; red-8 is 37 cm
    assert nearest(state, world(), config())[0].id == "red-8"
    assert nearest(state, world(), cfg)[0].id == "green-6a"


def test_R13_variant_pirate_targets_is_checked_by_the_rules_loader() -> None:
    from somaliland.rules.config import rules_from_dict
    from somaliland.rules.errors import RulesConfigError

    assert rules_from_dict({"pirate_targets": "full_route"}).pirate_targets == "full_route"
    with pytest.raises(RulesConfigError, match="pirate_targets"):
        rules_from_dict({"pirate_targets": "nobody"})
