"""The words for what happened in a game: one sentence per record event, shared by `play`'s account and every
replay's captions (export, GUI, HTML), so that the two can never tell one throw differently.

A sentence says only what its own event says: a lost turn is told by the `lost_turn` line the rules wrote
(R13, R17-R19, D16), never assumed from an accident, so a ship put back on the board that arrives at once
(R19, D13's `same_throw` variant) is not also said to lose a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from somaliland.map.model import route_title

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
    def from_header(cls, head: dict[str, Any]) -> "Names":
        """Return the names a record's header gives (records made before route labels name routes by key)."""
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


def sentence(event: dict[str, Any], names: Names) -> str | None:
    """Return what one record event says happened, or None for lines that are bookkeeping (deal, turn, plan...)."""
    kind = event.get("kind")
    phrase = _PHRASES.get(str(kind))
    return phrase(event, names) if phrase is not None else None  # type: ignore[operator]


def owner(ship: Any) -> str:
    """Return the colour of a ship's owner from its id ("red-24" -> "red")."""
    return str(ship).split("-")[0]


def points(value: Any) -> str:
    """Return a points figure as the score sheet writes it ("25", "12.5")."""
    return f"{value:g}" if isinstance(value, (int, float)) else "?"


def scores(sheets: list[Any], names: Names) -> str:
    """Return a round's score sheets in one line: "red 45; green 27 points"."""
    rows = [s for s in sheets if isinstance(s, dict)]
    return "; ".join(f"{names.seat(s.get('seat'))} {points(s.get('points'))}" for s in rows) + " points" * bool(rows)


def _status(value: Any) -> str:
    return STATUS_WORDS.get(str(value), str(value).replace("_", " "))


def _faces(before: Any, after: Any) -> str:
    """Return a tip-over's faces; D12 counts a new top face even when it has as many pips."""
    return f"{before} -> {after} pips up" if before != after else f"onto another face of {after} pips"


def _seized(e: dict[str, Any], n: Names) -> str:
    partner = f", taken with {e['with_partner_of']}" if e.get("with_partner_of") else ""
    return (f"pirates of {e.get('port')} seized {e.get('ship')}{partner}: {owner(e.get('ship'))} pays "
            f"{e.get('ransom')} points ransom")


def _final(e: dict[str, Any], n: Names) -> str:
    table = sorted((t for t in e.get("table", []) if isinstance(t, dict)), key=lambda t: t.get("place", 0))
    winners = " and ".join(n.seat(w) for w in e.get("winners", []))
    places = ", ".join(f"{t.get('place')}. {t.get('colour')} {points(t.get('points'))}" for t in table)
    return f"game over: {winners or '?'} won ({places} points)"


def _rest(e: dict[str, Any], n: Names) -> str | None:
    moved = (e.get("result") or {}).get("moved") or [{}]
    value = moved[0].get("face_value")
    cocked = " (cocked)" if moved[0].get("cocked") else ""
    return f"{e.get('ship')} came to rest {value} pips up{cocked}" if value is not None else None


_PHRASES = {  # event kind -> its sentence (RECORD.md's fields)
    "throw": _rest,
    "launched": lambda e, n: f"{e.get('ship')} launched on {n.route(e.get('route'))}, {e.get('direction')}bound",
    "grounded": lambda e, n: f"{e.get('ship')} ran aground",
    "collision": lambda e, n: f"collision {e.get('a')} / {e.get('b')} (thrown: {e.get('causer')})",
    "tipped": lambda e, n: f"{e.get('ship')} tipped over ({_faces(e.get('value_before'), e.get('value_after'))})",
    "sunk": lambda e, n: f"{e.get('ship')} SANK for tipping {', '.join(map(str, e.get('tipped', [])))}",
    "replaced": lambda e, n: f"{e.get('ship')} went off the board, put back on the board",
    "lost_turn": lambda e, n: f"{e.get('ship')} will lose its next move ({_status(e.get('reason'))})",
    "turn_skipped": lambda e, n: f"{e.get('ship')} loses this move ({_status(e.get('status'))})",
    "released": lambda e, n: f"pirates of {e.get('port')} released {e.get('ship')}, set down clear of every die",
    "arrived": lambda e, n: f"{e.get('ship')} arrived ({n.route(e.get('route'))}, {e.get('direction')}bound)",
    "seized": _seized,
    "fulfilled": lambda e, n: (f"{n.seat(e.get('seat'))} fulfilled {e.get('card')} via {n.route(e.get('route'))}: "
                               f"+{points(e.get('points'))} points"),
    "failed": lambda e, n: f"{n.seat(e.get('seat'))} failed {e.get('card')}",
    "round_end": lambda e, n: f"scores after round {e.get('round')}: {scores(e.get('sheets', []), n)}",
    "final": _final,
}
