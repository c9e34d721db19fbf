"""A plain scripted player for engine tests: greedy draft and plan, straight throws at the destination."""

from __future__ import annotations

import math

from physics import Throw
from shapely import Point
from somaliland.rules import legal_picks
from somaliland.rules.moves import start_pose
from somaliland.rules.order import launchable
from somaliland.rules.planning import Plan
from somaliland.rules.state import Status


class Scripted:
    """Takes the biggest affordable card until it holds two, sends everything by `route`."""

    def __init__(self, route: str = "africa", speed_per_metre: float = 3.0) -> None:
        self.name, self.route, self.k = f"scripted-{route}", route, speed_per_metre

    def draft(self, table, draft, rng):
        held = draft.held[table.seat]
        legal = legal_picks(draft, table.seat)
        return max(legal) if legal and len(held) < 2 else None

    def plan(self, table, rng):
        free = sorted((s for s in table.state.fleet(table.seat) if s.status is not Status.SUNK),
                      key=lambda s: -s.displacement)
        plans = []
        for holding in table.state.held[table.seat]:
            ships, total = [], 0
            while free and total < holding.card.value:
                ship = free.pop(0)
                ships.append(ship.id)
                total += ship.displacement
            plans.append(Plan(holding.card, self.route, tuple(ships)))
        return tuple(plans)

    def launch(self, table, rng):
        ships = launchable(table.state, table.seat)
        return ships[0].id if ships else None

    def throw(self, table, ship_id, rng):
        ship = table.state.ship(ship_id)
        x, y = start_pose(ship, table.world, table.config).position[:2]
        leg = table.world.route(ship.route).leg(ship.card.direction)
        if ship.status is Status.IN_PORT:
            heading = leg.heading
        else:
            target = leg.destination.centroid
            heading = math.atan2(target.y - y, target.x - x)
        distance = leg.destination.distance(Point(x, y))
        return Throw(ship_id, (x, y), heading, min(2.5, 0.4 + self.k * distance * 0.3), release_height=0.01)


def scripted_factory(name, roller, params):
    return Scripted(name)
