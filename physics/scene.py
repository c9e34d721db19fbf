"""What lies on the board before a roll: the board, the materials and every die with its pose."""

from __future__ import annotations

from dataclasses import dataclass, field

from physics.board import Board
from physics.dice import IDENTITY, DieSpec, Quaternion, resting_orientation
from physics.errors import PhysicsInputError, check_vector
from physics.materials import Materials

Vec3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Pose:
    """A die's centre (metres; the board's top surface is z = 0) and orientation (x, y, z, w)."""

    position: Vec3
    orientation: Quaternion = IDENTITY

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", check_vector("position", self.position, 3, -100.0, 100.0, unit=" m"))
        q = check_vector("orientation", self.orientation, 4, -1.0001, 1.0001)
        norm = sum(c * c for c in q) ** 0.5
        if not 0.99 <= norm <= 1.01:
            raise PhysicsInputError("orientation", self.orientation, "a unit quaternion (x, y, z, w)")
        object.__setattr__(self, "orientation", tuple(c / norm for c in q))

    @classmethod
    def resting(cls, spec: DieSpec, x: float, y: float, face_up: int = 4, yaw: float = 0.0,
                ground: float = 0.0) -> "Pose":
        """Return the pose of a die lying flat at (x, y) with the given face up, on a surface at `ground`."""
        q = resting_orientation(face_up, yaw)
        half_height = spec.size[face_up // 2] / 2
        return cls((float(x), float(y), ground + half_height), q)


@dataclass(frozen=True, slots=True)
class PlacedDie:
    """A named die and where it lies."""

    name: str
    spec: DieSpec
    pose: Pose


@dataclass(frozen=True, slots=True)
class Scene:
    """The board, the materials and the dice on or around it."""

    board: Board = field(default_factory=Board)
    dice: tuple[PlacedDie, ...] = ()
    materials: Materials = field(default_factory=Materials)

    def __post_init__(self) -> None:
        names = [d.name for d in self.dice]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise PhysicsInputError("die names", dup, "unique names")

    def die(self, name: str) -> PlacedDie:
        """Return the die with this name."""
        for d in self.dice:
            if d.name == name:
                return d
        raise PhysicsInputError("die", name, f"one of {[d.name for d in self.dice]}")

    def with_die(self, die: PlacedDie) -> "Scene":
        """Return a scene with this die added, or replaced if one of that name exists."""
        rest = tuple(d for d in self.dice if d.name != die.name)
        return Scene(self.board, rest + (die,), self.materials)

