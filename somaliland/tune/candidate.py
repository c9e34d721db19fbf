"""Candidates: the base map and rules files with the knobs set, written out and checked by the real loaders.

A candidate's files keep the base files' comments and layout (tomlkit edits values in place). A
candidate the map check or the rules loader refuses is rejected with their first problem as its
reason, and never played.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from somaliland.study.store import write_whole
from somaliland.tune.knobs import apply_knob
from somaliland.tune.shapes import ShapeError
from somaliland.tune.spec import Tuning

MAP_FILE, RULES_FILE = "map.toml", "rules.toml"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate's files in its folder, its rules as a plain table, and why it was rejected (or "")."""

    folder: Path
    values: dict[str, Any]  # parameter name -> value, as the search set it
    rules: dict[str, Any]
    rejected: str = ""

    @property
    def map_path(self) -> Path:
        """Return the candidate's map file."""
        return self.folder / MAP_FILE


def base_documents(tuning: Tuning) -> dict[str, Any]:
    """Return fresh tomlkit documents of the base map and rules (the rules file with `[rules]` set on it)."""
    import tomlkit

    rules = tomlkit.parse(tuning.rules_text)
    rules.update(tuning.rules_overrides)
    return {"map": tomlkit.parse(tuning.map_text), "rules": rules}


def build(tuning: Tuning, values: dict[str, Any], folder: Path) -> Candidate:
    """Write a candidate's map and rules files into `folder` and check them with the map and rules loaders."""
    from somaliland.map import problems
    from somaliland.rules.config import load_rules
    from somaliland.rules.errors import RulesConfigError

    docs = base_documents(tuning)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for knob in tuning.knobs:
            apply_knob(knob, docs, values)
    except ShapeError as error:
        return Candidate(folder, values, {}, f"{knob.name}: {error}")
    import tomlkit

    write_whole(folder / MAP_FILE, tomlkit.dumps(docs["map"]))
    write_whole(folder / RULES_FILE, tomlkit.dumps(docs["rules"]))
    found = problems(folder / MAP_FILE)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return Candidate(folder, values, {}, f"map check: {_relative(found[0], folder)}{more}")
    try:
        load_rules(folder / RULES_FILE)
    except RulesConfigError as error:
        return Candidate(folder, values, {}, f"rules: {error.key}: expected {error.expected}, found {error.found!r}")
    return Candidate(folder, values, docs["rules"].unwrap())


def _relative(problem: Any, folder: Path) -> str:
    """Return a map problem without the candidate folder in its file name."""
    return str(problem).replace(str(folder) + os.sep, "")


def describe(values: dict[str, Any]) -> str:
    """Return parameter values as `name = value, ...` for tables and headers."""
    return ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {json.dumps(v)}" for k, v in values.items())
