"""The rules read real physics: rolls simulated by PyBullet on the small test map decide the accidents.

Each scene is one short roll (about 10 ms); the expected outcomes sit well clear of their thresholds.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from physics import Scene, Throw
from rules_fixtures import N, config, game, place, world
from somaliland.rules import Card, Status, apply_roll, placed_dice, seize

NORTH, WEST = math.pi / 2, math.pi


def throw_in(roller, ships: list[tuple[str, float, float]], thrown: str, heading: float, speed: float):
    """Return the state before, the roll, and apply_roll's state and event kinds for one real throw."""
    cfg, the_map = config(), world()
    state = replace(game(cfg), turn=2)
    for name, x, y in ships:
        state = place(state, name, x, y, card=Card(30, N), route="somalia", sailed_turn=1)
    origin = state.ship(thrown).pose.position[:2]
    result = roller.roll(Scene(board=the_map.board(), dice=placed_dice(state, cfg)),
                         Throw(thrown, origin, heading=heading, speed=speed))
    after, events = apply_roll(state, thrown, result, the_map, cfg)
    return result, after, [e.kind for e in events]


def test_R17_a_die_rolled_onto_the_land_is_aground(roller) -> None:
    result, after, kinds = throw_in(roller, [("red-24", 0.56, 0.45)], "red-24", WEST, 1.0)
    assert result.thrown.position[0] < 0.48  # well inside the land's east coast at x = 0.50
    assert kinds == ["grounded", "lost_turn"] and after.ship("red-24").status is Status.AGROUND


def test_R17_a_die_stopping_short_of_the_coast_is_afloat(roller) -> None:
    result, after, kinds = throw_in(roller, [("red-24", 0.56, 0.45)], "red-24", WEST, 0.4)
    assert result.thrown.position[0] > 0.52 and kinds == []


def test_R18_a_die_thrown_into_another_collides_and_both_lose_a_turn(roller) -> None:
    result, after, kinds = throw_in(roller, [("red-24", 0.62, 0.30), ("green-6a", 0.62, 0.36)], "red-24", NORTH, 1.5)
    assert result.tipovers == () and kinds == ["collision", "lost_turn", "lost_turn"]
    assert after.ship("red-24").status is after.ship("green-6a").status is Status.LOST_TURN


def test_R18_a_die_that_knocks_another_over_sinks(roller) -> None:
    result, after, kinds = throw_in(roller, [("red-24", 0.62, 0.30), ("green-6a", 0.62, 0.36)], "red-24", NORTH, 2.5)
    assert [t.name for t in result.tipovers] == ["green-6a"]
    assert kinds == ["collision", "tipped", "sunk", "lost_turn"] and after.ship("red-24").status is Status.SUNK


def test_R19_a_die_thrown_off_the_table_comes_back_to_the_nearest_sea(roller) -> None:
    result, after, kinds = throw_in(roller, [("red-24", 0.62, 0.85)], "red-24", NORTH, 3.0)
    assert result.off_board and result.off_board[0].fell_off_table
    assert kinds == ["replaced", "lost_turn"]
    assert after.ship("red-24").pose.position[1] == pytest.approx(0.90 - 0.008)


def test_R9_a_die_rolled_into_its_destination_arrives(roller) -> None:
    result, after, kinds = throw_in(roller, [("red-24", 0.62, 0.55)], "red-24", NORTH, 1.3)
    assert 0.77 < result.thrown.position[1] < 0.86
    assert kinds == ["arrived"] and after.ship("red-24").status is Status.ARRIVED


def test_R13_the_rolled_ship_nearest_a_port_is_seized_for_its_top_face(roller) -> None:
    result, after, _ = throw_in(roller, [("red-24", 0.62, 0.30), ("green-6a", 0.62, 0.60)], "red-24", NORTH, 0.6)
    state, events = seize(after, world(), config())
    nearest = min(("red-24", "green-6a"), key=lambda s: min(
        math.dist(after.ship(s).pose.position[:2], p.point) for p in world().pirate_ports))
    assert events[0].ship == nearest and events[0].ransom == after.ship(nearest).top_value()
