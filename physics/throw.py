"""A throw: how a hand releases one die. Deterministic given its numbers; imprecision is the caller's."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from physics.dice import Quaternion
from physics.errors import PhysicsInputError, check_finite, check_vector

MAX_SPEED = 10.0  # m/s: far beyond any hand throw across a table
MAX_SPIN = 300.0  # rad/s
MAX_RELEASE = 0.5  # m


_PUSHES = {"roll": 0, "quarter": 1, "half": 2}  # quarter turns a style makes


class Style(enum.Enum):
    """How the die leaves the hand: a free roll, or a gentle push turning it a quarter or half turn."""

    ROLL = "roll"
    QUARTER = "quarter"
    HALF = "half"

    @property
    def pushes(self) -> int:
        """Return how many quarter turns a push style makes (0 for a roll)."""
        return _PUSHES[self.value]


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of the named die.

    A roll releases the die's centre `release_height` metres above its lowest point touching height
    (so the die clears the board), at `origin` (x, y in metres), moving at `speed` m/s along `heading`
    (radians, counter-clockwise from east) and spinning at `spin` (rad/s, world axes). `orientation`
    overrides the die's current orientation at release.

    A push (quarter or half) leaves the die on the board at `origin`, squares it onto the face nearest
    `heading`, and tips it over its leading bottom edge once (quarter) or twice (half); speed, spin and
    release height are not used.
    """

    die: str
    origin: tuple[float, float]
    heading: float = 0.0
    speed: float = 1.0
    spin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    release_height: float = 0.01
    orientation: Quaternion | None = None
    style: Style = Style.ROLL

    def __post_init__(self) -> None:
        if not isinstance(self.die, str) or not self.die:
            raise PhysicsInputError("thrown die", self.die, "the name of a die in the scene")
        object.__setattr__(self, "origin", check_vector("throw origin", self.origin, 2, -100.0, 100.0, unit=" m"))
        object.__setattr__(self, "heading", check_finite("heading", self.heading, -100 * math.pi, 100 * math.pi,
                                                         unit=" rad"))
        object.__setattr__(self, "speed", check_finite("speed", self.speed, 0.0, MAX_SPEED, unit=" m/s"))
        object.__setattr__(self, "spin", check_vector("spin", self.spin, 3, -MAX_SPIN, MAX_SPIN, unit=" rad/s"))
        object.__setattr__(self, "release_height",
                           check_finite("release height", self.release_height, 0.0, MAX_RELEASE, unit=" m"))
        if not isinstance(self.style, Style):
            try:
                object.__setattr__(self, "style", Style(self.style))
            except ValueError:
                raise PhysicsInputError("style", self.style, f"one of {[s.value for s in Style]}") from None
        if self.orientation is not None:
            q = check_vector("orientation", self.orientation, 4, -1.0001, 1.0001)
            n = math.sqrt(sum(c * c for c in q))
            if not 0.99 <= n <= 1.01:
                raise PhysicsInputError("orientation", self.orientation, "a unit quaternion (x, y, z, w)")
            object.__setattr__(self, "orientation", tuple(c / n for c in q))
