"""The errors the rules raise: a bad rules file, an illegal action, a roll that does not fit the state."""

from __future__ import annotations

from somaliland.errors import SomalilandError


class RulesConfigError(SomalilandError):
    """A rules file (or option) that cannot be used: names the file, the key, what was expected and found."""

    def __init__(self, source: str, key: str, expected: str, found: object, line: int | None = None) -> None:
        self.source, self.key, self.expected, self.found, self.line = source, key, expected, found, line
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {key}: expected {expected}, found {found!r}")


class IllegalActionError(SomalilandError):
    """An action the rules forbid; the message lists what was legal."""

    def __init__(self, action: str, why: str, legal: object) -> None:
        self.action, self.why, self.legal = action, why, legal
        super().__init__(f"illegal {action}: {why}; legal: {legal}")


class RollMismatchError(SomalilandError):
    """A roll result that does not fit the game state (a die that is not a ship on the board)."""
