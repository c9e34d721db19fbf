"""Moves: who may be thrown now, the six-move limit (R15, D10), lost turns and where a throw may start (R12, R16)."""

from __future__ import annotations

import math
from dataclasses import replace

from physics import Pose
from physics.dice import FACE_NAMES
from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.events import TurnSkipped
from somaliland.rules.fleet import die_spec
from somaliland.rules.order import due_to_sail
from somaliland.rules.placement import free_spot
from somaliland.rules.state import GameState, ShipState, Status, with_ships

UP = FACE_NAMES.index("+z")


def moves_left(ship: ShipState, turn: int, config: RulesConfig) -> int:
    """Return how many more moves the ship can make this round, counting turn `turn` (R15, D10)."""
    return max(0, min(config.max_moves - ship.moves, config.turns_per_round - turn + 1))


def counts_as_move(ship: ShipState, config: RulesConfig) -> bool:
    """Return True if throwing this ship now uses one of its moves (R15; D10: the launch is the first)."""
    return ship.status is not Status.IN_PORT or config.launch_is_first_move


def throwable(state: GameState, config: RulesConfig) -> tuple[str, ...]:
    """Return the ships that may be thrown now: launchable ones, or those due to move with no turn to lose."""
    launch = [s for s in state.ships if s.status is Status.IN_PORT and s.card is not None]
    sail = [s for s in state.ships if due_to_sail(s, state, config) and s.skip == 0]
    return tuple(s.id for s in launch + sail if moves_left(s, state.turn, config) > 0 or not counts_as_move(s, config))


def launch_pose(ship: ShipState, world: Map, config: RulesConfig) -> Pose:
    """Return where a ship waits to be launched: flat on its route's start, +z face up (R12)."""
    if ship.card is None or ship.route is None:
        raise IllegalActionError("launch", f"{ship.id} carries no contract", "ships assigned to a contract")
    x, y = world.route(ship.route).leg(ship.card.direction).start
    return Pose.resting(die_spec(ship.spec, config.die_size, config.die_mass), x, y, face_up=UP)


def start_pose(ship: ShipState, world: Map, config: RulesConfig) -> Pose:
    """Return where the ship's next throw starts: its pose, or its route's start when in port (R12, R16)."""
    return ship.pose if ship.pose is not None else launch_pose(ship, world, config)


def _angle_between(a: float, b: float) -> float:
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


def check_throw(state: GameState, ship_id: str, origin: tuple[float, float], heading: float, world: Map,
                config: RulesConfig) -> None:
    """Raise unless the ship may be thrown now from `origin` (R12, R15, R16).

    The throw must start roughly where the ship stands (R16); a launch starts at the route's start
    and heads along the route's direction (R12).

    Raises:
        IllegalActionError: the ship may not move now, or the throw starts elsewhere (lists what was legal).
    """
    legal = throwable(state, config)
    if ship_id not in legal:
        raise IllegalActionError("throw", f"{ship_id} may not be thrown now", list(legal))
    ship = state.ship(ship_id)
    x, y = start_pose(ship, world, config).position[:2]
    if math.dist(origin, (x, y)) > config.throw_tolerance:
        raise IllegalActionError("throw", f"origin {origin} is not where {ship_id} stands (R16)",
                                 f"within {config.throw_tolerance} m of ({x:.3f}, {y:.3f})")
    if ship.status is Status.IN_PORT:
        leg = world.route(ship.route).leg(ship.card.direction)  # type: ignore[arg-type, union-attr]
        if _angle_between(heading, leg.heading) > config.launch_heading_tolerance:
            raise IllegalActionError("launch", f"heading {heading:.3f} rad is not the route's direction (R12)",
                                     f"within {config.launch_heading_tolerance:.3f} rad of {leg.heading:.3f}")


def lose_turn(state: GameState, ship_id: str, config: RulesConfig) -> tuple[GameState, tuple[TurnSkipped, ...]]:
    """Return the state after the ship loses the move that came to it (R13, R17, R18, R19; D8 release).

    Raises:
        IllegalActionError: the ship has no turn to lose now.
    """
    ship = state.ship(ship_id)
    if not (due_to_sail(ship, state, config) and ship.skip > 0):
        due = [s.id for s in state.ships if due_to_sail(s, state, config) and s.skip > 0]
        raise IllegalActionError("lost turn", f"{ship_id} has no turn to lose now", due)
    skip = ship.skip - 1
    status, pose = ship.status, ship.pose
    if skip == 0 and status is not Status.HELD:
        status = Status.AT_SEA
    if skip == 0 and status is Status.HELD and config.held_release == "where_seized" and ship.seized_from:
        others = [s.pose.position[:2] for s in state.ships if s.pose is not None and s.id != ship_id]
        x, y, z = ship.seized_from.position
        at = free_spot((x, y), others, config.die_size)
        pose = Pose((at[0], at[1], z), ship.seized_from.orientation)
    new = replace(ship, skip=skip, status=status, pose=pose, sailed_turn=state.turn, partners=())
    return with_ships(state, new), (TurnSkipped(ship_id, ship.status.value),)
