"""How far a die rolled over land during one throw, measured from its recorded 60 Hz path alone (R17, D19).

An independent measure for checking game records (`engine/scan.py`): it reads the rules text and the record
format, not the rules code. A sample is *rolling on the board* when the die's lowest corner, for a cube of
the rules' die size at the sample's centre and orientation, lies within `ROLLING_HEIGHT` of a surface under
it (the board's top at z = 0, or the top of raised land); otherwise the die is in flight or off the board.
Between two consecutive rolling samples the die's centre is taken to run straight from one to the other,
and the length of that run over the map's land is what it rolled over land. A die only runs aground by
crossing a coast (D19), so the land its centre lay on when the throw began does not count until its centre
has left that land.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from physics import DiePath
from somaliland.map.model import Map

ROLLING_HEIGHT = 0.003  # m: a lowest corner this close to the surface under it touches the board (D19's "rolling")


@dataclass(frozen=True, slots=True)
class LandRoll:
    """What one die's path did over land in one throw (D19).

    `over_land`: metres its centre rolled over land (flight and the land it started on excluded);
    `entered`: where its rolling path first came over land that counts, and `time` (s after release);
    `lands`: the names of the lands it rolled over; `rolling`: how many of its `samples` were rolling.
    """

    ship: str
    over_land: float
    entered: tuple[float, float] | None
    time: float | None
    lands: tuple[str, ...]
    rolling: int
    samples: int


def lowest_corners(positions: np.ndarray, orientations: np.ndarray, edge: float) -> np.ndarray:
    """Return the lowest corner (n, 3) of a cube of this edge at each centre (n, 3) and orientation (n, 4: xyzw).

    Raises:
        ValueError: an orientation of zero length (no rotation at all); names the sample.
    """
    from scipy.spatial.transform import Rotation

    empty = np.flatnonzero(np.linalg.norm(orientations, axis=1) < 1e-9)
    if len(empty):
        raise ValueError(f"sample {empty[0]}'s orientation has zero length: expected a rotation [x, y, z, w]")

    turns = Rotation.from_quat(orientations).as_matrix()  # (n, 3, 3), body axes as columns
    signs = -np.sign(turns[:, 2, :])  # each body axis's end that points down
    signs[signs == 0] = 1.0
    return positions + (edge / 2) * np.einsum("nij,nj->ni", turns, signs)


def rolling_mask(positions: np.ndarray, orientations: np.ndarray, edge: float, world: Map) -> np.ndarray:
    """Return, per sample, whether the die touches the board (or raised land on it) within `ROLLING_HEIGHT`."""
    corner = lowest_corners(positions, orientations, edge)
    cx, cy, cz = corner[:, 0], corner[:, 1], corner[:, 2]
    on_board = (cx >= 0) & (cx <= world.width) & (cy >= 0) & (cy <= world.depth)
    near = on_board & (np.abs(cz) <= ROLLING_HEIGHT)
    for land in world.lands:
        if land.relief > 0:  # raised land is a surface of its own, under the corner or under the centre
            under = (shapely.intersects_xy(land.polygon, cx, cy)
                     | shapely.intersects_xy(land.polygon, positions[:, 0], positions[:, 1]))
            near |= under & (np.abs(cz - land.relief) <= ROLLING_HEIGHT)
    return near


def land_roll(path: DiePath, world: Map, edge: float) -> LandRoll:
    """Return how far the die of this path rolled over land (R17, D19), for a cube of edge `edge` metres."""
    positions = np.asarray(path.positions, dtype=float).reshape(-1, 3)
    orientations = np.asarray(path.orientations, dtype=float).reshape(-1, 4)
    times = np.asarray(path.times, dtype=float)
    rolling = rolling_mask(positions, orientations, edge, world)
    counted = _counted_land(positions[:, :2], world)
    starts = np.flatnonzero(rolling[:-1] & rolling[1:])
    total, entered, when, names = 0.0, None, None, set()
    if len(starts):
        segments = shapely.linestrings(np.stack([positions[starts, :2], positions[starts + 1, :2]], axis=1))
        shapely.prepare(world.land)
        near = shapely.intersects(segments, world.land)  # the counted land lies within it: a quick first sieve
        for i, segment in zip(starts[near], segments[near]):
            over = shapely.intersection(segment, counted[i])
            if over.length <= 0:
                continue
            total += over.length
            names.update(lw.name for lw in world.lands if shapely.intersects(over, lw.polygon))
            if entered is None:
                entered, when = _entry(segment, over, times[i], times[i + 1])
    return LandRoll(path.name, total, entered, when, tuple(sorted(names)), int(rolling.sum()), len(times))


def _counted_land(xy: np.ndarray, world: Map) -> list[BaseGeometry]:
    """Return, per segment start, the land that counts: all of it once the centre has left the land it lay on."""
    land = world.land
    start = next((lw.polygon for lw in world.lands if lw.polygon.covers(shapely.Point(xy[0]))), None)
    if start is None:
        return [land] * len(xy)
    on_start = shapely.intersects_xy(start, xy[:, 0], xy[:, 1])
    first_out = int(np.argmin(on_start)) if not on_start.all() else len(xy)
    rest = land.difference(start)
    return [rest if i + 1 <= first_out else land for i in range(len(xy))]


def _entry(segment: BaseGeometry, over: BaseGeometry, t0: float, t1: float) -> tuple[tuple[float, float], float]:
    """Return the point of `over` (a part of `segment`) nearest the segment's start, and its interpolated time."""
    points = shapely.get_coordinates(over)
    along = shapely.line_locate_point(segment, shapely.points(points))
    k = int(np.argmin(along))
    share = along[k] / segment.length if segment.length > 0 else 0.0
    return (float(points[k, 0]), float(points[k, 1])), float(t0 + share * (t1 - t0))
