"""Argument types shared by the commands: they turn strings into checked values or explain why not."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from somaliland.units import MM


def int_list(n: int, what: str):
    """Return an argparse type reading n comma-separated non-negative integers."""

    def parse(text: str) -> tuple[int, ...]:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != n:
            raise argparse.ArgumentTypeError(f"{what}: expected {n} comma-separated values, got {len(parts)} in {text!r}")
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}: expected whole numbers, got {text!r}") from None
        if any(v < 0 for v in values):
            raise argparse.ArgumentTypeError(f"{what}: values must be non-negative, got {text!r}")
        return values

    return parse


def size_mm(text: str) -> tuple[float, float, float]:
    """Read a die size in millimetres, 'S' (a cube) or 'X,Y,Z', into metres."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (1, 3):
        raise argparse.ArgumentTypeError(f"size: expected S or X,Y,Z in mm, got {text!r}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"size: expected numbers in mm, got {text!r}") from None
    if any(not math.isfinite(v) or not 2 <= v <= 200 for v in values):
        raise argparse.ArgumentTypeError(f"size: each edge must be between 2 and 200 mm, got {text!r}")
    if len(values) == 1:
        values *= 3
    return tuple(v * MM for v in values)  # type: ignore[return-value]


def positive_int(text: str) -> int:
    """Read a positive whole number."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {v}")
    return v


def positive_int_at_most(limit: int):
    """Return an argparse type reading a positive whole number no larger than `limit`."""

    def read(text: str) -> int:
        v = positive_int(text)
        if v > limit:
            raise argparse.ArgumentTypeError(f"expected a positive whole number up to {limit:,}, got {v:,}")
        return v

    return read


def positive_float(text: str) -> float:
    """Read a positive finite number."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return v


def seed(text: str) -> int:
    """Read a seed: a non-negative whole number."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed: expected a non-negative whole number, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"seed: expected a non-negative whole number, got {v}")
    return v


FIGURE_SUFFIXES = (".png", ".svg", ".pdf")


def figure_file(option: str, path: str | Path) -> None:
    """Check, before any work, that a figure's file name says a format it can be drawn in.

    Raises:
        UsageError: the name ends otherwise (names the option and the formats).
    """
    from somaliland.errors import UsageError

    if Path(path).suffix.lower() not in FIGURE_SUFFIXES:
        raise UsageError(f"{option} {path}: expected a .png, .svg or .pdf file name")
