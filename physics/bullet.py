"""The PyBullet adapter: rolls one die through a scene and reports plain data. With `physics/view.py` (which
only draws) the only module that imports pybullet.

By default each roll builds a fresh world (Bullet is deterministic on a freshly built world, and saved states
do not survive sleeping: bullet3 issue #3993), so a roll's result depends on its scene and throw alone, bit
for bit, in any process. With `SimSettings.world = "per_game"` the rolls of a game on its board share one
world instead (`BulletRoller.new_game`), which saves building it; rolls on another board or materials still
get a fresh world of their own, on a second physics server. Resting dice enter the world asleep and only once a moving die could reach them
within the next path sample: a die far from the action costs nothing, and a die that could be touched is
always there before it is touched. Steps run in chunks of one path sample; while two dice are near each
other every step is checked for contacts, since Bullet reports only the last step's contacts.
"""

from __future__ import annotations

import math

import os
from contextlib import contextmanager

import numpy as np


def push_face_up(orientation: Quaternion, heading: float, quarters: int) -> int:
    """Return the face a push of `quarters` quarter turns along heading should leave up."""
    q = push_orientation(orientation, heading)
    normals = world_face_normals(q)
    if quarters % 2 == 0:
        return face_up(q) if quarters % 4 == 0 else face_down(q)
    ahead = np.array([math.cos(heading), math.sin(heading), 0.0])
    along = portable.dot(normals, ahead)
    behind, ahead_face = int(np.argmin(along)), int(np.argmax(along))
    return behind if quarters % 4 == 1 else ahead_face


def _gyration(spec: DieSpec) -> float:
    """Return sqrt(I_max / m): the centre speed per unit spin if all rotation turned into travel."""
    x, y, z = spec.size
    return math.sqrt(max(y * y + z * z, x * x + z * z, x * x + y * y) / 12)


@contextmanager
def _quiet_stdout():
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


with _quiet_stdout():
    import pybullet
    from pybullet_utils import bullet_client

from physics import portable
from physics.board import Board, prism_mesh
from physics.dice import (
    DieSpec,
    Quaternion,
    face_down,
    face_up,
    lowest_point_offset,
    quaternion_product,
    rotation_matrix,
    square_up,
    tilt_deg,
    world_face_normals,
)
from physics.errors import PhysicsError, PhysicsInputError
from physics.materials import Materials
from physics.result import Contact, DiePath, DieRest, OffBoard, RollResult, TipOver
from physics.scene import PlacedDie, Scene
from physics.settings import SimSettings
from physics.throw import Style, Throw

GRAVITY = 9.81
TABLE_THICKNESS = 0.02
MOVED_DISTANCE = 1e-4  # m: a die displaced less than this, ...
MOVED_ANGLE = math.radians(0.5)  # ... and turned less than this, did not move
BELOW_BOARD_TOLERANCE = 1e-3  # m
# m: resting dice may interpenetrate this much: Bullet's own solver leaves dice that came to rest
# pressed together up to a fraction of a millimetre apart (0.14 mm seen in a random-action env game)
OVERLAP_TOLERANCE = 1e-3


def critical_tip_rate(spec: DieSpec, orientation: Quaternion, heading: float) -> float:
    """Return the angular speed (rad/s) that just tips a resting die over its leading bottom edge.

    Energy: 1/2 I_edge w^2 = m g (|r| - h), r from the pivot edge to the centre, h the centre's height.
    """
    r, axis = _pivot_arm(spec, orientation, heading)
    arm2 = float(portable.dot(r, r) - portable.dot(r, axis) ** 2)  # squared distance of the centre from the axis
    inertia = _inertia_about(spec, orientation, axis) + spec.mass * arm2
    rise = portable.norm(r) - float(r[2])
    return math.sqrt(2 * spec.mass * GRAVITY * rise / inertia)


def _pivot_arm(spec: DieSpec, orientation: Quaternion, heading: float) -> tuple[np.ndarray, np.ndarray]:
    """Return (centre minus leading bottom edge, tipping axis) for a die tipped along heading."""
    rot = rotation_matrix(orientation)
    half = np.array(spec.half_extents)
    ahead = np.array([math.cos(heading), math.sin(heading), 0.0])
    forward = float(portable.dot(np.abs(portable.matvec(rot.T, ahead)), half))
    up = float(portable.dot(np.abs(rot[2, :]), half))
    return np.array([0.0, 0.0, up]) - forward * ahead, np.cross([0.0, 0.0, 1.0], ahead)


def _inertia_about(spec: DieSpec, orientation: Quaternion, axis: np.ndarray) -> float:
    """Return the die's moment of inertia about an axis through its centre."""
    x, y, z = spec.size
    body = spec.mass / 12 * np.diag([y * y + z * z, x * x + z * z, x * x + y * y])
    rot = rotation_matrix(orientation)
    local = portable.matvec(rot.T, axis)
    return float(portable.dot(local, portable.matvec(body, local)))


def push_velocities(spec: DieSpec, orientation: Quaternion, heading: float,
                    overdrive: float) -> tuple[np.ndarray, np.ndarray]:
    """Return (linear, angular) velocity that tips a resting die forward about its leading bottom edge."""
    r, axis = _pivot_arm(spec, orientation, heading)
    w = overdrive * critical_tip_rate(spec, orientation, heading) * axis
    return np.cross(w, r), w


def push_orientation(orientation: Quaternion, heading: float) -> Quaternion:
    """Return the die squared onto a face and turned about the vertical so a face looks along heading."""
    flat = square_up(orientation)
    normals = world_face_normals(flat)
    horizontal = [i for i in range(6) if abs(normals[i, 2]) < 0.5]
    ahead = np.array([math.cos(heading), math.sin(heading), 0.0])
    best = max(horizontal, key=lambda i: float(portable.dot(normals[i], ahead)))
    yaw = heading - math.atan2(normals[best, 1], normals[best, 0])
    return quaternion_product((0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)), flat)


class _KeptWorld:
    """A Bullet world that a game's rolls share (`SimSettings.world == "per_game"`): what it was built for, the
    die shapes it holds, and whether it has been built yet."""

    def __init__(self, board: Board, materials: Materials) -> None:
        self.board, self.materials = board, materials
        self.shapes: dict[tuple[float, float, float], int] = {}
        self.built = False

    def fits(self, scene: Scene) -> bool:
        """Return True if a roll in this scene may use this world (the same board and materials)."""
        return (scene.board is self.board or scene.board == self.board) and scene.materials == self.materials


def _connect() -> bullet_client.BulletClient:
    with _quiet_stdout():
        return bullet_client.BulletClient(connection_mode=pybullet.DIRECT)


class BulletRoller:
    """Rolls dice with PyBullet in its own headless physics server."""

    def __init__(self, settings: SimSettings | None = None) -> None:
        self.settings = settings or SimSettings()
        self._p = _connect()
        self._side: bullet_client.BulletClient | None = None  # fresh worlds beside a kept one
        self._kept: _KeptWorld | None = None

    def new_game(self, board: Board, materials: Materials | None = None) -> None:
        """Begin a game on this board: with `settings.world == "per_game"` its rolls from now on share one world,
        built fresh by the first of them; rolls on any other board or materials get fresh worlds of their own
        and leave it alone. Per roll (the default) this does nothing."""
        self._kept = _KeptWorld(board, materials or Materials()) if self.settings.world == "per_game" else None

    def close(self) -> None:
        """Disconnect from the physics servers."""
        for client in (self._p, self._side):
            if client is not None:
                client.disconnect()
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
                resting die lies below the board surface.
            PhysicsError: the simulation diverged.
        """
        thrown = scene.die(throw.die)
        board = scene.board
        if not board.contains(*throw.origin):
            raise PhysicsInputError("throw origin", throw.origin,
                                    f"a point on the board: x in [0, {board.width:g}], y in [0, {board.depth:g}] m")
        _check_resting([d for d in scene.dice if d is not thrown], board)
        kept = self._kept
        if kept is None:
            return _Roll(self._p, self.settings, scene, thrown, throw).run()
        if not kept.fits(scene):
            if self._side is None:
                self._side = _connect()
            return _Roll(self._side, self.settings, scene, thrown, throw).run()
        try:
            roll = _Roll(self._p, self.settings, scene, thrown, throw, kept)
            result = roll.run()
            roll.remove_dice()
        except BaseException:
            kept.built = False  # in an unknown state: the game's next roll builds it anew
            raise
        return result


def below_board(board: Board, spec: DieSpec, position, orientation: Quaternion) -> bool:
    """Return True if a die lies wholly over the board yet its lowest point is more than 1 mm under its top.

    A die straddling the board's edge (tipped over it onto the table, its centre still above the
    board) reaches below the top legitimately, so only dice whose bounding sphere lies inside the
    edges are judged. Relief only raises the floor, so the board's top is the floor to hold.
    """
    x, y, z = position
    r = spec.bounding_radius
    inside = r <= x <= board.width - r and r <= y <= board.depth - r
    return inside and z - lowest_point_offset(spec, orientation) < -BELOW_BOARD_TOLERANCE


def _check_resting(dice: list[PlacedDie], board: Board) -> None:
    """Raise PhysicsInputError if a resting die lies below the board or two resting dice overlap.

    Below the board is judged as `below_board` judges a roll's result: only for dice wholly over the
    board, since a die resting across its edge (as a roll may leave one) legitimately reaches below its top.
    """
    if not dice:
        return
    centres = np.array([d.pose.position for d in dice])
    x, y, z, w = np.array([d.pose.orientation for d in dice]).T
    # the bottom row of each rotation matrix: how far each half extent reaches downwards
    bottom = np.abs(np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=1))
    lowest = centres[:, 2] - (bottom * np.array([d.spec.half_extents for d in dice])).sum(axis=1)
    r = np.array([d.spec.bounding_radius for d in dice])
    inside = (centres[:, 0] >= r) & (centres[:, 0] <= board.width - r) & (centres[:, 1] >= r) & (
        centres[:, 1] <= board.depth - r)
    sunk = np.flatnonzero(inside & (lowest < -BELOW_BOARD_TOLERANCE))
    if sunk.size:
        d = dice[int(sunk[0])]
        raise PhysicsInputError(f"pose of die {d.name!r}", d.pose.position,
                                "a die resting on or above the board surface (z = 0)")
    inner = np.array([min(d.spec.half_extents) for d in dice])
    gaps = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2) - inner[:, None] - inner[None, :]
    np.fill_diagonal(gaps, np.inf)
    if gaps.min() < -OVERLAP_TOLERANCE:
        i, j = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
        raise PhysicsInputError(f"poses of dice {dice[i].name!r} and {dice[j].name!r}",
                                (dice[i].pose.position, dice[j].pose.position), "dice that do not overlap")


PENDING, IN_WORLD, FELL = 0, 1, 2


class _Roll:
    """One roll's world and its stepping loop. Die 0 is the thrown one; arrays are indexed by die."""

    def __init__(self, p: bullet_client.BulletClient, settings: SimSettings, scene: Scene,
                 thrown: PlacedDie, throw: Throw, kept: _KeptWorld | None = None) -> None:
        self.p, self.s, self.scene, self.throw = p, settings, scene, throw
        self.board: Board = scene.board
        self.dice = [thrown] + [d for d in scene.dice if d is not thrown]
        n = len(self.dice)
        # plain lists: these arrays hold a few dozen numbers and numpy's per-call cost would dominate
        self.state = [PENDING] * n
        self.pos = [d.pose.position for d in self.dice]
        self.radius = [d.spec.bounding_radius for d in self.dice]
        self.gyration = [_gyration(d.spec) for d in self.dice]
        masses = [d.spec.mass for d in self.dice]
        self.strike_gain = max(1.0, (1 + scene.materials.die_die_restitution) * max(masses)
                               / (max(masses) + min(masses)))
        self.speed = [0.0] * n
        self.spin = [0.0] * n
        self.live: list[int] = []  # in the world, in insertion order
        self.alive: list[int] = list(range(n))  # not fallen off the table
        self.uid: dict[int, int] = {}  # die index -> body id
        self.index: dict[int, int] = {}  # body id -> die index
        self.times: dict[int, list[float]] = {}
        self.poses: dict[int, list[tuple[tuple[float, float, float], Quaternion]]] = {}
        self.near_pairs: list[tuple[int, int]] = []
        self.open_contacts: dict[tuple[int, int], float] = {}
        self.contacts: list[tuple[int, int, float, float]] = []
        self.off_table: dict[int, tuple[float, float, float]] = {}
        self.shapes: dict[tuple[float, float, float], int] = kept.shapes if kept is not None else {}
        self.step = 0
        # bound once: BulletClient looks every call up by name
        self._step = p.stepSimulation
        self._pose = p.getBasePositionAndOrientation
        self._velocity = p.getBaseVelocity
        self._contact_points = p.getContactPoints
        if kept is None or not kept.built:
            self.shapes.clear()  # a kept world's die shapes went with its old world
            self._build_world()
            if kept is not None:
                kept.built = True
        self._launch()

    # -- world -------------------------------------------------------------------------------------
    def _build_world(self) -> None:
        """Build a fresh world with the board, the table and any relief.

        A world kept between rolls, even with every die removed last in first out, makes a roll's result
        depend on the rolls before it (2 throws in 300; all 6 games of `experiments/perf/world_reuse.py`):
        the broadphase keeps its pair clean-up cursor (which only `resetSimulation` resets in pybullet), among
        other state. So by default every roll starts anew, and a roll's result depends on its scene and throw
        alone; a kept world ("per_game") is built once, by its game's first roll.
        """
        p, s, b, mat = self.p, self.s, self.board, self.scene.materials
        p.resetSimulation()
        p.setGravity(0, 0, -GRAVITY)
        # Split impulse for every penetration (Bullet's default threshold is -4 cm, far deeper than a
        # die ever sinks): penetration is then pushed out without adding velocity, which otherwise
        # makes bounces 10-16% higher than the restitution says (measured at 960 Hz).
        p.setPhysicsEngineParameter(fixedTimeStep=s.dt, numSubSteps=0, deterministicOverlappingPairs=1,
                                    numSolverIterations=s.solver_iterations,
                                    splitImpulsePenetrationThreshold=0.0)
        slab = p.createCollisionShape(p.GEOM_BOX, halfExtents=[b.width / 2, b.depth / 2, b.thickness / 2])
        m = b.table_margin
        table = p.createCollisionShape(p.GEOM_BOX, halfExtents=[b.width / 2 + m, b.depth / 2 + m,
                                                                TABLE_THICKNESS / 2])
        statics = [
            p.createMultiBody(0, slab, basePosition=[b.width / 2, b.depth / 2, -b.thickness / 2],
                              useMaximalCoordinates=True),
            p.createMultiBody(0, table, basePosition=[b.width / 2, b.depth / 2,
                                                      b.table_top - TABLE_THICKNESS / 2],
                              useMaximalCoordinates=True),
        ]
        for prism in b.relief:
            if prism.height > 0:
                verts, tris = prism_mesh(prism)
                shape = p.createCollisionShape(p.GEOM_MESH, vertices=verts.tolist(),
                                               indices=tris.ravel().tolist(),
                                               flags=p.GEOM_FORCE_CONCAVE_TRIMESH)
                statics.append(p.createMultiBody(0, shape, useMaximalCoordinates=True))
        for uid in statics:
            p.changeDynamics(uid, -1, lateralFriction=mat.board_friction, restitution=mat.board_restitution)

    def _add(self, i: int, position, orientation, *, asleep: bool) -> int:
        p, mat, spec = self.p, self.scene.materials, self.dice[i].spec
        if spec.size not in self.shapes:
            self.shapes[spec.size] = p.createCollisionShape(p.GEOM_BOX, halfExtents=list(spec.half_extents))
        uid = p.createMultiBody(spec.mass, self.shapes[spec.size], basePosition=list(position),
                                baseOrientation=list(orientation), useMaximalCoordinates=True)
        # a resting die sleeps until touched; its sleep threshold is so low that once woken it stays
        # awake for the rest of the roll (settling is decided here, not by Bullet)
        activation = p.ACTIVATION_STATE_ENABLE_SLEEPING | (p.ACTIVATION_STATE_SLEEP if asleep else 0)
        p.changeDynamics(uid, -1, lateralFriction=mat.die_friction, restitution=mat.die_restitution,
                         linearDamping=0.0, angularDamping=0.0, sleepThreshold=self.s.settle_speed,
                         activationState=activation)
        self.uid[i], self.index[uid] = uid, i
        self.state[i] = IN_WORLD
        self.live.append(i)
        self.pos[i] = tuple(position)
        self.times[i] = [self.step * self.s.dt]
        self.poses[i] = [(tuple(position), tuple(orientation))]
        return uid

    def _launch(self) -> None:
        t, die = self.throw, self.dice[0]
        x, y = t.origin
        ground = self.board.relief_height(x, y) if self.board.relief else 0.0
        if t.style is Style.ROLL:
            q = t.orientation or die.pose.orientation
            z = ground + t.release_height + lowest_point_offset(die.spec, q)
            v = np.array([t.speed * math.cos(t.heading), t.speed * math.sin(t.heading), 0.0])
            w = np.array(t.spin)
        else:
            q = push_orientation(t.orientation or die.pose.orientation, t.heading)
            z = ground + die.spec.size[face_down(q) // 2] / 2
            v, w = push_velocities(die.spec, q, t.heading, self.s.push_overdrive)
        uid = self._add(0, (x, y, z), q, asleep=False)
        self.p.resetBaseVelocity(uid, v.tolist(), w.tolist())
        self.speed[0], self.spin[0] = portable.norm(v), portable.norm(w)
        self.pushes_left = max(0, t.style.pushes - 1)

    def _push_again(self) -> None:
        _, q = self._pose(self.uid[0])
        v, w = push_velocities(self.dice[0].spec, q, self.throw.heading, self.s.push_overdrive)
        self.p.resetBaseVelocity(self.uid[0], v.tolist(), w.tolist())
        self.pushes_left -= 1

    # -- reach: which resting dice a moving die could touch before the next sample --------------------
    def _reach(self) -> None:
        """Insert every resting die a moving die could reach this chunk and list the pairs to watch.

        Dice are bounded by spheres about their centres, so only centre speeds close gaps. A die's
        centre can reach at most the speed its whole kinetic energy would give (sqrt(v^2 + (I/m) w^2),
        spin turning into travel on a bounce) plus what gravity adds in a chunk; a struck die can be
        at most `strike_gain` times faster than its striker (a head-on hit of the heaviest die on the
        lightest). A resting die further than that distance (plus the margin) cannot be touched before
        the next sample; chains of dice are followed. Each watched pair is checked for contact from the
        first step at which the two could close their gap.
        """
        self.near_pairs = []
        state, speed, spin, radius, pos, gyration = self.state, self.speed, self.spin, self.radius, self.pos, \
            self.gyration
        moving = [i for i in self.live if speed[i] > 0 or spin[i] > 0]
        if not moving:
            return
        chunk = self.s.steps_per_sample * self.s.dt
        vmax = self.strike_gain * (max(math.hypot(speed[i], gyration[i] * spin[i]) for i in moving)
                                   + GRAVITY * chunk)
        margin = self.s.reach_margin
        reach = vmax * chunk + margin
        closing_per_step = 2 * vmax * self.s.dt
        reached = set(moving)
        frontier = list(moving)
        done: set[int] = set()
        dist = math.dist
        alive, near_pairs = self.alive, self.near_pairs
        while frontier:
            a = frontier.pop()
            done.add(a)
            pa, rad_a = pos[a], radius[a]
            ra = rad_a + reach
            for b in alive:
                if b == a or b in done:
                    continue
                d = dist(pa, pos[b])
                if not d - radius[b] <= ra:
                    continue
                gap = d - rad_a - radius[b]
                near_pairs.append((a, b, max(0, int((gap - margin) / closing_per_step))))
                if b not in reached:
                    reached.add(b)
                    frontier.append(b)
                    if state[b] == PENDING:
                        die = self.dice[b]
                        self._add(b, die.pose.position, die.pose.orientation, asleep=True)

    # -- stepping ----------------------------------------------------------------------------------
    def _watch_list(self) -> list[tuple[int, int, int, tuple[int, int]]]:
        """Return the watched pairs as (first step to check, body a, body b, pair), earliest first."""
        uid = self.uid
        return sorted((first, uid[a], uid[b], (min(a, b), max(a, b))) for a, b, first in self.near_pairs)

    def _contacts_now(self, k: int, watch: list[tuple[int, int, int, tuple[int, int]]]) -> set[tuple[int, int]]:
        """Return the watched pairs touching after step k of this chunk (`watch` from `_watch_list`)."""
        touching, limit, contact_points = set(), self.s.contact_distance, self._contact_points
        for first, ua, ub, pair in watch:
            if k < first:
                break  # sorted: no later pair is due yet
            for c in contact_points(ua, ub):
                if c[8] <= limit:
                    touching.add(pair)
                    break
        return touching

    def _audit(self, k: int) -> None:
        """Raise PhysicsError if a touch began in a pair not watched, or a die reached an absent die.

        A touch begins when a pair touches now but did not at the previous step, unless both dice still
        lie where the scene put them (they were touching before the roll: Bullet makes no contacts
        between sleeping dice, and wakes whole chains of dice whose bounding boxes overlap).
        """
        watched = {(min(a, b), max(a, b)) for a, b, first in self.near_pairs if k >= first}
        touching = set()
        for c in self.p.getContactPoints():
            a, b = self.index.get(c[1]), self.index.get(c[2])
            if a is not None and b is not None and c[8] <= self.s.contact_distance:
                touching.add((min(a, b), max(a, b)))
        for a, b in touching - getattr(self, "_audit_touching", set()) - watched:
            if not (self._unmoved(a) and self._unmoved(b)):
                raise PhysicsError(f"unwatched touch {self.dice[a].name}-{self.dice[b].name} began at step "
                                   f"{self.step} (step {k} of the chunk)")
        self._audit_touching = touching
        for i in self.live:
            pos = self._pose(self.uid[i])[0]
            for j in range(len(self.dice)):
                if self.state[j] == PENDING and math.dist(pos, self.pos[j]) < self.radius[i] + self.radius[j]:
                    raise PhysicsError(f"die {self.dice[i].name} reached absent die {self.dice[j].name} "
                                       f"at step {self.step}")

    def _unmoved(self, i: int) -> bool:
        pos, orn = self._pose(self.uid[i])
        return i != 0 and math.dist(pos, self.dice[i].pose.position) < MOVED_DISTANCE

    def _track_contacts(self, touching: set[tuple[int, int]], t: float) -> None:
        for pair in touching - self.open_contacts.keys():
            self.open_contacts[pair] = t
        for pair in list(self.open_contacts.keys() - touching):
            self.contacts.append((*pair, self.open_contacts.pop(pair), t))

    def _sample(self) -> bool:
        """Record the pose and speed of every die in the world; return True if every die is still."""
        s, still, t = self.s, True, self.step * self.s.dt
        for i in list(self.live):
            uid = self.uid[i]
            v, w = self._velocity(uid)
            was_still = self.speed[i] == 0.0 and self.spin[i] == 0.0
            if was_still and not any(v) and not any(w):
                continue  # asleep: its pose has not changed
            pos, orn = self._pose(uid)
            if not math.isfinite(sum(pos) + sum(orn) + sum(v) + sum(w)):
                raise PhysicsError(f"die {self.dice[i].name!r} diverged at t={t:.4f} s")
            if was_still and self.times[i][-1] < t - self.s.steps_per_sample * self.s.dt:
                # it lay still since its last sample: mark its rest just before it woke
                self.times[i].append(t - self.s.steps_per_sample * self.s.dt)
                self.poses[i].append(self.poses[i][-1])
            self.times[i].append(t)
            self.poses[i].append((pos, orn))
            self.pos[i] = pos
            self.speed[i], self.spin[i] = math.hypot(*v), math.hypot(*w)
            if pos[2] < self.board.table_top - 2 * self.radius[i]:
                self.state[i] = FELL
                self.live.remove(i)
                self.alive.remove(i)
                self.off_table[i] = pos
                self.p.removeBody(uid)
            elif self.speed[i] >= s.settle_speed or self.spin[i] >= s.settle_spin:
                still = False
        return still

    def run(self) -> RollResult:
        s = self.s
        max_steps = math.ceil(s.max_time * s.rate_hz)
        quiet, cap_hit = 0, False
        step, dt, chunk, audit = self._step, s.dt, s.steps_per_sample, s.audit
        while True:
            self._reach()
            if self.near_pairs or audit:
                watch = self._watch_list()
                for k in range(chunk):
                    step()
                    self.step += 1
                    if watch:
                        touching = self._contacts_now(k, watch)
                        if touching or self.open_contacts:
                            self._track_contacts(touching, self.step * dt)
                    if audit:
                        self._audit(k)
            else:  # nothing near anything: only the physics to step
                for _ in range(chunk):
                    step()
                self.step += chunk
            if not self.near_pairs and self.open_contacts:
                self._track_contacts(set(), self.step * dt)
            quiet = quiet + 1 if self._sample() else 0
            if quiet >= s.settle_samples:
                if not self.pushes_left:
                    break
                self._push_again()
                quiet = 0
            elif self.step >= max_steps:
                cap_hit = True
                break
        self._track_contacts(set(), self.step * dt)
        return self._result(cap_hit)

    def remove_dice(self) -> None:
        """Take this roll's dice out of a kept world, last in first out (those that fell off the table are out)."""
        for i in reversed(self.uid):
            if self.state[i] != FELL:
                self.p.removeBody(self.uid[i])

    # -- result ------------------------------------------------------------------------------------
    def _moved(self, i: int) -> bool:
        if i == 0 or self.state[i] == FELL:
            return True
        start = self.dice[i].pose
        pos, orn = self.poses[i][-1]
        if math.dist(start.position, pos) > MOVED_DISTANCE:
            return True
        # the angle between two unit quaternions: 2 acos |<q1, q2>|
        dot = abs(sum(a * b for a, b in zip(orn, start.orientation)))
        return 2 * math.acos(min(1.0, dot)) > MOVED_ANGLE

    def _rest(self, i: int) -> DieRest:
        pos, q = self.poses[i][-1]
        face, tilt = face_up(q), tilt_deg(q)
        spec = self.dice[i].spec
        if self.state[i] != FELL and below_board(self.board, spec, pos, q):
            raise PhysicsError(f"die {self.dice[i].name!r} ended below the board surface at z={pos[2]:.5f} m")
        fell = self.state[i] == FELL  # caught in mid-fall: its tilt says nothing
        return DieRest(self.dice[i].name, tuple(pos), tuple(q), face, spec.faces[face], tilt,
                       not fell and tilt > self.s.cocked_deg)

    def _result(self, cap_hit: bool) -> RollResult:
        moved = [i for i in sorted(self.uid) if self._moved(i)]
        rests = {i: self._rest(i) for i in moved}
        names = [d.name for d in self.dice]
        tipovers = []
        for i in moved[1:]:
            before = face_up(self.dice[i].pose.orientation)
            if before != rests[i].face_index:
                faces = self.dice[i].spec.faces
                tipovers.append(TipOver(names[i], before, rests[i].face_index, faces[before], rests[i].face_value))
        off = tuple(
            OffBoard(names[i], tuple(self.off_table.get(i, rests[i].position)), self.state[i] == FELL)
            for i in moved if self.state[i] == FELL or not self.board.contains(*rests[i].position[:2])
        )
        paths = tuple(
            DiePath(names[i], tuple(self.times[i]), tuple(p for p, _ in self.poses[i]),
                    tuple(q for _, q in self.poses[i]))
            for i in moved
        )
        contacts = tuple(Contact(names[a], names[b], start, end)
                         for a, b, start, end in sorted(self.contacts, key=lambda c: (c[2], c[0], c[1])))
        return RollResult(
            thrown=rests[0], moved=tuple(rests[i] for i in moved), paths=paths, contacts=contacts,
            tipovers=tuple(tipovers), off_board=off, settle_time=self.step * self.s.dt, steps=self.step,
            cap_hit=cap_hit,
        )
