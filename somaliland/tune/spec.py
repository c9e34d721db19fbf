"""Tuning files: which map and rules to start from, the knobs to turn, the balance targets, the search.

The format is documented in `experiments/README.md` ("Tuning a map and rules"). `load_tuning` checks
everything before a game is played: every knob's path against the base files, every target's measure
and goal, the seats and physics (as a study would), the search and validation settings. Every problem
raises `StudyError` naming the file, the key (e.g. `knob[1].range`) and what was expected.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from somaliland.engine.setup import DEFAULT_MAP
from somaliland.inputs import LimitError, load_toml
from somaliland.rules.config import DEFAULT_RULES_FILE, load_rules, rules_from_dict
from somaliland.rules.errors import RulesConfigError
from somaliland.study.errors import StudyError
from somaliland.study.spec import check_name, read_utf8
from somaliland.tune.knobs import Knob, Param, apply_knob
from somaliland.tune.measures import FILTERS, MEASURES
from somaliland.tune.paths import KnobPath, PathError, is_number, number_slots, parse_path, walk
from somaliland.tune.shapes import OPS, is_point, points

TOP_KEYS = ("name", "question", "map", "rules_file", "master_seed", "policy_factory", "rules", "seats", "seat",
            "physics", "search", "validation", "knob", "target")
STUDY_KEYS = ("policy_factory", "seats", "seat", "physics")  # copied into every candidate's study
SEARCH_KEYS = ("sampler", "trials", "batch", "rungs", "startup", "keep")
VALIDATION_KEYS = ("games", "base_games", "seed")
VALUE_ACTIONS = ("range", "add", "factor", "choices")
SAMPLERS = ("tpe", "nsga2")
GOAL_WORDS = {"minimise": "minimise", "minimize": "minimise", "maximise": "maximise", "maximize": "maximise"}
UNDEFINED_LOSS = 1e9  # the loss of a measure the games cannot estimate (e.g. no contract sailed a route)
VALIDATION_KEY = 2 ** 32 - 1  # spawn key of the fresh validation seeds, apart from the search's (cell 0)


@dataclass(frozen=True, slots=True)
class Goal:
    """What a target wants of its measure: a value, a range, or as low / as high as possible."""

    kind: str  # value, range, minimise, maximise
    low: float = -math.inf
    high: float = math.inf

    def __str__(self) -> str:
        return self.text()

    def text(self, scale: float = 1.0, unit: str = "") -> str:
        """Return the goal as read (`>= 50%` with scale 100 and unit %, or `0.5 to 0.7`)."""
        low, high = f"{self.low * scale:g}{unit}", f"{self.high * scale:g}{unit}"
        if self.kind in ("minimise", "maximise"):
            return self.kind
        if self.kind == "value":
            return f"= {low}"
        if math.isinf(self.high):
            return f">= {low}"
        if math.isinf(self.low):
            return f"<= {high}"
        return f"{low} to {high}"

    def loss(self, value: float) -> float:
        """Return how far a value misses the goal (0 inside it; the value itself when minimising)."""
        if not math.isfinite(value):
            return UNDEFINED_LOSS
        if self.kind == "minimise":
            return value
        if self.kind == "maximise":
            return -value
        return max(self.low - value, 0.0, value - self.high)

    def loss_bounds(self, low: float, high: float) -> tuple[float, float]:
        """Return the least and the most loss of any value in [low, high] (an estimate's interval)."""
        if math.isnan(low) or math.isnan(high):
            low, high = -math.inf, math.inf  # the games cannot bound it
        if self.kind == "minimise":
            return (low, high)
        if self.kind == "maximise":
            return (-high, -low)
        least = max(self.low - high, 0.0, low - self.high)
        return (least, max(self.loss_inf(low), self.loss_inf(high)))

    def loss_inf(self, value: float) -> float:
        """Return `loss`, infinite for an unbounded end of an interval."""
        return math.inf if math.isinf(value) else self.loss(value)

    def verdict(self, value: float, low: float, high: float) -> str:
        """Return "met" (the 95% interval within the goal), "probably" (the estimate within, the interval not),
        "consistent" (a goal value inside the interval: the games cannot tell the measure from it, however wide the
        interval; a single value is never shown to be met), "missed", or "" for minimise/maximise."""
        if self.kind in ("minimise", "maximise"):
            return ""
        if not math.isfinite(value):
            return "missed"
        if self.kind == "value":
            return "consistent" if low <= self.low <= high else "missed"
        if self.low <= low and high <= self.high:
            return "met"
        return "probably" if self.low <= value <= self.high else "missed"


@dataclass(frozen=True, slots=True)
class Target:
    """A named balance measure with its goal and weight, and its filters (route, strategy)."""

    name: str
    measure: str
    goal: Goal
    weight: float
    filters: tuple[tuple[str, str], ...] = ()

    @property
    def steers(self) -> bool:
        """True if the target steers the search; weight 0 only watches it (measured and reported)."""
        return self.weight > 0


@dataclass(frozen=True)
class Tuning:
    """A checked tuning file."""

    name: str
    question: str
    source: str
    map_path: Path
    map_text: str
    rules_path: Path
    rules_text: str
    rules_overrides: dict[str, Any]
    study_tables: dict[str, Any]  # policy_factory, seats, seat, physics as written
    master_seed: int
    validation_seed: int
    validation_games: int  # the chosen candidate's fresh games
    validation_base_games: int  # the base's (at most validation_games; default the same)
    sampler: str
    trials: int
    batch: int
    rungs: tuple[int, ...]
    startup: int
    keep: float  # successive halving: the share of a batch's candidates that may go on after each rung
    knobs: tuple[Knob, ...]
    targets: tuple[Target, ...]
    fingerprint: str
    params: tuple[Param, ...] = field(default=())

    @property
    def batches(self) -> int:
        """Return the number of batches: trials rounded up to whole batches."""
        return -(-self.trials // self.batch)

    @property
    def top(self) -> int:
        """Return the games of a full evaluation (the last rung)."""
        return self.rungs[-1]

    def study_text(self, name: str, map_file: str, rules: dict[str, Any], games: int, master: int) -> str:
        """Return the text of the one-cell study that plays a candidate's games (map path relative to it)."""
        import tomlkit

        doc = {"name": name, "master_seed": master, "games_per_cell": games, "map": map_file,
               **{k: v for k, v in self.study_tables.items() if k == "policy_factory"},
               "rules": rules, **{k: v for k, v in self.study_tables.items() if k != "policy_factory"}}
        return tomlkit.dumps(doc)


def load_tuning(path: str | Path) -> Tuning:
    """Return the tuning a TOML file describes, checked against its base map and rules files.

    Raises:
        StudyError: any problem, naming the file and the key.
    """
    path = Path(path)
    return parse_tuning(read_utf8(path, "a readable tuning file", "tuning file"), str(path), path.resolve().parent)


def parse_tuning(text: str, source: str, base_dir: Path) -> Tuning:
    """Return the tuning in a TOML text; `base_dir` anchors relative paths (see `load_tuning`)."""
    import tomlkit

    try:
        doc = load_toml(text, source)
    except LimitError as error:
        raise StudyError(source, error.where, error.expected, error.found) from None
    except tomllib.TOMLDecodeError as error:
        raise StudyError(source, "(syntax)", "valid TOML", str(error)) from None
    _known(source, "", doc, TOP_KEYS)
    master = _int(source, "master_seed", doc.get("master_seed"), 0, 2 ** 63 - 1, "a non-negative integer")
    name, question = doc.get("name", Path(source).stem), doc.get("question", "")
    for key, value in (("name", name), ("question", question)):
        if not isinstance(value, str):
            raise StudyError(source, key, "a string", value)
    check_name(source, name)
    map_path = _file(source, "map", doc.get("map"), base_dir, DEFAULT_MAP)
    rules_path = _file(source, "rules_file", doc.get("rules_file"), base_dir, DEFAULT_RULES_FILE)
    map_text = read_utf8(map_path, "a readable map file", "map")
    rules_text = read_utf8(rules_path, "a readable rules file", "rules file")
    overrides = doc.get("rules", {})
    if not isinstance(overrides, dict):
        raise StudyError(source, "rules", "a table of rules options", overrides)
    _check_map(source, map_path)
    try:
        load_rules(rules_path)
    except RulesConfigError as error:
        raise StudyError(source, "rules_file", "a rules file the rules loader takes", str(error)) from None
    map_doc, rules_doc = tomlkit.parse(map_text), tomlkit.parse(rules_text)
    rules_doc.update(overrides)
    base_rules = _rules(source, "rules", rules_doc.unwrap())
    search = doc.get("search", {})
    _known(source, "search", search, SEARCH_KEYS)
    sampler = search.get("sampler", "tpe")
    if sampler not in SAMPLERS:
        raise StudyError(source, "search.sampler", f"one of {', '.join(SAMPLERS)}", sampler)
    trials = _int(source, "search.trials", search.get("trials", 20), 1, 100_000, "an integer from 1 to 100000")
    batch = _int(source, "search.batch", search.get("batch", 4), 2 if sampler == "nsga2" else 1, 1000,
                 "an integer from 2 (NSGA-II's population) to 1000" if sampler == "nsga2" else
                 "an integer from 1 to 1000")
    rungs = search.get("rungs", [40, 120, 360])
    if (not isinstance(rungs, list) or not rungs or any(isinstance(r, bool) or not isinstance(r, int) for r in rungs)
            or rungs[0] < 2 or any(b <= a for a, b in zip(rungs, rungs[1:]))):
        raise StudyError(source, "search.rungs", "a list of increasing game counts, the first at least 2 "
                         "(e.g. [40, 120, 360])", rungs)
    startup = _int(source, "search.startup", search.get("startup", 10), 0, 100_000, "a non-negative integer")
    keep = search.get("keep", 1.0)
    if not is_number(keep) or not 0 < keep <= 1:
        raise StudyError(source, "search.keep", "a share above 0 and at most 1 of a batch's candidates to keep "
                         "after each rung (1: stop only what racing stops)", keep)
    validation = doc.get("validation", {})
    _known(source, "validation", validation, VALIDATION_KEYS)
    vgames = _int(source, "validation.games", validation.get("games", 1000), 2, 10_000_000,
                  "an integer from 2 to 10000000")
    vbase = _int(source, "validation.base_games", validation.get("base_games", vgames), 2, vgames,
                 f"an integer from 2 to validation.games ({vgames}): the base's fresh games")
    default_seed = int(np.random.SeedSequence(master, spawn_key=(VALIDATION_KEY,)).generate_state(1, np.uint64)[0] >> 1)
    vseed = _int(source, "validation.seed", validation.get("seed", default_seed), 0, 2 ** 63 - 1,
                 "a non-negative integer (fresh seeds: not the master_seed)")
    if vseed == master:
        raise StudyError(source, "validation.seed", "a seed other than master_seed (validation needs fresh games)",
                         vseed)
    study_tables = {k: doc[k] for k in STUDY_KEYS if k in doc}
    knobs = _knobs(source, doc.get("knob", []), {"map": map_doc, "rules": rules_doc}, base_rules)
    strategies = _strategies(source, study_tables, base_rules, map_path)
    targets = _targets(source, doc.get("target", []), strategies)
    kept = {k: v for k, v in doc.items() if k not in ("name", "question", "validation")}
    kept["search"] = {k: v for k, v in search.items() if k != "trials"}
    blob = json.dumps({"tuning": kept, "map": hashlib.sha256(map_text.encode()).hexdigest(),
                       "rules": hashlib.sha256(rules_text.encode()).hexdigest()}, sort_keys=True, default=str)
    return Tuning(name=name, question=question.strip(), source=source, map_path=map_path, map_text=map_text,
                  rules_path=rules_path, rules_text=rules_text, rules_overrides=overrides,
                  study_tables=study_tables, master_seed=master, validation_seed=vseed, validation_games=vgames,
                  validation_base_games=vbase,
                  sampler=sampler, trials=trials, batch=batch, rungs=tuple(rungs), startup=startup,
                  keep=float(keep), knobs=knobs,
                  targets=targets, fingerprint=hashlib.sha256(blob.encode()).hexdigest(),
                  params=tuple(p for k in knobs for _, p in k.params))


def _known(source: str, where: str, table: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(table, dict):
        raise StudyError(source, where or "(top level)", "a table", table)
    for key in table:
        if key not in allowed:
            raise StudyError(source, f"{where}{'.' if where else ''}{key}", f"a known key ({', '.join(allowed)})", key)


def _int(source: str, key: str, value: Any, low: int, high: int, wanted: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StudyError(source, key, wanted, value)
    return value


def _file(source: str, key: str, value: Any, base_dir: Path, default: Path) -> Path:
    if value is None:
        return default
    if not isinstance(value, str) or not value:
        raise StudyError(source, key, "a file path (relative to the tuning file)", value)
    path = Path(value) if Path(value).is_absolute() else (base_dir / value).resolve()
    if not path.is_file():
        raise StudyError(source, key, "an existing file", str(path))
    return path


def _rules(source: str, where: str, data: dict[str, Any]):
    try:
        return rules_from_dict(data, "rules")
    except RulesConfigError as error:
        raise StudyError(source, f"{where}.{error.key}" if where == "rules" else where, error.expected,
                         error.found) from None


def _check_map(source: str, path: Path) -> None:
    from somaliland.map import problems

    found = problems(path)
    if found:
        raise StudyError(source, "map", "a map that passes `somaliland map check`", str(found[0]))


def _range(source: str, where: str, value: Any, integer: bool) -> tuple[float, float]:
    kind = "integers" if integer else "numbers"
    if (not isinstance(value, list) or len(value) != 2 or not all(is_number(v) for v in value)
            or not all(math.isfinite(v) for v in value) or value[0] > value[1]
            or (integer and not all(isinstance(v, int) for v in value))):
        raise StudyError(source, where, f"[low, high]: two finite {kind}, low <= high", value)
    return (value[0], value[1])


def _param(source: str, where: str, name: str, table: dict[str, Any], key: str, integer: bool) -> Param:
    low, high = _range(source, f"{where}.{key}", table[key], integer)
    step, log = table.get("step"), table.get("log", False)
    if step is not None and (not is_number(step) or step <= 0 or (integer and not isinstance(step, int))):
        raise StudyError(source, f"{where}.step", "a positive number (an integer for an integer knob)", step)
    if not isinstance(log, bool) or (log and low <= 0) or (log and step is not None):
        raise StudyError(source, f"{where}.log", "true or false (true needs low > 0 and no step)", log)
    return Param(name, float(low) if not integer else int(low), float(high) if not integer else int(high),
                 integer, step, log)


def _knobs(source: str, tables: Any, docs: dict[str, Any], base_rules) -> tuple[Knob, ...]:
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise StudyError(source, "knob", "one or more [[knob]] tables", tables)
    knobs, names = [], set()
    for i, table in enumerate(tables):
        where = f"knob[{i}]"
        knob = _feature_knob(source, where, table, docs) if "feature" in table else \
            _value_knob(source, where, table, docs, base_rules)
        if knob.name in names:
            raise StudyError(source, f"{where}.name", "a name no other knob has", knob.name)
        names.add(knob.name)
        knobs.append(knob)
    return tuple(knobs)


def _path(source: str, where: str, text: Any, docs: dict[str, Any]) -> tuple[KnobPath, Any]:
    try:
        path = parse_path(text)
        container, key = walk(docs[path.file], path.steps)
    except PathError as error:
        raise StudyError(source, where, error.expected, error.found) from None
    return path, container[key]


def _value_knob(source: str, where: str, table: dict[str, Any], docs: dict[str, Any], base_rules) -> Knob:
    _known(source, where, table, ("name", "path", *VALUE_ACTIONS, "step", "log"))
    if "path" not in table:
        raise StudyError(source, f"{where}.path", "a path into the map or rules file (or a `feature` and `op`)",
                         None)
    path, value = _path(source, f"{where}.path", table["path"], docs)
    actions = [a for a in VALUE_ACTIONS if a in table]
    if len(actions) != 1:
        raise StudyError(source, where, f"exactly one of {', '.join(VALUE_ACTIONS)}", actions or None)
    action = actions[0]
    name = table.get("name", str(path))
    if not isinstance(name, str) or not name:
        raise StudyError(source, f"{where}.name", "a non-empty string", name)
    if action == "choices":
        choices = table["choices"]
        if not isinstance(choices, list) or len(choices) < 2:
            raise StudyError(source, f"{where}.choices", "a list of at least two values", choices)
        if path.file == "rules":
            for j, choice in enumerate(choices):
                trial = copy.deepcopy(docs["rules"])
                container, key = walk(trial, path.steps)
                container[key] = choice
                _rules(source, f"{where}.choices[{j}]", trial.unwrap())
        scalar = all(isinstance(c, (str, int, float, bool)) for c in choices)
        labels = tuple(choices) if scalar else tuple(json.dumps(c) for c in choices)
        return Knob(name, where, path, "choose", (("", Param(name, choices=labels)),), choices=tuple(choices))
    if action == "range":
        if not is_number(value):
            raise StudyError(source, f"{where}.path", "a path to a number (for `range`)", value)
        integer = isinstance(value, int)
    else:
        slots = [value] if is_number(value) else [c[k] for c, k in number_slots(value)]
        if not slots:
            raise StudyError(source, f"{where}.path", f"a path to numbers (for `{action}`)", value)
        integer = all(isinstance(v, int) for v in slots)
    param = _param(source, where, name, table, action, integer and action != "factor")
    if path.file == "rules":  # the range's ends must make rules the loader takes
        for end in (param.low, param.high):
            trial = copy.deepcopy(docs["rules"])
            knob = Knob(name, where, path, {"range": "set"}.get(action, action), (("", param),), integer)
            apply_knob(knob, {"rules": trial}, {name: end})
            _rules(source, f"{where}.{action}", trial.unwrap())
    return Knob(name, where, path, {"range": "set"}.get(action, action), (("", param),), integer)


def _feature_knob(source: str, where: str, table: dict[str, Any], docs: dict[str, Any]) -> Knob:
    _known(source, where, table, ("name", "feature", "op", "dx", "dy", "heading", "distance", "factor", "degrees",
                                  "about", "step", "log"))
    path, node = _path(source, f"{where}.feature", table["feature"], docs)
    if path.file != "map":
        raise StudyError(source, f"{where}.feature", "a map feature (map:...)", table["feature"])
    if not any(True for _ in points(node)):
        raise StudyError(source, f"{where}.feature", "a point, a line or outline, or a table with points", str(path))
    op = table.get("op")
    if op not in OPS:
        raise StudyError(source, f"{where}.op", f"one of {', '.join(OPS)}", op)
    allowed = OPS[op] + (("heading",) if op == "move" else ()) + (("about",) if op in ("scale", "rotate") else ())
    for key in ("dx", "dy", "heading", "distance", "factor", "degrees", "about"):
        if key in table and key not in allowed:
            raise StudyError(source, f"{where}.{key}", f"a key of op {op} ({', '.join(allowed)})", key)
    name = table.get("name", f"{path} {op}")
    if not isinstance(name, str) or not name:
        raise StudyError(source, f"{where}.name", "a non-empty string", name)
    heading = about = None
    if op == "move":
        axes = [a for a in ("dx", "dy") if a in table]
        if axes and ("distance" in table or "heading" in table):
            raise StudyError(source, where, "dx and/or dy, or heading and distance (not both)", sorted(table))
        if not axes:
            if "distance" not in table or not is_number(table.get("heading")):
                raise StudyError(source, f"{where}.heading", "dx and/or dy ranges, or a heading (degrees) with a "
                                 "distance range", table.get("heading"))
            heading, axes = float(table["heading"]), ["distance"]
        params = tuple((a if a != "distance" else "", _param(source, where, f"{name}.{a}" if len(axes) > 1 else name,
                                                              table, a, False)) for a in axes)
    else:
        key = OPS[op][0]
        if key not in table:
            raise StudyError(source, f"{where}.{key}", f"a [low, high] range for op {op}", None)
        if op == "buffer" and not (isinstance(node, Mapping) and "outline" in node):
            raise StudyError(source, f"{where}.feature", "a land or zone (a table with an outline) to buffer",
                             str(path))
        params = (("", _param(source, where, name, table, key, False)),)
        if "about" in table:
            if not is_point(table["about"]):
                raise StudyError(source, f"{where}.about", "a point [x, y] in cm", table["about"])
            about = (float(table["about"][0]), float(table["about"][1]))
        elif op in ("scale", "rotate") and is_point(node):
            raise StudyError(source, f"{where}.about", "a point [x, y] to scale or rotate a point about", None)
    return Knob(name, where, path, op, params, heading=heading, about=about)


def _strategies(source: str, tables: dict[str, Any], base_rules, map_path: Path) -> set[str]:
    """Return the strategies the seats play, checking seats and physics as a study would."""
    import tomlkit

    from somaliland.study.spec import parse_study

    text = tomlkit.dumps({"master_seed": 0, "games_per_cell": 1, "map": str(map_path),
                          **{k: v for k, v in tables.items() if k == "policy_factory"},
                          "rules": {"players": base_rules.players},
                          **{k: v for k, v in tables.items() if k != "policy_factory"}})
    try:
        study = parse_study(text, source, map_path.parent)
    except StudyError as error:
        raise StudyError(source, error.key, error.expected, error.found) from None
    return {s.strategy for s in study.cells[0].seats}


def _targets(source: str, tables: Any, strategies: set[str]) -> tuple[Target, ...]:
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise StudyError(source, "target", "one or more [[target]] tables", tables)
    targets, names = [], set()
    for i, table in enumerate(tables):
        where = f"target[{i}]"
        measure = table.get("measure")
        if measure not in MEASURES:
            raise StudyError(source, f"{where}.measure", f"one of {', '.join(MEASURES)}", measure)
        m = MEASURES[measure]
        _known(source, where, table, ("name", "measure", "goal", "weight", *m.filters))
        filters = []
        for key in m.filters:
            if key in table:
                allowed = FILTERS[key] or tuple(sorted(strategies))
                if table[key] not in allowed:
                    raise StudyError(source, f"{where}.{key}", f"one of {', '.join(allowed)}", table[key])
                filters.append((key, table[key]))
        if m.needs_strategies and len(strategies) < m.needs_strategies:
            raise StudyError(source, f"{where}.measure", f"seats that play at least {m.needs_strategies} "
                             f"strategies (for {measure})", sorted(strategies))
        goal = _goal(source, f"{where}.goal", table.get("goal"))
        weight = table.get("weight", 1.0)
        if not is_number(weight) or not math.isfinite(weight) or weight < 0:
            raise StudyError(source, f"{where}.weight", "a number >= 0 (0: watched and reported, not steering)",
                             weight)
        name = table.get("name", measure + "".join(f"[{v}]" for _, v in filters))
        if not isinstance(name, str) or not name or name in names:
            raise StudyError(source, f"{where}.name", "a name no other target has", name)
        names.add(name)
        targets.append(Target(name, measure, goal, float(weight), tuple(filters)))
    if not any(t.steers for t in targets):
        raise StudyError(source, "target", "at least one target with a weight above 0 (0 only watches)",
                         [t.name for t in targets])
    return tuple(targets)


def _goal(source: str, where: str, value: Any) -> Goal:
    wanted = 'a value, [low, high] (inf allowed: [0.5, inf]), "minimise" or "maximise"'
    if isinstance(value, str) and value in GOAL_WORDS:
        return Goal(GOAL_WORDS[value])
    if is_number(value) and math.isfinite(value):
        return Goal("value", float(value), float(value))
    if (isinstance(value, list) and len(value) == 2 and all(is_number(v) and not math.isnan(v) for v in value)
            and value[0] < value[1] and not (math.isinf(value[0]) and math.isinf(value[1]))):
        return Goal("range", float(value[0]), float(value[1]))
    raise StudyError(source, where, wanted, value)
