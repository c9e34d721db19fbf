"""Game records: JSON Lines, one event per line, the first line the game's header. Schema: RECORD.md.

Writing streams each line as it happens (a crash leaves every finished line); reading checks each line
and names the line of any fault.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from somaliland.engine.events import KINDS, EventError, Final, Header, Stamped, decode
from somaliland.errors import SomalilandError, undecodable
from somaliland.inputs import LimitError, check_nesting, read_limited

RECORD_SCHEMA = 1  # the record format's version, in every header (`Header.schema`)


class RecordError(SomalilandError):
    """A game record that cannot be read: names the file, the line and what is wrong."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        super().__init__(f"{path}, line {line}: {problem}" if line else f"{path}: {problem}")  # 0: the whole file
        self.path, self.line, self.problem = path, line, problem


def dumps(event: dict[str, Any]) -> str:
    """Return one record line (compact, keys in insertion order, exact floats)."""
    return json.dumps(event, separators=(",", ":"), allow_nan=False)


class RecordWriter:
    """Writes record lines to a file as they come."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._fh: IO[str] | None = self.path.open("w", encoding="utf-8")
        except OSError as error:
            raise RecordError(str(path), 0, f"cannot write: {error.strerror}") from None

    def __call__(self, event: dict[str, Any]) -> None:
        assert self._fh is not None
        self._fh.write(dumps(event) + "\n")

    def close(self) -> None:
        """Flush and close the file."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def decode_at(line: dict[str, Any], number: int, path: str) -> Stamped:
    """Return the event a record's line `number` tells.

    Raises:
        RecordError: the line is no event of the vocabulary (names the file, the line, its kind and the field).
    """
    try:
        return decode(line)
    except EventError as error:
        raise RecordError(path, number, f"{line.get('kind')} line: {error}") from None


def read_record(path: str | Path, whole: bool = True) -> list[dict[str, Any]]:
    """Return the lines of a record file, checking its shape: JSON objects with a `kind`, the header first.

    Args:
        path: the record file.
        whole: the record must end with the final table (False: an unfinished game, as the env draws it).

    Raises:
        RecordError: unreadable file, a line that is not a JSON object with a `kind`, no header, a header
            that lacks or garbles a field, or (`whole`) no final line (names the line and the field).
    """
    name = str(path)
    try:
        raw = read_limited(path, "game record")
        text = raw.decode("utf-8")
    except OSError as error:
        raise RecordError(name, 0, f"cannot read: {error.strerror}") from None
    except LimitError as error:
        raise RecordError(name, 0, f"expected {error.expected}, found {error.found}") from None
    except UnicodeDecodeError as error:
        line, byte = undecodable(raw, error)
        raise RecordError(name, line, f"not UTF-8 text ({byte}): not a game record") from None
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            check_nesting(line, name, "json")
            event = json.loads(line, parse_constant=_reject_constant)
        except LimitError as error:
            raise RecordError(name, number, f"expected {error.expected}, found {error.found}") from None
        except (json.JSONDecodeError, ValueError) as error:
            raise RecordError(name, number, f"not valid JSON ({error})") from None
        if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
            raise RecordError(name, number, "expected a JSON object with a \"kind\"")
        events.append(event)
    if not events:
        raise RecordError(name, 1, "empty record")
    head = events[0]
    if KINDS.get(head["kind"]) is not Header:
        raise RecordError(name, 1, f"expected the \"game\" header first, found \"{head['kind']}\"")
    decode_at(head, 1, name)  # names a field the header lacks or garbles
    if head.get("schema") != RECORD_SCHEMA:
        raise RecordError(name, 1, f"a record of schema {head.get('schema')!r}: this version reads schema {RECORD_SCHEMA}")
    if whole and KINDS.get(events[-1]["kind"]) is not Final:
        raise RecordError(name, len(text.splitlines()), "the record ends before the game does (no \"final\" line)")
    return events


def _reject_constant(token: str) -> float:
    raise ValueError(f"{token} is not allowed in a record")

