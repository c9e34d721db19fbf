"""Draw the overlay onto an exported frame: a caption box at the top (where we are, what happened) and a
footer with the frame number and the moment in the throw."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

BOX_RGBA = (15, 20, 30, 120)  # light enough to see the dice beneath
TEXT_RGB = (255, 255, 255)
ALERT_RGB = (255, 210, 90)
ALERTS = ("GAME OVER", "COLLISION", "SANK", "PIRATES", "ARRIVED", "FULFILLED", "aground", "tipped", "left the board")


@lru_cache(maxsize=4)
def _font(size: int):
    from matplotlib import font_manager
    from PIL import ImageFont

    return ImageFont.truetype(font_manager.findfont("DejaVu Sans"), size)


def draw(image: np.ndarray, header: list[str], news: list[str], footer: str) -> np.ndarray:
    """Return the image with the caption lines (header white, news highlighted) and the footer drawn on it."""
    from PIL import Image, ImageDraw

    height = image.shape[0]
    size = max(10, height // 48)
    font = _font(size)
    base = Image.fromarray(image).convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    lines = [(text, TEXT_RGB) for text in header]
    lines += [(text, ALERT_RGB if any(word in text for word in ALERTS) else TEXT_RGB) for text in news]
    step = int(size * 1.35)
    if lines:
        width = max(pen.textlength(text, font=font) for text, _ in lines)
        pen.rectangle((4, 4, 16 + width, 10 + step * len(lines)), fill=BOX_RGBA)
        for k, (text, rgb) in enumerate(lines):
            pen.text((10, 7 + k * step), text, font=font, fill=rgb, stroke_width=2, stroke_fill=(0, 0, 0, 255))
    small = _font(max(9, size - 3))
    width = pen.textlength(footer, font=small)
    pen.rectangle((4, height - 8 - step, 14 + width, height - 4), fill=BOX_RGBA)
    pen.text((9, height - 6 - step), footer, font=small, fill=TEXT_RGB)
    return np.asarray(Image.alpha_composite(base, layer).convert("RGB"))
