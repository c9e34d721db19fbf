"""Render steps offscreen (PyBullet's TinyRenderer) and write them as a GIF, an MP4 or one PNG.

Frames: each step shows its motion at `fps` (t = 0, 1/fps, ... up to the step's duration), then holds
the board after it for `hold` seconds (round(hold * fps) frames, at least one) with what happened. Every frame shows its
number, so no two frames are alike and a GIF keeps them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from somaliland.errors import UsageError
from somaliland.replay import captions, overlay
from somaliland.replay.camera import Camera, follow, overview
from somaliland.replay.motion import frame_times, poses_at
from somaliland.replay.story import Story

FORMATS = (".gif", ".mp4", ".png")
GIF_BYTES = 2e9  # a GIF is written from frames held in memory; an MP4 streams
BOARD_WINDOW = (-1.0, 1.0, -1.0, 0.84)  # the board keeps below the caption's first lines


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


def camera_for(story: Story, frame: Frame, poses: dict, aspect: float, mode: str) -> Camera:
    """Return the camera of a frame: the overview, or one following the step's ship."""
    step = story.steps[frame.step]
    if mode == "follow":
        ship = step.ship or (step.events[0].get("ship") if step.events else None)
        pose = poses.get(ship) if ship else None
        if pose is not None:
            return follow(pose[0], pose[1])
    return overview(story.world.width, story.world.depth, aspect, window=BOARD_WINDOW)


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
    if not (16 <= width <= 4096 and 16 <= height <= 4096) or width % 16 or height % 16:
        raise UsageError(f"--size must be WIDTHxHEIGHT, multiples of 16 up to 4096 (given {width}x{height})")
    frames = plan(story, steps, fps, hold)
    if suffix == ".png":
        frames = frames[-1:]
    if suffix == ".gif" and len(frames) * width * height * 3 > GIF_BYTES:
        raise UsageError(f"a GIF of {len(frames)} frames of {width}x{height} would need "
                         f"{len(frames) * width * height * 3 / 1e9:.1f} GB of memory to write: choose an .mp4, "
                         f"a --round and --turn, a smaller --size or a lower --fps")
    from somaliland.replay.table import Table

    with Table(story) as table:
        images = (_picture(story, table, f, k, len(frames), width, height, camera) for k, f in enumerate(frames))
        _write(out, images, fps)
    return len(frames)


def _picture(story: Story, table, frame: Frame, k: int, count: int, width: int, height: int,
             camera: str) -> np.ndarray:
    step = story.steps[frame.step]
    poses = poses_at(step, frame.t if not frame.done else step.duration)
    table.show(poses)
    image = table.render(camera_for(story, frame, poses, width / height, camera), width, height)
    footer = f"{story.header.get('map', {}).get('name', '')}  frame {k + 1}/{count}  t = {frame.t:.3f} s"
    return overlay.draw(image, captions.where(story, frame.step), captions.happened(story, step, frame.done),
                        footer)


def _write(out: Path, images, fps: float) -> None:
    """Write frames to a file by its suffix (imageio: Pillow for GIF and PNG, ffmpeg for MP4)."""
    import imageio.v2 as imageio
    import imageio.v3 as iio

    out.parent.mkdir(parents=True, exist_ok=True)
    suffix = out.suffix.lower()
    if suffix == ".png":
        iio.imwrite(out, next(iter(images)))
    elif suffix == ".gif":
        iio.imwrite(out, np.stack(list(images)), extension=".gif", duration=1000.0 / fps, loop=0)
    else:
        with imageio.get_writer(out, format="FFMPEG", mode="I", fps=fps, codec="libx264",
                                pixelformat="yuv420p", macro_block_size=16) as writer:
            for image in images:
                writer.append_data(image)
