"""A whole tuning: open its folder, search, validate the chosen candidate on fresh seeds, write the report.

Layout of OUT:
    tune.toml, tuning.json      the tuning file as run, and what identifies it (fingerprint)
    optuna.db                   the Optuna study (SQLite): every trial's parameters, estimates, state
    trials/NNNN/                a candidate: map.toml, rules.toml, and its games (a study results folder)
    validation/SEED/base/, validation/SEED/trial-NNNN/   fresh-seed games of the base and the chosen candidate
    chosen/map.toml, chosen/rules.toml   the chosen files, with a header saying how they were tuned
    report.md, front.png        the report and its figure
    progress.json               wall seconds spent, over every run
    .lock                       held (flock) by the one run working in the folder
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import errno
import fcntl
import json
import os
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from somaliland.inputs import LimitError, check_nesting, load_toml, read_limited
from somaliland.study.errors import StudyError
from somaliland.tune.candidate import MAP_FILE, RULES_FILE, base_documents
from somaliland.study.store import FOREIGN_HINT, other_files, read_table, write_error, write_whole
from somaliland.tune.evaluate import GameEvaluator, errors
from somaliland.tune.measures import Estimate
from somaliland.tune.search import DATABASE, Progress, SearchResult, elapsed_store, run_search, trial_folder
from somaliland.tune.spec import Tuning

MANIFEST = "tuning.json"


@dataclass(frozen=True, slots=True)
class Validation:
    """The base and the chosen candidate on fresh seeds: each target's estimate, and games that raised."""

    seed: int
    games: int  # the chosen candidate's
    base_games: int
    base: tuple[Estimate, ...]
    chosen: tuple[Estimate, ...]
    errors: int


@dataclass(frozen=True, slots=True)
class TuneSummary:
    """What a tuning found and spent."""

    out: Path
    result: SearchResult
    chosen: int | None  # trial number
    validation: Validation | None
    seconds: float
    report: Path
    played_now: int  # games this run played (the others were kept from earlier runs)

    @property
    def games(self) -> int:
        """Return every game the tuning played: the search's and the validation's."""
        return self.result.games_spent + (self.validation.games + self.validation.base_games if self.validation else 0)


def run_tuning(tuning: Tuning, tuning_text: str, out: str | Path, make_executor: Callable[[], cf.Executor],
               workers: int, progress: bool = True, cluster_threads: Callable[[], int | None] | None = None,
               worker_wait_s: float = 120.0, say: Callable[[str], None] | None = None) -> TuneSummary:
    """Run (or resume) a tuning into `out`: search, validation, chosen files, report.

    Args:
        cluster_threads, worker_wait_s: on a cluster, its worker threads now, and how long to wait with none
            before stopping (`study.runner.run_study`).
        say: called with each change noticed in the cluster and each repair of a candidate's results folder.

    Raises:
        StudyError: `out` holds another tuning, another run is working in it, it cannot be written, or the
            cluster has had no worker for `worker_wait_s` (the games finished so far are kept).
    """
    from optuna.exceptions import StorageInternalError
    from sqlalchemy.exc import SQLAlchemyError

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise StudyError(str(out), "--out", "a tuning folder", "a file")
    try:
        lock = _open_folder(tuning, tuning_text, out)
    except OSError as error:
        raise _folder_error(error) from None
    try:
        set_aside_damaged_database(out, say)
        return _run(tuning, out, GameEvaluator(tuning, make_executor, workers, cluster_threads=cluster_threads,
                                               worker_wait_s=worker_wait_s, say=say), progress, say)
    except OSError as error:  # the optuna database and every game played so far are kept: the same command resumes
        if error.filename is None or not Path(os.fsdecode(error.filename)).resolve().is_relative_to(out.resolve()):
            raise  # not a file of the tuning folder (a cluster's network, a file elsewhere): as it is
        raise _folder_error(error) from None
    except (SQLAlchemyError, StorageInternalError) as error:
        raise _database_error(out / DATABASE, error) from None
    finally:
        lock.close()


def _folder_error(error: OSError) -> StudyError:
    """Return the one-line error for a file of the tuning folder that could not be written or read."""
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS):
        return write_error(Path(os.fsdecode(error.filename or ".")), error)
    return StudyError(os.fsdecode(error.filename or "."), "(file)", "a file of the tuning folder that can be read",
                      error.strerror or str(error), "the games played so far are kept; restore the file (or use "
                      "another --out) and run the same command again")


def _database_error(path: Path, error: Exception) -> StudyError:
    """Return the one-line error for the Optuna database that could not be written or read: SQLite's words."""
    found = getattr(error, "orig", None) or getattr(error.__cause__, "orig", None) or error.__cause__ or error
    cause = str(found).splitlines()[0]
    if "full" in cause:  # SQLite says "database or disk is full"
        return StudyError(str(path), "(write)", "a writable tuning folder with free space", cause,
                          "the games played so far are kept; make room and run the same command again")
    return StudyError(str(path), "(file)", "the tuning's Optuna database (SQLite)", cause,
                      "the games played so far are kept; run the same command again")


def set_aside_damaged_database(out: Path, say: Callable[[str], None] | None) -> None:
    """Move a damaged Optuna database (cut short, overwritten) aside, saying so: the search asks its trials again.

    That is safe: every draw of the sampler derives from the master seed, the trial number and the history
    told before it (`search.SeededSampler`), and each candidate's games are kept in its own folder, so the
    trials come again in the same order, their games are found there and none is played again.
    """
    import sqlite3

    path = out / DATABASE
    if not path.is_file() or path.stat().st_size == 0:  # SQLite makes an empty file a new database
        return
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            found = ", ".join(row[0] for row in db.execute("PRAGMA quick_check"))
    except sqlite3.DatabaseError as error:
        found = str(error)
    if found == "ok":
        return
    aside, n = path.with_name(f"{DATABASE}.damaged"), 1
    while aside.exists():
        aside, n = path.with_name(f"{DATABASE}.damaged-{n}"), n + 1
    os.replace(path, aside)
    for suffix in ("-journal", "-wal", "-shm"):  # SQLite's own files of the damaged database go with it
        part = path.with_name(DATABASE + suffix)
        if part.exists():
            os.replace(part, aside.with_name(aside.name + suffix))
    if say is not None:
        say(f"{path}: damaged ({found[:100]}); set aside as {aside.name}: the trials are asked again in the same "
            f"order, and the games kept in their folders are not played again")


def _run(tuning: Tuning, out: Path, evaluator: GameEvaluator, progress: bool,
         say: Callable[[str], None] | None) -> TuneSummary:
    """Search, validate the chosen candidate, write its files and the report (`run_tuning`, its folder locked)."""
    save, total = elapsed_store(out, say)
    bar = Progress(progress)
    evaluator.on_game = bar.game
    try:
        result = run_search(tuning, out, evaluator, bar, on_batch=lambda _: save())
        chosen = result.chosen(tuning)
        validation = None
        if chosen is not None:
            bar.validating(tuning.validation_games + tuning.validation_base_games,
                           validation_played(tuning, out, chosen.number))
            validation = validate(tuning, out, evaluator, chosen.number)
            write_chosen(tuning, out, result, chosen.number, validation)
            bar.close()
    except BaseException:
        with contextlib.suppress(OSError):  # the wall time of an interrupted run counts too, if it can be kept:
            save()  # the error that stopped the run is the one to tell
        raise
    save()
    from somaliland.tune.report import write_report

    report = write_report(tuning, out, result, chosen.number if chosen else None, validation, total())
    return TuneSummary(out, result, chosen.number if chosen else None, validation, total(), report, bar.games)


def validation_played(tuning: Tuning, out: Path, number: int) -> int:
    """Return how many validation games earlier runs of this tuning finished (for the progress bar)."""
    root = out / "validation" / str(tuning.validation_seed)
    done = 0
    for name, count in _side_games(tuning, number).items():
        frame = read_table(root / name, "games") if (root / name).is_dir() else None
        done += int((frame.game < count).sum()) if frame is not None and len(frame) else 0
    return done


def _side_games(tuning: Tuning, number: int) -> dict[str, int]:
    """Return the validation's sides (the base, the chosen trial) and how many games each plays."""
    return {"base": tuning.validation_base_games, f"trial-{number:04d}": tuning.validation_games}


def validate(tuning: Tuning, out: Path, evaluator: GameEvaluator, number: int) -> Validation:
    """Play the base and the chosen candidate on the validation seeds, never used in the search."""
    root = out / "validation" / str(tuning.validation_seed)
    trial = trial_folder(out, number)
    try:
        files = {"base": (tuning.map_text, base_documents(tuning)["rules"].unwrap()),
                 f"trial-{number:04d}": (read_limited(trial / MAP_FILE, "map").decode("utf-8"),
                                         load_toml(read_limited(trial / RULES_FILE, "rules file").decode("utf-8"),
                                                   str(trial / RULES_FILE)))}
    except (LimitError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise StudyError(str(trial), "(file)", "the chosen candidate's map.toml and rules.toml, as the search wrote "
                         "them", str(error)[:100]) from None
    found = []
    for name, count in _side_games(tuning, number).items():
        map_text, rules = files[name]
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(folder / MAP_FILE, map_text)
        games = evaluator.play(folder, MAP_FILE, rules, count, tuning.validation_seed,
                               f"{tuning.name}-validation-{name}")
        found.append((evaluator.estimates(games), errors(folder, count)))
    return Validation(tuning.validation_seed, tuning.validation_games, tuning.validation_base_games,
                      found[0][0], found[1][0], found[0][1] + found[1][1])


def write_chosen(tuning: Tuning, out: Path, result: SearchResult, number: int, validation: Validation) -> None:
    """Write the chosen candidate's map and rules files with a header saying how they were tuned.

    Raises:
        StudyError: the chosen map no longer passes the map check (it always should: it is the candidate
            that was played, with comments added).
    """
    from somaliland.map import problems
    from somaliland.tune.report import header

    folder = out / "chosen"
    folder.mkdir(exist_ok=True)
    lines = header(tuning, result, number, validation)
    for name in (MAP_FILE, RULES_FILE):
        text = read_limited(trial_folder(out, number) / name, "map" if name == MAP_FILE else "rules file").decode()
        first, _, rest = text.partition("\n")
        if first.startswith("#:schema"):  # editors read the schema directive on the first line
            text = first + "\n" + "".join(f"# {line}".rstrip() + "\n" for line in lines) + rest
        else:
            text = "".join(f"# {line}".rstrip() + "\n" for line in lines) + text
        write_whole(folder / name, text)
    found = problems(folder / MAP_FILE)
    if found:
        raise StudyError(str(folder / MAP_FILE), "(map check)", "a chosen map that passes the map check", str(found[0]))


def _open_folder(tuning: Tuning, tuning_text: str, out: Path):
    """Lock the tuning folder and check it holds this tuning (or nothing); return the lock's file.

    Raises:
        StudyError: the folder holds another tuning, or files but no tuning's manifest (nothing is written in it
            then), or another run is working in it.
    """
    _refuse_foreign(out)
    out.mkdir(parents=True, exist_ok=True)
    lock = open(out / ".lock", "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise StudyError(str(out), "(folder)", "a tuning folder no other `tune` run is working in",
                         "in use by another run") from None
    try:
        _check_manifest(tuning, tuning_text, out)
    except BaseException:
        lock.close()  # a retry in this process finds the folder free
        raise
    return lock


def _refuse_foreign(out: Path) -> None:
    """Refuse an existing folder that holds files but no tuning's manifest, before anything is written in it (a
    run killed before it wrote its manifest leaves only the lock)."""
    if not out.is_dir() or (out / MANIFEST).exists():
        return
    others = other_files(out, (".lock",))
    if others:
        raise StudyError(str(out), "--out", f"a new or empty folder, or a folder of `tune` (with its {MANIFEST})",
                         f"a folder holding {others}", FOREIGN_HINT)


def _check_manifest(tuning: Tuning, tuning_text: str, out: Path) -> None:
    """Check the folder's manifest names this tuning (or write it), and keep the tuning file as run."""
    manifest = out / MANIFEST
    if manifest.exists():
        try:
            text = read_limited(manifest, "tuning manifest").decode("utf-8")
            check_nesting(text, str(manifest), "json")
            old = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError, LimitError) as error:
            raise StudyError(str(manifest), "(file)", "the tuning folder's manifest (JSON)", str(error)[:80],
                             "it is damaged: use another --out, or delete it only if the folder holds this tuning")
        if not isinstance(old, dict) or old.get("fingerprint") != tuning.fingerprint:
            raise StudyError(str(out), "fingerprint", f"the folder of the same tuning as {tuning.source} (only name, "
                             f"question, search.trials and [validation] may change between runs); use another --out",
                             old.get("source") if isinstance(old, dict) else old)
    else:
        write_whole(manifest, json.dumps({"name": tuning.name, "source": tuning.source,
                                         "fingerprint": tuning.fingerprint, "master_seed": tuning.master_seed,
                                         "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, indent=1))
    write_whole(out / "tune.toml", tuning_text)
