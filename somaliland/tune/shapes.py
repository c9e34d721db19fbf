"""Geometric knobs: move, scale, rotate or buffer a named feature of a map document, in place.

A feature is whatever a map path names: a point (`map:pirate_port[Eyl].at`, `map:routes.somalia.north.start`,
`map:routes.somalia.centre_line[3]`), a line or ring of points (`map:routes.somalia.centre_line`), or a
table whose points all move together (`map:land[Somalia]`: its outline and holes; `map:zone[Suez]`;
`map:pirate_port[Eyl]`; `map:routes.africa`: its centre line and both starts; headings stay as written).
Units are the file's: centimetres and degrees.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, MutableMapping, MutableSequence
from typing import Any

from somaliland.tune.paths import is_number, tidy

OPS = {  # op -> its parameters (each a range in a knob); move takes dx/dy, or heading + distance
    "move": ("dx", "dy", "distance"),
    "scale": ("factor",),
    "rotate": ("degrees",),
    "buffer": ("distance",),
}
SIMPLIFY_CM = 0.005  # a buffered outline drops points closer than this to the line of their neighbours


class ShapeError(ValueError):
    """A geometric operation whose result is not a map feature (a buffer that splits or erases a land)."""


def is_point(node: Any) -> bool:
    """Return True for an [x, y] pair of numbers."""
    return isinstance(node, MutableSequence) and len(node) == 2 and all(is_number(v) for v in node)


def points(node: Any) -> Iterator[MutableSequence]:
    """Yield every [x, y] point inside a feature (the feature itself if it is one), in file order."""
    if is_point(node):
        yield node
    elif isinstance(node, MutableMapping):
        for value in node.values():
            yield from points(value)
    elif isinstance(node, MutableSequence):
        for value in node:
            yield from points(value)


def centre(node: Any) -> tuple[float, float]:
    """Return the point a feature scales and rotates about: its outline's centroid, else its points' mean."""
    if isinstance(node, MutableMapping) and "outline" in node:
        from shapely import Polygon

        c = Polygon([tuple(p) for p in node["outline"]]).centroid
        return (c.x, c.y)
    xy = [(float(p[0]), float(p[1])) for p in points(node)]
    return (sum(x for x, _ in xy) / len(xy), sum(y for _, y in xy) / len(xy))


def apply(node: Any, op: str, value: float, about: tuple[float, float] | None = None,
          heading: float | None = None, axis: str = "", board: tuple[float, float] | None = None) -> None:
    """Apply one geometric operation to a feature, in place.

    Args:
        node: the feature (a point, an array of points, or a table) inside a tomlkit map document.
        op: move, scale, rotate or buffer.
        value: the operation's amount: cm moved (along `axis` "dx"/"dy", or along `heading`), a scale
            factor, degrees counter-clockwise, or cm the outline grows by (negative: shrinks).
        about: the centre of scale and rotate (default: `centre(node)`).
        heading: degrees counter-clockwise from east, for a move by distance.
        axis: "dx" or "dy" for a move along one axis.
        board: the board's width and depth (cm): a buffered outline is cut to the board, so land that runs
            to the board's edge still does.

    Raises:
        ShapeError: a buffer leaves no land, or splits it into pieces.
    """
    if op == "buffer":
        _buffer(node, value, board)
        return
    cx, cy = about if about is not None else centre(node)
    if op == "move":
        if axis == "dx":
            dx, dy = value, 0.0
        elif axis == "dy":
            dx, dy = 0.0, value
        else:
            dx, dy = value * math.cos(math.radians(heading or 0.0)), value * math.sin(math.radians(heading or 0.0))
    for p in points(node):
        x, y = float(p[0]), float(p[1])
        if op == "move":
            x, y = x + dx, y + dy
        elif op == "scale":
            x, y = cx + value * (x - cx), cy + value * (y - cy)
        else:  # rotate
            c, s = math.cos(math.radians(value)), math.sin(math.radians(value))
            x, y = cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)
        p[0], p[1] = tidy(x), tidy(y)


def _buffer(node: Any, distance: float, board: tuple[float, float] | None) -> None:
    """Grow (or shrink) an outline by `distance` cm with mitred corners, cut to the board; its holes shrink
    (or grow) alike."""
    import shapely
    import tomlkit
    from shapely import Polygon, box

    shape = Polygon([tuple(p) for p in node["outline"]], [[tuple(p) for p in h] for h in node.get("holes", [])])
    grown = shape.buffer(distance, join_style="mitre", mitre_limit=5.0)
    if board is not None:
        grown = grown.intersection(box(0.0, 0.0, *board))
    grown = shapely.simplify(grown, SIMPLIFY_CM)
    if grown.is_empty:
        raise ShapeError(f"a buffer of {distance:g} cm leaves nothing of the outline")
    if grown.geom_type != "Polygon":
        raise ShapeError(f"a buffer of {distance:g} cm splits the outline into {len(grown.geoms)} pieces")

    def ring(coords, one_per_line: bool) -> Any:
        array = tomlkit.array()
        array.extend([tidy(x), tidy(y)] for x, y in list(coords)[:-1])
        return array.multiline(one_per_line)

    node["outline"] = ring(grown.exterior.coords, True)
    if grown.interiors or "holes" in node:
        holes = tomlkit.array()
        holes.extend(ring(h.coords, False) for h in grown.interiors)
        node["holes"] = holes.multiline(True)
