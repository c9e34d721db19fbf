"""Where a rolling die first ran aground on its way (R17, D19): its sampled path against the map's land.

The board is flat paper, so a die can roll across printed land and stop at sea beyond it; D19 calls it aground
where it first crossed the coast. What counts, from the physics layer's sampled path of each die that moved
(the thrown die, and every die it pushed):

- **Rolling on the board**: a sample whose lowest corner lies at most `ROLLING_HEIGHT` above the ground under
  the die (the board, or raised land's relief). A die higher than that is in flight: a die thrown from the hand
  flies its first few centimetres, and a die in flight over land is not aground. Between two samples the die
  rolled along the straight line joining them when both samples roll.
- **Over land**: the die's centre on the land (D11 `bottom_centre`), or within half a die edge of it (D11
  `footprint`: the shadow of a flat die square to the coast reaches the land).
- **The coast tolerance** (`coast_tolerance_mm`, one value for every map): a stretch of rolling path over land
  counts when it is at least that long, or reaches at least that far inside the land (a die landing from
  flight on the land and stopping at once); shorter and shallower, it grazed the coast.
- **Land the die lay on before the throw** does not count until its path first leaves it (a ship aground at
  rest under `grounding_on = "rest"` or put back on land under D13's `nearest_board` sails on from there).

The landfall is the point where the die's path (in flight or rolling) last crossed onto land before the first
stretch that counts, with the time after release at which it did. `roll.apply_roll` sets the die down there,
clear of every other die (`placement.clear_pose`, as D17). Pure functions of the path and the map: the same
answers in the game, in `verify` and in a record's fold.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from physics import DiePath
from physics.dice import lowest_heights
from somaliland.map import queries
from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig

ROLLING_HEIGHT = 0.003  # m: a die whose lowest corner is higher above the ground is in flight, not rolling


@dataclass(frozen=True, slots=True)
class Landfall:
    """Where a die's path first crossed onto land that it then rolled over (D19), and when (s after release)."""

    name: str
    crossed: tuple[float, float]
    time: float


@dataclass(frozen=True)
class Coast:
    """The land a die's centre must not roll over (`grounding_land`), prepared, with its boundary."""

    land: BaseGeometry
    boundary: BaseGeometry


@lru_cache(maxsize=16)
def grounding_land(world: Map, size: float, grounding: str) -> Coast:
    """Return the land a die's centre must not roll over: the land, grown by half a die edge under `footprint` (D11)."""
    land = world.land if grounding == "bottom_centre" else world.land.buffer(size / 2)
    shapely.prepare(land)
    boundary = land.boundary
    shapely.prepare(boundary)
    return Coast(land, boundary)


def _ground(world: Map, xy: np.ndarray) -> np.ndarray:
    """Return the height of the board's surface under each point (n, 2): raised land's relief, else 0."""
    ground = np.zeros(len(xy))
    for land in world.lands:
        if land.relief > 0:
            on = queries.contains_xy(land.polygon, xy[:, 0], xy[:, 1])
            ground = np.where(on, np.maximum(ground, land.relief), ground)
    return ground


def rolling(path: DiePath, size: float, world: Map) -> np.ndarray:
    """Return, for each sample of the path, whether the die rolls on the board there rather than flies (D19)."""
    pos = np.asarray(path.positions, dtype=float).reshape(-1, 3)
    low = lowest_heights((size, size, size), pos, np.asarray(path.orientations, dtype=float).reshape(-1, 4))
    return low - _ground(world, pos[:, :2]) <= ROLLING_HEIGHT


def landfall(path: DiePath, world: Map, config: RulesConfig) -> Landfall | None:
    """Return where the die's path first ran aground on land (D19), or None if it never rolled over land."""
    xy = np.asarray(path.positions, dtype=float).reshape(-1, 3)[:, :2]
    if len(xy) == 0:
        return None
    coast = grounding_land(world, config.die_size, config.grounding)
    inside = queries.contains_xy(coast.land, xy[:, 0], xy[:, 1])
    leaves = np.flatnonzero(~inside)
    if len(leaves) == 0:
        return None  # it never left the land it lay on: D11 at rest decides
    first = int(leaves[0])  # land it lay on before the throw does not count until the path leaves it
    xy, inside = xy[first:], inside[first:]
    if not inside.any() and (len(xy) < 2 or not shapely.intersects(shapely.linestrings(xy), coast.land)):
        return None
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(xy, axis=0).T))])
    on = rolling(path, config.die_size, world)[first:]
    start = _first_counted(xy, along, on, inside, coast, config.coast_tolerance)
    if start is None:
        return None
    entry = _entry(xy, along, start, coast)
    point = _point_at(xy, along, entry)
    return Landfall(path.name, point, float(np.interp(entry, along, np.asarray(path.times, dtype=float)[first:])))


def _runs(on: np.ndarray) -> list[tuple[int, int]]:
    """Return the runs of consecutive rolling samples as (first, last) index pairs, in order."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
    return list(zip(edges[::2].tolist(), (edges[1::2] - 1).tolist()))


def _spans(line: BaseGeometry, land: BaseGeometry) -> list[tuple[float, float]]:
    """Return the stretches of a line string over land as (from, to) distances along it, in order."""
    spans = []
    for piece in shapely.get_parts(line.intersection(land)):
        if piece.geom_type == "LineString" and piece.length > 0:
            ends = shapely.line_locate_point(line, shapely.points(shapely.get_coordinates(piece)[[0, -1]]))
            spans.append((float(ends.min()), float(ends.max())))
    return sorted(spans)


def _first_counted(xy: np.ndarray, along: np.ndarray, on: np.ndarray, inside: np.ndarray, coast: Coast,
                   tolerance: float) -> float | None:
    """Return how far along the path (m, from its first sample) the first stretch of rolling over land that
    counts begins, or None: a stretch counts when it is at least `tolerance` long or reaches that far inland."""
    for first, last in _runs(on):
        if first == last:
            if inside[first] and shapely.distance(coast.boundary, shapely.points(xy[first])) >= tolerance:
                return float(along[first])
            continue
        run = shapely.linestrings(xy[first:last + 1])
        if not inside[first:last + 1].any() and not shapely.intersects(run, coast.land):
            continue
        for a, b in _spans(run, coast.land):
            ends = shapely.points([_point_at(xy[first:last + 1], along[first:last + 1] - along[first], d)
                                   for d in (a, b)])
            if b - a >= tolerance or shapely.distance(coast.boundary, ends).max() >= tolerance:
                return float(along[first] + a)
    return None


def _entry(xy: np.ndarray, along: np.ndarray, start: float, coast: Coast) -> float:
    """Return how far along the path it last came onto the land before `start` (in flight or rolling): `start`
    itself when the die rolled onto the land there, else where its flight crossed the coast."""
    if start <= 0.0:
        return 0.0
    k = int(np.searchsorted(along, start, side="right"))  # the samples up to the point `start`
    upto = np.vstack([xy[:k], [_point_at(xy, along, start)]])
    if len(upto) < 2 or along[k - 1] >= start:
        upto = xy[:k]
    spans = _spans(shapely.linestrings(upto), coast.land) if len(upto) >= 2 else []
    last = spans[-1] if spans else None
    return last[0] if last is not None and last[1] >= start - 1e-9 else start


def _point_at(xy: np.ndarray, along: np.ndarray, d: float) -> tuple[float, float]:
    """Return the point `d` metres along the polyline through `xy` (running lengths `along`)."""
    return float(np.interp(d, along, xy[:, 0])), float(np.interp(d, along, xy[:, 1]))
