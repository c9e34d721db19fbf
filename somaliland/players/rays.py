"""Where a die rolled straight from a ship comes over land on its way, as the aim reckons it (R17, D19).

A die that rolls over land runs aground where it first crossed the coast (D19). The aim's landing points are grouped
into rays from the ship (a throw's speeds under one heading of the hand's scatter roll along one ray); each ray is
looked at every `RAY_STEP` from the end of the roll's flight (a die in flight over land is not aground) out to its
farthest reach, against the land grown by how far the roll's path strays from its chord (`MARGINS`). The land under
the steps is asked of `map/queries.py`'s raster, which answers as shapely does, bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from somaliland.map import queries
from somaliland.map.model import Map
from somaliland.rules.landfall import grounding_land

RAY_STEP = 0.005  # m between the points checked along a straight path for where it first comes over land (D19)
MARGINS = (0.0, 0.004, 0.008, 0.012, 0.016, 0.024, 0.032, 0.048)  # m: the land grown by a roll's wander, in steps


class Coastal(Protocol):
    """What the rays need of a throw's surroundings (`hazards.Surroundings` is one)."""

    origin: tuple[float, float]
    coast: tuple[BaseGeometry, ...] | None  # D19: the land a rolling die must not cross; None under D11 alone
    coast_tolerance: float  # D19: metres over land that do not yet count
    die_size: float  # the ship's die edge, metres


@lru_cache(maxsize=8)
def coasts(world: Map, size: float, grounding: str) -> tuple[BaseGeometry, ...]:
    """Return the land a rolling die's centre must not cross (R17, D19), grown by each of `MARGINS`."""
    land = grounding_land(world, size, grounding).land
    return tuple(land if m == 0 else land.buffer(m) for m in MARGINS)


@dataclass(frozen=True, slots=True)
class Rays:
    """Straight paths from the origin grouped by heading: each end's ray, and each ray's direction and reach.

    Ends on one heading (a throw's speeds under one heading of the hand's scatter) share a ray, so where it
    first comes over land is found once for all of them.
    """

    of_end: np.ndarray  # (n,) the ray of each end
    direction: np.ndarray  # (r, 2) unit vectors
    reach: np.ndarray  # (r,) the farthest end on each ray, metres from the origin
    flight: np.ndarray | None = None  # (r,) metres flown before the die first rolls (`ThrowModel.flight_at`)
    wander: np.ndarray | None = None  # (r,) how far its rolling path strays from the ray (`ThrowModel.wander_at`)

    @classmethod
    def each(cls, origin: np.ndarray, ends: np.ndarray) -> "Rays":
        """Return one ray per end, each rolled straight from the origin."""
        d = ends - origin
        length = np.sqrt((d * d).sum(axis=1))
        return cls(np.arange(len(ends)), d / np.maximum(length, 1e-12)[:, None], length)


def first_land(s: Coastal, rays: Rays) -> np.ndarray:
    """Return, for each ray, how far from the origin its rolling die first comes over the land it must not cross
    (D19) or within its path's wander of it, checked every `RAY_STEP` from the end of its flight out to its reach;
    inf where it does not (or under D11 alone).

    Only the steps between each ray's flight and reach are looked at, each in the coast's raster
    (`queries.CellMask.codes_along`); GEOS is asked only of steps in EDGE cells short of the first step a ray
    surely comes over land.
    """
    found = np.full(len(rays.reach), np.inf)
    if s.coast is None or not len(rays.reach):
        return found
    n = int(math.ceil(float(rays.reach.max()) / RAY_STEP))
    steps = _STEPS[:n] if n <= len(_STEPS) else np.arange(1, n + 1) * RAY_STEP
    flown = rays.flight if rays.flight is not None else np.zeros(len(rays.reach))
    lo = np.searchsorted(steps, flown, side="left")  # the first step at or beyond the flight
    count = np.maximum(np.searchsorted(steps, rays.reach, side="right") - lo, 0)  # the steps up to the reach
    level = (np.searchsorted(MARGINS, rays.wander, side="right") - 1 if rays.wander is not None
             else np.zeros(len(rays.reach), dtype=np.intp))
    order = np.argsort(level, kind="stable")  # the rays of each level together, so each level's steps are a slice
    count = count[order]
    total = int(count.sum())
    if not total:
        return found
    ray = np.repeat(order, count)
    step = steps[np.arange(total) + np.repeat(lo[order] - (np.cumsum(count) - count), count)]
    origin = (float(s.origin[0]), float(s.origin[1]))
    bounds = np.concatenate([[0], np.cumsum(np.bincount(level[order], weights=count, minlength=len(MARGINS)))])
    bounds = bounds.astype(np.intp).tolist()
    levels = [k for k in range(len(MARGINS)) if bounds[k + 1] > bounds[k]]
    code = np.empty(total, dtype=np.uint8)
    for k in levels:
        a, b = bounds[k], bounds[k + 1]
        code[a:b] = queries.cell_mask(s.coast[k]).codes_along(origin, rays.direction, ray[a:b], step[a:b])
    inside = np.flatnonzero(code == queries.INSIDE)
    first = np.full(len(rays.reach), total)  # each ray's first step over land: surely, to begin with
    sure = inside[_firsts(ray[inside])]
    first[ray[sure]] = sure
    ask = np.flatnonzero(code == queries.EDGE)
    ask = ask[ask < first[ray[ask]]]  # a ray's steps past its first sure landfall need no asking
    for k in levels if len(ask) else ():
        mine = ask[(ask >= bounds[k]) & (ask < bounds[k + 1])]
        x = origin[0] + rays.direction[ray[mine], 0] * step[mine]
        y = origin[1] + rays.direction[ray[mine], 1] * step[mine]
        over = mine[shapely.contains_xy(s.coast[k], x, y)]
        np.minimum.at(first, ray[over], over)
    landed = first < total
    found[landed] = step[first[landed]]
    return found


_STEPS = np.arange(1, 4097) * RAY_STEP  # the distances of a ray's steps, `RAY_STEP` apart (20 m of them)
_STEPS.setflags(write=False)


def _firsts(labels: np.ndarray) -> np.ndarray:
    """Return where each run of equal labels begins (a boolean mask)."""
    return np.concatenate([[True], labels[1:] != labels[:-1]]) if len(labels) else np.zeros(0, dtype=bool)


def run_aground(s: Coastal, ends: np.ndarray, rays: Rays | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return which straight paths from the origin to these ends roll over land for the coast tolerance or more
    (R17, D19), and where the rules would set each such ship down: back from the coast in open sea, about."""
    origin = np.asarray(s.origin, dtype=float)
    rays = rays if rays is not None else Rays.each(origin, ends)
    land_at = first_land(s, rays)[rays.of_end]
    dx, dy = ends[:, 0] - origin[0], ends[:, 1] - origin[1]
    aground = land_at + s.coast_tolerance <= np.sqrt(dx * dx + dy * dy)
    rests = ends.copy()
    if aground.any():
        hit = np.flatnonzero(aground)
        back = np.maximum(land_at[hit] - RAY_STEP - s.die_size, 0.0)  # D19 sets it down clear of the land, as D17
        rests[hit] = origin + rays.direction[rays.of_end[hit]] * back[:, None]
    return aground, rests
