"""Paths are rounded as a record keeps them (`encode.rounded`): exactly Python's `round(value, PATH_DECIMALS)`, which
the rules read (D19) and a record's fold reads back, only faster."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from somaliland.engine.encode import PATH_DECIMALS, rounded


def python_round(values) -> list[float]:
    return [round(float(v), PATH_DECIMALS) for v in values]


def same_bits(a, b) -> bool:
    return all(math.copysign(1, x) == math.copysign(1, y) and (x == y or (math.isnan(x) and math.isnan(y)))
               for x, y in zip(a, b, strict=True))


@settings(max_examples=300)
@given(st.lists(st.floats(min_value=-20, max_value=20, allow_nan=False), min_size=1, max_size=50))
def test_rounded_is_pythons_round_bit_for_bit(values):
    assert same_bits(rounded(np.array(values)).tolist(), python_round(values))


def test_values_at_and_next_to_ties_are_rounded_as_python_rounds_them():
    """Half-integers of micrometres and their neighbours a few ulps away: where numpy's product could cross a tie."""
    rng = np.random.default_rng(7)
    k = rng.integers(-2_000_000, 2_000_000, 20_000)
    ties = (k + 0.5) / 10 ** PATH_DECIMALS
    values = np.concatenate([np.nextafter(ties, np.inf), ties, np.nextafter(ties, -np.inf),
                             np.nextafter(np.nextafter(ties, np.inf), np.inf), rng.uniform(-15, 15, 20_000),
                             [0.0, -0.0, 1e-12, -1e-12, 5e-7, -5e-7, 1e15, np.inf, np.nan]])
    assert same_bits(rounded(values).tolist(), python_round(values))


def test_rounded_keeps_the_shape_of_a_path():
    positions = np.array([[0.1234564999, 0.5, -0.25], [1.0000005, 2.5e-7, 3.0]])
    out = rounded(positions)
    assert out.shape == (2, 3)
    assert out.tolist() == [python_round(row) for row in positions]
