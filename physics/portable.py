"""Floating-point functions whose results do not depend on which CPU runs them.

numpy picks machine code at run time by what the CPU offers. On CPUs with AVX-512 (numpy's X86_V4) the
float64 ufuncs exp, log, arctan2, power, tan, arcsin, arccos, arctan and more run Intel's SVML code, whose
results differ in the last bits from the C library's that every other x86 CPU gets
(numpy/_core/src/umath/loops_umath_fp.dispatch.c.src, loops_exponent_log.dispatch.c.src). Matrix
products (`@`, `np.dot`, `np.linalg.norm` of a whole vector) go to OpenBLAS, whose kernel, and with it
the order of the sums and the use of fused multiply-adds, is also chosen by the CPU. A game is chaotic:
one last bit in one aim or one launch changes every throw after it. So whatever decides a throw computes
here: exp in numpy's exactly rounded +, -, *, / alone (or by the C library, `c_exp`), atan2 by the C
library's scalar function (`math`), dot products as elementwise products summed in numpy's fixed pairwise
order. numpy's float64 sin, cos, hypot and sqrt need no wrapper: they call the C library (or are exact) on
every x86 CPU.
"""

from __future__ import annotations

import math

import numpy as np

# numpy's float64 functions whose results depend on the CPU: SVML or numpy's own AVX-512 code on X86_V4 CPUs
# (exp and log also with AVX512F alone; tanh by Highway per SIMD level), OpenBLAS's kernels for the products
CPU_DEPENDENT_NUMPY = ("exp", "log", "exp2", "log2", "log10", "expm1", "log1p", "cbrt", "power", "tan", "arcsin",
                       "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
                       "matmul", "dot", "inner", "vdot")

# exp by fdlibm's method (e_exp.c): x = k ln2 + r, ln2 split so that k * LN2_HI is exact, then a rational
# approximation of e**r on [-ln2/2, ln2/2], within 1 ulp
LN2_HI, LN2_LO, INV_LN2 = 6.93147180369123816490e-01, 1.90821492927058770002e-10, 1.44269504088896338700e+00
EXP_P = (1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
         -1.65339022054652515390e-06, 4.13813679705723846039e-08)


def exp(x: np.ndarray | float) -> np.ndarray:
    """Return e**x elementwise for finite x, the same to the last bit on every machine."""
    x = np.asarray(x, dtype=float)
    k = np.rint(x * INV_LN2)
    hi = x - k * LN2_HI
    lo = k * LN2_LO
    r = hi - lo
    t = r * r
    p1, p2, p3, p4, p5 = EXP_P
    c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
    return np.ldexp(1.0 - ((lo - (r * c) / (2.0 - c)) - hi), k.astype(np.int32))


def c_exp(x: np.ndarray | float) -> np.ndarray:
    """Return e**x elementwise by the C library's exp, the same on every x86-64-v3 CPU, AVX-512 or not, as
    Bullet's own calls are (README, Determinism), and what numpy's exp gives on CPUs without AVX-512
    (measured on an X86_V3 CPU: equal on 100,000 draws). For results first computed with numpy's exp on such
    a CPU, which it keeps: the search's draws of carry (somaliland/players/search.py); new code uses `exp`."""
    return _by_c_library(math.exp, x)


def atan2(y: np.ndarray | float, x: np.ndarray | float) -> np.ndarray:
    """Return the angle of (x, y) elementwise, by the C library's atan2."""
    return _by_c_library(math.atan2, y, x)


def _by_c_library(function, *args: np.ndarray | float) -> np.ndarray:
    """Return a scalar `math` function applied elementwise to its broadcast arguments."""
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in args))
    values = map(function, *(a.ravel().tolist() for a in arrays))
    return np.fromiter(values, dtype=float, count=arrays[0].size).reshape(arrays[0].shape)


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the dot products along the last axis (a float array of the broadcast leading shape)."""
    return np.add.reduce(np.multiply(a, b), axis=-1)


def matvec(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Return the matrix m applied to the vector v (or to each row of a stack of vectors)."""
    return dot(m, np.asarray(v)[..., None, :])


def norm(v: np.ndarray) -> float:
    """Return the length of a vector."""
    return math.sqrt(float(dot(v, v)))
