"""Find the map file a game record was played on, by the content digest its header keeps (`map.sha256`).

A record names its map by path and sha256. The path may not hold that map any more (the record was copied
to another machine, the map moved or edited), so the map is looked for by content: the recorded path
first, then a file of the same name beside the record, then every map beside the record and in the
shipped maps folder.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from somaliland.engine.record import RecordError
from somaliland.inputs import LimitError, read_limited


def find_map(head: dict[str, Any], record: str | Path, maps_dir: Path | None = None) -> tuple[Path, str | None]:
    """Return the map file whose sha256 the header names, and a note when it is not the recorded path.

    Args:
        head: the record's header (its `map` object: file, name, sha256).
        record: the record file (its folder is searched).
        maps_dir: the shipped maps folder (default: maps/ of this checkout).

    Raises:
        RecordError: no file found has that sha256; names the file needed (name, sha256) and where it looked.
    """
    from somaliland.map.schema import MAPS_DIR

    try:
        recorded, sha = Path(head["map"]["file"]), head["map"]["sha256"]
    except (KeyError, TypeError):
        raise RecordError(str(record), 1, "the header has no map.file and map.sha256") from None
    folder = Path(record).resolve().parent
    candidates = [recorded, folder / recorded.name, *sorted(folder.glob("*.toml")),
                  *sorted((maps_dir or MAPS_DIR).glob("*.toml"))]
    seen = set()
    for path in candidates:
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        try:
            if hashlib.sha256(read_limited(path, "map")).hexdigest() == sha:
                note = None if path == recorded else (
                    f"the map at its recorded path {recorded} has changed since the game was recorded; using {path}, "
                    f"which has the recorded sha256" if recorded.is_file() else
                    f"the map is not at its recorded path {recorded}; using {path}, which has the recorded sha256")
                return path, note
        except (OSError, LimitError):  # unreadable, or too large to be a map: not the one
            continue
    state = "has changed since the game was recorded" if recorded.is_file() else "is missing"
    name = head["map"].get("name", "?")
    raise RecordError(str(record), 1, f"map.file: needs the map the game was played on, {recorded.name} "
                      f"(\"{name}\", sha256 {sha}); {recorded} {state}, and no file of that sha256 is in "
                      f"{folder} or {maps_dir or MAPS_DIR}: put that map file beside the record")
