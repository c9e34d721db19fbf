"""The one error type of balance studies: a bad study file or results folder, located and explained."""

from __future__ import annotations

from typing import Any

from somaliland.errors import SomalilandError


class StudyError(SomalilandError):
    """A study file, results folder or run option that cannot be used; names where and what, and how to fix it."""

    def __init__(self, source: str, key: str, expected: str, found: Any, hint: str = "",
                 line: int | None = None) -> None:
        self.source, self.key, self.expected, self.found, self.hint = source, key, expected, found, hint
        self.line = line
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {key}: expected {expected}, found {found!r}" + (f"; {hint}" if hint else ""))
