"""Box dice: their size, mass and six face values, and which face is up in a given orientation.

Faces are listed in opposite pairs along the die's own axes, in the order +x, -x, +y, -y, +z, -z.
Everything here is pure geometry: no physics engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from scipy.spatial.transform import Rotation

from physics import portable
from physics.errors import PhysicsInputError, check_finite, check_vector

FACE_AXES = np.array(
    [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=float
)
FACE_NAMES = ("+x", "-x", "+y", "-y", "+z", "-z")
STANDARD_FACES = (1, 6, 2, 5, 3, 4)  # a common die: opposite faces sum to 7

Quaternion = tuple[float, float, float, float]  # x, y, z, w (PyBullet's order)
IDENTITY: Quaternion = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class DieSpec:
    """A box die: face values (+x, -x, +y, -y, +z, -z), edge lengths in metres, mass in kg."""

    faces: tuple[int, ...] = STANDARD_FACES
    size: tuple[float, float, float] = (0.016, 0.016, 0.016)
    mass: float = 0.004

    def __post_init__(self) -> None:
        faces = tuple(self.faces)
        if len(faces) != 6 or any(
            isinstance(f, bool) or not isinstance(f, (int, np.integer)) or f < 0 for f in faces
        ):
            raise PhysicsInputError("faces", self.faces, "six non-negative integers (+x,-x,+y,-y,+z,-z)")
        object.__setattr__(self, "faces", tuple(int(f) for f in faces))
        object.__setattr__(self, "size", check_vector("die size", self.size, 3, 0.002, 0.2, unit=" m"))
        object.__setattr__(self, "mass", check_finite("die mass", self.mass, 1e-5, 10.0, unit=" kg"))

    @property
    def pips(self) -> int:
        """Return the total number of pips (the ship's displacement in Somaliland)."""
        return sum(self.faces)

    @property
    def half_extents(self) -> tuple[float, float, float]:
        """Return half the edge lengths."""
        return _half_extents(self.size)

    @property
    def bounding_radius(self) -> float:
        """Return the radius of the sphere around the centre that holds the whole die."""
        return _bounding_radius(self.size)


# every roll asks these of every die in the scene; a game has one or two sizes of dice
@lru_cache(maxsize=64)
def _half_extents(size: tuple[float, float, float]) -> tuple[float, float, float]:
    return tuple(s / 2 for s in size)  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _bounding_radius(size: tuple[float, float, float]) -> float:
    return math.dist((0, 0, 0), _half_extents(size))


def rotation_matrix(orientation: Quaternion) -> np.ndarray:
    """Return the 3x3 rotation matrix of a unit quaternion (x, y, z, w); columns are the die's axes."""
    x, y, z, w = orientation
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def world_face_normals(orientation: Quaternion) -> np.ndarray:
    """Return the six outward face normals in world coordinates (rows in face order)."""
    return portable.matvec(rotation_matrix(orientation), FACE_AXES)


def _normals_z(orientation: Quaternion) -> tuple[float, ...] | None:
    """Return the z components of the six face normals (`world_face_normals(orientation)[:, 2]`), or None if one is
    not finite (numpy's answer is then taken as it is).

    The same values to the last bit (up to the sign of a zero): the face axes are unit vectors, so each component
    is one entry of the rotation matrix's bottom row, negated or not, plus zeros. Every roll asks this of every
    die that moved, so it is computed here without numpy's per-call cost.
    """
    x, y, z, w = orientation
    a, b, c = 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return None
    return (a, -a, b, -b, c, -c)


def face_up(orientation: Quaternion) -> int:
    """Return the index (0..5) of the face whose normal points most nearly straight up (the first of equals)."""
    zs = _normals_z(orientation)
    if zs is None:
        return int(np.argmax(world_face_normals(orientation)[:, 2]))
    return max(range(6), key=zs.__getitem__)


def face_down(orientation: Quaternion) -> int:
    """Return the index of the face whose normal points most nearly straight down (the first of equals)."""
    zs = _normals_z(orientation)
    if zs is None:
        return int(np.argmin(world_face_normals(orientation)[:, 2]))
    return min(range(6), key=zs.__getitem__)


def tilt_deg(orientation: Quaternion) -> float:
    """Return the angle in degrees between the up face's normal and the vertical."""
    zs = _normals_z(orientation)
    z = float(np.max(world_face_normals(orientation)[:, 2])) if zs is None else max(zs)
    return math.degrees(math.acos(min(1.0, max(-1.0, z))))


def lowest_point_offset(spec: DieSpec, orientation: Quaternion) -> float:
    """Return how far the die's lowest corner lies below its centre: the half extents times the absolute bottom row
    of the rotation matrix.

    In plain floats (every roll asks it), summed in the order `portable.dot` sums (first + second, then + third):
    the same to the last bit as `portable.dot(abs(rotation_matrix(orientation)[2, :]), half_extents)`.
    """
    x, y, z, w = orientation
    hx, hy, hz = spec.half_extents
    return abs(2 * (x * z - y * w)) * hx + abs(2 * (y * z + x * w)) * hy + abs(1 - 2 * (x * x + y * y)) * hz


def lowest_heights(size: tuple[float, float, float], positions: np.ndarray, orientations: np.ndarray) -> np.ndarray:
    """Return the height of a box die's lowest corner at each of many poses: positions (n, 3), orientations (n, 4).

    The bottom row of each rotation matrix (`rotation_matrix`) in elementwise arithmetic, the same on every CPU.
    """
    x, y, z, w = (orientations[:, k] for k in range(4))
    hx, hy, hz = _half_extents(tuple(size))
    reach = (np.abs(2 * (x * z - y * w)) * hx + np.abs(2 * (y * z + x * w)) * hy
             + np.abs(1 - 2 * (x * x + y * y)) * hz)
    return positions[:, 2] - reach


@cache
def _face_up_rotation(face: int) -> Quaternion:
    align, _ = Rotation.align_vectors([[0, 0, 1]], [FACE_AXES[face]])
    return tuple(float(c) for c in align.as_quat())  # type: ignore[return-value]


def quaternion_product(a: Quaternion, b: Quaternion) -> Quaternion:
    """Return the rotation a after b (Hamilton product, x, y, z, w order)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def resting_orientation(face_up_index: int, yaw: float = 0.0) -> Quaternion:
    """Return an orientation with the given face exactly up, turned by yaw (rad) about the vertical."""
    turn = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    return quaternion_product(turn, _face_up_rotation(face_up_index))


def square_up(orientation: Quaternion) -> Quaternion:
    """Return the nearest orientation that rests flat on a face (the smallest rotation that does it)."""
    dx, dy, dz = (float(c) for c in world_face_normals(orientation)[face_down(orientation)])
    # the shortest arc from the down face's normal d to -z: axis d x (-z), quaternion (d x (-z), 1 + d . (-z));
    # 1 - dz >= 1 since the lowest face's normal never points up
    fix = (-dy, dx, 0.0, 1.0 - dz)
    x, y, z, w = quaternion_product(fix, orientation)
    length = math.sqrt(x * x + y * y + z * z + w * w)
    return (x / length, y / length, z / length, w / length)
