"""Checks on the poses a roll is given and leaves: a throw's origin on the board, resting dice above the board and
apart, a resting die not sunk into the board. No physics engine."""

from __future__ import annotations

import numpy as np

from physics.board import Board
from physics.dice import DieSpec, Quaternion, lowest_point_offset
from physics.errors import PhysicsInputError
from physics.scene import PlacedDie, Scene
from physics.throw import Throw

BELOW_BOARD_TOLERANCE = 1e-3  # m
# m: resting dice may interpenetrate this much: Bullet's own solver leaves dice that came to rest
# pressed together up to a fraction of a millimetre apart (0.14 mm seen in a random-action env game)
OVERLAP_TOLERANCE = 1e-3


def check_roll(scene: Scene, throw: Throw) -> PlacedDie:
    """Return the thrown die after checking the throw and the scene's resting dice.

    Raises:
        PhysicsInputError: the thrown die is not in the scene, the origin is off the board, or a resting die
            lies below the board surface or overlaps another.
    """
    thrown = scene.die(throw.die)
    board = scene.board
    if not board.contains(*throw.origin):
        raise PhysicsInputError("throw origin", throw.origin,
                                f"a point on the board: x in [0, {board.width:g}], y in [0, {board.depth:g}] m")
    _check_resting([d for d in scene.dice if d is not thrown], board)
    return thrown


def below_board(board: Board, spec: DieSpec, position, orientation: Quaternion) -> bool:
    """Return True if a die lies wholly over the board yet its lowest point is more than 1 mm under its top.

    A die straddling the board's edge (tipped over it onto the table, its centre still above the
    board) reaches below the top legitimately, so only dice whose bounding sphere lies inside the
    edges are judged. Relief only raises the floor, so the board's top is the floor to hold.
    """
    x, y, z = position
    r = spec.bounding_radius
    inside = r <= x <= board.width - r and r <= y <= board.depth - r
    return inside and z - lowest_point_offset(spec, orientation) < -BELOW_BOARD_TOLERANCE


def _check_resting(dice: list[PlacedDie], board: Board) -> None:
    """Raise PhysicsInputError if a resting die lies below the board or two resting dice overlap.

    Below the board is judged as `below_board` judges a roll's result: only for dice wholly over the
    board, since a die resting across its edge (as a roll may leave one) legitimately reaches below its top.
    """
    if not dice:
        return
    centres = np.array([d.pose.position for d in dice])
    x, y, z, w = np.array([d.pose.orientation for d in dice]).T
    # the bottom row of each rotation matrix: how far each half extent reaches downwards
    bottom = np.abs(np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=1))
    lowest = centres[:, 2] - (bottom * np.array([d.spec.half_extents for d in dice])).sum(axis=1)
    r = np.array([d.spec.bounding_radius for d in dice])
    inside = (centres[:, 0] >= r) & (centres[:, 0] <= board.width - r) & (centres[:, 1] >= r) & (
        centres[:, 1] <= board.depth - r)
    sunk = np.flatnonzero(inside & (lowest < -BELOW_BOARD_TOLERANCE))
    if sunk.size:
        d = dice[int(sunk[0])]
        raise PhysicsInputError(f"pose of die {d.name!r}", d.pose.position,
                                "a die resting on or above the board surface (z = 0)")
    inner = np.array([min(d.spec.half_extents) for d in dice])
    gaps = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2) - inner[:, None] - inner[None, :]
    np.fill_diagonal(gaps, np.inf)
    if gaps.min() < -OVERLAP_TOLERANCE:
        i, j = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
        raise PhysicsInputError(f"poses of dice {dice[i].name!r} and {dice[j].name!r}",
                                (dice[i].pose.position, dice[j].pose.position), "dice that do not overlap")
