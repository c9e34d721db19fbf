"""Checks on the poses a roll is given and leaves: a throw's origin on the board, resting dice above the board and
apart, a resting die not sunk into the board. No physics engine."""

from __future__ import annotations

import math

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
    cx, cy, cz = position
    r = spec.bounding_radius
    if not (r <= cx <= board.width - r and r <= cy <= board.depth - r):
        return False
    return cz - lowest_point_offset(spec, orientation) < -BELOW_BOARD_TOLERANCE


def _check_resting(dice: list[PlacedDie], board: Board) -> None:
    """Raise PhysicsInputError if a resting die lies below the board or two resting dice overlap.

    Below the board is judged as `below_board` judges a roll's result: only for dice wholly over the
    board, since a die resting across its edge (as a roll may leave one) legitimately reaches below its top.
    Dice overlap when their centres are nearer than the sum of their inscribed spheres' radii (less the
    tolerance); the pair that overlaps most is named. Plain Python: every roll checks every resting die, a scene
    holds a few dozen, and numpy's cost per call would dominate.
    """
    for d in dice:
        if below_board(board, d.spec, d.pose.position, d.pose.orientation):
            raise PhysicsInputError(f"pose of die {d.name!r}", d.pose.position,
                                    "a die resting on or above the board surface (z = 0)")
    inner = [min(d.spec.half_extents) for d in dice]
    reach = 2 * max(inner, default=0.0)  # no pair further apart along x than this can overlap
    order = sorted(range(len(dice)), key=lambda i: dice[i].pose.position[0])
    worst = None
    for k, i in enumerate(order):
        pi = dice[i].pose.position
        for j in order[k + 1:]:
            pj = dice[j].pose.position
            if pj[0] - pi[0] > reach:
                break
            gap = math.dist(pi, pj) - inner[i] - inner[j]
            if gap < -OVERLAP_TOLERANCE:
                candidate = (gap, min(i, j), max(i, j))
                worst = candidate if worst is None else min(worst, candidate)
    if worst is not None:
        _, i, j = worst
        raise PhysicsInputError(f"poses of dice {dice[i].name!r} and {dice[j].name!r}",
                                (dice[i].pose.position, dice[j].pose.position), "dice that do not overlap")
