"""Render steps offscreen and write them as a GIF, an MP4 or one PNG.

Frames: each step shows its motion at `fps` (t = 0, 1/fps, ... up to the step's duration), then holds the
board after it for `hold` seconds (round(hold * fps) frames, at least one) with what happened. A frame is
the board (`raster`: the board's drawing warped once per camera, the dice projected cubes) beside the
caption panel (`overlay`), whose foot shows the video's clock and the throw's. Frames are encoded as they
are drawn (`writers`), so memory stays flat however many there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from somaliland.errors import UsageError
from somaliland.replay import captions
from somaliland.replay.camera import Camera, follow, overview
from somaliland.replay.motion import frame_times, poses_at
from somaliland.replay.overlay import MUTED_RGB, PANEL_RGB, TEXT_RGB, TONES, Panel, panel_width
from somaliland.replay.story import Story
from somaliland.replay.textures import player_rgb

FORMATS = (".gif", ".mp4", ".png")
PITCH = -66.0  # degrees: the overview looks down from the south, steep enough that the board fills its column
TEXTURE_PX_PER_BOARD_PX = 1.5  # the board's drawing is made this much finer than it shows, for crisp warping
FOLLOW_PX_PER_CM = 24.0


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the export: which step, how far into its motion, and whether it shows the outcome."""

    step: int
    t: float
    done: bool


def plan(story: Story, steps: list[int], fps: float, hold: float) -> list[Frame]:
    """Return the frames that show these steps: each step's motion, then its outcome held."""
    frames = []
    for index in steps:
        step = story.steps[index]
        frames += [Frame(index, t, False) for t in frame_times(step, fps)]
        frames += [Frame(index, step.duration, True)] * max(1, round(hold * fps))
    return frames


def board_size(size: tuple[int, int]) -> tuple[int, int]:
    """Return the size of the board's part of a frame: all but the caption panel on the right."""
    return size[0] - panel_width(size[0]), size[1]


def board_camera(story: Story, size: tuple[int, int]) -> Camera:
    """Return the overview camera: the whole board as large as it fits in the board's part of the frame."""
    width, height = board_size(size)
    return overview(story.world.width, story.world.depth, width / height, pitch=PITCH, margin=0.96)


def camera_for(story: Story, frame: Frame, poses: dict, mode: str, whole: Camera) -> Camera:
    """Return the camera of a frame: the `whole` board's, or one following the step's ship."""
    step = story.steps[frame.step]
    if mode == "follow":
        ship = step.ship or (getattr(step.events[0].event, "ship", None) if step.events else None)
        pose = poses.get(ship) if ship else None
        if pose is not None:
            return follow(pose[0], pose[1])
    return whole


def export(story: Story, out: Path, steps: list[int], *, fps: float = 30.0, hold: float = 1.0,
           size: tuple[int, int] = (960, 720), camera: str = "overview") -> int:
    """Write the steps to `out` (.gif or .mp4: every frame; .png: the last one); return the frames written.

    Raises:
        UsageError: an unknown file type, a bad frame rate, hold or size.
    """
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"cannot write {out}: the output must end in {', '.join(FORMATS)}")
    if not 1 <= fps <= 120 or not 0 <= hold <= 30:
        raise UsageError(f"--fps must lie in 1..120 and --hold in 0..30 s (given {fps:g}, {hold:g})")
    width, height = size
    if not (160 <= width <= 4096 and 96 <= height <= 4096) or width % 16 or height % 16:
        raise UsageError(f"--size must be WIDTHxHEIGHT, multiples of 16 from 160x96 up to 4096x4096 "
                         f"(given {width}x{height})")
    frames = plan(story, steps, fps, hold)
    if suffix == ".png":
        frames = frames[-1:]
    film = _Film(story, size, fps, len(frames), camera)
    out.parent.mkdir(parents=True, exist_ok=True)
    writer = None
    try:
        for k, frame in enumerate(frames):
            picture = film.picture(k, frame)
            if writer is None:
                writer = _writer(out, size, fps, picture, film.exact_colours())
            writer.append(picture)
    finally:
        if writer is not None:
            writer.close()
    return len(frames)


class _Film:
    """Draws the frames of one export: the board beside the captions, with the clocks."""

    def __init__(self, story: Story, size: tuple[int, int], fps: float, count: int, camera: str) -> None:
        from somaliland.replay.raster import Painter
        from somaliland.units import cm

        self.story, self.size, self.fps, self.count, self.camera = story, size, fps, count, camera
        board = board_size(size)
        px_per_cm = (FOLLOW_PX_PER_CM if camera == "follow"
                     else TEXTURE_PX_PER_BOARD_PX * size[1] / cm(max(story.world.width, story.world.depth)))
        self.painter = Painter(story, board, px_per_cm)
        self.whole = board_camera(story, size)
        self.panel = Panel(size[0] - board[0], size[1])
        self.title = f"{story.header.get('map', {}).get('name', '')} - {Path(story.path).name}"
        self.seats = [(c, player_rgb(c)) for c in story.colours]
        self._captions: tuple[tuple[int, bool], object] | None = None

    def picture(self, k: int, frame: Frame) -> np.ndarray:
        """Return frame number k (0-based) as an RGB array."""
        step = self.story.steps[frame.step]
        poses = poses_at(step, frame.t if not frame.done else step.duration)
        board = np.asarray(self.painter.draw(poses, camera_for(self.story, frame, poses, self.camera, self.whole),
                                             step.ship))
        key = (frame.step, frame.done)
        if self._captions is None or self._captions[0] != key:
            self._captions = (key, self.panel.captions(self.title, captions.where(self.story, frame.step),
                                                       captions.news(self.story, step, frame.done), self.seats))
        return np.hstack([board, self.panel.clocks(self._captions[1], clocks(k, self.count, self.fps, frame,
                                                                             step.kind, step.duration))])

    def exact_colours(self) -> list[tuple[int, int, int]]:
        """Return the colours a GIF's palette must hold exactly: the dice's and the panel's."""
        from somaliland.replay.raster import palette_colours

        return palette_colours(self.story) + [PANEL_RGB, TEXT_RGB, MUTED_RGB, *TONES.values(),
                                              *(rgb for _, rgb in self.seats)]


def clocks(k: int, count: int, fps: float, frame: Frame, kind: str, duration: float) -> list[str]:
    """Return the clock lines of frame k of `count`: the video's time (from the first frame, never restarting)
    and how far into its throw's recorded motion the frame is."""
    motion = (f"throw {frame.t:.2f} of {duration:.2f} s" + (": outcome" if frame.done else "")
              if kind == "throw" else "pirate raid")
    return [f"video {_clock(k / fps)} of {_clock(count / fps)}   frame {k + 1}/{count}", motion]


def _writer(out: Path, size: tuple[int, int], fps: float, first: np.ndarray, exact: list[tuple[int, int, int]]):
    from somaliland.replay.writers import GifWriter, Mp4Writer, PngWriter

    suffix = out.suffix.lower()
    if suffix == ".gif":
        return GifWriter(out, fps, first, exact)
    if suffix == ".mp4":
        return Mp4Writer(out, size, fps)
    return PngWriter(out)


def _clock(seconds: float) -> str:
    """Return a time as m:ss.ss."""
    minutes, rest = divmod(seconds, 60.0)
    return f"{int(minutes)}:{rest:05.2f}"
