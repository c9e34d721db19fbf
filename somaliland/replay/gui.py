"""The interactive replay: PyBullet's GUI window on the textured board, the throws played from their
recorded paths at real speed, keys and side-panel buttons to move through the game, and an overlay.

Keys (also listed on screen): space pause/play, right/left next/previous throw, up/down next/previous
turn, 1-9 jump to a round, +/- speed, f follow-the-die camera, r replay the throw, q quit. The side
panel has the same as buttons, plus sliders for the round and the speed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from somaliland.replay import captions, cursor
from somaliland.replay.camera import camera_axes, overview
from somaliland.replay.motion import poses_at
from somaliland.replay.story import Story

HOLD = 1.5  # s of replay time an outcome stays before the next step plays
FRAME = 1 / 60  # s between redraws
SPEEDS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
KEYS_HELP = ("keys: space pause/play   <- -> throw   up/down turn   1-9 round",
             "      +/- speed   f follow camera   r replay throw   q quit")
TEXT_LEFT, TEXT_TOP, TEXT_STEP = -0.6, 0.86, 0.05  # screen position (-1..1) clear of PyBullet's side panels
VIEW_WINDOW = (-0.6, 0.56, -0.64, 0.3)  # where the board shows: between the panels, below the overlay
TEXT_DEPTH = 0.1  # m in front of the camera
MAX_NEWS = 7
TEXT_RGB = (0.05, 0.05, 0.1)
ALERT_RGB = (0.75, 0.1, 0.0)
BUTTONS = ("next throw", "previous throw", "next turn", "previous turn", "pause / play", "follow camera",
           "replay throw")


@dataclass
class Playhead:
    """Where the replay is: the step, the time into it, and how it plays."""

    index: int
    t: float = 0.0
    playing: bool = True
    speed: float = 1.0
    follow: bool = False
    held: float = 0.0  # s the current outcome has been shown
    last: int = 0  # play up to and including this step, then pause

    def go(self, index: int) -> None:
        """Jump to the start of step `index`."""
        self.index, self.t, self.held = index, 0.0, 0.0


class Viewer:
    """The GUI replay of a story."""

    def __init__(self, story: Story, first: int, last: int, speed: float = 1.0, follow: bool = False,
                 width: int = 1280, height: int = 800) -> None:
        from somaliland.replay.table import Table

        self.story = story
        self.table = Table(story, gui=True, options=f"--width={width} --height={height}")
        self.client = self.table.client
        self.head = Playhead(first, speed=speed, follow=follow, last=last)
        self.texts: list[int] = []
        self.text_keys: list[tuple] = []
        self.down: set[int] = set()  # keys seen pressed and not yet released
        self.keys = key_actions(self.client)
        dot = self.client.createVisualShape(self.client.GEOM_SPHERE, radius=1e-5, rgbaColor=(0, 0, 0, 0))
        self.holder = self.client.createMultiBody(baseMass=0, baseVisualShapeIndex=dot)  # carries the overlay's texts
        self.holder_view: tuple = ()
        self._setup_gui()

    # -- set-up -----------------------------------------------------------------------------------
    def _setup_gui(self) -> None:
        c = self.client
        for flag in ("COV_ENABLE_KEYBOARD_SHORTCUTS", "COV_ENABLE_RGB_BUFFER_PREVIEW",
                     "COV_ENABLE_DEPTH_BUFFER_PREVIEW", "COV_ENABLE_SEGMENTATION_MARK_PREVIEW", "COV_ENABLE_MOUSE_PICKING"):
            c.configureDebugVisualizer(getattr(c, flag), 0)
        c.configureDebugVisualizer(c.COV_ENABLE_GUI, 1)
        c.configureDebugVisualizer(c.COV_ENABLE_SHADOWS, 0)  # the shadow map streaks the flat board
        width, height, _, lens = c.getDebugVisualizerCamera()[:4]
        cam = overview(self.story.world.width, self.story.world.depth, width / max(height, 1), margin=0.95, lens=lens,
                       window=VIEW_WINDOW)
        c.resetDebugVisualizerCamera(cam.distance, cam.yaw, cam.pitch, cam.target)
        self.buttons = {name: c.addUserDebugParameter(name, 1, 0, 0) for name in BUTTONS}
        self.clicks = {name: 0.0 for name in BUTTONS}
        rounds = self.story.rounds()
        self.round_slider = c.addUserDebugParameter("round", rounds[0], rounds[-1] + 0.99,
                                                    self.story.steps[self.head.index].round)
        self.speed_slider = c.addUserDebugParameter("speed", 0.1, 8.0, self.head.speed)
        self.slider_values = (self._read(self.round_slider), self._read(self.speed_slider))

    def _read(self, item: int) -> float:
        return float(self.client.readUserDebugParameter(item))

    # -- the loop ---------------------------------------------------------------------------------
    def run(self) -> None:
        """Replay until the window is closed or q is pressed."""
        try:
            previous = time.monotonic()
            while self.client.isConnected():
                now = time.monotonic()
                if not self._controls():
                    break
                self._advance(min(now - previous, 0.1))
                previous = now
                self._draw()
                time.sleep(FRAME)
        except Exception as error:  # the window was closed under us: pybullet says "Not connected"
            if "connect" not in str(error).lower():
                raise
        finally:
            self.close()

    def close(self) -> None:
        """Close the window."""
        try:
            self.table.close()
        except Exception as error:  # already gone when the user closed the window
            if "connect" not in str(error).lower():
                raise

    def _advance(self, dt: float) -> None:
        head, story = self.head, self.story
        if not head.playing:
            return
        step = story.steps[head.index]
        if head.t < step.duration:
            head.t = min(step.duration, head.t + dt * head.speed)
            return
        head.held += dt * head.speed
        if head.held >= HOLD:
            if head.index >= head.last or head.index == len(story.steps) - 1:
                head.playing = False
            else:
                head.go(head.index + 1)

    def _controls(self) -> bool:
        """Apply keys, buttons and sliders; return False to quit."""
        c, head, story = self.client, self.head, self.story
        actions = []
        for key, state in c.getKeyboardEvents().items():
            # a quick tap can come as a release alone (pressed and let go between two polls): count it once
            pressed = bool(state & c.KEY_WAS_TRIGGERED) or (bool(state & c.KEY_WAS_RELEASED) and key not in self.down)
            if state & c.KEY_WAS_TRIGGERED:
                self.down.add(key)
            if state & c.KEY_WAS_RELEASED:
                self.down.discard(key)
            if pressed:
                actions.append(self.keys.get(key) or (f"round {key - ord('0')}" if ord("1") <= key <= ord("9")
                                                        else None))
        for name, item in self.buttons.items():
            value = self._read(item)
            if value != self.clicks[name]:
                self.clicks[name] = value
                actions.append(name)
        round_value, speed_value = self._read(self.round_slider), self._read(self.speed_slider)
        if round_value != self.slider_values[0]:
            actions.append(f"round {int(round_value)}")
        if speed_value != self.slider_values[1]:
            head.speed = max(0.1, speed_value)
        self.slider_values = (round_value, speed_value)
        for action in actions:
            if action == "quit":
                return False
            self._act(action)
        if actions:
            head.last = len(story.steps) - 1
        return True

    def _act(self, action: str | None) -> None:
        head, story = self.head, self.story
        moves = {"next throw": cursor.next_step, "previous throw": cursor.previous_step,
                 "next turn": cursor.next_turn, "previous turn": cursor.previous_turn}
        if action in moves:
            head.go(moves[action](story, head.index))
        elif action == "replay throw":
            head.go(head.index)
            head.playing = True
        elif action == "pause / play":
            head.playing = not head.playing
        elif action == "follow camera":
            head.follow = not head.follow
        elif action in ("faster", "slower"):
            k = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - head.speed))
            k = min(k + 1, len(SPEEDS) - 1) if action == "faster" else max(k - 1, 0)
            head.speed = SPEEDS[k]
        elif action and action.startswith("round "):
            head.go(cursor.round_start(story, int(action.split()[1])))

    # -- drawing ----------------------------------------------------------------------------------
    def _draw(self) -> None:
        head = self.head
        step = self.story.steps[head.index]
        poses = poses_at(step, head.t)
        self.table.show(poses)
        if head.follow:
            ship = step.ship or (getattr(step.events[0].event, "ship", None) if step.events else None)
            pose = poses.get(ship) if ship else None
            if pose is not None:
                cam = self.client.getDebugVisualizerCamera()
                self.client.resetDebugVisualizerCamera(0.25, cam[8], cam[9], (pose[0], pose[1], 0.0))
        self._overlay(step, head.t >= step.duration)

    def _overlay(self, step, done: bool) -> None:
        head = self.head
        state = "playing" if head.playing else "paused"
        lines = [(text, TEXT_RGB) for text in captions.where(self.story, head.index)]
        news = captions.happened(self.story, step, done)
        if len(news) > MAX_NEWS:
            news = news[:MAX_NEWS - 1] + [f"... and {len(news) - MAX_NEWS + 1} more"]
        lines += [(text, ALERT_RGB) for text in news]
        lines.append((f"motion {step.duration:.2f} s   speed x{head.speed:g}   {state}"
                      f"   camera: {'follow' if head.follow else 'free'}", TEXT_RGB))
        lines += [(text, TEXT_RGB) for text in KEYS_HELP]
        self._place_holder()
        proj = np.asarray(self.client.getDebugVisualizerCamera()[3], dtype=float).reshape(4, 4).T
        for k, (text, rgb) in enumerate(lines):
            at = (TEXT_LEFT * TEXT_DEPTH / proj[0, 0], (TEXT_TOP - TEXT_STEP * k) * TEXT_DEPTH / proj[1, 1], -TEXT_DEPTH)
            if k < len(self.texts) and self.text_keys[k] == (text, rgb, at):
                continue  # re-making an unchanged text makes it flicker
            options = dict(textColorRGB=rgb, textSize=1.1, parentObjectUniqueId=self.holder, parentLinkIndex=-1)
            if k < len(self.texts):
                self.texts[k] = self.client.addUserDebugText(text, at, replaceItemUniqueId=self.texts[k], **options)
                self.text_keys[k] = (text, rgb, at)
            else:
                self.texts.append(self.client.addUserDebugText(text, at, **options))
                self.text_keys.append((text, rgb, at))
        for item in self.texts[len(lines):]:
            self.client.removeUserDebugItem(item)
        del self.texts[len(lines):], self.text_keys[len(lines):]

    def _place_holder(self) -> None:
        """Put the overlay's invisible holder body at the camera's eye, turned with it: its texts follow."""
        from scipy.spatial.transform import Rotation

        view = self.client.getDebugVisualizerCamera()[2]
        if view == self.holder_view:
            return
        self.holder_view = view
        eye, right, up, back = camera_axes(view)
        turn = Rotation.from_matrix(np.column_stack([right, up, back])).as_quat()
        self.client.resetBasePositionAndOrientation(self.holder, eye.tolist(), turn.tolist())

    # -- screenshots ------------------------------------------------------------------------------
    def screenshot(self, path: Path, settle: float = 0.5) -> None:
        """Show the outcome of the last chosen step, save the 3-D view as a PNG (camera matrices beside it
        in PATH.json), and close."""
        import pybullet
        from PIL import Image

        head = self.head
        head.go(head.last)
        head.t = self.story.steps[head.last].duration
        head.playing = False
        end = time.monotonic() + settle
        while time.monotonic() < end:
            self._draw()
            time.sleep(FRAME)
        width, height, view, proj = self.client.getDebugVisualizerCamera()[:4]
        _, _, rgba, _, _ = self.client.getCameraImage(width, height, view, proj,
                                                      renderer=pybullet.ER_BULLET_HARDWARE_OPENGL)
        image = np.reshape(np.asarray(rgba, dtype=np.uint8), (height, width, 4))[:, :, :3]
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(image).save(path)
        path.with_suffix(path.suffix + ".json").write_text(json.dumps(
            {"width": width, "height": height, "view": list(view), "projection": list(proj),
             "step": head.index, "poses": self.table.shown}))
        self.close()


def key_actions(client) -> dict[int, str]:
    """Return what each key does, by PyBullet key code (1-9 are handled apart: jump to that round)."""
    c = client
    return {ord(" "): "pause / play", c.B3G_RIGHT_ARROW: "next throw", c.B3G_LEFT_ARROW: "previous throw",
            c.B3G_UP_ARROW: "next turn", c.B3G_DOWN_ARROW: "previous turn", ord("+"): "faster", ord("="): "faster",
            ord("-"): "slower", ord("f"): "follow camera", ord("r"): "replay throw", ord("q"): "quit", 27: "quit"}


def replay(story: Story, steps: list[int], speed: float = 1.0, follow: bool = False,
           screenshot: Path | None = None) -> None:
    """Open the GUI on the chosen steps (it plays them, then stays open on the whole game)."""
    viewer = Viewer(story, steps[0], steps[-1], speed=speed, follow=follow)
    if screenshot is not None:
        viewer.screenshot(screenshot)
        return
    viewer.run()
