"""Moves: the six-move limit (R15, D10), where a throw starts (R12, R16), losing a turn."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from rules_fixtures import N, config, game, place, rest, roll, world
from somaliland.rules import (Card, IllegalActionError, Status, apply_roll, check_throw, launch_pose, lose_turn,
                              moves_left, throwable)


def test_R15_a_ship_that_has_made_six_moves_may_not_move_again() -> None:
    state = replace(game(), turn=6)
    state = place(state, "red-6a", 0.62, 0.5, card=Card(30, N), route="somalia", moves=6, sailed_turn=5)
    state = place(state, "red-8", 0.62, 0.4, card=Card(30, N), route="somalia", moves=5, sailed_turn=5)
    assert throwable(state, config()) == ("red-8",)
    with pytest.raises(IllegalActionError) as caught:
        apply_roll(state, "red-6a", roll(rest("red-6a", 0.62, 0.6)), world(), config())
    assert caught.value.legal == ["red-8"]


def test_D10_the_launch_is_the_first_move_and_a_late_launch_has_fewer_moves() -> None:
    cfg = config()
    state = replace(game(), turn=3)
    state = place(state, "red-6a", status=Status.IN_PORT, card=Card(30, N), route="somalia")
    ship = state.ship("red-6a")
    assert moves_left(ship, 1, cfg) == 6 and moves_left(ship, 3, cfg) == 4
    state, _ = apply_roll(state, "red-6a", roll(rest("red-6a", 0.62, 0.2)), world(), cfg)
    assert state.ship("red-6a").moves == 1
    off = config(launch_is_first_move=False)
    state2 = place(replace(game(off), turn=3), "red-6a", status=Status.IN_PORT, card=Card(30, N), route="somalia")
    state2, _ = apply_roll(state2, "red-6a", roll(rest("red-6a", 0.62, 0.2)), world(), off)
    assert state2.ship("red-6a").moves == 0


def test_D10_a_round_has_six_turns() -> None:
    from somaliland.rules import begin_turn
    state = game()
    for _ in range(5):
        state = begin_turn(state, config())
    assert state.turn == 6
    with pytest.raises(IllegalActionError, match="last"):
        begin_turn(state, config())


def test_R16_a_throw_must_start_where_the_ship_stood() -> None:
    state = replace(game(), turn=2)
    state = place(state, "red-6a", 0.62, 0.5, card=Card(30, N), route="somalia", sailed_turn=1)
    check_throw(state, "red-6a", (0.63, 0.51), math.pi / 2, world(), config())
    with pytest.raises(IllegalActionError, match="R16"):
        check_throw(state, "red-6a", (0.62, 0.60), math.pi / 2, world(), config())


def test_R12_a_launch_starts_at_the_routes_start_in_its_direction() -> None:
    state = place(game(), "red-6a", status=Status.IN_PORT, card=Card(30, N), route="somalia")
    assert launch_pose(state.ship("red-6a"), world(), config()).position == (0.62, 0.10, 0.008)
    check_throw(state, "red-6a", (0.62, 0.10), math.pi / 2 + 0.3, world(), config())
    with pytest.raises(IllegalActionError, match="R12"):
        check_throw(state, "red-6a", (0.62, 0.10), -math.pi / 2, world(), config())
    with pytest.raises(IllegalActionError, match="R16"):
        check_throw(state, "red-6a", (0.62, 0.80), math.pi / 2, world(), config())


def test_a_ship_with_a_turn_to_lose_loses_its_move_then_sails_on() -> None:
    state = replace(game(), turn=2)
    state = place(state, "red-6a", 0.62, 0.5, status=Status.AGROUND, card=Card(30, N), route="somalia",
                  skip=1, sailed_turn=1)
    assert throwable(state, config()) == ()
    state, events = lose_turn(state, "red-6a", world(), config())
    ship = state.ship("red-6a")
    assert (ship.status, ship.skip, ship.sailed_turn) == (Status.AT_SEA, 0, 2)
    assert events[0].status == "aground"
    with pytest.raises(IllegalActionError):
        lose_turn(state, "red-6a", world(), config())
