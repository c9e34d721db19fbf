"""Knobs: one value of a map or rules file the search turns (or a geometric operation on a map feature), the
parameters the search sets for it, and how its values are written into the files' documents.

The tuning file says which knobs there are (`spec.load_tuning` checks them); a candidate's files are the base
files with every knob set (`candidate.build`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from somaliland.tune.paths import KnobPath, get, is_number, number_slots, put, tidy
from somaliland.tune.shapes import apply as apply_shape


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter the search sets: a numeric range (integer or not, stepped, log-scaled) or choices."""

    name: str
    low: float = 0.0
    high: float = 0.0
    integer: bool = False
    step: float | None = None
    log: bool = False
    choices: tuple[Any, ...] = ()

    def distribution(self):
        """Return the Optuna distribution of this parameter."""
        from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

        if self.choices:
            return CategoricalDistribution(self.choices)
        if self.integer:
            return IntDistribution(int(self.low), int(self.high), log=self.log, step=int(self.step or 1))
        return FloatDistribution(self.low, self.high, log=self.log, step=self.step)


@dataclass(frozen=True, slots=True)
class Knob:
    """A value of the map or rules file the search turns, or a geometric operation on a map feature.

    `action` is set (the value is the parameter), add or factor (every number under the path is moved
    or scaled by it), choose (the parameter picks one of `choices`), or a geometric op of `shapes.OPS`.
    """

    name: str
    where: str  # its place in the tuning file, e.g. knob[2]
    path: KnobPath
    action: str
    params: tuple[tuple[str, Param], ...]  # (axis: "", "dx" or "dy"; parameter)
    integer: bool = False  # the numbers it writes are integers
    choices: tuple[Any, ...] = ()  # the values a `choose` knob writes, by the parameter's choice
    heading: float | None = None  # degrees: a move by distance goes this way
    about: tuple[float, float] | None = None  # the centre of a scale or rotate


def apply_knob(knob: Knob, docs: dict[str, Any], values: dict[str, Any]) -> None:
    """Set one knob's parameter values into the documents, in place.

    Raises:
        ShapeError: a geometric operation leaves no feature (see `shapes.apply`).
    """
    doc = docs[knob.path.file]
    if knob.action == "choose":
        label = values[knob.params[0][1].name]
        labels = knob.params[0][1].choices
        put(doc, knob.path, knob.choices[labels.index(label)])
    elif knob.action == "set":
        value = values[knob.params[0][1].name]
        put(doc, knob.path, int(value) if knob.integer else tidy(value))
    elif knob.action in ("add", "factor"):
        amount = values[knob.params[0][1].name]
        node = get(doc, knob.path)
        if is_number(node):
            put(doc, knob.path, _moved(node, amount, knob.action))
        for container, key in [] if is_number(node) else list(number_slots(node)):
            container[key] = _moved(container[key], amount, knob.action)
    else:
        node = get(doc, knob.path)
        board = doc.get("board", {})
        size = (float(board["width"]), float(board["depth"])) if "width" in board and "depth" in board else None
        for axis, param in knob.params:
            apply_shape(node, knob.action, values[param.name], knob.about, knob.heading, axis, size)


def _moved(old: float, amount: float, action: str) -> float:
    """Return a number after `add` or `factor`; an integer stays an integer (rounded)."""
    new = old + amount if action == "add" else old * amount
    return round(new) if isinstance(old, int) else tidy(new)
