"""Field checks for the record lines a replay reads: a hand-edited or damaged line is refused with a
`RecordError` naming the file, the line and what was expected, never a traceback."""

from __future__ import annotations

import math
from typing import Any

from somaliland.engine.record import RecordError


class Line:
    """One record line with its file and line number, read through checked accessors."""

    def __init__(self, path: str, number: int, event: dict[str, Any]) -> None:
        self.path, self.number, self.event = path, number, event
        self.kind: str = event["kind"]

    def fail(self, problem: str) -> RecordError:
        """Return the error for a problem on this line (raise it)."""
        return RecordError(self.path, self.number, f"{self.kind} line: {problem}")

    def get(self, key: str) -> Any:
        """Return a key's value; raise if it is missing."""
        if key not in self.event:
            raise self.fail(f"lacks \"{key}\"")
        return self.event[key]

    def text(self, key: str) -> str:
        """Return a non-empty string field."""
        return text(self, key, self.get(key))

    def integer(self, key: str) -> int:
        """Return an integer field."""
        return integer(self, key, self.get(key))

    def items(self, key: str) -> list[Any]:
        """Return a list field."""
        value = self.get(key)
        if not isinstance(value, list):
            raise self.fail(f"\"{key}\" should be a list, found {_show(value)}")
        return value

    def mapping(self, key: str) -> dict[str, Any]:
        """Return an object field."""
        value = self.get(key)
        if not isinstance(value, dict):
            raise self.fail(f"\"{key}\" should be an object, found {_show(value)}")
        return value


def field(line: Line, where: str, data: Any, key: str) -> Any:
    """Return data[key] for a nested object, naming `where.key` if it is missing."""
    if not isinstance(data, dict) or key not in data:
        raise line.fail(f"lacks \"{where}.{key}\"")
    return data[key]


def text(line: Line, where: str, value: Any) -> str:
    """Return value if it is a non-empty string."""
    if not isinstance(value, str) or not value:
        raise line.fail(f"\"{where}\" should be a name, found {_show(value)}")
    return value


def integer(line: Line, where: str, value: Any) -> int:
    """Return value if it is an integer (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise line.fail(f"\"{where}\" should be an integer, found {_show(value)}")
    return value


def number(line: Line, where: str, value: Any) -> float:
    """Return value if it is a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise line.fail(f"\"{where}\" should be a number, found {_show(value)}")
    return float(value)


def vector(line: Line, where: str, value: Any, size: int) -> tuple[float, ...]:
    """Return value as a tuple if it is a list of `size` finite numbers."""
    if not isinstance(value, list) or len(value) != size:
        raise line.fail(f"\"{where}\" should be a list of {size} numbers, found {_show(value)}")
    return tuple(number(line, where, v) for v in value)


def _show(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
