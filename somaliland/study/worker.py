"""What a worker does with one game of a study: play it and return its result rows, or the error it raised.

Runs in worker processes (local or on a Dask cluster). Each worker thread keeps a roller per physics setting
and its loaded maps between games; a task carries only plain data and names the policy factory by import
path, so a cluster worker needs this package installed and the map files at the same paths (checked by
sha256).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any

from physics import Roller, SimSettings
from somaliland.engine.setup import GameSetup
from somaliland.machine import describe, fingerprint

_LOCAL = threading.local()


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: its place in the study, its setup and the columns its rows carry."""

    cell: int
    game: int
    setup: GameSetup
    map_sha256: str
    factory: str | None  # "module:function", or None for the strategy registry
    columns: tuple[tuple[str, Any], ...]  # the cell's columns, added to every row
    skills: tuple[float, ...]  # each seat's skill level as the study gave it

    @property
    def key(self) -> tuple[int, int]:
        """Return (cell, game), the game's identity in its study."""
        return self.cell, self.game


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A played game: its rows per table (an error row if it raised), CPU seconds, and who played it."""

    cell: int
    game: int
    seed: int
    ok: bool
    tables: dict[str, list[dict[str, Any]]]
    cpu_s: float
    worker: str


@dataclass(frozen=True, slots=True)
class SurveyTask:
    """A seat of a cell whose survey of the map its games play by is made before them (`prepare_survey`)."""

    setup: GameSetup  # a game of the cell: its map, rules, physics and seats
    seat: int
    map_sha256: str
    factory: str | None


def init_worker(path: list[str]) -> None:
    """Give a fresh worker process the parent's import path (so a policy factory module resolves)."""
    for entry in reversed(path):
        if entry not in sys.path:
            sys.path.insert(0, entry)


def init_local_worker(path: list[str], parent: int) -> None:
    """Set up a local pool worker: the parent's import path, and an end when the parent ends."""
    init_worker(path)
    die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """Make this process end when process `parent` does (else a killed run's pool workers live on, idle).

    On Linux the kernel sends SIGKILL when the parent goes (prctl PR_SET_PDEATHSIG); elsewhere a thread
    polls the parent's pid once a second.
    """
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        pr_set_pdeathsig = 1  # from <sys/prctl.h>
        if ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL) == 0:
            if os.getppid() != parent:  # it died before the request took hold
                os._exit(1)
            return
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True, name="parent-watch").start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def play_task(task: GameTask) -> GameOutcome:
    """Play one game; any exception the game raises becomes an error row carrying its seed."""
    t0 = time.process_time()
    worker = f"{os.uname().nodename}:{os.getpid()}"
    seed = task.setup.seed
    ident = {"cell": task.cell, "game": task.game, "game_seed": seed}
    try:
        world = _world(task)
        from somaliland.engine.loop import play_game
        from somaliland.study.tables import game_tables

        timed: list[TimedPolicy] = []
        result = play_game(task.setup, world, _roller(task.setup.physics), timing(policy_factory(task.factory), timed))
        tables = game_tables(result.told, world)
        cpu = time.process_time() - t0
        tables["games"][0].update(status="ok", cpu_s=cpu, worker=worker, code=code_version(),
                                  machine=describe(fingerprint()))
        for row in tables["players"]:
            row["skill"] = task.skills[row["seat"]]
            row.update(timed[row["seat"]].columns())
        for name, rows in tables.items():
            tables[name] = [{**ident, **dict(task.columns), **row} for row in rows]
        ok = True
    except Exception as error:  # a game that raises is a result to keep, not a crash of the study
        cpu = time.process_time() - t0
        ok = False
        tables = {"errors": [{**ident, **dict(task.columns), "error": type(error).__name__, "message": str(error),
                              "traceback": "".join(traceback.format_exception(error)[-6:])}]}
    return GameOutcome(task.cell, task.game, seed, ok, tables, cpu, worker)


def prepare_survey(task: SurveyTask) -> float:
    """Make the survey of the map a seat's policy plays by (or read it back), so the cell's games find it kept on
    disk (and this worker in memory); return the CPU seconds it took. A policy that is not a `Strategy` (a custom
    factory's) has none to make."""
    t0 = time.process_time()
    from somaliland.engine.loop import seat_policy
    from somaliland.players.strategy import Strategy

    world = _world(task)
    policy = seat_policy(task.setup.seats[task.seat], _roller(task.setup.physics), policy_factory(task.factory))
    if isinstance(policy, Strategy):
        policy.survey(world, task.setup.rules)
    return time.process_time() - t0


MEASURED_COLUMNS = ("cpu_s", "worker", "decide_cpu_s", "throw_cpu_s")  # how long and where: not the game's
# results, so two runs of the same games may differ in them (and only in them)


class TimedPolicy:
    """A seat's policy with the CPU its decisions take counted (the ladder's CPU per decision); it decides as
    the policy does."""

    def __init__(self, policy: Any) -> None:
        self.policy, self.name = policy, policy.name
        self.decisions, self.cpu_s, self.throw_cpu_s = 0, 0.0, 0.0

    def _timed(self, method: str, *args: Any) -> Any:
        t0 = time.process_time()
        answer = getattr(self.policy, method)(*args)
        spent = time.process_time() - t0
        self.decisions += 1
        self.cpu_s += spent
        if method == "throw":
            self.throw_cpu_s += spent
        return answer

    def draft(self, *args: Any) -> Any:
        """Return the policy's pick."""
        return self._timed("draft", *args)

    def plan(self, *args: Any) -> Any:
        """Return the policy's plans."""
        return self._timed("plan", *args)

    def launch(self, *args: Any) -> Any:
        """Return the policy's launch."""
        return self._timed("launch", *args)

    def throw(self, *args: Any) -> Any:
        """Return the policy's throw."""
        return self._timed("throw", *args)

    def columns(self) -> dict[str, Any]:
        """Return the players-table columns: decisions, their CPU seconds, and those of throws (`throws` counts
        them). A survey of the map a worker had to sail itself (one the runner could not make before the games,
        `prepare_survey`, nor read from disk) counts in its first game's first draft."""
        return {"decisions": self.decisions, "decide_cpu_s": self.cpu_s, "throw_cpu_s": self.throw_cpu_s}


def timing(factory, timed: list[TimedPolicy]):
    """Return the factory with each policy it makes timed, appended to `timed` in seat order (as play_game
    makes them)."""

    def make(name: str, roller: Any, params: dict[str, Any]) -> TimedPolicy:
        timed.append(TimedPolicy(factory(name, roller, params)))
        return timed[-1]

    return make


def _source_digest() -> str:
    """Return a short hash of the simulator's source (somaliland/ and physics/) as it is on disk now."""
    import hashlib
    from pathlib import Path

    import somaliland

    root = Path(somaliland.__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(p for d in ("somaliland", "physics") for p in (root / d).rglob("*")
                       if p.suffix in (".py", ".toml", ".json") and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


# what a game runs, imported before the source is read (a worker process forked later inherits these modules)
import somaliland.engine.loop  # noqa: E402,F401
import somaliland.players.search  # noqa: E402,F401
import somaliland.players.strategies  # noqa: E402,F401

_CODE = _source_digest()  # read as this module is imported: the code this process runs, not later edits


def code_version() -> str:
    """Return a short hash of the simulator's source (somaliland/ and physics/), to tell code versions apart.

    Read when this module was imported, after the modules a game runs (the game loop, the strategies, the
    search), which a study's processes import before their first game and pool workers forked from them
    inherit: a file edited while a study runs neither relabels the games of a process that still runs the code it
    loaded nor is run under the old label (as `survey_file.code_digest` does for the surveys). A module a game first
    imports later (a strategy named by a custom factory) is not covered."""
    return _CODE


def _roller(settings: SimSettings) -> Roller:
    """Return this thread's roller of these settings (a game's setup says them: `GameSetup.physics`)."""
    rollers = getattr(_LOCAL, "rollers", None)
    if rollers is None:
        rollers = _LOCAL.rollers = {}
    if settings not in rollers:
        from physics import make_roller

        rollers[settings] = make_roller(settings)
    return rollers[settings]


def _world(task: GameTask | SurveyTask):
    maps = getattr(_LOCAL, "maps", None)
    if maps is None:
        maps = _LOCAL.maps = {}
    key = str(task.setup.map_path)
    if key not in maps:
        from somaliland.map import load

        maps[key] = load(task.setup.map_path)
    world = maps[key]
    if world.sha256 != task.map_sha256:
        raise RuntimeError(f"map {key} on worker {os.uname().nodename} differs from the study's "
                           f"(sha256 {world.sha256[:12]} vs {task.map_sha256[:12]})")
    return world


def policy_factory(name: str | None):
    """Return the policy factory a study names ("module:function"), or the strategy registry's."""
    if name is None:
        from somaliland.engine.loop import default_factory

        return default_factory
    module, function = name.split(":")
    return getattr(importlib.import_module(module), function)
