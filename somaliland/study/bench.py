"""Study throughput: games per hour through the real runner (workers, Parquet, journal) at 1 and 2 workers."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study
from somaliland.study.spec import parse_study

BENCH_STUDY = """name = "bench"
question = "How many games an hour does this machine play?"
master_seed = 1
games_per_cell = {games}
{factory}
[rules]
players = {players}
rounds = {rounds}

[seats]
strategy = "{strategy}"
skill = 0.75
"""


@dataclass(frozen=True, slots=True)
class Throughput:
    """Games per hour at one worker count: overall, and once every worker has finished its first game."""

    workers: int
    games: int
    seconds: float  # wall clock, start-up included
    steady_games: int  # games finished after each worker's first (start-up: imports, map, calibration)
    steady_seconds: float

    @property
    def games_per_hour(self) -> float:
        """Return games per wall-clock hour, start-up included."""
        return 3600 * self.games / self.seconds

    @property
    def steady_games_per_hour(self) -> float:
        """Return games per hour once the workers are warm (what a long study sees)."""
        return 3600 * self.steady_games / self.steady_seconds if self.steady_seconds > 0 else float("nan")


def measure(workers: int, games: int, players: int = 4, rounds: int = 4, strategy: str = "ev",
            factory: str | None = None, physics: dict[str, int | float | str] | None = None) -> Throughput:
    """Return the wall-clock throughput of a study of `games` games on `workers` local processes.

    `physics` holds SimSettings fields for the study's `[physics]` table (default: the games' defaults).
    """
    text = BENCH_STUDY.format(games=games, players=players, rounds=rounds, strategy=strategy,
                              factory=f'policy_factory = "{factory}"\n' if factory else "")
    if physics:
        text += "\n[physics]\n" + "".join(f"{name} = {value!r}\n" for name, value in physics.items())
    study = parse_study(text, "<bench study>", Path.cwd())
    done: list[float] = []
    with tempfile.TemporaryDirectory(prefix="somaliland-bench-") as out:
        t0 = time.monotonic()
        summary = run_study(study, text, Path(out) / "results", local_executors(workers), workers, progress=False,
                            on_game=lambda _: done.append(time.monotonic()))
        seconds = time.monotonic() - t0
    warm = done[workers - 1] if len(done) > workers else done[-1]
    return Throughput(workers, summary.played, seconds, len(done) - workers, done[-1] - warm)
