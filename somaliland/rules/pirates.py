"""Pirates: after each launching phase and each turn the ship nearest any pirate port is seized (R13, R20, D8)."""

from __future__ import annotations

import math
from dataclasses import replace

from physics import Pose
from physics.dice import square_up
from somaliland.map.model import Map, PiratePort
from somaliland.rules.config import RulesConfig
from somaliland.rules.events import Seized
from somaliland.rules.accidents import touching
from somaliland.rules.state import SAILING, GameState, ShipState, Status, with_sheet, with_ships


def eligible(ship: ShipState, config: RulesConfig) -> bool:
    """Return True if pirates may take this ship: at sea on the board and not ignored by D8 (R13, R20)."""
    return (ship.pose is not None and (ship.status in SAILING or ship.status is Status.ARRIVED)
            and ship.status.value not in config.pirates_ignore)


def nearest(state: GameState, world: Map, config: RulesConfig) -> tuple[ShipState, PiratePort, float] | None:
    """Return the eligible ship nearest any pirate port, that port and the distance on the board plane (R13, D8).

    Distances run from the die's centre to the port; ties go to the ship listed first.
    """
    best: tuple[ShipState, PiratePort, float] | None = None
    for ship in state.ships:
        if not eligible(ship, config):
            continue
        for port in world.pirate_ports:
            d = math.dist(ship.pose.position[:2], port.point)  # type: ignore[union-attr]
            if best is None or d < best[2]:
                best = (ship, port, d)
    return best


def port_pose(pose: Pose, at: tuple[float, float], size: float) -> Pose:
    """Return a die moved into a port at `at`: flat, showing the face it showed (R13)."""
    return Pose((at[0], at[1], size / 2), square_up(pose.orientation))


def _take(state: GameState, ship: ShipState, at: tuple[float, float], config: RulesConfig) -> tuple[GameState, int]:
    """Return the state with the ship held at `at` and its ransom charged to its owner, and the ransom (R13)."""
    ransom = ship.top_value()
    held = replace(ship, status=Status.HELD, pose=port_pose(ship.pose, at, config.die_size),  # type: ignore[arg-type]
                   skip=ship.skip + 1, seized_from=ship.pose, partners=())
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
    state, ransom = _take(state, ship, port.point, config)
    events = [Seized(ship.id, port.name, distance, ransom)]
    if ship.skip > 0:
        for pid in ship.partners:
            partner = state.ship(pid)
            if eligible(partner, config) and touching(ship.pose, partner.pose, config):  # type: ignore[arg-type]
                dx, dy = (partner.pose.position[0] - ship.pose.position[0],  # type: ignore[union-attr]
                          partner.pose.position[1] - ship.pose.position[1])  # type: ignore[union-attr]
                norm = math.hypot(dx, dy) or 1.0
                gap = config.die_size * 1.5
                at = (port.point[0] + gap * dx / norm, port.point[1] + gap * dy / norm)
                state, partner_ransom = _take(state, partner, at, config)
                events.append(Seized(pid, port.name, math.dist(partner.pose.position[:2], port.point),  # type: ignore[union-attr]
                                     partner_ransom, with_partner_of=ship.id))
    return state, tuple(events)
