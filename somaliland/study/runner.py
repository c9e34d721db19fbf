"""Run a study on any `concurrent.futures.Executor`: local processes or a Dask cluster, the same code.

The runner keeps a bounded window of games in flight (so a kill loses few), records each finished game
in the results folder at once, and shows a progress bar: games done, games per minute, time left. A game
whose worker died is run again: when a local pool breaks, the games that were in it rerun one at a time,
so the one that kills its worker is found and, after `max_attempts` deaths, recorded as an error while
the others finish normally.
On a Dask cluster the scheduler re-runs the games of a worker that leaves on the others; the runner says
when the cluster loses workers and stops, its finished games kept, when none has been left for a while.
Before the first game the players' surveys of the map are made on the workers, each once and in parallel, and
kept on disk (`survey_tasks`, `_prepare_surveys`): no worker's first game waits for one, and the bar, begun
after them, paces the games alone.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from somaliland.study.errors import StudyError
from somaliland.study.seeds import game_seed
from somaliland.study.spec import Cell, Study, column_name, map_sha256
from somaliland.study.store import ResultStore
from somaliland.study.worker import GameOutcome, GameTask, SurveyTask, play_task, policy_factory, prepare_survey

ExecutorFactory = Callable[[], cf.Executor]
WATCH_S = 1.0  # how often a cluster run looks at its workers while it waits for games


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a run did: games planned and done before it (and beyond the plan), played now, errors, worker
    deaths retried, wall and CPU seconds, and what it repaired or noticed on the way."""

    total: int
    done_before: int  # of the `total` planned games
    played: int
    errors: int
    retried: int
    seconds: float
    cpu_s: float
    extra: int = 0  # games beyond games_per_cell kept from an earlier run that planned more
    notes: tuple[str, ...] = ()

    @property
    def games_per_hour(self) -> float:
        """Return the games finished per wall-clock hour in this run."""
        return 3600 * self.played / self.seconds if self.seconds > 0 else float("nan")


def cell_columns(study: Study, cell: Cell) -> tuple[tuple[str, Any], ...]:
    """Return the columns every row of a cell carries: label, players, rounds, map and each swept value."""
    columns: dict[str, Any] = {"cell_label": cell.label(), "players": cell.rules.players,
                               "rounds": cell.rules.rounds, "map": cell.map_path.stem}
    floats = {k for c in study.cells for k, v in c.values if isinstance(v, float)}
    for key, value in cell.values:
        if key == "map":
            continue
        if isinstance(value, (list, dict)):
            value = json.dumps(value)
        elif key in floats and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)  # one column type across chunks, whatever TOML made of 0 and 1
        columns[column_name(key)] = value
    return tuple(columns.items())


def tasks(study: Study, done: set[tuple[int, int]] = frozenset()) -> Iterator[GameTask]:
    """Yield the study's games not yet done, game 0 of every cell first, so a partial run stays balanced."""
    sha = {path: map_sha256(path) for path in {c.map_path for c in study.cells}}
    columns = {c.index: cell_columns(study, c) for c in study.cells}
    for game in range(study.games_per_cell):
        for cell in study.cells:
            if (cell.index, game) in done:
                continue
            seed = game_seed(study.master_seed, cell.index, game)
            yield GameTask(cell.index, game, cell.setup(seed), sha[cell.map_path], study.policy_factory,
                           columns[cell.index], tuple(s.skill for s in cell.seats))


def survey_tasks(study: Study, done: set[tuple[int, int]] = frozenset()) -> list[SurveyTask]:
    """Return one task per distinct seat (its map, rules, physics and strategy with its parameters and skill) of
    the cells with games left to play: the surveys their games play by, made before them (`run_study`). None for
    a study whose players a policy factory of its own makes: what they need is theirs to know, and making one
    outside a game may do what the factory does (they survey in their first games, as before)."""
    import hashlib

    if study.policy_factory is not None:
        return []

    left = Counter(c for c, g in done if g < study.games_per_cell)
    sha = {c.map_path: hashlib.sha256(c.map_path.read_bytes()).hexdigest() for c in study.cells}
    found: dict[tuple, SurveyTask] = {}
    for cell in study.cells:
        if left[cell.index] >= study.games_per_cell:
            continue
        setup = cell.setup(game_seed(study.master_seed, cell.index, 0))
        for k, seat in enumerate(setup.seats):
            found.setdefault((cell.map_path, cell.rules, cell.physics, seat),
                             SurveyTask(setup, k, sha[cell.map_path], study.policy_factory))
    return list(found.values())


def run_study(study: Study, study_text: str, out: str | Path, make_executor: ExecutorFactory, workers: int,
              progress: bool = True, chunk_games: int = 100, max_attempts: int = 3,
              on_game: Callable[[GameOutcome], None] | None = None,
              cluster_threads: Callable[[], int | None] | None = None, worker_wait_s: float = 120.0,
              say: Callable[[str], None] | None = None) -> RunSummary:
    """Play every game of a study not yet in `out`, on executors `make_executor` returns.

    Args:
        study: the checked study.
        study_text: the study file's text (kept in `out` so the results say what made them).
        out: the results folder; created, or continued when it holds this study's earlier run.
        make_executor: returns a fresh executor; called again if a local pool breaks.
        workers: how many games run at once (two per worker are kept in flight).
        progress: show a progress bar on standard error.
        chunk_games: games per Parquet chunk.
        max_attempts: tries of a game whose worker died before it is recorded as an error.
        on_game: called with each finished game once it is recorded (e.g. to time a benchmark).
        cluster_threads: for a cluster, returns its worker threads now; watched while the run waits.
        worker_wait_s: how long a cluster run waits with no worker before it stops.
        say: called with each repair of the results folder and each change noticed in the cluster.

    Raises:
        StudyError: `out` holds another study's results, is damaged beyond repair or cannot be written, or
            the cluster has had no worker for `worker_wait_s` (the games finished so far are kept).
    """
    notes: list[str] = []

    def note(text: str) -> None:
        notes.append(text)
        if say is not None:
            say(text)

    check_factory(study)
    store = ResultStore.open(out, study, study_text, chunk_games)
    for repair in store.repairs:
        note(f"repaired {repair}")
    before = sum(1 for c, g in store.done if 0 <= g < study.games_per_cell and 0 <= c < len(study.cells))
    extra = len(store.done) - before
    todo = _Pending(tasks(study, store.done), study.total_games - before)
    attempts: Counter = Counter()
    bar = None
    played = errors = retried = 0
    cpu = 0.0
    started = time.monotonic()
    watch = _ClusterWatch(cluster_threads, worker_wait_s, note) if cluster_threads is not None else None
    executor = make_executor()
    running: dict[cf.Future, GameTask] = {}
    suspects: deque[GameTask] = deque()  # in flight when a pool broke: rerun one at a time to find the killer
    isolating: set[tuple[int, int]] = set()
    surveyed = False  # a run stopped while surveying does not wait for the survey being made
    try:
        if todo:
            executor = _prepare_surveys(survey_tasks(study, store.done), executor, make_executor, say, progress,
                                        watch, len(todo))
        surveyed = True
        bar = _bar(study.total_games, before, progress)  # after the surveys: its pace is the games'
        while todo or suspects or running:
            limit, source = (1, suspects) if isolating else (2 * workers, todo)
            while source and len(running) < limit:
                task = source.popleft()
                running[executor.submit(play_task, task)] = task
            finished, _ = cf.wait(running, timeout=None if watch is None else WATCH_S,
                                  return_when=cf.FIRST_COMPLETED)
            if watch is not None:
                watch.check(len(todo) + len(suspects) + len(running) - len(finished))
            lost: list[GameTask] = []
            for future in finished:
                task = running.pop(future)
                try:
                    outcome = future.result()
                except cf.BrokenExecutor:  # a local worker died; which game killed it is not yet known
                    lost.append(task)
                    continue
                except Exception as error:  # a cluster worker died or was lost (Dask has already retried)
                    attempts[task.key] += 1
                    if attempts[task.key] < max_attempts:
                        retried += 1
                        todo.appendleft(task)
                        continue
                    outcome = _worker_died(task, error, attempts[task.key])
                isolating.discard(task.key)
                store.add(outcome)
                played += 1
                errors += not outcome.ok
                cpu += outcome.cpu_s
                if on_game is not None:
                    on_game(outcome)
                if bar is not None:
                    bar.update(1)
                    minutes = max((time.monotonic() - started) / 60, 1e-9)
                    bar.set_postfix_str(f"{played / minutes:.1f} games/min, {errors} errors", refresh=False)
            if lost:  # the pool is broken: every game in it goes back, and a new pool takes over
                lost.extend(running.values())
                running.clear()
                retried += len(lost)
                if len(lost) == 1:  # it ran alone, so it killed its worker
                    task = lost[0]
                    attempts[task.key] += 1
                    if attempts[task.key] >= max_attempts:
                        store.add(_worker_died(task, cf.BrokenExecutor("its worker process died"),
                                               attempts[task.key]))
                        isolating.discard(task.key)
                        played += 1
                        errors += 1
                        lost = []
                suspects.extendleft(reversed(lost))
                isolating.update(t.key for t in lost)
                _shutdown(executor, wait=False)
                executor = make_executor()
    finally:
        try:
            for future in running:
                future.cancel()
            _shutdown(executor, wait=not running and surveyed)
        except Exception:  # a Dask client whose scheduler is gone cannot cancel: nothing is left to stop then
            pass
        store.close()
        if bar is not None:
            bar.close()
    return RunSummary(study.total_games, before, played, errors, retried, time.monotonic() - started, cpu, extra,
                      tuple(notes))


class _Pending:
    """The games still to play: made one at a time as the window has room (a study of ten million games is not
    built up front), games handed back for another try first."""

    def __init__(self, games: Iterator[GameTask], count: int) -> None:
        self.games, self.count = games, count  # count: how many `games` will still yield
        self.again: deque[GameTask] = deque()

    def __len__(self) -> int:
        return self.count + len(self.again)

    def popleft(self) -> GameTask:
        """Return the next game to play."""
        if self.again:
            return self.again.popleft()
        self.count -= 1
        return next(self.games)

    def appendleft(self, task: GameTask) -> None:
        """Hand a game back, to be played next."""
        self.again.appendleft(task)


def _prepare_surveys(needs: list[SurveyTask], executor: cf.Executor, make_executor: ExecutorFactory,
                     say: Callable[[str], None] | None, progress: bool, watch: _ClusterWatch | None,
                     games: int) -> cf.Executor:
    """Make the surveys the games will play by, on the workers, before any game: each once, in parallel, kept on
    disk where every worker (and a later run) reads it, so no worker's first game waits for one. Return the
    executor to play the games on (a new one if a worker died here).

    A survey that fails is left to the games, which record the error with their seeds; a worker that dies here
    costs nothing but the pool (made again). A cluster is watched as while the games run (`_ClusterWatch`, told
    the `games` still to play): with no worker for too long the run stops.

    Raises:
        StudyError: the cluster's scheduler no longer answers or it has had no worker for too long (the surveys
            still being made are cancelled).
    """
    started = time.monotonic()
    pending = {executor.submit(prepare_survey, need) for need in needs}
    spent = 0.0
    broken = False
    bar = _bar(len(needs), 0, progress and bool(needs), "survey", "the players' surveys of the map")
    try:
        while pending:
            finished, pending = cf.wait(pending, timeout=None if watch is None else WATCH_S,
                                        return_when=cf.FIRST_COMPLETED)
            if watch is not None:
                watch.check(games)
            for future in finished:
                try:
                    spent += future.result()
                except cf.BrokenExecutor:
                    broken = True
                except Exception:  # noqa: BLE001 - the games that need it raise the same error, with their seeds
                    pass
                if bar is not None:
                    bar.update(1)
    finally:
        for future in pending:
            future.cancel()
        if bar is not None:
            bar.close()
    if broken:
        _shutdown(executor, wait=False)
        executor = make_executor()
    if say is not None and spent >= 1.0:
        say(f"surveyed the map for its players before the games: {len(needs)} survey{'s' * (len(needs) != 1)}, "
            f"{spent:.0f} CPU s in {time.monotonic() - started:.0f} s (kept for later runs)")
    return executor


class _ClusterWatch:
    """Says when a cluster loses worker threads, and stops a run that has had none for too long."""

    def __init__(self, threads: Callable[[], int | None], wait_s: float, note: Callable[[str], None]) -> None:
        self.threads, self.wait_s, self.note = threads, wait_s, note
        self.last = threads() or 0
        self.empty_since: float | None = None
        self.looked = time.monotonic()

    def check(self, waiting: int) -> None:
        """Look at the cluster once; `waiting` is the number of games not yet finished.

        Raises:
            StudyError: the scheduler no longer answers, or there has been no worker for `wait_s` seconds.
        """
        if time.monotonic() - self.looked < WATCH_S:  # one question to the scheduler a second is plenty
            return
        self.looked = time.monotonic()
        now = self.threads()
        if now is None:
            raise StudyError("--cluster", "scheduler", "a Dask scheduler that answers", "no answer any more",
                             f"the finished games are kept, {waiting} are not played; restart the scheduler and "
                             f"its workers and run the same command again")
        if now < self.last:
            self.note(f"the cluster lost worker threads ({self.last} -> {now})"
                      + ("; Dask runs their games on the others" if now else ""))
        elif now > self.last:
            self.note(f"the cluster gained worker threads ({self.last} -> {now})")
        self.last = now
        if now:
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = time.monotonic()
            self.note(f"no worker left in the cluster: waiting up to {self.wait_s:.0f} s for one to join")
        elif time.monotonic() - self.empty_since > self.wait_s:
            raise StudyError("--cluster", "workers", "a Dask worker to play the games",
                             f"none for {self.wait_s:.0f} s",
                             f"the finished games are kept, {waiting} are not played; start workers "
                             f"(`dask worker SCHEDULER_ADDRESS`) and run the same command again")


def check_factory(study: Study) -> None:
    """Check that the study's policy factory imports here (local workers import it the same way).

    Raises:
        StudyError: it does not import or is not callable.
    """
    if study.policy_factory is None:
        return
    try:
        factory = policy_factory(study.policy_factory)
    except Exception as error:  # importing runs the user's module: whatever it raises makes the factory unusable
        raise StudyError(study.source, "policy_factory", "'module:function' importable by this process and the "
                         "workers", study.policy_factory, f"{type(error).__name__}: {error}") from None
    if not callable(factory):
        raise StudyError(study.source, "policy_factory", "a callable 'module:function'", study.policy_factory)


def _shutdown(executor: cf.Executor, wait: bool) -> None:
    if isinstance(executor, cf.ProcessPoolExecutor):
        executor.shutdown(wait=wait, cancel_futures=True)
    else:  # Dask's executor takes no cancel_futures; its futures were cancelled one by one
        executor.shutdown(wait=wait)


def _worker_died(task: GameTask, error: BaseException, attempts: int) -> GameOutcome:
    row = {"cell": task.cell, "game": task.game, "game_seed": task.setup.seed, **dict(task.columns),
           "error": f"WorkerDied({type(error).__name__})", "message": f"{error} (after {attempts} attempts)",
           "traceback": ""}
    return GameOutcome(task.cell, task.game, task.setup.seed, False, {"errors": [row]}, 0.0, "")


def _bar(total: int, initial: int, show: bool, unit: str = "game", what: str = ""):
    if not show:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit=unit, file=sys.stderr, dynamic_ncols=True, mininterval=1.0,
                desc=what or None, bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} " + unit + "s [{elapsed} elapsed, "
                "{remaining} left{postfix}]")
