"""Cameras of the replay: an overview of the whole board, or one that follows the thrown die; and the
projection of board points to image pixels (which tests use to find dice in screenshots)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FOV_DEG = 35.0
NEAR, FAR = 0.01, 20.0


@dataclass(frozen=True, slots=True)
class Camera:
    """An orbit camera as PyBullet's GUI has it: target point, distance (m), yaw and pitch (degrees)."""

    target: tuple[float, float, float]
    distance: float
    yaw: float = 0.0
    pitch: float = -60.0

    def view(self) -> list[float]:
        """Return the 4x4 view matrix, column-major as PyBullet takes it."""
        import pybullet

        return list(pybullet.computeViewMatrixFromYawPitchRoll(self.target, self.distance, self.yaw, self.pitch,
                                                               0.0, 2))


def overview(width: float, depth: float, aspect: float, pitch: float = -62.0, margin: float = 0.92,
             lens: list[float] | None = None) -> Camera:
    """Return a camera from the south, as close as it can be while the whole width x depth board shows in an
    image of this aspect (the board's corners within `margin` of the image's half-size), through the replay's
    lens or another projection matrix (the GUI's)."""
    corners = np.array([[x, y, 0.0] for x in (0.0, width) for y in (0.0, depth)])
    proj = lens if lens is not None else projection(aspect)
    near, far = 0.05, 20.0
    for _ in range(40):  # bisect the distance: the board fits from `far`, not from `near`
        mid = (near + far) / 2
        camera = Camera((width / 2, depth / 2, 0.0), mid, 0.0, pitch)
        ndc = project(corners, camera.view(), proj, 2, 2) - 1.0
        near, far = (near, mid) if np.all(np.abs(ndc) <= margin) else (mid, far)
    return Camera((width / 2, depth / 2, 0.0), far, 0.0, pitch)


def follow(x: float, y: float, heading_deg: float = 0.0) -> Camera:
    """Return a camera close behind a die at (x, y)."""
    return Camera((x, y, 0.0), 0.22, heading_deg, -45.0)


def projection(aspect: float) -> list[float]:
    """Return the 4x4 projection matrix (column-major) of the replay's lens for an image of this aspect."""
    import pybullet

    return list(pybullet.computeProjectionMatrixFOV(FOV_DEG, aspect, NEAR, FAR))


def project(points: np.ndarray, view: list[float], proj: list[float], width: int, height: int) -> np.ndarray:
    """Return the pixel (column, row) of each 3-D point, for an image of width x height (row 0 at the top)."""
    v = np.asarray(view, dtype=float).reshape(4, 4).T  # PyBullet's matrices are column-major
    p = np.asarray(proj, dtype=float).reshape(4, 4).T
    pts = np.atleast_2d(np.asarray(points, dtype=float))
    clip = (p @ v @ np.hstack([pts, np.ones((len(pts), 1))]).T).T
    ndc = clip[:, :3] / clip[:, 3:4]
    return np.column_stack([(ndc[:, 0] + 1) / 2 * width, (1 - ndc[:, 1]) / 2 * height])
