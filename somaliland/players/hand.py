"""The hand: a player's throw skill turns the intended throw into the actual one (human imprecision).

Physics is deterministic given a throw; the spread lives here, as in computer curling: heading and
speed scatter around what the player meant, by the player's skill.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from physics import Style, Throw
from somaliland.errors import UsageError


@dataclass(frozen=True, slots=True)
class ThrowSkill:
    """How far a player's hand strays: heading spread (degrees, sd) and relative speed spread (sd)."""

    heading_sd_deg: float = 5.0
    speed_sd: float = 0.10

    def __post_init__(self) -> None:
        for name, value, hi in (("heading_sd_deg", self.heading_sd_deg, 90.0), ("speed_sd", self.speed_sd, 1.0)):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= hi):
                raise UsageError(f"throw skill {name} = {value!r} is not allowed; expected a number in [0, {hi:g}]")

    @classmethod
    def level(cls, skill: float) -> "ThrowSkill":
        """Return the spread of a player of skill in [0, 1]: 0 clumsy (20 deg, 40%), 1 perfect (0, 0)."""
        if not (isinstance(skill, (int, float)) and math.isfinite(skill) and 0 <= skill <= 1):
            raise UsageError(f"throw skill = {skill!r} is not allowed; expected a number in [0, 1]")
        return cls(heading_sd_deg=20.0 * (1 - skill), speed_sd=0.4 * (1 - skill))


def execute(intended: Throw, skill: ThrowSkill, rng: np.random.Generator) -> Throw:
    """Return the throw the hand actually makes: heading and speed scattered by the skill.

    A push keeps its style (a quarter turn is a quarter turn) but its heading strays.
    """
    heading = intended.heading + math.radians(skill.heading_sd_deg) * float(rng.standard_normal())
    if intended.style is not Style.ROLL:
        return replace(intended, heading=heading)
    factor = math.exp(skill.speed_sd * float(rng.standard_normal()) - skill.speed_sd ** 2 / 2)
    return replace(intended, heading=heading, speed=min(intended.speed * factor, 9.9))
