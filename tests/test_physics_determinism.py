"""Determinism: the same scene and throw give a bit-identical result, whatever ran before, in any process."""

import pickle
import subprocess
import sys
import textwrap

from physics import DieSpec, make_roller
from somaliland.bench import midgame_scene, midgame_throws

CUBE = DieSpec()
SCENE_CODE = textwrap.dedent("""
    import pickle, sys
    from physics import DieSpec, Scene, make_roller
    from somaliland.bench import midgame_scene, midgame_throws
    spec = DieSpec()
    scene = midgame_scene(Scene().board, spec)
    throws = midgame_throws(spec, 12, seed=4)
    with make_roller() as roller:
        results = [roller.roll(scene, t) for t in reversed(throws)][::-1]
    sys.stdout.buffer.write(pickle.dumps(results))
""")


def first_difference(a, b) -> str | None:
    """Name the first field where two roll results part, or None if identical."""
    for name in a.__dataclass_fields__:
        if getattr(a, name) != getattr(b, name):
            return name
    return None


def rolls(order):
    from physics import Scene

    scene = midgame_scene(Scene().board, CUBE)
    throws = midgame_throws(CUBE, 12, seed=4)
    with make_roller() as roller:
        out = {i: roller.roll(scene, throws[i]) for i in order}
    return [out[i] for i in range(len(throws))]


def test_same_throw_same_result_whatever_ran_before():
    forward = rolls(range(12))
    backward = rolls(reversed(range(12)))
    assert len(forward) == len(backward) == 12
    for k, (a, b) in enumerate(zip(forward, backward)):
        assert first_difference(a, b) is None, f"throw {k}: results part at {first_difference(a, b)!r}"


def test_same_throw_same_result_in_a_new_process():
    here = rolls(range(12))
    out = subprocess.run([sys.executable, "-c", SCENE_CODE], capture_output=True, check=True).stdout
    there = pickle.loads(out)
    assert len(here) == len(there) == 12
    for k, (a, b) in enumerate(zip(here, there)):
        assert first_difference(a, b) is None, f"throw {k}: results part at {first_difference(a, b)!r}"
