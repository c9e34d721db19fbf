"""Seeds become random generators here, and only here."""

from __future__ import annotations

import numpy as np


class SeedError(ValueError):
    """A seed that is not a non-negative integer."""


def make_rng(seed: int | np.random.SeedSequence) -> np.random.Generator:
    """Return the generator for a seed (a non-negative integer or a SeedSequence).

    Raises:
        SeedError: the seed is negative, fractional, or not a number.
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SeedError(f"seed = {seed!r} is not allowed; expected a non-negative integer")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(int(seed))))


def child_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """Return n independent child seed sequences of a master seed (for parallel runs)."""
    make_rng(seed)  # validates
    return np.random.SeedSequence(int(seed)).spawn(n)
