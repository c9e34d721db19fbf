"""Planning a round: which route each contract takes and which ships carry it, for the most expected points.

Each contract's worth with a given set of ships on a given route is `outlook`'s: route factor x value
x the chance enough displacement arrives (R9), minus the expected ransoms (R13) times the strategy's
ransom aversion, minus a small cost per ship sent (every ship at sea crowds the lanes: collisions, R18).
Contracts do not share ships (R10), so the best plan is an exact dynamic programme
over (contract, ships already used): at most contracts x 2^ships states of routes x 2^ships choices.
Past `MAX_SHIPS` ships afloat (a designer's bigger fleet) only the biggest `MAX_SHIPS` are considered.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from somaliland.map.model import Map
from somaliland.players.outlook import Outlook, fulfil_chance, moves_available, voyage
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card
from somaliland.rules.pirates import targets_route
from somaliland.rules.planning import Plan
from somaliland.rules.state import GameState, Status


MAX_SHIPS = 8  # ships the exact search considers: 2^8 states x 2^8 choices x routes per contract


@dataclass(frozen=True, slots=True)
class Vessel:
    """What planning needs of a ship: its id, displacement (R2) and mean face (its likely ransom)."""

    id: str
    displacement: int
    mean_pips: float


@dataclass(frozen=True, slots=True)
class Valuation:
    """How a strategy prices a contract: the routes it will consider and how much ransom it minds."""

    routes: tuple[str, ...]
    ransom_aversion: float = 1.0
    outlook: Outlook = Outlook()


def vessels(state: GameState, seat: int) -> tuple[Vessel, ...]:
    """Return the seat's ships still afloat (D3), in fleet order."""
    return tuple(Vessel(s.id, s.displacement, sum(s.spec.faces) / 6) for s in state.fleet(seat)
                 if s.status is not Status.SUNK)


def rival_full_route_ships(state: GameState, seat: int, world: Map, outlook: Outlook) -> float:
    """Return how many rival ships should sail the full-value route: as planned, or the prior if not yet."""
    full = {r.name for r in world.routes if r.full_value}
    total = 0.0
    for other in range(state.players):
        if other == seat:
            continue
        holdings = state.held[other] if other < len(state.held) else ()
        if holdings and all(h.route is not None for h in holdings):
            total += sum(1 for s in state.fleet(other) if s.route in full and s.status is not Status.SUNK)
        elif holdings or other >= len(state.held):
            total += outlook.rival_full_route_ships
    return total


def best_plans(cards: tuple[Card, ...], ships: tuple[Vessel, ...], world: Map, config: RulesConfig,
               valuation: Valuation, rivals: float) -> tuple[float, tuple[Plan, ...]]:
    """Return the best expected worth and the plans achieving it (ties: earlier routes, fewer ships first)."""
    if len(ships) > MAX_SHIPS:
        ships = tuple(sorted(ships, key=lambda v: -v.displacement)[:MAX_SHIPS])
    moves = moves_available(config)
    full = {r.name: r.full_value for r in world.routes}
    n = len(ships)
    lengths = {(r, c.direction): world.leg_length(r, c.direction) for r in valuation.routes for c in cards}
    safe_targeted = targets_route(False, config)  # R13: may pirates take ships on the safe route?

    chosen_by_mask = [[ships[k] for k in range(n) if mask >> k & 1] for mask in range(1 << n)]
    carried = [sum(v.displacement for v in chosen) for chosen in chosen_by_mask]
    trip_for = lru_cache(maxsize=None)(voyage)  # many masks share a route and a convoy size

    @lru_cache(maxsize=None)
    def worth(i: int, route: str, mask: int) -> float:
        card = cards[i]
        if carried[mask] < card.value:
            return 0.0
        chosen = chosen_by_mask[mask]
        trip = trip_for(lengths[route, card.direction], moves, full[route], rivals, len(chosen), valuation.outlook,
                        safe_targeted=safe_targeted)
        factor = 1.0 if full[route] else 0.5
        gain = factor * card.value * fulfil_chance(tuple(v.displacement for v in chosen), card.value, trip.arrive)
        ransom = valuation.ransom_aversion * trip.captures * sum(v.mean_pips for v in chosen)
        return gain - ransom - valuation.outlook.ship_cost * len(chosen)

    masks = sorted(range(1 << n), key=lambda m: (bin(m).count("1"), m))

    @lru_cache(maxsize=None)
    def best(i: int, used: int) -> tuple[float, tuple[tuple[str, int], ...]]:
        if i == len(cards):
            return 0.0, ()
        top: tuple[float, tuple[tuple[str, int], ...]] | None = None
        for route in valuation.routes:
            for mask in masks:
                if mask & used or (mask and worth(i, route, mask) <= 0):
                    continue
                rest, choices = best(i + 1, used | mask)
                total = (worth(i, route, mask) if mask else 0.0) + rest
                if top is None or total > top[0] + 1e-12:
                    top = (total, ((route, mask),) + choices)
        return top  # type: ignore[return-value]

    total, choices = best(0, 0)
    plans = tuple(Plan(card, route, tuple(ships[k].id for k in range(n) if mask >> k & 1))
                  for card, (route, mask) in zip(cards, choices))
    return total, plans
