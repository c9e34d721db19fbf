"""Ships: the six dice each player owns, their face layouts and displacements (R2, D1)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from physics import DieSpec

COLOURS = ("red", "green", "yellow", "blue")  # R1: the player colours, in seat order


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """One ship of a fleet: a short name and six face values in opposite pairs (+x, -x, +y, -y, +z, -z)."""

    name: str
    faces: tuple[int, int, int, int, int, int]

    @property
    def displacement(self) -> int:
        """Return the ship's displacement: its total number of pips (R2)."""
        return sum(self.faces)


DEFAULT_FLEET: tuple[ShipSpec, ...] = (  # D1: two 6s, an 8, a 12, an 18 and a 24 (total 74, R2)
    ShipSpec("6a", (1, 1, 1, 1, 1, 1)),
    ShipSpec("6b", (1, 1, 1, 1, 1, 1)),
    ShipSpec("8", (1, 1, 1, 1, 2, 2)),
    ShipSpec("12", (2, 2, 2, 2, 2, 2)),
    ShipSpec("18", (3, 3, 3, 3, 3, 3)),
    ShipSpec("24", (4, 4, 4, 4, 4, 4)),
)


def ship_id(seat: int, spec: ShipSpec) -> str:
    """Return the name of a player's ship, which is also its die's name in the physics scene (R1, R2)."""
    return f"{COLOURS[seat]}-{spec.name}"


def fleet_displacement(fleet: tuple[ShipSpec, ...]) -> int:
    """Return the total displacement of a fleet (R2, R6)."""
    return sum(s.displacement for s in fleet)


@lru_cache(maxsize=256)  # called for every die of every scene; a DieSpec is frozen, so one serves all
def die_spec(spec: ShipSpec, size: float, mass: float) -> DieSpec:
    """Return the physics die of a ship: its faces, a cube of `size` metres and `mass` kg (D1)."""
    return DieSpec(faces=spec.faces, size=(size, size, size), mass=mass)
