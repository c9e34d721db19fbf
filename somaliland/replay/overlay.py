"""The caption panel of exported frames: a column beside the board, never over it, saying where the step
stands, what happened (each event in its colour) and, at its foot, the clocks: the video's, running on
from the first frame to the last, and the throw's own."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

PANEL_RGB = (24, 28, 36)
RULE_RGB = (70, 78, 92)
TEXT_RGB = (240, 240, 240)
MUTED_RGB = (150, 158, 170)
# An event's colour in the panel (others: TEXT_RGB), by the record's name for its kind: a label lookup, not a
# dispatch on kind strings (the captions carry the name as far as the HTML page, which colours by it too).
TONES = {
    "sunk": (255, 110, 100), "seized": (255, 170, 70), "collision": (255, 215, 90), "tipped": (255, 215, 90),
    "arrived": (120, 225, 140), "fulfilled": (120, 225, 140), "failed": (255, 150, 150),
    "grounded": (230, 200, 150), "replaced": (230, 200, 150), "released": (140, 200, 255),
    "lost_turn": MUTED_RGB, "turn_skipped": MUTED_RGB, "launched": (200, 210, 225),
    "round_end": (255, 255, 255), "final": (255, 230, 120),
}
PANEL_SHARE = 0.32  # of the frame's width


def panel_width(width: int) -> int:
    """Return the panel's width in a frame `width` pixels wide: a multiple of 16, so the board's is too."""
    return max(16, int(round(width * PANEL_SHARE / 16)) * 16)


@lru_cache(maxsize=8)
def font(size: int, bold: bool = False):
    """Return DejaVu Sans (matplotlib ships it) at a pixel size."""
    from matplotlib import font_manager
    from PIL import ImageFont

    return ImageFont.truetype(font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans",
                                                                                weight="bold" if bold else "normal")),
                              size)


class Panel:
    """Draws the caption column, `width` x `height` pixels."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.size = max(8, round(height / 52))
        self.line = round(self.size * 1.3)
        self.pad = max(4, self.size // 2)
        self.foot = 2 * self.line + self.pad  # room kept for the clocks

    def captions(self, title: str, header: list[str], news: list[tuple[str, str]],
                 seats: list[tuple[str, tuple[int, int, int]]]):
        """Return the panel (a PIL image) with the title, where we are, what happened and the seats' colours."""
        from PIL import Image, ImageDraw

        image = Image.new("RGB", (self.width, self.height), PANEL_RGB)
        pen = ImageDraw.Draw(image)
        regular, bold, small = font(self.size), font(self.size, True), font(max(7, self.size - 3))
        wide = self.width - 2 * self.pad
        y = self.pad
        for text in _wrap(pen, title, small, wide):
            pen.text((self.pad, y), text, font=small, fill=MUTED_RGB)
            y += round(self.line * 0.85)
        rows = [(text, bold, TEXT_RGB, 0) for line in header for text in _wrap(pen, line, bold, wide)]
        rows.append(("", regular, TEXT_RGB, 0))
        for kind, text in news:  # a dot in the event's colour opens each event; its wrapped lines are indented
            rows += [(t, regular, TONES.get(kind, TEXT_RGB), 1 + (k > 0))
                     for k, t in enumerate(_wrap(pen, text, regular, wide - self.size))]
        bottom = self.height - self.foot - self.line  # the seats' row sits above the clocks
        fits = max(0, (bottom - y) // self.line)
        if len(rows) > fits:
            rows = rows[:max(0, fits - 1)] + [(f"... {len(rows) - fits + 1} more lines", regular, MUTED_RGB, 0)]
        dot = self.size * 0.45
        for text, face, rgb, indent in rows:
            if indent == 1:
                top = y + (self.line - dot) / 2
                pen.ellipse((self.pad, top, self.pad + dot, top + dot), fill=rgb)
            pen.text((self.pad + (self.size if indent else 0), y), text, font=face, fill=rgb)
            y += self.line
        pen.line((self.pad, bottom - self.pad // 2, self.width - self.pad, bottom - self.pad // 2), fill=RULE_RGB)
        x = self.pad
        for name, rgb in seats:
            pen.rectangle((x, bottom + 2, x + self.size - 4, bottom + self.size - 2), fill=rgb, outline=TEXT_RGB)
            x += self.size + 2
            pen.text((x, bottom), name, font=small, fill=TEXT_RGB)
            x += round(pen.textlength(name, font=small)) + self.size
        return image

    def clocks(self, panel, lines: list[str]) -> np.ndarray:
        """Return the panel as an array with the clock lines written at its foot."""
        from PIL import ImageDraw

        image = panel.copy()
        pen = ImageDraw.Draw(image)
        small = font(max(7, self.size - 2))
        for k, text in enumerate(lines):
            pen.text((self.pad, self.height - self.foot + self.pad // 2 + k * self.line), text, font=small,
                     fill=MUTED_RGB)
        return np.asarray(image)


def _wrap(pen, text: str, face, width: float) -> list[str]:
    """Return the text broken into lines no wider than `width` pixels (a long word keeps its own line)."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and pen.textlength(trial, font=face) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line] if line else lines
