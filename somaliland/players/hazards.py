"""What a landing point is worth to the thrower: progress along its leg, arrival, and the hazards on the way.

Scores are in metres of progress along the route, so every hazard is priced as the progress it costs:
a lost turn (aground R17, off the board R19, a collision R18), a collision's risk of sinking (R18), a
capture by pirates (R13: ransom and a lost turn). All checks are vectorised over many points at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from somaliland.map.model import Direction, Route
from somaliland.players.policy import Table
from somaliland.rules.moves import start_pose
from somaliland.rules.pirates import eligible
from somaliland.rules.state import ShipState, Status

PATH_SAMPLES = 8  # points checked along each straight path for land
BEHIND = 0.05  # m of the leg behind the ship that progress is still measured on (a throw may lose ground)


@dataclass(frozen=True, slots=True)
class AimWeights:
    """What the aim values and fears, in metres of progress along the route."""

    lost_turn: float = 0.15  # a turn lost: aground, off the board, in a collision, or held by pirates
    arrival: float = 0.30  # coming to rest in the destination zone (R9)
    collision: float = 0.40  # touching another ship, beyond the lost turn: a tip-over sinks the thrower (R18)
    ransom: float = 0.03  # per pip of ransom (R13)
    land_path: float = 0.02  # a path wholly over (printed) land: a short throw there would run aground
    off_route: float = 1.0  # per metre farther than `corridor` from the centre line (the route threads straits)
    corridor: float = 0.05  # metres either side of the centre line that count as on the route
    centre_pull: float = 0.05  # per metre from the centre line at all: of two equal landings, the central one


@dataclass(frozen=True, slots=True)
class Surroundings:
    """Everything a throw of one ship must reckon with, gathered once per decision."""

    origin: tuple[float, float]
    route: Route
    direction: Direction
    zone: BaseGeometry
    land: BaseGeometry
    width: float
    depth: float
    start: float  # the ship's progress along its leg now
    end: float  # the progress of the leg's end
    window: LineString  # the stretch of the leg one throw can reach, in sailing order
    window_from: float  # the leg progress where the window begins
    others: np.ndarray  # (k, 2) centres of the other dice on the board
    clearance: float  # centre distance below which two dice may touch
    ports: np.ndarray  # (p, 2) pirate ports
    rival_distance: float  # the nearest eligible other ship's distance to a port (inf if none)
    ransom_pips: float  # the pips a capture would cost (the top face now)
    aground_ignored: bool  # D8: pirates ignore ships aground


def progress_of(route: Route, direction: Direction, points: np.ndarray) -> np.ndarray:
    """Return how far along the leg each point lies (metres; vectorised `Route.progress`)."""
    along = shapely.line_locate_point(route.centre_line, shapely.points(points))
    return along if direction is Direction.NORTH else route.centre_line.length - along


def leg_window(route: Route, direction: Direction, start: float, ahead: float) -> tuple[LineString, float]:
    """Return the stretch of the leg from a little behind `start` to `ahead` beyond it, and where it begins.

    Progress is measured on this stretch only: a point across a headland must not count as lying
    where the route passes it again much later.
    """
    line = route.centre_line if direction is Direction.NORTH else shapely.reverse(route.centre_line)
    lo = max(0.0, start - BEHIND)
    return substring(line, lo, min(line.length, start + ahead)), lo


def window_progress(s: "Surroundings", points: np.ndarray) -> np.ndarray:
    """Return the leg progress of each point, projected onto the reachable stretch of the leg."""
    return s.window_from + shapely.line_locate_point(s.window, shapely.points(points))


def point_at(route: Route, direction: Direction, progress: float) -> tuple[float, float]:
    """Return the point of the centre line at this progress along the leg."""
    length = route.centre_line.length
    p = route.centre_line.interpolate(min(max(progress, 0.0), length) if direction is Direction.NORTH
                                      else length - min(max(progress, 0.0), length))
    return p.x, p.y


def surroundings(table: Table, ship: ShipState, reach: float) -> Surroundings:
    """Return what a throw of `ship` (carrying a contract) reaching at most `reach` metres must reckon with."""
    world, config, state = table.world, table.config, table.state
    route = world.route(ship.route)  # type: ignore[arg-type]
    direction = ship.direction
    pose = start_pose(ship, world, config)
    origin = (pose.position[0], pose.position[1])
    land = world.land
    shapely.prepare(land)
    zone = route.leg(direction).destination  # type: ignore[arg-type]
    shapely.prepare(zone)
    others = [s.pose.position[:2] for s in state.ships if s.pose is not None and s.id != ship.id
              and s.status is not Status.SUNK]
    ports = np.array([p.point for p in world.pirate_ports], dtype=float).reshape(-1, 2)
    rivals = [math.dist(s.pose.position[:2], p) for s in state.ships  # type: ignore[union-attr]
              if s.id != ship.id and eligible(s, config) for p in ports]
    faces = ship.spec.faces
    pips = ship.top_value() if ship.pose is not None else faces[4]
    start = float(progress_of(route, direction, np.array([origin]))[0])  # type: ignore[arg-type]
    window, window_from = leg_window(route, direction, start, reach + BEHIND)  # type: ignore[arg-type]
    return Surroundings(origin, route, direction, zone, land, world.width, world.depth,  # type: ignore[arg-type]
                        start, route.centre_line.length, window, window_from, np.array(others, dtype=float).reshape(-1, 2),
                        config.die_size * 1.5, ports, min(rivals, default=math.inf), float(pips),
                        "aground" in config.pirates_ignore)


def _path_distance(origin: np.ndarray, ends: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Return, for each path origin->end, the least distance from the path to any centre (inf if none)."""
    if len(centres) == 0:
        return np.full(len(ends), np.inf)
    d = ends - origin  # (n, 2)
    c = centres[None, :, :] - origin  # (1, k, 2)
    t = np.clip((c * d[:, None, :]).sum(-1) / np.maximum((d * d).sum(-1), 1e-12)[:, None], 0.0, 1.0)
    nearest = t[..., None] * d[:, None, :]
    return np.linalg.norm(nearest - c, axis=-1).min(axis=1)


def land_fraction(s: Surroundings, ends: np.ndarray) -> np.ndarray:
    """Return the share of each straight path from the origin to an end that runs over land."""
    f = np.linspace(0.0, 1.0, PATH_SAMPLES)[None, :, None]
    pts = np.asarray(s.origin)[None, None, :] + f * (ends - np.asarray(s.origin))[:, None, :]
    on = shapely.contains_xy(s.land, pts[..., 0], pts[..., 1])
    return on.mean(axis=1)


def score_landings(s: Surroundings, ends: np.ndarray, w: AimWeights) -> np.ndarray:
    """Return the worth of coming to rest at each point (n, 2), having slid there straight from the origin."""
    x, y = ends[:, 0], ends[:, 1]
    on_board = (x >= 0) & (x <= s.width) & (y >= 0) & (y <= s.depth)
    aground = on_board & shapely.contains_xy(s.land, x, y)
    arrived = on_board & shapely.contains_xy(s.zone, x, y)
    progress = np.where(arrived, s.end, np.minimum(window_progress(s, ends), s.end)) - s.start  # in is in
    off_line = shapely.distance(s.window, shapely.points(ends))
    astray = w.off_route * np.maximum(off_line - w.corridor, 0.0) + w.centre_pull * off_line
    collide = _path_distance(np.asarray(s.origin), ends, s.others) < s.clearance
    lost = ~on_board | aground | collide
    if len(s.ports):
        to_port = np.linalg.norm(ends[:, None, :] - s.ports[None, :, :], axis=-1).min(axis=1)
        captured = (to_port < s.rival_distance) & ~arrived & ~(aground & s.aground_ignored)
    else:
        captured = np.zeros(len(ends), dtype=bool)
    return (progress - astray + w.arrival * arrived - w.lost_turn * lost - w.collision * collide
            - (w.lost_turn + w.ransom * s.ransom_pips) * captured - w.land_path * land_fraction(s, ends))
