"""Measure a map with real physics: how far a firm throw rolls, and how many moves a competent player
needs to sail each route (rule R15 allows 6).

A firm throw is a brisk roll: FIRM_SPEED m/s (+-10%), random spin, released 2 cm up. The competent
player knows their hand (the median roll at each strength, from practice throws). Each move they aim
at the point that gets furthest along the route, or into the destination zone, among points a straight
roll reaches over water and whose likely stopping stretch (0.8 to 1.2 times the aimed distance,
LANDING either side) is open sea; they throw as hard as that distance needs (a quarter or half-turn
push for the shortest moves, R16), with small errors of aim and strength. Running aground (R17) or
off the board (R19, put back at the nearest sea) costs a turn. The launch keeps the leg's heading (R12).
Dice could roll across printed land and stop at sea beyond it; this player never aims to.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np
from shapely import LineString, Point, prepare
from shapely.ops import nearest_points

from physics import DieSpec, PlacedDie, Pose, Roller, Scene, Style, Throw
from somaliland.map.model import Direction, Leg, Map, Route

FIRM_SPEED = 1.8  # m/s at release
SPEED_SPREAD = 0.10  # a throw's speed varies by up to this share
SPIN = 20.0  # rad/s: each spin component uniform in +-SPIN
RELEASE = 0.02  # m
AIM_SD = math.radians(3.0)  # a competent player's aiming error
STRENGTH_SD = 0.05  # ... and error of strength
SAMPLE = 0.01  # m between the points a player considers aiming at along one heading
FAN, FAN_STEP = 12, 5.0  # headings considered: 5 degrees apart, up to 60 degrees off the route's way
CHECKED = 400  # best candidates whose landing area a player checks before settling for less
LANDING = 0.01  # m of sea a careful player wants around where a throw may stop
CALIBRATION = (0.2, 0.3, 0.45, 0.6, 0.75, 0.9)  # strengths at which a player learns their roll distance
MOVE_LIMIT = 6  # rule R15
GIVE_UP = 15  # moves after which a simulated voyage stops
SHIP = DieSpec(faces=(4, 4, 4, 4, 4, 4))  # the 24-pip ship (D1); the size is the default 16 mm


@dataclass(frozen=True, slots=True)
class Hand:
    """What a competent player knows of their throw: the median distance at each strength (sorted)."""

    firm_speed: float  # m/s of a throw at strength 1
    strengths: tuple[float, ...]
    distances: tuple[float, ...]  # m

    @property
    def reach(self) -> float:
        """Return the median distance of a firm throw."""
        return self.distances[-1]

    def strength_for(self, distance: float) -> float:
        """Return the strength whose median roll is `distance` (interpolated; at most a firm throw)."""
        return float(np.interp(distance, self.distances, self.strengths))


@dataclass(frozen=True, slots=True)
class Voyages:
    """Moves needed on one leg, one entry per simulated voyage (GIVE_UP + 1 for a voyage not finished)."""

    route: str
    direction: Direction
    length: float  # m along the centre line
    moves: tuple[int, ...]

    @property
    def median(self) -> float:
        """Return the median number of moves."""
        return statistics.median(self.moves)

    @property
    def within_limit(self) -> float:
        """Return the share of voyages finished within the R15 limit."""
        return sum(m <= MOVE_LIMIT for m in self.moves) / len(self.moves)


def firm_throw(rng: np.random.Generator, origin: tuple[float, float], heading: float, strength: float = 1.0,
               firm_speed: float = FIRM_SPEED) -> Throw:
    """Return a throw of the ship at `strength` times a firm throw's speed, aimed along `heading`."""
    return Throw("ship", origin, heading, speed=firm_speed * strength * float(rng.uniform(1 - SPEED_SPREAD,
                                                                                           1 + SPEED_SPREAD)),
                 spin=tuple(float(w) for w in rng.uniform(-SPIN, SPIN, 3)), release_height=RELEASE)


def _roll(roller: Roller, m: Map, at: tuple[float, float], throw: Throw) -> tuple[float, float, bool]:
    """Roll the ship from `at`; return where it rests and whether it left the board."""
    scene = Scene(board=m.board(), dice=(PlacedDie("ship", SHIP, Pose.resting(SHIP, *at)),))
    result = roller.roll(scene, throw)
    x, y, _ = result.thrown.position
    return x, y, bool(result.off_board)


def roll_distances(roller: Roller, m: Map, rng: np.random.Generator, throws: int, strength: float = 1.0,
                   firm_speed: float = FIRM_SPEED) -> list[float]:
    """Return how far (m) each of `throws` throws rolled, thrown north from the board's south middle."""
    origin = (m.width / 2, min(0.1, m.depth / 4))
    out = []
    for _ in range(throws):
        x, y, _ = _roll(roller, m, origin, firm_throw(rng, origin, math.pi / 2, strength, firm_speed))
        out.append(math.hypot(x - origin[0], y - origin[1]))
    return out


def learn_hand(roller: Roller, m: Map, rng: np.random.Generator, firm: list[float],
               firm_speed: float = FIRM_SPEED, throws: int = 20) -> Hand:
    """Return the player's knowledge of their throw: median distances at lighter strengths (from
    `throws` practice throws each) and of the firm throws that rolled `firm`."""
    strengths = CALIBRATION + (1.0,)
    medians = [statistics.median(roll_distances(roller, m, rng, throws, s, firm_speed)) for s in CALIBRATION]
    medians.append(statistics.median(firm))
    return Hand(firm_speed, strengths, tuple(float(d) for d in np.maximum.accumulate(medians)))


def voyages(roller: Roller, m: Map, route: Route, direction: Direction, hand: Hand, rng: np.random.Generator,
            count: int) -> Voyages:
    """Sail one leg `count` times as a competent player who knows their throw (`hand`)."""
    leg = route.leg(direction)
    prepare(m.land)  # many point-in-land tests follow
    return Voyages(route.name, direction, route.centre_line.length,
                   tuple(_voyage(roller, m, route, leg, hand, rng) for _ in range(count)))


def _voyage(roller: Roller, m: Map, route: Route, leg: Leg, hand: Hand, rng: np.random.Generator) -> int:
    at, moves = leg.start, 0
    while moves < GIVE_UP:
        heading, distance = _aim(m, route, leg, at, hand.reach, launch=moves == 0)
        heading += float(rng.normal(0, AIM_SD))
        if distance < 2 * SHIP.size[0]:  # a gentle push, a quarter or half turn (R16)
            style = Style.QUARTER if distance < 1.5 * SHIP.size[0] else Style.HALF
            throw = Throw("ship", at, heading, style=style)
        else:
            strength = hand.strength_for(distance) * float(rng.normal(1.0, STRENGTH_SD))
            throw = firm_throw(rng, at, heading, max(0.05, strength), hand.firm_speed)
        x, y, off = _roll(roller, m, at, throw)
        moves += 1
        if off or not (0 <= x <= m.width and 0 <= y <= m.depth):
            moves += 1  # lost a turn (R19)
            x, y = _nearest_sea(m, x, y)
        elif leg.destination.covers(Point(x, y)):
            return moves
        elif m.is_land(x, y):
            moves += 1  # aground: loses a turn (R17), sails on from there
        at = (x, y)
    return GIVE_UP + 1


def _aim(m: Map, route: Route, leg: Leg, at: tuple[float, float], reach: float,
         launch: bool) -> tuple[float, float]:
    """Return (heading, distance) of the best safe move.

    Candidates are points at sea reachable in a straight line over water, on a fan of headings around
    the way the route goes (a launch keeps the leg's heading). The best is the one inside the
    destination zone, else the one furthest along the route, whose likely landing area is clear of land.
    """
    here = Point(at)
    towards = leg.heading if launch else _route_heading(route, leg, here, reach)
    fan = [towards] if launch else [towards + math.radians(k * FAN_STEP) for k in range(-FAN, FAN + 1)]
    candidates = []
    for heading in fan:
        afloat = not m.land.covers(here)  # a ship aground first rolls off the land it sits on
        for k in range(1, int(reach / SAMPLE) + 1):
            p = _along(here, heading, k * SAMPLE)
            if not (0 <= p.x <= m.width and 0 <= p.y <= m.depth):
                break
            if m.land.covers(p):
                if afloat:
                    break  # a roll keeps to water: nothing further this way
                continue
            afloat = True
            arrives = leg.destination.covers(p)
            score = (1, leg.destination.exterior.distance(p)) if arrives else (0, route.progress(leg.direction,
                                                                                               p.x, p.y))
            candidates.append((score, heading, k * SAMPLE))
    candidates.sort(key=lambda c: c[0], reverse=True)
    for margin in (LANDING, 0.0):
        for _, heading, distance in candidates[:CHECKED]:
            if _landing_clear(m, here, heading, distance, margin):
                return heading, distance
    return (candidates[0][1], candidates[0][2]) if candidates else (towards, SAMPLE)


def _route_heading(route: Route, leg: Leg, here: Point, reach: float) -> float:
    """Return the heading to the point of the centre line a reach ahead (the middle of the fan)."""
    line = route.centre_line
    s = line.project(here) + (reach if leg.direction is Direction.NORTH else -reach)
    ahead = line.interpolate(min(max(s, 0.0), line.length))  # shapely counts s < 0 from the end
    if ahead.distance(here) < 1e-6:
        return leg.heading
    return math.atan2(ahead.y - here.y, ahead.x - here.x)


def _along(p: Point, heading: float, distance: float) -> Point:
    return Point(p.x + distance * math.cos(heading), p.y + distance * math.sin(heading))


def _landing_clear(m: Map, here: Point, heading: float, distance: float, margin: float) -> bool:
    """Return True if the stretch where a throw aimed this far may stop, widened by margin, is open sea."""
    if margin <= 0:
        return True
    window = LineString([_along(here, heading, 0.8 * distance), _along(here, heading, 1.2 * distance)])
    window = window.buffer(margin)
    return not window.intersects(m.land) and window.within(_board(m))


def _board(m: Map):
    from shapely import box

    return box(0, 0, m.width, m.depth)


def _nearest_sea(m: Map, x: float, y: float) -> tuple[float, float]:
    """Return the nearest point of the board's sea to (x, y) (D13)."""
    from shapely import box

    sea = box(0.01, 0.01, m.width - 0.01, m.depth - 0.01).difference(m.land)
    p = nearest_points(sea, Point(x, y))[0]
    return p.x, p.y
