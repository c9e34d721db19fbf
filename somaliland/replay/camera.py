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
        from physics.view import view_matrix

        return view_matrix(self.target, self.distance, self.yaw, self.pitch)


Window = tuple[float, float, float, float]  # left, right, bottom, top of a part of the image, -1..1 each way
WHOLE: Window = (-1.0, 1.0, -1.0, 1.0)


def overview(width: float, depth: float, aspect: float, pitch: float = -62.0, margin: float = 0.92,
             lens: list[float] | None = None, window: Window = WHOLE) -> Camera:
    """Return a camera from the south showing the whole width x depth board as large as it fits in `window`
    (a part of the image, within `margin` of its size), through the replay's lens or another projection
    matrix (a GUI window's)."""
    return fit((0.0, 0.0, width, depth), aspect, pitch, margin, lens, window)


def fit(area: tuple[float, float, float, float], aspect: float, pitch: float = -62.0, margin: float = 0.92,
        lens: list[float] | None = None, window: Window = WHOLE) -> Camera:
    """Return a camera from the south showing the rectangle (x0, y0, x1, y1) of the board's plane as large as
    it fits in `window` (a part of the image, within `margin` of its size), through the replay's lens or
    another projection matrix."""
    x0, y0, x1, y1 = area
    corners = np.array([[x, y, 0.0] for x in (x0, x1) for y in (y0, y1)])
    proj = lens if lens is not None else projection(aspect)
    left, right, bottom, top = window
    centre = np.array([(left + right) / 2, (bottom + top) / 2])
    half = np.array([(right - left) / 2, (top - bottom) / 2]) * margin
    target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
    camera = Camera(tuple(target), 1.0, 0.0, pitch)
    for _ in range(4):  # fit the area's size, then slide its picture to the window's centre; twice over
        near, far = 0.05, 20.0
        for _ in range(40):  # bisect: the area fits from `far`, not from `near`
            mid = (near + far) / 2
            ndc = _ndc(corners, Camera(tuple(target), mid, 0.0, pitch).view(), proj)
            near, far = (near, mid) if np.all((ndc.max(0) - ndc.min(0)) / 2 <= half) else (mid, far)
        camera = Camera(tuple(float(c) for c in target), far, 0.0, pitch)
        ndc = _ndc(corners, camera.view(), proj)
        seen = (ndc.max(0) + ndc.min(0)) / 2
        target = target + ground_point(camera.view(), proj, seen) - ground_point(camera.view(), proj, centre)
    return camera


def ground_point(view: list[float], proj: list[float], ndc: np.ndarray) -> np.ndarray:
    """Return the point of the board's plane (z = 0) seen at a normalised image position (-1..1, y up)."""
    eye, right, up, back = camera_axes(view)
    p = np.asarray(proj, dtype=float).reshape(4, 4).T
    ray = -back + right * (ndc[0] / p[0, 0]) + up * (ndc[1] / p[1, 1])
    return eye + ray * (-eye[2] / ray[2])


def camera_axes(view: list[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the camera's eye and its right, up and backward unit vectors from a view matrix."""
    v = np.asarray(view, dtype=float).reshape(4, 4).T
    rotation = v[:3, :3]
    return -rotation.T @ v[:3, 3], rotation[0], rotation[1], rotation[2]


def _ndc(points: np.ndarray, view: list[float], proj: list[float]) -> np.ndarray:
    """Return the normalised image positions (-1..1, y up) of points."""
    pixels = project(points, view, proj, 2, 2)
    return np.column_stack([pixels[:, 0] - 1.0, 1.0 - pixels[:, 1]])


def follow(x: float, y: float, heading_deg: float = 0.0) -> Camera:
    """Return a camera close behind a die at (x, y)."""
    return Camera((x, y, 0.0), 0.22, heading_deg, -45.0)


def projection(aspect: float) -> list[float]:
    """Return the 4x4 projection matrix (column-major) of the replay's lens for an image of this aspect."""
    from physics.view import projection_matrix

    return projection_matrix(FOV_DEG, aspect, NEAR, FAR)


def project(points: np.ndarray, view: list[float], proj: list[float], width: int, height: int) -> np.ndarray:
    """Return the pixel (column, row) of each 3-D point, for an image of width x height (row 0 at the top)."""
    v = np.asarray(view, dtype=float).reshape(4, 4).T  # PyBullet's matrices are column-major
    p = np.asarray(proj, dtype=float).reshape(4, 4).T
    pts = np.atleast_2d(np.asarray(points, dtype=float))
    clip = (p @ v @ np.hstack([pts, np.ones((len(pts), 1))]).T).T
    ndc = clip[:, :3] / clip[:, 3:4]
    return np.column_stack([(ndc[:, 0] + 1) / 2 * width, (1 - ndc[:, 1]) / 2 * height])
