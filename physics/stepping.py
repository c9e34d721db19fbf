"""One roll in a Bullet world: launching the die, stepping until every die is still, watching contacts.

Resting dice enter the world asleep and only once a moving die could reach them within the next path sample: a
die far from the action costs nothing, and a die that could be touched is always there before it is touched.
Steps run in chunks of one path sample; while two dice are near each other every step is checked for contacts,
since Bullet reports only the last step's contacts. physics/outcome.py turns what a roll recorded into a
`RollResult`.
"""

from __future__ import annotations

import math
from functools import lru_cache

from physics.board import Board
from physics.dice import Quaternion, face_down, lowest_point_offset
from physics.errors import PhysicsError
from physics.scene import PlacedDie, Scene
from physics.settings import SimSettings
from physics.throw import Style, Throw
from physics.tipping import GRAVITY, push_orientation, push_velocities
from physics.world import Calls, KeptWorld, add_die, bullet_client, build_world


PENDING, IN_WORLD, FELL = 0, 1, 2  # a die not yet in the world, in it, fallen off the table
MOVED_DISTANCE = 1e-4  # m: a resting die displaced less than this has not moved (see physics/outcome.py)


def _norm(v: tuple[float, float, float]) -> float:
    """Return a vector's length as `portable.norm` gives it, to the last bit (its squares summed in numpy's order)."""
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


@lru_cache(maxsize=64)
def _gyration(size: tuple[float, float, float]) -> float:
    """Return sqrt(I_max / m) of a box die: the centre speed per unit spin if all rotation turned into travel."""
    x, y, z = size
    return math.sqrt(max(y * y + z * z, x * x + z * z, x * x + y * y) / 12)


class Roll:
    """One roll's world and its stepping loop. Die 0 is the thrown one; arrays are indexed by die."""

    def __init__(self, p: bullet_client.BulletClient, settings: SimSettings, scene: Scene,
                 thrown: PlacedDie, throw: Throw, kept: KeptWorld | None = None) -> None:
        self.p, self.s, self.scene, self.throw = p, settings, scene, throw
        self.board: Board = scene.board
        self.dice = [thrown] + [d for d in scene.dice if d is not thrown]
        n = len(self.dice)
        # plain lists: these arrays hold a few dozen numbers and numpy's per-call cost would dominate
        self.state = [PENDING] * n
        self.pos = [d.pose.position for d in self.dice]
        self.radius = [d.spec.bounding_radius for d in self.dice]
        self.gyration = [_gyration(d.spec.size) for d in self.dice]
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
        self._chunk_time = settings.steps_per_sample * settings.dt  # simulated seconds between two path samples
        # bound once: BulletClient looks every call up by name and adds a keyword to each (world.Calls)
        self._calls = Calls(p)
        self._client = self._calls.client
        self._step = self._calls.step
        if kept is None or not kept.built:
            self.shapes.clear()  # a kept world's die shapes went with its old world
            build_world(self._calls, settings, self.board, scene.materials)
            if kept is not None:
                kept.built = True
        self._launch()

    # -- dice in the world ---------------------------------------------------------------------------
    def _add(self, i: int, position, orientation, *, asleep: bool) -> int:
        uid = add_die(self._calls, self.shapes, self.dice[i].spec, self.scene.materials, self.s, position, orientation,
                      asleep=asleep)
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
            v = (t.speed * math.cos(t.heading), t.speed * math.sin(t.heading), 0.0)
            w = t.spin
        else:
            q = push_orientation(t.orientation or die.pose.orientation, t.heading)
            z = ground + die.spec.size[face_down(q) // 2] / 2
            v, w = (tuple(a.tolist()) for a in push_velocities(die.spec, q, t.heading, self.s.push_overdrive))
        uid = self._add(0, (x, y, z), q, asleep=False)
        self._calls.set_velocity(uid, v, w, self._client)
        self.speed[0], self.spin[0] = _norm(v), _norm(w)
        self.pushes_left = max(0, t.style.pushes - 1)

    def _pose(self, uid: int):
        """Return (position, orientation) of a body in the world."""
        return self._calls.pose(uid, self._client)

    def _push_again(self) -> None:
        _, q = self._pose(self.uid[0])
        v, w = push_velocities(self.dice[0].spec, q, self.throw.heading, self.s.push_overdrive)
        self._calls.set_velocity(self.uid[0], v.tolist(), w.tolist(), self._client)
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
        chunk = self._chunk_time
        vmax = self.strike_gain * (max([math.hypot(speed[i], gyration[i] * spin[i]) for i in moving])
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
        touching, limit, contact_points = set(), self.s.contact_distance, self._calls.contact_points
        links, client = Calls.ALL_LINKS, self._client
        for first, ua, ub, pair in watch:
            if k < first:
                break  # sorted: no later pair is due yet
            for c in contact_points(ua, ub, links, links, client):
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
        velocity, pose, client = self._calls.velocity, self._calls.pose, self._client
        speed, spin, uids, times, poses = self.speed, self.spin, self.uid, self.times, self.poses
        hypot = math.hypot
        for i in list(self.live):
            uid = uids[i]
            v, w = velocity(uid, client)
            was_still = speed[i] == 0.0 and spin[i] == 0.0
            if was_still and not any(v) and not any(w):
                continue  # asleep: its pose has not changed
            pos, orn = pose(uid, client)
            if not math.isfinite(sum(pos) + sum(orn) + sum(v) + sum(w)):
                raise PhysicsError(f"die {self.dice[i].name!r} diverged at t={t:.4f} s")
            if was_still and times[i][-1] < t - self._chunk_time:
                # it lay still since its last sample: mark its rest just before it woke
                times[i].append(t - self._chunk_time)
                poses[i].append(poses[i][-1])
            times[i].append(t)
            poses[i].append((pos, orn))
            self.pos[i] = pos
            speed[i], spin[i] = hypot(*v), hypot(*w)
            if pos[2] < self.board.table_top - 2 * self.radius[i]:
                self.state[i] = FELL
                self.live.remove(i)
                self.alive.remove(i)
                self.off_table[i] = pos
                self._calls.remove(uid, self._client)
            elif speed[i] >= s.settle_speed or spin[i] >= s.settle_spin:
                still = False
        return still

    def run(self) -> bool:
        """Step until every die is still and no push is left, or the time cap; return True if the cap was hit."""
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
        return cap_hit

    def remove_dice(self) -> None:
        """Take this roll's dice out of a kept world, last in first out (those that fell off the table are out)."""
        for i in reversed(self.uid):
            if self.state[i] != FELL:
                self._calls.remove(self.uid[i], self._client)

