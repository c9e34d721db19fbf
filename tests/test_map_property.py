"""Random edits to the default map never escape as anything but a valid Map or a MapError."""

import copy
import math
import tomllib
from pathlib import Path

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from somaliland.map import Map, MapError, loads

DEFAULT = Path("maps/horn-of-africa.toml").read_text(encoding="utf-8")
DOC = tomllib.loads(DEFAULT)

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8),
    st.floats(allow_nan=True, allow_infinity=True), st.just([]), st.just({}), st.just([[0.0, 0.0]]),
    st.lists(st.floats(-200, 200), max_size=3), st.just([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]),
)


def paths(value, prefix=()):
    """Yield the key path of every value in the document."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(DOC) if p]


def mutate(doc: dict, path: tuple, action: str, value, scale: float) -> dict:
    doc = copy.deepcopy(doc)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if action == "delete":
        del parent[key]
    elif action == "replace":
        parent[key] = value
    elif action == "scale" and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
        parent[key] = parent[key] * scale
    elif action == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif action == "add-key" and isinstance(parent[key], dict):
        parent[key]["surprise"] = value
    return doc


def clean(value):
    """Drop what TOML cannot hold (None) the way a designer's editor would: by leaving the key out."""
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [clean(v) for v in value if v is not None]
    return value


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.sampled_from(ALL_PATHS), st.sampled_from(
    ["delete", "replace", "scale", "duplicate", "add-key"]), ODD_VALUES,
    st.floats(-3, 3, allow_nan=False)), min_size=1, max_size=3))
def test_mutated_default_map_loads_or_raises_map_error(edits):
    doc = DOC
    for path, action, value, scale in edits:
        try:
            doc = mutate(doc, path, action, value, scale)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed or retyped this path
    text = tomli_w.dumps(clean(doc))
    try:
        m = loads(text, "mutant.toml")
    except MapError as exc:
        assert exc.problems and str(exc).startswith("mutant.toml")
        for p in exc.problems:
            assert p.expected and p.found
    else:
        assert isinstance(m, Map)
        assert math.isfinite(m.width) and m.board() is not None


@settings(max_examples=80, deadline=None)
@given(position=st.integers(0, len(DEFAULT) - 1), junk=st.text(max_size=4))
def test_damaged_text_loads_or_raises_map_error(position, junk):
    text = DEFAULT[:position] + junk + DEFAULT[position + len(junk):]
    try:
        loads(text, "damaged.toml")
    except MapError as exc:
        assert str(exc).startswith("damaged.toml")
