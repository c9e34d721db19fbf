"""Who acts when: the first player (R7, D4), the launching order (R12, D7), the movement order (R14, D9)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from somaliland.map.model import Direction, Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.state import SAILING, GameState, ShipState, Status


def draw_first_player(config: RulesConfig, rng: np.random.Generator) -> int:
    """Return the first player of round 1: drawn from the game's generator, or seat 0 (R7, D4)."""
    return int(rng.integers(config.players)) if config.first_player == "random" else 0


def next_first_player(first: int, players: int) -> int:
    """Return the next round's first player: the one to the left of this round's (R7)."""
    return (first + 1) % players


def play_order(first: int, players: int) -> tuple[int, ...]:
    """Return the seats in play order, starting with the round's first player and going left (R7)."""
    return tuple((first + k) % players for k in range(players))


def launchable(state: GameState, seat: int) -> tuple[ShipState, ...]:
    """Return this seat's ships that may still be launched this round: in port, carrying a contract (R12)."""
    return tuple(s for s in state.fleet(seat) if s.status is Status.IN_PORT and s.card is not None)


@dataclass(frozen=True, slots=True)
class LaunchPhase:
    """One launching phase: who acts next and who has passed (R12, D7)."""

    seats: tuple[int, ...]  # play order
    at: int = 0
    passed: frozenset[int] = frozenset()


def open_launch(state: GameState) -> LaunchPhase:
    """Return a launching phase that starts with the round's first player (R12, R14)."""
    return LaunchPhase(play_order(state.first_player, state.players))


def launcher(phase: LaunchPhase, state: GameState) -> int | None:
    """Return the seat to launch or pass next, or None when the phase is over (R12, D7).

    A player with nothing left to launch is skipped as if passing.
    """
    n = len(phase.seats)
    for k in range(n):
        seat = phase.seats[(phase.at + k) % n]
        if seat not in phase.passed and launchable(state, seat):
            return seat
    return None


def after_launch(phase: LaunchPhase, seat: int, launched: bool, config: RulesConfig) -> LaunchPhase:
    """Return the phase after `seat` launched a ship or passed; the turn goes to the left (R12, D7)."""
    at = (phase.seats.index(seat) + 1) % len(phase.seats)
    if not launched:
        return replace(phase, at=at, passed=phase.passed | {seat})
    return replace(phase, at=at, passed=phase.passed if config.launch_pass_is_final else frozenset())


def leg_order(world: Map) -> tuple[tuple[str, Direction], ...]:
    """Return the legs in moving order: safe south, full south, full north, safe north (R14).

    Several routes of one kind (a map may have any number, maps/README.md) move in the order the map lists them.
    """
    safe = [r.name for r in world.routes if not r.full_value]
    full = [r.name for r in world.routes if r.full_value]
    return (tuple((r, Direction.SOUTH) for r in safe) + tuple((r, Direction.SOUTH) for r in full)
            + tuple((r, Direction.NORTH) for r in full) + tuple((r, Direction.NORTH) for r in safe))


def due_to_sail(ship: ShipState, state: GameState, config: RulesConfig) -> bool:
    """Return True if the ship still has its move (or a turn to lose) in this turn (R14, R15)."""
    return (ship.status in SAILING and ship.pose is not None and ship.card is not None
            and ship.sailed_turn < state.turn and ship.moves < config.max_moves)


def next_to_sail(state: GameState, world: Map, config: RulesConfig) -> ShipState | None:
    """Return the ship whose move comes next this turn, or None when every route has moved (R14, D9).

    Legs move in R14's order; on each, the ship furthest along goes first (D9), judged afresh
    before each move. Ships equally far along (common: dice set down beside a pirate port all project
    onto the same bend of the route) go in this round's play order, which rotates with the first player
    (R7), or by seat (red first) under `pitchcar_ties = "seat_order"`, a fixed colour order. The ship
    returned may have a turn to lose instead (see `moves.lose_turn`).
    """
    sign = -1.0 if config.pitchcar_order == "furthest_first" else 1.0
    seats = (play_order(state.first_player, state.players) if config.pitchcar_ties == "turn_order"
             else tuple(range(state.players)))
    rank = {seat: k for k, seat in enumerate(seats)}
    for route_name, direction in leg_order(world):
        route = world.route(route_name)
        due = [s for s in state.ships if due_to_sail(s, state, config)
               and s.route == route_name and s.direction is direction]
        if due:
            xy = np.array([s.pose.position[:2] for s in due])  # type: ignore[union-attr]
            along = route.progress_along(direction, xy)
            return min(zip(due, along.tolist()), key=lambda d: (sign * d[1], rank[d[0].owner]))[0]
    return None
