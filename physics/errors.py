"""Errors raised by the physics layer: bad input (with the allowed range) and divergence."""

from __future__ import annotations

import math
from typing import Any


class PhysicsInputError(ValueError):
    """An input to the physics layer is outside its allowed range."""

    def __init__(self, name: str, value: Any, allowed: str) -> None:
        self.name, self.value, self.allowed = name, value, allowed
        super().__init__(f"{name} = {value!r} is not allowed; expected {allowed}")


class PhysicsError(RuntimeError):
    """The simulation produced an impossible state (NaN, a die below the board)."""


def check_finite(name: str, value: float, lo: float, hi: float, *, unit: str = "") -> float:
    """Return value as float if it is finite and within [lo, hi]; raise PhysicsInputError otherwise."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise PhysicsInputError(name, value, f"a number in [{lo:g}, {hi:g}]{unit}") from None
    if not math.isfinite(v) or not lo <= v <= hi:
        raise PhysicsInputError(name, value, f"a finite number in [{lo:g}, {hi:g}]{unit}")
    return v


def check_vector(name: str, value: Any, n: int, lo: float, hi: float, *, unit: str = "") -> tuple[float, ...]:
    """Return value as a tuple of n finite floats each within [lo, hi]."""
    try:
        items = tuple(value)
    except TypeError:
        raise PhysicsInputError(name, value, f"{n} numbers in [{lo:g}, {hi:g}]{unit}") from None
    if len(items) != n:
        raise PhysicsInputError(name, value, f"exactly {n} numbers in [{lo:g}, {hi:g}]{unit}")
    return tuple(check_finite(f"{name}[{i}]", x, lo, hi, unit=unit) for i, x in enumerate(items))


class NoDisplayError(RuntimeError):
    """PyBullet's GUI cannot open its window here (no display, or one without OpenGL): `view.display_problem`."""
