"""Pirates: after each launching phase and each turn the ship nearest any pirate port is seized (R13, R20, D8).

The design levers set how much a seizure costs (L1, `ransom`) and how many ships a raid takes (L2, `pirate_take`).
"""

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
    """Return True if pirates may take this ship: at sea, not ignored by D8, not released this turn (R13, D8, D20).

    A ship released this turn still serves its seizure's lost turn until that turn's raid is over."""
    return (ship.pose is not None and (ship.status in SAILING or ship.status is Status.ARRIVED)
            and ship.status.value not in config.pirates_ignore and not ship.just_released)


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


def nearest(state: GameState, world: Map, config: RulesConfig,
            taken: frozenset[str] = frozenset()) -> tuple[ShipState, PiratePort, float] | None:
    """Return the targetable ship nearest any pirate port, the port and the distance on the board (R13, D8, D15).

    Distances run from the die's centre to the port; ties go to the ship listed first. Ships in `taken`
    (seized already in this raid, L2) are passed over.
    """
    best: tuple[ShipState, PiratePort, float] | None = None
    for ship in state.ships:
        if ship.id in taken or not targetable(ship, world, config):
            continue
        for port in world.pirate_ports:
            d = math.dist(ship.pose.position[:2], port.point)  # type: ignore[union-attr]
            if best is None or d < best[2]:
                best = (ship, port, d)
    return best


def ransom_for(ship: ShipState, state: GameState, config: RulesConfig) -> int:
    """Return the ransom a seizure of this ship costs its owner now (R13, L1).

    "top_face" (R13): the pips on the die's top face. "fixed": `ransom_fixed` points. "share":
    `ransom_share_percent` per cent of the value of the contract the ship carries, rounded to the nearest
    point, halves up (45 at 10% pays 5). A ship whose contract is pooled with others of its owner (D6: the same
    direction, and the same route unless each ship chooses its own, D5) pays on the cheapest of them: R10 lets
    its owner leave open which ship carries which until the round's end. A ship carrying no contract pays 0.
    """
    if config.ransom == "fixed":
        return config.ransom_fixed
    if config.ransom == "share":
        return share_of(pooled_value(ship, state, config), config.ransom_share_percent)
    return ship.top_value()


def share_of(value: int, percent: int) -> int:
    """Return `percent` per cent of a value, rounded to the nearest whole point, halves up (L1)."""
    return (value * percent + 50) // 100


def pooled_value(ship: ShipState, state: GameState, config: RulesConfig) -> int:
    """Return the contract value a ship's share ransom is figured on (R10, D6, L1).

    Its contract's value, or the cheapest it is pooled with; 0 for a ship carrying none.
    """
    if ship.card is None:
        return 0
    if not config.pooled_allotment:
        return ship.card.value
    holdings = state.held[ship.owner] if ship.owner < len(state.held) else ()
    pool = [h.card.value for h in holdings if h.card.direction is ship.card.direction
            and (h.route is None or ship.route is None or h.route == ship.route)]
    return min(pool, default=ship.card.value)


def full_value_at_sea(state: GameState, world: Map) -> int:
    """Return how many full-value ships are at sea, L2's traffic.

    At sea: launched on a full-value route, on the board, neither arrived nor held.
    """
    return sum(1 for s in state.ships if s.pose is not None and s.status in SAILING and s.status is not Status.HELD
               and s.route is not None and world.route(s.route).full_value)


def raid_size(state: GameState, world: Map, config: RulesConfig) -> int:
    """Return how many ships a raid takes (R13, L2).

    One (R13), or under L2's "per_traffic" one for every `pirate_take_every` full-value ships at sea,
    rounded down, and at least one.
    """
    if config.pirate_take == "one":
        return 1
    return max(1, full_value_at_sea(state, world) // config.pirate_take_every)


def _take(state: GameState, ship: ShipState, port: PiratePort, world: Map,
          config: RulesConfig) -> tuple[GameState, int]:
    """Return the state with the ship held in the port and its ransom charged to its owner, and the ransom (R13).

    The die is set down at the port, or beside it when other dice lie there, showing the face it showed.
    It loses a turn, which adds to one it owes already only if `lost_turns = "add_up"` (D16).
    """
    ransom = ransom_for(ship, state, config)
    others = [s.pose.position[:2] for s in state.ships if s.pose is not None and s.id != ship.id]
    at = free_spot(port.point, others, config.die_size)
    pose = set_down(ship.pose, at, config.die_size, world)  # type: ignore[arg-type]
    held = replace(ship, status=Status.HELD, pose=pose, skip=owed_turns(ship.skip, config),
                   seized_from=ship.pose, held_in=port.name, partners=())
    sheet = state.sheets[ship.owner]
    state = with_sheet(state, replace(sheet, ransom=sheet.ransom + ransom))
    return with_ships(state, held), ransom


def seize(state: GameState, world: Map, config: RulesConfig) -> tuple[GameState, tuple[Seized, ...]]:
    """Return the state after the pirates' raid, and a `Seized` event per ship taken (R13, R20, D8, L2).

    The nearest ship is moved into the port, pays its ransom (L1, `ransom_for`) and loses a turn. If it is
    immobilised after a collision and still touches a ship of that collision, that ship is taken too,
    set down beside it (R20). Under L2's "per_traffic" the raid takes `raid_size` ships, counted before the
    raid: the nearest, then the nearest of the rest, and so on, each with its R20 partners (which do not
    count towards the number), until the number is reached or no ship is left to take.
    """
    events: list[Seized] = []
    taken: set[str] = set()
    for _ in range(raid_size(state, world, config)):
        found = nearest(state, world, config, frozenset(taken))
        if found is None:
            break
        ship, port, distance = found
        state, ransom = _take(state, ship, port, world, config)
        taken.add(ship.id)
        events.append(Seized(ship.id, port.name, distance, ransom))
        if ship.skip > 0:
            for pid in ship.partners:
                partner = state.ship(pid)
                if (pid not in taken and targetable(partner, world, config)
                        and touching(ship.pose, partner.pose, config)):  # type: ignore[arg-type]
                    state, partner_ransom = _take(state, partner, port, world, config)
                    taken.add(pid)
                    gap = math.dist(partner.pose.position[:2], port.point)  # type: ignore[union-attr]
                    events.append(Seized(pid, port.name, gap, partner_ransom, with_partner_of=ship.id))
    return state, tuple(events)
