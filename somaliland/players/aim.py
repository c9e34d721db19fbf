"""Aiming: the intended throw for a ship — a target ahead on its route, a roll or a push, clear of hazards.

The aim picks target points ahead along the leg's centre line (and to either side of it, and the heart
of the destination zone), turns each into candidate throws with the calibrated throw model (a roll of
the speed that carries that far; a quarter or half push when the target lies within a push), and
scores each candidate by its expected worth over the player's own scatter (`Spread`): a 3 x 3
Gauss-Hermite grid over heading and speed, each landing priced by `hazards.score_landings`. A roll
cannot carry less than the model's shortest roll, so a ship just short of its destination pushes.

No random numbers and no physics here (see `lookahead` for the optional simulated check): the same
table gives the same throw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from shapely.ops import polylabel

from physics import Style, Throw
from somaliland.players.calibration import ThrowModel, push_throw, roll_throw
from somaliland.players.hazards import AimWeights, Surroundings, point_at, score_landings, surroundings
from somaliland.players.policy import Table
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.state import Status

NODES = (-math.sqrt(3.0), 0.0, math.sqrt(3.0))  # three-point Gauss-Hermite nodes for a standard normal ...
NODE_WEIGHTS = (1 / 6, 2 / 3, 1 / 6)  # ... and their weights
STEPS = 10  # distances ahead along the centre line
OFFSETS = (-3.0, -1.5, 0.0, 1.5, 3.0)  # sideways offsets from the centre line, in die sizes


@dataclass(frozen=True, slots=True)
class Spread:
    """The scatter the aim plans for: heading sd (radians) and relative speed sd (as in `hand.ThrowSkill`)."""

    heading_sd: float = math.radians(5.0)
    speed_sd: float = 0.10


@dataclass(frozen=True, slots=True)
class Candidate:
    """One intended throw and its expected worth (metres of progress)."""

    throw: Throw
    distance: float  # the mean distance it should carry
    worth: float


def targets(s: Surroundings, model: ThrowModel, size: float) -> np.ndarray:
    """Return target points: ahead along the centre line and beside it, and the destination's heart."""
    ahead = np.linspace(model.quarter, model.max_roll, STEPS)
    points = []
    for d in ahead:
        cx, cy = point_at(s.route, s.direction, s.start + d)
        nx, ny = point_at(s.route, s.direction, s.start + d + 0.005)
        tx, ty = nx - cx, ny - cy
        norm = math.hypot(tx, ty) or 1.0
        for k in OFFSETS:
            points.append((cx - ty / norm * k * size, cy + tx / norm * k * size))
    return np.array(points + [heart(s, size)])


def heart(s: Surroundings, size: float) -> tuple[float, float]:
    """Return the point of the destination zone farthest from its edges and from land (an aim's bullseye)."""
    zone = s.zone.difference(s.land.buffer(size / 2)) if s.land.intersects(s.zone) else s.zone
    zone = zone if not zone.is_empty else s.zone
    if zone.geom_type == "MultiPolygon":
        zone = max(zone.geoms, key=lambda g: g.area)
    p = polylabel(zone, tolerance=size / 8)
    return p.x, p.y


def _launch_heading(table: Table, ship_id: str, heading: float) -> float:
    """Return the heading turned, if need be, to within the launch tolerance of the leg's heading (R12)."""
    ship = table.state.ship(ship_id)
    if ship.status is not Status.IN_PORT:
        return heading
    leg = table.world.route(ship.route).leg(ship.direction)  # type: ignore[arg-type]
    tol = max(0.0, table.config.launch_heading_tolerance - 1e-3)
    off = (heading - leg.heading + math.pi) % (2 * math.pi) - math.pi
    return leg.heading + max(-tol, min(tol, off))


def candidates(table: Table, ship_id: str, s: Surroundings, model: ThrowModel) -> list[tuple[Throw, float]]:
    """Return the candidate throws (each with the mean distance it should carry), without duplicates."""
    size = table.config.die_size
    ox, oy = s.origin
    found: dict[tuple, tuple[Throw, float]] = {}
    for tx, ty in targets(s, model, size):
        dist = math.hypot(tx - ox, ty - oy)
        if dist < 1e-6:
            continue
        heading = _launch_heading(table, ship_id, math.atan2(ty - oy, tx - ox))
        if dist >= model.min_roll:
            reach = min(dist, model.max_roll)
            found.setdefault(("roll", round(heading, 4), round(reach, 4)),
                             (roll_throw(model, ship_id, s.origin, heading, reach), reach))
        if dist <= model.half + 2 * size:
            for style, reach in ((Style.QUARTER, model.quarter), (Style.HALF, model.half)):
                found.setdefault((style.value, round(heading, 4)),
                                 (push_throw(ship_id, s.origin, heading, style), reach))
    return list(found.values())


def landings(c: Throw, distance: float, model: ThrowModel, spread: Spread) -> tuple[np.ndarray, np.ndarray]:
    """Return the quadrature landing points of a throw and their weights (summing to 1).

    A roll scatters in heading and speed (the hand's spread plus the model's measured physics
    scatter); a push only in heading (hand.py keeps a push a push).
    """
    along, across = model.spread_at(distance) if c.style is Style.ROLL else (0.0, 0.0)
    h_sd = math.hypot(spread.heading_sd, across / max(distance, 1e-6))
    points, weights = [], []
    speed_nodes = zip(NODES, NODE_WEIGHTS) if c.style is Style.ROLL else ((0.0, 1.0),)
    for zs, ws in speed_nodes:
        if c.style is Style.ROLL:
            v_sd = math.hypot(spread.speed_sd, along / max(2 * distance, 1e-6))  # reach grows ~ speed squared
            reach = float(model.reach_at(c.speed * math.exp(v_sd * zs - v_sd ** 2 / 2)))
        else:
            reach = distance
        for zh, wh in zip(NODES, NODE_WEIGHTS):
            h = c.heading + h_sd * zh
            points.append((c.origin[0] + reach * math.cos(h), c.origin[1] + reach * math.sin(h)))
            weights.append(ws * wh)
    return np.array(points), np.array(weights)


def sizing_up(table: Table, ship_id: str, model: ThrowModel) -> Surroundings:
    """Return what a throw of this ship must reckon with.

    Raises:
        IllegalActionError: the ship carries no contract, so it has no route to aim along.
    """
    ship = table.state.ship(ship_id)
    if ship.card is None or ship.route is None:
        raise IllegalActionError("throw", f"{ship_id} carries no contract", "ships assigned to a contract")
    return surroundings(table, ship, 1.1 * model.max_roll)


def rank(table: Table, ship_id: str, s: Surroundings, model: ThrowModel, spread: Spread,
         weights: AimWeights) -> list[Candidate]:
    """Return the candidate throws for a ship, best first (ties keep the order they were made in)."""
    made = candidates(table, ship_id, s, model)
    groups = [landings(t, d, model, spread) for t, d in made]
    worth = score_landings(s, np.concatenate([g[0] for g in groups]), weights)
    out, at = [], 0
    for (t, d), (pts, w) in zip(made, groups):
        out.append(Candidate(t, d, float(worth[at:at + len(pts)] @ w)))
        at += len(pts)
    order = sorted(range(len(out)), key=lambda i: (-out[i].worth, i))
    return [out[i] for i in order]


def aim(table: Table, ship_id: str, model: ThrowModel, spread: Spread = Spread(),
        weights: AimWeights = AimWeights()) -> Throw:
    """Return the best intended throw for the ship by the analytic model alone."""
    return rank(table, ship_id, sizing_up(table, ship_id, model), model, spread, weights)[0].throw

