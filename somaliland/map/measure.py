"""Measure a map with real physics: how far a firm throw rolls, and how many moves a competent player
needs to sail each route (rule R15 allows 6).

A firm throw is a brisk roll: FIRM_SPEED m/s (+-10%), random spin, released 2 cm up. The competent
player knows their hand: the median roll at each strength (from practice throws) and how far around
it a throw really stops (SHORT, LONG, SCATTER, measured). Each move they weigh every point at sea that
a straight roll reaches over water, on headings all round, by where the throw may really stop:
arriving is worth finishing, stopping at sea the progress made along the route, stopping aground or
off the board that progress less a lost turn (R17, R19). They throw as hard as the best point needs (a
quarter or half-turn push for the shortest moves, R16), with small errors of aim and strength. The
launch keeps the leg's heading (R12). A die may roll across printed land and stop at sea beyond it;
this player aims to only when water leads nowhere (say, after a throw ended in the wrong sea).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np
from shapely import Point, intersects_xy, prepare
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
FAN_STEP = 7.5  # degrees between the headings a player considers, all round
# Measured with these throws (40 each at strengths 0.3-1): a roll stops between about 0.75 and 1.3
# times its median distance (10th-90th percentile) and scatters sideways by 0.12-0.2 of it (one s.d.).
SHORT, LONG, SCATTER = 0.75, 1.3, 0.16
LOST_TURN = 0.6  # what a lost turn costs, in firm-throw reaches of progress
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
    def in_time(self) -> int:
        """Return how many voyages finished within the R15 limit."""
        return sum(m <= MOVE_LIMIT for m in self.moves)

    @property
    def within_limit(self) -> float:
        """Return the share of voyages finished within the R15 limit."""
        return self.in_time / len(self.moves)


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
    done = route.progress(leg.direction, *at)  # how far along the ship is: tracked, so that a coast
    # that doubles back on the route (the Gulf of Aden's south shore) never looks like progress
    while moves < GIVE_UP:
        heading, distance = _aim(m, route, leg, at, done, hand.reach, launch=moves == 0)
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
        done = _progress_near(route, leg.direction, Point(at), done, hand.reach)
    return GIVE_UP + 1


def _progress_near(route: Route, direction: Direction, p: Point, done: float, reach: float) -> float:
    """Return the progress of p along the leg, looking only near the progress already made."""
    return _progress_meter(route, direction, done, reach)(p)


def _progress_meter(route: Route, direction: Direction, done: float, reach: float):
    """Return a function giving a point's progress along the leg, measured on the stretch of centre line
    from a reach behind `done` to a reach and a half ahead."""
    from shapely.ops import substring

    length = route.centre_line.length
    lo, hi = max(0.0, done - reach), min(length, done + 1.5 * reach)
    a, b = (lo, hi) if direction is Direction.NORTH else (length - hi, length - lo)
    stretch = substring(route.centre_line, a, b)
    if direction is Direction.NORTH:
        return lambda p: a + stretch.project(p)
    return lambda p: length - a - stretch.project(p)


def _aim(m: Map, route: Route, leg: Leg, at: tuple[float, float], done: float, reach: float,
         launch: bool) -> tuple[float, float]:
    """Return (heading, distance) of the move worth most on average for a ship `done` metres along.

    Candidates are points at sea that a straight roll reaches over water (over land only when water
    leads nowhere), on headings all round (a launch keeps the leg's heading). Each is scored over
    where a throw aimed there may really stop (`_spread`): arriving is worth finishing, stopping at
    sea the progress made, and stopping aground or off the board that progress less a lost turn.
    """
    here = Point(at)
    towards = leg.heading if launch else _route_heading(route, leg, here, done, reach)
    fan = [towards] if launch else [towards + math.radians(k * FAN_STEP) for k in range(int(360 / FAN_STEP))]
    progress = _progress_meter(route, leg.direction, done, reach)
    # a ship aground may roll off its land by about the shortest way; afloat, a roll keeps to water,
    # unless that leaves it no way forward (say, thrown into a sea the route does not pass through)
    ashore = m.land.boundary.distance(here) + 2 * SAMPLE if m.land.covers(here) else 0.0
    for overland in (False, True):
        moves = [(h, d) for h in fan for d in _reachable(m, here, h, reach, ashore, overland)]
        if not moves:
            continue
        (heading, distance), value = _best(m, route, leg, here, moves, progress, reach)
        if value > done + SAMPLE or overland:
            return heading, distance
    return towards, SAMPLE


def _reachable(m: Map, here: Point, heading: float, reach: float, ashore: float, overland: bool) -> np.ndarray:
    """Return the distances along a heading at which a ship can aim: points at sea, reached over water
    (after leaving the land it sits on by at most `ashore`), or over anything if `overland`."""
    distances = np.arange(1, int(reach / SAMPLE) + 1) * SAMPLE
    xs, ys = here.x + distances * math.cos(heading), here.y + distances * math.sin(heading)
    on_board = (xs >= 0) & (xs <= m.width) & (ys >= 0) & (ys <= m.depth)
    wet = on_board & ~intersects_xy(m.land, xs, ys)
    if overland:
        return distances[wet]
    first = int(np.argmax(wet)) if wet.any() else len(wet)
    if first == len(wet) or (ashore == 0.0 and first > 0) or distances[first] > max(ashore, SAMPLE):
        return distances[:0]
    blocked = np.flatnonzero(~wet[first:])
    return distances[first:first + int(blocked[0])] if len(blocked) else distances[first:]


def _best(m: Map, route: Route, leg: Leg, here: Point, moves: list[tuple[float, float]], progress,
          reach: float) -> tuple[tuple[float, float], float]:
    """Return the move worth most on average, and its worth (in metres of progress)."""
    heading = np.array([h for h, _ in moves])
    distance = np.array([d for _, d in moves])
    ux, uy = np.cos(heading)[:, None], np.sin(heading)[:, None]
    spread_along, spread_side = _spread()
    along, side = spread_along[None, :] * distance[:, None], spread_side[None, :] * distance[:, None]
    xs, ys = here.x + along * ux - side * uy, here.y + along * uy + side * ux
    arrive = intersects_xy(leg.destination, xs, ys).mean(axis=1)
    lost = (intersects_xy(m.land, xs, ys) | (xs < 0) | (xs > m.width) | (ys < 0) | (ys > m.depth)).mean(axis=1)
    gained = np.array([progress(_along(here, h, d)) for h, d in moves])
    finish = route.centre_line.length + reach
    value = arrive * finish + (1 - arrive) * gained - lost * LOST_TURN * reach
    best = int(np.argmax(value))
    return moves[best], float(value[best])


def _route_heading(route: Route, leg: Leg, here: Point, done: float, reach: float) -> float:
    """Return the heading to the point of the centre line a reach ahead (the launch's fallback)."""
    length = route.centre_line.length
    ahead = min(done + reach, length)
    ahead = route.centre_line.interpolate(ahead if leg.direction is Direction.NORTH else length - ahead)
    if ahead.distance(here) < 1e-6:
        return leg.heading
    return math.atan2(ahead.y - here.y, ahead.x - here.x)


def _along(p: Point, heading: float, distance: float) -> Point:
    return Point(p.x + distance * math.cos(heading), p.y + distance * math.sin(heading))


def _spread() -> tuple[np.ndarray, np.ndarray]:
    """Return where a throw aimed one unit far stops (along, sideways): the 10th, 30th, 50th, 70th and
    90th percentiles of the measured spread each way, crossed, so that a player's choice is
    deterministic."""
    along = np.array([SHORT, (SHORT + 1) / 2, 1.0, (1 + LONG) / 2, LONG])
    side = SCATTER * np.array([-1.28, -0.52, 0.0, 0.52, 1.28])  # normal deciles
    a, b = np.meshgrid(along, side)
    return a.ravel(), b.ravel()


def _nearest_sea(m: Map, x: float, y: float) -> tuple[float, float]:
    """Return the nearest point of the board's sea to (x, y) (D13)."""
    from shapely import box

    sea = box(0.01, 0.01, m.width - 0.01, m.depth - 0.01).difference(m.land)
    p = nearest_points(sea, Point(x, y))[0]
    return p.x, p.y
