"""The replay's 3-D table in a `physics.view.View` (a window or offscreen): the board textured with the
map's drawing, its relief, the table around it and one textured die per ship. Bodies here are only drawn:
nothing is simulated, every pose comes from the story."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from somaliland.replay.story import Pose7, Story
from somaliland.replay.textures import board_texture, die_atlas

PARKED = (0.0, 0.0, -50.0)  # where dice not on the board wait, out of every camera's sight
TABLE_RGBA = (0.55, 0.42, 0.30, 1.0)
EDGE_RGBA = (0.18, 0.37, 0.54, 1.0)
TABLE_THICKNESS = 0.02


class Table:
    """The board and the dice, drawn in one view (a window, or offscreen)."""

    def __init__(self, story: Story, window: tuple[int, int] | None = None,
                 background: tuple[float, float, float] = (0.7, 0.7, 0.8)) -> None:
        from physics.view import View

        self.view = View(window, background)
        self.story = story
        self._files = tempfile.TemporaryDirectory(prefix="somaliland-replay-")
        self._textures: dict[str, int] = {}
        with self.view.building():
            self._board()
            self.dice = {name: self._die(name) for name in story.faces}
        self.shown: dict[str, Pose7] = {}

    def close(self) -> None:
        """Disconnect and remove the texture files."""
        try:
            self.view.close()
        finally:
            self._files.cleanup()

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- building ---------------------------------------------------------------------------------
    def _board(self) -> None:
        from physics.board import prism_mesh

        world, view = self.story.world, self.view
        board = world.board()
        w, d, t = board.width, board.depth, board.thickness
        verts = [np.array([[0, 0, 0], [w, 0, 0], [w, d, 0], [0, d, 0]], dtype=float)]
        tris = [np.array([[0, 1, 2], [0, 2, 3]])]
        verts_n = 4
        for prism in board.relief:
            v, f = prism_mesh(prism)
            verts.append(v)
            tris.append(f + verts_n)
            verts_n += len(v)
        vertices, triangles = np.vstack(verts), np.vstack(tris)
        uvs = np.column_stack([vertices[:, 0] / w, vertices[:, 1] / d])
        texture = view.texture(board_texture(world, Path(self._files.name) / "board.png"))
        view.mesh(vertices, triangles, _vertex_normals(vertices, triangles), uvs, texture)
        view.box((w / 2, d / 2, t / 2), EDGE_RGBA, (w / 2, d / 2, -t / 2 - 2e-4))
        m = board.table_margin
        view.box((w / 2 + m, d / 2 + m, TABLE_THICKNESS / 2), TABLE_RGBA,
                 (w / 2, d / 2, -t - TABLE_THICKNESS / 2 - 2e-4))

    def _die(self, name: str) -> int:
        story = self.story
        colour = story.colours[story.owners[name]]
        faces = story.faces[name]
        key = f"{colour}-{'-'.join(map(str, faces))}"
        textures = self._textures
        if key not in textures:
            textures[key] = self.view.texture(die_atlas(colour, faces, Path(self._files.name) / f"die-{key}.png"))
        return self.view.mesh(*cube_mesh(story.die_size / 2), texture=textures[key], position=PARKED)

    # -- showing ----------------------------------------------------------------------------------
    def show(self, poses: dict[str, Pose7]) -> None:
        """Put every die where `poses` says; park the others out of sight."""
        for name, body in self.dice.items():
            pose = poses.get(name)
            if pose == self.shown.get(name):
                continue
            if pose is None:
                self.view.place(body, PARKED, (0, 0, 0, 1))
            else:
                self.view.place(body, pose[:3], pose[3:])
        self.shown = dict(poses)


def cube_mesh(h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (vertices, triangles, normals, uvs) of a cube of half-edge h, face k (+x,-x,+y,-y,+z,-z) textured
    with the k-th of six tiles laid side by side."""
    axes = np.eye(3)
    vertices, triangles, normals, uvs = [], [], [], []
    for k in range(6):
        n = axes[k // 2] * (1 if k % 2 == 0 else -1)
        u = axes[(k // 2 + 1) % 3] * (1 if k % 2 == 0 else -1)
        v = np.cross(n, u)
        base = len(vertices)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            vertices.append(h * (n + su * u + sv * v))
            normals.append(n)
            uvs.append(((k + (su + 1) / 2) / 6, (sv + 1) / 2))
        triangles += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    return np.array(vertices), np.array(triangles), np.array(normals), np.array(uvs)


def _vertex_normals(vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Return a normal per vertex: that of the last triangle using it (the meshes here share vertices only
    within flat faces)."""
    normals = np.tile([0.0, 0.0, 1.0], (len(vertices), 1))
    for a, b, c in triangles:
        n = np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a])
        norm = np.linalg.norm(n)
        if norm > 0:
            normals[[a, b, c]] = n / norm
    return normals
