"""The throw model: how far a throw of a given speed carries a die on this board, measured from physics.

A player learns its board by throwing: once per (die size, die mass, materials, tumble, physics settings)
we roll a small fixed sample on an empty, wide, flat board and keep the result in memory. The sample is
deterministic (fixed headings and yaws, no random numbers), so every process measures the same model.

Sample size: `len(SPEEDS) * HEADINGS` rolls plus one quarter and one half push — 8 x 8 + 2 = 66 rolls,
about 0.3 s of CPU, once per process and die.

Besides where a roll ends, its way there (R17, D19: a die that rolls over land runs aground on the way): how far
it flies before it first rolls on the board (`flight`: a die in flight over land is not aground), and how far its
rolling path strays sideways from the straight line between its start and its rest (`wander`: a roll does not
run straight; measured, a 33 cm roll's path strays a median 17 mm).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from physics import (Board, DiePath, DieSpec, Materials, PlacedDie, Pose, Roller, Scene, Style, Throw,
                     private_roller)
from physics.dice import lowest_heights
from physics.throw import MAX_SPIN
from somaliland.rules.landfall import ROLLING_HEIGHT

SPEEDS = (0.5, 0.7, 0.9, 1.1, 1.3, 1.5, 1.7, 1.9)  # m/s: from a gentle slide to a hard throw across the board
HEADINGS = 8  # sample throws per speed, at evenly spread headings and die yaws
RELEASE_HEIGHT = 0.01  # m above the die's lowest point
SAMPLE_ROLLS = len(SPEEDS) * HEADINGS + 2
_LAB = Board(width=2.4, depth=2.4)  # wide enough that the hardest throw stays on it
_CACHE: dict[tuple, "ThrowModel"] = {}


@dataclass(frozen=True, slots=True)
class ThrowModel:
    """Measured reach of throws: mean distance and spread per release speed, and how far pushes move.

    `reach` is the mean distance the die's centre travels along the heading (made non-decreasing);
    `along_sd` and `across_sd` are the sample spreads along and across the heading, from physics alone
    (the hand's own scatter is added by the aim).
    """

    size: float
    tumble: float
    speeds: tuple[float, ...]
    reach: tuple[float, ...]
    along_sd: tuple[float, ...]
    across_sd: tuple[float, ...]
    quarter: float  # metres a quarter push moves the die
    half: float  # metres a half push moves it
    rolls: int  # the sample size it was measured with
    flight: tuple[float, ...] = ()  # per speed: median metres flown before the die first rolls on the board
    wander: tuple[float, ...] = ()  # per speed: median of the farthest its rolling path strays from the chord

    def flight_at(self, distance: np.ndarray) -> np.ndarray:
        """Return how far rolls meant to carry these distances fly before they first roll (0 if unmeasured)."""
        return np.interp(distance, self.reach, self.flight) if self.flight else np.zeros(np.shape(distance))

    def wander_at(self, distance: np.ndarray) -> np.ndarray:
        """Return how far rolls meant to carry these distances stray from their chord (0 if unmeasured)."""
        return np.interp(distance, self.reach, self.wander) if self.wander else np.zeros(np.shape(distance))

    @property
    def min_roll(self) -> float:
        """Return the shortest distance a roll carries: anything shorter needs a push."""
        return self.reach[0]

    @property
    def max_roll(self) -> float:
        """Return the longest distance the model knows (its fastest throw)."""
        return self.reach[-1]

    def speed_for(self, distance: float) -> float:
        """Return the release speed whose mean roll carries `distance` (clamped to the measured range)."""
        return float(np.interp(distance, self.reach, self.speeds))

    def reach_at(self, speed: np.ndarray | float) -> np.ndarray:
        """Return the mean distance rolls of these speeds carry (extrapolated as speed squared past the ends)."""
        v = np.asarray(speed, dtype=float)
        lo, hi = self.speeds[0], self.speeds[-1]
        reach = np.interp(np.minimum(np.maximum(v, lo), hi), self.speeds, self.reach)  # np.clip, without its wrapper
        slow, fast = v < lo, v > hi
        if slow.any():
            reach = np.where(slow, self.reach[0] * (v / lo) ** 2, reach)
        if fast.any():
            reach = np.where(fast, self.reach[-1] * (v / hi) ** 2, reach)
        return reach

    def spread_at(self, distance: float) -> tuple[float, float]:
        """Return the physics spread (along, across) in metres of a roll meant to carry `distance`."""
        return (float(np.interp(distance, self.reach, self.along_sd)),
                float(np.interp(distance, self.reach, self.across_sd)))

    def spin(self, heading: float, speed: float) -> tuple[float, float, float]:
        """Return the forward tumble a roll of this speed is released with (rad/s, world axes)."""
        return tumble_spin(self.size, self.tumble, heading, speed)


def tumble_spin(size: float, tumble: float, heading: float, speed: float) -> tuple[float, float, float]:
    """Return a forward spin of `tumble` times the rate at which a die of edge `size` would roll at `speed`.

    Held within the physics layer's limit, `physics.throw.MAX_SPIN` rad/s on each axis: a fast roll of a small die
    with a full tumble would pass it (2.5 m/s rolls a 16 mm die at 312 rad/s). A spin within the limit is returned
    as computed, so the hold changes no throw the physics layer took before.
    """
    rate = tumble * speed / (size / 2)
    spin = (-math.sin(heading) * rate, math.cos(heading) * rate)
    larger = max(abs(spin[0]), abs(spin[1]))
    if larger <= MAX_SPIN:
        return (spin[0], spin[1], 0.0)
    x, y = (min(max(c * (MAX_SPIN / larger), -MAX_SPIN), MAX_SPIN) for c in spin)  # min/max: rounding stays inside
    return (x, y, 0.0)


def roll_throw(model: ThrowModel, die: str, origin: tuple[float, float], heading: float, distance: float) -> Throw:
    """Return the roll meant to carry the die `distance` metres from `origin` along `heading`."""
    speed = model.speed_for(distance)
    return Throw(die, origin, heading, speed, model.spin(heading, speed), RELEASE_HEIGHT)


def push_throw(die: str, origin: tuple[float, float], heading: float, style: Style) -> Throw:
    """Return a quarter or half push from `origin` along `heading`."""
    return Throw(die, origin, heading, 0.0, (0.0, 0.0, 0.0), 0.0, None, style)


def _measure(roller: Roller, spec: DieSpec, materials: Materials, throw: Throw) -> tuple[float, float, float, float]:
    """Return how far (along, across the heading) one throw carried the die from the lab board's centre, how far it
    flew before it first rolled, and the farthest its rolling path strayed from the chord to its rest."""
    x0, y0 = throw.origin
    scene = Scene(_LAB, (PlacedDie(throw.die, spec, Pose.resting(spec, x0, y0, yaw=_yaw(throw.heading))),),
                  materials)
    result = roller.roll(scene, throw)
    x, y, _ = result.thrown.position
    c, s = math.cos(throw.heading), math.sin(throw.heading)
    flight, wander = _way(result.path, spec, (x0, y0), (x, y))
    return (x - x0) * c + (y - y0) * s, -(x - x0) * s + (y - y0) * c, flight, wander


def _way(path: DiePath, spec: DieSpec, start: tuple[float, float], end: tuple[float, float]) -> tuple[float, float]:
    """Return how far a lab roll flew before it first rolled on the board (`landfall.ROLLING_HEIGHT`), and the
    farthest its rolling samples lay from the straight line through its start and rest."""
    pos = np.asarray(path.positions, dtype=float).reshape(-1, 3)
    rolling = lowest_heights(spec.size, pos, np.asarray(path.orientations, dtype=float).reshape(-1, 4)) \
        <= ROLLING_HEIGHT
    rel = pos[:, :2] - np.asarray(start)
    first = int(np.argmax(rolling)) if rolling.any() else len(rel) - 1
    flight = float(np.hypot(*rel[first]))
    chord = np.asarray(end) - np.asarray(start)
    length = math.hypot(*chord)
    if length < 1e-9 or not rolling.any():
        return flight, 0.0
    across = np.abs(rel[:, 0] * chord[1] - rel[:, 1] * chord[0]) / length
    return flight, float(across[rolling].max())


def _yaw(heading: float) -> float:
    """Return the die's yaw for a lab throw: varied with the heading so faces meet the board differently."""
    return (heading * 0.618) % (math.pi / 2)


def calibrate(roller: Roller, size: float, mass: float, materials: Materials | None = None,
              tumble: float = 0.15) -> ThrowModel:
    """Return the throw model for this die on these materials, measuring it on first use (34 rolls).

    Args:
        roller: the game's physics roller (its settings are part of the cache key; the practice rolls never
            enter a game's world, `physics.private_roller`).
        size: the die's edge, metres.
        mass: the die's mass, kilograms.
        materials: contact coefficients (the game's defaults when None).
        tumble: forward spin at release as a fraction of the rolling rate (0: the die slides).
    """
    materials = materials or Materials()
    key = (size, mass, materials, tumble, roller.settings)
    if key not in _CACHE:
        with private_roller(roller) as lab:
            _CACHE[key] = _calibrate(lab, size, mass, materials, tumble)
    return _CACHE[key]


def _calibrate(roller: Roller, size: float, mass: float, materials: Materials, tumble: float) -> ThrowModel:
    spec = DieSpec(faces=(1, 1, 1, 1, 1, 1), size=(size, size, size), mass=mass)
    centre = (_LAB.width / 2, _LAB.depth / 2)
    reach, along_sd, across_sd, flight, wander = [], [], [], [], []
    for speed in SPEEDS:
        runs = []
        for k in range(HEADINGS):
            heading = 0.3 + 2 * math.pi * k / HEADINGS
            spin = tumble_spin(size, tumble, heading, speed)
            runs.append(_measure(roller, spec, materials, Throw("lab", centre, heading, speed, spin, RELEASE_HEIGHT)))
        along, across, flown, strayed = np.array(runs).T
        reach.append(float(along.mean()))
        along_sd.append(float(along.std()))
        across_sd.append(float(np.sqrt(np.mean(across ** 2))))  # about the heading, not the mean
        flight.append(float(np.median(flown)))
        wander.append(float(np.median(strayed)))
    pushes = [_measure(roller, spec, materials, push_throw("lab", centre, 0.3, style))[0]
              for style in (Style.QUARTER, Style.HALF)]
    monotone = np.maximum.accumulate(np.array(reach)) + np.arange(len(reach)) * 1e-6
    return ThrowModel(size, tumble, SPEEDS, tuple(float(r) for r in monotone), tuple(along_sd), tuple(across_sd),
                      pushes[0], pushes[1], SAMPLE_ROLLS, tuple(flight), tuple(wander))
