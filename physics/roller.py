"""The small interface every dice roller offers, and the factory for the PyBullet one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from physics.board import Board
from physics.materials import Materials
from physics.result import RollResult
from physics.scene import Scene
from physics.settings import SimSettings
from physics.throw import Throw


class Roller(Protocol):
    """Anything that turns a scene and a throw into a roll result.

    `settings` say how rolls are simulated, including the world policy (`SimSettings.world`): they are part of
    every cache key built on a roller's rolls. `new_game` is called as a game begins, and with None once it is played out; a
    roller whose settings share a world across a game's rolls starts that world anew (or, with None, rolls each
    roll in a fresh world again), any other roller does nothing.
    """

    settings: SimSettings

    def new_game(self, board: Board | None, materials: Materials | None = None) -> None:
        """Begin a game on this board, or end it with None (see `SimSettings.world`)."""
        ...

    def roll(self, scene: Scene, throw: Throw) -> RollResult:
        """Simulate the throw in the scene."""
        ...

    def close(self) -> None:
        """Release the roller's resources."""
        ...


def make_roller(settings: SimSettings | None = None) -> Roller:
    """Return PyBullet's roller of these settings (pybullet is imported only here, on first use)."""
    from physics.bullet import BulletRoller

    return BulletRoller(settings)


def simulates(roller: Roller) -> bool:
    """Return True for this package's own roller (PyBullet's), False for a stand-in (a test's counting or scripted
    roller), whose rolls must not be kept or stand in for real ones."""
    from physics.bullet import BulletRoller

    return isinstance(roller, BulletRoller)


@contextmanager
def private_roller(roller: Roller) -> Iterator[Roller]:
    """Yield a roller for rolls that are not a game's (practice, surveys): this one, or a new one of its settings
    if its rolls share a world across a game (such rolls must not enter the game's world, whatever their board)."""
    if not roller.settings.shares_world:
        yield roller
        return
    with make_roller(roller.settings) as own:
        yield own
