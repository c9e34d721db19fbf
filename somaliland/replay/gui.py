"""The interactive replay: a PyBullet window on the textured board, the throws played from their recorded
paths at real speed, keys to move through the game and to switch cameras, and a caption column beside the
board saying what happened in the words of `play`'s account (`captions.news`), each event in its colour
(`overlay.TONES`), as the exported frames do.

Keys (listed at the foot of the column): space pause/play, right/left next/previous throw, up/down
next/previous turn, 1-9 jump to a round, +/- speed, r replay the throw, q or Esc quit; cameras: o overview,
f follow the die, p the pirate ports one after another. The mouse orbits and zooms as usual in PyBullet.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from somaliland.replay import captions, cursor
from somaliland.replay.camera import Camera, camera_axes, fit
from somaliland.replay.motion import poses_at
from somaliland.replay.overlay import MUTED_RGB, PANEL_RGB, TEXT_RGB, TONES
from somaliland.replay.story import Step, Story

HOLD = 1.5  # s of replay time an outcome stays before the next step plays
FRAME = 1 / 60  # s between redraws
SPEEDS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
WINDOW = (1280, 800)  # pixels
BACKGROUND = (0.11, 0.12, 0.14)  # the room around the table
PITCH = -75.0  # degrees: the cameras look down from the south, steeply: PyBullet's window sees 90 degrees high
COLUMN_SHARE = 0.3  # of the window's width, for the captions
BOARD_MARGIN = 0.97  # the overview shows the board this close to the edges of its part of the window
FOLLOW_SHARE = 0.3  # the follow camera shows a square this share of the board's shorter side ...
FOLLOW_PITCH = -50.0
PORT_SHARE = 0.4  # ... a pirate port's camera one this large around the port
FONT_PX = (6.5, 13.0)  # PyBullet's bitmap font at text size 1: a character's advance, a line's height (measured)
TEXT_SIZE = 1.0
LINE_PX = 18  # pixels from one caption line to the next
PAD_PX = 14  # the column's inner margin
TEXT_DEPTH = 0.05  # m in front of the camera: texts and the column's backdrop ride on the camera
MAX_NEWS_LINES = 22
SHOT_TIMEOUT = 60.0  # s a screenshot waits for the window to draw what it was given
MARK_SIDE = 2.4  # die edges: the side of the white square that rings the die a step threw
MARK_HEIGHT = 0.0003  # m above the board
MARK_RGBA = (1.0, 1.0, 1.0, 1.0)
KEYS_HELP = (("space pause/play", "<- -> throw", "up/down turn", "1-9 round", "+/- speed", "r replay throw", "q quit"),
             ("cameras: o overview", "f follow the die", "p pirate ports (again: the next)", "mouse: orbit, zoom"))
GAP = "   "  # between the keys of the help lines
ASCII = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x", "\u2192": "->", "\u2190": "<-", "\u00b0": " deg",
         "\u2026": "...", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "}


@dataclass
class Playhead:
    """Where the replay is: the step, the time into it, how it plays and which camera looks."""

    index: int
    t: float = 0.0
    playing: bool = True
    speed: float = 1.0
    camera: str = "overview"  # "overview", "follow" or "port"
    port: int = 0  # which pirate port the port camera shows
    held: float = 0.0  # s the current outcome has been shown
    last: int = 0  # play up to and including this step, then pause

    def go(self, index: int) -> None:
        """Jump to the start of step `index`."""
        self.index, self.t, self.held = index, 0.0, 0.0


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in a window of width x height pixels: the board's part (left) and the caption column
    (right), in pixels and as the normalised window (-1..1) the cameras fit the board into."""

    width: int
    height: int

    @property
    def column(self) -> int:
        """Return the caption column's width in pixels."""
        return max(240, round(self.width * COLUMN_SHARE))

    @property
    def board_window(self) -> tuple[float, float, float, float]:
        """Return the board's part of the window as (left, right, bottom, top), -1..1."""
        return (-1.0, 1.0 - 2.0 * self.column / self.width, -1.0, 1.0)

    @property
    def chars(self) -> int:
        """Return how many characters of the bitmap font fit on a caption line."""
        return int((self.column - 2 * PAD_PX) / (FONT_PX[0] * TEXT_SIZE))

    @property
    def rows(self) -> int:
        """Return how many caption lines fit in the column."""
        return (self.height - 2 * PAD_PX) // LINE_PX


class Viewer:
    """The GUI replay of a story."""

    def __init__(self, story: Story, first: int, last: int, speed: float = 1.0, follow: bool = False,
                 size: tuple[int, int] = WINDOW) -> None:
        from somaliland.replay.table import Table

        self.story = story
        self.table = Table(story, window=size, background=BACKGROUND)
        self.view = self.table.view
        self.head = Playhead(first, speed=speed, camera="follow" if follow else "overview", last=last)
        self.down: set[int] = set()  # keys seen pressed and not yet released
        self.keys = key_actions()
        shown = self.view.camera()
        self.layout = Layout(shown.width, shown.height)
        self.lens = list(shown.projection)
        self.presets = self._presets()
        self.holder = self._backdrop()  # carries the column's backdrop and texts in front of the camera
        self.mark = self._thrown_mark()  # a square round the die the step threw
        self.holder_orbit: Camera | None = None
        self.texts: list[int] = []
        self.text_keys: list[tuple] = []
        self._aim()

    # -- cameras ----------------------------------------------------------------------------------
    def _presets(self) -> dict[str, Camera]:
        """Return the overview, the follow camera (on a die at the origin) and one camera per pirate port,
        each fitted to the board's part of the window from the map's own size."""
        world = self.story.world
        side, window = min(world.width, world.depth), self.layout.board_window
        aspect = self.layout.width / self.layout.height

        def around(x: float, y: float, span: float, pitch: float) -> Camera:
            return fit((x - span / 2, y - span / 2, x + span / 2, y + span / 2), aspect, pitch, BOARD_MARGIN,
                       self.lens, window)

        presets = {"overview": fit((0.0, 0.0, world.width, world.depth), aspect, PITCH, BOARD_MARGIN, self.lens,
                                   window),
                   "follow": around(0.0, 0.0, FOLLOW_SHARE * side, FOLLOW_PITCH)}
        for k, port in enumerate(world.pirate_ports):
            presets[f"port {k}"] = around(*port.point, PORT_SHARE * side, PITCH)
        return presets

    def _aim(self, poses: dict | None = None) -> None:
        """Point the window's camera as the playhead's camera says; the follow camera keeps its distance and
        angles whatever the mouse did (the window reports a camera only once it has drawn with it)."""
        head = self.head
        if head.camera == "follow":
            pose = self._followed(poses if poses is not None else self.table.shown)
            base = self.presets["follow"]
            x, y = (pose[0], pose[1]) if pose is not None else (0.0, 0.0)
            if pose is not None or poses is None:
                self.view.aim((base.target[0] + x, base.target[1] + y, base.target[2]), base.distance, base.yaw,
                              base.pitch)
            return
        camera = self.presets[f"port {head.port}" if head.camera == "port" else "overview"]
        self.view.aim(camera.target, camera.distance, camera.yaw, camera.pitch)

    def _followed(self, poses: dict):
        step = self.story.steps[self.head.index]
        ship = step.ship or (getattr(step.events[0].event, "ship", None) if step.events else None)
        return poses.get(ship) if ship else None

    def _switch(self, camera: str) -> None:
        head, ports = self.head, len(self.story.world.pirate_ports)
        if camera == "port":
            if not ports:
                return
            head.port = (head.port + 1) % ports if head.camera == "port" else 0
        head.camera = camera
        self._aim()

    # -- the loop ---------------------------------------------------------------------------------
    def run(self) -> None:
        """Replay until the window is closed or q is pressed."""
        try:
            previous = time.monotonic()
            while self.view.connected():
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
        """Apply the keys pressed since the last frame; return False to quit."""
        from physics.view import KEY_WAS_RELEASED, KEY_WAS_TRIGGERED

        actions = []
        for key, state in self.view.key_events().items():
            # a quick tap can come as a release alone (pressed and let go between two polls): count it once
            pressed = bool(state & KEY_WAS_TRIGGERED) or (bool(state & KEY_WAS_RELEASED) and key not in self.down)
            if state & KEY_WAS_TRIGGERED:
                self.down.add(key)
            if state & KEY_WAS_RELEASED:
                self.down.discard(key)
            if pressed:
                actions.append(self.keys.get(key) or (f"round {key - ord('0')}" if ord("1") <= key <= ord("9")
                                                        else None))
        for action in actions:
            if action == "quit":
                return False
            self._act(action)
        if actions:
            self.head.last = len(self.story.steps) - 1
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
        elif action in ("overview", "follow", "port"):
            self._switch(action)
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
        pose = poses.get(step.ship) if step.ship else None
        at = (pose[0], pose[1], MARK_HEIGHT) if pose is not None and pose[2] > 0 else (0.0, 0.0, -1.0)  # else hidden
        for bar in self.mark:
            self.view.place(bar, at, (0.0, 0.0, 0.0, 1.0))
        if head.camera == "follow":
            self._aim(poses)
        self._overlay(caption_lines(self.story, head, step, self.layout))

    def _thrown_mark(self) -> list[int]:
        """Add the four white bars of the square that rings the thrown die, `MARK_SIDE` die edges a side."""
        side, bar = MARK_SIDE * self.story.die_size, 0.0015
        half = side / 2
        return [self.view.box((half + bar, bar / 2, 2e-4), MARK_RGBA, offset=(0.0, dy, 0.0)) for dy in (-half, half)] + \
               [self.view.box((bar / 2, half + bar, 2e-4), MARK_RGBA, offset=(dx, 0.0, 0.0)) for dx in (-half, half)]

    def _backdrop(self) -> int:
        """Add the caption column's backdrop: a dark panel in front of the camera, on the right."""
        layout, depth = self.layout, TEXT_DEPTH * 1.05
        p00, p11 = self.lens[0], self.lens[5]
        left = 1.0 - 2.0 * layout.column / layout.width
        half = ((1.0 - left) / 2 * depth / p00, depth / p11, 1e-4)
        centre = ((1.0 + left) / 2 * depth / p00, 0.0, -depth)
        return self.view.box(half, (*(c / 255 for c in PANEL_RGB), 1.0), offset=centre)

    def _overlay(self, lines: list[tuple[str, tuple[int, int, int]]]) -> None:
        """Write the caption lines down the column, top to bottom, each in its colour (an empty line is a gap)."""
        self._place_holder()
        layout, p00, p11 = self.layout, self.lens[0], self.lens[5]
        x = 1.0 - 2.0 * (layout.column - PAD_PX) / layout.width
        written = [(row, text, rgb) for row, (text, rgb) in enumerate(lines) if text]
        for k, (row, text, rgb) in enumerate(written):
            y = 1.0 - 2.0 * (PAD_PX + FONT_PX[1] * TEXT_SIZE + row * LINE_PX) / layout.height  # the line's baseline
            at = (x * TEXT_DEPTH / p00, y * TEXT_DEPTH / p11, -TEXT_DEPTH)
            colour = tuple(c / 255 for c in rgb)
            key = (text, colour, at)
            if k < len(self.texts) and self.text_keys[k] == key:
                continue  # re-making an unchanged text makes it flicker
            replace = self.texts[k] if k < len(self.texts) else None
            item = self.view.text(text, at, colour, TEXT_SIZE, self.holder, replace=replace)
            if replace is None:
                self.texts.append(item)
                self.text_keys.append(key)
            else:
                self.texts[k], self.text_keys[k] = item, key
        for item in self.texts[len(written):]:
            self.view.remove_text(item)
        del self.texts[len(written):], self.text_keys[len(written):]

    def _place_holder(self) -> None:
        """Put the overlay's holder body at the camera's eye, turned with it: its backdrop and texts follow.
        The eye comes from the camera's orbit (target, distance, yaw, pitch): the window's own view matrix is
        only brought up to date when it next draws."""
        from scipy.spatial.transform import Rotation

        shown = self.view.camera()
        orbit = Camera(shown.target, shown.distance, shown.yaw, shown.pitch)
        if orbit == self.holder_orbit:
            return
        self.holder_orbit = orbit
        eye, right, up, back = camera_axes(orbit.view())
        turn = Rotation.from_matrix(np.column_stack([right, up, back])).as_quat()
        self.view.place(self.holder, eye.tolist(), turn.tolist())

    # -- screenshots ------------------------------------------------------------------------------
    def screenshot(self, path: Path) -> None:
        """Show the outcome of the last chosen step, save the window as a PNG (camera matrices, layout and the
        caption lines beside it in PATH.json), and close."""
        from PIL import Image

        head = self.head
        head.go(head.last)
        head.t = self.story.steps[head.last].duration
        head.playing = False
        self._draw()
        image = self._drawn()
        if image is None:
            print("somaliland replay: warning: cannot read the window's pixels (not an X11 display); the "
                  "screenshot shows the 3-D scene without the captions", file=sys.stderr)
            image = self.view.scene_image()
        camera = self.view.camera()
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(image).save(path)
        path.with_suffix(path.suffix + ".json").write_text(json.dumps(
            {"width": camera.width, "height": camera.height, "view": list(camera.view),
             "projection": list(camera.projection), "step": head.index, "poses": self.table.shown,
             "column": self.layout.column, "lines": caption_lines(self.story, head, self.story.steps[head.index],
                                                                   self.layout)}))
        self.close()

    def _drawn(self) -> np.ndarray | None:
        """Return the window's pixels once it has drawn everything asked of it so far, or None where they cannot
        be read. PyBullet draws in a thread of its own, on a busy machine many frames late, and reports the
        camera it was given only once it has drawn with it: the column's backdrop is turned a marker colour
        nothing else shows, then back, and the window read until a frame shows each (commands run in order, so
        the frame that shows the marker was drawn after everything asked before it). The colours are told apart
        strictly: a window not drawn yet is black and then PyBullet's lavender, which a looser test could take for
        the handshake (the likely cause of a screenshot with no board, seen once in a test run). Both ends of the
        column must show it, and the window is then read until two reads a frame apart agree: under Xvfb a read
        can catch a frame half copied to the window (a board still white, a die a step behind, seen twice in test
        runs of 2026-11-29 on a loaded machine), and until the board shows its map: PyBullet's window can draw
        the board white, its texture not applied yet, for frames after the handshake (seen in a test run of
        2026-11-29, a study beside it on both cores)."""
        if self.view.grab() is None:
            return None
        deadline = time.monotonic() + SHOT_TIMEOUT
        image = None
        for rgb, seen in ((MARKER_RGB, _shows_marker), (PANEL_RGB, _shows_panel)):
            self.view.recolour(self.holder, tuple(c / 255 for c in rgb) + (1.0,))
            while time.monotonic() < deadline:
                self._draw()  # the backdrop follows the camera as the window catches up with it
                image = self.view.grab()
                if seen(image[-4, -4].astype(int)) and seen(image[4, -4].astype(int)):  # the column's foot and head
                    break
                time.sleep(FRAME)
        while image is not None and time.monotonic() < deadline:  # and a frame the window shows whole, twice over,
            time.sleep(FRAME)                                      # with the board's map on it
            self._draw()
            again = self.view.grab()
            if np.array_equal(again, image) and _shows_board(again, self.view.camera(), self.story.world):
                break
            image = again
        if time.monotonic() >= deadline:
            print(f"somaliland replay: warning: the window did not draw within {SHOT_TIMEOUT:g} s; the screenshot "
                  "may show an older frame", file=sys.stderr)
        return image


MARKER_RGB = (255, 0, 255)  # the backdrop's colour for a moment of a screenshot's handshake: nothing else is magenta


BOARD_GRID = 5  # points a side of the grid on the board where a screenshot looks for the map's colours
PAINT_CHROMA = 30  # the least spread between a pixel's channels that is the map's sea or land, not a white board


def _shows_board(image: np.ndarray, camera, world) -> bool:
    """Whether the window shows the board with its map: at least half of a grid of points on the board that lie
    in the window are coloured (sea blue, land sand), not the grey and white of a board drawn without its
    texture. True where too few of the points are in view to tell (a close camera)."""
    from somaliland.replay.camera import project

    share = (np.arange(BOARD_GRID) + 0.5) / BOARD_GRID
    xs, ys = np.meshgrid(share * world.width, share * world.depth)
    points = np.column_stack([xs.ravel(), ys.ravel(), np.zeros(xs.size)])
    cols, rows = project(points, camera.view, camera.projection, camera.width, camera.height).T
    height, width = image.shape[:2]
    seen = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
    if seen.sum() < BOARD_GRID:
        return True
    pixels = image[rows[seen].astype(int), cols[seen].astype(int), :3].astype(int)
    coloured = pixels.max(axis=1) - pixels.min(axis=1) >= PAINT_CHROMA
    return bool(coloured.mean() >= 0.5)


def _shows_marker(pixel: np.ndarray) -> bool:
    """Whether a pixel of the column shows the marker backdrop, lit as the window lights it."""
    red, green, blue = pixel[:3]
    return red > 120 and blue > 120 and green < 40


def _shows_panel(pixel: np.ndarray) -> bool:
    """Whether a pixel of the column shows the dark panel backdrop: not black (a window not drawn yet), not the
    marker, not PyBullet's lavender background."""
    return 8 < int(pixel[:3].max()) < 60


def caption_lines(story: Story, head: Playhead, step: Step, layout: Layout) -> list[tuple[str, tuple[int, int, int]]]:
    """Return the column's lines, top to bottom, with their colours (0-255): where the step stands, what
    happened (`captions.news`, each event in its tone), then how the replay plays and the keys."""
    done = head.t >= step.duration
    width = layout.chars
    top = [(line, MUTED_RGB) for line in wrap(f"{story.world.name} - {Path(story.path).name}", width)]
    top += [(line, TEXT_RGB) for text in captions.where(story, head.index) for line in wrap(text, width)]
    top.append(("", TEXT_RGB))
    news = [(line, TONES.get(kind, TEXT_RGB)) for kind, text in captions.news(story, step, done)
            for line in wrap(text, width, indent="  ")]
    state = "playing" if head.playing else "paused"
    where = (f"pirate port {story.world.pirate_ports[head.port].name}" if head.camera == "port"
             else head.camera)
    foot = [("", TEXT_RGB)]
    foot += [(line, MUTED_RGB) for line in wrap(f"speed x{head.speed:g}   {state}   camera: {where}", width)]
    foot += [(line, MUTED_RGB) for keys in KEYS_HELP for line in wrap(GAP.join(keys), width, separator=GAP)]
    room = min(MAX_NEWS_LINES, layout.rows - len(top) - len(foot))
    if len(news) > room:
        news = news[:max(0, room - 1)] + [(f"... {len(news) - room + 1} more lines", MUTED_RGB)]
    return top + news + foot


def wrap(text: str, width: int, indent: str = "", separator: str = " ") -> list[str]:
    """Return the text in ASCII (the window's font has no other letters) broken at separators into lines of at
    most `width` characters (a longer word keeps its own line), lines after the first indented."""
    plain = "".join(ASCII.get(c, c) for c in text).encode("ascii", "replace").decode()
    lines, line = [], ""
    for word in plain.split(separator):
        trial = f"{line}{separator}{word}" if line else word
        if line and len(trial) > width:
            lines.append(line)
            line = indent + word
        else:
            line = trial
    return lines + [line] if line or not lines else lines


def key_actions() -> dict[int, str]:
    """Return what each key does, by PyBullet key code (1-9 are handled apart: jump to that round)."""
    from physics.view import ARROWS

    return {ord(" "): "pause / play", ARROWS["right"]: "next throw", ARROWS["left"]: "previous throw",
            ARROWS["up"]: "next turn", ARROWS["down"]: "previous turn", ord("+"): "faster", ord("="): "faster",
            ord("-"): "slower", ord("o"): "overview", ord("f"): "follow", ord("p"): "port",
            ord("r"): "replay throw", ord("q"): "quit", 27: "quit"}


def replay(story: Story, steps: list[int], speed: float = 1.0, follow: bool = False,
           screenshot: Path | None = None) -> None:
    """Open the GUI on the chosen steps (it plays them, then stays open on the whole game)."""
    viewer = Viewer(story, steps[0], steps[-1], speed=speed, follow=follow)
    if screenshot is not None:
        viewer.screenshot(screenshot)
        return
    viewer.run()
