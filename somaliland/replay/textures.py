"""Images the 3-D view is painted with: the board (the map preview's own drawing, cropped to the board)
and each die's six faces in its player's colour with its pips, side by side in one atlas."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from somaliland.map.model import Map

PLAYER_RGB = {"red": (200, 30, 30), "green": (30, 150, 50), "yellow": (240, 200, 20), "blue": (30, 70, 210)}
OTHER_RGB = (128, 128, 128)
TILE = 64  # pixels per die face in the atlas
BOARD_PX_PER_CM = 16


def board_texture(world: Map, path: Path, px_per_cm: float = BOARD_PX_PER_CM) -> Path:
    """Draw the board (`board_image`) to an image file; return the path."""
    from PIL import Image

    Image.fromarray(board_image(world, px_per_cm)).save(path)
    return path


def board_image(world: Map, px_per_cm: float = BOARD_PX_PER_CM) -> np.ndarray:
    """Return the board drawn by the map preview's `draw_board` onto exactly its rectangle (RGB, north up)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from somaliland.map.render import draw_board
    from somaliland.units import cm

    width, depth = cm(world.width), cm(world.depth)
    dpi = 100
    fig = plt.figure(figsize=(width * px_per_cm / dpi, depth * px_per_cm / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    draw_board(ax, world)
    ax.set_xlim(0, width)
    ax.set_ylim(0, depth)
    ax.set_axis_off()
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()
    plt.close(fig)
    return image


def player_rgb(colour: str) -> tuple[int, int, int]:
    """Return the RGB of a player colour (grey for a colour the replay does not know)."""
    return PLAYER_RGB.get(colour, OTHER_RGB)


def die_atlas(colour: str, faces: tuple[int, ...], path: Path) -> Path:
    """Paint a die's six faces (+x, -x, +y, -y, +z, -z) left to right, pips on its colour; return the path."""
    from PIL import Image

    rgb = np.array(player_rgb(colour), dtype=np.uint8)
    pip = np.array((20, 20, 20) if colour == "yellow" else (250, 250, 250), dtype=np.uint8)
    atlas = np.empty((TILE, TILE * len(faces), 3), dtype=np.uint8)
    atlas[:] = rgb
    yy, xx = np.mgrid[0:TILE, 0:TILE] + 0.5
    for k, value in enumerate(faces):
        tile = atlas[:, k * TILE:(k + 1) * TILE]
        edge = (np.minimum(np.minimum(xx, TILE - xx), np.minimum(yy, TILE - yy)) < 2)
        tile[edge] = (rgb * 0.6).astype(np.uint8)  # a darker rim shows the die's edges
        for cx, cy in pip_centres(value):
            radius = 0.09 if value <= 6 else 0.07
            tile[(xx / TILE - cx) ** 2 + (yy / TILE - cy) ** 2 <= radius ** 2] = pip
    Image.fromarray(atlas).save(path)
    return path


def pip_centres(value: int) -> list[tuple[float, float]]:
    """Return where a face's pips go, as fractions of the face: the usual die layouts, a grid beyond six."""
    a, m, b = 0.25, 0.5, 0.75
    layouts = {0: [], 1: [(m, m)], 2: [(a, a), (b, b)], 3: [(a, a), (m, m), (b, b)],
               4: [(a, a), (b, a), (a, b), (b, b)], 5: [(a, a), (b, a), (m, m), (a, b), (b, b)],
               6: [(a, a), (b, a), (a, m), (b, m), (a, b), (b, b)]}
    if value in layouts:
        return layouts[value]
    side = math.ceil(math.sqrt(value))
    cells = [((i + 0.5) / side, (j + 0.5) / side) for j in range(side) for i in range(side)]
    return cells[:value]
