"""The one error a bad map file raises: every problem found, each naming file, place, expected, found."""

from __future__ import annotations

from dataclasses import dataclass

from somaliland.errors import SomalilandError

KeyPath = tuple[str | int, ...]


def format_path(path: KeyPath) -> str:
    """Return a key path as written in messages, e.g. `land[2].outline[0]` (indices count from 0)."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(top level)"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a map file, located by key path and, where it can be found, line."""

    file: str
    path: KeyPath
    expected: str
    found: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {format_path(self.path)}: expected {self.expected}, found {self.found}"


class MapError(SomalilandError):
    """A map file that cannot be used. `problems` lists everything found; the first is also unpacked."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        if not problems:
            raise ValueError("MapError needs at least one problem")
        self.problems = tuple(problems)
        first = self.problems[0]
        self.file, self.path, self.line = first.file, first.path, first.line
        self.expected, self.found = first.expected, first.found
        more = len(self.problems) - 1
        tail = f" (and {more} more problem{'s' * (more > 1)}; `somaliland map check` lists them all)" if more else ""
        super().__init__(f"{first}{tail}")

    @property
    def key_path(self) -> str:
        """Return the first problem's key path as text."""
        return format_path(self.path)
