"""A study's results folder: Parquet chunks that are complete or absent, and a journal of finished games.

Layout of DIR:
    study.toml, manifest.json   the study as run and what identifies it (fingerprint, seed scheme), and the code
                                versions that played its games ({version: games}, `code`)
    journal.jsonl               finished games not yet in a chunk: one JSON line each, flushed and fsynced
    chunks/NNNNNN.json          a chunk's commit mark: the (cell, game, seed, ok) it holds and each of its
                                Parquet files' sha256 and size (marks written before the digests lack them)
    players/ contracts/ captures/ raids/ games/ errors/   part-NNNNNN.parquet, one per chunk that has rows
    .staging/                   files being written; renamed into place when closed
    .lock                       locked (lockf) by the one `study run` writing the folder
    damaged/NNNNNN/             chunks a run found damaged and set aside (their games were played again)

A chunk's Parquet files are written under .staging and renamed into their table folders, then its mark
is written the same way, then the journal is emptied. A game is done when a mark or a whole journal line
holds it. Opening the folder (every run does) removes what an interrupted chunk left behind, sets aside
a chunk whose mark or files are damaged (a truncated copy, a full disk, an edit), cuts a torn last journal
line, and turns journal lines into a chunk, skipping games already marked, so SIGKILL at any moment loses
only the games in flight and never duplicates one. Readers (`read_table`, reports) refuse a folder whose
marks do not read or whose Parquet files are missing or do not read, naming the file and the repair (a run
also checks each file's size and sha256), and count the games still in the journal.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from somaliland.inputs import LIMITS, LimitError, check_nesting, read_limited
from somaliland.study.errors import StudyError
from somaliland.study.seeds import __doc__ as SEED_SCHEME
from somaliland.study.spec import Study
from somaliland.study.tables import TABLES
from somaliland.study.worker import GameOutcome

MANIFEST = "manifest.json"
JOURNAL = "journal.jsonl"
DAMAGED = "damaged"
MANIFEST_KEYS = {"name": str, "source": str, "base_dir": str, "fingerprint": str, "master_seed": int,
                 "seed_scheme": str}
_CHUNK_NAME = re.compile(r"\d{6,}")


@dataclass(frozen=True, slots=True)
class Chunk:
    """A committed chunk: its name (NNNNNN), its games (cell, game, seed, ok) and its files' digests."""

    name: str
    games: tuple[tuple[int, int, int, bool], ...]
    files: dict[str, tuple[str, int]] | None  # table -> (sha256, bytes); None: a mark from before digests

    def part(self, out: Path, table: str) -> Path:
        """Return the path of this chunk's Parquet file of a table."""
        return out / table / f"part-{self.name}.parquet"


class ResultStore:
    """An open results folder: which games are done, where finished games go, and what opening repaired."""

    def __init__(self, out: Path, chunk_games: int) -> None:
        self.out, self.chunk_games = out, chunk_games
        self.done: set[tuple[int, int]] = set()
        self.buffer: list[GameOutcome] = []
        self.journal = None
        self.lock = None
        self.repairs: list[str] = []  # what opening found damaged and how it was mended, one sentence each

    # -- opening and recovery ------------------------------------------------------------------------
    @classmethod
    def open(cls, out: str | Path, study: Study, study_text: str, chunk_games: int = 100) -> "ResultStore":
        """Open (or create) the results folder of a study and recover from any interrupted or damaged run.

        Raises:
            StudyError: the folder holds the results of a different study definition, its manifest is
                damaged and cannot be matched to this study, another run is writing it, or it cannot be written.
        """
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise StudyError(str(out), "--out", "a results folder", "a file")
        _refuse_foreign(out, study)
        store = cls(out, chunk_games)
        try:
            out.mkdir(parents=True, exist_ok=True)
            store._lock()
            store._adopt(study)
            kept = out / "study.toml"
            if not kept.exists() and _holds_results(out):
                store.repairs.append(f"{kept}: was missing; restored from {study.source}")
            write_whole(kept, study_text)  # the latest games_per_cell is what reports call planned
            store._recover()
        except OSError as error:
            store._unlock()
            raise write_error(out, error) from None
        except BaseException:
            store._unlock()
            raise
        return store

    def _lock(self) -> None:
        self.lock = open(self.out / ".lock", "a+")
        try:  # a POSIX lock, which the pool's forked workers do not inherit (a flock they would, and outlive us)
            fcntl.lockf(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.lock.close()
            self.lock = None
            raise StudyError(str(self.out), "(folder)", "a results folder no other `study run` is writing",
                             "in use by another run",
                             "wait for it to finish, or stop it (Ctrl-C or kill; its finished games are kept)") from None

    def _unlock(self) -> None:
        if self.lock is not None:
            self.lock.close()  # closing the file releases the lock
            self.lock = None

    def _adopt(self, study: Study) -> None:
        """Check the folder holds this study's results (or none); rebuild a damaged manifest when it can."""
        manifest = self.out / MANIFEST
        try:
            old = read_manifest(self.out)
        except StudyError as error:
            problem = error
        else:
            if old["fingerprint"] != study.fingerprint:
                raise StudyError(str(self.out), "fingerprint", f"results of the same study definition as "
                                 f"{study.source} (only games_per_cell, name and question may change between "
                                 f"runs); use another --out", old["source"])
            return
        if _holds_results(self.out):
            if not _kept_study_matches(self.out, study):
                raise StudyError(problem.source, problem.key, problem.expected, problem.found,
                                 f"the folder holds results, and no study.toml beside it matches {study.source}, so "
                                 f"they cannot be matched to this study: if they are this study's, copy "
                                 f"{study.source} into the folder as study.toml and run again; else use another --out")
            self.repairs.append(f"{manifest}: {problem.key}: expected {problem.expected}, found {problem.found!r}; "
                                f"rebuilt from {study.source}, which matches the study.toml kept in the folder")
        code = _played_code(self.out) if _holds_results(self.out) else {}
        write_whole(manifest, json.dumps({
            "name": study.name, "source": study.source,
            "base_dir": os.path.relpath(Path(study.source).resolve().parent, self.out.resolve()),
            "fingerprint": study.fingerprint, "master_seed": study.master_seed,
            "seed_scheme": " ".join(SEED_SCHEME.split("\n\n", 1)[1].split()),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **({"code": code} if code else {}),
        }, indent=1))

    def _recover(self) -> None:
        shutil.rmtree(self.out / ".staging", ignore_errors=True)
        chunks, broken = read_chunks(self.out)
        for name, mark, why in broken:
            self._set_aside(name, f"{mark}: {why}", "its games")
        kept = set()
        for chunk in chunks:
            damage = chunk_damage(self.out, chunk, TABLES, digests=True)
            if damage is not None:
                self._set_aside(chunk.name, f"{damage[0]}: {damage[1]}", f"its {len(chunk.games)} games")
                continue
            kept.add(chunk.name)
            self.done.update((c, g) for c, g, _, _ in chunk.games)
        for table in TABLES:
            for part in (self.out / table).glob("part-*.parquet"):
                if part.stem.removeprefix("part-") not in kept:  # renamed before its chunk was marked
                    part.unlink()
        outcomes, problems = read_journal(self.out / JOURNAL)
        self.repairs += [f"{self.out / JOURNAL}: {p}" for p in problems]
        for outcome in outcomes:
            if (outcome.cell, outcome.game) not in self.done:
                self.buffer.append(outcome)
                self.done.add((outcome.cell, outcome.game))
        self.flush()
        journal = self.out / JOURNAL
        if journal.exists() and journal.stat().st_size:  # only games already marked, or torn lines, were left
            open(journal, "w").close()

    def _set_aside(self, name: str, why: str, games: str) -> None:
        """Move a damaged chunk's mark and files under damaged/NAME/, so that its games are played again."""
        target = self.out / DAMAGED / name
        n = 1
        while target.exists():
            target, n = self.out / DAMAGED / f"{name}-{n}", n + 1
        for path in [self.out / "chunks" / f"{name}.json", *(self.out / t / f"part-{name}.parquet" for t in TABLES)]:
            if path.exists():
                (target / path.parent.name).mkdir(parents=True, exist_ok=True)
                os.replace(path, target / path.parent.name / path.name)
        self.repairs.append(f"{why}: chunk {name} set aside in {target}; {games} are played again")

    # -- writing -------------------------------------------------------------------------------------
    def add(self, outcome: GameOutcome) -> None:
        """Record a finished game: journaled at once, in a Parquet chunk when enough have gathered.

        Raises:
            StudyError: the folder cannot be written (e.g. the disk is full); the games recorded so far are kept.
        """
        key = (outcome.cell, outcome.game)
        if key in self.done:
            return
        try:
            if self.journal is None:
                self.journal = open(self.out / JOURNAL, "a", encoding="utf-8")
            self.journal.write(json.dumps(asdict(outcome), allow_nan=True) + "\n")
            self.journal.flush()
            os.fsync(self.journal.fileno())
        except OSError as error:
            raise write_error(self.out / JOURNAL, error) from None
        self.done.add(key)
        self.buffer.append(outcome)
        if len(self.buffer) >= self.chunk_games or self.journal.tell() > LIMITS["results journal"] // 4:
            self.flush()  # a chunk, also before the journal nears the size it may be read at

    def flush(self) -> None:
        """Write the buffered games as one chunk (tables, then its mark) and empty the journal.

        Raises:
            StudyError: the folder cannot be written; the games stay in the journal for the next run.
        """
        if not self.buffer:
            return
        try:
            self._write_chunk()
        except OSError as error:
            raise write_error(self.out, error) from None
        self._close_journal()
        open(self.out / JOURNAL, "w").close()
        self.buffer.clear()

    def _write_chunk(self) -> None:
        import pandas as pd

        names = [int(p.stem) for p in (self.out / "chunks").glob("*.json") if _CHUNK_NAME.fullmatch(p.stem)]
        name = f"{max(names) + 1 if names else 1:06d}"
        staging = self.out / ".staging"
        staging.mkdir(exist_ok=True)
        files = {}
        try:
            for table in TABLES:
                rows = [row for o in self.buffer for row in o.tables.get(table, [])]
                if rows:
                    tmp = staging / f"{table}-{name}.parquet"
                    try:
                        pd.DataFrame(rows).to_parquet(tmp, index=False)
                    except OSError as error:  # pyarrow's error does not name the file
                        error.filename = error.filename or str(tmp)
                        raise
                    with open(tmp, "rb") as f:
                        data = f.read()
                        os.fsync(f.fileno())  # on disk before its mark says it is
                    files[table] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
                    (self.out / table).mkdir(exist_ok=True)
                    os.replace(tmp, self.out / table / f"part-{name}.parquet")
            (self.out / "chunks").mkdir(exist_ok=True)
            mark = {"games": [[o.cell, o.game, o.seed, o.ok] for o in self.buffer], "files": files}
            write_whole(self.out / "chunks" / f"{name}.json", json.dumps(mark), staging)
            self._record_code(staging)
        except OSError:  # the games stay in the journal; what this chunk wrote goes, so a full disk gets room back
            shutil.rmtree(staging, ignore_errors=True)
            for table in files:
                (self.out / table / f"part-{name}.parquet").unlink(missing_ok=True)
            raise

    def _record_code(self, staging: Path) -> None:
        """Add the buffered games' code versions to the manifest's `code` ({version: games}): which code played the
        results, kept beside them (each game's row says it too)."""
        played = [row.get("code") for o in self.buffer for row in o.tables.get("games", [])]
        if not any(played):
            return
        manifest = read_manifest(self.out)
        code = dict(manifest.get("code") or {})
        for version in filter(None, played):
            code[version] = code.get(version, 0) + 1
        write_whole(self.out / MANIFEST, json.dumps({**manifest, "code": code}, indent=1), staging)

    def close(self) -> None:
        """Flush what is buffered, close the journal and release the folder."""
        try:
            self.flush()
        finally:
            self._close_journal()
            self._unlock()

    def _close_journal(self) -> None:
        if self.journal is not None:
            try:
                self.journal.close()
            except OSError:  # the rest of a line a full disk refused (already reported): that game is played again
                pass
            self.journal = None


def write_whole(path: Path, text: str, staging: Path | None = None) -> None:
    """Write a file whole or not at all (through a temporary file renamed over it): a killed run leaves no half file.

    Raises:
        OSError: naming `path` (a failed write names no file of its own); the temporary file is removed.
    """
    tmp = (staging or path.parent) / f".{path.name}.tmp"
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        error.filename = str(path)
        raise


def write_error(path: Path, error: OSError) -> StudyError:
    """Return the one-line error for a results folder's file that cannot be written: the file, and the system's
    words for why (pyarrow words a full disk in a sentence of its own: its errno is told)."""
    told = re.search(r"\[errno (\d+)\]", str(error), re.IGNORECASE)
    cause = os.strerror(int(told.group(1))) if told else error.strerror or str(error)
    return StudyError(str(error.filename or path), "(write)", "a writable results folder with free space", cause,
                      "the games recorded so far are kept; make room (or fix the permissions) and run the same "
                      "command again")


def _refuse_foreign(out: Path, study: Study) -> None:
    """Refuse an existing folder that is not a study's results folder, before anything is written in it.

    A results folder has its manifest, or holds recorded games, or keeps this study's study.toml (whose study
    `_adopt` then matches, or repairs); besides those, a run killed before it wrote its manifest leaves only
    the lock and the staging folder.

    Raises:
        StudyError: the folder holds other files (names a few of them).
    """
    if not out.is_dir() or _holds_results(out):
        return
    try:
        read_manifest(out)
        return
    except StudyError:
        if _kept_study_matches(out, study):
            return
    others = other_files(out, (".lock", ".staging"))
    if others:
        raise StudyError(str(out), "--out", "a new or empty folder, or a results folder of `study run` (with its "
                         f"{MANIFEST})", f"a folder holding {others}", FOREIGN_HINT)


FOREIGN_HINT = "nothing was written; use another --out (a folder of its own)"


def other_files(out: Path, ours: tuple[str, ...]) -> str:
    """Return the names of a folder's entries other than `ours` as a message shows them ("" when none)."""
    others = sorted(p.name for p in out.iterdir() if p.name not in ours)
    return ", ".join(others[:4]) + (f" and {len(others) - 4} more" if len(others) > 4 else "")


def _holds_results(out: Path) -> bool:
    """Return whether a folder holds any recorded game (a mark, a Parquet part or a journal line)."""
    journal = out / JOURNAL
    return (any((out / "chunks").glob("*.json")) or any(any((out / t).glob("part-*.parquet")) for t in TABLES)
            or (journal.exists() and journal.stat().st_size > 0))


def _kept_study_matches(out: Path, study: Study) -> bool:
    """Return whether the study.toml kept in a results folder defines the same study as `study`."""
    from somaliland.study.spec import parse_study

    kept = out / "study.toml"
    try:
        old = parse_study(read_limited(kept, "study file").decode("utf-8"), str(kept),
                          Path(study.source).resolve().parent)
    except (OSError, UnicodeDecodeError, LimitError, StudyError):
        return False
    return old.fingerprint == study.fingerprint


# -- reading -----------------------------------------------------------------------------------------
def read_chunks(out: Path) -> tuple[list[Chunk], list[tuple[str, Path, str]]]:
    """Return a folder's chunks whose marks read, and (name, mark, what is wrong) for each that does not."""
    chunks, broken = [], []
    for mark in sorted((out / "chunks").glob("*.json")):
        name = mark.stem
        if not _CHUNK_NAME.fullmatch(name):
            broken.append((name, mark, "not a chunk mark (its name is not a chunk number NNNNNN)"))
            continue
        try:
            text = read_limited(mark, "chunk mark").decode("utf-8")
            check_nesting(text, str(mark), "json")
            chunks.append(_parse_mark(name, text))
        except (OSError, UnicodeDecodeError) as error:
            broken.append((name, mark, f"unreadable ({getattr(error, 'strerror', None) or error})"))
        except LimitError as error:
            broken.append((name, mark, f"{error.where}: expected {error.expected}, found {error.found}"))
        except ValueError as error:
            broken.append((name, mark, f"not a chunk mark ({error})"))
    return chunks, broken


def _parse_mark(name: str, text: str) -> Chunk:
    """Return the chunk a mark's text describes.

    Raises:
        ValueError: the text is not JSON of the mark's shape (says what part is wrong).
    """
    doc = json.loads(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("games"), list) or not doc["games"]:
        raise ValueError("expected an object with a non-empty list 'games'")
    games = []
    for i, row in enumerate(doc["games"]):
        ok = (isinstance(row, list) and len(row) == 4 and all(type(v) is int and v >= 0 for v in row[:3])
              and isinstance(row[3], bool))
        if not ok:
            raise ValueError(f"games[{i}]: expected [cell, game, seed, ok], found {json.dumps(row)[:60]}")
        games.append(tuple(row))
    files = doc.get("files")
    if files is not None:
        good = isinstance(files, dict) and all(
            t in TABLES and isinstance(f, dict) and isinstance(f.get("sha256"), str) and len(f["sha256"]) == 64
            and type(f.get("bytes")) is int for t, f in files.items())
        if not good:
            raise ValueError("files: expected {table: {sha256, bytes}}")
        files = {t: (f["sha256"], f["bytes"]) for t, f in files.items()}
    return Chunk(name, tuple(games), files)


def chunk_damage(out: Path, chunk: Chunk, tables: tuple[str, ...], digests: bool) -> tuple[Path, str] | None:
    """Return (file, what is wrong) for the first damaged Parquet file of a chunk among `tables`, or None.

    Every file must exist and read as Parquet; with `digests`, a file must also have the size and sha256
    its mark records (`study run` checks them, so that it re-plays a chunk damaged or edited in any way).
    """
    for table in tables:
        part = chunk.part(out, table)
        if chunk.files is None:  # an older mark: the tables every game fills must exist
            needed = table in ("games", "players") and any(ok for *_, ok in chunk.games) or \
                table == "errors" and not all(ok for *_, ok in chunk.games)
            if not part.exists():
                if needed:
                    return part, f"missing (chunk {chunk.name} holds {len(chunk.games)} games)"
                continue
        elif table not in chunk.files:
            continue
        elif not part.exists():
            return part, f"missing (chunk {chunk.name}'s mark lists it)"
        elif digests:
            sha, size = chunk.files[table]
            found = part.stat().st_size
            if found != size:
                return part, f"{found} bytes where its mark records {size} (cut short?)"
            with open(part, "rb") as file:  # read in blocks: the size matched, but it is no reason to hold it all
                digest = hashlib.file_digest(file, "sha256").hexdigest()
            if digest != sha:
                return part, "its content differs from the sha256 its mark records (damaged or edited)"
        problem = _parquet_problem(part)
        if problem:
            return part, problem
    return None


def _parquet_problem(part: Path) -> str | None:
    """Return what makes a Parquet file unreadable, or None when its footer and schema read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    size = part.stat().st_size
    if size == 0:
        return "empty (0 bytes)"
    try:
        pq.read_metadata(part)
    except (pa.ArrowException, OSError, ValueError) as error:
        return f"{size} bytes that do not read as Parquet ({str(error).splitlines()[0][:100]})"
    return None


def read_journal(path: Path) -> tuple[list[GameOutcome], list[str]]:
    """Return the finished games of a journal and, for each line that is not one, what was wrong with it."""
    if not path.exists():
        return [], []
    try:
        data = read_limited(path, "results journal")
    except LimitError as error:
        raise StudyError(str(path), error.where, error.expected, error.found,
                         "the journal was not written by `study run` (it starts a chunk well before); move it "
                         "away: its games are played again") from None
    lines = data.split(b"\n")
    outcomes, problems = [], []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            check_nesting(line, str(path), "json")
            outcomes.append(_outcome(json.loads(line)))
        except LimitError as error:
            problems.append(f"line {i}: not a finished game ({error.expected}, found {error.found}); dropped, that "
                            f"game is played again")
        except (ValueError, TypeError) as error:
            if i == len(lines):  # no newline after it: the run was killed while writing it
                problems.append(f"cut a torn last line ({len(line)} bytes, the game being written when the run "
                                f"stopped; it is played again)")
            else:
                problems.append(f"line {i}: not a finished game ({str(error)[:80]}); dropped, that game is played "
                                f"again")
    return outcomes, problems


def _outcome(row: Any) -> GameOutcome:
    """Return the game a journal line holds.

    Raises:
        ValueError: the line is not one game's outcome.
    """
    if not isinstance(row, dict):
        raise ValueError("not an object")
    outcome = GameOutcome(**row)
    tables = outcome.tables
    if not (type(outcome.cell) is int and type(outcome.game) is int and isinstance(outcome.ok, bool)
            and isinstance(tables, dict) and all(isinstance(rows, list) and all(isinstance(r, dict) for r in rows)
                                                 for rows in tables.values())):
        raise ValueError("cell, game, ok or tables of the wrong type")
    return outcome


def _played_code(out: Path) -> dict[str, int]:
    """Return the code versions the kept games' rows record, with their games: a rebuilt manifest's `code`."""
    counts: dict[str, int] = {}
    for part in sorted((out / "games").glob("part-*.parquet")):
        import pyarrow.parquet as pq

        try:
            column = pq.read_table(part, columns=["code"]).column("code").to_pylist()
        except (OSError, KeyError, ValueError):  # no code column (older games), or a damaged part set aside later
            continue
        for version in filter(None, column):
            counts[version] = counts.get(version, 0) + 1
    return counts


def read_table(out: str | Path, table: str):
    """Return one results table of a study folder as a DataFrame (empty if no game added rows to it).

    Games of an interrupted run that are still in the journal are included (the next `study run` puts
    them in a chunk).

    Raises:
        StudyError: the folder is not a study's results folder, the table name is unknown, or a chunk mark
            or Parquet file is damaged (names it, and the `study run` command that repairs it).
    """
    import pandas as pd
    import pyarrow as pa

    out = Path(out)
    manifest = read_manifest(out)
    if table not in TABLES:
        raise StudyError(str(out), "table", f"one of {', '.join(TABLES)}", table)
    chunks, broken = read_chunks(out)
    repair = _repair_hint(out, manifest)
    if broken:
        name, mark, why = broken[0]
        raise StudyError(str(mark), "(file)", "a chunk mark (JSON listing its games)", why, repair)
    frames, marked = [], set()
    for chunk in chunks:
        damage = chunk_damage(out, chunk, (table,), digests=False)
        if damage is not None:
            raise StudyError(str(damage[0]), "(file)", f"a whole Parquet file of chunk {chunk.name} "
                             f"({len(chunk.games)} games)", damage[1], repair)
        marked.update((c, g) for c, g, _, _ in chunk.games)
        part = chunk.part(out, table)
        if part.exists() and (chunk.files is None or table in chunk.files):
            try:
                frames.append(pd.read_parquet(part))
            except (pa.ArrowException, OSError, ValueError) as error:
                raise StudyError(str(part), "(file)", f"a readable Parquet file of chunk {chunk.name}",
                                 str(error).splitlines()[0][:100], repair) from None
    rows = [row for o in read_journal(out / JOURNAL)[0] if (o.cell, o.game) not in marked
            for row in o.tables.get(table, [])]
    if rows:
        frames.append(pd.DataFrame(rows))
    frames = [f for f in frames if not f.empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def journal_games(out: str | Path) -> int:
    """Return how many finished games of a results folder wait in its journal (not yet in a chunk)."""
    out = Path(out)
    marked = {(c, g) for chunk in read_chunks(out)[0] for c, g, _, _ in chunk.games}
    return len({(o.cell, o.game) for o in read_journal(out / JOURNAL)[0]} - marked)


def study_file(out: Path, manifest: dict[str, Any]) -> tuple[str, bool]:
    """Return the study file that made a results folder, as a path that works from the current folder, and
    whether it is there.

    The manifest keeps the study's path as `study run` was given it (relative to the folder that command ran
    in) and its folder relative to the results folder (`base_dir`); the file is looked for through the latter,
    then (a folder moved or copied away from it) by that path from the current folder, if it holds the study
    as kept in the folder. The path is relative to the current folder when the file lies under it, else absolute.
    """
    source = Path(manifest["source"])
    if source.is_absolute():
        return str(source), source.is_file()
    path = (out / manifest["base_dir"] / source.name).resolve()
    if not path.is_file() and source.is_file():
        try:
            if read_limited(source, "study file") == read_limited(out / "study.toml", "study file"):
                path = source.resolve()
        except (OSError, LimitError):
            pass
    shown = os.path.relpath(path)
    return (str(path) if Path(shown).parts[0] == ".." else shown), path.is_file()


def _study_run(out: Path, manifest: dict[str, Any]) -> tuple[str, str]:
    """Return the `study run` command that repairs or completes a results folder, and a note on its STUDY_FILE
    when the study file is not where the manifest puts it (the folder was moved or copied away from it)."""
    path, there = study_file(out, manifest)
    if there:
        return f"somaliland study run {path} --out {out}", ""
    return (f"somaliland study run STUDY_FILE --out {out}",
            f", STUDY_FILE being the study file that made these results ({manifest['source']} from the folder that "
            f"run started in; it is not at {path}: the results folder was moved or copied away from it)")


def _restore_hint(out: Path, manifest: dict[str, Any]) -> str:
    command, note = _study_run(out, manifest)
    return f"run `{command}`{note} to restore it (it plays no game if the study is complete)"


def _repair_hint(out: Path, manifest: dict[str, Any]) -> str:
    command, note = _study_run(out, manifest)
    return (f"run `{command}` again{note}: it sets the damaged chunk aside (in {out / DAMAGED}) and plays its games "
            f"again")


def study_of(out: str | Path, maps: bool = True, study_dir: str | Path | None = None) -> tuple[Study, dict[str, Any]]:
    """Return the study that made a results folder (from the copy kept there) and the folder's manifest.

    Args:
        maps: the caller plays games, so each cell's map file must be found (and load); False for readers
            that never open a map (a report), which then also read a folder copied away from its study's maps.
            The study's fingerprint is then the manifest's.
        study_dir: the folder of the study file that made the results, where a relative map path of the study
            is read from (default: where the manifest's `base_dir` puts it, relative to the results folder).

    Raises:
        StudyError: the folder is not a study's results folder, its manifest or study copy is missing or
            damaged, its study file no longer checks, or (`maps`) a map file is not found: for a folder moved
            or copied away from its study, the message names the file looked for and `--study-dir`.
    """
    from dataclasses import replace

    from somaliland.study.spec import parse_study

    out = Path(out)
    manifest = read_manifest(out)
    kept = out / "study.toml"
    try:
        text = read_limited(kept, "study file").decode("utf-8")
    except LimitError as error:
        raise StudyError(str(kept), error.where, error.expected, error.found, _restore_hint(out, manifest)) from None
    except (OSError, UnicodeDecodeError) as error:
        found = "no such file" if isinstance(error, FileNotFoundError) else str(getattr(error, "strerror", error))
        raise StudyError(str(kept), "(file)", "the study file as run (`study run` keeps a copy here)", found,
                         _restore_hint(out, manifest)) from None
    base = Path(study_dir).resolve() if study_dir is not None else (out / manifest["base_dir"]).resolve()
    study = parse_study(text, str(kept), base, maps=False)
    if not maps:
        return replace(study, fingerprint=manifest["fingerprint"]), manifest
    missing = _missing_maps(study)
    if not missing:
        found = parse_study(text, str(kept), base)
        if found.fingerprint != manifest["fingerprint"]:  # the study's text is the run's: its maps are not
            where = f"--study-dir {study_dir}" if study_dir is not None else f"{base}, the folder of the study file"
            raise StudyError(str(kept), "map", "the map files these results were played on (their bytes are in the "
                             "manifest's fingerprint)", f"maps read from {where}, that differ from them",
                             "put back the maps the run played on (git history keeps them), or name the folder of "
                             "a study file beside them with --study-dir")
        return found, manifest
    changed = ""
    if study_dir is None:  # moved or copied: the study's folder by its path from here, if its maps are the run's
        other = Path(manifest["source"]).resolve().parent
        if other != base and not _missing_maps(parse_study(text, str(kept), other, maps=False)):
            found = parse_study(text, str(kept), other)
            if found.fingerprint == manifest["fingerprint"]:
                return found, manifest
            changed = (f"{manifest['source']} from here has its maps, but they are not the ones these results were "
                       f"played on (the study's fingerprint differs); ")
    if study_dir is not None:
        how = (f"--study-dir {study_dir} should name the folder of the study file that made these results "
               f"({manifest['source']} from the folder that run started in)")
    elif (base / Path(manifest["source"]).name).is_file():
        how = "the map was moved or deleted since the run: put it back"
    else:
        how = (f"{changed}the results folder was moved or copied away from its study's maps: run this on the folder "
               f"where `study run` wrote it, or add --study-dir DIR naming the folder of the study file that made "
               f"it ({manifest['source']} from the folder that run started in)")
    where = (f"--study-dir, {base}" if study_dir is not None else f"the study file's folder, {base}, which the "
             f"manifest puts at {manifest['base_dir']!r} from the results folder")
    raise StudyError(str(kept), "map", f"the map file{'s' * (len(missing) > 1)} these results were played on "
                     f"(a relative path is read from {where})", f"no file at {' and '.join(missing)}", how)


def _missing_maps(study: Study) -> list[str]:
    """Return the map files of a study's cells that do not exist, each once."""
    return list(dict.fromkeys(str(c.map_path) for c in study.cells if not c.map_path.is_file()))


def read_manifest(out: str | Path) -> dict[str, Any]:
    """Return a results folder's manifest.

    Raises:
        StudyError: there is none, or it is damaged (names the file, the line or key, and the repair).
    """
    out = Path(out)
    path = out / MANIFEST
    repair = ("run `somaliland study run STUDY_FILE --out " + str(out) + "` with the study file that made these "
              "results: it rebuilds the manifest when the folder's study.toml matches that file")
    if not path.exists():
        if out.is_dir() and _holds_results(out):
            raise StudyError(str(path), "(file)", "the manifest of these results", "no such file", repair)
        raise StudyError(str(out), MANIFEST, "a study results folder (made by `somaliland study run`)", "no manifest")
    try:
        text = read_limited(path, "results manifest").decode("utf-8")
        check_nesting(text, str(path), "json")
        manifest = json.loads(text)
    except LimitError as error:
        raise StudyError(str(path), error.where, error.expected, error.found, repair) from None
    except json.JSONDecodeError as error:
        raise StudyError(str(path), f"line {error.lineno}, column {error.colno}", "JSON (a results manifest)",
                         error.msg, repair) from None
    except (OSError, UnicodeDecodeError) as error:
        raise StudyError(str(path), "(file)", "a readable results manifest",
                         str(getattr(error, "strerror", None) or error), repair) from None
    if not isinstance(manifest, dict):
        raise StudyError(str(path), "(top level)", "a JSON object", type(manifest).__name__, repair)
    for key, kind in MANIFEST_KEYS.items():
        value = manifest.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StudyError(str(path), key, f"a {kind.__name__}", value, repair)
    return manifest
