"""Putting a die down by hand (into a pirate port, back onto the board): a free spot near a point.

Two dice put at the same point would overlap, which the physics layer rightly refuses; so a die is set
down at the point if it is clear, else at the nearest clear spot on rings around it (R13, R19, R20).
"""

from __future__ import annotations

import math

from shapely import Point
from shapely.geometry.base import BaseGeometry

from physics import Pose
from physics.dice import square_up
from somaliland.map.model import Map

CLEARANCE = 1.5  # die edges between centres: clear of any corner whatever the two dice's headings
RINGS = 30


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
