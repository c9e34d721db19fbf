"""Where every die is at a moment of a step: the recorded paths interpolated (positions linearly,
orientations by spherical interpolation), the board before the motion for dice not yet moving, and the
board after it once the step is over (dice put back, set down after running aground, seized or sunk)."""

from __future__ import annotations

import numpy as np

from somaliland.replay.story import Pose7, Step, Track


def poses_at(step: Step, t: float) -> dict[str, Pose7]:
    """Return every die's pose `t` seconds into a step; at or past its duration, the board after it."""
    if t >= step.duration:
        return dict(step.after)
    poses = dict(step.before)
    for track in step.tracks:
        poses[track.name] = sample(track, t)
    return poses


def sample(track: Track, t: float) -> Pose7:
    """Return a die's pose on its path at time t (held at the ends; a die that ran aground on its way, D19, held
    where it did: the rest of its roll did not count, and the step's end sets it down where the rules put it)."""
    if track.aground is not None:
        t = min(t, track.aground)
    times = track.times
    if t <= times[0]:
        return _pose(track.positions[0], track.orientations[0])
    if t >= times[-1]:
        return _pose(track.positions[-1], track.orientations[-1])
    k = int(np.searchsorted(times, t, side="right"))  # times[k-1] <= t < times[k]
    t0, t1 = times[k - 1], times[k]
    f = 0.0 if t1 <= t0 else (t - t0) / (t1 - t0)
    position = (1 - f) * track.positions[k - 1] + f * track.positions[k]
    return _pose(position, slerp(track.orientations[k - 1], track.orientations[k], f))


def slerp(q0: np.ndarray, q1: np.ndarray, f: float) -> np.ndarray:
    """Return the unit quaternion a fraction f of the way from q0 to q1 along the shorter arc."""
    dot = float(np.dot(q0, q1))
    if dot < 0:
        q1, dot = -q1, -dot
    if dot > 0.9995:
        q = q0 + f * (q1 - q0)
        return q / np.linalg.norm(q)
    angle = np.arccos(dot)
    return (np.sin((1 - f) * angle) * q0 + np.sin(f * angle) * q1) / np.sin(angle)


def frame_times(step: Step, fps: float) -> list[float]:
    """Return the moments of a step's motion shown at `fps` frames per second: 0, 1/fps, ... up to its duration."""
    return [k / fps for k in range(int(step.duration * fps + 1e-9) + 1)]


def _pose(position: np.ndarray, orientation: np.ndarray) -> Pose7:
    return tuple(float(c) for c in (*position, *orientation))  # type: ignore[return-value]
