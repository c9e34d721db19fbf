"""Surveys kept on disk between processes: one JSON file per survey, checked on read, written whole or not at all.

A survey costs seconds (the aim's) to a minute (the search's) of physics, and every process that plays would
otherwise sail it again. So each is kept in `$SOMALILAND_CACHE/surveys` (default ~/.cache/somaliland/surveys),
named by a digest of its key (`path_for`): the map's geometry, the rules at sea, the aim, the hand model, the
physics settings, the voyages, a thrower's own parameters, the code that sails it (`code_digest`) and the kind
of machine it runs on (`machine`).

The cache is untrusted: anyone who can write the folder can put anything there. So a file is data only (JSON,
never pickle: nothing in it can run), bounded in size before it is read, and read back only if it is whole
and ours: its format, its key, code digest and machine as asked, a SHA-256 of its content that matches, and a content
that passes its schema (`legs.from_document`). Anything else (cut short, edited, another survey's file under
this name, an old pickle, garbage) costs sailing the survey again, with one warning line on standard error,
and the file is replaced. A file is written under a temporary name and renamed over the old one
(`os.replace`, atomic on one file system), so a reader never sees half a file, and writers that race each
leave a whole one. Processes asking for the same survey at once (a study's workers) take turns on a lock
beside its file (`sailing_alone`): the first sails it, the others read it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from somaliland.cache import cache_root
from somaliland.machine import fingerprint

FORMAT = "somaliland survey"
VERSION = 2  # of the file format; 1 was a pickle, never read
_ROOT = Path(__file__).resolve().parents[2]  # holds physics/ and somaliland/
# the code a survey's voyages run through: the physics, the map, the rules and the players, and the package's
# own top-level modules (errors, seeding, units); not the engine, studies, replays or the command line
_CODE_FOLDERS = ("physics", "somaliland/map", "somaliland/players", "somaliland/rules")
_CODE_SUFFIXES = (".py", ".toml", ".json")
T = TypeVar("T")


def survey_folder() -> Path:
    """Return the folder surveys are kept in between processes (`$SOMALILAND_CACHE`/surveys)."""
    return cache_root() / "surveys"


def digest_sources(root: Path) -> str:
    """Return the SHA-256 of the bytes of every source file under `root` in `_CODE_FOLDERS` and somaliland/*.py,
    by path (`code_digest`)."""
    paths = [p for folder in _CODE_FOLDERS for p in (root / folder).rglob("*")
             if p.suffix in _CODE_SUFFIXES and "__pycache__" not in p.parts]
    paths += (root / "somaliland").glob("*.py")
    digest = hashlib.sha256()
    for path in sorted(set(paths)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


_CODE = digest_sources(_ROOT)  # read as the players are imported: the code this process runs, not later edits


def code_digest() -> str:
    """Return the digest of the code that sails a survey: a kept survey is read back only by the code that sailed it.

    The bytes of the source files (a few milliseconds, once per process), so any edit there, a comment
    included, sails the surveys again. Read when this module is imported, so a file edited while a study runs
    does not key the surveys its workers sail with code they have not loaded.
    """
    return _CODE


@cache
def machine() -> str:
    """Return the kind of machine a survey is sailed on, as text: its fingerprint but the CPU's model name (the SIMD
    level, the C library's maths, the Python and numeric packages' versions: `somaliland.machine`).

    A survey is read back only on the kind of machine that sailed it: a game's last bits may differ between
    kinds (README, Determinism), and a survey sailed on another would make this machine's games differ from what
    a fresh process here plays and verifies.
    """
    return json.dumps({k: v for k, v in fingerprint().items() if k != "cpu"}, sort_keys=True)


def path_for(key: str) -> Path:
    """Return where the survey of this key (its text) is kept: a digest of the format, the code, the kind of
    machine and the key."""
    name = hashlib.sha256(f"{VERSION}|{_CODE}|{machine()}|{key}".encode()).hexdigest()[:32]
    return survey_folder() / f"{name}.json"


def content_digest(document: dict[str, Any]) -> str:
    """Return the SHA-256 of a document's canonical JSON (sorted keys, no spaces), its own digest left out."""
    body = {k: v for k, v in document.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()).hexdigest()


def read(path: Path, key: str, limit: int, decode: Callable[[Any], T]) -> T | None:
    """Return what `decode` makes of the content kept at `path` for `key` (what `write` was given), or None: no
    file, or one that is not whole and ours (then one warning line says why and the caller sails it again).

    Args:
        path: the file (`path_for(key)`).
        key: the survey's key as text; the file must have been written for it, by this code.
        limit: the most bytes a file of this survey can hold; a larger one is not read.
        decode: returns the survey a file's content holds, checked; raises ValueError saying what is wrong.
    """
    try:
        data = _read_regular(path, limit + 1)
    except (FileNotFoundError, NotADirectoryError):  # none kept (or no folder to keep it in: `write` says so)
        return None
    except OSError as error:
        _warn(path, f"cannot be read ({error.strerror or error})")
        return None
    try:
        if data is None:
            raise ValueError("not a regular file")
        return decode(_checked(data, key, limit))
    except ValueError as error:
        _warn(path, str(error))
        return None


def _read_regular(path: Path, most: int) -> bytes | None:
    """Return at most `most` bytes of the file at `path`, or None if it is not a regular file. A symbolic link is
    not followed (an OSError) and a named pipe not waited on: the folder may hold anything."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as fh:
        return fh.read(most) if stat.S_ISREG(os.fstat(fd).st_mode) else None


def _checked(data: bytes, key: str, limit: int) -> Any:
    """Return a file's content if its bytes are a whole document of this format, key and code; else raise."""
    if len(data) > limit:
        raise ValueError(f"larger than a survey of its key can be ({limit:,} bytes)")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError, ValueError):  # JSONDecodeError is a ValueError
        raise ValueError("not a JSON document (cut short, damaged, or another kind of file)") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise ValueError(f"not a survey file of version {VERSION}")
    if document.get("key") != key or document.get("code") != _CODE or document.get("machine") != machine():
        raise ValueError("made for another survey, by other code or on another kind of machine")
    try:
        whole = document.get("sha256") == content_digest(document)
    except (ValueError, RecursionError):  # a number JSON cannot write back (NaN, infinity), or nesting too deep
        whole = False
    if not whole:
        raise ValueError("its content does not match its SHA-256 (damaged or edited)")
    return document.get("content")


def write(path: Path, key: str, content: dict[str, Any]) -> None:
    """Keep `content` at `path` for `key`: written to a temporary file in the folder, then renamed over `path`.

    A failure (a full disk, a folder that cannot be written) only costs later processes the survey: one warning
    line says so.
    """
    document = {"format": FORMAT, "version": VERSION, "key": key, "code": _CODE, "machine": machine(),
                "content": content}
    document["sha256"] = content_digest(document)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp")  # its own, in the folder
        # read and write for all the umask allows, as any file: a cache shared by a cluster's users stays shared
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "w", encoding="utf-8") as fh:
            json.dump(document, fh, sort_keys=True, separators=(",", ":"), allow_nan=False)
        os.replace(tmp, path)
    except OSError as error:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        _warn_once(path.parent, f"cannot keep surveys there ({error.strerror or error}); later processes will "
                                "sail them again")


@contextlib.contextmanager
def sailing_alone(path: Path) -> Iterator[None]:
    """Hold, while a kept survey is looked for and sailed, an exclusive lock beside its file (`fcntl.flock`): a
    study's workers, all asking for the same survey at once, sail it once and read it back. No lock where the
    folder cannot be written (each process then sails its own)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # not through a symbolic link planted in its place
        lock = os.fdopen(os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666), "r+b")
    except OSError:
        yield
        return
    with lock:
        with contextlib.suppress(OSError):
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _warn(path: Path, problem: str) -> None:
    """Say on one line of standard error that a kept survey is not used, and why."""
    print(f"somaliland: warning: survey file {path}: {problem}; sailing the survey again and keeping it anew",
          file=sys.stderr)


@cache
def _warn_once(folder: Path, problem: str) -> None:
    """Say once a process that a folder cannot keep surveys."""
    print(f"somaliland: warning: survey folder {folder}: {problem}", file=sys.stderr)
