"""A cheap drawing of the replay's table for exports, with numpy and Pillow instead of a 3-D renderer.

The board is flat (z = 0), so its picture from any camera is its drawing (the map preview's own, on the
table's wood) warped by one plane-to-image homography: drawn once per camera, not per frame. Each die is a
cube projected corner by corner: its faces turned to the camera filled in its player's colour, shaded by one
light, with their pips, the dice painted far to near. Land with relief is drawn flat (it rises a few mm).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from somaliland.replay.camera import Camera, camera_axes, project, projection
from somaliland.replay.story import Pose7, Story
from somaliland.replay.textures import pip_centres, player_rgb

BACKDROP_RGB = (38, 44, 52)  # beyond the table
TABLE_RGB = (140, 107, 77)
EDGE_RGB = (46, 94, 138)  # the board's rim
LIGHT = np.array((0.4, -0.6, 1.0)) / np.linalg.norm((0.4, -0.6, 1.0))
SHADES = 8  # light levels a face can take: few, so that a GIF's palette holds every die colour exactly
AMBIENT = 0.5
PIP_SIDES = 8  # a pip is drawn as this regular polygon
PIP_RADIUS = 0.09  # of a face's width (textures.die_atlas's pips)
MIN_PIP_PX = 1.2  # pips smaller than this (in pixels) are not drawn
RING_EDGES = 1.2  # die edges: the radius of the ring round the die a step threw
RING_POINTS = 36
RING_RGB, RING_EDGE_RGB = (255, 255, 255), (17, 17, 17)
_AXES = np.eye(3)
_FACES = [(_AXES[k // 2] * (1 if k % 2 == 0 else -1), _AXES[(k // 2 + 1) % 3], _AXES[(k // 2 + 2) % 3])
          for k in range(6)]  # +x, -x, +y, -y, +z, -z: (normal, u, v) in the die's frame, as Story.faces orders them


def die_colours(colour: str) -> tuple[list[tuple[int, int, int]], tuple[int, int, int], tuple[int, int, int]]:
    """Return a die's face colour at each light level, its pip colour and its edge colour."""
    rgb = np.array(player_rgb(colour), dtype=float)
    shades = [tuple(int(round(c)) for c in rgb * (AMBIENT + (1 - AMBIENT) * k / (SHADES - 1))) for k in range(SHADES)]
    pip = (20, 20, 20) if colour == "yellow" else (250, 250, 250)
    return shades, pip, tuple(int(c * 0.45) for c in rgb)  # type: ignore[return-value]


def palette_colours(story: Story) -> list[tuple[int, int, int]]:
    """Return every colour a die can be drawn in, with the backdrop's, table's and rim's and the thrown die's ring's."""
    colours = [BACKDROP_RGB, TABLE_RGB, EDGE_RGB, RING_RGB, RING_EDGE_RGB]
    for colour in dict.fromkeys(story.colours):
        shades, pip, edge = die_colours(colour)
        colours += shades + [pip, edge]
    return colours


class Painter:
    """Draws the table from a camera into an image of `size` (width, height) pixels."""

    def __init__(self, story: Story, size: tuple[int, int], px_per_cm: float) -> None:
        self.story, self.size = story, size
        self.half = story.die_size / 2
        self.texture = _table_texture(story, px_per_cm)
        self.looks = {colour: die_colours(colour) for colour in story.colours}
        self._backdrop: tuple[Camera, object] | None = None

    def draw(self, poses: dict[str, Pose7], camera: Camera, thrown: str | None = None):
        """Return a PIL image of the table with the dice at `poses`, seen by the camera; the `thrown` die ringed."""
        from PIL import ImageDraw

        view, lens = camera.view(), projection(self.size[0] / self.size[1])
        if self._backdrop is None or self._backdrop[0] != camera:
            self._backdrop = (camera, self._warp(view, lens))
        image = self._backdrop[1].copy()  # type: ignore[union-attr]
        pen = ImageDraw.Draw(image)
        if thrown is not None and thrown in poses and poses[thrown][2] > 0:
            self._ring(pen, poses[thrown], view, lens)
        shown = [(name, pose) for name, pose in poses.items() if pose[2] > -self.half]  # below the table top: hidden
        if shown:
            self._dice(pen, shown, view, lens)
        return image

    # -- the table ------------------------------------------------------------------------------------
    def _warp(self, view: list[float], lens: list[float]):
        """Return the table's picture from the camera: its texture warped by the plane-to-image homography."""
        from PIL import Image

        texture, (x0, y1), scale = self.texture
        to_pixel = _plane_homography(view, lens, *self.size)
        to_plane = np.array([[1 / scale, 0, x0], [0, -1 / scale, y1], [0, 0, 1]])  # texture pixel -> board (m)
        inverse = np.linalg.inv(to_pixel @ to_plane)
        coeffs = (inverse / inverse[2, 2]).ravel()[:8]
        return texture.transform(self.size, Image.Transform.PERSPECTIVE, tuple(coeffs), Image.Resampling.BILINEAR,
                                 fillcolor=BACKDROP_RGB)

    def _ring(self, pen, pose: Pose7, view: list[float], lens: list[float]) -> None:
        """Draw a ring on the board round a die (the one a step threw), white edged in black."""
        angles = np.linspace(0.0, 2 * np.pi, RING_POINTS, endpoint=False)
        radius = RING_EDGES * 2 * self.half
        circle = np.stack([pose[0] + radius * np.cos(angles), pose[1] + radius * np.sin(angles),
                           np.zeros(RING_POINTS)], axis=1)
        points = [tuple(p) for p in project(circle, view, lens, *self.size).tolist()]
        pen.line(points + points[:1], fill=RING_EDGE_RGB, width=5)
        pen.line(points + points[:1], fill=RING_RGB, width=3)

    # -- the dice -------------------------------------------------------------------------------------
    def _dice(self, pen, shown: list[tuple[str, Pose7]], view: list[float], lens: list[float]) -> None:
        from scipy.spatial.transform import Rotation

        eye = camera_axes(view)[0]
        centres = np.array([pose[:3] for _, pose in shown])
        turns = Rotation.from_quat([pose[3:] for _, pose in shown]).as_matrix()  # (n, 3, 3): die frame -> board
        normals = np.einsum("nij,kj->nki", turns, np.array([f[0] for f in _FACES]))  # (n, 6, 3)
        seen = np.einsum("nki,nki->nk", normals, eye[None, None, :] - centres[:, None, :] - self.half * normals) > 0
        light = np.clip(normals @ LIGHT, 0.0, 1.0)
        levels = np.rint(light * (SHADES - 1)).astype(int)
        corners = centres[:, None, None, :] + self.half * np.einsum("nij,kcj->nkci", turns, _face_corners())
        pixels = project(corners.reshape(-1, 3), view, lens, *self.size).reshape(len(shown), 6, 4, 2)
        widths = np.linalg.norm(pixels[:, :, 1] - pixels[:, :, 0], axis=-1)  # (n, 6): a face's width in pixels
        order = np.argsort(-np.linalg.norm(centres - eye, axis=1))  # far to near
        for i in order:
            name = shown[i][0]
            shades, pip, edge = self.looks[self.story.colours[self.story.owners[name]]]
            values = self.story.faces[name]
            for k in np.flatnonzero(seen[i]):
                quad = pixels[i, k]
                pen.polygon(quad.ravel().tolist(), fill=shades[levels[i, k]], outline=edge)
                if values[k] and widths[i, k] * PIP_RADIUS >= MIN_PIP_PX / 2:
                    for ring in np.einsum("psc,cd->psd", _pip_weights(values[k]), quad):
                        pen.polygon(ring.ravel().tolist(), fill=pip)


@lru_cache(maxsize=32)
def _pip_weights(value: int) -> np.ndarray:
    """Return the bilinear weights (pips, PIP_SIDES, 4) of a face's pip outlines on its four projected corners."""
    angles = np.linspace(0, 2 * np.pi, PIP_SIDES, endpoint=False)
    radius = PIP_RADIUS if value <= 6 else 0.07
    rings = [(cu + radius * np.cos(angles), cv + radius * np.sin(angles)) for cu, cv in pip_centres(value)]
    return np.array([np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=-1) for u, v in rings])


def _face_corners() -> np.ndarray:
    """Return the corners of each face of the cube of half-edge 1 (6, 4, 3), at (u, v) = (0,0), (1,0), (1,1), (0,1)."""
    return np.array([[n - u - v, n + u - v, n + u + v, n - u + v] for n, u, v in _FACES])


def _plane_homography(view: list[float], lens: list[float], width: int, height: int) -> np.ndarray:
    """Return the 3 x 3 homography from board points (x, y, 1) on z = 0 to homogeneous pixels."""
    clip = np.asarray(lens, dtype=float).reshape(4, 4).T @ np.asarray(view, dtype=float).reshape(4, 4).T  # column-major
    m = clip[[0, 1, 3]][:, [0, 1, 3]]  # rows x, y, w of clip space; columns x, y, 1 of the plane
    to_pixel = np.array([[width / 2, 0, width / 2], [0, -height / 2, height / 2], [0, 0, 1]])
    return to_pixel @ m


def _table_texture(story: Story, px_per_cm: float):
    """Return the table seen from above as a PIL image (the board's drawing on the wood, a rim between),
    the board point (m) of its top-left corner and its pixels per metre."""
    from PIL import Image, ImageDraw

    from somaliland.replay.textures import board_image

    board = story.world.board()
    scale = px_per_cm * 100
    margin = board.table_margin
    drawing = Image.fromarray(board_image(story.world, px_per_cm))
    width, height = round((board.width + 2 * margin) * scale), round((board.depth + 2 * margin) * scale)
    texture = Image.new("RGB", (width, height), TABLE_RGB)
    left, top = round(margin * scale), round(margin * scale)
    rim = max(1, round(0.004 * scale))
    ImageDraw.Draw(texture).rectangle((left - rim, top - rim, left + drawing.width + rim - 1,
                                       top + drawing.height + rim - 1), fill=EDGE_RGB)
    texture.paste(drawing, (left, top))
    return texture, (-margin, board.depth + margin), scale
