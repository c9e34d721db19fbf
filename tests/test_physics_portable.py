"""CPU-independent arithmetic (physics/portable.py): the C library's values elementwise, sums in a fixed order."""

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from physics import portable
from physics.dice import FACE_AXES, face_down, face_up, resting_orientation, square_up, tilt_deg


def test_atan2_gives_the_c_library_values_bit_for_bit():
    y, x = np.array([[0.3, -0.0], [-2.0, 1.0]]), np.array([-1.0, -1.0])
    got = portable.atan2(y, x)
    assert got.shape == (2, 2)
    assert got.tolist() == [[math.atan2(0.3, -1.0), -math.pi], [math.atan2(-2.0, -1.0), 3 * math.pi / 4]]


def test_exp_is_within_one_ulp_of_the_c_library():
    x = np.random.default_rng(0).uniform(-700.0, 700.0, 20_000)
    ulps = np.abs(portable.exp(x).view(np.int64) - np.exp(x).view(np.int64))
    assert ulps.max() <= 1 and (ulps == 0).mean() > 0.85  # measured: 90% identical to glibc's
    assert portable.exp(np.array([0.0, 1.0])).tolist() == [1.0, 2.7182818284590455]  # e rounds 1 ulp up


def test_exp_uses_only_arithmetic_that_no_cpu_changes(monkeypatch):
    x = np.linspace(-5.0, 5.0, 101)
    expected = portable.exp(x)
    for name in portable.CPU_DEPENDENT_NUMPY:
        monkeypatch.setattr(np, name, None)
    assert portable.exp(x).tolist() == expected.tolist()


def test_dot_products_sum_left_to_right_without_fused_multiply_adds():
    a, b = np.array([0.1, 0.2, 0.3]), np.array([0.7, 0.11, 0.13])
    assert float(portable.dot(a, b)) == 0.1 * 0.7 + 0.2 * 0.11 + 0.3 * 0.13
    m = np.array([[1.5, -0.25, 0.1], [0.3, 0.3, 0.3]])
    assert portable.dot(m, a).tolist() == [1.5 * 0.1 + -0.25 * 0.2 + 0.1 * 0.3, 0.3 * 0.1 + 0.3 * 0.2 + 0.3 * 0.3]
    assert portable.norm(np.array([3.0, 4.0, 12.0])) == 13.0


def test_matvec_applies_a_matrix_to_a_vector_and_to_each_row_of_a_stack():
    m = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # a quarter turn about z
    assert portable.matvec(m, np.array([1.0, 0.0, 0.0])).tolist() == [0.0, 1.0, 0.0]
    stack = portable.matvec(m, FACE_AXES)
    assert stack.shape == (6, 3) and stack[2].tolist() == [-1.0, 0.0, 0.0]


def test_square_up_undoes_a_small_tilt_by_the_smallest_rotation():
    tilted = (math.sin(math.radians(5)), 0.0, 0.0, math.cos(math.radians(5)))  # +z up, 10 degrees about x
    flat = square_up(tilted)
    assert flat == pytest.approx((0.0, 0.0, 0.0, 1.0), abs=1e-15)
    assert tilt_deg(flat) < 1e-6


@pytest.mark.parametrize("face, yaw, tilt", [(0, 0.3, (0.1, -0.05, 0.0)), (3, 2.0, (0.0, 0.2, 0.1)),
                                             (5, -1.1, (-0.3, 0.1, 0.2))])
def test_square_up_agrees_with_scipys_shortest_arc(face, yaw, tilt):
    q = tuple((Rotation.from_rotvec(tilt) * Rotation.from_quat(resting_orientation(face, yaw))).as_quat())
    rot = Rotation.from_quat(q)
    fix, _ = Rotation.align_vectors([[0, 0, -1]], [rot.apply(FACE_AXES[face_down(q)])])
    reference = (fix * rot).as_quat()
    flat = np.array(square_up(q))
    assert min(np.abs(flat - reference).max(), np.abs(flat + reference).max()) < 1e-12
    assert face_up(tuple(flat)) == face and tilt_deg(tuple(flat)) < 1e-6


def test_face_up_down_and_tilt_equal_the_face_normals_to_the_last_bit():
    """`face_up`, `face_down` and `tilt_deg` read the rotation's bottom row without numpy (physics/dice.py); they
    must answer what the six world face normals answer, ties and axis-aligned poses included."""
    from physics.dice import world_face_normals

    rng = np.random.default_rng(11)
    quaternions = [tuple(q / np.linalg.norm(q)) for q in rng.standard_normal((20_000, 4))]
    s = math.sqrt(0.5)
    quaternions += [(0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0),
                    (s, 0.0, 0.0, s), (0.0, s, 0.0, s), (0.0, 0.0, s, s), (-s, 0.0, 0.0, s), (0.5, 0.5, 0.5, 0.5),
                    (-0.0, 0.0, -0.0, 1.0), (0.5, -0.5, 0.5, 0.5),  # axis-aligned poses, signed zeros
                    (math.sin(math.pi / 8), 0.0, 0.0, math.cos(math.pi / 8))]  # two faces 45 degrees up: a near-tie
    for q in quaternions:
        z = world_face_normals(q)[:, 2]
        assert face_up(q) == int(np.argmax(z)) and face_down(q) == int(np.argmin(z)), q
        assert tilt_deg(q) == math.degrees(math.acos(min(1.0, max(-1.0, float(np.max(z)))))), q
    nan = (float("nan"), 0.0, 0.0, 1.0)  # a diverged pose: answered as numpy answers it
    assert face_up(nan) == int(np.argmax(world_face_normals(nan)[:, 2]))


def test_the_lowest_point_offset_equals_the_rotation_matrix_product_to_the_last_bit():
    """`lowest_point_offset` sums in plain floats, as a roll's launch and every resting die's check ask it; it must
    equal `portable.dot` of the rotation matrix's absolute bottom row with the half extents, for boxes of any shape."""
    from physics import DieSpec
    from physics.dice import lowest_point_offset, rotation_matrix

    rng = np.random.default_rng(12)
    quaternions = [tuple(q / np.linalg.norm(q)) for q in rng.standard_normal((20_000, 4))]
    s = math.sqrt(0.5)
    quaternions += [(0.0, 0.0, 0.0, 1.0), (-0.0, 0.0, -0.0, 1.0), (0.5, 0.5, 0.5, 0.5), (s, 0.0, 0.0, s)]
    for spec in (DieSpec(size=(0.016, 0.016, 0.016)), DieSpec(size=(0.02, 0.013, 0.007))):
        half = np.array(spec.half_extents)
        for q in quaternions:
            assert lowest_point_offset(spec, q) == float(portable.dot(np.abs(rotation_matrix(q)[2, :]), half)), q
