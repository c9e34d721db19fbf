"""Benchmarks: the mid-game roll scene, measured beside the naive reference script in the same run."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from physics import Board, DieSpec, PlacedDie, Pose, Roller, Scene, Throw
from physics.dice import lowest_point_offset

RESTING = 24
# the naive script's throw: centre released 3 cm up, which we express as the lowest point's height
NAIVE_RELEASE_CENTRE = 0.03
NAIVE_SCRIPT = Path(__file__).resolve().parents[2] / "shared" / "bench" / "naive_roll.py"


@dataclass(frozen=True, slots=True)
class RollRate:
    """Throughput of a series of throws."""

    throws: int
    seconds: float
    steps: int

    @property
    def throws_per_s(self) -> float:
        """Return settled throws per second."""
        return self.throws / self.seconds

    @property
    def steps_per_throw(self) -> float:
        """Return physics steps per throw."""
        return self.steps / self.throws


def midgame_scene(board: Board, spec: DieSpec, *, resting: int = RESTING, seed: int = 1) -> Scene:
    """Return the naive script's scene: `resting` dice spread over the board, plus the die to throw."""
    rng = np.random.default_rng(seed)
    dice = []
    for k in range(resting):
        x, y = 0.06 + 0.63 * rng.random(), 0.06 + 0.78 * rng.random()
        dice.append(PlacedDie(f"rest{k:02d}", spec, Pose.resting(spec, x * board.width / 0.75,
                                                                  y * board.depth / 0.90)))
    dice.append(PlacedDie("thrown", spec, Pose.resting(spec, board.width / 2, board.depth / 2)))
    return Scene(board=board, dice=tuple(dice))


def midgame_throws(spec: DieSpec, n: int, seed: int = 2) -> list[Throw]:
    """Return n throws drawn from the naive script's throw distribution."""
    rng = np.random.default_rng(seed)
    throws = []
    for _ in range(n):
        x, y = 0.2 + 0.35 * rng.random(), 0.1 + 0.3 * rng.random()
        q = _euler_quaternion(rng.uniform(0, 6.28, 3))
        heading, speed = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 1.5)
        spin = tuple(float(w) for w in rng.uniform(-30, 30, 3))
        release = NAIVE_RELEASE_CENTRE - lowest_point_offset(spec, q)
        throws.append(Throw("thrown", (x, y), float(heading), float(speed), spin, release, q))
    return throws


def _euler_quaternion(angles: np.ndarray) -> tuple[float, float, float, float]:
    from scipy.spatial.transform import Rotation

    return tuple(float(c) for c in Rotation.from_euler("xyz", angles).as_quat())  # type: ignore[return-value]


def measure(roller: Roller, scene: Scene, throws: list[Throw]) -> RollRate:
    """Roll every throw in the scene and time it."""
    steps = 0
    t0 = time.perf_counter()
    for throw in throws:
        steps += roller.roll(scene, throw).steps
    return RollRate(len(throws), time.perf_counter() - t0, steps)


def run_naive(throws: int, script: Path = NAIVE_SCRIPT) -> dict | None:
    """Run the naive reference script in a child process; return its JSON line, or None if absent."""
    if not script.exists():
        return None
    out = subprocess.run([sys.executable, str(script), str(throws)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@dataclass(frozen=True, slots=True)
class Fidelity:
    """How faithfully and how fast one step rate simulates: what the physics validation tests check."""

    rate_hz: int
    penetration_mm: float  # deepest any die's lowest point went into the board, any step of the throws
    bounce_ratios: tuple[tuple[float, float, float], ...]  # (restitution, drop height m, apex / (e^2 h))
    steps_per_throw: float
    ms_per_throw: float  # wall clock, the mid-game throws


def fidelity(rate_hz: int, throws: int = 150, seed: int = 9) -> Fidelity:
    """Return the fidelity of simulating at `rate_hz`, sampled at every step.

    Penetration: `throws` mid-game throws (`midgame_throws(seed)`, `deepest_into_board`). Bounce: a flat
    drop from 3 and 10 cm at restitution 0.5 and 0.7 rebounds to e^2 of its height (`drop_rebound`; 1.0 is
    exact). The physics validation tests hold the default rate to under 1 mm and to within 10% of e^2.
    """
    from physics import SimSettings, make_roller

    spec = DieSpec()
    scene = midgame_scene(Scene().board, spec)
    worst, steps = 0.0, 0
    with make_roller(SimSettings(rate_hz=rate_hz, sample_hz=rate_hz)) as roller:
        t0 = time.perf_counter()
        for throw in midgame_throws(spec, throws, seed=seed):
            res = roller.roll(scene, throw)
            steps += res.steps
            worst = min(worst, deepest_into_board(scene, res))
        ms = 1000 * (time.perf_counter() - t0) / throws
        ratios = tuple((e, height, drop_rebound(roller, spec, e, height) / (e * e))
                       for e in (0.5, 0.7) for height in (0.03, 0.10))
    return Fidelity(rate_hz, -worst * 1000, ratios, steps / throws, ms)


def deepest_into_board(scene: Scene, result) -> float:
    """Return the lowest point any moved die's lowest point reached relative to the board's top (m, <= 0).

    Only poses whose centre lies a bounding radius inside the board's edges count: a die tipping over the
    edge hangs below the top legitimately. Needs paths sampled at every step to see impacts.
    """
    worst = 0.0
    board = scene.board
    for path in result.paths:
        spec = scene.die(path.name).spec
        inset = spec.bounding_radius
        for (x, y, z), q in zip(path.positions, path.orientations):
            if inset <= x <= board.width - inset and inset <= y <= board.depth - inset:
                worst = min(worst, z - lowest_point_offset(spec, q))
    return worst


def drop_rebound(roller: Roller, spec: DieSpec, restitution: float, height: float) -> float:
    """Return the first rebound's apex over the drop height of a die let fall flat onto the empty board.

    Ideally the restitution squared; the roller should sample every step so the apex is not missed.
    """
    from physics import Materials

    lone = Scene(dice=(PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3)),),
                 materials=Materials(die_board_restitution=restitution))
    res = roller.roll(lone, Throw("d", (0.3, 0.3), 0.0, 0.0, release_height=height))
    gap = np.array([p[2] for p in res.path.positions]) - spec.size[2] / 2
    after = gap[int(np.argmax(np.diff(gap) > 0)):]  # from the first rise
    return float(after[: int(np.argmax(np.diff(after) < 0)) + 1].max() / height)
