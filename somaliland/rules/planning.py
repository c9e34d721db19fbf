"""Planning a round: which ships carry which contract, on which route (R8, R10, D5)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.state import GameState, Holding, Status, with_ships


@dataclass(frozen=True, slots=True)
class Plan:
    """One contract's plan: the route it takes and the ships that carry it (R8, D5).

    Under D5 "ship" each ship may name its own route in `ship_routes` (same order as `ships`).
    """

    card: Card
    route: str
    ships: tuple[str, ...]
    ship_routes: tuple[str, ...] = ()

    def ships_on_routes(self) -> tuple[tuple[str, str], ...]:
        """Return each ship with the route it sails: its own under D5 "ship", else the plan's (R8)."""
        return tuple(zip(self.ships, self.ship_routes or (self.route,) * len(self.ships)))


def check_plans(state: GameState, seat: int, plans: tuple[Plan, ...], world: Map, config: RulesConfig) -> None:
    """Raise unless the plans cover the seat's contracts with its own afloat ships, one contract each (R8, R10, D5).

    Raises:
        IllegalActionError: an unknown contract, route or ship, a ship used twice, or mixed routes (lists legal).
    """
    cards = [h.card for h in state.held[seat]]
    planned = [p.card for p in plans]
    if sorted(planned) != sorted(cards):
        raise IllegalActionError("plan", f"plans name {[str(c) for c in planned]}", [str(c) for c in cards])
    routes = [r.name for r in world.routes]
    own = [s.id for s in state.fleet(seat) if s.status is not Status.SUNK]
    used: list[str] = []
    for plan in plans:
        chosen = (plan.route,) + (plan.ship_routes if config.route_choice == "ship" else ())
        if any(r not in routes for r in chosen):
            raise IllegalActionError("plan", f"unknown route in {chosen}", routes)
        if plan.ship_routes and (config.route_choice != "ship" or len(plan.ship_routes) != len(plan.ships)):
            raise IllegalActionError("plan", "per-ship routes need D5 route_choice = 'ship', one per ship",
                                     "one route per contract")
        for ship in plan.ships:
            if ship not in own or ship in used:
                raise IllegalActionError("plan", f"{ship} is not a free ship of seat {seat} (R10)",
                                         [s for s in own if s not in used])
            used.append(ship)


def apply_plans(state: GameState, seat: int, plans: tuple[Plan, ...], world: Map,
                config: RulesConfig) -> GameState:
    """Return the state with the seat's contracts routed and ships assigned, replacing earlier plans (R8, R10, D5).

    Raises:
        IllegalActionError: see `check_plans`.
    """
    check_plans(state, seat, plans, world, config)
    by_card = {p.card: p for p in plans}
    held = list(state.held)
    held[seat] = tuple(Holding(h.card, by_card[h.card].route) for h in state.held[seat])
    ships = [replace(s, card=None, route=None) for s in state.fleet(seat) if s.status is Status.IN_PORT]
    for plan in plans:
        for sid, route in plan.ships_on_routes():
            ships.append(replace(state.ship(sid), card=plan.card, route=route))
    return with_ships(replace(state, held=tuple(held)), *ships)
