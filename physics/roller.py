"""The small interface every dice roller offers, and the factory for the PyBullet one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
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
    every cache key built on a roller's rolls. `new_game` is called as a game begins; a roller whose settings
    share a world across a game's rolls starts that world anew, any other roller does nothing.
    """

    settings: SimSettings

    def new_game(self, board: Board, materials: Materials | None = None) -> None:
        """Begin a game on this board (see `SimSettings.world`)."""
        ...

    def roll(self, scene: Scene, throw: Throw) -> RollResult:
        """Simulate the throw in the scene."""
        ...

    def close(self) -> None:
        """Release the roller's resources."""
        ...


def make_roller(settings: SimSettings | None = None) -> Roller:
    """Return the roller the settings ask for: PyBullet's, or with `fidelity = "fast"` the library roller that
    falls back on it (pybullet is imported only here, on first use)."""
    if settings is not None and settings.fidelity == "fast":
        from physics.fast import FastRoller

        return FastRoller(settings)
    from physics.bullet import BulletRoller

    return BulletRoller(settings)


def simulates(roller: Roller) -> bool:
    """Return True for this package's own rollers (PyBullet's, or the fast one that falls back on it), False for
    a stand-in (a test's counting or scripted roller), whose rolls must not be kept or stand in for real ones."""
    from physics.bullet import BulletRoller
    from physics.fast import FastRoller

    return isinstance(roller, (BulletRoller, FastRoller))


@contextmanager
def private_roller(roller: Roller) -> Iterator[Roller]:
    """Yield a roller for rolls that are not a game's (practice, surveys): this one, or a new one of its settings
    if its rolls share a world across a game (such rolls must not enter the game's world, whatever their board)."""
    if not roller.settings.shares_world:
        yield roller
        return
    with make_roller(roller.settings) as own:
        yield own


def practice_settings(settings: SimSettings) -> SimSettings:
    """Return the settings practice rolls are made with: the game's, at full physics whatever its fidelity."""
    return settings if settings.fidelity == "full" else replace(settings, fidelity="full")


@contextmanager
def practice_roller(roller: Roller) -> Iterator[Roller]:
    """Yield a roller for a player's practice (its calibration and its survey of the map): `private_roller`'s, at
    full physics whatever the game's fidelity.

    A player's survey is one sample of voyages that every game of a process then plans by, and ev's route choice
    follows it closely (a few convoys more or fewer arriving moved the Gulf's share of contracts by 15 points):
    surveyed at full physics, games at the fast fidelity plan exactly as full-physics games do, so the two
    fidelities differ only in the games' own rolls. It costs nothing per game: a survey is sailed once per process.
    """
    if roller.settings.fidelity == "full":
        with private_roller(roller) as own:
            yield own
        return
    with make_roller(practice_settings(roller.settings)) as own:
        yield own
