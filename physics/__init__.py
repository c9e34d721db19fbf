"""Dice physics for tabletop games: roll box dice with PyBullet over a board and report plain data.

Knows nothing of any game's rules. Units are SI: metres, kilograms, seconds, radians.
"""

from physics.board import Board, Prism, board_mesh
from physics.dice import FACE_NAMES, STANDARD_FACES, DieSpec, face_up, resting_orientation, tilt_deg
from physics.errors import PhysicsError, PhysicsInputError
from physics.materials import Materials
from physics.result import Contact, DiePath, DieRest, OffBoard, RollResult, TipOver
from physics.roller import Roller, make_roller, private_roller, simulates
from physics.scene import PlacedDie, Pose, Scene
from physics.settings import SimSettings
from physics.throw import Style, Throw

__all__ = [
    "FACE_NAMES", "STANDARD_FACES", "Board", "Contact", "DiePath", "DieRest", "DieSpec", "Materials",
    "OffBoard", "PhysicsError", "PhysicsInputError", "PlacedDie", "Pose", "Prism", "RollResult", "Roller",
    "Scene", "SimSettings", "Style", "Throw", "TipOver", "board_mesh", "face_up", "make_roller",
    "private_roller", "resting_orientation", "simulates", "tilt_deg",
]
