"""Frame writers that stream: each frame is encoded as it comes and dropped, so memory stays flat however
long the video. A GIF gets one palette for all its frames and each frame only where it differs from the
one before; its frame delays (whole centiseconds in the format) are rounded on the running clock, so the
GIF plays at the frame rate asked (33.3 ms frames become 30, 30, 40, ..., not 30 ms each, 10% fast).
An MP4 goes to ffmpeg (imageio-ffmpeg ships it) through a pipe."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np

LUT_BITS = 6  # bits per channel of the colour lookup from RGB to the GIF's palette


class Writer(Protocol):
    """Takes frames (height x width x 3, uint8), one after another."""

    def append(self, frame: np.ndarray) -> None: ...

    def close(self) -> None: ...


def gif_delays(count: int, fps: float) -> list[int]:
    """Return each frame's delay in centiseconds, rounded so that frame k starts at round(100 k / fps)."""
    starts = [round(100 * k / fps) for k in range(count + 1)]
    return [b - a for a, b in zip(starts, starts[1:])]


class GifWriter:
    """Writes an animated GIF (looping) frame by frame with one palette: `exact` colours kept as they are (the
    dice's, the captions'), the rest chosen from a sample frame by median cut."""

    def __init__(self, path: Path, fps: float, sample: np.ndarray, exact: list[tuple[int, int, int]]) -> None:
        self.path, self.fps = path, fps
        self.palette = _palette(sample, exact)
        self.lut = _lookup(self.palette)
        self.file = open(path, "wb")
        self.previous: np.ndarray | None = None
        self.count = 0

    def append(self, frame: np.ndarray) -> None:
        """Encode one frame: where it differs from the previous one (all of it first)."""
        from PIL import GifImagePlugin, Image

        if self.previous is None:
            box = (0, 0, frame.shape[1], frame.shape[0])
        else:
            changed = (frame != self.previous).reshape(frame.shape[0], -1)  # rows of r, g, b bytes: fast to reduce
            rows = np.flatnonzero(changed.any(axis=1))
            if len(rows):
                cols = np.flatnonzero(changed[rows[0]:rows[-1] + 1].any(axis=0).reshape(-1, 3).any(axis=1))
                box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
            else:
                box = (0, 0, 1, 1)
        part = frame[box[1]:box[3], box[0]:box[2]]
        shift = 8 - LUT_BITS
        index = self.lut[(part[..., 0] >> shift).astype(np.int32) << 2 * LUT_BITS
                         | (part[..., 1] >> shift).astype(np.int32) << LUT_BITS | part[..., 2] >> shift]
        image = Image.fromarray(index.astype(np.uint8), "P")
        image.putpalette(self.palette.ravel().tolist())
        delay = gif_delays(self.count + 1, self.fps)[-1]
        if self.previous is None:
            head, _ = GifImagePlugin.getheader(_canvas(frame.shape, self.palette), info={"loop": 0, "duration": 1})
            self.file.write(b"".join(head))
        self.file.write(b"".join(GifImagePlugin.getdata(image, offset=box[:2], duration=10 * delay, disposal=1)))
        self.previous = frame
        self.count += 1

    def close(self) -> None:
        """End the file (a GIF needs its trailer)."""
        self.file.write(b";")
        self.file.close()


class Mp4Writer:
    """Writes an H.264 MP4 through ffmpeg at exactly `fps`."""

    def __init__(self, path: Path, size: tuple[int, int], fps: float) -> None:
        import imageio_ffmpeg

        self.pipe = imageio_ffmpeg.write_frames(str(path), size, fps=fps, codec="libx264", pix_fmt_out="yuv420p",
                                                macro_block_size=16, quality=7, output_params=["-preset", "veryfast"],
                                                ffmpeg_log_level="error")
        self.pipe.send(None)

    def append(self, frame: np.ndarray) -> None:
        """Send one frame to ffmpeg."""
        self.pipe.send(np.ascontiguousarray(frame))

    def close(self) -> None:
        """Let ffmpeg finish the file."""
        self.pipe.close()


class PngWriter:
    """Keeps the last frame and writes it as a PNG."""

    def __init__(self, path: Path) -> None:
        self.path, self.last = path, None

    def append(self, frame: np.ndarray) -> None:
        """Keep the frame: the file shows the last one."""
        self.last = frame

    def close(self) -> None:
        """Write the last frame."""
        from PIL import Image

        if self.last is not None:
            Image.fromarray(self.last).save(self.path)


def _canvas(shape: tuple[int, ...], palette: np.ndarray):
    """Return a blank paletted image of the frame's size, which the GIF header is written from."""
    from PIL import Image

    image = Image.new("P", (shape[1], shape[0]))
    image.putpalette(palette.ravel().tolist())
    return image


def _palette(sample: np.ndarray, exact: list[tuple[int, int, int]]) -> np.ndarray:
    """Return 256 colours: the exact ones, then the sample's most telling others (median cut)."""
    from PIL import Image

    exact = list(dict.fromkeys(exact))[:128]
    chosen = Image.fromarray(sample).quantize(colors=256 - len(exact), method=Image.Quantize.MEDIANCUT)
    rest = np.array(chosen.getpalette()[:3 * (256 - len(exact))], dtype=np.uint8).reshape(-1, 3)
    palette = np.vstack([np.array(exact, dtype=np.uint8).reshape(-1, 3), rest])
    return np.vstack([palette, np.zeros((256 - len(palette), 3), np.uint8)])


def _lookup(palette: np.ndarray) -> np.ndarray:
    """Return the palette index nearest to each colour of a LUT_BITS-per-channel cube, flattened (r, g, b)."""
    levels = (np.arange(2 ** LUT_BITS) << (8 - LUT_BITS)) + (1 << (7 - LUT_BITS))
    cube = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1).reshape(-1, 3).astype(np.float32)
    colours = palette.astype(np.float32)
    out = np.empty(len(cube), dtype=np.uint8)
    for start in range(0, len(cube), 16384):
        chunk = cube[start:start + 16384]
        distance = (chunk ** 2).sum(1)[:, None] - 2 * chunk @ colours.T + (colours ** 2).sum(1)[None, :]
        out[start:start + 16384] = np.argmin(distance, axis=1)
    return out
