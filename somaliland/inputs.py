"""Input files read within limits: no file can exhaust the memory or the stack before it is checked.

Every file a user hands over, or finds in a folder (a map, a rules, study or tuning file, a game record, a
results folder's manifest, journal and chunk marks, a tuning's progress), is read by `read_limited`: its size
is bounded by its kind's limit before a byte of it is read, so `/dev/zero` or a 3 GB sparse file is refused at
once. Its text is then checked by `check_nesting` before a parser recurses into it: arrays and tables nested
deeper than `MAX_DEPTH` are refused with the line where that depth is passed (TOML's parser and JSON's recurse
once per level, and 100,000 `[` would blow their stack); `check_depth` bounds a parsed document the same way
(a TOML dotted key `a.a.a...` nests without a bracket). Each loader turns a `LimitError` into its own located
error; the messages say the limit.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from somaliland.errors import SomalilandError

MiB = 1 << 20
# The largest file of each kind that is read, in bytes: far above any real one (the shipped maps are under
# 10 KB, a 4-player game's record with its paths under 1 MB, a study or tuning file a few KB), far below
# what would exhaust a machine.
LIMITS = {
    "map": 4 * MiB,
    "drawing": 16 * MiB,  # an SVG a map is imported from
    "rules file": 1 * MiB,
    "study file": 1 * MiB,
    "tuning file": 1 * MiB,
    "game record": 64 * MiB,
    "results manifest": 1 * MiB,
    "results journal": 256 * MiB,  # the study store starts a chunk well before its journal is this long
    "chunk mark": 64 * MiB,
    "tuning manifest": 1 * MiB,
    "tuning progress": 1 * MiB,
}
MAX_DEPTH = 32  # levels of arrays and tables in any input file; the deepest real ones (a record's paths) have 6
_NESTED, _DEEPER = f"arrays and tables nested at most {MAX_DEPTH} deep", f"more than {MAX_DEPTH} levels"
_BLOCK = 4 * MiB  # bytes scanned at once when measuring nesting
_STRINGS = {  # what is not structure: strings (brackets in them do not nest) and comments, line breaks kept
    "toml": re.compile(rb'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\n]*\'|#[^\n]*'),
    "json": re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'),
}
_OPEN, _CLOSE, _NEWLINE = np.frombuffer(b"[{", np.uint8), np.frombuffer(b"]}", np.uint8), ord("\n")


class LimitError(SomalilandError):
    """An input file beyond a limit: larger than its kind allows, or nested too deep. Names the file, where
    (`(file)`, `line N` or a key path), the limit and what was found."""

    def __init__(self, path: str, where: str, expected: str, found: str, line: int | None = None,
                 keys: tuple[str | int, ...] = ()) -> None:
        self.path, self.where, self.expected, self.found, self.line, self.keys = path, where, expected, found, line, keys
        super().__init__(f"{path}: {where}: expected {expected}, found {found}")


def size_text(size: int) -> str:
    """Return a size in bytes as people read it: `4 MiB`, `3.0 GiB`, `512 bytes`."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", MiB), ("KiB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


def read_limited(path: str | Path, kind: str) -> bytes:
    """Return a file's bytes, refusing one larger than the limit of its kind before reading it.

    A regular file is measured first; a device or a pipe (which has no size) is read up to the limit and
    refused if it goes on.

    Raises:
        LimitError: the file is larger than `LIMITS[kind]`.
        OSError: it cannot be opened or read.
    """
    limit = LIMITS[kind]
    expected = f"a {kind} of at most {size_text(limit)}"
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > limit:
            raise LimitError(str(path), "(file)", expected, size_text(size))
        data = file.read(limit + 1)
    if len(data) > limit:
        raise LimitError(str(path), "(file)", expected, f"more than {size_text(limit)} (a device or a pipe)")
    return data


def check_nesting(text: str | bytes, source: str, syntax: str) -> None:
    """Refuse a TOML or JSON text whose arrays and tables nest deeper than `MAX_DEPTH`, before it is parsed.

    Args:
        syntax: "toml" or "json" (which strings and comments hold no structure).

    Raises:
        LimitError: names the line where the depth passes the limit.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    bare = _STRINGS[syntax].sub(lambda m: b"\n" * m.group().count(b"\n"), data)
    depth, lines = 0, 1
    for start in range(0, len(bare), _BLOCK):
        block = np.frombuffer(bare, np.uint8, count=min(_BLOCK, len(bare) - start), offset=start)
        steps = np.isin(block, _OPEN).astype(np.int64) - np.isin(block, _CLOSE)
        levels = depth + np.cumsum(steps)
        over = np.flatnonzero(levels > MAX_DEPTH)
        if over.size:
            line = lines + int(np.count_nonzero(block[:over[0]] == _NEWLINE))
            raise LimitError(source, f"line {line}", _NESTED, _DEEPER, line)
        depth = int(levels[-1])
        lines += int(np.count_nonzero(block == _NEWLINE))


def check_depth(doc: Any, source: str) -> None:
    """Refuse a parsed document (dicts and lists) nested deeper than `MAX_DEPTH`, without recursing.

    Raises:
        LimitError: names the key path of the first value too deep (its first keys).
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(doc, ())]
    while stack:
        node, path = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if isinstance(value, (dict, list)):
                if len(path) + 1 > MAX_DEPTH:
                    keys = (*path, key)[:6]
                    shown = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
                    raise LimitError(source, f"{shown}...", _NESTED, _DEEPER, keys=keys)
                stack.append((value, (*path, key)))


def load_toml(text: str, source: str) -> dict[str, Any]:
    """Return a TOML text's document, refusing nesting deeper than `MAX_DEPTH` before and after parsing it.

    Raises:
        LimitError: nested too deep (names the line, or the key path of a dotted key).
        tomllib.TOMLDecodeError: not TOML.
    """
    check_nesting(text, source, "toml")
    doc = tomllib.loads(text)
    check_depth(doc, source)
    return doc
