"""Accidents a roll can cause: grounding (R17, D11), collisions and sinking (R18, D12), leaving the board (R19, D13).

Each function reads a pose or a roll result and decides; none changes the state (see `roll.apply_roll`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely import Point, Polygon, box
from shapely.ops import nearest_points

from physics import Pose, RollResult, TipOver, portable
from physics.dice import FACE_AXES, face_down, rotation_matrix
from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig

CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)


def bottom_face_centre(pose: Pose, size: float) -> tuple[float, float]:
    """Return the board-plane point under the centre of the die's bottom face (D11)."""
    rot = rotation_matrix(pose.orientation)
    centre = np.array(pose.position) + portable.matvec(rot, FACE_AXES[face_down(pose.orientation)] * size / 2)
    return float(centre[0]), float(centre[1])


def footprint(pose: Pose, size: float) -> Polygon:
    """Return the die's shadow on the board plane: the hull of its eight corners seen from above (D11, R20)."""
    corners = np.array(pose.position) + portable.matvec(rotation_matrix(pose.orientation), CORNERS * size / 2)
    return shapely.multipoints(corners[:, :2]).convex_hull  # made from the array: a tenth of MultiPoint's cost


def is_aground(pose: Pose, world: Map, config: RulesConfig) -> bool:
    """Return True if a die resting in this pose is on land (R17, D11: bottom-face centre, or any footprint)."""
    if config.grounding == "footprint":
        return bool(world.land.intersects(footprint(pose, config.die_size)))
    return world.is_land(*bottom_face_centre(pose, config.die_size))


def touching(a: Pose, b: Pose, config: RulesConfig) -> bool:
    """Return True if two resting dice touch, within the touch tolerance (R20)."""
    return footprint(a, config.die_size).distance(footprint(b, config.die_size)) <= config.touch_tolerance


@dataclass(frozen=True, slots=True)
class Crash:
    """What a roll's contacts and tip-overs mean under R18/D12."""

    pairs: tuple[tuple[str, str], ...]  # touching pairs of ships, each once, in order of first touch
    tipped: tuple[TipOver, ...]  # tip-overs that count (D12)
    sunk: bool  # the thrown ship sinks
    losers: tuple[str, ...]  # ships that lose a turn


def tip_counts(tip: TipOver, config: RulesConfig) -> bool:
    """Return True if a die's change of face counts as tipping over (D12: top face, or top value)."""
    if config.tipped_over == "top_face":
        return tip.face_after != tip.face_before
    return tip.value_after != tip.value_before


def crash(roll: RollResult, config: RulesConfig) -> Crash:
    """Return the collisions a roll caused, whether the thrown ship sinks and who loses a turn (R18, D12).

    The thrown ship caused every touch of its roll. It sinks if any other die tipped over; every other
    ship that touched loses a turn, and the thrown one too (D12) unless it sank.
    """
    moved = {r.name for r in roll.moved}
    pairs: list[tuple[str, str]] = []
    for c in roll.contacts:
        pair = tuple(sorted((c.a, c.b)))
        if c.a != c.b and pair not in pairs and (c.a in moved or c.b in moved):
            pairs.append(pair)  # type: ignore[arg-type]
    tipped = tuple(t for t in roll.tipovers if t.name != roll.thrown.name and tip_counts(t, config))
    causer = roll.thrown.name
    sunk = bool(tipped)
    touched = {name for pair in pairs for name in pair}
    losers = sorted(touched - {causer})
    if causer in touched and not sunk and config.collision_both_lose_turn:
        losers.append(causer)
    return Crash(tuple(pairs), tipped, sunk, tuple(losers))


@lru_cache(maxsize=16)
def sea(world: Map, size: float) -> Polygon:
    """Return where a die fits on the board's sea: inside the edges and off land by half a die (D13).

    Cached: the map is frozen, and buffering its coasts is the costliest geometry in a game.
    """
    h = size / 2
    area = box(h, h, world.width - h, world.depth - h).difference(world.land.buffer(h))
    return area if not area.is_empty else box(0, 0, world.width, world.depth).difference(world.land)


@lru_cache(maxsize=16)
def replacement_area(world: Map, config: RulesConfig) -> Polygon:
    """Return where a ship that left the board may be put back: the sea, or the whole board (R19, D13)."""
    h = config.die_size / 2
    return sea(world, config.die_size) if config.off_board == "nearest_sea" else box(h, h, world.width - h,
                                                                                    world.depth - h)


@lru_cache(maxsize=16)
def replacement_room(world: Map, config: RulesConfig) -> Polygon:
    """Return the replacement area grown by 0.1 um, so points on its edge count as inside (R19, D13)."""
    return replacement_area(world, config).buffer(1e-7)


def replacement_point(rest: tuple[float, float], start: tuple[float, float], world: Map,
                      config: RulesConfig) -> tuple[float, float]:
    """Return where a ship that left the board comes back, before making room for other dice (R19, D13)."""
    if config.off_board == "move_start":
        return start
    target = replacement_area(world, config)
    if target.covers(Point(rest)):
        return rest
    p = nearest_points(target, Point(rest))[0]
    return p.x, p.y
