"""The die lab: throw one die many times at random and test whether its faces come up evenly."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.spatial.transform import Rotation

from physics.dice import DieSpec
from physics.roller import Roller
from physics.scene import PlacedDie, Pose, Scene
from physics.throw import Throw

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True, slots=True)
class FaceStats:
    """Face frequencies of a series of throws, with 95% Wilson intervals and a chi-squared test."""

    faces: tuple[int, ...]
    counts: tuple[int, ...]
    throws: int
    chi2: float
    p_value: float
    cocked: int  # throws that ended cocked (counted by their most-up face)
    capped: int  # throws that hit the time cap

    @property
    def frequencies(self) -> tuple[float, ...]:
        """Return each face's share of the throws."""
        return tuple(c / self.throws for c in self.counts)

    @property
    def intervals(self) -> tuple[tuple[float, float], ...]:
        """Return each face's 95% Wilson score interval."""
        return tuple(wilson_interval(c, self.throws) for c in self.counts)


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a binomial proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def vigorous_throw(rng: np.random.Generator, name: str, board_width: float, board_depth: float) -> Throw:
    """Return a hard, tumbling throw from a random orientation near the board's centre."""
    q = Rotation.from_quat(rng.normal(size=4)).as_quat()
    return Throw(
        die=name,
        origin=(board_width * rng.uniform(0.35, 0.65), board_depth * rng.uniform(0.35, 0.65)),
        heading=float(rng.uniform(0, 2 * math.pi)),
        speed=float(rng.uniform(0.6, 1.2)),
        spin=tuple(float(w) for w in rng.uniform(-40, 40, 3)),
        release_height=float(rng.uniform(0.02, 0.05)),
        orientation=tuple(float(c) for c in q),
    )


def face_stats(roller: Roller, spec: DieSpec, throws: int, rng: np.random.Generator,
               scene: Scene | None = None, progress=None) -> FaceStats:
    """Throw the die `throws` times vigorously on an otherwise empty board and count the faces up."""
    scene = scene or Scene()
    die = PlacedDie("die", spec, Pose.resting(spec, scene.board.width / 2, scene.board.depth / 2))
    scene = scene.with_die(die)
    counts = [0] * 6
    cocked = capped = 0
    for k in range(throws):
        result = roller.roll(scene, vigorous_throw(rng, "die", scene.board.width, scene.board.depth))
        counts[result.thrown.face_index] += 1
        cocked += result.thrown.cocked
        capped += result.cap_hit
        if progress is not None:
            progress(k + 1)
    chi2, p = stats.chisquare(counts)
    return FaceStats(spec.faces, tuple(counts), throws, float(chi2), float(p), cocked, capped)
