"""The words for what happened in a game: one sentence per record event, shared by `play`'s account and every
replay's captions (export, GUI, HTML), so that the two can never tell one throw differently.

A sentence says only what its own event says: a lost turn is told by the `lost_turn` line the rules wrote
(R13, R17-R19, D16), never assumed from an accident, so a ship put back on the board that arrives at once
(R19, D13's `same_throw` variant) is not also said to lose a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from somaliland.engine.events import Final, Header, RoundEnd, Score, Stamped, Thrown
from somaliland.map.model import route_title
from somaliland.rules.events import (Arrived, Collision, Failed, Fulfilled, Grounded, Launched, LostTurn, Released,
                                     Replaced, Seized, Sunk, Tipped, TurnSkipped)
from somaliland.units import cm_point

if TYPE_CHECKING:
    from somaliland.engine.fold import Moment

STATUS_WORDS = {"aground": "aground", "lost_turn": "hit in a collision", "off_board": "off the board",
                "held": "held by pirates"}  # lost_turn reasons and turn_skipped statuses (RECORD.md)


@dataclass(frozen=True, slots=True)
class Names:
    """What people call a game's seats and routes: the seats' colours, and each route's label and value by the
    key record lines use (the header's `map.routes`; RECORD.md)."""

    colours: tuple[str, ...]
    labels: dict[str, str]
    full_value: dict[str, bool]

    @classmethod
    def from_header(cls, head: Header | dict[str, Any]) -> "Names":
        """Return the names a record's header gives (records made before route labels name routes by key)."""
        if isinstance(head, Header):
            head = {"map": head.map, "seats": head.seats}
        routes = [r for r in (head.get("map") or {}).get("routes", []) if isinstance(r, dict) and "name" in r]
        return cls(tuple(str(s.get("colour", "?")) for s in head.get("seats", []) if isinstance(s, dict)),
                   {r["name"]: str(r.get("label") or r["name"]) for r in routes},
                   {r["name"]: bool(r.get("full_value")) for r in routes})

    def route(self, key: Any) -> str:
        """Return a route's label ("round Africa"), or its key when the header does not name it."""
        return self.labels.get(key, str(key) if key else "?")

    def route_title(self, key: Any) -> str:
        """Return a route's label with its value (R8): "round Africa (half value)"."""
        return route_title(self.route(key), self.full_value[key]) if key in self.full_value else self.route(key)

    def seat(self, seat: Any) -> str:
        """Return a seat's colour ("red"), or "seat N" for a seat the header does not list."""
        if isinstance(seat, int) and 0 <= seat < len(self.colours):
            return self.colours[seat]
        return f"seat {seat}"


def sentence(told: Stamped | Moment, names: Names) -> str | None:
    """Return what one record event says happened, or None for lines that are bookkeeping (deal, turn, plan...)."""
    match told.event:
        case Thrown(ship=ship, result=result):
            rest = result.moved[0]
            return f"{ship} came to rest {rest.face_value} pips up{' (cocked)' if rest.cocked else ''}"
        case Launched(ship=ship, route=route, direction=direction):
            return f"{ship} launched on {names.route(route)}, {direction}bound"
        case Grounded(ship=ship, at=at, crossed=crossed) if crossed is not None:
            return (f"{ship} ran aground crossing the coast at {cm_point(crossed)}, set down at {cm_point(at)} clear "
                    f"of every die")
        case Grounded(ship=ship):
            return f"{ship} ran aground"
        case Collision(causer=causer, a=a, b=b):
            return f"collision {a} / {b} (thrown: {causer})"
        case Tipped(ship=ship, value_before=before, value_after=after):
            return f"{ship} tipped over ({_faces(before, after)})"
        case Sunk(ship=ship, tipped=tipped):
            return f"{ship} SANK for tipping {', '.join(tipped)}"
        case Replaced(ship=ship):
            return f"{ship} went off the board, put back on the board"
        case LostTurn(ship=ship, reason=reason):
            return f"{ship} will lose its next move ({_status(reason)})"
        case TurnSkipped(ship=ship, status=status):
            return f"{ship} loses this move ({_status(status)})"
        case Released(ship=ship, port=port):
            return f"pirates of {port} released {ship}, set down clear of every die"
        case Arrived(ship=ship, route=route, direction=direction):
            return f"{ship} arrived ({names.route(route)}, {direction}bound)"
        case Seized(ship=ship, port=port, ransom=ransom, with_partner_of=partner):
            taken = f", taken with {partner}" if partner else ""
            paid = f"{ransom} point{'s' * (ransom != 1)}"
            return f"pirates of {port} seized {ship}{taken}: {owner(ship)} pays {paid} ransom"
        case Fulfilled(seat=seat, card=card, route=route, points=won):
            return f"{names.seat(seat)} fulfilled {card} via {names.route(route)}: +{points(won)} points"
        case Failed(seat=seat, card=card):
            return f"{names.seat(seat)} failed {card}"
        case RoundEnd(sheets=sheets):
            return f"scores after round {told.round}: {scores(sheets, names)}"
        case Final(winners=winners, table=table):
            ranked = sorted(table, key=lambda t: t.place)
            places = ", ".join(f"{t.place}. {t.colour} {points(t.points)}" for t in ranked)
            return f"game over: {' and '.join(names.seat(w) for w in winners) or '?'} won ({places} points)"
    return None


def owner(ship: Any) -> str:
    """Return the colour of a ship's owner from its id ("red-24" -> "red")."""
    return str(ship).split("-")[0]


def points(value: Any) -> str:
    """Return a points figure as the score sheet writes it ("25", "12.5")."""
    return f"{value:g}" if isinstance(value, (int, float)) else "?"


def scores(sheets: tuple[Score, ...], names: Names) -> str:
    """Return a round's score sheets in one line: "red 45; green 27 points"."""
    return "; ".join(f"{names.seat(s.seat)} {points(s.points)}" for s in sheets) + " points" * bool(sheets)


def _status(value: Any) -> str:
    return STATUS_WORDS.get(str(value), str(value).replace("_", " "))


def _faces(before: Any, after: Any) -> str:
    """Return a tip-over's faces; D12 counts a new top face even when it has as many pips."""
    if before != after:
        return f"{before} -> {after} pips up"
    return f"onto another face of {after} pip{'s' * (after != 1)}"
