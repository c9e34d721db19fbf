"""Study files: a TOML description of a Monte Carlo balance study, checked by one loader.

A study names a map, rules options, the seats (strategy, throw skill, strategy parameters), how many
games each cell plays and a master seed; its sweeps turn that base into cells. The format is documented
in `experiments/README.md`. Every problem raises `StudyError` naming the file, the key and what was
expected, before any game is played: each cell's map is loaded and checked, and, for the strategy
registry, each seat's strategy and parameters are checked against it.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import itertools
import json
import math
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from physics import PhysicsInputError, SimSettings
from physics.settings import CHOICE_FIELDS as PHYSICS_CHOICES
from physics.settings import INTEGER_FIELDS as PHYSICS_INTS
from physics.settings import RETIRED as PHYSICS_RETIRED
from physics.settings import current_fields
from somaliland.engine.setup import DEFAULT_MAP, STRATEGY_NAME, STRATEGY_NAME_TEXT, GameSetup, Seat
from somaliland.errors import undecodable
from somaliland.inputs import LimitError, load_toml, read_limited
from somaliland.players.hand import ThrowSkill
from somaliland.players.strategies import REMOVED
from somaliland.rules.config import RulesConfig, rules_from_dict
from somaliland.rules.errors import RulesConfigError
from somaliland.study.errors import StudyError

TOP_KEYS = ("name", "question", "map", "master_seed", "games_per_cell", "policy_factory",
            "rules", "seats", "seat", "physics", "sweep")
SEAT_KEYS = ("strategy", "skill", "params")
SWEEP_ROOTS = ("map", "rules", "seats", "seat", "physics")
# how rolls are simulated (physics.SimSettings), less the test-only audit
PHYSICS_KEYS = tuple(f.name for f in fields(SimSettings) if f.name != "audit")
MAX_SEATS = 4  # R23
MAX_CELLS = 10_000


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a cell: strategy name, throw skill level in [0, 1], strategy parameters."""

    strategy: str
    skill: float
    params: tuple[tuple[str, Any], ...] = ()

    def seat(self) -> Seat:
        """Return the engine's seat."""
        return Seat(self.strategy, ThrowSkill.level(self.skill), self.params)


@dataclass(frozen=True, slots=True)
class Cell:
    """One point of a study's grid: the swept values it takes and the game they make."""

    index: int
    values: tuple[tuple[str, Any], ...]  # (sweep key, value) in the order the keys were written
    map_path: Path
    rules: RulesConfig
    seats: tuple[SeatSpec, ...]
    physics: SimSettings = SimSettings()  # how its rolls are simulated (the study's [physics] table)

    def label(self) -> str:
        """Return the cell as 'key=value, ...' (or 'base' when nothing is swept)."""
        return ", ".join(f"{column_name(k)}={_short(v)}" for k, v in self.values) or "base"

    def setup(self, seed: int, record_paths: bool = False) -> GameSetup:
        """Return the setup of one game of this cell."""
        return GameSetup(seed=seed, seats=tuple(s.seat() for s in self.seats), rules=self.rules,
                         map_path=self.map_path, record_paths=record_paths, physics=self.physics)


@dataclass(frozen=True, slots=True)
class Study:
    """A checked study: its cells, the seeding and what identifies its results."""

    name: str
    question: str
    source: str
    master_seed: int
    games_per_cell: int
    policy_factory: str | None  # "module:function" making policies; None: the strategy registry
    sweep_keys: tuple[str, ...]
    cells: tuple[Cell, ...]
    fingerprint: str  # changes when anything but games_per_cell, name or question changes; "" when parsed
    # without its maps (parse_study maps=False): such a Study is read (a report), never run

    @property
    def total_games(self) -> int:
        """Return the number of games the study plays."""
        return self.games_per_cell * len(self.cells)


def column_name(key: str) -> str:
    """Return the results column of a sweep key: 'rules.rounds' -> 'rounds', 'seat.0.skill' -> 'seat0_skill'."""
    parts = key.split(".")
    if parts[0] == "rules":
        parts = parts[1:]
    elif parts[0] == "seat" and len(parts) > 1:
        parts = [f"seat{parts[1]}", *parts[2:]]
    return "_".join(parts)


def _short(value: Any) -> str:
    if isinstance(value, str) and ("/" in value or value.endswith(".toml")):
        return Path(value).stem
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


def load_study(path: str | Path) -> Study:
    """Return the study a TOML file describes.

    Args:
        path: the study file; a relative `map` path in it is relative to the file's folder.

    Raises:
        StudyError: the file is missing or not TOML, a key is unknown, or a value (of the base or of any
            sweep cell) is of the wrong type or range; the message names the file and the key.
    """
    path = Path(path)
    return parse_study(read_utf8(path, "a readable study file", "study file"), str(path), path.resolve().parent)


def read_utf8(path: Path, what: str, kind: str) -> str:
    """Return a text file's contents, read within the size limit of its kind (`somaliland.inputs.LIMITS`).

    Raises:
        StudyError: the file cannot be read (`what` it should have been), is larger than its kind's limit, or is
            not UTF-8 (naming the line).
    """
    try:
        raw = read_limited(path, kind)
    except OSError as error:
        raise StudyError(str(path), "(file)", what, error.strerror or str(error)) from None
    except LimitError as error:
        raise StudyError(str(path), error.where, error.expected, error.found) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, byte = undecodable(raw, error)
        raise StudyError(str(path), f"line {line}", "UTF-8 text", byte) from None


def _missing(key: str, doc: dict) -> str:
    """Return the repair hint for a required top-level key the study file lacks, or "" when it is there."""
    return "" if key in doc else f"the key is missing: add `{key} = ...` among the top-level keys, before any [table]"


def parse_study(text: str, source: str, base_dir: Path, maps: bool = True) -> Study:
    """Return the study in a TOML text; `base_dir` anchors a relative map path.

    Args:
        maps: check that each cell's map file exists and loads, and hash it into the fingerprint. False for
            readers of results that never open a map (a report): the map paths are only resolved, and the
            fingerprint is left empty (the results' manifest keeps the one they were run with).

    Raises:
        StudyError: as for `load_study`.
    """
    try:
        doc = load_toml(text, source)
    except LimitError as error:
        raise StudyError(source, error.where, error.expected, error.found) from None
    except tomllib.TOMLDecodeError as error:
        at = re.search(r" \(at (line \d+, column \d+|end of document)\)$", str(error))
        raise StudyError(source, at.group(1) if at else "(syntax)", "valid TOML",
                         str(error)[:at.start()] if at else str(error)) from None
    _known(source, "", doc, TOP_KEYS, text)
    master = doc.get("master_seed")
    if isinstance(master, bool) or not isinstance(master, int) or master < 0:
        raise StudyError(source, "master_seed", "a non-negative integer (every game's seed derives from it)", master,
                         _missing("master_seed", doc))
    games = doc.get("games_per_cell")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 10_000_000:
        raise StudyError(source, "games_per_cell", "an integer from 1 to 10000000", games, _missing("games_per_cell", doc))
    name = doc.get("name", Path(source).stem)
    question = doc.get("question", "")
    factory = doc.get("policy_factory")
    for key, value in (("name", name), ("question", question)):
        if not isinstance(value, str):
            raise StudyError(source, key, "a string", value)
    check_name(source, name)
    if factory is not None and (not isinstance(factory, str) or factory.count(":") != 1):
        raise StudyError(source, "policy_factory", "'module:function' (a policy factory importable by workers)",
                         factory)
    grids = _sweeps(source, doc.get("sweep", []))
    cells_count = sum(math.prod(len(values) for values in grid.values()) for grid in grids)
    if cells_count > MAX_CELLS:  # counted from the axes: the cells are not built (9e7 of them would fill memory)
        raise StudyError(source, "sweep", f"at most {MAX_CELLS} cells", cells_count)
    base = {k: v for k, v in doc.items() if k in SWEEP_ROOTS}
    combos: list[tuple[str, tuple[tuple[str, Any], ...]]] = []
    for g, grid in enumerate(grids):
        keys = list(grid)
        for values in itertools.product(*(grid[k] for k in keys)):
            where = f"sweep[{g}]" if isinstance(doc.get("sweep"), list) else "sweep"
            combos.append((where, tuple(zip(keys, values))))
    cells = tuple(_cell(source, i, where, base, values, base_dir, factory is None, maps)
                  for i, (where, values) in enumerate(combos))
    _distinct_map_names(source, cells)
    sweep_keys = tuple(dict.fromkeys(k for grid in grids for k in grid))
    return Study(name=name, question=question.strip(), source=source, master_seed=master, games_per_cell=games,
                 policy_factory=factory, sweep_keys=sweep_keys, cells=cells,
                 fingerprint=_fingerprint(doc, cells) if maps else "")


def check_name(source: str, name: str) -> None:
    """Refuse a study's or tuning's name that is not a plain folder name (its results go in results/NAME).

    Raises:
        StudyError: the name is empty, `.` or `..`, holds a path separator or a control character (names
            the file and the key `name`).
    """
    if name in ("", ".", "..") or any(c in name for c in "/\\") or not name.isprintable():
        raise StudyError(source, "name", "a plain name (the results go in a folder of that name: no / or \\, "
                         "not . or .., no control character)", name)


def _known(source: str, where: str, table: Any, allowed: tuple[str, ...], text: str = "") -> None:
    """Refuse a key not in `allowed`, with the key it looks like a typo of; `text` (the file) names its line."""
    import difflib

    from somaliland.map.locate import find_line, line_index

    if not isinstance(table, dict):
        raise StudyError(source, where or "(top level)", "a table", table)
    for key in table:
        if key not in allowed:
            guess = difflib.get_close_matches(key, allowed, n=1)
            said = f": did you mean {guess[0]!r}? ({', '.join(allowed)})" if guess else f" ({', '.join(allowed)})"
            path = (*where.split("."), key) if where else (key,)
            raise StudyError(source, ".".join(path), f"a known key{said}", key,
                             line=find_line(line_index(text), path) if text else None)


def _sweeps(source: str, sweep: Any) -> list[dict[str, list[Any]]]:
    """Return the sweep grids: `[sweep]` is one grid, `[[sweep]]` several whose cells are joined."""
    grids = [sweep] if isinstance(sweep, dict) else sweep
    if not isinstance(grids, list):
        raise StudyError(source, "sweep", "a table or an array of tables of key = [values]", sweep)
    if not grids:
        return [{}]
    for g, grid in enumerate(grids):
        where = f"sweep[{g}]" if isinstance(sweep, list) else "sweep"
        if not isinstance(grid, dict):
            raise StudyError(source, where, "a table of key = [values]", grid)
        for key, values in grid.items():
            if key.split(".")[0] not in SWEEP_ROOTS:
                raise StudyError(source, f"{where}.{key}",
                                 f"a key under {', '.join(SWEEP_ROOTS)} (e.g. rules.rounds, seats.skill, seat.0.skill)",
                                 key)
            if not isinstance(values, list) or not values:
                raise StudyError(source, f"{where}.{key}", "a non-empty array of values", values)
    return grids


def _cell(source: str, index: int, where: str, base: dict[str, Any], values: tuple[tuple[str, Any], ...],
          base_dir: Path, registry: bool, maps: bool = True) -> Cell:
    """Return one cell: the base with the sweep values set, checked; errors name the sweep key."""
    doc = copy.deepcopy(base)
    for key, value in values:
        _set(doc, key.split("."), value)
    here = f"{where} cell {index} ({', '.join(f'{k}={v!r}' for k, v in values)}): " if values else ""
    rules_doc = doc.get("rules", {})
    if not isinstance(rules_doc, dict):
        raise StudyError(source, f"{here}rules", "a table of rules options", rules_doc)
    try:
        rules = rules_from_dict(rules_doc, "rules")
    except RulesConfigError as error:
        raise StudyError(source, f"{here}rules.{error.key}", error.expected, error.found) from None
    map_path = _map_path(source, here, doc.get("map"), base_dir, maps)
    seats = _seats(source, here, doc, rules.players, registry)
    physics = _physics(source, here, doc.get("physics", {}))
    return Cell(index=index, values=values, map_path=map_path, rules=rules, seats=seats, physics=physics)


def _distinct_map_names(source: str, cells: tuple[Cell, ...]) -> None:
    """Refuse two map files of one name: results and reports tell maps apart by file name, and would pool them."""
    named: dict[str, Path] = {}
    for cell in cells:
        first = named.setdefault(cell.map_path.stem, cell.map_path)
        if first.resolve() != cell.map_path.resolve():
            raise StudyError(source, "map", f"map files of different names (results and reports name a map by its "
                                            f"file name, and would pool two called {first.stem!r})",
                             f"{first} and {cell.map_path}")


def _physics(source: str, here: str, table: Any) -> SimSettings:
    """Return the simulation settings of a cell: the defaults, with what `[physics]` sets."""
    _known(source, f"{here}physics", table, PHYSICS_KEYS + tuple(PHYSICS_RETIRED))
    try:
        table = current_fields(table)
    except PhysicsInputError as error:
        raise StudyError(source, f"{here}physics.{error.name}", error.allowed, error.value) from None
    for key, value in table.items():
        if key in PHYSICS_CHOICES:
            continue  # SimSettings checks the value against its choices below
        wanted = (int,) if key in PHYSICS_INTS else (int, float)
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise StudyError(source, f"{here}physics.{key}", "an integer" if key in PHYSICS_INTS else "a number",
                             value)
    try:
        return SimSettings(**{k: v if k in PHYSICS_INTS or k in PHYSICS_CHOICES else float(v)
                              for k, v in table.items()})
    except PhysicsInputError as error:
        raise StudyError(source, f"{here}physics.{error.name}", error.allowed, error.value) from None


def _set(doc: dict[str, Any], parts: list[str], value: Any) -> None:
    for part in parts[:-1]:
        doc = doc.setdefault(part, {})
        if not isinstance(doc, dict):
            return  # the checks of the cell report the misplaced value
    doc[parts[-1]] = value


def _map_path(source: str, here: str, value: Any, base_dir: Path, check: bool = True) -> Path:
    if value is None:
        return DEFAULT_MAP
    if not isinstance(value, str) or not value or "\0" in value:
        raise StudyError(source, f"{here}map", "a map file path (relative to the study file)", value)
    path = Path(value) if Path(value).is_absolute() else (base_dir / value).resolve()
    if not check:
        return path
    if not path.is_file():
        raise StudyError(source, f"{here}map", "an existing map file (a relative path is read from the study "
                         f"file's folder, {base_dir})", str(path))
    try:
        problem = _map_problem(str(path), hashlib.sha256(read_limited(path, "map")).hexdigest())
    except OSError as error:
        problem = f"{path}: {error.strerror}"
    except LimitError as error:
        problem = str(error)
    if problem:
        raise StudyError(source, f"{here}map", "a map file that loads (`somaliland map check` lists its problems)",
                         problem)
    return path


@functools.cache
def _map_problem(path: str, sha256: str) -> str | None:
    """Return why the map file at `path` (of that content) does not load, or None; each content once."""
    from somaliland.map import MapError, load

    try:
        load(path)
    except MapError as error:
        return str(error)
    return None


def _seats(source: str, here: str, doc: dict[str, Any], players: int, registry: bool) -> tuple[SeatSpec, ...]:
    """Return one seat per player: `[seats]` for everybody (lists cycle over seats), `[seat.N]` overrides.

    With `registry` (no policy_factory) each strategy and its parameters are checked against the registry.
    """
    common = doc.get("seats", {})
    _known(source, f"{here}seats", common, SEAT_KEYS)
    overrides = doc.get("seat", {})
    if not isinstance(overrides, dict):
        raise StudyError(source, f"{here}seat", "tables [seat.0] .. [seat.3]", overrides)
    for key, table in overrides.items():
        if key not in tuple(str(i) for i in range(MAX_SEATS)):
            raise StudyError(source, f"{here}seat.{key}", "a seat number 0 to 3 (seat 0 is the first seat)", key)
        _known(source, f"{here}seat.{key}", table, SEAT_KEYS)
    for where, table in ((f"{here}seats", common), *((f"{here}seat.{k}", t) for k, t in overrides.items())):
        if not isinstance(table.get("params", {}), dict):
            raise StudyError(source, f"{where}.params", "a table of strategy parameters", table["params"])
    seats = []
    for i in range(players):
        own = overrides.get(str(i), {})
        where = f"{here}seat.{i}" if own else f"{here}seats"
        strategy = own.get("strategy", _cycled(common.get("strategy", "ev"), i))
        skill = own.get("skill", _cycled(common.get("skill", 0.75), i))
        params = {**common.get("params", {}), **own.get("params", {})}
        for name in sorted(set(params) & set(REMOVED)):
            source_table = f"{here}seat.{i}" if name in own.get("params", {}) else f"{here}seats"
            raise StudyError(source, f"{source_table}.params.{name}", "a strategy parameter that exists",
                             f"{name}, which was removed ({REMOVED[name]})")
        if not isinstance(strategy, str) or not STRATEGY_NAME.fullmatch(strategy):
            raise StudyError(source, f"{where}.strategy", f"{STRATEGY_NAME_TEXT} (or an array of them, one per seat)",
                             strategy)
        if isinstance(skill, bool) or not isinstance(skill, (int, float)) or not math.isfinite(skill) \
                or not 0 <= skill <= 1:
            raise StudyError(source, f"{where}.skill", "a throw skill from 0 (clumsy) to 1 (perfect hand)", skill)
        if registry:
            _check_strategy(source, where, strategy, params)
        seats.append(SeatSpec(strategy, float(skill), tuple(sorted(params.items()))))
    return tuple(seats)


def _check_strategy(source: str, where: str, strategy: str, params: dict[str, Any]) -> None:
    """Check a seat's strategy and parameters against the registry, as its games would build them."""
    from somaliland.errors import UsageError
    from somaliland.players.strategies import STRATEGIES, make_policy, param_expected, strategy_params

    if strategy not in STRATEGIES:
        raise StudyError(source, f"{where}.strategy", f"a strategy of the registry ({', '.join(sorted(STRATEGIES))}),"
                         f" or a policy_factory that knows it", strategy)
    known = strategy_params(strategy)
    for name, value in params.items():
        if name not in known:
            raise StudyError(source, f"{where}.params.{name}", f"a strategy parameter ({', '.join(sorted(known))})",
                             name)
        try:
            make_policy(strategy, None, **{name: value})
        except UsageError:
            raise StudyError(source, f"{where}.params.{name}", param_expected(name, strategy), value) from None


def _cycled(value: Any, i: int) -> Any:
    return value[i % len(value)] if isinstance(value, list) and value else value


def _fingerprint(doc: dict[str, Any], cells: tuple[Cell, ...]) -> str:
    """Return what identifies a study's results: its definition (less games_per_cell and prose) and map bytes."""
    kept = {k: v for k, v in doc.items() if k not in ("games_per_cell", "name", "question")}
    maps = sorted({str(c.map_path): map_sha256(c.map_path) for c in cells}.values())
    blob = json.dumps({"study": kept, "maps": maps}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def map_sha256(path: Path) -> str:
    """Return the sha256 of a cell's map file (what identifies the board its games are played on).

    Raises:
        StudyError: the file cannot be read, or is larger than a map may be.
    """
    try:
        return hashlib.sha256(read_limited(path, "map")).hexdigest()
    except OSError as error:
        raise StudyError(str(path), "(file)", "a readable map file", error.strerror or str(error)) from None
    except LimitError as error:
        raise StudyError(str(path), error.where, error.expected, error.found) from None
