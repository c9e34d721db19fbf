"""What a study report calls routes: the labels the game's own map gives them, never assumed names (R8).

Each row of the `games` table holds its map's routes (`routes`: JSON [{name, label, full_value}], copied
from the record's header). A report compares kinds of route, full-value against half-value, and names a
kind by the labels of the map's routes of that kind ("the Strait"; several joined with " / "). Games
played on maps that name a kind differently, or results made before routes were recorded, get the plain
"the full-value route" / "the half-value route": different maps' routes are never pooled under one name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from somaliland.map.model import route_title

GENERIC = {True: "the full-value route", False: "the half-value route"}


def kind_label(games, full: bool) -> str | None:
    """Return the label of these games' full- (or half-) value routes, or None when they do not share one."""
    if games is None or games.empty or "routes" not in games or games.routes.isna().any():
        return None
    labels = {" / ".join(r["label"] for r in json.loads(text) if r["full_value"] == full)
              for text in games.routes.unique()}
    return (labels.pop() or None) if len(labels) == 1 else None


def offered(games) -> set[bool]:
    """Return the kinds of route (True: full value) the maps of these games offer; empty when not recorded."""
    if games is None or games.empty or "routes" not in games or games.routes.isna().any():
        return set()
    return {r["full_value"] for text in games.routes.unique() for r in json.loads(text)}


def kind_name(games, full: bool) -> str:
    """Return what to call these games' full- (or half-) value route: its label, else the generic name."""
    return kind_label(games, full) or GENERIC[full]


def kind_title(games, full: bool) -> str:
    """Return the kind's name with its value, "the Strait (full value)", or the generic name."""
    label = kind_label(games, full)
    return route_title(label, full) if label else GENERIC[full]


def per_map(frame, games) -> Iterator[tuple[str | None, object, object]]:
    """Yield (map, rows, games) for each map the games were played on; map None when there is only one."""
    maps = sorted(games["map"].unique()) if games is not None and "map" in games and "map" in frame else []
    if len(maps) < 2:
        yield None, frame, games
        return
    for name in maps:
        yield name, frame[frame["map"] == name], games[games["map"] == name]
