"""What the fuzzers share (fuzz_specs.py, fuzz_maps.py): the line edits a hurried or hostile editor makes to a
file (among them values nested hundreds deep, and files made larger than their kind may be), and the run that
counts the answers to many mutated files."""

from __future__ import annotations

import random
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

SUFFIXES = ["x", "_", "s", ".0", "Z"]  # appended to a key: a misspelt key
DEPTH = 500  # levels a hostile edit nests a value or a key (the loaders take 32; TOML's parser recursed on each)


def edit_lines(lines: list[str], rng: random.Random, values: list[str], inserts: list[str],
               numbers: list[str]) -> list[str]:
    """Return the lines with one random edit: a line deleted, duplicated, swapped, cut short or added, a value
    replaced by one of `values`, a key misspelt, a number replaced by one of `numbers`, or the text cut short."""
    i = rng.randrange(len(lines))
    kind = rng.randrange(9)
    if kind == 0 and len(lines) > 1:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3 and "=" in lines[i]:
        lines[i] = lines[i].split("=", 1)[0] + "= " + rng.choice(values)
    elif kind == 4 and "=" in lines[i]:
        key, value = lines[i].split("=", 1)
        lines[i] = key.rstrip() + rng.choice(SUFFIXES) + " =" + value
    elif kind == 5:
        lines.insert(i, rng.choice(inserts))
    elif kind == 6:
        lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    elif kind == 7:
        found = re.findall(r"-?\d+\.?\d*", lines[i])
        if found:
            lines[i] = lines[i].replace(rng.choice(found), rng.choice(numbers), 1)
    else:
        lines = "\n".join(lines)[:rng.randrange(len("\n".join(lines)) + 1)].split("\n")
    return lines


def nest_deep(lines: list[str], rng: random.Random) -> list[str]:
    """Return the lines with one added `DEPTH` deep: nested arrays, nested inline tables, or a dotted key."""
    kind = rng.randrange(3)
    if kind == 0:
        line = "deep = " + "[" * DEPTH + "]" * DEPTH
    elif kind == 1:
        line = "deep = " + "{ a = " * DEPTH + "1" + " }" * DEPTH
    else:
        line = ".".join(["a"] * DEPTH) + " = 1"
    lines.insert(rng.randrange(len(lines) + 1), line)
    return lines


def huge(data: bytes, limit: int) -> bytes:
    """Return the file made larger than `limit` bytes by a comment at its end (a valid file, only too large)."""
    return data + b"\n# " + b"x" * limit + b"\n"


def run_fuzz(mutants: int, seed: int, texts: dict[str, str], mutate: Callable[[str, random.Random], bytes],
             answer: Callable[[Path], tuple[str, str]]) -> tuple[Counter, list[tuple[str, str]]]:
    """Return the count of each kind of answer to `mutants` mutated files (each a mutation of one of `texts`, by
    file name), and the bad answers ("unlocated", "traceback") with the file's text."""
    rng = random.Random(seed)
    names = sorted(texts)
    counts: Counter = Counter()
    bad = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(mutants):
            name = rng.choice(names)
            data = mutate(texts[name], rng)
            path = Path(folder) / f"{n}-{name}"
            path.write_bytes(data)
            kind, message = answer(path)
            counts[kind] += 1
            if kind in ("unlocated", "traceback"):
                bad.append((data[:3000].decode("utf-8", "replace"), message))
            path.unlink()
    return counts, bad
