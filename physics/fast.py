"""The fast fidelity: a lone die's roll across open, flat board taken from a library of physics rolls; every
other roll simulated in full.

A roll of one cube die across flat board, far from every other die, the board's edges and any raised
relief, depends only on the throw's speed, the spin it is released with (forward tumble and sideways spin,
each a fraction of the rolling rate), its release height and the die's yaw against the heading (a cube
looks the same whichever face is up). A `ThrowLibrary` holds such throws of one spin cell (both fractions
within `SPIN_CELL` / 2 of the cell's), rolled once in full physics on a wide lab board (`LIBRARY_ROLLS`
throws at speeds spread evenly over `SPEED_RANGE`, yaws over a quarter turn), each one's path kept
relative to its release: travel in the heading's frame and the rotation since release. `FastRoller.roll`
takes the library roll nearest the throw (in speed, then yaw), turns it onto the throw's origin and
heading, applies its rotation to the die's own orientation, and stretches its travel by the square of the
two speeds' ratio (a sliding die's reach; the nearest speed is within about 0.01 m/s).

Conservatively, the roll is simulated in full physics instead (`FastRoller.roll` asks `BulletRoller`) when
the library cannot stand for it: where such a throw may go (the envelope of the library rolls of about its
speed: `ThrowLibrary.envelope`) comes within reach of another die (the two dice's bounding spheres plus
`SimSettings.reach_margin`: a roll that could touch a die is never guessed), of the board's edge or of any
raised relief, or the throw is not of the library's kind (a push, a die that is not
a cube, a spin about the vertical, an orientation given at release, a die not resting flat, a speed
outside the library's). So contacts, tip-overs and dice leaving the board are always full physics; what the
library replaces is the commonest roll of a game, a die crossing open sea. How often each happens and how
well the balance answers agree: `somaliland bench fidelity` and physics/README.md.

Deterministic: a library is rolled from fixed numbers (no clock, no process state, no random draws), so
every process builds the same one, and the choice of a library roll is a function of the scene and the
throw. A library is built on first use per die size and mass, materials, physics settings, spin cell and
release height (about 1 s of CPU; a game of players of one skill uses a handful of cells), kept for the
process and written to a cache folder (`$SOMALILAND_CACHE`, default ~/.cache/somaliland; `throws/`) that
later processes read instead of rolling it again: the file holds exactly the floats the rolls gave.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import os
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from physics.board import Board
from physics.checks import check_roll
from physics.dice import DieSpec, Quaternion, face_up, quaternion_product, rotation_matrix, tilt_deg
from physics.materials import Materials
from physics.result import DiePath, DieRest, RollResult
from physics.scene import PlacedDie, Pose, Scene
from physics.settings import SimSettings
from physics.throw import Style, Throw

LIBRARY_ROLLS = 400  # per spin cell
LIBRARY_PUSHES = 90  # per push style
SPEED_RANGE = (0.1, 3.0)  # m/s: a gentle slide to far past the hardest aimed throw
SPIN_CELL = 0.01  # width of a spin cell, as a fraction of the rolling rate, forward and sideways
NEAREST = 4  # library rolls nearest in speed, of which the nearest in yaw is taken
ENVELOPE = 12  # library rolls nearest in speed whose paths bound where a throw may go (about +-4% of 1 m/s)
FLAT_DEG = 1.0  # a die tilted more than this is not resting flat: its roll is simulated in full
SPIN_TOLERANCE = 1e-9  # rad/s: vertical spin beyond this is not a tumble
_LAB = Board(width=5.0, depth=5.0)  # wide enough that the hardest library throw stays on it
_LIBRARIES: dict[tuple, "ThrowLibrary"] = {}
VERSION = 3  # of the library's making: part of its cache file's name


@dataclass(frozen=True, slots=True)
class LibraryRoll:
    """One lab roll relative to its release: travel and orientations in the heading's frame."""

    speed: float
    yaw: float  # the die's yaw against the heading at release, in [0, pi/2)
    times: tuple[float, ...]
    travel: np.ndarray  # (samples, 3): x along the heading, y across it, z the centre's height
    orientations: tuple[Quaternion, ...]  # the lab die's, in the heading's frame (heading 0)
    settle_time: float
    steps: int


@dataclass(frozen=True, slots=True)
class ThrowLibrary:
    """Lab rolls of one die kind, sorted by speed, with each path's extent in the heading's frame."""

    rolls: tuple[LibraryRoll, ...]
    speeds: tuple[float, ...]
    extents: np.ndarray  # (rolls, 3): least and most travel along the heading, most travel across it

    @classmethod
    def of(cls, rolls: tuple[LibraryRoll, ...]) -> "ThrowLibrary":
        """Return the library of these rolls (sorted by speed)."""
        extents = np.array([(r.travel[:, 0].min(), r.travel[:, 0].max(), np.abs(r.travel[:, 1]).max()) for r in rolls])
        return cls(rolls, tuple(r.speed for r in rolls), extents)

    def envelope(self, speed: float) -> tuple[float, float, float]:
        """Return where a throw of this speed may go, in the heading's frame: the least and most travel along
        it and the most across it of the `ENVELOPE` library rolls nearest in speed (each stretched to this
        speed), or of every push in a library of pushes. Whether a roll may be taken from the library is
        decided on this envelope, not on the one path taken, so that the rolls handed to full physics are
        every roll of such a throw, not those whose taken path happened to come near something."""
        if self.speeds[-1] == 0.0:
            chosen, stretch = self.extents, np.ones(len(self.extents))
        else:
            i = bisect.bisect_left(self.speeds, speed)
            lo = max(0, min(i - ENVELOPE // 2, len(self.speeds) - ENVELOPE))
            chosen = self.extents[lo:lo + ENVELOPE]
            stretch = (speed / np.array(self.speeds[lo:lo + ENVELOPE])) ** 2
        return (float((chosen[:, 0] * stretch).min()), float((chosen[:, 1] * stretch).max()),
                float((chosen[:, 2] * stretch).max()))

    def nearest(self, speed: float, yaw: float) -> LibraryRoll | None:
        """Return the roll of the `NEAREST` nearest in speed whose yaw is nearest (cyclically), or None
        when the speed lies outside the library's. A library of pushes (speed 0) is searched by yaw alone."""
        quarter = math.pi / 2
        if self.speeds[-1] == 0.0:
            near = range(len(self.rolls))
        elif not self.speeds[0] <= speed <= self.speeds[-1]:
            return None
        else:
            i = bisect.bisect_left(self.speeds, speed)
            lo, hi = max(0, i - NEAREST), min(len(self.speeds), i + NEAREST)
            near = sorted(range(lo, hi), key=lambda j: (abs(self.speeds[j] - speed), j))[:NEAREST]
        return self.rolls[min(near, key=lambda j: (min(abs(self.rolls[j].yaw - yaw),
                                                       quarter - abs(self.rolls[j].yaw - yaw)), j))]


def _z_turn(angle: float) -> Quaternion:
    return (0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2))


def _conjugate(q: Quaternion) -> Quaternion:
    return (-q[0], -q[1], -q[2], q[3])


def _cube_rotations() -> tuple[Quaternion, ...]:
    """Return the 24 rotations that map a cube onto itself."""
    h = math.sqrt(0.5)
    found = [(0.0, 0.0, 0.0, 1.0)]
    generators = [(h, 0.0, 0.0, h), (0.0, h, 0.0, h), (0.0, 0.0, h, h)]  # quarter turns about x, y, z
    for q in found:  # closes the group: grows as it goes
        for g in generators:
            r = quaternion_product(g, q)
            r = tuple(round(c * 2) / 2 if abs(abs(c) * 2 - round(abs(c) * 2)) < 1e-9 else
                      math.copysign(h, c) if abs(abs(c) - h) < 1e-9 else c for c in r)
            if r[3] < 0 or (r[3] == 0 and next(c for c in r if c != 0) < 0):
                r = tuple(-c for c in r)
            if r not in found:
                found.append(r)
    return tuple(found)


CUBE_ROTATIONS = _cube_rotations()


def cube_symmetry(q: Quaternion) -> Quaternion:
    """Return the rotation of the cube's symmetry group nearest `q`."""
    return max(CUBE_ROTATIONS, key=lambda c: abs(c[0] * q[0] + c[1] * q[1] + c[2] * q[2] + c[3] * q[3]))


def relative_yaw(orientation: Quaternion, heading: float) -> float | None:
    """Return the yaw in [0, pi/2) of a flat-lying cube against the heading, or None if it does not lie flat."""
    if tilt_deg(orientation) > FLAT_DEG:
        return None
    m = rotation_matrix(orientation)
    for axis in range(3):  # a horizontal body axis
        x, y, z = (float(c) for c in m[:, axis])
        if abs(z) < 0.5:
            return (math.atan2(y, x) - heading) % (math.pi / 2)
    return None  # unreachable for a flat die


def spin_cell(spec: DieSpec, throw: Throw) -> tuple[int, int] | None:
    """Return the throw's spin cell: its forward tumble (about the horizontal axis across the heading) and its
    sideways spin (about the heading), each as a fraction of the rolling rate speed / (edge / 2), in units of
    `SPIN_CELL`, rounded; or None if the die spins about the vertical or does not move."""
    wx, wy, wz = throw.spin
    if abs(wz) > SPIN_TOLERANCE or throw.speed <= 0:
        return None
    c, s = math.cos(throw.heading), math.sin(throw.heading)
    rate = throw.speed / (spec.size[0] / 2)
    forward = (-s * wx + c * wy) / rate  # about (-sin h, cos h, 0)
    sideways = (c * wx + s * wy) / rate  # about (cos h, sin h, 0)
    return round(forward / SPIN_CELL), round(sideways / SPIN_CELL)


def library(spec: DieSpec, materials: Materials, settings: SimSettings, kind: tuple) -> ThrowLibrary:
    """Return the library of lab throws of one kind for a die of this size and mass, building it on first use:
    kind ("roll", spin cell, release height) holds `LIBRARY_ROLLS` rolls (about 1 s of CPU), kind ("push",
    style) `LIBRARY_PUSHES` pushes."""
    key = (spec.size, spec.mass, materials, replace(settings, fidelity="full", world="per_roll"), kind)
    if key not in _LIBRARIES:
        made = (VERSION, LIBRARY_ROLLS, LIBRARY_PUSHES, SPEED_RANGE, SPIN_CELL, key)
        path = cache_folder() / f"{hashlib.sha256(repr(made).encode()).hexdigest()[:24]}.npz"
        built = _read(path)
        if built is None:
            built = _build(spec, materials, key[3], kind)
            _write(path, built)
        _LIBRARIES[key] = built
    return _LIBRARIES[key]


def cache_root() -> Path:
    """Return the folder this project's caches are kept in between processes (`$SOMALILAND_CACHE`, default
    ~/.cache/somaliland); each cache has a folder of its own in it."""
    return Path(os.environ.get("SOMALILAND_CACHE") or Path.home() / ".cache" / "somaliland")


def cache_folder() -> Path:
    """Return the folder the libraries are kept in between processes."""
    return cache_root() / "throws"


def _write(path: Path, lib: ThrowLibrary) -> None:
    """Write a library (a failure to write only costs the next process its rolls)."""
    counts = [len(r.times) for r in lib.rolls]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, speed=np.array([r.speed for r in lib.rolls]), yaw=np.array([r.yaw for r in lib.rolls]),
                     settle=np.array([r.settle_time for r in lib.rolls]),
                     steps=np.array([r.steps for r in lib.rolls]), counts=np.array(counts, dtype=np.int64),
                     times=np.concatenate([np.array(r.times) for r in lib.rolls]),
                     travel=np.concatenate([r.travel for r in lib.rolls]),
                     turns=np.concatenate([np.array(r.orientations) for r in lib.rolls]))
        os.replace(tmp, path)
    except OSError:
        pass


def _read(path: Path) -> ThrowLibrary | None:
    """Return the library a cache file holds, or None if there is none or it cannot be read whole."""
    try:
        with np.load(path) as data:
            counts = data["counts"]
            ends = np.cumsum(counts).tolist()
            starts = [0] + ends[:-1]
            times, travel, turns = data["times"].tolist(), data["travel"], data["turns"].tolist()
            rolls = tuple(LibraryRoll(float(v), float(y), tuple(times[a:b]), travel[a:b].copy(),
                                      tuple(tuple(q) for q in turns[a:b]), float(st), int(n))
                          for v, y, st, n, a, b in zip(data["speed"].tolist(), data["yaw"].tolist(),
                                                       data["settle"].tolist(), data["steps"].tolist(), starts, ends))
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    if len(rolls) != len(counts) or not rolls:
        return None
    return ThrowLibrary.of(rolls)


def _build(spec: DieSpec, materials: Materials, settings: SimSettings, kind: tuple) -> ThrowLibrary:
    from physics.bullet import BulletRoller

    lab_spec = DieSpec(faces=(1, 1, 1, 1, 1, 1), size=spec.size, mass=spec.mass)
    push = kind[0] == "push"
    n = LIBRARY_PUSHES if push else LIBRARY_ROLLS
    lo, hi = SPEED_RANGE
    speeds = np.zeros(n) if push else lo + (hi - lo) * (np.arange(n) + 0.5) / n  # evenly spread: no random numbers
    yaws = (np.arange(n) * 0.6180339887498949 % 1.0) * (math.pi / 2)  # golden-ratio spread over a quarter turn
    faces = np.arange(n) % 6
    cx, cy = _LAB.width / 2, _LAB.depth / 2
    rolls = []
    with BulletRoller(settings) as roller:
        for v, yaw, face in zip(speeds.tolist(), yaws.tolist(), faces.tolist()):
            start = Pose.resting(lab_spec, cx, cy, face_up=face, yaw=yaw)
            scene = Scene(_LAB, (PlacedDie("lab", lab_spec, start),), materials)
            if push:
                throw = Throw("lab", (cx, cy), 0.0, 0.0, (0.0, 0.0, 0.0), 0.0, None, Style(kind[1]))
            else:
                (forward, sideways), release_height = kind[1], kind[2]
                rate = v / (spec.size[0] / 2)  # heading 0: forward tumble about +y, sideways spin about +x
                throw = Throw("lab", (cx, cy), 0.0, v, (sideways * SPIN_CELL * rate, forward * SPIN_CELL * rate, 0.0),
                              release_height)
            result = roller.roll(scene, throw)
            if result.cap_hit or result.off_board:
                continue
            path = result.path
            travel = np.array([(x - cx, y - cy, z) for x, y, z in path.positions])
            rolls.append(LibraryRoll(v, relative_yaw(start.orientation, 0.0), path.times, travel, tuple(path.orientations), result.settle_time,
                                     result.steps))
    return ThrowLibrary.of(tuple(rolls))


class FastRoller:
    """A roller of `SimSettings.fidelity = "fast"`: library rolls where they can stand for physics, full
    physics (a `BulletRoller` of the same settings) everywhere else. Counts how many rolls took each way."""

    def __init__(self, settings: SimSettings) -> None:
        from physics.bullet import BulletRoller

        self.settings = settings
        self._full = BulletRoller(settings)
        self.fast_rolls = 0
        self.full_rolls = 0

    def new_game(self, board: Board, materials: Materials | None = None) -> None:
        """Begin a game (the full-physics rolls' world policy, as `BulletRoller.new_game`)."""
        self._full.new_game(board, materials)

    def close(self) -> None:
        """Release the full-physics roller."""
        self._full.close()

    def __enter__(self) -> "FastRoller":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def roll(self, scene: Scene, throw: Throw) -> RollResult:
        """Return the library's roll where it can stand for this one, else simulate it in full (see the module)."""
        thrown = check_roll(scene, throw)
        result = self._from_library(scene, thrown, throw)
        if result is None:
            self.full_rolls += 1
            return self._full.roll(scene, throw)
        self.fast_rolls += 1
        return result

    def _from_library(self, scene: Scene, thrown: PlacedDie, throw: Throw) -> RollResult | None:
        spec = thrown.spec
        if throw.orientation is not None or len(set(spec.size)) != 1:
            return None
        q0 = thrown.pose.orientation
        yaw = relative_yaw(q0, throw.heading)
        if yaw is None:
            return None
        if throw.style is Style.ROLL:
            cell = spin_cell(spec, throw)
            if cell is None:
                return None
            kind: tuple = ("roll", cell, throw.release_height)
        else:
            kind = ("push", throw.style.value)
        kept = library(spec, scene.materials, self.settings, kind)
        taken = kept.nearest(throw.speed, yaw)
        if taken is None or not self._clear(scene, thrown, throw, kept.envelope(throw.speed)):
            return None
        stretch = (throw.speed / taken.speed) ** 2 if taken.speed > 0 else 1.0
        c, s = math.cos(throw.heading), math.sin(throw.heading)
        x0, y0 = throw.origin
        along, across = taken.travel[:, 0] * stretch, taken.travel[:, 1] * stretch
        xs, ys = x0 + c * along - s * across, y0 + s * along + c * across
        # the die is the lab die turned by a symmetry of the cube (its yaw set to the lab die's): the lab roll's
        # orientations, turned onto the heading, then relabelled by that symmetry, end as flat as the lab's
        turn = _z_turn(throw.heading)
        relabel = cube_symmetry(quaternion_product(_conjugate(taken.orientations[0]),
                                                   quaternion_product(_z_turn(-throw.heading), q0)))
        orientations = tuple(quaternion_product(quaternion_product(turn, q), relabel) for q in taken.orientations)
        positions = tuple(zip(xs.tolist(), ys.tolist(), taken.travel[:, 2].tolist()))
        q_end = orientations[-1]
        face, tilt = face_up(q_end), tilt_deg(q_end)
        rest = DieRest(thrown.name, positions[-1], q_end, face, spec.faces[face], tilt, tilt > self.settings.cocked_deg)
        return RollResult(thrown=rest, moved=(rest,), paths=(DiePath(thrown.name, taken.times, positions, orientations),),
                          contacts=(), tipovers=(), off_board=(), settle_time=taken.settle_time, steps=taken.steps,
                          cap_hit=False)

    def _clear(self, scene: Scene, thrown: PlacedDie, throw: Throw, envelope: tuple[float, float, float]) -> bool:
        """Return True if the throw's envelope (a rectangle along its heading, widened by the die's bounding
        radius and the reach margin) keeps clear of the board's edges, raised relief and every other die."""
        board, margin = scene.board, self.settings.reach_margin
        r = thrown.spec.bounding_radius + margin
        back, ahead, side = envelope
        c, s = math.cos(throw.heading), math.sin(throw.heading)
        x0, y0 = throw.origin
        corners = [(x0 + c * a - s * b, y0 + s * a + c * b) for a in (back, ahead) for b in (-side, side)]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        if min(xs) < r or min(ys) < r or max(xs) > board.width - r or max(ys) > board.depth - r:
            return False
        if any(p.height > 0 for p in board.relief):
            from shapely import Polygon

            box = Polygon([corners[0], corners[1], corners[3], corners[2]])
            if any(Polygon(p.outline, p.holes).distance(box) <= r for p in board.relief if p.height > 0):
                return False
        others = [d for d in scene.dice if d is not thrown]
        if not others:
            return True
        centres = np.array([d.pose.position[:2] for d in others]) - (x0, y0)
        along = centres @ np.array([c, s])
        across = centres @ np.array([-s, c])
        # distance from each centre to the rectangle [back, ahead] x [-side, side]
        da = np.maximum(np.maximum(back - along, along - ahead), 0.0)
        dc = np.maximum(np.abs(across) - side, 0.0)
        reach = np.array([d.spec.bounding_radius for d in others]) + r
        return bool(np.all(np.hypot(da, dc) > reach))
