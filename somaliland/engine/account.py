"""A readable account of a game, written from its record: per round what was taken, what sailed where
and what happened, then the final table with tie-break reasons."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from somaliland.map.model import route_title
from somaliland.rules.fleet import COLOURS


def account(events: list[dict[str, Any]]) -> list[str]:
    """Return the lines of a game's account; routes go by the names the header gives them (RECORD.md)."""
    head = events[0]
    seats = head["seats"]
    routes = head["map"].get("routes", [])  # records made before route labels name routes by their keys
    called = {r["name"]: r["label"] for r in routes}
    lines = [f"Somaliland, {len(seats)} players, seed {head['seed']}, map {head['map']['name']}",
             "Seats: " + ", ".join(f"{s['colour']} ({s['strategy']})" for s in seats),
             f"First player: {COLOURS[head['first_player']]}"]
    if routes:
        lines.append("Routes: " + ", ".join(route_title(r["label"], r["full_value"]) for r in routes))
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in events[1:-1]:
        by_round[e["round"]].append(e)
    for number in sorted(by_round):
        lines += ["", f"Round {number}"] + _round(by_round[number], called)
    final = events[-1]
    lines += ["", "Final table"]
    lines.append(f"  {'place':>5}  {'player':<7} {'points':>7} {'full':>5} {'half':>5} {'ransom':>6} {'done':>4}  why")
    for row in final["table"]:
        lines.append(f"  {row['place']:>5}  {row['colour']:<7} {row['points']:>7g} {row['full']:>5} "
                     f"{row['half'] / 2:>5g} {row['ransom']:>6} {row['fulfilled']:>4}  {row['reason']}")
    winners = " and ".join(COLOURS[w] for w in final["winners"])
    lines.append(f"Winner: {winners}" + (" (shared)" if len(final["winners"]) > 1 else ""))
    return lines


def _round(events: list[dict[str, Any]], called: dict[str, str]) -> list[str]:
    def route(name: str) -> str:
        return called.get(name, name)

    out: list[str] = []
    taken: dict[int, list[str]] = defaultdict(list)
    counts: dict[str, int] = defaultdict(int)
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
            plans = ", ".join(f"{p['card']} via {route(p['route'])} ({'+'.join(p['ships'])})" for p in e["plans"])
            out.append(f"  {COLOURS[e['seat']]} plans {plans}")
        elif kind == "throw":
            counts["throws"] += 1
        elif kind == "arrived":
            out.append(f"  turn {e['turn']}: {e['ship']} arrived ({route(e['route'])}, {e['direction']}bound)")
        elif kind == "seized":
            partner = f", taken with {e['with_partner_of']}" if e["with_partner_of"] else ""
            out.append(f"  turn {e['turn']}: pirates of {e['port']} seized {e['ship']}, ransom {e['ransom']}{partner}")
        elif kind == "grounded":
            out.append(f"  turn {e['turn']}: {e['ship']} ran aground")
        elif kind == "collision":
            out.append(f"  turn {e['turn']}: collision {e['a']} / {e['b']} (thrown: {e['causer']})")
        elif kind == "tipped":
            out.append(f"  turn {e['turn']}: {e['ship']} tipped over ({e['value_before']} -> {e['value_after']})")
        elif kind == "sunk":
            out.append(f"  turn {e['turn']}: {e['ship']} SANK for tipping {', '.join(e['tipped'])}")
        elif kind == "replaced":
            out.append(f"  turn {e['turn']}: {e['ship']} went off the board, put back on the board")
        elif kind == "fulfilled":
            out.append(f"  {COLOURS[e['seat']]} fulfilled {e['card']} via {route(e['route'])}: +{e['points']:g}")
        elif kind == "failed":
            out.append(f"  {COLOURS[e['seat']]} failed {e['card']}")
        elif kind == "round_end":
            sheet = "; ".join(f"{COLOURS[s['seat']]} {s['points']:g}" for s in e["sheets"])
            out.append(f"  {counts['throws']} throws. Scores: {sheet}")
    return out
