"""The map file's JSON Schema (maps/map.schema.json): load it and turn its complaints into problems."""

from __future__ import annotations

import datetime
import json
import math
import re
import unicodedata
import sys
from functools import cache
from pathlib import Path
from typing import Any

from somaliland.map.errors import KeyPath

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
SCHEMA_PATH = MAPS_DIR / "map.schema.json"

FLOAT_MAX = sys.float_info.max
LINE_BREAKS = "\n\r\u2028\u2029"
_KIND = {"object": "a table", "array": "an array", "string": "a string", "number": "a number",
         "integer": "a whole number", "boolean": "true or false"}


@cache
def schema() -> dict:
    """Return the map file schema."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def describe(value: Any) -> str:
    """Return a short description of a found value for messages."""
    if isinstance(value, dict):
        return f"a table with keys {sorted(value)}" if value else "an empty table"
    if isinstance(value, list):
        return f"an array of {len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.time)):  # TOML dates and times
        return f"the {'time' if isinstance(value, datetime.time) else 'date'} {value.isoformat()}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def schema_problems(document: dict) -> list[tuple[KeyPath, str, str]]:
    """Return (key path, expected, found) for every way the document breaks the schema."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    found, unknown = [], set()
    for error in validator.iter_errors(document):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties":  # name the unknown key itself, so its line is found
            allowed = error.schema.get("properties", {})
            path += (next(k for k in error.instance if k not in allowed),)
            unknown.add((path, *_explain(error)))
        elif "propertyNames" in error.absolute_schema_path:  # a bad key: name it, not the table holding it
            path += (error.instance,)
        found.append((path, *_explain(error)))
    found += _non_finite(document, ())
    found = list(dict.fromkeys(found))  # a table missing two keys fails `required` twice, alike
    # an unknown key first: it explains what else is wrong inside it
    def order(path):
        return [(isinstance(k, int), str(k).zfill(8)) for k in path]

    # an unknown key sorts with the table that holds it, before that table's own problems (a missing key it
    # was probably meant to be)
    return sorted(found, key=lambda p: (order(p[0][:-1] if p in unknown else p[0]), p not in unknown, order(p[0])))


def _did_you_mean(unknown: list[str], allowed: list[str]) -> str:
    """Return ' (did you mean 'full_value'?)' for unknown keys that look like a typo of an allowed one, else ''."""
    import difflib

    guesses = [g[0] for k in unknown if isinstance(k, str) and (g := difflib.get_close_matches(k, allowed, n=1))]
    return f" (did you mean {', '.join(map(repr, guesses))}?)" if guesses else ""


def _explain(error) -> tuple[str, str]:
    """Return (expected, found) in words for one jsonschema error."""
    v, want, got = error.validator, error.validator_value, error.instance
    if v == "required":
        missing = [k for k in want if k not in got]
        return (f"key {missing[0]!r}", "no such key") if len(missing) == 1 else (f"keys {missing}", "no such keys")
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(k for k in got if k not in allowed)
        return f"only the keys {allowed}", f"unknown key{'s' * (len(extra) > 1)} {', '.join(map(repr, extra))}" + \
            _did_you_mean(extra, allowed)
    if v == "type":
        kinds = want if isinstance(want, list) else [want]
        return " or ".join(_KIND.get(k, k) for k in kinds), describe(got)
    if v == "const":
        return repr(want), describe(got)
    if v == "enum":
        return f"one of {want}", describe(got)
    if v in ("minItems", "maxItems"):
        what = "at least" if v == "minItems" else "at most"
        return f"{what} {want} item{'s' * (want != 1)}", describe(got)
    if v in ("minProperties", "maxProperties"):
        what = "at least" if v == "minProperties" else "at most"
        return f"{what} {want} entr{'ies' if want != 1 else 'y'}", describe(got)
    if v == "pattern":
        return error.schema.get("description", f"text matching {want}"), describe(got)
    if v in ("minLength", "maxLength"):
        what = "at least" if v == "minLength" else "at most"
        return f"a string of {what} {want} character{'s' * (want != 1)}", describe(got)
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        sign = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[v]
        return f"a number {sign} {want}", describe(got)
    if v == "not" and isinstance(got, str):  # the text rule: no control characters or line breaks
        return error.schema.get("description", error.message), f"{describe(got)} ({_control(got)})"
    return error.message, describe(got)


def _control(text: str) -> str:
    """Return the first character of the text the schema's text rule refuses, in words, with its place."""
    refused = re.compile(schema()["$defs"]["text"]["not"]["pattern"])
    k, ch = next((k, ch) for k, ch in enumerate(text) if refused.match(ch))
    kind = ("a line break" if ch in LINE_BREAKS else "a bidirectional control" if unicodedata.bidirectional(ch) in
            ("LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI", "AL") and unicodedata.category(ch) == "Cf"
            else "an invisible formatting character" if unicodedata.category(ch) == "Cf" else "a control character")
    return f"{kind}, U+{ord(ch):04X}, at character {k + 1}"


def _non_finite(value: Any, path: KeyPath) -> list[tuple[KeyPath, str, str]]:
    """Return problems for NaN and infinite numbers, which the schema's bounds do not catch."""
    if isinstance(value, float) and not math.isfinite(value):
        return [(path, "a finite number", repr(value))]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > FLOAT_MAX:
        return [(path, "a number a float can hold (at most about 1.8e308)", f"a whole number of {len(str(abs(value)))} "
                                                                            f"digits")]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _non_finite(v, path + (k,))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _non_finite(v, path + (i,))]
    return []
