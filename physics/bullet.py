"""The PyBullet roller: checks a roll's input, runs it in a world, and reports plain data.

What each part knows: physics/checks.py the input a roll may be given; physics/world.py Bullet's worlds (building
one, adding a die, the world a game's rolls may share); physics/stepping.py one roll's stepping loop; and
physics/outcome.py what a finished roll leaves. By default (`SimSettings.world = "per_game"`) the rolls of a game on
its board share one world (`BulletRoller.new_game`), which saves building it for every roll; rolls on another board
or materials, and rolls outside a game, get a fresh world of their own (on a second physics server beside a kept
one). With `world = "per_roll"` every roll builds a fresh world.
"""

from __future__ import annotations

from physics.board import Board
from physics.checks import check_roll
from physics.materials import Materials
from physics.outcome import roll_result
from physics.result import RollResult
from physics.scene import Scene
from physics.settings import SimSettings
from physics.stepping import Roll
from physics.throw import Throw
from physics.world import KeptWorld, bullet_client, connect, disconnect


class BulletRoller:
    """Rolls dice with PyBullet in its own headless physics server."""

    def __init__(self, settings: SimSettings | None = None) -> None:
        self.settings = settings or SimSettings()
        self._p = connect()
        self._side: bullet_client.BulletClient | None = None  # fresh worlds beside a kept one
        self._kept: KeptWorld | None = None

    def new_game(self, board: Board | None, materials: Materials | None = None) -> None:
        """Begin a game on this board: with `settings.world == "per_game"` (the default) its rolls from now on share
        one world, built fresh by the first of them; rolls on any other board or materials get fresh worlds of
        their own and leave it alone. Per roll this does nothing. None ends the game: rolls from now on get a
        fresh world each, as on a roller never begun for a game."""
        self._kept = KeptWorld(board, materials or Materials()) if self.settings.shares_world and board else None

    def close(self) -> None:
        """Disconnect from the physics servers."""
        for client in (self._p, self._side):
            if client is not None:
                disconnect(client)
        self._p = self._side = None
        self._kept = None

    def __enter__(self) -> "BulletRoller":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def roll(self, scene: Scene, throw: Throw) -> RollResult:
        """Simulate one throw in the scene until every die is still or the time cap is hit.

        Raises:
            PhysicsInputError: the thrown die is not in the scene, the origin is off the board, or a
                resting die lies below the board surface or overlaps another.
            PhysicsError: the simulation diverged.
        """
        thrown = check_roll(scene, throw)
        kept = self._kept
        if kept is None:
            return _run(Roll(self._p, self.settings, scene, thrown, throw))
        if not kept.fits(scene):
            if self._side is None:
                self._side = connect()
            return _run(Roll(self._side, self.settings, scene, thrown, throw))
        try:
            roll = Roll(self._p, self.settings, scene, thrown, throw, kept)
            result = _run(roll)
            roll.remove_dice()
        except BaseException:
            kept.built = False  # in an unknown state: the game's next roll builds it anew
            raise
        return result


def _run(roll: Roll) -> RollResult:
    return roll_result(roll, roll.run())
