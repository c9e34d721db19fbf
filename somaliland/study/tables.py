"""Result rows of one game, read from its record (engine/RECORD.md): players, contracts, captures, game.

Pure functions of the record's events and the map; the study runner adds the cell's columns.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any

from somaliland.map.model import Direction, Map
from somaliland.rules.fleet import COLOURS

TABLES = ("players", "contracts", "captures", "games", "errors")


def game_tables(events: list[dict[str, Any]], world: Map) -> dict[str, list[dict[str, Any]]]:
    """Return the rows a finished game adds to each table (all but `errors`)."""
    head = events[0]
    final = events[-1]
    if head["kind"] != "game" or final["kind"] != "final":
        raise ValueError("a study game's record must open with 'game' and close with 'final'")
    players = len(head["seats"])
    seats = head["seats"]
    owner = {c: i for i, c in enumerate(COLOURS[:players])}
    fleet = {s["name"]: sum(s["faces"]) for s in head["rules"]["fleet"]}
    first = head["first_player"]
    winners = final["winners"]
    per_seat: dict[int, Counter] = defaultdict(Counter)
    where: dict[str, tuple[float, float]] = {}  # each ship's last rest position
    sailing: dict[str, tuple[str, str]] = {}  # ship -> (route, direction) since launched
    carries: dict[str, str] = {}  # ship -> card it carries this round
    contracts: dict[tuple[int, int, str], dict[str, Any]] = {}
    captures: list[dict[str, Any]] = []
    leaders: list[frozenset[int]] = []

    def seat_of(ship: str) -> int:
        return owner[ship.split("-", 1)[0]]

    rnd = 1  # the round being played: scoring lines carry the next round's number (RECORD.md)
    for e in events:
        kind = e["kind"]
        if kind == "deal":
            rnd = e["round"]
            carries.clear()
        elif kind == "draft_pick" and e["card"] is not None:
            per_seat[e["seat"]]["taken"] += 1
        elif kind == "plan":
            for plan in e["plans"]:
                contracts[(rnd, e["seat"], plan["card"])] = _contract(rnd, e["seat"], plan, world, fleet)
                per_seat[e["seat"]][f"taken_{_route_kind(plan['route'], world)}"] += 1
                for ship in plan["ships"]:
                    carries[ship] = plan["card"]
        elif kind == "throw":
            per_seat[e["seat"]]["throws"] += 1
            result = e["result"]
            for rest in [result["thrown"], *result["moved"]]:
                where[rest["name"]] = tuple(rest["position"][:2])
        elif kind in ("replaced", "released"):
            where[e["ship"]] = tuple(e["at"][:2])
        elif kind == "launched":
            sailing[e["ship"]] = (e["route"], e["direction"])
        elif kind == "grounded":
            per_seat[seat_of(e["ship"])]["groundings"] += 1
        elif kind == "collision":
            per_seat[seat_of(e["causer"])]["collisions_caused"] += 1
        elif kind == "sunk":
            per_seat[seat_of(e["ship"])]["sunk"] += 1
        elif kind == "seized":
            seat = seat_of(e["ship"])
            per_seat[seat]["captures"] += 1
            card = carries.get(e["ship"])
            row = contracts.get((rnd, seat, card)) if card else None
            if row is not None:
                row["captures"] += 1
                row["ransom"] += e["ransom"]
            captures.append(_capture(e, seat, seats, sailing, where, world, row))
        elif kind in ("fulfilled", "failed"):
            row = contracts.get((rnd, e["seat"], e["card"]))
            if row is not None and kind == "fulfilled":
                row.update(fulfilled=True, points=float(e["points"]))
        elif kind == "round_end":
            best = max(s["points"] for s in e["sheets"])
            leaders.append(frozenset(s["seat"] for s in e["sheets"] if s["points"] == best))

    table = {row["seat"]: row for row in final["table"]}
    points = sorted((row["points"] for row in final["table"]), reverse=True)
    changes = sum(1 for a, b in zip(leaders, leaders[1:]) if a != b)
    throws = sum(1 for e in events if e["kind"] == "throw")
    player_rows = []
    for i, seat in enumerate(seats):
        row, c = table[i], per_seat[i]
        player_rows.append({
            "seat": i, "colour": seat["colour"], "order": (i - first) % players, "strategy": seat["strategy"],
            "points": float(row["points"]), "full": float(row["full"]), "half": float(row["half"]),
            "ransom": float(row["ransom"]), "place": row["place"], "winner": i in winners,
            "win_share": 1.0 / len(winners) if i in winners else 0.0,
            "taken": c["taken"], "taken_full": c["taken_full"], "taken_half": c["taken_half"],
            "fulfilled": row["fulfilled"], "captures": c["captures"], "sunk": c["sunk"],
            "groundings": c["groundings"], "collisions_caused": c["collisions_caused"], "throws": c["throws"],
        })
    for row in contracts.values():
        row["strategy"] = seats[row["seat"]]["strategy"]
    game = {"players": players, "throws": throws, "first_player": first, "winners": ",".join(map(str, winners)),
            "n_winners": len(winners), "lead_changes": changes,
            "lead_change": changes / (len(leaders) - 1) if len(leaders) > 1 else float("nan"),
            "spread": points[0] - points[-1], "margin": points[0] - points[1] if len(points) > 1 else 0.0,
            "routes": json.dumps(head["map"].get("routes", []))}  # what reports call them (study/routenames.py)
    game.update(_pirate_turns(events, world))
    return {"players": player_rows, "contracts": list(contracts.values()), "captures": captures, "games": [game]}


def _pirate_turns(events: list[dict[str, Any]], world: Map) -> dict[str, int]:
    """Return the turns played, those ending with a full-value ship at sea, and those of them in which the
    pirates seized a ship (every turn ends with a raid, R13-R14).

    At sea: launched on a full-value route this round, neither arrived nor sunk, and not held by pirates
    (a held ship is at sea again once it is thrown). A ship seized in the raid was at sea at its moment.
    """
    turns = full_turns = seized_turns = 0
    at_sea: set[str] = set()
    held: set[str] = set()
    current: list[bool] | None = None  # [a full-value ship at sea at the raid, the pirates seized] of this turn
    for e in events:
        kind = e["kind"]
        if current is not None and kind in ("turn", "deal", "fulfilled", "failed", "round_end", "final"):
            full = current[0] or bool(at_sea)
            full_turns += full
            seized_turns += full and current[1]
            current = None
        if kind == "deal":
            at_sea.clear()
            held.clear()
        elif kind == "turn":
            turns += 1
            current = [False, False]
        elif kind == "launched" and world.route(e["route"]).full_value:
            at_sea.add(e["ship"])
        elif kind == "throw" and e.get("ship") in held:
            held.discard(e["ship"])
            at_sea.add(e["ship"])
        elif kind in ("arrived", "sunk"):
            at_sea.discard(e["ship"])
        elif kind == "seized" and current is not None:
            current[0] = current[0] or bool(at_sea)
            current[1] = True
            if e["ship"] in at_sea:
                at_sea.discard(e["ship"])
                held.add(e["ship"])
    return {"turns": turns, "turns_full_at_sea": full_turns, "turns_full_at_sea_seized": seized_turns}


def _route_kind(route: str, world: Map) -> str:
    """Return 'full' for a full-value route, 'half' for a half-value one (R8)."""
    return "full" if world.route(route).full_value else "half"


def _contract(rnd: int, seat: int, plan: dict[str, Any], world: Map, fleet: dict[str, int]) -> dict[str, Any]:
    card = plan["card"]
    return {"round": rnd, "seat": seat, "card": card, "value": int(card[:-1]),
            "direction": "north" if card[-1] == "N" else "south", "route": plan["route"],
            "full_route": world.route(plan["route"]).full_value, "ships": len(plan["ships"]),
            "displacement": sum(fleet[s.split("-", 1)[1]] for s in plan["ships"]),
            "fulfilled": False, "points": 0.0, "captures": 0, "ransom": 0.0}


def _capture(e: dict[str, Any], seat: int, seats: list[dict[str, Any]], sailing: dict[str, tuple[str, str]],
             where: dict[str, tuple[float, float]], world: Map, contract: dict[str, Any] | None) -> dict[str, Any]:
    """Return one capture: who, where along the route (0 at the start, 1 at the end of the centre line)."""
    ship = e["ship"]
    route, direction = sailing.get(ship, (None, None))
    progress = float("nan")
    if route is not None and ship in where:
        r = world.route(route)
        progress = r.progress(Direction(direction), *where[ship]) / r.centre_line.length
    return {"round": e["round"], "turn": e["turn"], "ship": ship, "seat": seat, "strategy": seats[seat]["strategy"],
            "port": e["port"], "distance": float(e["distance"]), "ransom": float(e["ransom"]), "route": route or "",
            "full_route": bool(route) and world.route(route).full_value, "progress": progress,
            "card": contract["card"] if contract else "",
            "value": float(contract["value"]) if contract else float("nan"),
            "with_partner": bool(e.get("with_partner_of"))}
