"""physics.view: the drawing client speaks PyBullet's own key codes, and builds and places bodies offscreen."""

import numpy as np

from physics.world import pybullet
from physics.view import ARROWS, KEY_WAS_RELEASED, KEY_WAS_TRIGGERED, View, projection_matrix, view_matrix


def test_key_codes_are_pybullets():
    assert ARROWS == {"right": pybullet.B3G_RIGHT_ARROW, "left": pybullet.B3G_LEFT_ARROW,
                      "up": pybullet.B3G_UP_ARROW, "down": pybullet.B3G_DOWN_ARROW}
    assert (KEY_WAS_TRIGGERED, KEY_WAS_RELEASED) == (pybullet.KEY_WAS_TRIGGERED, pybullet.KEY_WAS_RELEASED)


def test_an_orbit_camera_looks_at_its_target_from_its_distance():
    view = np.asarray(view_matrix((0.3, 0.4, 0.0), 2.0, 0.0, -90.0), dtype=float).reshape(4, 4).T
    eye = -view[:3, :3].T @ view[:3, 3]
    assert np.allclose(eye, (0.3, 0.4, 2.0), atol=1e-4)  # straight above the target
    proj = np.asarray(projection_matrix(90.0, 1.0, 0.01, 10.0), dtype=float).reshape(4, 4).T
    assert np.isclose(proj[1, 1], 1.0)  # 1 / tan(45 deg)


def test_offscreen_bodies_are_built_and_placed():
    view = View()
    try:
        assert not view.window and view.connected()
        box = view.box((0.1, 0.1, 0.01), (0.5, 0.5, 0.5, 1.0), offset=(0.0, 0.0, 0.2))
        tri = view.mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float), np.array([[0, 1, 2]]),
                        np.tile([0.0, 0.0, 1.0], (3, 1)), np.zeros((3, 2)))
        view.place(box, (0.3, 0.2, 0.1), (0, 0, 0, 1))
        assert box != tri
    finally:
        view.close()
    assert not view.connected()
