"""Planning a round: which route each contract takes and which ships carry it, for the most expected points.

Each contract's worth with a given set of ships on a given route is `outlook`'s, from the survey of
the map in play: route factor x value x the chance enough displacement arrives (R9), minus the
expected ransoms (R13, or L1's lever) times the strategy's ransom aversion, minus a small cost per ship sent (every
ship at sea crowds the lanes: collisions, R18).
Contracts do not share ships (R10), so the best plan is an exact dynamic programme
over (contract, ships already used): at most contracts x 2^ships states of routes x 2^ships choices.
Past `MAX_SHIPS` ships afloat (a designer's bigger fleet) only the biggest `MAX_SHIPS` are considered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from somaliland.map.model import Direction, Map
from somaliland.players.outlook import Outlook, Traffic, Voyage, companions, fulfil_chance, seizure_chances, voyage
from somaliland.players.legs import Survey
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card
from somaliland.rules.pirates import share_of
from somaliland.rules.planning import Plan
from somaliland.rules.state import GameState, Status


MAX_SHIPS = 8  # ships the exact search considers: 2^8 states x 2^8 choices x routes per contract
FORESIGHT = 4  # rounds of fictitious play that foresee the rivals' plans
_FORESEEN: dict[tuple, dict[int, dict[str, float]]] = {}  # (survey, rules, valuation, table) -> every seat's ships
# (survey's id, rules, route, direction, convoy, traffic) -> (the survey, kept alive; the trip): a pure function of
# its key, asked again by every seat's plans and foresight in a round
_TRIPS: dict[tuple, tuple[Survey, tuple[Voyage, bool]]] = {}
_TRIPS_KEPT = 100_000


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


def seat_traffic(state: GameState, world: Map, outlook: Outlook) -> dict[int, dict[str, float]]:
    """Return each seat's ships on each route: as planned, or the prior for a seat holding contracts yet to plan."""
    names = [r.name for r in world.routes]
    out: dict[int, dict[str, float]] = {}
    for seat in range(state.players):
        holdings = state.held[seat] if seat < len(state.held) else ()
        if holdings and all(h.route is not None for h in holdings):
            ships = dict.fromkeys(names, 0.0)
            for s in state.fleet(seat):
                if s.route in ships and s.status is not Status.SUNK:
                    ships[s.route] += 1
            out[seat] = ships
        elif holdings or seat >= len(state.held):  # holds contracts, or the draft is still on
            out[seat] = dict.fromkeys(names, outlook.rival_ships_per_route)
    return out


def rival_traffic(state: GameState, seat: int, world: Map, outlook: Outlook) -> Traffic:
    """Return the rival ships expected on each route: as planned, or the prior for a rival yet to plan."""
    return others(seat_traffic(state, world, outlook), seat, world)


def others(traffic: dict[int, dict[str, float]], seat: int, world: Map) -> Traffic:
    """Return the ships on each route of every seat but this one."""
    return tuple((r.name, sum(ships[r.name] for other, ships in traffic.items() if other != seat))
                 for r in world.routes)


def foreseen_traffic(state: GameState, seat: int, world: Map, survey: Survey, config: RulesConfig,
                     valuation: Valuation) -> Traffic:
    """Return the rival ships to expect on each route when every seat plans at once (R8).

    Seats that have planned count as planned. The others are foreseen by fictitious play: each plans
    as this valuation would on any route against the others' expected ships, starting from the prior,
    and the expectation moves towards those plans by 1 / (k + 2) in round k (`FORESIGHT` rounds), so
    that a route everybody would crowd is expected crowded. Every seat foresees the same table, so the
    foresight is kept (per process) for the next seat that asks.
    """
    key = (id(survey), config, valuation, tuple(state.held),
           tuple(vessels(state, s) for s in range(state.players)))
    if key not in _FORESEEN:
        if len(_FORESEEN) >= 64:
            _FORESEEN.clear()
        _FORESEEN[key] = _foresee(state, world, survey, config, valuation)
    return others(_FORESEEN[key], seat, world)


def _foresee(state: GameState, world: Map, survey: Survey, config: RulesConfig,
             valuation: Valuation) -> dict[int, dict[str, float]]:
    """Return every seat's expected ships on each route, by fictitious play (see `foreseen_traffic`)."""
    traffic = seat_traffic(state, world, valuation.outlook)
    valuation = replace(valuation, routes=tuple(r.name for r in world.routes))  # a rival may sail any route
    open_seats = [s for s in traffic if s < len(state.held) and state.held[s]
                  and not all(h.route is not None for h in state.held[s])]
    for k in range(FORESIGHT):
        planned = {s: _ships_per_route(state, s, world, survey, config, valuation, others(traffic, s, world))
                   for s in open_seats}
        for s, ships in planned.items():
            traffic[s] = {r: old + (ships[r] - old) / (k + 2) for r, old in traffic[s].items()}
    return traffic


def _ships_per_route(state: GameState, seat: int, world: Map, survey: Survey, config: RulesConfig,
                     valuation: Valuation, traffic: Traffic) -> dict[str, float]:
    """Return how many ships a seat would send on each route, planning with this valuation."""
    cards = tuple(h.card for h in state.held[seat])
    plans = best_plans(cards, vessels(state, seat), survey, config, valuation, traffic)[1]
    ships = dict.fromkeys((r.name for r in world.routes), 0.0)
    for plan in plans:
        ships[plan.route] += len(plan.ships)
    return ships


def best_plans(cards: tuple[Card, ...], ships: tuple[Vessel, ...], survey: Survey, config: RulesConfig,
               valuation: Valuation, traffic: Traffic) -> tuple[float, tuple[Plan, ...]]:
    """Return the best expected worth and the plans achieving it (ties: earlier routes, fewer ships first)."""
    if len(ships) > MAX_SHIPS:
        ships = tuple(sorted(ships, key=lambda v: -v.displacement)[:MAX_SHIPS])
    n = len(ships)
    fleet = subsets(ships)

    @lru_cache(maxsize=None)  # many masks share a leg and a convoy size
    def leg_trip(route: str, direction: Direction, convoy: int) -> tuple[Voyage, bool]:
        return trip(survey, config, route, direction, convoy, traffic)

    @lru_cache(maxsize=None)
    def worth(i: int, route: str, mask: int) -> float:
        card = cards[i]
        if fleet.carried[mask] < card.value:
            return 0.0
        convoy = fleet.sizes[mask]
        prospects, full = leg_trip(route, card.direction, convoy)
        factor = 1.0 if full else 0.5
        gain = factor * card.value * fulfil_chance(fleet.displacements[mask], card.value, prospects.arrive)
        ransom = valuation.ransom_aversion * prospects.captures * ransoms(config, card, fleet.pips[mask], convoy)
        return gain - ransom - valuation.outlook.ship_cost * convoy

    @lru_cache(maxsize=None)
    def options(i: int, route: str) -> tuple[tuple[int, float], ...]:
        """Return the subsets card i may sail with on the route, in search order, each with its worth: no ships, or
        ships worth more than nothing."""
        return tuple((mask, worth(i, route, mask) if mask else 0.0) for mask in fleet.order
                     if not mask or not worth(i, route, mask) <= 0)

    @lru_cache(maxsize=None)
    def best(i: int, used: int) -> tuple[float, tuple[tuple[str, int], ...]]:
        if i == len(cards):
            return 0.0, ()
        top: tuple[float, tuple[tuple[str, int], ...]] | None = None
        for route in valuation.routes:
            for mask, value in options(i, route):
                if mask & used:
                    continue
                rest, choices = best(i + 1, used | mask)
                total = value + rest
                if top is None or total > top[0] + 1e-12:
                    top = (total, ((route, mask),) + choices)
        return top  # type: ignore[return-value]

    total, choices = best(0, 0)
    plans = tuple(Plan(card, route, tuple(ships[k].id for k in range(n) if mask >> k & 1))
                  for card, (route, mask) in zip(cards, choices))
    return total, plans


def ransoms(config: RulesConfig, card: Card, pips: float, convoy: int) -> float:
    """Return what one capture of each ship of a convoy would cost in all (R13, L1): their mean top faces
    (`pips`, summed), or each ship's fixed sum, or each ship's share of the contract's value."""
    if config.ransom == "fixed":
        return float(config.ransom_fixed * convoy)
    if config.ransom == "share":
        return float(share_of(card.value, config.ransom_share_percent) * convoy)
    return pips


@dataclass(frozen=True, slots=True)
class Subsets:
    """Every subset of a fleet (bit k of a mask: ship k), as the plans price them: what each carries (R9), its
    ships' displacements in fleet order, its ships' summed mean faces, its size, and the masks in search order
    (fewer ships first, then by mask)."""

    carried: tuple[int, ...]
    displacements: tuple[tuple[int, ...], ...]
    pips: tuple[float, ...]
    sizes: tuple[int, ...]
    order: tuple[int, ...]


@lru_cache(maxsize=256)
def subsets(ships: tuple[Vessel, ...]) -> Subsets:
    """Return the `Subsets` of these ships (a pure function of them, asked for by every plan of the seat)."""
    n = len(ships)
    chosen = [[ships[k] for k in range(n) if mask >> k & 1] for mask in range(1 << n)]
    return Subsets(tuple(sum(v.displacement for v in c) for c in chosen),
                   tuple(tuple(v.displacement for v in c) for c in chosen),
                   tuple(sum(v.mean_pips for v in c) for c in chosen),
                   tuple(len(c) for c in chosen),
                   tuple(sorted(range(1 << n), key=lambda m: (bin(m).count("1"), m))))


def trip(survey: Survey, config: RulesConfig, route: str, direction: Direction, convoy: int,
         traffic: Traffic) -> tuple[Voyage, bool]:
    """Return a ship's voyage on the leg in a convoy of this size among this traffic, and whether the route pays
    in full (R8): `outlook.voyage`, kept per process (it is a pure function of its arguments and the survey)."""
    key = (id(survey), config, route, direction, convoy, traffic)
    kept = _TRIPS.get(key)
    if kept is not None and kept[0] is survey:
        return kept[1]
    leg = survey.leg(route, direction)
    found = (voyage(leg, seizure_chances(leg, survey, convoy, traffic, config), companions(leg, convoy, traffic)),
             leg.full_value)
    if len(_TRIPS) >= _TRIPS_KEPT:
        _TRIPS.clear()
    _TRIPS[key] = (survey, found)
    return found
