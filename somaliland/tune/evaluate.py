"""Candidates' games through the study runner: each candidate is a one-cell study in its own folder.

A candidate's folder is a study results folder (`somaliland study report` and `study replay` work on
it): its `study.toml` plays the candidate's `map.toml` with its rules, and the runner keeps its games,
so a rung adds games to the ones before and a resumed tuning replays nothing it had finished. Every
candidate plays the same seeds (cell 0 of the tuning's master seed: common random numbers, so two
candidates differ by their files, not by their luck); validation plays fresh ones.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from pathlib import Path
from typing import Any

from somaliland.study.runner import run_study
from somaliland.study.spec import parse_study
from somaliland.study.store import read_table, write_whole
from somaliland.tune.candidate import MAP_FILE, Candidate
from somaliland.tune.measures import Estimate, Games, estimate
from somaliland.tune.spec import Tuning

STUDY_FILE = "study.toml"


class KeptPool:
    """Makes executors for the runner that share one local process pool across a tuning's many short
    studies (the runner shuts down its executor after each), and makes a new pool if one breaks."""

    def __init__(self, make: Callable[[], cf.Executor]) -> None:
        self._make = make
        self._pool: cf.Executor | None = None

    def __call__(self) -> cf.Executor:
        # a pool whose worker died is broken for good (ProcessPoolExecutor's own flag)
        if self._pool is not None and getattr(self._pool, "_broken", False):
            self.close()
        if self._pool is None:
            self._pool = self._make()
        return _Shared(self._pool)

    def close(self) -> None:
        """Shut the pool down (the next call makes a new one)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class _Shared(cf.Executor):
    """An executor whose shutdown leaves the shared pool running (the KeptPool closes it)."""

    def __init__(self, pool: cf.Executor) -> None:
        self._pool = pool

    def submit(self, fn, /, *args, **kwargs):
        """Submit to the shared pool."""
        return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Leave the shared pool running."""


class GameEvaluator:
    """Plays candidates' games on the study runner and estimates the tuning's targets."""

    def __init__(self, tuning: Tuning, make_executor: Callable[[], cf.Executor], workers: int,
                 on_game: Callable[[Any], None] | None = None,
                 cluster_threads: Callable[[], int | None] | None = None, worker_wait_s: float = 120.0,
                 say: Callable[[str], None] | None = None) -> None:
        self.tuning, self.make_executor, self.workers, self.on_game = tuning, make_executor, workers, on_game
        self.cluster_threads, self.worker_wait_s, self.say = cluster_threads, worker_wait_s, say  # run_study's

    def evaluate(self, jobs: list[tuple[int, Candidate]], games: int) -> dict[int, tuple[Estimate, ...] | str]:
        """Play each candidate's first `games` games (those not yet played) and estimate every target; a
        candidate some of whose games raised gets why instead (it is rejected: estimates from the games that
        survived would judge it on a biased sample)."""
        found: dict[int, tuple[Estimate, ...] | str] = {}
        for n, c in jobs:
            played = self.play(c.folder, MAP_FILE, c.rules, games, self.tuning.master_seed,
                               f"{self.tuning.name}-trial-{n:04d}")
            found[n] = raised(c.folder, games) or self.estimates(played)
        return found

    def play(self, folder: Path, map_file: str, rules: dict[str, Any], games: int, master: int, name: str) -> Games:
        """Play the first `games` games of a one-cell study in `folder` and return their tables."""
        text = self.tuning.study_text(name, map_file, rules, games, master)
        write_whole(folder / STUDY_FILE, text)
        study = parse_study(text, str(folder / STUDY_FILE), folder)
        run_study(study, text, folder, self.make_executor, self.workers, progress=False, on_game=self.on_game,
                  cluster_threads=self.cluster_threads, worker_wait_s=self.worker_wait_s, say=self.say)
        return first_games(folder, games)

    def estimates(self, games: Games) -> tuple[Estimate, ...]:
        """Return every target's estimate from some games."""
        return tuple(estimate(t.measure, games, dict(t.filters)) for t in self.tuning.targets)


def first_games(folder: Path, games: int) -> Games:
    """Return the tables of a study folder's games 0 .. games-1 that finished without error."""
    return games_where(folder, lambda frame: frame.game < games)


def games_where(folder: str | Path, keep: Callable[[Any], Any]) -> Games:
    """Return the tables of a study folder's games that finished without error, each table cut to the rows
    `keep` (a DataFrame -> boolean mask) selects."""
    tables = {}
    for table in ("players", "contracts", "captures", "games"):
        frame = read_table(folder, table)
        tables[table] = frame[keep(frame)].reset_index(drop=True) if len(frame) else frame
    return Games(**tables)


def raised(folder: Path, games: int) -> str:
    """Return why a candidate is rejected when any of its study folder's first `games` games raised, else ""."""
    frame = _raised(folder, games)
    if not len(frame):
        return ""
    first = frame.sort_values("game").iloc[0]
    return (f"{len(frame)} of its first {games} games raised (game {int(first.game)}: {first.error}: "
            f"{str(first.message)[:160]}); `somaliland study report` on its folder lists them")


def errors(folder: Path, games: int) -> int:
    """Return how many of a study folder's first `games` games raised."""
    return len(_raised(folder, games))


def _raised(folder: Path, games: int):
    """Return the error rows of a study folder's first `games` games (a DataFrame, empty if none raised)."""
    frame = read_table(folder, "errors")
    return frame[frame.game < games] if len(frame) else frame
