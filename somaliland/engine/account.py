"""A readable account of a game, written from its record: per round what was taken, what sailed where
and what happened, then the final table with tie-break reasons. Events are told in the words of `phrases`,
the replays' captions' words too; lost moves and launches are left to the replays."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from somaliland.engine.events import Deal, DraftPick, Final, Header, Planned, RoundEnd, Stamped, Thrown, decode
from somaliland.engine.phrases import Names, sentence
from somaliland.map.model import route_title
from somaliland.rules.events import (Arrived, Collision, Failed, Fulfilled, Grounded, Released, Replaced, Seized,
                                     Sunk, Tipped)
from somaliland.rules.fleet import COLOURS

TOLD = (Arrived, Seized, Released, Grounded, Collision, Tipped, Sunk, Replaced)  # one line each, by turn


def account(lines: list[dict[str, Any]]) -> list[str]:
    """Return the lines of a game's account from its record lines; routes go by the names the header gives them."""
    told = [decode(line) for line in lines]
    head, final = told[0].event, told[-1].event
    assert isinstance(head, Header) and isinstance(final, Final)  # read_record and the loop see to it
    routes = head.map.get("routes", [])  # records made before route labels name routes by their keys
    names = Names.from_header(head)
    lines_ = [f"Somaliland, {len(head.seats)} players, seed {head.seed}, map {head.map['name']}",
              "Seats: " + ", ".join(f"{s['colour']} ({s['strategy']})" for s in head.seats),
              f"First player: {COLOURS[head.first_player]}"]
    if routes:
        lines_.append("Routes: " + ", ".join(route_title(r["label"], r["full_value"]) for r in routes))
    by_round: dict[int, list[Stamped]] = defaultdict(list)
    for stamped in told[1:-1]:
        by_round[stamped.round].append(stamped)
    for number in sorted(by_round):
        lines_ += ["", f"Round {number}"] + _round(by_round[number], names)
    lines_ += ["", "Final table"]
    lines_.append(f"  {'place':>5}  {'player':<7} {'points':>7} {'full':>5} {'half':>5} {'ransom':>6} {'done':>4}  why")
    for row in final.table:
        lines_.append(f"  {row.place:>5}  {row.colour:<7} {row.points:>7g} {row.full:>5} "
                      f"{row.half / 2:>5g} {row.ransom:>6} {row.fulfilled:>4}  {row.reason}")
    winners = " and ".join(COLOURS[w] for w in final.winners)
    lines_.append(f"Winner: {winners}" + (" (shared)" if len(final.winners) > 1 else ""))
    return lines_


def _round(told: list[Stamped], names: Names) -> list[str]:
    out: list[str] = []
    taken: dict[int, list[str]] = defaultdict(list)
    throws = 0
    for stamped in told:
        match stamped.event:
            case Deal(offer=offer):
                out.append(f"  Offer: {' '.join(map(str, offer))}")
            case DraftPick(seat=seat, card=card) if card is not None:
                taken[seat].append(str(card))
            case Planned(seat=seat, plans=plans):
                if taken:
                    out.append("  Contracts: " + "; ".join(f"{COLOURS[s]} {' '.join(c)}" for s, c in sorted(taken.items())))
                    taken.clear()
                said = ", ".join(f"{p.card} via {names.route(p.route)} ({'+'.join(p.ships)})" for p in plans)
                out.append(f"  {COLOURS[seat]} plans {said}")
            case Thrown():
                throws += 1
            case event if isinstance(event, TOLD):
                out.append(f"  turn {stamped.turn}: {sentence(stamped, names)}")
            case Fulfilled() | Failed():
                out.append(f"  {sentence(stamped, names)}")
            case RoundEnd():
                out.append(f"  {throws} throws. {sentence(stamped, names)}")
    return out
