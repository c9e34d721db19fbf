"""The small interface every dice roller offers, and the factory for the PyBullet one."""

from __future__ import annotations

from typing import Protocol

from physics.result import RollResult
from physics.scene import Scene
from physics.settings import SimSettings
from physics.throw import Throw


class Roller(Protocol):
    """Anything that turns a scene and a throw into a roll result.

    A roller may also offer `new_game(board, materials=None)`, called as a game begins: the PyBullet roller
    then lets that game's rolls share one world when its settings ask for it (`SimSettings.world`). Callers
    look it up with getattr, so a roller without it is still a Roller.
    """

    def roll(self, scene: Scene, throw: Throw) -> RollResult:
        """Simulate the throw in the scene."""
        ...

    def close(self) -> None:
        """Release the roller's resources."""
        ...


def make_roller(settings: SimSettings | None = None) -> Roller:
    """Return a PyBullet roller (pybullet is imported only here, on first use)."""
    from physics.bullet import BulletRoller

    return BulletRoller(settings)
