"""Bullet worlds: connecting to a headless physics server, building a world of board, table and relief, adding a
die's body, and the world a game's rolls may share. With `physics/view.py` (which only draws) the only module
that imports pybullet.

By default (`SimSettings.world = "per_game"`) a game's rolls share one world (`KeptWorld`), built once by its
game's first roll, each roll's dice added to it and taken out afterwards. A world kept between rolls, even with
every die removed last in first out, makes a roll's result depend on the rolls before it (2 throws in 300; all 6
games of `experiments/perf/world_reuse.py`): the broadphase keeps its pair clean-up cursor (which only
`resetSimulation` resets in pybullet), among other state; so a game is deterministic from its seed, not each roll
from its scene. With `world = "per_roll"` each roll builds a fresh world (Bullet is deterministic on a freshly
built world, and saved states do not survive sleeping: bullet3 issue #3993), so a roll's result depends on its
scene and throw alone, bit for bit, in any process; rolls outside a game are always rolled so.
"""

from __future__ import annotations

import atexit
import os
import weakref
from contextlib import contextmanager
from functools import partial

from physics.board import Board, prism_mesh
from physics.dice import DieSpec, Quaternion
from physics.materials import Materials
from physics.scene import Scene
from physics.settings import SimSettings
from physics.tipping import GRAVITY

TABLE_THICKNESS = 0.02


@contextmanager
def quiet_stdout():
    """Silence what Bullet's C code prints on import and connect ("pybullet build time", "argv[0]=")."""
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)


with quiet_stdout():
    import pybullet
    from pybullet_utils import bullet_client


class KeptWorld:
    """A Bullet world that a game's rolls share (`SimSettings.world == "per_game"`): what it was built for, the
    die shapes it holds, and whether it has been built yet."""

    def __init__(self, board: Board, materials: Materials) -> None:
        self.board, self.materials = board, materials
        self.shapes: dict[tuple[float, float, float], int] = {}
        self.built = False

    def fits(self, scene: Scene) -> bool:
        """Return True if a roll in this scene may use this world (the same board and materials)."""
        return (scene.board is self.board or scene.board == self.board) and scene.materials == self.materials


class StepClock:
    """CPU seconds spent in Bullet's `stepSimulation`, and the steps taken, while `step_clock` is on: what a
    benchmark reports as the physics floor of a game (nothing else of a roll counted).

    Each step is timed by a pair of `time.process_time` calls; what a pair costs around an empty call (`overhead`,
    measured when the clock starts, about 1 us a step here, a tenth of a step) is taken off `seconds`."""

    def __init__(self, overhead: float | None = None) -> None:
        self.timed_seconds = 0.0
        self.steps = 0
        self.overhead = self._overhead() if overhead is None else overhead

    @property
    def seconds(self) -> float:
        """Return the CPU seconds of the steps alone: the timed seconds less the timing's own cost."""
        return max(0.0, self.timed_seconds - self.steps * self.overhead)

    def timed(self, step):
        """Return `step` wrapped so each call adds its CPU time and one step."""
        import time

        clock = time.process_time

        def timed_step() -> None:
            t = clock()
            step()
            self.timed_seconds += clock() - t
            self.steps += 1

        return timed_step

    def _overhead(self, calls: int = 20000) -> float:
        """Return the CPU seconds the wrapper adds to a step: the median of five runs timing an empty call."""
        import statistics
        import time

        def nothing() -> None:
            pass

        runs = []
        for _ in range(5):
            probe = StepClock(overhead=0.0)
            wrapped = probe.timed(nothing)
            for _ in range(calls):
                wrapped()
            runs.append(probe.timed_seconds / calls)
        return statistics.median(runs)


_clock: StepClock | None = None


@contextmanager
def step_clock():
    """Time Bullet's steps in the rolls begun while this is on: yields the `StepClock`. The steps and their
    results are the same as without it. A clock started inside another stands in for it until it ends."""
    global _clock
    outer, _clock = _clock, StepClock()
    try:
        yield _clock
    finally:
        _clock = outer


class Calls:
    """pybullet's functions a roll's stepping loop calls thousands of times, for one client, to be called
    positionally with `client` last: `pose(uid, client)`, `velocity(uid, client)`, `contact_points(a, b, ALL_LINKS,
    ALL_LINKS, client)`, `set_velocity(uid, linear, angular, client)`, `remove(uid, client)`, and `step()`. Building
    a world and adding a die call pybullet with `physicsClientId=client`.

    BulletClient looks each function up by name on every call and wraps it in a `functools.partial` that merges
    that keyword into the call: 0.3-0.8 us of a 2-3.5 us call, 1.5-2 us more to look it up. These are the same
    functions with the same arguments, so the physics is the same, bit for bit.
    """

    ALL_LINKS = -2  # getContactPoints' default link index: every link

    def __init__(self, p: bullet_client.BulletClient) -> None:
        self.client: int = p._client  # the id BulletClient passes as physicsClientId
        self.step = partial(pybullet.stepSimulation, self.client)
        if _clock is not None:  # a benchmark asked for the physics floor (`step_clock`)
            self.step = _clock.timed(self.step)
        self.pose = pybullet.getBasePositionAndOrientation
        self.velocity = pybullet.getBaseVelocity
        self.contact_points = pybullet.getContactPoints
        self.set_velocity = pybullet.resetBaseVelocity  # (uid, linear, angular, client)
        self.remove = pybullet.removeBody  # (uid, client)


def connect() -> bullet_client.BulletClient:
    """Return a client of a new headless physics server."""
    with quiet_stdout():
        return opened(bullet_client.BulletClient(connection_mode=pybullet.DIRECT))


_OPEN: weakref.WeakSet = weakref.WeakSet()  # clients still connected, for `_disconnect_all` at exit


def opened(client: bullet_client.BulletClient) -> bullet_client.BulletClient:
    """Return `client`, noted to be disconnected at interpreter exit if nothing disconnects it before."""
    _OPEN.add(client)
    return client


def disconnect(client: bullet_client.BulletClient) -> None:
    """Disconnect a client from its physics server and mark it disconnected.

    `BulletClient.__del__` disconnects any client whose id is not -1; a client disconnected through its wrapper
    keeps its id, and one collected during interpreter shutdown, when `pybullet_utils`' module globals are gone,
    printed "Exception ignored in BulletClient.__del__ ... TypeError" at the end of a test run. Marked, a client
    is left alone by `__del__`."""
    _OPEN.discard(client)
    if client._client >= 0:
        client.disconnect()
        client._client = -1


@atexit.register
def _disconnect_all() -> None:
    """Disconnect, before the interpreter tears its modules down, every client this process opened and still
    holds (a roller cached per thread, a cycle not yet collected); a forked child leaves its parent's alone."""
    for client in list(_OPEN):
        if getattr(client, "_pid", os.getpid()) == os.getpid():
            try:
                disconnect(client)
            except pybullet.error:  # its server is already gone (a GUI window the user closed)
                client._client = -1


def build_world(calls: Calls, settings: SimSettings, b: Board, mat: Materials) -> None:
    """Build a fresh world in the client's server with the board, the table and any relief."""
    pb, client = pybullet, calls.client
    pb.resetSimulation(physicsClientId=client)
    pb.setGravity(0, 0, -GRAVITY, physicsClientId=client)
    # Split impulse for every penetration (Bullet's default threshold is -4 cm, far deeper than a
    # die ever sinks): penetration is then pushed out without adding velocity, which otherwise
    # makes bounces 10-16% higher than the restitution says (measured at 960 Hz).
    pb.setPhysicsEngineParameter(fixedTimeStep=settings.dt, numSubSteps=0, deterministicOverlappingPairs=1,
                                 numSolverIterations=settings.solver_iterations,
                                 splitImpulsePenetrationThreshold=0.0, physicsClientId=client)
    slab = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=[b.width / 2, b.depth / 2, b.thickness / 2],
                                   physicsClientId=client)
    m = b.table_margin
    table = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=[b.width / 2 + m, b.depth / 2 + m,
                                                              TABLE_THICKNESS / 2], physicsClientId=client)
    statics = [
        pb.createMultiBody(0, slab, basePosition=[b.width / 2, b.depth / 2, -b.thickness / 2],
                           useMaximalCoordinates=True, physicsClientId=client),
        pb.createMultiBody(0, table, basePosition=[b.width / 2, b.depth / 2, b.table_top - TABLE_THICKNESS / 2],
                           useMaximalCoordinates=True, physicsClientId=client),
    ]
    for prism in b.relief:
        if prism.height > 0:
            verts, tris = prism_mesh(prism)
            shape = pb.createCollisionShape(pb.GEOM_MESH, vertices=verts.tolist(), indices=tris.ravel().tolist(),
                                            flags=pb.GEOM_FORCE_CONCAVE_TRIMESH, physicsClientId=client)
            statics.append(pb.createMultiBody(0, shape, useMaximalCoordinates=True, physicsClientId=client))
    for uid in statics:
        pb.changeDynamics(uid, -1, lateralFriction=mat.board_friction, restitution=mat.board_restitution,
                          physicsClientId=client)


def add_die(calls: Calls, shapes: dict[tuple[float, float, float], int], spec: DieSpec, mat: Materials,
            settings: SimSettings, position, orientation: Quaternion, *, asleep: bool) -> int:
    """Add a die's body to the world and return its body id (`shapes` caches the world's box shapes by size)."""
    pb, client = pybullet, calls.client
    if spec.size not in shapes:
        shapes[spec.size] = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=list(spec.half_extents),
                                                    physicsClientId=client)
    uid = pb.createMultiBody(spec.mass, shapes[spec.size], basePosition=list(position),
                             baseOrientation=list(orientation), useMaximalCoordinates=True, physicsClientId=client)
    # a resting die sleeps until touched; its sleep threshold is so low that once woken it stays
    # awake for the rest of the roll (settling is decided by the stepping loop, not by Bullet)
    activation = pb.ACTIVATION_STATE_ENABLE_SLEEPING | (pb.ACTIVATION_STATE_SLEEP if asleep else 0)
    pb.changeDynamics(uid, -1, lateralFriction=mat.die_friction, restitution=mat.die_restitution,
                      linearDamping=0.0, angularDamping=0.0, sleepThreshold=settings.settle_speed,
                      activationState=activation, physicsClientId=client)
    return uid
