"""The machine a game is played on: what, besides the seed and the code, decides its last bits.

A game is chaotic, so one last bit anywhere changes every throw after it. The game path keeps to
arithmetic whose results the CPU cannot change (physics/portable.py), but Bullet and the players still
call the C library's sin, cos, exp, atan2 and pow, and glibc picks their machine code by CPU (an FMA +
AVX2 variant on x86-64-v3 CPUs, others on older ones); the packages' own code changes between versions.
So a record names its machine, and a replay that parts from it on another machine says so.
"""

from __future__ import annotations

import platform
from functools import cache
from importlib import metadata
from pathlib import Path

PACKAGES = ("pybullet", "numpy", "scipy", "shapely")


def fingerprint() -> dict[str, str]:
    """Return this machine's fingerprint: CPU, SIMD level, C library and the numeric packages' versions."""
    return dict(_fingerprint())


@cache
def _fingerprint() -> tuple[tuple[str, str], ...]:
    cpu = _cpuinfo()
    features = _numpy_features()
    return tuple({
        "cpu": cpu.get("model name", platform.processor() or "unknown"),
        "vendor": cpu.get("vendor_id", "unknown"),
        "arch": platform.machine(),
        "simd": _simd_level(features),
        "libm": _libm_variant(features),
        "libc": " ".join(filter(None, platform.libc_ver())) or "unknown",
        "python": platform.python_version(),
        **{name: _version(name) for name in PACKAGES},
    }.items())


def describe(machine: dict[str, str] | None) -> str:
    """Return a machine's fingerprint on one line (or say that a record does not name its machine)."""
    if not machine:
        return "an unnamed machine (the record predates machine fingerprints)"
    tail = ", ".join(f"{name} {machine.get(name, '?')}" for name in ("python", *PACKAGES))
    return (f"{machine.get('cpu', '?')} ({machine.get('arch', '?')} {machine.get('simd', '?')}, libm "
            f"{machine.get('libm', '?')}, {machine.get('libc', '?')}; {tail})")


def parting_note(recorded: dict[str, str] | str | None) -> str | None:
    """Return why a replay may part from its record here, or None if this machine is of the recording's kind.

    `recorded` is the record's fingerprint, its one-line form (a study's games table), or None (not named).
    """
    then = recorded if isinstance(recorded, str) else describe(recorded)
    here = describe(fingerprint())
    if then == here:
        return None
    note = f"recorded on {then}, replayed on {here}: physics results can differ in the last bits between these machines"
    if isinstance(recorded, dict):
        fields = [key for key, value in fingerprint().items() if recorded.get(key) != value]
        note += f" (they differ in {', '.join(fields)})"
    return note


def _cpuinfo() -> dict[str, str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    info: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        info.setdefault(key.strip(), value.strip())
    return info


def _numpy_features() -> dict[str, bool]:
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy 1.x
        from numpy.core import _multiarray_umath as umath  # type: ignore[no-redef]
    return {"dispatch": umath.__cpu_dispatch__, **umath.__cpu_features__}


def _simd_level(features: dict) -> str:
    """Return the highest SIMD target numpy dispatches to here (numpy's own name, e.g. X86_V3)."""
    found = [name for name in features["dispatch"] if features.get(name)]
    return found[-1] if found else "baseline"


def _libm_variant(features: dict) -> str:
    """Return the glibc libm variant an x86-64 CPU gets (sysdeps/x86_64/fpu/multiarch/ifunc-avx-fma4.h)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return platform.machine()
    if features.get("FMA3") and features.get("AVX2"):
        return "fma"
    if features.get("FMA4"):
        return "fma4"
    return "avx" if features.get("AVX") else "sse2"


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"
