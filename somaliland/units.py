"""Conversions between the CLI's units (cm, mm, degrees) and the SI units used inside."""

import math

CM = 0.01
MM = 0.001
GRAM = 0.001


def cm(metres: float) -> float:
    """Return metres in centimetres."""
    return metres / CM


def deg(radians: float) -> float:
    """Return radians in degrees."""
    return math.degrees(radians)


def cm_point(point: tuple[float, float]) -> str:
    """Return a board point (metres) in the words of the CLI: centimetres from the south-west corner."""
    return f"({cm(point[0]):.1f}, {cm(point[1]):.1f}) cm"
