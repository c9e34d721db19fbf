"""Result rows of one game, read from its typed events (engine/events.py): players, contracts, captures, game.

Pure functions of the game's events and the map; the study runner adds the cell's columns. The events are
the ones the game loop told (`GameResult.told`, no decoding) or a record's lines decoded by the codec; the
rows need no board state beyond what the events say (where a ship last came to rest, which route it sails),
so the tables do not run the fold (engine/fold.py) and cost the study worker about a millisecond a game.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from somaliland.engine.events import Deal, DraftPick, Event, Final, Header, Planned, RoundEnd, Stamped, Thrown, TurnBegun
from somaliland.map.model import Direction, Map
from somaliland.rules.events import (Arrived, Collision, Failed, Fulfilled, Grounded, Launched, Released, Replaced,
                                     Seized, Sunk)
from somaliland.rules.fleet import COLOURS
from somaliland.rules.planning import Plan

TABLES = ("players", "contracts", "captures", "games", "errors")


def game_tables(events: Sequence[Stamped], world: Map) -> dict[str, list[dict[str, Any]]]:
    """Return the rows a finished game adds to each table (all but `errors`).

    Raises:
        ValueError: the events do not open with the game's header and close with its final table.
    """
    head, final = events[0].event, events[-1].event
    if not isinstance(head, Header) or not isinstance(final, Final):
        raise ValueError("a study game's record must open with 'game' and close with 'final'")
    seats = head.seats
    players = len(seats)
    owner = {c: i for i, c in enumerate(COLOURS[:players])}
    fleet = {s["name"]: sum(s["faces"]) for s in head.rules["fleet"]}
    first = head.first_player
    winners = final.winners
    per_seat: dict[int, Counter] = defaultdict(Counter)
    where: dict[str, tuple[float, float]] = {}  # each ship's last rest position
    sailing: dict[str, tuple[str, str]] = {}  # ship -> (route, direction) since launched
    carries: dict[str, str] = {}  # ship -> card it carries this round
    full_route: dict[str, bool] = {}  # ship -> whether its plan this round sails a full-value route (R8)
    thrown = ""  # the ship of the last throw
    launching = False  # whether the last throw launched its ship (R12)
    contracts: dict[tuple[int, int, str], dict[str, Any]] = {}
    captures: list[dict[str, Any]] = []
    leaders: list[frozenset[int]] = []
    throws = 0

    def seat_of(ship: str) -> int:
        return owner[ship.split("-", 1)[0]]

    rnd = 1  # the round being played, from its deal: scoring lines of old records carry the next round's number
    for stamped in events:
        match stamped.event:
            case Deal():
                rnd = stamped.round
                carries.clear()
                full_route.clear()
            case DraftPick(seat=seat, card=card) if card is not None:
                per_seat[seat]["taken"] += 1
            case Planned(seat=seat, plans=plans):
                for plan in plans:
                    card = str(plan.card)
                    contracts[(rnd, seat, card)] = _contract(rnd, seat, plan, world, fleet)
                    per_seat[seat][f"taken_{_route_kind(plan.route, world)}"] += 1
                    for ship, route in plan.ships_on_routes():
                        carries[ship] = card
                        full_route[ship] = world.route(route).full_value
            case Thrown(seat=seat, ship=ship, result=result):
                throws += 1
                per_seat[seat]["throws"] += 1
                per_seat[seat]["throws_full"] += full_route.get(ship, False)
                thrown, launching = ship, False
                for rest in (result.thrown, *result.moved):
                    where[rest.name] = rest.position[:2]
            case Replaced(ship=ship, at=at) | Released(ship=ship, at=at):
                where[ship] = at
            case Launched(ship=ship, route=route, direction=direction):
                sailing[ship] = (route, direction)
                if ship == thrown:
                    launching = True
                    per_seat[seat_of(ship)]["launches"] += 1
            case Grounded(ship=ship, at=at, crossed=crossed):  # the thrown ship, or one it pushed (R17, R18)
                if crossed is not None:  # D19: set down where it crossed the coast
                    where[ship] = at
                per_seat[seat_of(ship)]["groundings"] += 1
                if ship == thrown:
                    per_seat[seat_of(ship)]["aground_thrown"] += 1
                    per_seat[seat_of(ship)]["aground_thrown_full"] += full_route.get(ship, False)
                    per_seat[seat_of(ship)]["aground_launch"] += launching
            case Collision(causer=causer):
                per_seat[seat_of(causer)]["collisions_caused"] += 1
            case Sunk(ship=ship):
                per_seat[seat_of(ship)]["sunk"] += 1
            case Seized(ship=ship, ransom=ransom) as seized:
                seat = seat_of(ship)
                per_seat[seat]["captures"] += 1
                card = carries.get(ship)
                row = contracts.get((rnd, seat, card)) if card else None
                if row is not None:
                    row["captures"] += 1
                    row["ransom"] += ransom
                captures.append(_capture(stamped, seized, seat, seats, sailing, where, world, row))
            case Fulfilled(seat=seat, card=card, points=points):
                row = contracts.get((rnd, seat, card))
                if row is not None:
                    row.update(fulfilled=True, points=float(points))
            case RoundEnd(sheets=sheets):
                best = max(s.points for s in sheets)
                leaders.append(frozenset(s.seat for s in sheets if s.points == best))

    table = {row.seat: row for row in final.table}
    points = sorted((row.points for row in final.table), reverse=True)
    changes = sum(1 for a, b in zip(leaders, leaders[1:]) if a != b)
    player_rows = []
    for i, seat in enumerate(seats):
        row, c = table[i], per_seat[i]
        player_rows.append({
            "seat": i, "colour": seat["colour"], "order": (i - first) % players, "strategy": seat["strategy"],
            "points": float(row.points), "full": float(row.full), "half": float(row.half),
            "ransom": float(row.ransom), "place": row.place, "winner": i in winners,
            "win_share": 1.0 / len(winners) if i in winners else 0.0,
            "taken": c["taken"], "taken_full": c["taken_full"], "taken_half": c["taken_half"],
            "fulfilled": row.fulfilled, "captures": c["captures"], "sunk": c["sunk"],
            "groundings": c["groundings"], "collisions_caused": c["collisions_caused"], "throws": c["throws"],
            "throws_full": c["throws_full"], "launches": c["launches"], "aground_thrown": c["aground_thrown"],
            "aground_thrown_full": c["aground_thrown_full"], "aground_launch": c["aground_launch"],
        })
    for row in contracts.values():
        row["strategy"] = seats[row["seat"]]["strategy"]
    game = {"players": players, "throws": throws, "first_player": first, "winners": ",".join(map(str, winners)),
            "n_winners": len(winners), "lead_changes": changes,
            "lead_change": changes / (len(leaders) - 1) if len(leaders) > 1 else float("nan"),
            "spread": points[0] - points[-1], "margin": points[0] - points[1] if len(points) > 1 else 0.0,
            "routes": json.dumps(head.map.get("routes", []))}  # what reports call them (study/routenames.py)
    game.update(_pirate_turns((s.event for s in events), world))
    return {"players": player_rows, "contracts": list(contracts.values()), "captures": captures, "games": [game]}


def _pirate_turns(events: Iterable[Event], world: Map) -> dict[str, int]:
    """Return the turns played, those ending with a full-value ship at sea, and those of them in which the
    pirates seized a ship (every turn ends with a raid, R13-R14).

    At sea: launched on a full-value route this round, neither arrived nor sunk, and not held by pirates
    (a held ship is at sea again once it is thrown). A ship seized in the raid was at sea at its moment.
    """
    turns = full_turns = seized_turns = 0
    at_sea: set[str] = set()
    held: set[str] = set()
    current: list[bool] | None = None  # [a full-value ship at sea at the raid, the pirates seized] of this turn
    for event in events:
        if current is not None and isinstance(event, (TurnBegun, Deal, Fulfilled, Failed, RoundEnd, Final)):
            full = current[0] or bool(at_sea)
            full_turns += full
            seized_turns += full and current[1]
            current = None
        match event:
            case Deal():
                at_sea.clear()
                held.clear()
            case TurnBegun():
                turns += 1
                current = [False, False]
            case Launched(ship=ship, route=route) if world.route(route).full_value:
                at_sea.add(ship)
            case Thrown(ship=ship) if ship in held:
                held.discard(ship)
                at_sea.add(ship)
            case Arrived(ship=ship) | Sunk(ship=ship):
                at_sea.discard(ship)
            case Seized(ship=ship) if current is not None:
                current[0] = current[0] or bool(at_sea)
                current[1] = True
                if ship in at_sea:
                    at_sea.discard(ship)
                    held.add(ship)
    return {"turns": turns, "turns_full_at_sea": full_turns, "turns_full_at_sea_seized": seized_turns}


def _route_kind(route: str, world: Map) -> str:
    """Return 'full' for a full-value route, 'half' for a half-value one (R8)."""
    return "full" if world.route(route).full_value else "half"


def _contract(rnd: int, seat: int, plan: Plan, world: Map, fleet: dict[str, int]) -> dict[str, Any]:
    return {"round": rnd, "seat": seat, "card": str(plan.card), "value": plan.card.value,
            "direction": plan.card.direction.value, "route": plan.route,
            "full_route": world.route(plan.route).full_value, "ships": len(plan.ships),
            "displacement": sum(fleet[s.split("-", 1)[1]] for s in plan.ships),
            "fulfilled": False, "points": 0.0, "captures": 0, "ransom": 0.0}


def _capture(stamped: Stamped, seized: Seized, seat: int, seats: Sequence[dict[str, Any]],
             sailing: dict[str, tuple[str, str]], where: dict[str, tuple[float, float]], world: Map,
             contract: dict[str, Any] | None) -> dict[str, Any]:
    """Return one capture: who, where along the route (0 at the start, 1 at the end of the centre line)."""
    ship = seized.ship
    route, direction = sailing.get(ship, (None, None))
    progress = float("nan")
    if route is not None and ship in where:
        r = world.route(route)
        progress = r.progress(Direction(direction), *where[ship]) / r.centre_line.length
    return {"round": stamped.round, "turn": stamped.turn, "ship": ship, "seat": seat,
            "strategy": seats[seat]["strategy"], "port": seized.port, "distance": float(seized.distance),
            "ransom": float(seized.ransom), "route": route or "",
            "full_route": bool(route) and world.route(route).full_value, "progress": progress,
            "card": contract["card"] if contract else "",
            "value": float(contract["value"]) if contract else float("nan"),
            "with_partner": bool(seized.with_partner_of)}
