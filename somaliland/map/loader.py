"""The one map loader: read a TOML map file, check it (schema, then geometry), return a frozen Map."""

from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from pathlib import Path

from somaliland.errors import undecodable
from somaliland.inputs import LimitError, load_toml, read_limited
from somaliland.map.document import build
from somaliland.map.errors import KeyPath, MapError, Problem
from somaliland.map.geometry import check_document
from somaliland.map.locate import find_line, line_index
from somaliland.map.model import Map
from somaliland.map.schema import MAPS_DIR, schema, schema_problems

DEFAULT_MAP = MAPS_DIR / "horn-of-africa.toml"


def resolve(path: str | Path) -> Path:
    """Return the map file a user means: the path as given where it names a file, else the shipped map it names
    from any folder, by name (`tiny`, `horn-of-africa.toml`) or by its path in the checkout (`maps/tiny.toml`).
    Anything else comes back as given, for the loader to say it cannot be read."""
    given = Path(path)
    if given.is_file() or given.parent not in (Path("."), Path(MAPS_DIR.name)):
        return given
    shipped = {p.stem: p for p in shipped_maps()}
    return shipped.get(given.name.removesuffix(".toml"), given)


def load(path: str | Path) -> Map:
    """Load and check a map file.

    Args:
        path: the TOML map file, or a shipped map's name (`resolve`).

    Raises:
        MapError: the file cannot be read, is not TOML, or breaks the schema or the geometry rules;
            it lists every problem found, each with the file, key path (and line), expected and found.
    """
    path = resolve(path)
    return loads(_read(path), str(path))


def loads(data: bytes | str, source: str = "<map>") -> Map:
    """Check the text of a map file and return its Map (see `load`)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    doc, problems = _parse(raw, source)
    if problems:
        raise MapError(problems)
    return build(doc, source, hashlib.sha256(raw).hexdigest())


def problems(path: str | Path) -> list[Problem]:
    """Return every problem of a map file (empty if it is good); never raises for a bad file."""
    path = resolve(path)
    try:
        raw = _read(path)
    except MapError as exc:
        return list(exc.problems)
    return _parse(raw, str(path))[1]


@cache
def default_map() -> Map:
    """Return the default board, maps/horn-of-africa.toml (loaded once)."""
    return load(DEFAULT_MAP)


def shipped_maps() -> list[Path]:
    """Return every map file shipped in maps/."""
    return sorted(MAPS_DIR.glob("*.toml"))


def _read(path: str | Path) -> bytes:
    try:
        return read_limited(path, "map")
    except FileNotFoundError as exc:
        names = ", ".join(p.stem for p in shipped_maps())
        raise MapError([Problem(str(path), (), f"a map file, or a shipped map's name ({names})",
                                exc.strerror or str(exc))]) from None
    except OSError as exc:
        raise MapError([Problem(str(path), (), "a readable map file", exc.strerror or str(exc))]) from None
    except LimitError as exc:
        raise MapError([Problem(str(path), (), exc.expected, exc.found)]) from None


def _parse(raw: bytes, source: str) -> tuple[dict, list[Problem]]:
    """Return the document and its problems (schema first; geometry only once the schema holds)."""
    try:
        text = raw.decode("utf-8-sig")  # editors on Windows may start the file with a byte-order mark
    except UnicodeDecodeError as exc:
        line, byte = undecodable(raw, exc)
        return {}, [Problem(source, (), "UTF-8 text", f"{byte} at offset {exc.start}", line)]
    try:
        doc = load_toml(text, source)
    except LimitError as exc:
        return {}, [Problem(source, exc.keys, exc.expected, exc.found, exc.line)]
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = None
        if "(at line " in message:
            message, _, where = message.partition(" (at line ")
            line = int(where.split(",")[0].rstrip(")"))
        elif "(at end of document)" in message:
            message = message.replace(" (at end of document)", " at the end of the file")
            line = text.count("\n") + 1
        return {}, [Problem(source, (), "valid TOML", message.lower(), line)]
    if not doc:  # one problem, not one per missing key
        what = "an empty file" if not text.strip() else "a file of comments and blank lines only"
        return {}, [Problem(source, (), f"a map file with the keys {', '.join(schema()['required'])} "
                                        f"(maps/README.md)", what)]
    index = line_index(text)
    return doc, [Problem(source, path, expected, got, find_line(index, path)) for path, expected, got in check(doc)]


def check(doc: dict) -> list[tuple[KeyPath, str, str]]:
    """Return (key path, expected, found) of every problem of a map document (schema first, then geometry)."""
    return schema_problems(doc) or check_document(doc)
