"""Result rows of one game, read from its typed events (engine/events.py): players, contracts, captures, raids, game.

Pure functions of the game's events and the map; the study runner adds the cell's columns. The events are
the ones the game loop told (`GameResult.told`, no decoding) or a record's lines decoded by the codec; the
rows need no board state beyond what the events say (where a ship last came to rest, which route it sails),
so the tables do not run the fold (engine/fold.py) and cost the study worker about a millisecond a game.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from somaliland.engine.events import Deal, DraftPick, Final, Header, Planned, RoundEnd, Stamped, Thrown, TurnBegun
from somaliland.map.model import Direction, Map
from somaliland.rules.events import (Arrived, Collision, Failed, Fulfilled, Grounded, Launched, LostTurn, Released,
                                     Replaced, Seized, Sunk)
from somaliland.rules.fleet import COLOURS
from somaliland.rules.planning import Plan

TABLES = ("players", "contracts", "captures", "raids", "games", "errors")
# Why a contract failed (R11), one reason each, the first of these that befell a ship of it that did not arrive:
# "not sailed" (no ship sent for it), then what stops a ship for good or for longest first: "sunk" (R18), "seized"
# (R13), "aground" (R17), "collision" (a lost turn after a touch, R18), "off board" (R19), "not launched" (R12:
# its owner never threw it), "out of moves" (at sea when its moves or the round's turns ran out, R15, with no
# accident); "pooled away" when every ship of it arrived but they counted for another contract of its pool (D6).
FAILURE_CAUSES = ("not sailed", "sunk", "seized", "aground", "collision", "off board", "not launched", "out of moves",
                  "pooled away")
_LOST_TURN_CAUSE = {"aground": "aground", "lost_turn": "collision", "off_board": "off board"}


def game_tables(events: Sequence[Stamped], world: Map) -> dict[str, list[dict[str, Any]]]:
    """Return the rows a finished game adds to each table (all but `errors`).

    Each contract row says how its ships fared: launched, arrived, the displacement that arrived, and for a
    failed contract why (`failure`: one reason, the first of FAILURE_CAUSES; `failure_causes`: every cause that
    befell a ship of it that did not arrive, in that order, comma-separated).

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
    fates: dict[str, set[str]] = defaultdict(set)  # ship -> what befell it this round (FAILURE_CAUSES' accidents)
    launched: set[str] = set()  # ships launched this round
    arrived: set[str] = set()  # ships arrived this round
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
                fates.clear()
                launched.clear()
                arrived.clear()
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
                launched.add(ship)
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
                fates[ship].add("sunk")
            case LostTurn(ship=ship, reason=reason) if reason in _LOST_TURN_CAUSE:
                fates[ship].add(_LOST_TURN_CAUSE[reason])
            case Arrived(ship=ship):
                arrived.add(ship)
            case Seized(ship=ship, ransom=ransom) as seized:
                seat = seat_of(ship)
                per_seat[seat]["captures"] += 1
                fates[ship].add("seized")
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
                    row.update(_fared(row, carries, launched, arrived, fates, fleet))
            case Failed(seat=seat, card=card):
                row = contracts.get((rnd, seat, card))
                if row is not None:
                    row.update(_fared(row, carries, launched, arrived, fates, fleet))
                    causes = _causes(row, carries, launched, arrived, fates)
                    row.update(failure=causes[0], failure_causes=",".join(causes))
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
    raids = raid_rows(events, world, fleet)
    game.update(pirate_turns(raids))
    return {"players": player_rows, "contracts": list(contracts.values()), "captures": captures, "raids": raids,
            "games": [game]}


def _ships_of(row: dict[str, Any], carries: dict[str, str]) -> list[str]:
    """Return the ships sent for a contract this round (the plan's, R8, R10)."""
    colour = COLOURS[row["seat"]]
    return [ship for ship, card in carries.items() if card == row["card"] and ship.split("-", 1)[0] == colour]


def _fared(row: dict[str, Any], carries: dict[str, str], launched: set[str], arrived: set[str],
           fates: dict[str, set[str]], fleet: dict[str, int]) -> dict[str, Any]:
    """Return how a contract's ships fared in its round: launched, arrived, and the displacement that arrived (R9)."""
    ships = _ships_of(row, carries)
    home = [s for s in ships if s in arrived]
    return {"launched": sum(s in launched for s in ships), "arrived": len(home),
            "arrived_displacement": sum(fleet[s.split("-", 1)[1]] for s in home), "failure": "", "failure_causes": ""}


def _causes(row: dict[str, Any], carries: dict[str, str], launched: set[str], arrived: set[str],
            fates: dict[str, set[str]]) -> list[str]:
    """Return why a failed contract failed: every cause of FAILURE_CAUSES that befell a ship of it that did not
    arrive, in that order (its first is the contract's one reason; see FAILURE_CAUSES)."""
    ships = _ships_of(row, carries)
    if not ships:
        return ["not sailed"]
    found: set[str] = set()
    for ship in ships:
        if ship in arrived:
            continue
        if ship not in launched:
            found.add("not launched")
        elif fates[ship]:
            found |= fates[ship]
        else:
            found.add("out of moves")
    return [c for c in FAILURE_CAUSES if c in found] or ["pooled away"]


def pirate_turns(raids: list[dict[str, Any]]) -> dict[str, int]:
    """Return the game's turns, those ending with a full-value ship at sea, and those of them in which the pirates
    seized a ship (every turn ends with a raid, R13-R14), from its `raid_rows`."""
    full = [r for r in raids if r["full_at_sea"] > 0]
    return {"turns": len(raids), "turns_full_at_sea": len(full),
            "turns_full_at_sea_seized": sum(r["seized"] > 0 for r in full)}


def raid_rows(events: Sequence[Stamped], world: Map, fleet: dict[str, int]) -> list[dict[str, Any]]:
    """Return a row per turn played: the pirates' raid that ends it (R13-R14), with the full-value ships at sea
    when it began, their displacement, and the ships it seized (all, and of them those on a full-value route)
    with the ransoms they paid.

    At sea: launched on a full-value route this round, neither arrived nor sunk, and not held by pirates: the
    ships a raid may take (D15). A held ship is at sea again once thrown, or from the turn after its release
    (D8, D20: its lost turn lasts to the end of the turn it is released in, raid included). The traffic is
    counted at the raid's first seizure, or at the turn's end when it seized none.
    """
    rows: list[dict[str, Any]] = []
    full: set[str] = set()  # ships launched on a full-value route this round
    at_sea: set[str] = set()
    held: set[str] = set()
    freed: set[str] = set()  # released this turn: at sea from the next
    row: dict[str, Any] | None = None  # this turn's raid, until the turn ends

    def count() -> None:
        if row is not None and row["full_at_sea"] < 0:
            row["full_at_sea"] = len(at_sea)
            row["full_displacement_at_sea"] = sum(fleet[s.split("-", 1)[1]] for s in at_sea)

    for stamped in events:
        event = stamped.event
        if row is not None and isinstance(event, (TurnBegun, Deal, Fulfilled, Failed, RoundEnd, Final)):
            count()
            rows.append(row)
            row = None
        match event:
            case Deal():
                full.clear()
                at_sea.clear()
                held.clear()
                freed.clear()
            case TurnBegun():
                at_sea |= freed
                freed.clear()
                row = {"round": stamped.round, "turn": stamped.turn, "full_at_sea": -1, "full_displacement_at_sea": 0,
                       "seized": 0, "seized_full": 0, "ransom": 0.0, "ransom_full": 0.0}
            case Launched(ship=ship, route=route) if world.route(route).full_value:
                full.add(ship)
                at_sea.add(ship)
            case Released(ship=ship) if ship in held:
                held.discard(ship)
                freed.add(ship)
            case Thrown(ship=ship) if ship in held or ship in freed:
                held.discard(ship)
                freed.discard(ship)
                at_sea.add(ship)
            case Arrived(ship=ship) | Sunk(ship=ship):
                at_sea.discard(ship)
                freed.discard(ship)
            case Seized(ship=ship, ransom=ransom) if row is not None:
                count()
                on_full = ship in full
                row["seized"] += 1
                row["ransom"] += float(ransom)
                row["seized_full"] += on_full
                row["ransom_full"] += float(ransom) * on_full
                if ship in at_sea:
                    at_sea.discard(ship)
                    held.add(ship)
    return rows


def _route_kind(route: str, world: Map) -> str:
    """Return 'full' for a full-value route, 'half' for a half-value one (R8)."""
    return "full" if world.route(route).full_value else "half"


def _contract(rnd: int, seat: int, plan: Plan, world: Map, fleet: dict[str, int]) -> dict[str, Any]:
    return {"round": rnd, "seat": seat, "card": str(plan.card), "value": plan.card.value,
            "direction": plan.card.direction.value, "route": plan.route,
            "full_route": world.route(plan.route).full_value, "ships": len(plan.ships),
            "displacement": sum(fleet[s.split("-", 1)[1]] for s in plan.ships),
            "fulfilled": False, "points": 0.0, "captures": 0, "ransom": 0.0,
            "launched": 0, "arrived": 0, "arrived_displacement": 0, "failure": "", "failure_causes": ""}


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
