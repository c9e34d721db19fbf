"""Why a ring of points (a land's outline, a hole, a zone) is not a simple polygon, said as a designer sees it.

Shapely calls most broken rings a "self-intersection". A designer needs to know which of four things it
is: too few different points (a point repeated), all points on one line (no area), a point visited twice
(the outline touches itself), or two edges that cross. Points are numbered from 0, as in key paths.
"""

from __future__ import annotations

import math
import re

import numpy as np
import shapely
from shapely import Point, Polygon, is_valid_reason

from somaliland.map.errors import KeyPath

SIMPLE = "a simple polygon (edges that do not cross or touch)"
COLLINEAR_TOLERANCE = 1e-9  # of the ring's size: points this close to one line leave no area worth the name


def fmt(x: float, y: float) -> str:
    """Return a point in cm as written in messages."""
    return f"({_num(x)}, {_num(y)}) cm"


def _num(v: float) -> str:
    return f"{v:.2f}" if abs(v) < 1e6 else f"{v:.3g}"


def ring_problem(points: list) -> tuple[KeyPath, str, str] | None:
    """Return (path within the ring, expected, found) of what makes the ring no simple polygon, or None."""
    pts = [tuple(map(float, p)) for p in points]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]  # the closing point may be written out
    distinct = [k for k, p in enumerate(pts) if k == 0 or p != pts[k - 1]]
    if len(distinct) < 3:
        k = next((k for k in range(1, len(pts)) if pts[k] == pts[k - 1]), None)
        why = "" if k is None else f": point {k} {fmt(*pts[k])} repeats point {k - 1} (a consecutive repeated point)"
        return ((k,) if k is not None else (), "an outline of at least 3 different points",
                f"{len(distinct)} different point{'s' * (len(distinct) != 1)}{why}")
    if _collinear([pts[k] for k in distinct]):
        return ((), "a polygon with an area", "an outline with no area: its points lie on one line")
    first: dict[tuple[float, float], int] = {}
    for k in distinct:
        j = first.setdefault(pts[k], k)
        if j != k and not (k == len(pts) - 1 and j == 0):
            return ((k,), SIMPLE, f"point {k} {fmt(*pts[k])} repeats point {j}: the outline touches itself there")
    ring = Polygon(pts)
    if ring.is_valid:
        return None
    where, found = _crossing(pts, ring)
    return where, SIMPLE, found


def _collinear(pts: list[tuple[float, float]]) -> bool:
    """Return True if every point lies on the line through the first point and the point farthest from it."""
    p = np.asarray(pts)
    far = p[np.argmax(np.hypot(*(p - p[0]).T))]
    dx, dy = far - p[0]
    size = math.hypot(dx, dy)
    if not math.isfinite(size) or size == 0:
        return size == 0
    off = np.abs(dx * (p[:, 1] - p[0, 1]) - dy * (p[:, 0] - p[0, 0])) / size
    return bool(off.max() <= COLLINEAR_TOLERANCE * size)


def _crossing(pts: list[tuple[float, float]], ring: Polygon) -> tuple[KeyPath, str]:
    """Return (path within the ring, found) where the ring crosses or touches itself, edges named by their points."""
    reason = is_valid_reason(ring)
    match = re.search(r"\[(\S+) (\S+)\]", reason)
    x, y = (float(match.group(1)), float(match.group(2))) if match else (math.nan, math.nan)
    if not (math.isfinite(x) and math.isfinite(y)):
        return (), reason.lower()
    n = len(pts)
    edges = shapely.linestrings([[pts[k], pts[(k + 1) % n]] for k in range(n)])
    scale = max(1.0, max(abs(c) for p in pts for c in p))
    near = [int(k) for k in np.flatnonzero(shapely.distance(edges, Point(x, y)) <= 1e-9 * scale)]
    vertex = next((k for k in range(n) if math.hypot(pts[k][0] - x, pts[k][1] - y) <= 1e-9 * scale), None)
    if vertex is not None:
        other = [k for k in near if k not in (vertex, (vertex - 1) % n)]
        if other:
            k = other[0]
            return (vertex,), (f"point {vertex} {fmt(x, y)} lies on the edge from point {k} to point {(k + 1) % n}: "
                               f"the outline touches itself there")
    if len(near) >= 2:
        a, b = near[0], near[-1]
        return (a,), (f"a self-intersection: the edge from point {a} to point {(a + 1) % n} crosses the edge from "
                    f"point {b} to point {(b + 1) % n} at {fmt(x, y)}")
    return (), f"a self-intersection at {fmt(x, y)}"
