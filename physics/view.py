"""Drawing bodies with PyBullet without simulating them: a window (PyBullet's GUI) or an offscreen client
that shows meshes and boxes where the caller puts them, texts on the window, its keys and its camera.

With `physics/world.py` the only module that imports pybullet; a replay or any other viewer asks this one.
Nothing here steps a simulation: every pose comes from the caller.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from physics.errors import NoDisplayError

WINDOW_TITLE = "Bullet Physics ExampleBrowser"  # how PyBullet's GUI names its window
ARROWS = {"right": 65296, "left": 65295, "up": 65297, "down": 65298}  # PyBullet's key codes (B3G_*_ARROW)
KEY_WAS_TRIGGERED, KEY_WAS_RELEASED = 2, 4  # PyBullet's key state bits


@dataclass(frozen=True, slots=True)
class WindowCamera:
    """The window's camera as PyBullet reports it: image size, 4x4 view and projection matrices
    (column-major), the orbit angles (degrees), distance (m) and target."""

    width: int
    height: int
    view: tuple[float, ...]
    projection: tuple[float, ...]
    yaw: float
    pitch: float
    distance: float
    target: tuple[float, float, float]


def view_matrix(target: tuple[float, float, float], distance: float, yaw: float, pitch: float) -> list[float]:
    """Return the 4x4 view matrix (column-major) of an orbit camera, z up, as PyBullet's GUI computes it."""
    return list(_pybullet().computeViewMatrixFromYawPitchRoll(target, distance, yaw, pitch, 0.0, 2))


def projection_matrix(fov_deg: float, aspect: float, near: float, far: float) -> list[float]:
    """Return the 4x4 perspective projection matrix (column-major) of a vertical field of view."""
    return list(_pybullet().computeProjectionMatrixFOV(fov_deg, aspect, near, far))


class View:
    """A PyBullet client that only draws: in a window of `size` pixels, or offscreen when `size` is None."""

    def __init__(self, size: tuple[int, int] | None = None,
                 background: tuple[float, float, float] = (0.7, 0.7, 0.8)) -> None:
        from physics.world import opened, quiet_stdout  # Bullet's C code prints on import and connect

        problem = display_problem() if size is not None else None
        if problem is not None:  # PyBullet would end the process, its message silenced with the rest
            raise NoDisplayError(f"PyBullet's window needs a display, and {problem}")
        with quiet_stdout():
            p = _pybullet()
            from pybullet_utils import bullet_client

            options = ""
            if size is not None:
                red, green, blue = background
                options = (f"--width={size[0]} --height={size[1]} --background_color_red={red} "
                           f"--background_color_green={green} --background_color_blue={blue}")
            self._c = opened(bullet_client.BulletClient(p.GUI if size is not None else p.DIRECT, options=options))
        self.window = size is not None
        self.aimed: tuple | None = None  # the last camera asked for: target, distance, yaw, pitch
        if self.window:
            self._plain_window()

    def _plain_window(self) -> None:
        """Turn off PyBullet's side panels, buffer previews, grid and axes, its own keys and mouse picking."""
        c = self._c
        for flag in (c.COV_ENABLE_GUI, c.COV_ENABLE_RGB_BUFFER_PREVIEW, c.COV_ENABLE_DEPTH_BUFFER_PREVIEW,
                     c.COV_ENABLE_SEGMENTATION_MARK_PREVIEW, c.COV_ENABLE_KEYBOARD_SHORTCUTS,
                     c.COV_ENABLE_MOUSE_PICKING, c.COV_ENABLE_SHADOWS):  # the shadow map streaks a flat board
            c.configureDebugVisualizer(flag, 0)

    def close(self) -> None:
        """Disconnect (close the window)."""
        from physics.world import disconnect, quiet_stdout

        with quiet_stdout():
            disconnect(self._c)

    def connected(self) -> bool:
        """Return whether the client is still connected (False once the user closed the window)."""
        return bool(self._c.isConnected())

    # -- bodies -----------------------------------------------------------------------------------
    @contextmanager
    def building(self) -> Iterator[None]:
        """Hold the window's drawing while many bodies are added (faster, and no half-built frames)."""
        if self.window:
            self._c.configureDebugVisualizer(self._c.COV_ENABLE_RENDERING, 0)
        try:
            yield
        finally:
            if self.window:
                self._c.configureDebugVisualizer(self._c.COV_ENABLE_RENDERING, 1)

    def texture(self, path: Path) -> int:
        """Load a PNG as a texture; return its id."""
        return int(self._c.loadTexture(str(path)))

    def mesh(self, vertices: np.ndarray, triangles: np.ndarray, normals: np.ndarray, uvs: np.ndarray,
             texture: int | None = None, position: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> int:
        """Add a triangle mesh (textured, or white); return its body id."""
        c = self._c
        shape = c.createVisualShape(c.GEOM_MESH, vertices=np.asarray(vertices).tolist(),
                                    indices=np.asarray(triangles).ravel().tolist(), uvs=np.asarray(uvs).tolist(),
                                    normals=np.asarray(normals).tolist())
        body = c.createMultiBody(baseMass=0, baseVisualShapeIndex=shape, basePosition=position)
        if texture is not None:
            c.changeVisualShape(body, -1, textureUniqueId=texture, rgbaColor=(1, 1, 1, 1))
        return int(body)

    def box(self, half_extents: tuple[float, float, float], rgba: tuple[float, float, float, float],
            position: tuple[float, float, float] = (0.0, 0.0, 0.0),
            offset: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> int:
        """Add a coloured box, its centre `offset` from the body's origin; return its body id."""
        c = self._c
        shape = c.createVisualShape(c.GEOM_BOX, halfExtents=half_extents, rgbaColor=rgba, visualFramePosition=offset)
        return int(c.createMultiBody(baseMass=0, baseVisualShapeIndex=shape, basePosition=position))

    def recolour(self, body: int, rgba: tuple[float, float, float, float]) -> None:
        """Paint a body's shape another colour."""
        self._c.changeVisualShape(body, -1, rgbaColor=list(rgba))

    def place(self, body: int, position, orientation) -> None:
        """Put a body at a position with an orientation (x, y, z, w)."""
        self._c.resetBasePositionAndOrientation(body, list(position), list(orientation))

    # -- the window -------------------------------------------------------------------------------
    def camera(self) -> WindowCamera:
        """Return the window's camera."""
        width, height, view, proj, _, _, _, _, yaw, pitch, distance, target = self._c.getDebugVisualizerCamera()
        return WindowCamera(int(width), int(height), tuple(view), tuple(proj), float(yaw), float(pitch),
                            float(distance), tuple(float(v) for v in target))

    def aim(self, target, distance: float, yaw: float, pitch: float) -> None:
        """Point the window's orbit camera (the window reports it once it has drawn with it; `aimed` at once)."""
        self._c.resetDebugVisualizerCamera(distance, yaw, pitch, list(target))
        self.aimed = (tuple(target), distance, yaw, pitch)

    def key_events(self) -> dict[int, int]:
        """Return the keys seen since the last call: key code -> state bits (KEY_WAS_TRIGGERED, ...)."""
        return dict(self._c.getKeyboardEvents())

    def text(self, text: str, position, rgb: tuple[float, float, float], size: float, parent: int,
             replace: int | None = None) -> int:
        """Write a text that faces the camera at a position in a body's frame (it follows the body): a bitmap
        font `size` times its own height in pixels, anchored at its baseline's left end. Return its id;
        with `replace`, that text is changed in place (re-adding makes texts flicker)."""
        options = dict(textColorRGB=rgb, textSize=size, parentObjectUniqueId=parent, parentLinkIndex=-1)
        if replace is not None:
            options["replaceItemUniqueId"] = replace
        return int(self._c.addUserDebugText(text, list(position), **options))

    def remove_text(self, item: int) -> None:
        """Remove a text."""
        self._c.removeUserDebugItem(item)

    def grab(self) -> np.ndarray | None:
        """Return the window's pixels as shown, texts included (height x width x 3), or None where they cannot
        be read (not an X11 display)."""
        camera = self.camera()
        where = _x11_window(WINDOW_TITLE)
        if where is None:
            return None
        from PIL import ImageGrab

        x, y, width, height = where
        try:
            image = ImageGrab.grab(bbox=(x, y, x + min(width, camera.width), y + min(height, camera.height)))
        except OSError:
            return None
        return np.asarray(image.convert("RGB"))

    def scene_image(self) -> np.ndarray:
        """Return the window's 3-D scene alone (no texts), drawn by its OpenGL renderer with its camera."""
        c, camera = self._c, self.camera()
        _, _, rgba, _, _ = c.getCameraImage(camera.width, camera.height, camera.view, camera.projection,
                                            renderer=c.ER_BULLET_HARDWARE_OPENGL)
        return np.reshape(np.asarray(rgba, dtype=np.uint8), (camera.height, camera.width, 4))[:, :, :3].copy()


def _pybullet():
    from physics.world import pybullet

    return pybullet


def display_problem() -> str | None:
    """Return why PyBullet's GUI could not open its window here, or None where it can (or cannot be told).

    On Linux and other X11 systems PyBullet's window needs an X display with OpenGL (GLX); without one its C
    code ends the process (status 1, its message on the stderr that loading PyBullet silences). This opens the
    display as PyBullet would, and lets it go. macOS and Windows draw their windows without X: None.
    """
    if sys.platform in ("darwin", "win32"):
        return None
    name = os.environ.get("DISPLAY", "")
    if not name:
        return "there is no display (DISPLAY is not set)"
    x11 = _libx11()
    if x11 is None:
        return f"the X11 library (libX11) is not installed, so the display {name} cannot be opened"
    display = x11.XOpenDisplay(name.encode())
    if not display:
        return f"the display {name} cannot be opened"
    try:
        codes = [ctypes.c_int() for _ in range(3)]
        if not x11.XQueryExtension(display, b"GLX", *(ctypes.byref(code) for code in codes)):
            return f"the display {name} has no OpenGL (its X server lacks the GLX extension)"
    finally:
        x11.XCloseDisplay(display)
    return None


def _libx11():
    """Return libX11 with the signatures used here, or None where it is not installed."""
    name = ctypes.util.find_library("X11")
    if name is None:
        return None
    x11 = ctypes.cdll.LoadLibrary(name)
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XQueryExtension.argtypes = [ctypes.c_void_p, ctypes.c_char_p] + [ctypes.POINTER(ctypes.c_int)] * 3
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                               ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                               ctypes.POINTER(ctypes.c_uint)]
    x11.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
    x11.XGetGeometry.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong)] + \
        [ctypes.POINTER(ctypes.c_int)] * 2 + [ctypes.POINTER(ctypes.c_uint)] * 4
    x11.XTranslateCoordinates.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                          ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                          ctypes.POINTER(ctypes.c_ulong)]
    x11.XFree.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return x11


def _x11_window(title: str) -> tuple[int, int, int, int] | None:
    """Return (x, y, width, height) on the screen of the X11 window whose name starts with `title`."""
    x11 = _libx11()
    if x11 is None:
        return None
    display = x11.XOpenDisplay(None)
    if not display:
        return None
    try:
        root = x11.XDefaultRootWindow(display)
        window = _find(x11, display, root, title.encode())
        if window is None:
            return None
        unused, x, y = ctypes.c_ulong(), ctypes.c_int(), ctypes.c_int()
        width, height, border, depth = (ctypes.c_uint() for _ in range(4))
        x11.XGetGeometry(display, window, ctypes.byref(unused), ctypes.byref(x), ctypes.byref(y), ctypes.byref(width),
                         ctypes.byref(height), ctypes.byref(border), ctypes.byref(depth))
        x11.XTranslateCoordinates(display, window, root, 0, 0, ctypes.byref(x), ctypes.byref(y), ctypes.byref(unused))
        return x.value, y.value, width.value, height.value
    finally:
        x11.XCloseDisplay(display)


def _find(x11, display, window: int, title: bytes) -> int | None:
    """Return the first window under `window` (depth first) whose name starts with `title`."""
    name = ctypes.c_char_p()
    if x11.XFetchName(display, window, ctypes.byref(name)) and name.value is not None:
        found = name.value.startswith(title)
        x11.XFree(name)
        if found:
            return window
    root, parent = ctypes.c_ulong(), ctypes.c_ulong()
    children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
    if not x11.XQueryTree(display, window, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(children),
                          ctypes.byref(count)):
        return None
    try:
        for k in range(count.value):
            found = _find(x11, display, children[k], title)
            if found is not None:
                return found
    finally:
        if children:
            x11.XFree(children)
    return None
