"""Scoring: each round's contracts fulfilled or failed (R9–R11, R21), and the final standings (R21, R22, D14)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from somaliland.map.model import Map
from somaliland.rules.allotment import Cargo, Hull, best_allotment
from somaliland.rules.config import RulesConfig
from somaliland.rules.events import Failed, Fulfilled
from somaliland.rules.state import GameState, Sheet, Status, with_sheet


def cargoes_and_hulls(state: GameState, seat: int, world: Map,
                      config: RulesConfig) -> tuple[tuple[Cargo, ...], tuple[Hull, ...], tuple[str, ...]]:
    """Return a player's contracts, arrived ships and those ships' ids, ready for allotment (R9, R10, D5)."""
    held = state.held[seat]
    cards = [h.card for h in held]
    cargoes = tuple(Cargo(h.card.value, h.card.direction, h.route if config.route_choice == "contract" else None)
                    for h in held)
    arrived = [s for s in state.fleet(seat) if s.status is Status.ARRIVED and s.card in cards and s.route]
    hulls = tuple(Hull(s.displacement, s.route, s.card.direction,  # type: ignore[arg-type, union-attr]
                       cards.index(s.card), world.route(s.route).full_value)  # type: ignore[arg-type]
                  for s in arrived)
    return cargoes, hulls, tuple(s.id for s in arrived)


def score_round(state: GameState, world: Map, config: RulesConfig) -> tuple[GameState, tuple[Fulfilled | Failed, ...]]:
    """Return the state with each player's fulfilled contracts scored, and an event per contract (R9–R11, R21, D6)."""
    events: list[Fulfilled | Failed] = []
    for seat in range(state.players):
        cargoes, hulls, ids = cargoes_and_hulls(state, seat, world, config)
        allot = best_allotment(cargoes, hulls, config.pooled_allotment)
        sheet = state.sheets[seat]
        for c, holding in enumerate(state.held[seat]):
            carriers = allot.ships[c]
            if not carriers:
                events.append(Failed(seat, str(holding.card)))
                continue
            full_value = allot.half_points[c] == 2 * holding.card.value
            route = holding.route or hulls[carriers[0]].route
            events.append(Fulfilled(seat, str(holding.card), route, tuple(ids[h] for h in carriers), full_value,
                                    allot.half_points[c] / 2))
            sheet = replace(sheet, fulfilled=sheet.fulfilled + 1,
                            full=sheet.full + holding.card.value * full_value,
                            half=sheet.half + holding.card.value * (not full_value))
        state = with_sheet(state, sheet)
    return state, tuple(events)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's final place; `reason` says what placed them above the next player (R22, D14)."""

    seat: int
    place: int  # 1 = winner; shared places repeat
    points: float
    fulfilled: int
    ransom: int
    reason: str


@dataclass(frozen=True, slots=True)
class Standings:
    """The final table, best first, and the winners (more than one for a shared win, D14)."""

    table: tuple[Standing, ...]
    winners: tuple[int, ...]


def rank_key(sheet: Sheet) -> tuple[float, int, int]:
    """Return the sort key of a sheet: most points, then fewer fulfilled contracts, then less ransom (R21, R22)."""
    return (-sheet.points, sheet.fulfilled, sheet.ransom)


def why_ahead(a: Sheet, b: Sheet) -> str:
    """Return what puts sheet a ahead of (or level with) sheet b (R21, R22, D14)."""
    if a.points != b.points:
        return "more points"
    if a.fulfilled != b.fulfilled:
        return "tie on points: fewer contracts fulfilled (R22)"
    if a.ransom != b.ransom:
        return "tie on points and contracts: less ransom paid (R22)"
    return "tied on points, contracts and ransom"


def standings(sheets: tuple[Sheet, ...], config: RulesConfig,
              rng: np.random.Generator | None = None) -> Standings:
    """Return the final table with tie-break reasons; a full tie for first is shared, or drawn with rng (R22, D14).

    Raises:
        ValueError: D14 is "random" and no generator was given.
    """
    order = sorted(sheets, key=lambda s: (rank_key(s), s.seat))
    top = [s for s in order if rank_key(s) == rank_key(order[0])]
    drawn = len(top) > 1 and config.final_tie == "random"
    if drawn:
        if rng is None:
            raise ValueError("final_tie = 'random' needs the game's generator")
        chosen = top[int(rng.integers(len(top)))]
        order = [chosen] + [s for s in order if s is not chosen]
    places: list[int] = []
    for i, sheet in enumerate(order):
        level = i and rank_key(sheet) == rank_key(order[i - 1]) and not (drawn and i == 1)
        places.append(places[-1] if level else i + 1)
    table = []
    for i, sheet in enumerate(order):
        if i + 1 == len(order):
            reason = "last"
        elif drawn and i == 0:
            reason = "full tie for first: winner drawn at random (D14)"
        elif rank_key(sheet) == rank_key(order[i + 1]):
            reason = why_ahead(sheet, order[i + 1]) + ": shared place (D14)"
        else:
            reason = why_ahead(sheet, order[i + 1])
        table.append(Standing(sheet.seat, places[i], sheet.points, sheet.fulfilled, sheet.ransom, reason))
    winners = (order[0].seat,) if drawn else tuple(s.seat for s in top)
    return Standings(tuple(table), winners)
