"""What one ship's arrival is worth to its owner this round: its stake in the owner's contracts (R9, R10, R21, D6).

A ship's own chance to arrive is what the aim maximises (`hazards.score_landings`), but a contract is paid for
by the displacement that arrives, not by any one ship: a ship whose contract is already carried by the ships
that arrived, or can no longer be fulfilled, gains its owner nothing by arriving, while a ship without which
the contract fails carries all of it. The **stake** of a ship is the owner's expected points this round if it
arrives less those if it does not, the other ships of the seat arriving with their own chances, every arrived
set allotted to the contracts as the scoring does (`allotment.best_allotment`, so D6's pooling and R21's half
value of the safe route count exactly); as a share of what its own contract pays when fulfilled. The search
(`search.py`, `search_stake`) scales by it what an outcome does to the ship's own voyage (its chance to
arrive, progress, the penalties for a lost turn) while a ransom stays a ransom: a ship with little at stake
keeps clear of the pirates rather than racing past their ports.

The other ships' chances are read off the board with the leg's surveyed odds (`hazards.arrival_chance`: the
distance to the destination, the moves left less a turn to lose), hazards left out; arrived ships count as
arrived, sunk ones and ships without a contract not at all. Exhaustive over the seat's uncertain ships (at
most the fleet's six), so exact for that model.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np

from somaliland.players.hazards import LegOdds, arrival_chance, goal_progress
from somaliland.players.policy import Table
from somaliland.rules.allotment import Cargo, Hull, best_allotment
from somaliland.rules.moves import moves_left
from somaliland.rules.pirates import targetable, targets_route
from somaliland.rules.scoring import cargoes_and_hulls
from somaliland.rules.state import ShipState, Status

UNCERTAIN = (Status.IN_PORT, Status.AT_SEA, Status.AGROUND, Status.HELD, Status.LOST_TURN, Status.OFF_BOARD)


@lru_cache(maxsize=4096)
def _half_points(cargoes: tuple[Cargo, ...], hulls: tuple[Hull, ...], pooled: bool) -> int:
    """Return the half-points these arrived hulls score (R9, R21; memoised: a seat asks for the same sets often)."""
    return sum(best_allotment(cargoes, hulls, pooled).half_points)


def ship_chance(table: Table, ship: ShipState, odds: LegOdds) -> float:
    """Return the chance the ship arrives this round from where it stands, hazards left out (R15, D10)."""
    if ship.status is Status.ARRIVED:
        return 1.0
    if ship.status is Status.SUNK or ship.card is None or ship.route is None:
        return 0.0
    route = table.world.route(ship.route)
    direction = ship.card.direction
    zone = route.leg(direction).destination
    if ship.pose is None:  # in port: launched from the leg's start
        done = 0.0
    else:
        x, y = ship.pose.position[:2]
        done = route.progress(direction, x, y)
    turns = moves_left(ship, max(table.state.turn, 1), table.config) - min(ship.skip, 1)
    remaining = goal_progress(route, direction, zone) - done
    return float(arrival_chance(np.array([remaining]), np.array([float(max(turns, 0))]), odds)[0])


def stake(table: Table, ship_id: str, odds_of: dict[tuple[str, object], LegOdds]) -> float:
    """Return the ship's stake: the owner's expected points if it arrives less if it does not, as a share of
    what its own contract pays when fulfilled (module docstring). `odds_of` maps (route, direction) to the
    leg's surveyed odds."""
    state, world, config = table.state, table.world, table.config
    ship = state.ship(ship_id)
    if ship.card is None or ship.route is None:
        return 1.0
    seat = ship.owner
    cargoes, arrived, _ = cargoes_and_hulls(state, seat, world, config)
    cards = [h.card for h in state.held[seat]]
    if ship.card not in cards:
        return 1.0
    others = [s for s in state.fleet(seat) if s.id != ship_id and s.status in UNCERTAIN
              and s.card in cards and s.route is not None]
    chances = [ship_chance(table, s, odds_of[(s.route, s.card.direction)]) for s in others]  # type: ignore[union-attr]
    hulls = [Hull(s.displacement, s.route, s.card.direction, cards.index(s.card),  # type: ignore[arg-type, union-attr]
                  world.route(s.route).full_value) for s in others]  # type: ignore[arg-type]
    mine = Hull(ship.displacement, ship.route, ship.card.direction, cards.index(ship.card),
                world.route(ship.route).full_value)
    pooled = config.pooled_allotment
    gain = 0.0
    for arrives in itertools.product((False, True), repeat=len(others)):
        weight = math.prod(c if a else 1.0 - c for c, a in zip(chances, arrives))
        if weight == 0.0:
            continue
        base = arrived + tuple(h for h, a in zip(hulls, arrives) if a)
        gain += weight * (_half_points(cargoes, base + (mine,), pooled) - _half_points(cargoes, base, pooled))
    pays = 2 * ship.card.value if world.route(ship.route).full_value else ship.card.value  # half-points
    return gain / max(pays, 1)


def exposure(table: Table, ship_id: str) -> float:
    """Return the ransom a ship at sea may yet pay before the round ends, as a share of its contract's value.

    Arriving ends it (D8: pirates ignore arrived ships), so it is part of what arriving is worth even to a ship
    with nothing else at stake. Pirates take one ship a turn (R13) among the ships they may take (D15); taken
    evenly, each pays its top face once in as many turns as there are such ships, over the moves it has left.
    0 on a route the pirates do not reach.
    """
    state, world, config = table.state, table.world, table.config
    ship = state.ship(ship_id)
    if ship.card is None or ship.route is None or not targets_route(world.route(ship.route).full_value, config):
        return 0.0
    hunted = sum(1 for s in state.ships if s.id != ship_id and targetable(s, world, config)) + 1
    pips = ship.top_value() if ship.pose is not None else sum(ship.spec.faces) / len(ship.spec.faces)
    turns = max(moves_left(ship, max(state.turn, 1), config) - 1, 0)
    return pips * turns / hunted / max(ship.card.value, 1)
