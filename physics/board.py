"""The board the dice roll on: a flat slab on a table, with optional raised relief, and its mesh.

Coordinates in metres: origin at the board's south-west corner, x east, y north, z up, the board's top
surface at z = 0. The table top lies one board thickness lower and reaches `table_margin` beyond every
edge; past it the die falls to the floor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from physics.errors import PhysicsInputError, check_finite

Point2 = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Prism:
    """A raised area of the board: a polygon (with holes) lifted by `height` metres."""

    outline: tuple[Point2, ...]
    height: float
    holes: tuple[tuple[Point2, ...], ...] = ()

    def __post_init__(self) -> None:
        check_finite("relief height", self.height, 0.0, 0.05, unit=" m")
        if len(self.outline) < 3:
            raise PhysicsInputError("relief outline", self.outline, "a polygon of at least 3 points")


@dataclass(frozen=True, slots=True)
class Board:
    """A rectangular board of width (x) by depth (y) metres on a table."""

    width: float = 0.75
    depth: float = 0.90
    thickness: float = 0.003
    table_margin: float = 0.15
    relief: tuple[Prism, ...] = ()

    def __post_init__(self) -> None:
        check_finite("board width", self.width, 0.05, 5.0, unit=" m")
        check_finite("board depth", self.depth, 0.05, 5.0, unit=" m")
        check_finite("board thickness", self.thickness, 0.0005, 0.05, unit=" m")
        check_finite("table margin", self.table_margin, 0.0, 2.0, unit=" m")

    def contains(self, x: float, y: float) -> bool:
        """Return True if the point (x, y) lies on the board (edges included)."""
        return 0.0 <= x <= self.width and 0.0 <= y <= self.depth

    @property
    def table_top(self) -> float:
        """Return the height of the table's top surface (the board's underside)."""
        return -self.thickness

    def relief_height(self, x: float, y: float) -> float:
        """Return the height of the relief at (x, y) (0 off any prism)."""
        from shapely import Point, Polygon

        best = 0.0
        for prism in self.relief:
            if Polygon(prism.outline, prism.holes).covers(Point(x, y)):
                best = max(best, prism.height)
        return best


def _box(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    corners = np.array([[x, y, z] for z in (lo[2], hi[2]) for y in (lo[1], hi[1]) for x in (lo[0], hi[0])])
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    tris = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return corners, np.array(tris)


def prism_mesh(prism: Prism) -> tuple[np.ndarray, np.ndarray]:
    """Return (vertices, triangles) of a relief prism: triangulated top and vertical walls, base at z=0."""
    from shapely import Polygon, constrained_delaunay_triangles

    poly = Polygon(prism.outline, prism.holes).buffer(0)
    tops = constrained_delaunay_triangles(poly)
    verts: list[tuple[float, float, float]] = []
    tris: list[tuple[int, int, int]] = []
    for tri in tops.geoms:
        ring = list(tri.exterior.coords)[:3]
        if _signed_area(ring) < 0:
            ring.reverse()
        base = len(verts)
        verts += [(x, y, prism.height) for x, y in ring]
        tris.append((base, base + 1, base + 2))
    polys = poly.geoms if poly.geom_type == "MultiPolygon" else [poly]
    for part in polys:
        for ring in (part.exterior, *part.interiors):
            coords = list(ring.coords)[:-1]
            outward_ccw = ring.is_ccw == (ring is part.exterior)
            for (x0, y0), (x1, y1) in zip(coords, coords[1:] + coords[:1]):
                if not outward_ccw:
                    (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
                b = len(verts)
                verts += [(x0, y0, 0.0), (x1, y1, 0.0), (x1, y1, prism.height), (x0, y0, prism.height)]
                tris += [(b, b + 1, b + 2), (b, b + 2, b + 3)]
    return np.array(verts, dtype=float), np.array(tris, dtype=int)


def _signed_area(ring: list[tuple[float, float]]) -> float:
    (x0, y0), (x1, y1), (x2, y2) = ring[:3]
    return (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)


def board_mesh(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Return (vertices, triangles) of the board slab plus its relief: the geometry physics rolls on."""
    parts = [_box(np.array([0.0, 0.0, -board.thickness]), np.array([board.width, board.depth, 0.0]))]
    parts += [prism_mesh(p) for p in board.relief if p.height > 0]
    verts, tris, offset = [], [], 0
    for v, t in parts:
        verts.append(v)
        tris.append(t + offset)
        offset += len(v)
    return np.vstack(verts), np.vstack(tris)


def write_obj(path: str, vertices: np.ndarray, triangles: np.ndarray, *, scale: float = 1.0) -> None:
    """Write a Wavefront OBJ file (vertices multiplied by scale)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# board mesh written by somaliland\n")
        for x, y, z in vertices * scale:
            fh.write(f"v {x:.6f} {y:.6f} {z:.6f}\n")
        for a, b, c in triangles + 1:
            fh.write(f"f {a} {b} {c}\n")
