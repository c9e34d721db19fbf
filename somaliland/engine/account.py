"""A readable account of a game, written from its record: per round what was taken, what sailed where
and what happened, then the final table with tie-break reasons. Events are told in the words of `phrases`,
the replays' captions' words too; lost moves and launches are left to the replays."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from somaliland.engine.phrases import Names, sentence
from somaliland.map.model import route_title
from somaliland.rules.fleet import COLOURS

TOLD = ("arrived", "seized", "released", "grounded", "collision", "tipped", "sunk", "replaced")  # one line each, by turn


def account(events: list[dict[str, Any]]) -> list[str]:
    """Return the lines of a game's account; routes go by the names the header gives them (RECORD.md)."""
    head = events[0]
    seats = head["seats"]
    routes = head["map"].get("routes", [])  # records made before route labels name routes by their keys
    names = Names.from_header(head)
    lines = [f"Somaliland, {len(seats)} players, seed {head['seed']}, map {head['map']['name']}",
             "Seats: " + ", ".join(f"{s['colour']} ({s['strategy']})" for s in seats),
             f"First player: {COLOURS[head['first_player']]}"]
    if routes:
        lines.append("Routes: " + ", ".join(route_title(r["label"], r["full_value"]) for r in routes))
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in events[1:-1]:
        by_round[e["round"]].append(e)
    for number in sorted(by_round):
        lines += ["", f"Round {number}"] + _round(by_round[number], names)
    final = events[-1]
    lines += ["", "Final table"]
    lines.append(f"  {'place':>5}  {'player':<7} {'points':>7} {'full':>5} {'half':>5} {'ransom':>6} {'done':>4}  why")
    for row in final["table"]:
        lines.append(f"  {row['place']:>5}  {row['colour']:<7} {row['points']:>7g} {row['full']:>5} "
                     f"{row['half'] / 2:>5g} {row['ransom']:>6} {row['fulfilled']:>4}  {row['reason']}")
    winners = " and ".join(COLOURS[w] for w in final["winners"])
    lines.append(f"Winner: {winners}" + (" (shared)" if len(final["winners"]) > 1 else ""))
    return lines


def _round(events: list[dict[str, Any]], names: Names) -> list[str]:
    out: list[str] = []
    taken: dict[int, list[str]] = defaultdict(list)
    throws = 0
    for e in events:
        kind = e["kind"]
        if kind == "deal":
            out.append(f"  Offer: {' '.join(e['offer'])}")
        elif kind == "draft_pick" and e["card"]:
            taken[e["seat"]].append(e["card"])
        elif kind == "plan":
            if taken:
                out.append("  Contracts: " + "; ".join(f"{COLOURS[s]} {' '.join(c)}" for s, c in sorted(taken.items())))
                taken.clear()
            plans = ", ".join(f"{p['card']} via {names.route(p['route'])} ({'+'.join(p['ships'])})" for p in e["plans"])
            out.append(f"  {COLOURS[e['seat']]} plans {plans}")
        elif kind == "throw":
            throws += 1
        elif kind in TOLD:
            out.append(f"  turn {e['turn']}: {sentence(e, names)}")
        elif kind in ("fulfilled", "failed"):
            out.append(f"  {sentence(e, names)}")
        elif kind == "round_end":
            out.append(f"  {throws} throws. {sentence(e, names)}")
    return out
