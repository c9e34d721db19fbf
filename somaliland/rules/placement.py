"""Putting a die down by hand (into a pirate port, back onto the board, released by pirates): a free spot near a point.

Two dice put at the same point would overlap, which the physics layer rightly refuses; so a die is set
down at the point if it is clear, else at the nearest clear spot on rings around it (R13, R19, R20). A
ship released by pirates is set down further off, in open sea (water that leads to its destination, not an
enclosed lagoon), clear of every die by two die edges (D17).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import shapely
from shapely import Point, box
from shapely.affinity import translate
from shapely.geometry.base import BaseGeometry

from physics import Pose
from physics.dice import square_up
from somaliland.map.model import Map
from somaliland.rules.accidents import footprint

CLEARANCE = 1.5  # die edges between centres: clear of any corner whatever the two dice's headings
RINGS = 30
RELEASE_GAP = 2.0  # D17: die edges of open water between a released ship and the nearest other die
RELEASE_STEP = 0.5  # die edges between the rings (and between the points on a ring) searched for a release spot
FLAT_REACH = math.sqrt(2) / 2  # die edges from a flat die's centre to its furthest corner, seen from above
ANY_REACH = math.sqrt(3) / 2  # the same for a die resting any way (its corners' distance in space)


def ground_height(world: Map, x: float, y: float) -> float:
    """Return the height of the board's surface at (x, y): raised land's relief, else 0."""
    return max((land.relief for land in world.lands if land.relief > 0 and land.polygon.covers(Point(x, y))),
               default=0.0)


def free_spot(at: tuple[float, float], others: list[tuple[float, float]], size: float,
              area: BaseGeometry | None = None) -> tuple[float, float]:
    """Return `at` if a die there is clear of the others (and inside `area`), else the nearest such spot on rings."""
    gap = CLEARANCE * size

    def fits(p: tuple[float, float]) -> bool:
        return all(math.dist(p, o) >= gap for o in others) and (area is None or area.covers(Point(p)))

    if fits(at):
        return at
    for ring in range(1, RINGS + 1):
        count = 6 * ring
        for k in range(count):
            angle = 2 * math.pi * k / count
            p = (at[0] + ring * gap * math.cos(angle), at[1] + ring * gap * math.sin(angle))
            if fits(p):
                return p
    return at


def set_down(pose: Pose, at: tuple[float, float], size: float, world: Map) -> Pose:
    """Return a die's pose put down flat at `at`, showing the face and heading it had (R13, R19)."""
    return Pose((at[0], at[1], ground_height(world, *at) + size / 2), square_up(pose.orientation))


@lru_cache(maxsize=16)
def on_board(world: Map, size: float) -> BaseGeometry:
    """Return where a flat die lies wholly on the board at any heading, land or sea: the centres it may have."""
    reach = FLAT_REACH * size
    area = box(reach, reach, world.width - reach, world.depth - reach)
    shapely.prepare(area)
    return area


@lru_cache(maxsize=16)
def open_sea(world: Map, size: float) -> BaseGeometry:
    """Return where a flat die lies wholly on the board's sea at any heading: the centres it may have (D17).

    Cached and prepared: the map is frozen, and a release tests many points against it.
    """
    area = on_board(world, size).difference(world.land.buffer(FLAT_REACH * size))
    shapely.prepare(area)
    return area


@lru_cache(maxsize=64)
def open_sea_toward(world: Map, size: float, destination: BaseGeometry | None) -> BaseGeometry:
    """Return `open_sea` less any water from which `destination` cannot be reached by sea (D17).

    Water enclosed by land (a land's lagoon or lake, or a pocket closed off by lands that touch or by land and
    the board's edge) is sea to
    the rules, but a ship released into it could sail on only across land: so the open sea a released ship
    is set down in is the water that shares a body of water with its destination zone (every leg's
    destination when it has none). The bodies of water are those of the board less its land, not of the
    die-wide `open_sea`, so a strait too narrow for a die to lie in does not cut the sea in two. Enclosed
    water that the destination zone itself overlaps is kept (it reaches the destination). If no body of
    water reaches the destination (a zone wholly on land would fail `map check`), or none of those that do
    has room for a whole die, the whole open sea, enclosed water included.
    """
    goals = destination if destination is not None else shapely.union_all(
        [leg.destination for r in world.routes for leg in (r.north, r.south)])
    water = box(0.0, 0.0, world.width, world.depth).difference(world.land)
    bodies = [body for body in shapely.get_parts(water) if body.intersection(goals).area > 0]
    sea = open_sea(world, size)
    area = sea.intersection(shapely.union_all(bodies)) if bodies else sea
    if area.is_empty:
        return sea
    shapely.prepare(area)
    return area


def clear_pose(pose: Pose, near: tuple[float, float], others: list[Pose], world: Map, size: float,
               area: BaseGeometry) -> Pose:
    """Return the die set down flat at the spot nearest `near` in `area` that is clear of the others (D17).

    Clear means that no part of another die lies within `RELEASE_GAP` die edges of any part of this
    one, measured between their shadows on the board as they lie (tilted dice included). The spots
    searched lie on rings around `near`, half a die edge apart, out to the whole board; if none is that
    clear (a board far more crowded than any game's), the spot with the most room, so no dice overlap.
    """
    gap = RELEASE_GAP * size
    shape = footprint(set_down(pose, (0.0, 0.0), size, world), size)
    shadows = [footprint(o, size) for o in others]
    centres = np.array([o.position[:2] for o in others], dtype=float).reshape(-1, 2)
    too_near = gap + size  # every shadow holds a disc of half an edge round its centre
    far_enough = gap + (FLAT_REACH + ANY_REACH) * size

    def room(x: float, y: float, exact: bool) -> float:
        """Return the space between the die at (x, y) and the nearest other die (a bound below `gap` if not exact)."""
        d = np.hypot(centres[:, 0] - x, centres[:, 1] - y)
        if not exact and np.any(d < too_near):
            return -math.inf
        placed = translate(shape, x, y)
        return min((placed.distance(shadows[i]) for i in np.flatnonzero(d < far_enough)), default=math.inf)

    step = RELEASE_STEP * size
    spots: list[tuple[float, float]] = []
    for ring in range(math.ceil(math.hypot(world.width, world.depth) / step) + 1):
        angles = 2 * math.pi * np.arange(max(1, 6 * ring)) / max(1, 6 * ring)
        xs, ys = near[0] + ring * step * np.cos(angles), near[1] + ring * step * np.sin(angles)
        inside = shapely.contains_xy(area, xs, ys)
        for x, y in zip(xs[inside].tolist(), ys[inside].tolist()):
            if room(x, y, exact=False) >= gap:
                return set_down(pose, (x, y), size, world)
            spots.append((x, y))
    best = max(spots, key=lambda p: room(*p, exact=True), default=near)
    return set_down(pose, best, size, world)
