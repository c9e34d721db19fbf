"""Turn the game's frozen data into JSON-ready dicts for the record, and the rules config back again.

Floats are written with Python's shortest exact repr, so a record read back gives the same numbers;
sampled paths are rounded (micrometres, 1e-6 on quaternions) to keep records small.
"""

from __future__ import annotations

import enum
from dataclasses import fields, replace
from typing import Any

import numpy as np

from physics import DiePath, RollResult, Throw
from somaliland.rules.config import RulesConfig
from somaliland.rules.fleet import ShipSpec
from somaliland.rules.planning import Plan

PATH_DECIMALS = 6
_PATH_SCALE = 10.0 ** PATH_DECIMALS  # exact in binary, so k / _PATH_SCALE is the double nearest k * 1e-6
_NEAR_TIE = 1e-6  # a scaled value this close to a half-integer is rounded by Python itself (see `rounded`)
# Rules options younger than the record format, with the behaviour of the code before them: a record whose
# header lacks one was played that way, so it still verifies (D16, D17, D19, D20, R19/D13; the design levers L1,
# L2, L4, whose defaults are the rulebook's game the code played before them).
BEFORE_OPTIONS = {"lost_turns": "add_up", "release_spot": "in_port", "off_board_arrival": "same_throw",
                  "grounding_on": "rest", "after_release": "held",
                  "ransom": "top_face", "ransom_fixed": 2, "ransom_share_percent": 10, "pirate_take": "one",
                  "pirate_take_every": 4, "contract_cap_total": "fleet"}


_LEAVES = frozenset({float, int, str, bool, type(None)})


def plain(value: Any) -> Any:
    """Return value with enums as their values and tuples as lists, recursively."""
    if type(value) in _LEAVES:  # most of a record: tested first, as the cheapest
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _LEAVES else plain(v) for v in value]
    return value


def throw_json(throw: Throw) -> dict[str, Any]:
    """Return a throw as a dict (SI units)."""
    return plain({f.name: getattr(throw, f.name) for f in fields(throw)})


def throw_from_json(data: dict[str, Any]) -> Throw:
    """Return the throw a record line describes."""
    return Throw(die=data["die"], origin=tuple(data["origin"]), heading=data["heading"], speed=data["speed"],
                 spin=tuple(data["spin"]), release_height=data["release_height"],
                 orientation=tuple(data["orientation"]) if data["orientation"] is not None else None,
                 style=data["style"])


def _fields(obj: Any) -> Any:
    """Return a frozen dataclass tree as dicts and lists (no copying of leaves, unlike `asdict`)."""
    if hasattr(obj, "__dataclass_fields__"):
        return {name: _fields(getattr(obj, name)) for name in obj.__dataclass_fields__}
    if isinstance(obj, (tuple, list)):
        return [_fields(v) for v in obj]
    return obj.value if isinstance(obj, enum.Enum) else obj


def as_recorded(roll: RollResult) -> RollResult:
    """Return the roll with its paths rounded as a record keeps them (`PATH_DECIMALS`, by `rounded`).

    A game applies the rules to this roll, not the physics layer's own: the rules read paths (D19), and a
    record's fold must find what the game found from the numbers the record holds.
    """
    return replace(roll, paths=tuple(
        DiePath(p.name, tuple(rounded(np.array(p.times)).tolist()),
                tuple(map(tuple, rounded(np.array(p.positions)).tolist())),  # type: ignore[arg-type]
                tuple(map(tuple, rounded(np.array(p.orientations)).tolist())))  # type: ignore[arg-type]
        for p in roll.paths))


def rounded(values: np.ndarray) -> np.ndarray:
    """Return every value as `round(value, PATH_DECIMALS)` gives it, bit for bit, in a few numpy passes.

    Python's round takes the integer k nearest the exact value times 10^6 (ties to even) and returns the double
    nearest k * 10^-6, which is k / 10^6 (an exactly representable divisor, and IEEE division rounds correctly).
    numpy's `rint(value * 10^6)` finds the same k unless the product's own rounding (under 1e-8 for any path's
    value, which is at most a few metres, seconds or 1) carries it across a half-integer: the values whose scaled
    value lies within `_NEAR_TIE` of one, or beyond what a double holds to that precision, are left to Python.
    """
    scaled = values * _PATH_SCALE
    out = np.rint(scaled) / _PATH_SCALE
    with np.errstate(invalid="ignore"):  # an infinite value's fraction is nan: left to Python as well
        near = (np.abs(np.abs(scaled - np.floor(scaled)) - 0.5) < _NEAR_TIE) | ~(np.abs(scaled) < 2.0 ** 40)
    if near.any():
        where = np.flatnonzero(near)
        out.flat[where] = [round(float(v), PATH_DECIMALS) for v in values.flat[where]]
    return out


def roll_json(roll: RollResult, with_paths: bool) -> dict[str, Any]:
    """Return a roll result as a dict, with its paths as they are (a game's are `as_recorded`), or left out."""
    data = {name: _fields(getattr(roll, name)) for name in roll.__dataclass_fields__ if name != "paths"}
    if with_paths:
        data["paths"] = [{"name": p.name, "times": list(p.times), "positions": [list(xyz) for xyz in p.positions],
                          "orientations": [list(q) for q in p.orientations]} for p in roll.paths]
    return data


def plan_json(plan: Plan) -> dict[str, Any]:
    """Return a plan as a dict."""
    return {"card": str(plan.card), "route": plan.route, "ships": list(plan.ships),
            "ship_routes": list(plan.ship_routes)}


def rules_json(config: RulesConfig) -> dict[str, Any]:
    """Return every field of a rules config in SI units, exactly (read back with `rules_from_json`)."""
    data = {f.name: plain(getattr(config, f.name)) for f in fields(config) if f.name != "fleet"}
    data["fleet"] = [{"name": s.name, "faces": list(s.faces)} for s in config.fleet]
    return data


def rules_from_json(data: dict[str, Any]) -> RulesConfig:
    """Return the rules config a record's header holds (options it lacks as the code before them played)."""
    values = {**BEFORE_OPTIONS, **data}
    values["fleet"] = tuple(ShipSpec(s["name"], tuple(s["faces"])) for s in data["fleet"])
    for key, value in values.items():
        if isinstance(value, list):
            values[key] = tuple(value)
    return RulesConfig(**values)
