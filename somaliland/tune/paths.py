"""Knob paths: one value (or a part) of the map or rules file by its TOML key path.

`map:pirate_port[2].at[0]`, `map:pirate_port[Eyl].at`, `map:routes.somalia.north.start[1]`,
`rules:rounds`, `rules:contract_values[3]`, `rules:fleet["24"].faces`. The file (`map:` or `rules:`),
then keys joined by dots; `[N]` is an array's item N (from 0), `[NAME]` (bare or quoted) the item of an
array of tables whose `name` is NAME. Paths work on any document's keys, so they follow the format of
the file they point into (a route is `routes.NAME` whatever its name).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, MutableMapping, MutableSequence
from dataclasses import dataclass
from typing import Any

FILES = ("map", "rules")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_INDEX = re.compile(r"\[\s*(?:(\d+)|\"([^\"]+)\"|'([^']+)'|([^\]\"']+?))\s*\]")


class PathError(ValueError):
    """A path that does not parse, or does not lead to a value of the document; says what was expected."""

    def __init__(self, expected: str, found: Any) -> None:
        self.expected, self.found = expected, found
        super().__init__(f"expected {expected}, found {found!r}")


@dataclass(frozen=True, slots=True)
class Named:
    """A path step choosing, in an array of tables, the one whose `name` is this."""

    name: str


Step = str | int | Named


@dataclass(frozen=True, slots=True)
class KnobPath:
    """A parsed path: which file, and the steps from its top level."""

    file: str
    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return f"{self.file}:{format_steps(self.steps)}"


def format_steps(steps: tuple[Step, ...]) -> str:
    """Return steps as written: `pirate_port[Eyl].at[0]`."""
    text = ""
    for step in steps:
        if isinstance(step, int):
            text += f"[{step}]"
        elif isinstance(step, Named):
            text += f"[{step.name}]"
        else:
            text += f".{step}" if text else step
    return text


def parse_path(text: Any) -> KnobPath:
    """Return the path a string names.

    Raises:
        PathError: it is not `map:` or `rules:` followed by keys, `[N]` and `[NAME]` steps.
    """
    wanted = "a path such as map:pirate_port[0].at[1] or rules:rounds (map: or rules:, then keys and [N] or [NAME])"
    if not isinstance(text, str) or ":" not in text:
        raise PathError(wanted, text)
    file, rest = text.split(":", 1)
    if file not in FILES:
        raise PathError(wanted, text)
    steps: list[Step] = []
    i = 0
    while i < len(rest):
        if rest[i] == "[":
            m = _INDEX.match(rest, i)
            if m is None or not steps:
                raise PathError(wanted, text)
            number, *names = m.groups()
            steps.append(int(number) if number is not None else Named(next(n for n in names if n)))
            i = m.end()
            continue
        if steps:
            if rest[i] != ".":
                raise PathError(wanted, text)
            i += 1
        m = _KEY.match(rest, i)
        if m is None:
            raise PathError(wanted, text)
        steps.append(m.group())
        i = m.end()
    if not steps:
        raise PathError(wanted, text)
    return KnobPath(file, tuple(steps))


def walk(doc: Any, steps: tuple[Step, ...]) -> tuple[Any, Step]:
    """Return the container holding the value a path names and its key there (the last step resolved).

    Raises:
        PathError: a step names no key, an index is out of range, or a name matches no item (or several).
    """
    if not steps:
        raise PathError("a path with at least one key", "")
    node = doc
    for n, step in enumerate(steps[:-1]):
        node = node[_key(node, step, steps[:n])]
    return node, _key(node, steps[-1], steps[:-1])


def _key(node: Any, step: Step, before: tuple[Step, ...]) -> Step:
    """Return the key or index of `node` that a step names."""
    here = format_steps(before) or "the top level"
    if isinstance(step, str):
        if not isinstance(node, Mapping) or step not in node:
            keys = ", ".join(node) if isinstance(node, Mapping) else f"no keys ({type(node).__name__})"
            raise PathError(f"a key of {here} ({keys})", step)
        return step
    if isinstance(step, int):
        if not isinstance(node, MutableSequence) or not 0 <= step < len(node):
            size = len(node) if isinstance(node, MutableSequence) else 0
            raise PathError(f"an index of {here} from 0 to {size - 1}" if size else f"an array at {here}", f"[{step}]")
        return step
    names = [item.get("name") for item in node if isinstance(item, Mapping)] if isinstance(node, MutableSequence) \
        else []
    if names.count(step.name) != 1:
        raise PathError(f"the name of one item of {here} ({', '.join(map(str, names)) or 'none named'})", step.name)
    return names.index(step.name)


def get(doc: Any, path: KnobPath) -> Any:
    """Return the value at a path (see `walk` for errors)."""
    container, key = walk(doc, path.steps)
    return container[key]


def put(doc: Any, path: KnobPath, value: Any) -> None:
    """Set the value at a path, keeping the file's layout around it (see `walk` for errors)."""
    container, key = walk(doc, path.steps)
    container[key] = value


def is_number(value: Any) -> bool:
    """Return True for an int or float that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def number_slots(node: Any) -> Iterator[tuple[Any, Step]]:
    """Yield (container, key) of every number inside an array or table, depth first (not the node itself)."""
    items = node.items() if isinstance(node, MutableMapping) else enumerate(node) \
        if isinstance(node, MutableSequence) else ()
    for key, value in items:
        if is_number(value):
            yield node, key
        else:
            yield from number_slots(value)


def tidy(value: float) -> float:
    """Return a float rounded to 6 significant digits, so candidate files stay readable."""
    return float(f"{value:.6g}")
