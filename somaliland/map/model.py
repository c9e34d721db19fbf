"""The frozen map object every other part reads. SI inside: metres and radians (files speak cm and deg).

Board coordinates: origin at the board's south-west corner, x east, y north, the board's top at z = 0.
Geometry is shapely (immutable). A route's centre line runs from its south end to its north end, so
progress along a route is the distance along that line, measured from the start of the leg's direction.
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np
import shapely
from shapely import LineString, Point, Polygon, unary_union
from shapely.geometry.base import BaseGeometry

from physics import Board, Prism


class Direction(enum.Enum):
    """Which way a contract carries cargo (R3)."""

    NORTH = "north"
    SOUTH = "south"


@dataclass(frozen=True, slots=True)
class Land:
    """A named land area; `relief` metres above the board (0: printed flat)."""

    name: str
    polygon: Polygon
    relief: float = 0.0


@dataclass(frozen=True, slots=True)
class Leg:
    """One direction of a route: where ships launch from, which way, and where they must arrive."""

    direction: Direction
    start: tuple[float, float]
    heading: float  # radians, counter-clockwise from east
    destination: Polygon
    zone: str = ""  # the destination zone's name in the map file


def route_title(label: str, full_value: bool) -> str:
    """Return how a route is named to people: its label and its value (R8), e.g. "the Strait (full value)"."""
    return f"{label} ({value_words(full_value)})"


def value_words(full_value: bool) -> str:
    """Return "full value" or "half value" (R8)."""
    return "full value" if full_value else "half value"


@dataclass(frozen=True, slots=True)
class Route:
    """A sea route usable both ways; `full_value` is False for a safe half-pay route (R8).

    `name` is the map file's key, written into game records; `label` is what people call it (the name
    unless the file gives one).
    """

    name: str
    centre_line: LineString  # south end first
    north: Leg
    south: Leg
    full_value: bool
    label: str = ""

    @property
    def display_name(self) -> str:
        """Return what people call the route: its label, else its name."""
        return self.label or self.name

    @property
    def title(self) -> str:
        """Return the route as named to people, with its value: "the Strait (full value)"."""
        return route_title(self.display_name, self.full_value)

    def leg(self, direction: Direction) -> Leg:
        """Return the leg sailed in this direction."""
        return self.north if direction is Direction.NORTH else self.south

    def progress(self, direction: Direction, x: float, y: float) -> float:
        """Return how far along this leg (metres along the centre line) the point (x, y) lies."""
        along = self.centre_line.project(Point(x, y))
        return along if direction is Direction.NORTH else self.centre_line.length - along

    def progress_along(self, direction: Direction, points: np.ndarray) -> np.ndarray:
        """Return `progress` of each point (n, 2) at once."""
        along = shapely.line_locate_point(self.centre_line, shapely.points(points))
        return along if direction is Direction.NORTH else self.centre_line.length - along


@dataclass(frozen=True, slots=True)
class PiratePort:
    """A named pirate base (R13)."""

    name: str
    point: tuple[float, float]


@dataclass(frozen=True)
class Map:
    """A loaded, checked map."""

    name: str
    version: str
    author: str
    width: float
    depth: float
    thickness: float
    lands: tuple[Land, ...]
    routes: tuple[Route, ...]
    pirate_ports: tuple[PiratePort, ...]
    source: str = ""  # the file it came from
    sha256: str = ""  # of the file's bytes, for game records

    def __hash__(self) -> int:
        """Return the hash of the map's fields, computed once: maps key the rules' and players' geometry caches, and
        hashing a map hashes every land's polygon."""
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __getstate__(self) -> dict:
        """Return what a pickle keeps: the fields and the geometry worked out, not the hash (strings hash
        differently in another process)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def route(self, name: str) -> Route:
        """Return the route of that name."""
        for r in self.routes:
            if r.name == name:
                return r
        raise KeyError(f"no route {name!r}; routes: {[r.name for r in self.routes]}")

    @cached_property
    def geometry_digest(self) -> str:
        """Return a sha256 of what play can meet on this map: board, land, routes, zones and pirate ports, not
        the file's text (a comment, a land's name or the author edited leaves it alone). Computed once per map."""
        parts = [repr((self.width, self.depth, self.thickness))]
        parts += [f"{land.polygon.wkt}|{land.relief}" for land in self.lands]
        for r in self.routes:
            parts += [r.name, r.centre_line.wkt, str(r.full_value)]
            parts += [f"{leg.start}|{leg.heading}|{leg.destination.wkt}" for leg in (r.north, r.south)]
        parts += [f"{p.name}|{p.point}" for p in self.pirate_ports]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    @cached_property
    def land(self) -> BaseGeometry:
        """Return all land as one geometry."""
        return unary_union([land.polygon for land in self.lands])

    def leg_length(self, route: str, direction: Direction) -> float:
        """Return how far a ship sails along the leg from its start to its destination (metres).

        The destination counts from its representative point; computed once per map.
        """
        if (route, direction) not in self._leg_lengths:
            self.route(route)  # raises the KeyError that names the routes
        return self._leg_lengths[route, direction]

    @cached_property
    def _leg_lengths(self) -> dict[tuple[str, Direction], float]:
        lengths = {}
        for r in self.routes:
            for direction in Direction:
                leg = r.leg(direction)
                goal = leg.destination.representative_point()
                lengths[r.name, direction] = max(0.0, r.progress(direction, goal.x, goal.y)
                                                 - r.progress(direction, *leg.start))
        return lengths

    def is_land(self, x: float, y: float) -> bool:
        """Return True if the point lies on land (coast included)."""
        return bool(self.land.covers(Point(x, y)))

    def board(self) -> Board:
        """Return the physics board: the slab, plus relief for land raised above it."""
        relief = tuple(
            Prism(tuple(land.polygon.exterior.coords)[:-1], land.relief,
                  tuple(tuple(r.coords)[:-1] for r in land.polygon.interiors))
            for land in self.lands if land.relief > 0
        )
        return Board(width=self.width, depth=self.depth, thickness=self.thickness, relief=relief)
