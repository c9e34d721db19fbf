"""Pirates: after each launching phase and each turn the ship nearest any pirate port is seized (R13, R20, D8)."""

from __future__ import annotations

import math
from dataclasses import replace

from somaliland.map.model import Map, PiratePort
from somaliland.rules.accidents import touching
from somaliland.rules.config import RulesConfig
from somaliland.rules.events import Seized
from somaliland.rules.moves import owed_turns
from somaliland.rules.placement import free_spot, set_down
from somaliland.rules.state import SAILING, GameState, ShipState, Status, with_sheet, with_ships


def eligible(ship: ShipState, config: RulesConfig) -> bool:
    """Return True if pirates may take this ship: at sea on the board and not ignored by D8 (R13, R20)."""
    return (ship.pose is not None and (ship.status in SAILING or ship.status is Status.ARRIVED)
            and ship.status.value not in config.pirates_ignore)


def targetable(ship: ShipState, world: Map, config: RulesConfig) -> bool:
    """Return True if pirates may take this ship: eligible, and on a route they reach (R13, D15)."""
    return eligible(ship, config) and targets_route(ship.route is not None and world.route(ship.route).full_value,
                                                    config)


def targets_route(full_value: bool, config: RulesConfig) -> bool:
    """Return True if pirates may take ships on a route of this kind (R13, D15).

    D15: R8 calls the half-value route safe and the pirates operate in the Gulf of Aden, so they take
    only ships on a full-value route; `pirate_targets = "any_route"` reads R13 literally (the nearest
    ship on any route, so the safe route is safe only while someone sails nearer the pirates).
    """
    return full_value or config.pirate_targets == "any_route"


def nearest(state: GameState, world: Map, config: RulesConfig) -> tuple[ShipState, PiratePort, float] | None:
    """Return the targetable ship nearest any pirate port, the port and the distance on the board (R13, D8, D15).

    Distances run from the die's centre to the port; ties go to the ship listed first.
    """
    best: tuple[ShipState, PiratePort, float] | None = None
    for ship in state.ships:
        if not targetable(ship, world, config):
            continue
        for port in world.pirate_ports:
            d = math.dist(ship.pose.position[:2], port.point)  # type: ignore[union-attr]
            if best is None or d < best[2]:
                best = (ship, port, d)
    return best


def _take(state: GameState, ship: ShipState, port: PiratePort, world: Map,
          config: RulesConfig) -> tuple[GameState, int]:
    """Return the state with the ship held in the port and its ransom charged to its owner, and the ransom (R13).

    The die is set down at the port, or beside it when other dice lie there, showing the face it showed.
    It loses a turn, which adds to one it owes already only if `lost_turns = "add_up"` (D16).
    """
    ransom = ship.top_value()
    others = [s.pose.position[:2] for s in state.ships if s.pose is not None and s.id != ship.id]
    at = free_spot(port.point, others, config.die_size)
    pose = set_down(ship.pose, at, config.die_size, world)  # type: ignore[arg-type]
    held = replace(ship, status=Status.HELD, pose=pose, skip=owed_turns(ship.skip, config),
                   seized_from=ship.pose, held_in=port.name, partners=())
    sheet = state.sheets[ship.owner]
    state = with_sheet(state, replace(sheet, ransom=sheet.ransom + ransom))
    return with_ships(state, held), ransom


def seize(state: GameState, world: Map, config: RulesConfig) -> tuple[GameState, tuple[Seized, ...]]:
    """Return the state after the pirates take the nearest ship, and its touching collision partner (R13, R20, D8).

    The seized ship is moved into the port, pays the pips on its top face and loses a turn. If it is
    immobilised after a collision and still touches a ship of that collision, that ship is taken too,
    set down beside it (R20).
    """
    found = nearest(state, world, config)
    if found is None:
        return state, ()
    ship, port, distance = found
    state, ransom = _take(state, ship, port, world, config)
    events = [Seized(ship.id, port.name, distance, ransom)]
    if ship.skip > 0:
        for pid in ship.partners:
            partner = state.ship(pid)
            if targetable(partner, world, config) and touching(ship.pose, partner.pose, config):  # type: ignore[arg-type]
                state, partner_ransom = _take(state, partner, port, world, config)
                gap = math.dist(partner.pose.position[:2], port.point)  # type: ignore[union-attr]
                events.append(Seized(pid, port.name, gap, partner_ransom, with_partner_of=ship.id))
    return state, tuple(events)
