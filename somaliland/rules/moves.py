"""Moves: who may throw now, the six-move limit (R15, D10), lost turns (D16), release (D17), origins (R12, R16)."""

from __future__ import annotations

import math
from dataclasses import replace

import shapely
from shapely.geometry.base import BaseGeometry

from physics import Pose
from physics.dice import FACE_NAMES
from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.events import Released, TurnSkipped
from somaliland.rules.fleet import die_spec
from somaliland.rules.order import due_to_sail
from somaliland.rules.placement import clear_pose, free_spot, on_board, open_sea, open_sea_toward
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


def owed_turns(skip: int, config: RulesConfig) -> int:
    """Return the turns a ship must lose after one more accident, given the `skip` it owes already (D16).

    "Loses a turn" (R13, R17, R18, R19) means it skips its next move; a ship that must skip it already
    still skips that one move, unless `lost_turns = "add_up"` (grounded, then seized: two).
    """
    return skip + 1 if config.lost_turns == "add_up" else max(skip, 1)


def lose_turn(state: GameState, ship_id: str, world: Map,
              config: RulesConfig) -> tuple[GameState, tuple[TurnSkipped | Released, ...]]:
    """Return the state after the ship loses the move that came to it; release a held ship after its last (D8, D17, D20).

    Lost turns come from R13, R17, R18 and R19. A held ship is set down once for each seizure, when its lost
    turn comes, and is from then on a ship at sea like any other (D20): a later lost turn leaves it where it
    lies, pirates may take it again, and it arrives if pushed into its destination (R18). Its lost turn lasts
    to the turn's end (D8: released *after* its lost turn), so the raid that closes the turn cannot take it
    (`ShipState.just_released`, cleared by `game.begin_turn`); without that, a ship set down beside the port
    would be the nearest at every raid and never sail again.
    `after_release = "held"`, the reading before D20: it stays held (pirates leave it alone) until it sails,
    and a lost turn before then releases it again.

    Raises:
        IllegalActionError: the ship has no turn to lose now.
    """
    ship = state.ship(ship_id)
    if not (due_to_sail(ship, state, config) and ship.skip > 0):
        due = [s.id for s in state.ships if due_to_sail(s, state, config) and s.skip > 0]
        raise IllegalActionError("lost turn", f"{ship_id} has no turn to lose now", due)
    skip = ship.skip - 1
    status, pose = ship.status, ship.pose
    held_in, seized_from = ship.held_in, ship.seized_from
    released: tuple[Released, ...] = ()
    if skip == 0 and status is not Status.HELD:
        status = Status.AT_SEA
    if skip == 0 and status is Status.HELD:
        pose, released = release(state, ship, world, config)
        if config.after_release == "at_sea":
            status, held_in, seized_from = Status.AT_SEA, "", None
    new = replace(ship, skip=skip, status=status, pose=pose, sailed_turn=state.turn, partners=(), held_in=held_in,
                  seized_from=seized_from, just_released=bool(released) and config.after_release == "at_sea")
    return with_ships(state, new), (TurnSkipped(ship_id, ship.status.value),) + released


def release(state: GameState, ship: ShipState, world: Map, config: RulesConfig) -> tuple[Pose, tuple[Released, ...]]:
    """Return where a held ship sails on from once its lost turn is served, and the event if it moved (D8, D17).

    D17 sets it down in open sea (water from which its destination can be reached: never an enclosed lagoon
    or lake) at its pirate port (or, under D8's `where_seized`, where it was taken: in that open sea if it was
    taken on water, a lagoon included, else on the board), clear of every other die by two die edges.
    It is moved now, when its lost turn is served, not when it was seized: the board has changed since
    (ships thrown near the port, others seized into it), and its spot must be clear of the dice as they
    lie now; set down before the turn goes on, it is where every later throw, launch and seizure sees
    it, and its next throw starts from there.
    `release_spot = "in_port"`: it sails on from where it was held (1.5 die edges from other dice,
    wherever the port is), or under `where_seized` from where it was taken, 1.5 die edges clear.
    """
    others = [s.pose for s in state.ships if s.pose is not None and s.id != ship.id]
    taken = ship.seized_from if config.held_release == "where_seized" else None
    if config.release_spot == "in_port":
        if taken is None:
            return ship.pose, ()  # type: ignore[return-value]
        x, y, z = taken.position
        at = free_spot((x, y), [o.position[:2] for o in others], config.die_size)
        return Pose((at[0], at[1], z), taken.orientation), ()
    sea = open_sea_toward(world, config.die_size, destination_of(ship, world))
    if taken is not None:
        near = taken.position[:2]
        on_water = shapely.contains_xy(open_sea(world, config.die_size), *near)
        area = sea if on_water else on_board(world, config.die_size)
    else:
        near, area = {p.name: p.point for p in world.pirate_ports}[ship.held_in], sea
    pose = clear_pose(taken or ship.pose, near, others, world, config.die_size, area)  # type: ignore[arg-type]
    return pose, (Released(ship.id, ship.held_in, pose.position[:2]),)


def destination_of(ship: ShipState, world: Map) -> BaseGeometry | None:
    """Return the destination zone of the leg the ship sails this round, or None if it sails none."""
    if ship.route is None or ship.direction is None:
        return None
    return world.route(ship.route).leg(ship.direction).destination
