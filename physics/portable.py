"""Floating-point functions whose results do not depend on which CPU runs them.

numpy picks machine code at run time by what the CPU offers. On CPUs with AVX-512 (numpy's X86_V4) the
float64 ufuncs exp, log, arctan2, power, tan, arcsin, arccos, arctan and more run Intel's SVML code, whose
results differ in the last bits from the C library's that every other x86 CPU gets
(numpy/_core/src/umath/loops_umath_fp.dispatch.c.src, loops_exponent_log.dispatch.c.src). Matrix
products (`@`, `np.dot`, `np.linalg.norm` of a whole vector) go to OpenBLAS, whose kernel, and with it
the order of the sums and the use of fused multiply-adds, is also chosen by the CPU. A game is chaotic:
one last bit in one aim or one launch changes every throw after it. So whatever decides a throw computes
its transcendental functions here, through the C library's scalar functions (`math`), and its dot
products as elementwise products summed by numpy's fixed pairwise order. numpy's float64 sin, cos, hypot
and sqrt need no wrapper: they call the C library (or are exact) on every x86 CPU.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

# numpy's float64 functions whose results depend on the CPU: SVML or numpy's own AVX-512 code on X86_V4 CPUs
# (exp and log also with AVX512F alone; tanh by Highway per SIMD level), OpenBLAS's kernels for the products
CPU_DEPENDENT_NUMPY = ("exp", "log", "exp2", "log2", "log10", "expm1", "log1p", "cbrt", "power", "tan", "arcsin",
                       "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
                       "matmul", "dot", "inner", "vdot")


def _elementwise(fn: Callable[..., float], *args: np.ndarray | float) -> np.ndarray:
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in args))
    shape = arrays[0].shape
    flat = [a.ravel().tolist() for a in arrays]
    return np.fromiter(map(fn, *flat), dtype=float, count=arrays[0].size).reshape(shape)


def exp(x: np.ndarray | float) -> np.ndarray:
    """Return e**x elementwise, by the C library's exp."""
    return _elementwise(math.exp, x)


def atan2(y: np.ndarray | float, x: np.ndarray | float) -> np.ndarray:
    """Return the angle of (x, y) elementwise, by the C library's atan2."""
    return _elementwise(math.atan2, y, x)


def power(base: np.ndarray | float, exponent: np.ndarray | float) -> np.ndarray:
    """Return base**exponent elementwise, by the C library's pow."""
    return _elementwise(math.pow, base, exponent)


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the dot products along the last axis (a float array of the broadcast leading shape)."""
    return np.add.reduce(np.multiply(a, b), axis=-1)


def matvec(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Return the matrix m applied to the vector v (or to each row of a stack of vectors)."""
    return dot(m, np.asarray(v)[..., None, :])


def norm(v: np.ndarray) -> float:
    """Return the length of a vector."""
    return math.sqrt(float(dot(v, v)))
