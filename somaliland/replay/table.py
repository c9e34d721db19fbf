"""The replay's 3-D table in a PyBullet client (GUI or offscreen): the board textured with the map's
drawing, its relief, the table around it and one textured die per ship. Bodies here are only drawn:
nothing is simulated, every pose comes from the story."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from somaliland.replay.camera import Camera, projection
from somaliland.replay.story import Pose7, Story
from somaliland.replay.textures import board_texture, die_atlas

PARKED = (0.0, 0.0, -50.0)  # where dice not on the board wait, out of every camera's sight
TABLE_RGBA = (0.55, 0.42, 0.30, 1.0)
EDGE_RGBA = (0.18, 0.37, 0.54, 1.0)
TABLE_THICKNESS = 0.02
LIGHT = (0.4, -0.6, 1.0)


class Table:
    """The board and the dice, drawn in one PyBullet client."""

    def __init__(self, story: Story, gui: bool = False, options: str = "") -> None:
        from physics.bullet import _quiet_stdout  # Bullet's C code prints on import and connect

        with _quiet_stdout():
            import pybullet
            from pybullet_utils import bullet_client

            self.client = bullet_client.BulletClient(pybullet.GUI if gui else pybullet.DIRECT, options=options)
        self.story = story
        self._files = tempfile.TemporaryDirectory(prefix="somaliland-replay-")
        if gui:
            self.client.configureDebugVisualizer(pybullet.COV_ENABLE_RENDERING, 0)
        self._textures: dict[str, int] = {}
        self._board()
        self.dice = {name: self._die(name) for name in story.faces}
        self.shown: dict[str, Pose7] = {}
        if gui:
            self.client.configureDebugVisualizer(pybullet.COV_ENABLE_RENDERING, 1)

    def close(self) -> None:
        """Disconnect and remove the texture files."""
        from physics.bullet import _quiet_stdout

        try:
            with _quiet_stdout():
                self.client.disconnect()
        finally:
            self._files.cleanup()

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- building ---------------------------------------------------------------------------------
    def _board(self) -> None:
        from physics.board import prism_mesh

        world, c = self.story.world, self.client
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
        normals = _vertex_normals(vertices, triangles)
        uvs = np.column_stack([vertices[:, 0] / w, vertices[:, 1] / d])
        top = c.createVisualShape(c.GEOM_MESH, vertices=vertices.tolist(), indices=triangles.ravel().tolist(),
                                  uvs=uvs.tolist(), normals=normals.tolist())
        body = c.createMultiBody(baseMass=0, baseVisualShapeIndex=top)
        texture = c.loadTexture(str(board_texture(world, Path(self._files.name) / "board.png")))
        c.changeVisualShape(body, -1, textureUniqueId=texture, rgbaColor=(1, 1, 1, 1))
        slab = c.createVisualShape(c.GEOM_BOX, halfExtents=(w / 2, d / 2, t / 2), rgbaColor=EDGE_RGBA)
        c.createMultiBody(baseMass=0, baseVisualShapeIndex=slab, basePosition=(w / 2, d / 2, -t / 2 - 2e-4))
        m = board.table_margin
        table = c.createVisualShape(c.GEOM_BOX, halfExtents=(w / 2 + m, d / 2 + m, TABLE_THICKNESS / 2),
                                    rgbaColor=TABLE_RGBA)
        c.createMultiBody(baseMass=0, baseVisualShapeIndex=table,
                          basePosition=(w / 2, d / 2, -t - TABLE_THICKNESS / 2 - 2e-4))

    def _die(self, name: str) -> int:
        c, story = self.client, self.story
        colour = story.colours[story.owners[name]]
        faces = story.faces[name]
        key = f"{colour}-{'-'.join(map(str, faces))}"
        textures = self._textures
        if key not in textures:
            textures[key] = c.loadTexture(str(die_atlas(colour, faces, Path(self._files.name) / f"die-{key}.png")))
        vertices, triangles, normals, uvs = cube_mesh(story.die_size / 2)
        shape = c.createVisualShape(c.GEOM_MESH, vertices=vertices.tolist(), indices=triangles.ravel().tolist(),
                                    uvs=uvs.tolist(), normals=normals.tolist())
        body = c.createMultiBody(baseMass=0, baseVisualShapeIndex=shape, basePosition=PARKED)
        c.changeVisualShape(body, -1, textureUniqueId=textures[key], rgbaColor=(1, 1, 1, 1))
        return body

    # -- showing ----------------------------------------------------------------------------------
    def show(self, poses: dict[str, Pose7]) -> None:
        """Put every die where `poses` says; park the others out of sight."""
        for name, body in self.dice.items():
            pose = poses.get(name)
            if pose == self.shown.get(name):
                continue
            if pose is None:
                self.client.resetBasePositionAndOrientation(body, PARKED, (0, 0, 0, 1))
            else:
                self.client.resetBasePositionAndOrientation(body, pose[:3], pose[3:])
        self.shown = dict(poses)

    def render(self, camera: Camera, width: int, height: int) -> np.ndarray:
        """Return an RGB image (height x width x 3, uint8) of the table seen by the camera, drawn offscreen."""
        c = self.client
        _, _, rgba, _, _ = c.getCameraImage(width, height, camera.view(), projection(width / height),
                                            renderer=c.ER_TINY_RENDERER, lightDirection=LIGHT, shadow=0)
        return np.reshape(np.asarray(rgba, dtype=np.uint8), (height, width, 4))[:, :, :3].copy()


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
