"""A roll's result: plain frozen data, no engine handles."""

from __future__ import annotations

from dataclasses import dataclass

from physics.dice import Quaternion

Vec3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class DieRest:
    """Where a die that moved came to rest and what it shows."""

    name: str
    position: Vec3
    orientation: Quaternion
    face_index: int  # 0..5 in the order +x, -x, +y, -y, +z, -z
    face_value: int
    tilt_deg: float  # the up face's tilt from horizontal
    cocked: bool  # resting tilted, e.g. leaning on another die


@dataclass(frozen=True, slots=True)
class DiePath:
    """A die's pose sampled at the path rate: times in s, centre positions, orientations (x, y, z, w)."""

    name: str
    times: tuple[float, ...]
    positions: tuple[Vec3, ...]
    orientations: tuple[Quaternion, ...]


@dataclass(frozen=True, slots=True)
class Contact:
    """Two dice touching from `start` to `end` seconds after release (one entry per touch)."""

    a: str
    b: str
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class TipOver:
    """A die that was not thrown but whose face up changed."""

    name: str
    face_before: int
    face_after: int
    value_before: int
    value_after: int


@dataclass(frozen=True, slots=True)
class OffBoard:
    """A die whose centre ended off the board: on the table around it, or fallen off the table."""

    name: str
    position: Vec3
    fell_off_table: bool


@dataclass(frozen=True, slots=True)
class RollResult:
    """Everything a roll did."""

    thrown: DieRest
    moved: tuple[DieRest, ...]  # every die whose pose changed, the thrown one first
    paths: tuple[DiePath, ...]  # every die that moved, the thrown one first
    contacts: tuple[Contact, ...]
    tipovers: tuple[TipOver, ...]
    off_board: tuple[OffBoard, ...]
    settle_time: float
    steps: int
    cap_hit: bool

    @property
    def path(self) -> DiePath:
        """Return the thrown die's path."""
        return self.paths[0]

    def rest(self, name: str) -> DieRest | None:
        """Return the rest of the named die if it moved, else None."""
        return next((r for r in self.moved if r.name == name), None)
