"""What a landing point is worth to the thrower: its chance to arrive in time, and the hazards on the way.

The worth of coming to rest at a point is the chance of reaching the destination with the turns then
left (R15, D10): 1 inside the zone (R9), else the chance that turns making good the leg's measured
`stride` bring the zone within reach and a turn then lands in it with the leg's measured `hit`
(`arrival_chance`; both from the survey of the map in play, `survey.py`). A lost turn (aground R17, off
the board R19, a collision R18, capture R13) leaves one turn fewer; a ship off the board is priced
where the rules put it back (D13); a touch risks sinking (R18); a capture costs its ransom as a share
of the contract. Progress along the leg counts too (later turns are less sure than the chance model
says); small terms prefer the centre line and sea under the path. All checks are vectorised over many
points at once; the land under them and their place along the leg are asked of `map/queries.py`, which answers
as shapely does, bit for bit, for less CPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely import LineString
from shapely.geometry.base import BaseGeometry

from physics import portable
from somaliland.map import queries
from somaliland.map.model import Direction, Map, Route
from somaliland.players.policy import Table
from somaliland.players.rays import Rays, coasts, run_aground
from somaliland.rules.accidents import replacement_area
from somaliland.rules.moves import launch_pose, moves_left, start_pose
from somaliland.rules.pirates import ransom_for, targetable, targets_route
from somaliland.rules.state import ShipState, Status

PATH_SAMPLES = 8  # points checked along each straight path for land
_PATH_FRACTIONS = np.linspace(0.0, 1.0, PATH_SAMPLES)[1:, None]  # where along a path, the origin left out
_PATH_FRACTIONS.setflags(write=False)
BEHIND = 0.05  # m of the leg behind the ship that progress is still measured on (a throw may lose ground)


@dataclass(frozen=True, slots=True)
class AimWeights:
    """What the aim values and fears; worth is a chance to arrive (0..1)."""

    collision: float = 0.30  # chance lost to a touch beyond its lost turn: a tip-over sinks the thrower (R18)
    progress: float = 0.5  # per metre of progress: later turns are less sure than the chance model says
    land_path: float = 0.01  # a path wholly over (printed) land: a shorter throw there would run aground
    off_route: float = 1.0  # metres of extra sailing per metre farther than `corridor` from the centre line
    corridor: float = 0.05  # metres either side of the centre line that count as on the route
    centre_pull: float = 0.05  # metres of extra sailing per metre off the centre line: prefer the middle


@dataclass(frozen=True, slots=True)
class LegOdds:
    """What the survey measured of a leg, for the aim: metres a turn makes good, and the chance that a turn
    begun within that distance of the destination arrives (`survey.LegSurvey.odds`)."""

    stride: float
    hit: float


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
    goal: float  # the progress at which the leg's destination zone begins, about
    moves_after: int  # moves the ship has left after this one (R15, D10)
    value: int  # the contract's value, to price a ransom
    window: LineString  # the stretch of the leg one throw can reach, in sailing order
    window_from: float  # the leg progress where the window begins
    others: np.ndarray  # (k, 2) centres of the other dice on the board
    clearance: float  # centre distance below which two dice may touch
    ports: np.ndarray  # (p, 2) pirate ports
    rival_distance: float  # the nearest eligible other ship's distance to a port (inf if none)
    ransom_pips: float  # what a capture would cost (the top face now, R13; or as L1 says)
    aground_ignored: bool  # D8: pirates ignore ships aground
    arrived_ignored: bool  # D8: pirates ignore ships that have arrived
    odds: LegOdds  # the leg's measured stride and hit
    put_back: BaseGeometry | None  # where a ship off the board comes back (D13); None: where its move began
    coast: tuple[BaseGeometry, ...] | None = None  # D19: the land a rolling die must not cross, grown by each of
    # `MARGINS` (its path's wander); None: only its rest counts (D11)
    coast_tolerance: float = 0.0  # D19: metres over land that do not yet count
    die_size: float = 0.016  # the ship's die edge, metres


def leg_window(route: Route, direction: Direction, start: float, ahead: float) -> tuple[LineString, float]:
    """Return the stretch of the leg from a little behind `start` to `ahead` beyond it, and where it begins.

    Progress is measured on this stretch only: a point across a headland must not count as lying
    where the route passes it again much later.
    """
    line = route.centre_line if direction is Direction.NORTH else queries.reversed_line(route.centre_line)
    lo = max(0.0, start - BEHIND)
    return queries.stretch(line, lo, min(line.length, start + ahead)), lo


def points_at(route: Route, direction: Direction, progress: np.ndarray) -> np.ndarray:
    """Return the points (n, 2) of the centre line at these progresses along the leg (clamped to it)."""
    length = route.centre_line.length
    along = np.minimum(np.maximum(np.asarray(progress, dtype=float), 0.0), length)
    along = along if direction is Direction.NORTH else length - along
    return shapely.get_coordinates(shapely.line_interpolate_point(route.centre_line, along))


def surroundings(table: Table, ship: ShipState, reach: float, odds: LegOdds) -> Surroundings:
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
    hunted = targets_route(route.full_value, config)  # else pirates never take a ship on this route
    ports = np.array([p.point for p in world.pirate_ports if hunted], dtype=float).reshape(-1, 2)
    rivals = [math.dist(s.pose.position[:2], p) for s in state.ships  # type: ignore[union-attr]
              if s.id != ship.id and targetable(s, world, config) for p in ports] if len(ports) else []
    faces = ship.spec.faces
    pips = ship.top_value() if ship.pose is not None else faces[4]
    if config.ransom != "top_face":  # L1: a fixed sum, or a share of the contract's value
        pips = ransom_for(ship, state, config)
    start = float(route.progress_along(direction, np.array([origin]))[0])  # type: ignore[union-attr]
    window, window_from = leg_window(route, direction, start, reach + BEHIND)  # type: ignore[arg-type]
    return Surroundings(origin, route, direction, zone, land, world.width, world.depth,  # type: ignore[arg-type]
                        start, route.centre_line.length,
                        _goal(world, route.name, direction),  # type: ignore[arg-type]
                        moves_left(ship, max(state.turn, 1), config) - 1, ship.card.value,  # type: ignore[union-attr]
                        window, window_from, np.array(others, dtype=float).reshape(-1, 2),
                        config.die_size * 1.5, ports, min(rivals, default=math.inf), float(pips),
                        "aground" in config.pirates_ignore, "arrived" in config.pirates_ignore, odds,
                        None if config.off_board == "move_start" else replacement_area(world, config),
                        None if config.grounding_on == "rest" else coasts(world, config.die_size, config.grounding),
                        config.coast_tolerance, config.die_size)


def start_clear(table: Table, ship: ShipState) -> bool:
    """Return True if no die lies where the ship would be launched from (R12)."""
    x, y = launch_pose(ship, table.world, table.config).position[:2]
    return all(math.dist((x, y), s.pose.position[:2]) > 1.2 * table.config.die_size
               for s in table.state.ships if s.pose is not None and s.status is not Status.SUNK)


def goal_progress(route: Route, direction: Direction, zone: BaseGeometry) -> float:
    """Return about where along the leg its destination zone begins: its middle, less half its size."""
    middle = zone.representative_point()
    return route.progress(direction, middle.x, middle.y) - math.sqrt(zone.area) / 2


@lru_cache(maxsize=64)
def _goal(world: Map, route: str, direction: Direction) -> float:
    """Return `goal_progress` of a leg of the map, worked out once."""
    found = world.route(route)
    return goal_progress(found, direction, found.leg(direction).destination)


def arrival_chance(remaining: np.ndarray, turns: np.ndarray, odds: LegOdds) -> np.ndarray:
    """Return the chance that `turns` more turns reach a zone `remaining` metres on.

    Turns making good `odds.stride` metres each bring the zone within one turn's reach; each turn from
    there arrives with chance `odds.hit` (both measured on the leg, lost turns included). Continuous in
    both arguments, so a little more progress or one more turn always counts.
    """
    approach = np.maximum(np.maximum(remaining, 0.0) / odds.stride - 1.0, 0.0)
    attempts = turns - approach
    # 1 - (1 - hit)**attempts, computed the same on every machine (physics/portable.py); a sure hit misses never
    chance = 1.0 - portable.exp(np.maximum(attempts, 0.0) * math.log(max(1.0 - odds.hit, 1e-300)))
    return np.where(remaining <= 0, 1.0, chance)


def put_back(s: Surroundings, ends: np.ndarray) -> np.ndarray:
    """Return where ships resting at these points off the board come back (R19, D13; `accidents.replacement_point`).

    Vectorised: the nearest point of the replacement area (`queries.nearest_points`, shapely's answer bit for bit),
    or the move's start under D13 "move_start".
    """
    if s.put_back is None:
        return np.broadcast_to(np.asarray(s.origin, dtype=float), ends.shape).copy()
    return queries.nearest_points(s.put_back, ends)


def _paths_touch(origin: np.ndarray, ends: np.ndarray, centres: np.ndarray, clearance: float) -> np.ndarray:
    """Return, for each straight path origin->end, whether it passes nearer than `clearance` to any centre.

    Only centres within the longest path's length plus the clearance of the origin can be that near; the
    others are left out before the (k, n) distance computation.
    """
    dx, dy = ends[:, 0] - origin[0], ends[:, 1] - origin[1]  # (n,)
    length2 = dx * dx + dy * dy
    if len(centres):
        reach = math.sqrt(float(length2.max(initial=0.0))) + clearance
        centres = centres[np.hypot(*(centres - origin).T) <= reach * (1 + 1e-9)]
    if len(centres) == 0:
        return np.zeros(len(ends), dtype=bool)
    # the components written out, centres down and paths across (the same arithmetic as the (n, k, 2) vector
    # form, without its temporaries; numpy reduces the long axis of a short one fast)
    cx, cy = (centres[:, 0] - origin[0])[:, None], (centres[:, 1] - origin[1])[:, None]  # (k, 1)
    t = cx * dx
    t += cy * dy
    t /= np.maximum(length2, 1e-12)
    np.minimum(np.maximum(t, 0.0, out=t), 1.0, out=t)  # np.clip's arithmetic, without its wrapper
    ex, ey = t * dx, t * dy
    ex -= cx
    ey -= cy
    ex *= ex
    ey *= ey
    ex += ey
    # the root of the least square is the least root (sqrt is correctly rounded, so monotonic)
    return np.sqrt(np.minimum.reduce(ex, axis=0)) < clearance


def land_fraction(s: Surroundings, ends: np.ndarray) -> np.ndarray:
    """Return the share of each straight path from the origin to an end that runs over land.

    Each path is sampled at `PATH_SAMPLES` evenly spaced points, the origin first; the origin is
    checked once for all paths.
    """
    x, y = _path_points(s.origin, ends)
    return _land_share(s, queries.contains_xy(s.land, x, y))


def _path_points(origin: tuple[float, float], ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the x and y (PATH_SAMPLES - 1, n) of the points `land_fraction` samples on each path, the origin
    left out."""
    f = _PATH_FRACTIONS
    return origin[0] + f * (ends[:, 0] - origin[0]), origin[1] + f * (ends[:, 1] - origin[1])


def _land_share(s: Surroundings, on: np.ndarray) -> np.ndarray:
    """Return `land_fraction` from whether each path point (PATH_SAMPLES - 1, n) lies on land."""
    return (np.add.reduce(on, axis=0, dtype=np.intp) + int(shapely.contains_xy(s.land, s.origin[0], s.origin[1]))
            ) / PATH_SAMPLES


def outcomes(s: Surroundings, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return, for each rest point (n, 2), whether it is on the board, aground (R17) and in the destination (R9).

    A ship off the board has not arrived, wherever it is put back (R19, D13).
    """
    x, y = ends[:, 0], ends[:, 1]
    on_board = (x >= 0) & (x <= s.width) & (y >= 0) & (y <= s.depth)
    return (on_board, on_board & queries.contains_xy(s.land, x, y), on_board & shapely.contains_xy(s.zone, x, y))


def progress_at(s: Surroundings, points: np.ndarray) -> np.ndarray:
    """Return how far along the leg each point (n, 2) lies, measured on the stretch one throw can reach."""
    return along_window(s, points)[0]


def along_window(s: Surroundings, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return `progress_at` of each point (n, 2) and its distance from the window's centre line.

    By `queries.locate_and_distance` (shapely's answers, without a shapely point for each) unless the window
    has shrunk to a point.
    """
    coords = shapely.get_coordinates(s.window)
    if len(coords) >= 2:
        along, off_line = queries.locate_and_distance(coords, np.asarray(points, dtype=float))
    else:
        at = shapely.points(points)
        along, off_line = shapely.line_locate_point(s.window, at), shapely.distance(s.window, at)
    return np.minimum(s.window_from + along, s.end), off_line


def score_landings(s: Surroundings, ends: np.ndarray, w: AimWeights, touched: np.ndarray | None = None,
                   grounded: np.ndarray | None = None, rays: Rays | None = None) -> np.ndarray:
    """Return the worth of coming to rest at each point (n, 2), having slid there straight from the origin.

    `touched` says which throws touched another die, when known (a simulated roll); else a path that
    passes within `clearance` of another die's centre is taken to touch it. `grounded` says which ran aground
    on the way (R17, D19), when known (a simulated roll, `ends` then where the rules set it down); else a
    straight path that rolls over land ran aground where it met the coast (`run_aground`; `rays` groups the
    ends by heading).
    """
    x, y = ends[:, 0], ends[:, 1]
    on_board = (x >= 0) & (x <= s.width) & (y >= 0) & (y <= s.depth)
    path_x, path_y = _path_points(s.origin, ends)
    land = queries.contains_xy(s.land, np.vstack([path_x, x]), np.vstack([path_y, y]))  # one ask: paths and rests
    aground = on_board & land[-1]
    arrived = on_board & shapely.contains_xy(s.zone, x, y)
    rests = ends
    if grounded is not None:
        aground = aground | grounded
    elif s.coast is not None:
        on_way, rests = run_aground(s, ends, rays)
        if on_way.any():
            aground = aground | on_way
            arrived = np.where(on_way, shapely.contains_xy(s.zone, rests[:, 0], rests[:, 1]), arrived)
    set_down = aground & ((rests[:, 0] != x) | (rests[:, 1] != y))
    put = ~on_board & ~set_down  # a ship set down on its way is not put back
    if put.any():
        rests = rests.copy() if rests is ends else rests
        rests[put] = put_back(s, ends[put])
    progress, off_line = along_window(s, rests)
    detour = w.off_route * np.maximum(off_line - w.corridor, 0.0) + w.centre_pull * off_line
    collide = _paths_touch(np.asarray(s.origin), ends, s.others, s.clearance) if touched is None else touched
    moves = s.moves_after - (~on_board | aground | collide)  # a lost turn (R17, R18, R19)
    captured = None
    if len(s.ports):
        captured = _captured(s, rests, arrived, aground)
        moves = moves - captured
    worth = np.where(arrived, 1.0, arrival_chance(s.goal - progress + detour, moves, s.odds))
    worth += w.progress * (np.where(arrived, s.end, progress) - s.start)
    worth -= w.collision * collide
    if captured is not None:  # else nothing is taken off: a capture costs 0 pips
        worth -= captured * s.ransom_pips / max(s.value, 1)
    worth -= w.land_path * _land_share(s, land[:-1])
    return worth


def _captured(s: Surroundings, rests: np.ndarray, arrived: np.ndarray, aground: np.ndarray) -> np.ndarray:
    """Return which ships resting at these points pirates would take: nearer a port than any rival (R13, D8)."""
    dx, dy = rests[:, 0] - s.ports[:, :1], rests[:, 1] - s.ports[:, 1:]  # (p, n)
    dx *= dx
    dy *= dy
    dx += dy
    # the root of the least square is the least distance (sqrt is correctly rounded, so monotonic)
    captured = np.sqrt(np.minimum.reduce(dx, axis=0)) < s.rival_distance
    if s.arrived_ignored:
        captured &= ~arrived
    if s.aground_ignored:
        captured &= ~aground
    return captured
