"""Apply one roll's physics result to the game state: poses, launch, arrival and accidents (R12–R19, D19)."""

from __future__ import annotations

from dataclasses import replace

from physics import Pose, RollResult
from somaliland.map.model import Map
from somaliland.rules.accidents import crash, is_aground, replacement_point, replacement_room
from somaliland.rules.arrival import in_destination
from somaliland.rules.config import RulesConfig
from somaliland.rules.errors import IllegalActionError, RollMismatchError
from somaliland.rules.events import (Arrived, Collision, Event, Grounded, Launched, LostTurn, Replaced, Sunk,
                                     Tipped)
from somaliland.rules.landfall import Landfall, landfall
from somaliland.rules.moves import counts_as_move, destination_of, owed_turns, start_pose, throwable
from somaliland.rules.placement import clear_pose, free_spot, open_sea_toward, set_down
from somaliland.rules.state import SAILING, GameState, ShipState, Status, with_ships

SAILS_ON = (Status.AT_SEA, Status.AGROUND, Status.LOST_TURN, Status.OFF_BOARD)  # a tuple, as SAILING (state.py)


def _check_roll(state: GameState, ship_id: str, roll: RollResult, config: RulesConfig) -> None:
    """Raise unless the roll throws this ship and moves only ships on the board."""
    legal = throwable(state, config)
    if ship_id not in legal:
        raise IllegalActionError("throw", f"{ship_id} may not be thrown now", list(legal))
    if roll.thrown.name != ship_id:
        raise RollMismatchError(f"the roll threw {roll.thrown.name!r}, not {ship_id!r}")
    for rest in roll.moved[1:]:
        other = next((s for s in state.ships if s.id == rest.name), None)
        if other is None or other.pose is None:
            raise RollMismatchError(f"the roll moved {rest.name!r}, which is not a ship on the board")


def _put_back(name: str, rest: tuple[float, float], before: tuple[float, float], ships: dict[str, ShipState],
              world: Map, config: RulesConfig) -> tuple[float, float]:
    """Return where a die that left the board is set down: D13's point, moved clear of other dice (R19)."""
    at = replacement_point(rest, before, world, config)
    others = [s.pose.position[:2] for s in ships.values() if s.pose is not None and s.id != name]
    area = None if config.off_board == "move_start" else replacement_room(world, config)
    return free_spot(at, others, config.die_size, area)


def _landfalls(roll: RollResult, ships: dict[str, ShipState], world: Map,
               config: RulesConfig) -> dict[str, Landfall]:
    """Return where each sailing ship the roll moved first ran aground on its way, by its path (R17, D19).

    Raises:
        RollMismatchError: a moved die has no path to judge (D19 needs every moved die's path).
    """
    if config.grounding_on == "rest":
        return {}
    paths = {p.name: p for p in roll.paths}
    found = {}
    for rest in roll.moved:
        if ships[rest.name].status not in SAILS_ON:
            continue
        path = paths.get(rest.name)
        if path is None:
            raise RollMismatchError(f"the roll kept no path of {rest.name!r}: D19 (grounding_on = \"path\") "
                                    "judges where each moved die rolled")
        fall = landfall(path, world, config)
        if fall is not None:
            found[rest.name] = fall
    return found


def _set_down_aground(landed: dict[str, Landfall], ships: dict[str, ShipState], world: Map,
                      config: RulesConfig) -> None:
    """Set each ship that ran aground on its way down in open sea where it crossed the coast, clear of every
    other die as they lie (D19, as D17), in the order the roll moved them; `ships` is updated in place."""
    for name, fall in landed.items():
        ship = ships[name]
        others = [s.pose for s in ships.values() if s.pose is not None and s.id != name]
        area = open_sea_toward(world, config.die_size, destination_of(ship, world))
        ships[name] = replace(ship, pose=clear_pose(ship.pose, fall.crossed, others, world, config.die_size,  # type: ignore[arg-type]
                                                    area))


def apply_roll(state: GameState, ship_id: str, roll: RollResult, world: Map, config: RulesConfig,
               landfalls: dict[str, Landfall] | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """Return the state after the ship's throw came to rest as `roll` says, and what happened (R12–R19).

    A ship in port is launched (R12). Every moved die takes its rest pose; a ship that rolled over land on
    its way is aground where it first crossed the coast (R17, D19: `landfall`) and is set down there, clear of
    every die (as D17); a die off the board is put back (R19, D13); touches and tip-overs make collisions,
    lost turns and sinking (R18, D12); a ship in its destination arrives (R9), one resting on land is aground
    (R17, D11). The thrown ship uses a move (R15, D10). A ship loses at most one turn per roll, whatever the accidents, and none more
    if it owes one already (D16, unless `lost_turns = "add_up"`). Being put back is not a move (R19, D13):
    a ship put back arrives only by a later move or push, even if put back inside its destination, and
    keeps its lost turn (`off_board_arrival = "same_throw"`: it arrives at once and the lost turn goes).

    A ship that ran aground on its way (D19) is set down before the put-backs (it ran aground first, whatever
    happened after) and arrives if it is set down in its destination. `landfalls` gives the D19 verdicts
    for a roll whose paths were not kept (a record made with `--no-paths`: the fold reads them from its
    `grounded` lines); otherwise they are found from the roll's paths.

    Raises:
        IllegalActionError: the ship may not be thrown now (lists those that may).
        RollMismatchError: the roll is of another die, or moved a die that is not on the board, or (D19) a
            moved die has no path and no verdict was given.
    """
    _check_roll(state, ship_id, roll, config)
    thrown = state.ship(ship_id)
    events: list[Event] = []
    if thrown.status is Status.IN_PORT:
        events.append(Launched(ship_id, thrown.route or "", thrown.direction.value))  # type: ignore[union-attr]
    start = start_pose(thrown, world, config).position[:2]
    ships = {s.id: s for s in state.ships}
    ships[ship_id] = replace(thrown, status=Status.AT_SEA if thrown.status in (Status.IN_PORT, Status.HELD)
                             else thrown.status, moves=thrown.moves + counts_as_move(thrown, config),
                             sailed_turn=state.turn, partners=(), seized_from=None, held_in="")
    penalised: dict[str, str] = {}
    for rest in roll.moved:
        ships[rest.name] = replace(ships[rest.name], pose=Pose(rest.position, rest.orientation))
    landed = _landfalls(roll, ships, world, config) if landfalls is None else landfalls
    _set_down_aground(landed, ships, world, config)
    off = {o.name for o in roll.off_board} - landed.keys()
    for rest in roll.moved:
        if rest.name in off:
            pose_before = state.ship(rest.name).pose
            before = start if rest.name == ship_id else pose_before.position[:2]  # type: ignore[union-attr]
            at = _put_back(rest.name, rest.position[:2], before, ships, world, config)
            ships[rest.name] = replace(ships[rest.name], pose=set_down(ships[rest.name].pose, at, config.die_size,
                                                                       world))  # type: ignore[arg-type]
            events.append(Replaced(rest.name, rest.position, at))
            penalised[rest.name] = Status.OFF_BOARD.value
    result = crash(roll, config)
    events.extend(Collision(ship_id, a, b) for a, b in result.pairs)
    events.extend(Tipped(t.name, t.value_before, t.value_after) for t in result.tipped)
    for name in result.losers:
        partners = tuple(b if a == name else a for a, b in result.pairs if name in (a, b))
        ships[name] = replace(ships[name], partners=partners)
        penalised.setdefault(name, Status.LOST_TURN.value)
    if result.sunk:
        events.append(Sunk(ship_id, tuple(t.name for t in result.tipped)))
        ships[ship_id] = replace(ships[ship_id], status=Status.SUNK, pose=None, partners=())
        penalised.pop(ship_id, None)
    put_back = off if config.off_board_arrival == "later_move" else set()
    for rest in roll.moved:
        ship = ships[rest.name]
        fall = landed.get(rest.name)
        if fall is not None and ship.status in SAILS_ON:
            events.append(Grounded(ship.id, ship.pose.position[:2], fall.crossed, fall.time))  # type: ignore[union-attr]
            penalised[rest.name] = Status.AGROUND.value
        if (ship.status in SAILS_ON and rest.name not in put_back
                and in_destination(ship, ship.pose, world)):  # type: ignore[arg-type]
            ships[rest.name] = replace(ship, status=Status.ARRIVED)
            events.append(Arrived(ship.id, ship.route or "", ship.direction.value))  # type: ignore[union-attr]
            penalised.pop(rest.name, None)
        elif (fall is None and ship.status in SAILS_ON and rest.name not in off
              and is_aground(ship.pose, world, config)):  # type: ignore[arg-type]
            events.append(Grounded(ship.id, ship.pose.position[:2]))  # type: ignore[union-attr]
            penalised[rest.name] = Status.AGROUND.value
    for name, reason in penalised.items():
        ship = ships[name]
        if ship.status in SAILING:
            status = ship.status if ship.status is Status.HELD else Status(reason)
            ships[name] = replace(ship, status=status, skip=owed_turns(ship.skip, config))
            events.append(LostTurn(name, reason))
    return with_ships(state, *ships.values()), tuple(events)
