"""Friction and restitution of die-board and die-die contacts, mapped onto Bullet's per-body values.

Bullet combines two touching bodies' coefficients by multiplying them, so a die's own coefficient is the
square root of the die-die value and the board's is the die-board value divided by the die's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from physics.errors import check_finite


@dataclass(frozen=True, slots=True)
class Materials:
    """Coefficients of the two kinds of contact: die on board (and table), die on die."""

    die_board_friction: float = 0.35
    die_board_restitution: float = 0.4
    die_die_friction: float = 0.3
    die_die_restitution: float = 0.5

    def __post_init__(self) -> None:
        check_finite("die-board friction", self.die_board_friction, 0.0, 2.0)
        check_finite("die-die friction", self.die_die_friction, 1e-6, 2.0)
        check_finite("die-board restitution", self.die_board_restitution, 0.0, 1.0)
        check_finite("die-die restitution", self.die_die_restitution, 1e-6, 1.0)

    @property
    def die_friction(self) -> float:
        """Return the die body's own friction coefficient."""
        return math.sqrt(self.die_die_friction)

    @property
    def die_restitution(self) -> float:
        """Return the die body's own restitution coefficient."""
        return math.sqrt(self.die_die_restitution)

    @property
    def board_friction(self) -> float:
        """Return the board body's friction coefficient."""
        return self.die_board_friction / self.die_friction

    @property
    def board_restitution(self) -> float:
        """Return the board body's restitution coefficient."""
        return self.die_board_restitution / self.die_restitution
