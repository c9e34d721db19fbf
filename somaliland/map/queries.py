"""Point queries against map geometry, many points at a time: the answers of shapely's, to the last bit, for less CPU.

The players' aim asks thousands of them per throw (`players/hazards.py`), and a game is chaotic: one last bit in
one aim changes every throw after it, so these must answer exactly what shapely (GEOS) answers, not nearly.

- `contains_xy(geometry, x, y)`: `shapely.contains_xy` behind a raster of the geometry's cells (`CellMask`). A
  cell whose closed square (grown by `PAD`) lies wholly in the geometry's interior answers True, one that does
  not touch the geometry answers False, both decided once by GEOS's exact predicates; only points in cells
  that cross the boundary are asked of GEOS. Built once per geometry (about 0.04 s for the default board's
  land at 4 mm cells). `CellMask.codes_along` finds the cells of points along rays from the rays' start and
  step, without working each point out (an error of a few ulps of a cell index, far within `PAD`).
- `locate_and_distance(coords, points)`: `shapely.line_locate_point` and `shapely.distance` of points from a
  line string, by GEOS's own arithmetic (`LengthIndexOfPoint::indexOfFromStart`,
  `Distance::pointToSegment`, `LineSegment::projectionFactor`) in numpy's exactly rounded +, -, *, /, sqrt,
  without making a shapely point for each.
- `nearest_points(geometry, points)`: the nearest point of a polygonal geometry (`shapely.shortest_line`'s first
  point): beyond a side of its bounding box where one of its segments alone lies on that side (`Sides`), the
  projection on that segment by GEOS's `LineSegment::closestPoint` arithmetic; elsewhere shapely's.
- `stretch(line, start, end)`: `shapely.ops.substring` of a line string between two distances along it, with
  the line's vertices and the running lengths substring measures them by kept per line.

tests/test_map_queries.py checks each against shapely.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

CELL = 0.004  # m: the raster's cell (a quarter of a die); any size gives the same answers, this one the fastest
MAX_CELLS_PER_SIDE = 1024  # a larger geometry gets coarser cells
PAD = 1e-9  # m each cell's square is grown by when classified, far beyond the rounding of a point's cell index
OUTSIDE, INSIDE, EDGE = 0, 1, 2
_BY_IDENTITY: dict[int, tuple[BaseGeometry, "CellMask"]] = {}  # id -> (the geometry, kept alive; its mask)
_LINES: dict[int, tuple[LineString, tuple[list, list]]] = {}  # id -> (the line, kept alive; vertices, running lengths)
_REVERSED: dict[int, tuple[LineString, LineString]] = {}  # id -> (the line, kept alive; it reversed)


def _kept(cache: dict, thing: Any, make: Callable[[Any], Any], limit: int) -> Any:
    """Return `make(thing)`, made once per object while it lives: keyed by its identity, the object kept in the
    cache beside its answer so its id cannot be reused; the cache emptied when it holds `limit`."""
    kept = cache.get(id(thing))
    if kept is None or kept[0] is not thing:
        if len(cache) >= limit:
            cache.clear()
        kept = cache[id(thing)] = (thing, make(thing))
    return kept[1]


class CellMask:
    """A geometry's raster: each cell of its bounds (and a ring of cells around them) OUTSIDE, INSIDE or EDGE."""

    def __init__(self, geometry: BaseGeometry, cell: float = CELL) -> None:
        self.geometry = geometry
        shapely.prepare(geometry)
        x0, y0, x1, y1 = geometry.bounds
        self.cell = max(cell, (x1 - x0) / MAX_CELLS_PER_SIDE, (y1 - y0) / MAX_CELLS_PER_SIDE)
        self.x0, self.y0 = x0, y0
        nx, ny = math.ceil((x1 - x0) / self.cell) + 1, math.ceil((y1 - y0) / self.cell) + 1
        codes = np.full((nx + 2, ny + 2), OUTSIDE, dtype=np.uint8)  # a ring of OUTSIDE cells around the bounds
        codes[1:-1, 1:-1] = self._classify(nx, ny)
        self.codes = codes.ravel()
        self.stride = ny + 2
        self.last_x, self.last_y = float(nx + 1), float(ny + 1)

    def _classify(self, nx: int, ny: int) -> np.ndarray:
        """Return the (nx, ny) codes of the cells whose south-west corners lie `cell` apart from the bounds' corner."""
        ix, iy = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
        x, y = self.x0 + ix * self.cell, self.y0 + iy * self.cell
        squares = shapely.box(x - PAD, y - PAD, x + self.cell + PAD, y + self.cell + PAD)
        inside = shapely.contains_properly(self.geometry, squares)
        touched = shapely.intersects(self.geometry, squares)
        return np.where(inside, INSIDE, np.where(touched, EDGE, OUTSIDE)).astype(np.uint8)

    def codes_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Return the code of the cell of each point (float arrays of one shape): INSIDE points are contained,
        OUTSIDE ones not, EDGE ones are for GEOS to say.

        A point's cell index is rounded within `PAD` of its cell; a point outside the bounds (or not finite)
        falls in the ring of OUTSIDE cells.
        """
        ix = np.fmin(np.fmax((x - self.x0) / self.cell + 1.0, 0.0), self.last_x).astype(np.intp)
        iy = np.fmin(np.fmax((y - self.y0) / self.cell + 1.0, 0.0), self.last_y).astype(np.intp)
        return self.codes[ix * self.stride + iy]

    def codes_along(self, origin: tuple[float, float], direction: np.ndarray, ray: np.ndarray,
                    t: np.ndarray) -> np.ndarray:
        """Return `codes_at` of the points `origin + direction[ray] * t` (rays' unit vectors (r, 2); each point's ray
        and distance along it, (n,)) without working the points out: a point's cell index is the ray's start and step
        in cells, off from the point's own by a few ulps of the index, far within `PAD`."""
        ix = (origin[0] - self.x0) / self.cell + 1.0 + (direction[:, 0] / self.cell)[ray] * t
        iy = (origin[1] - self.y0) / self.cell + 1.0 + (direction[:, 1] / self.cell)[ray] * t
        ix = np.fmin(np.fmax(ix, 0.0, out=ix), self.last_x, out=ix).astype(np.intp)
        iy = np.fmin(np.fmax(iy, 0.0, out=iy), self.last_y, out=iy).astype(np.intp)
        ix *= self.stride
        ix += iy
        return self.codes[ix]

    def contains_xy(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Return `shapely.contains_xy(geometry, x, y)` for float arrays of one shape (`codes_at`, then GEOS for
        the points in EDGE cells); no point outside the bounds (or not finite) is contained."""
        code = self.codes_at(x, y)
        found = code == INSIDE
        edge = code == EDGE
        if edge.any():
            found[edge] = shapely.contains_xy(self.geometry, x[edge], y[edge])
        return found


def cell_mask(geometry: BaseGeometry) -> CellMask:
    """Return the geometry's `CellMask`, built once per geometry (by identity, else by value)."""
    return _kept(_BY_IDENTITY, geometry, _mask_by_value, 64)


@lru_cache(maxsize=16)
def _mask_by_value(geometry: BaseGeometry) -> CellMask:
    return CellMask(geometry)


def contains_xy(geometry: BaseGeometry, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Return `shapely.contains_xy(geometry, x, y)` for float arrays of one shape, through the geometry's raster.

    An empty geometry contains nothing.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if geometry.is_empty:
        return np.zeros(np.broadcast(x, y).shape, dtype=bool)
    return cell_mask(geometry).contains_xy(*np.broadcast_arrays(x, y))


def locate_and_distance(coords: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return, for each point (n, 2), how far along the line string of these vertices (m, 2; m >= 2) its nearest
    point lies, and its distance from the line: `shapely.line_locate_point` and `shapely.distance`, bit for bit.

    GEOS takes the first segment (in the line's order) at the least `Distance::pointToSegment` distance and
    measures along it by the projection factor, clamped to the segment; the lengths before it are summed in
    order. A line with a segment of zero length, or a point that is not finite, is left to shapely.
    """
    cx, cy = coords[:, :1], coords[:, 1:]  # (m, 1): segments down, points across (numpy's fast layout)
    dx, dy = cx[1:] - cx[:-1], cy[1:] - cy[:-1]
    len2 = dx * dx + dy * dy
    if not len2.all() or not np.isfinite(points).all():
        line, at = shapely.LineString(coords), shapely.points(points)
        return shapely.line_locate_point(line, at), shapely.distance(line, at)
    # (m, n): from each vertex to each point, and their distances (a segment's end is the next one's start)
    vx, vy = points[:, 0] - cx, points[:, 1] - cy
    apart = vx * vx
    apart += vy * vy
    np.sqrt(apart, out=apart)
    ex, ey = vx[:-1], vy[:-1]  # (m - 1, n): from each segment's start
    factor = ex * dx
    factor += ey * dy
    factor /= len2
    seg_len = np.sqrt(len2)
    # |(A.y - p.y)(B.x - A.x) - (A.x - p.x)(B.y - A.y)| / L^2 * L: the negations are exact, so are the swapped signs
    dist = ex * dy
    dist -= ey * dx
    np.abs(dist, out=dist)
    dist /= len2
    dist *= seg_len
    dist = np.where(factor >= 1.0, apart[1:], dist)  # beyond the segment's end: the distance from it
    dist = np.where(factor <= 0.0, apart[:-1], dist)  # before its start
    nearest = dist.argmin(axis=0)  # the first of equals, as GEOS's strict `<`
    cols = np.arange(len(points))
    f = factor[nearest, cols]
    seg_len = seg_len[:, 0]
    start = np.concatenate([[0.0], np.cumsum(seg_len)[:-1]])[nearest]
    length = seg_len[nearest]
    along = np.where(f <= 0.0, start, np.where(f <= 1.0, start + f * length, start + length))
    return along, dist[nearest, cols]


class Sides:
    """A polygonal geometry's boundary segments lying on its bounding box's sides, cut to the stretches along which
    nothing else of the geometry comes within `SIDE_GAP` of the side: the nearest point of the geometry to a point
    beyond such a stretch lies on that segment alone, nearer than any other by far more than rounding."""

    def __init__(self, geometry: BaseGeometry) -> None:
        self.bounds = geometry.bounds
        x0, y0, x1, y1 = self.bounds
        rings = [shapely.get_coordinates(r) for r in shapely.get_rings(shapely.get_parts(geometry))]
        segments = np.vstack([np.zeros((0, 4))] + [np.hstack([r[:-1], r[1:]]) for r in rings if len(r) > 1])
        self.segments = segments  # (ax, ay, bx, by) of every ring's segments
        pieces = []  # (key from, key to, segment)
        for side, (axis, c) in enumerate(((0, x0), (0, x1), (1, y0), (1, y1))):
            fixed, along = segments[:, [axis, axis + 2]], segments[:, [1 - axis, 3 - axis]]
            on = (fixed == c).all(axis=1)
            near = np.abs(fixed - c).min(axis=1) <= SIDE_GAP
            lo, hi = along.min(axis=1), along.max(axis=1)
            for k in np.flatnonzero(on).tolist():
                blocked = sorted([(lo[j] - SIDE_GAP, hi[j] + SIDE_GAP) for j in np.flatnonzero(near).tolist() if j != k]
                                 + [(u - SIDE_GAP, u + SIDE_GAP) for u in (lo[k], hi[k])])
                start = lo[k]
                for a, b in blocked:
                    if a > start and start < hi[k]:
                        pieces.append((side, start, min(a, hi[k]), k))
                    start = max(start, b)
        pieces.sort()
        self.key_from = np.array([side * SIDE_SPAN + a for side, a, b, k in pieces])
        self.key_to = np.array([side * SIDE_SPAN + b for side, a, b, k in pieces])
        self.segment = np.array([k for side, a, b, k in pieces], dtype=np.intp)


SIDE_GAP = 1e-6  # m: how near to a stretch of a side nothing else of the geometry may come
SIDE_SPAN = 1024.0  # m: keys of a side's stretches are side * SIDE_SPAN + the distance along it (a board < 512 m)
_SIDES: dict[int, tuple[BaseGeometry, Sides]] = {}


def nearest_points(geometry: BaseGeometry, points: np.ndarray) -> np.ndarray:
    """Return the nearest point of a polygonal geometry to each point (n, 2): the first point of
    `shapely.shortest_line(geometry, point)`, bit for bit.

    A point beyond one side of the geometry's bounding box, facing a stretch of `Sides`, is projected on that
    stretch's segment by GEOS's own arithmetic (`LineSegment::closestPoint`: the projection factor, then the
    segment's start plus the factor times its extent); any other point is left to shapely. A point that is not finite
    has none: NaN.
    """
    sides = _kept(_SIDES, geometry, Sides, 16)
    x0, y0, x1, y1 = sides.bounds
    x, y = points[:, 0], points[:, 1]
    side = np.where(x < x0, 0, np.where(x > x1, 1, np.where(y < y0, 2, np.where(y > y1, 3, -1))))
    key = side * SIDE_SPAN + np.where(side < 2, y, x)
    piece = np.maximum(np.searchsorted(sides.key_from, key, side="right") - 1, 0)
    # strictly inside a stretch (a key rounded onto its end is left to shapely)
    finite = np.isfinite(x) & np.isfinite(y)
    if len(sides.key_from):
        fast = (side >= 0) & (key > sides.key_from[piece]) & (key < sides.key_to[piece]) & finite
    else:
        fast = np.zeros(len(points), dtype=bool)
    found = np.empty_like(points, dtype=float)
    if fast.any():
        ax, ay, bx, by = sides.segments[sides.segment[piece[fast]]].T
        dx, dy = bx - ax, by - ay
        factor = ((x[fast] - ax) * dx + (y[fast] - ay) * dy) / (dx * dx + dy * dy)
        found[fast, 0] = ax + factor * dx
        found[fast, 1] = ay + factor * dy
    rest = ~fast & finite
    found[~finite] = np.nan  # a point not finite has no nearest point (shapely: no line)
    if rest.any():
        lines = shapely.shortest_line(geometry, shapely.points(points[rest]))
        found[rest] = shapely.get_coordinates(lines).reshape(-1, 2, 2)[:, 0, :]
    return found


def stretch(line: LineString, start: float, end: float) -> BaseGeometry:
    """Return `shapely.ops.substring(line, start, end)` (distances along the line, not normalised), the same
    geometry bit for bit, for 0 <= start < end and start short of the line's end; other cases are left to it.

    substring keeps the vertices whose running length (summed in order as `((dx ** 2 + dy ** 2) ** 0.5)`, the
    first 0) lies strictly between the two distances, between the points interpolated at them; the vertices and
    running lengths are worked out once per line.
    """
    if not (0.0 <= start < end) or start >= line.length or line.has_z:
        return substring(line, start, end)
    coords, running = _vertices(line)
    ends = shapely.get_coordinates(shapely.line_interpolate_point(line, [start, end]))
    inner = coords[bisect.bisect_right(running, start):bisect.bisect_left(running, end)]  # running never falls
    return shapely.linestrings([ends[0].tolist(), *inner, ends[1].tolist()])


def _vertices(line: LineString) -> tuple[list, list]:
    """Return the line's vertices and the running length before each, as `shapely.ops.substring` sums them."""
    return _kept(_LINES, line, _running_lengths, 256)


def _running_lengths(line: LineString) -> tuple[list, list]:
    coords = [tuple(c) for c in shapely.get_coordinates(line).tolist()]
    running, total = [], 0
    for p1, p2 in zip(coords, coords[1:]):
        running.append(total)
        total += ((p2[0] - p1[0]) ** 2 + (p2[1] - p1[1]) ** 2) ** 0.5
    return coords, running


def reversed_line(line: LineString) -> LineString:
    """Return `shapely.reverse(line)`, made once per line (so `stretch` finds its vertices worked out)."""
    return _kept(_REVERSED, line, shapely.reverse, 256)
