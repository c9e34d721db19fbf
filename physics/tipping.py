"""How a push tips a resting die over its leading edge: geometry and energy only, no physics engine.

A push (`Style` in physics/throw.py) launches the die with the velocities that tip it over an edge
(`push_velocities`); `push_face_up` says which face that leaves up.
"""

from __future__ import annotations

import math

import numpy as np

from physics import portable
from physics.dice import DieSpec, Quaternion, face_down, face_up, quaternion_product, rotation_matrix, square_up, \
    world_face_normals

GRAVITY = 9.81  # m/s^2


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

