"""Find the line of a TOML file on which a key path is written, so problems can name a line.

A small scanner, not a TOML parser: the file has already parsed, so it only needs to follow table
headers, keys, and the elements of (possibly multi-line) arrays and inline tables.
"""

from __future__ import annotations

import re

from somaliland.map.errors import KeyPath

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.\-" ]+?)\s*=""")


def _split_key(key: str) -> list[str]:
    return [p.strip().strip("\"'") for p in re.findall(r"""("[^"]*"|'[^']*'|[^.]+)""", key)]


def line_index(text: str) -> dict[KeyPath, int]:
    """Return the 1-based line of every key path written in the file (array elements included)."""
    lines: dict[KeyPath, int] = {}
    array_counts: dict[KeyPath, int] = {}
    table: KeyPath = ()
    src = text.splitlines()
    i = 0
    while i < len(src):
        line = src[i]
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            keys = tuple(_split_key(header.group(2)))
            if header.group(1) == "[[":
                n = array_counts.get(keys, 0)
                array_counts[keys] = n + 1
                table = keys + (n,)
            else:
                table = keys
            for n in range(1, len(table) + 1):  # [routes.x.north] also writes routes.x, where no header names it
                lines.setdefault(table[:n], i + 1)
            i += 1
            continue
        key = _KEY.match(line)
        if key and not line.lstrip().startswith("#"):
            path = table + tuple(_split_key(key.group(1)))
            lines.setdefault(path, i + 1)
            i = _scan_value(src, i, key.end(), path, lines)
            continue
        i += 1
    return lines


def _scan_value(src: list[str], row: int, col: int, path: KeyPath, lines: dict[KeyPath, int]) -> int:
    """Record the lines of the elements of the value starting at src[row][col]; return the next row."""
    stack: list[list] = []  # per open bracket: [path, next index or None for inline tables]
    started = False
    while row < len(src):
        text = src[row]
        while col < len(text):
            ch = text[col]
            if ch == "#":
                break
            if ch in "\"'":
                end = text.find(ch, col + 1)
                while ch == '"' and end > 0 and text[end - 1] == "\\":
                    end = text.find(ch, end + 1)
                _element(stack, lines, row)
                col = len(text) if end < 0 else end + 1
                started = True
                continue
            if ch == "[":
                _element(stack, lines, row)
                here = stack[-1][2] if stack else path
                stack.append([here, 0, here])
                started = True
            elif ch == "{":
                _element(stack, lines, row)
                here = stack[-1][2] if stack else path
                stack.append([here, None, here])
                started = True
            elif ch in "]}":
                if stack:
                    stack.pop()
                if not stack:
                    return row + 1
            elif ch == "," and stack and stack[-1][1] is not None:
                stack[-1][1] += 1
            elif stack and stack[-1][1] is None:
                key = _KEY.match(text[col:])
                if key:
                    sub = stack[-1][0] + tuple(_split_key(key.group(1)))
                    lines.setdefault(sub, row + 1)
                    stack[-1][2] = sub
                    col += key.end()
                    continue
            elif not ch.isspace():
                _element(stack, lines, row)
                started = True
            col += 1
        if started and not stack:
            return row + 1
        row, col = row + 1, 0
    return row


def _element(stack: list[list], lines: dict[KeyPath, int], row: int) -> None:
    """Note that an array element begins on this row (the first character of it only)."""
    if stack and stack[-1][1] is not None:
        top = stack[-1]
        sub = top[0] + (top[1],)
        if sub not in lines:
            lines[sub] = row + 1
        top[2] = sub


def find_line(index: dict[KeyPath, int], path: KeyPath) -> int | None:
    """Return the line of the longest prefix of `path` that the file writes, or None."""
    for n in range(len(path), 0, -1):
        if path[:n] in index:
            return index[path[:n]]
    return None
