"""Aiming: the intended throw for a ship — a target ahead on its route, a roll or a push, clear of hazards.

The aim picks target points ahead along the leg's centre line (and to either side of it, and the heart
of the destination zone), turns each into candidate throws with the calibrated throw model (a roll of
the speed that carries that far; a quarter or half push when the target lies within a push), and
scores each candidate by its expected worth over the player's own scatter (`Spread`): a 3 x 3
Gauss-Hermite grid over heading and speed for all, a 5 x 5 one for the best few, each landing priced
by `hazards.score_landings`. A roll
cannot carry less than the model's shortest roll, so a ship just short of its destination pushes.

No random numbers and no physics here (see `lookahead` for the optional simulated check): the same
table gives the same throw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from physics import Style, Throw, portable
from somaliland.players.calibration import ThrowModel, push_throw, roll_throw
from somaliland.players.hazards import (AimWeights, LegOdds, Surroundings, outcomes, points_at, score_landings,
                                        surroundings)
from somaliland.players.policy import Table
from somaliland.players.rays import Rays, run_aground
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.state import Status

STEPS = 10  # distances ahead along the centre line
OFFSETS = (-3.0, -1.5, 0.0, 1.5, 3.0)  # sideways offsets from the centre line, in die sizes


@dataclass(frozen=True)
class Grid:
    """A Gauss-Hermite grid over a standard normal speed and heading deviation: nodes and their weights, and the
    points that share each heading node (a throw's speeds under one heading roll along one ray)."""

    speed: np.ndarray
    heading: np.ndarray
    weights: np.ndarray
    ray_of: np.ndarray  # (points,) the heading node of each point, in the nodes' order
    rays: np.ndarray  # (nodes, points per node) the points of each heading node, in order

    @classmethod
    def of(cls, nodes: int) -> "Grid":
        """Return the nodes x nodes product grid (probabilists' Gauss-Hermite)."""
        x, w = np.polynomial.hermite_e.hermegauss(nodes)
        speed, heading = (g.ravel() for g in np.meshgrid(x, x, indexing="ij"))
        ray_of = np.unique(heading, return_inverse=True)[1]
        rays = np.stack([np.flatnonzero(ray_of == k) for k in range(ray_of.max() + 1)])
        return cls(speed, heading, np.outer(w, w).ravel() / w.sum() ** 2, ray_of, rays)


COARSE = Grid.of(3)  # ranks every candidate: 9 landing points each
FINE = Grid.of(7)  # ranks the best `REFINED` again: 25 points, so a risk in the tails is priced well
REFINED = 8


@dataclass(frozen=True, slots=True)
class Spread:
    """The scatter the aim plans for: heading sd (radians) and relative speed sd (as in `hand.ThrowSkill`)."""

    heading_sd: float = math.radians(5.0)
    speed_sd: float = 0.10


@dataclass(frozen=True, slots=True)
class Candidate:
    """One intended throw, as its style, heading and the distance it should carry, with its expected worth."""

    style: Style
    heading: float
    distance: float  # metres, the mean carry
    worth: float = 0.0  # metres of progress

    def throw(self, model: ThrowModel, die: str, origin: tuple[float, float]) -> Throw:
        """Return the throw this candidate stands for."""
        if self.style is Style.ROLL:
            return roll_throw(model, die, origin, self.heading, self.distance)
        return push_throw(die, origin, self.heading, self.style)


def targets(s: Surroundings, model: ThrowModel, size: float) -> np.ndarray:
    """Return target points: ahead along the centre line and beside it, and the destination's heart if near."""
    ahead = s.start + _ahead(model.quarter, model.max_roll)
    along = points_at(s.route, s.direction, np.concatenate([ahead, ahead + 0.005]))
    centre, beyond = along[:STEPS], along[STEPS:]
    tangent = beyond - centre
    tx, ty = tangent[:, 0], tangent[:, 1]
    tangent /= np.maximum(np.sqrt(tx * tx + ty * ty), 1e-12)[:, None]
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    points = (centre[:, None, :] + _OFFSETS[None, :, None] * size * normal[:, None, :]).reshape(-1, 2)
    if _within(s.zone, s.origin, model.max_roll):
        points = np.vstack([points, heart(s, size)])
    return points


def _within(zone: BaseGeometry, origin: tuple[float, float], reach: float) -> bool:
    """Return `zone.distance(Point(origin)) <= reach`, GEOS asked only when the zone's bounding box is that near."""
    x0, y0, x1, y1 = zone.bounds
    dx, dy = max(x0 - origin[0], origin[0] - x1, 0.0), max(y0 - origin[1], origin[1] - y1, 0.0)
    if dx * dx + dy * dy > reach * reach * (1 + 1e-9):  # the box's distance, a bound on the zone's, is far beyond
        return False
    return bool(zone.distance(shapely.Point(origin)) <= reach)


_OFFSETS = np.array(OFFSETS)
_OFFSETS.setflags(write=False)


@lru_cache(maxsize=16)
def _ahead(shortest: float, longest: float) -> np.ndarray:
    """Return `STEPS` distances ahead from `shortest` to `longest`, evenly spaced (read-only)."""
    ahead = np.linspace(shortest, longest, STEPS)
    ahead.setflags(write=False)
    return ahead


def heart(s: Surroundings, size: float) -> tuple[float, float]:
    """Return the point of the destination zone farthest from its edges and from land (an aim's bullseye).

    Computed once per zone, land and die size: kept by the geometries' identity (hashing a geometry writes it
    out), else by their value.
    """
    key = (id(s.zone), id(s.land), size)
    kept = _HEARTS.get(key)
    if kept is None or kept[0] is not s.zone or kept[1] is not s.land:
        if len(_HEARTS) >= 256:
            _HEARTS.clear()
        kept = _HEARTS[key] = (s.zone, s.land, _heart(s.zone, s.land, size))
    return kept[2]


_HEARTS: dict[tuple[int, int, float], tuple[BaseGeometry, BaseGeometry, tuple[float, float]]] = {}


@lru_cache(maxsize=256)
def _heart(destination, land, size: float) -> tuple[float, float]:
    zone = destination
    if land.intersects(zone):
        zone = zone.difference(land.intersection(zone.buffer(size)).buffer(size / 2))
        zone = zone if not zone.is_empty else destination
    if zone.geom_type != "Polygon":
        zone = max((g for g in getattr(zone, "geoms", ()) if g.geom_type == "Polygon"), key=lambda g: g.area,
                   default=destination)
    p = polylabel(zone, tolerance=size / 8) if zone.geom_type == "Polygon" else zone.representative_point()
    return p.x, p.y


def launch_headings(table: Table, ship_id: str, headings: np.ndarray) -> np.ndarray:
    """Return the headings turned, if need be, to within the launch tolerance of the leg's heading (R12)."""
    ship = table.state.ship(ship_id)
    if ship.status is not Status.IN_PORT:
        return headings
    leg = table.world.route(ship.route).leg(ship.direction)  # type: ignore[arg-type]
    tol = max(0.0, table.config.launch_heading_tolerance - 1e-3)
    off = (headings - leg.heading + math.pi) % (2 * math.pi) - math.pi
    return leg.heading + np.clip(off, -tol, tol)


def candidates(table: Table, ship_id: str, s: Surroundings, model: ThrowModel) -> list[Candidate]:
    """Return the candidate throws towards the targets, without duplicates, in a fixed order.

    A target at least the shortest roll away gets a roll (carrying at most the longest); one within
    about a half push gets a quarter and a half push too. Pushes come first: a push does not scatter
    in distance, so it wins a tie.
    """
    return [Candidate(*made) for made in _candidates(table, ship_id, s, model)]


def _candidates(table: Table, ship_id: str, s: Surroundings, model: ThrowModel) -> list[tuple[Style, float, float]]:
    """Return `candidates` as (style, heading, distance)."""
    size = table.config.die_size
    offsets = targets(s, model, size) - np.asarray(s.origin)
    ox, oy = offsets[:, 0], offsets[:, 1]
    dists = np.sqrt(ox * ox + oy * oy)
    headings = launch_headings(table, ship_id, portable.atan2(oy, ox))
    aims = list(zip(dists.tolist(), headings.tolist()))
    # keyed by a tag for the style (an Enum hashes in Python)
    found: dict[tuple, tuple[Style, float, float]] = {}
    push_range = model.half + 2 * size
    pushes = ((Style.QUARTER, "quarter", model.quarter), (Style.HALF, "half", model.half))
    rounded = [round(heading, 4) for heading in headings.tolist()]
    for (dist, heading), key in zip(aims, rounded):
        if 1e-6 < dist <= push_range:
            for style, tag, reach in pushes:
                found.setdefault((tag, key), (style, heading, reach))
    min_roll, max_roll = model.min_roll, model.max_roll
    for (dist, heading), key in zip(aims, rounded):
        if dist >= min_roll:
            reach = min(dist, max_roll)
            found.setdefault(("roll", key, round(reach, 4)), (Style.ROLL, heading, reach))
    return list(found.values())


def landings(made: list[Candidate], origin: tuple[float, float], model: ThrowModel, spread: Spread,
             grid: Grid = COARSE) -> np.ndarray:
    """Return each candidate's quadrature landing points, shape (n, len(grid.weights), 2).

    A roll scatters in heading and speed: the hand's spread plus the model's measured physics scatter
    (across the heading as an angle; along it as speed, a roll's reach growing about as speed squared).
    A push scatters in heading only (hand.py keeps a push a push).
    """
    h, reach = _scatter(*_throws(made), model, spread, grid)
    return np.stack([origin[0] + reach * np.cos(h), origin[1] + reach * np.sin(h)], axis=-1)


def _throws(made: list[Candidate]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the candidates' headings, distances and whether each is a roll, as arrays (n,)."""
    return (np.array([c.heading for c in made]), np.array([c.distance for c in made]),
            np.array([c.style is Style.ROLL for c in made]))


def _rays(cos: np.ndarray, sin: np.ndarray, reach: np.ndarray, roll: np.ndarray, grid: Grid,
          model: ThrowModel) -> Rays:
    """Return the landings' paths grouped by heading (a candidate's speeds under one heading share a ray), each with
    its roll's flight and wander at its farthest reach (a push neither flies nor strays); `cos` and `sin` of the
    landings' headings, shape (n, len(grid.weights))."""
    n, k = reach.shape[0], len(grid.rays)
    of_end = (np.arange(n)[:, None] * k + grid.ray_of[None, :]).ravel()
    first = grid.rays[:, 0]
    far = np.maximum.reduce(reach[:, grid.rays.T], axis=1).ravel()  # (n, speeds, rays): the long axis last
    rolls = np.repeat(roll, k)
    return Rays(of_end, np.stack([cos[:, first].ravel(), sin[:, first].ravel()], axis=1), far,
                np.where(rolls, model.flight_at(far), 0.0), np.where(rolls, model.wander_at(far), 0.0))


def _scatter(heading: np.ndarray, dist: np.ndarray, roll: np.ndarray, model: ThrowModel, spread: Spread,
             grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """Return the quadrature headings and reaches of throws of these headings, distances and styles (`_throws`),
    each of shape (n, len(grid.weights))."""
    heading, dist, roll = heading[:, None], dist[:, None], roll[:, None]
    along = np.where(roll, np.interp(dist, model.reach, model.along_sd), 0.0)
    across = np.where(roll, np.interp(dist, model.reach, model.across_sd), 0.0)
    h_sd = np.hypot(spread.heading_sd, across / np.maximum(dist, 1e-6))
    v_sd = np.where(roll, np.hypot(spread.speed_sd, along / np.maximum(2 * dist, 1e-6)), 0.0)
    speed = np.interp(dist, model.reach, model.speeds)
    factor = portable.exp(v_sd * grid.speed[None, :] - v_sd ** 2 / 2)
    reach = np.where(roll, model.reach_at(speed * factor), dist)
    return heading + h_sd * grid.heading[None, :], reach


def risks(s: Surroundings, made: Candidate, model: ThrowModel, spread: Spread, grid: Grid = FINE) -> tuple[float, float]:
    """Return the aim's chances that this throw leaves the board (R19) and that it runs aground (R17: where it stops,
    D11, or on its way, D19), over the hand's and the physics' scatter on this grid."""
    throws = _throws([made])
    h, reach = _scatter(*throws, model, spread, grid)
    cos, sin = np.cos(h), np.sin(h)
    points = np.stack([s.origin[0] + reach * cos, s.origin[1] + reach * sin], axis=-1).reshape(-1, 2)
    on_board, aground, _ = outcomes(s, points)
    if s.coast is not None:
        aground = aground | run_aground(s, points, _rays(cos, sin, reach, throws[2], grid, model))[0]
    return (float(portable.dot(grid.weights, (~on_board).astype(float))),
            float(portable.dot(grid.weights, aground.astype(float))))


def sizing_up(table: Table, ship_id: str, model: ThrowModel, odds: LegOdds) -> Surroundings:
    """Return what a throw of this ship must reckon with, its leg's measured odds among it.

    Raises:
        IllegalActionError: the ship carries no contract, so it has no route to aim along.
    """
    ship = table.state.ship(ship_id)
    if ship.card is None or ship.route is None:
        raise IllegalActionError("throw", f"{ship_id} carries no contract", "ships assigned to a contract")
    return surroundings(table, ship, 1.1 * model.max_roll, odds)


def prior_odds(model: ThrowModel) -> LegOdds:
    """Return the odds the aim assumes of a leg it has not surveyed: half the longest roll a turn, even chances.

    Only the survey's first voyage on a leg sails by them (`survey.py`); from the physics of the throw
    alone, so they fit no board.
    """
    return LegOdds(model.max_roll / 2, 0.5)


def rank(table: Table, ship_id: str, s: Surroundings, model: ThrowModel, spread: Spread,
         weights: AimWeights) -> list[Candidate]:
    """Return the candidate throws for a ship with their expected worth, best first (ties keep their order).

    Every candidate is priced on the coarse grid; the best `REFINED` are priced again on the fine one
    and lead the list in that order. A 3 x 3 grid sets a third of its weight 1.7 sd out, so the risk of
    a land or an edge in the tails is priced in steps of a sixth: the best by the coarse grid is often
    one whose tail risk it missed (measured in games: throws it gave 1-10 % to run aground ran
    aground 19 % of the time; see players/README.md).
    """
    made = _candidates(table, ship_id, s, model)
    throws = (np.array([m[1] for m in made]), np.array([m[2] for m in made]),
              np.array([m[0] is Style.ROLL for m in made]))
    coarse = _worth(s, *throws, model, spread, weights, COARSE).tolist()
    order = sorted(range(len(made)), key=lambda i: (-coarse[i], i))
    best = order[:REFINED]
    fine = _worth(s, *(a[best] for a in throws), model, spread, weights, FINE).tolist()
    top = sorted(range(len(best)), key=lambda i: (-fine[i], i))
    return ([Candidate(*made[best[i]], fine[i]) for i in top]
            + [Candidate(*made[i], coarse[i]) for i in order[REFINED:]])


def worth(s: Surroundings, made: list[Candidate], model: ThrowModel, spread: Spread, weights: AimWeights,
          grid: Grid) -> np.ndarray:
    """Return each candidate's expected worth over the hand's and the physics' scatter, on this grid."""
    return _worth(s, *_throws(made), model, spread, weights, grid)


def _worth(s: Surroundings, heading: np.ndarray, dist: np.ndarray, roll: np.ndarray, model: ThrowModel,
           spread: Spread, weights: AimWeights, grid: Grid) -> np.ndarray:
    """Return `worth` of the throws of these headings, distances and styles (`_throws`)."""
    h, reach = _scatter(heading, dist, roll, model, spread, grid)
    cos, sin = np.cos(h), np.sin(h)
    points = np.stack([s.origin[0] + reach * cos, s.origin[1] + reach * sin], axis=-1)
    rays = _rays(cos, sin, reach, roll, grid, model) if s.coast is not None else None
    return portable.dot(score_landings(s, points.reshape(-1, 2), weights, rays=rays).reshape(len(heading), -1),
                        grid.weights)


def aim(table: Table, ship_id: str, model: ThrowModel, spread: Spread = Spread(),
        weights: AimWeights = AimWeights(), odds: LegOdds | None = None) -> Throw:
    """Return the best intended throw for the ship by the analytic model alone (odds: the prior if not given)."""
    s = sizing_up(table, ship_id, model, odds or prior_odds(model))
    return rank(table, ship_id, s, model, spread, weights)[0].throw(model, ship_id, s.origin)
