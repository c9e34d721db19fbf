"""CPU per game of this tree against another git revision: the same seeds, interleaved, in warm worker processes.

Each side runs in processes of its own, importing its own tree's code (the other revision checked out in a
temporary worktree, `git worktree add --detach`) with this tree's virtual environment, so both use the same
packages. Per side it measures:

- warm games: one worker process per side plays a warm-up game (seed 0, not counted), then the seeds; the two
  sides take turns game by game (the order swapped every seed), so the machine's load falls on both alike.
  CPU seconds of `play_game` (`time.process_time`), median and minimum over the seeds;
- the first game of a fresh process: a new process plays the first seed, once with an empty cache folder
  (`$SOMALILAND_CACHE`, a temporary one) and once more after that process left its caches there (what a user
  sees after `make setup` or an earlier run). Its game's CPU and the whole process's (imports included);
- the share of a warm game's CPU spent inside pybullet's own calls: the seeds once more in the warm workers with
  every function of the `pybullet` module wrapped by a CPU clock (the wrappers' own cost, measured on an empty
  call, taken off both the calls and the game); the rest is Python: the players, the rules, the roll's loop;
- whether both sides' records are identical (a digest of every record line after the header).

    .venv/bin/python experiments/perf/compare_revisions.py e3dc55a --seeds 1-8 [--repeats 1] [--markdown]
    .venv/bin/python experiments/perf/compare_revisions.py HEAD --physics world=per_game   # a setting, same code

Games: 4 players of strategy ev at skill 0.75 on the default map and rules, as `somaliland bench game` plays. Run
it on a machine as quiet as can be; its load average is printed before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# -- the worker: one process, one tree's code ------------------------------------------------------------------
def _worker(overrides: dict[str, object], players: int, strategies: str, skill: float) -> None:
    """Answer requests on stdin, one JSON object a line: {"seed": S, "timed": bool} plays a game and prints its
    CPU seconds, throws, record digest and (timed) the CPU inside pybullet's calls."""
    started = time.process_time()
    import physics.world  # noqa: F401 - first: it silences what pybullet prints as it loads
    import pybullet

    from physics import SimSettings, make_roller
    from somaliland.engine.loop import play_game
    from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
    from somaliland.map import load
    from somaliland.players.hand import ThrowSkill
    from somaliland.rules import RulesConfig

    world = load(DEFAULT_MAP)
    seats = seats_from(strategies.split(","), players, ThrowSkill.level(skill))
    rules = RulesConfig(players=players)
    settings = SimSettings(**overrides)
    clock = _PybulletClock(pybullet)
    with make_roller(settings) as roller:
        for line in sys.stdin:
            ask = json.loads(line)
            setup = GameSetup(seed=ask["seed"], seats=seats, rules=rules, physics=settings)
            with clock.on() if ask.get("timed") else _nothing():
                t0 = time.process_time()
                result = play_game(setup, world, roller)
                cpu = time.process_time() - t0
            digest = hashlib.sha256(json.dumps(result.events[1:], sort_keys=True, default=str).encode()).hexdigest()
            answer = {"seed": ask["seed"], "cpu": cpu, "throws": result.throws, "digest": digest[:16],
                      "process_cpu": time.process_time() - started}
            if ask.get("timed"):
                answer.update(clock.take())
            print(json.dumps(answer), flush=True)


@contextmanager
def _nothing():
    yield


class _PybulletClock:
    """CPU seconds inside the `pybullet` module's functions while on: each is replaced by a timed wrapper (a roll's
    loop binds them when a roll begins, so a game begun with the clock on is timed throughout)."""

    def __init__(self, module) -> None:
        self.module = module
        self.originals = {name: f for name, f in vars(module).items()
                          if type(f).__name__ == "builtin_function_or_method"}
        self.seconds, self.calls = 0.0, 0
        self.inner, self.outer = self._overheads()

    def _wrap(self, f):
        clock = time.process_time

        def timed(*args, **kwargs):
            t = clock()
            try:
                return f(*args, **kwargs)
            finally:
                self.seconds += clock() - t
                self.calls += 1

        return timed

    def _overheads(self, calls: int = 20000) -> tuple[float, float]:
        """Return what a wrapper adds, per call, to the time it measures and to the caller's time (medians of 5)."""
        inner, outer = [], []
        for _ in range(5):
            self.seconds, self.calls = 0.0, 0
            wrapped = self._wrap(abs)
            t = time.process_time()
            for _ in range(calls):
                wrapped(1)
            wrapped_time = time.process_time() - t
            t = time.process_time()
            for _ in range(calls):
                abs(1)
            bare = time.process_time() - t
            inner.append(self.seconds / calls)
            outer.append((wrapped_time - bare) / calls)
        return statistics.median(inner), statistics.median(outer)

    @contextmanager
    def on(self):
        self.seconds, self.calls = 0.0, 0
        for name, f in self.originals.items():
            setattr(self.module, name, self._wrap(f))
        try:
            yield
        finally:
            for name, f in self.originals.items():
                setattr(self.module, name, f)

    def take(self) -> dict[str, float]:
        """Return the calls and their CPU, less the clock's own cost, and what the clock added to the game."""
        return {"pybullet_cpu": max(0.0, self.seconds - self.calls * self.inner), "pybullet_calls": self.calls,
                "clock_cpu": self.calls * self.outer}


# -- the parent: trees, processes, the table ---------------------------------------------------------------------
class Side:
    """One tree's worker process."""

    def __init__(self, name: str, tree: Path, cache: Path, args: argparse.Namespace, physics: dict) -> None:
        self.name, self.tree, self.cache, self.args, self.physics = name, tree, cache, args, physics
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.tree), "SOMALILAND_CACHE": str(self.cache)}
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(self.physics),
                   "--players", str(self.args.players), "--strategies", self.args.strategies,
                   "--skill", str(self.args.skill)]
        # from a folder outside both trees, so that PYTHONPATH alone says whose code runs
        self.proc = subprocess.Popen(command, cwd=tempfile.gettempdir(), env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def play(self, seed: int, timed: bool = False) -> dict:
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"seed": seed, "timed": timed}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"compare_revisions: the worker of {self.name} ({self.tree}) died")
        return json.loads(line)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None


def _seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def _physics(items: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key] = int(value) if value.isdigit() else value
    return out


@contextmanager
def _worktree(revision: str):
    """Yield a temporary worktree of the revision (this tree itself for "." )."""
    if revision == ".":
        yield ROOT
        return
    folder = Path(tempfile.mkdtemp(prefix="compare-revision-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), revision], check=True,
                   capture_output=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False,
                       capture_output=True)


def _describe(tree: Path) -> str:
    return subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip() + (" (+ uncommitted changes)" if subprocess.run(
                              ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                              capture_output=True, text=True).stdout.strip() else "")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("revision", nargs="?", help="the other side: a git revision (\".\" for this tree again)")
    p.add_argument("--seeds", default="1-8", help="seeds of the warm games, FIRST-LAST (default 1-8)")
    p.add_argument("--repeats", type=int, default=1, help="times each seed is played warm per side (default 1)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--strategies", default="ev")
    p.add_argument("--skill", type=float, default=0.75)
    p.add_argument("--physics", action="append", default=[], metavar="KEY=VALUE",
                   help="a SimSettings field for this tree's side only (e.g. world=per_game)")
    p.add_argument("--no-first", action="store_true", help="skip the fresh processes' first games")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker is not None:
        _worker(json.loads(args.worker), args.players, args.strategies, args.skill)
        return 0
    if not args.revision:
        p.error("name the revision to compare with")
    seeds = _seeds(args.seeds)
    load_before = os.getloadavg()
    with _worktree(args.revision) as other, tempfile.TemporaryDirectory(prefix="compare-cache-") as caches:
        physics = _physics(args.physics)
        sides = [Side(f"{args.revision} ({_describe(other)})", other, Path(caches) / "a", args, {}),
                 Side(f"this tree ({_describe(ROOT)})" + (f", {', '.join(args.physics)}" if physics else ""), ROOT,
                      Path(caches) / "b", args, physics)]
        first: dict[str, list[dict]] = {s.name: [] for s in sides}
        if not args.no_first:
            for _ in ("cold", "set up"):  # the second fresh process finds what the first left in the cache folder
                for side in sides:
                    side.start()
                    first[side.name].append(side.play(seeds[0]))
                    side.stop()
        for side in sides:
            side.start()
            side.play(0)  # the warm-up game
        warm: dict[str, list[dict]] = {s.name: [] for s in sides}
        timed: dict[str, list[dict]] = {s.name: [] for s in sides}
        for repeat in range(args.repeats):
            for k, seed in enumerate(seeds):
                for side in (sides if (k + repeat) % 2 == 0 else sides[::-1]):
                    warm[side.name].append(side.play(seed))
                    print(f"  {side.name[:40]:40} seed {seed}: {warm[side.name][-1]['cpu']:.3f} CPU s", file=sys.stderr)
        for k, seed in enumerate(seeds):
            for side in (sides if k % 2 == 0 else sides[::-1]):
                timed[side.name].append(side.play(seed, timed=True))
        for side in sides:
            side.stop()
    load_after = os.getloadavg()
    print(_table(sides, seeds, args, warm, timed, first, load_before, load_after))
    return 0


def _table(sides, seeds, args, warm, timed, first, load_before, load_after) -> str:
    a, b = (s.name for s in sides)
    rows: list[tuple[str, str, str, str]] = []

    def row(label: str, fa: float, fb: float, fmt: str = "{:.3f}") -> None:
        rows.append((label, fmt.format(fa), fmt.format(fb), f"{fb / fa:.2f}" if fa else ""))

    cpu = {n: [g["cpu"] for g in warm[n]] for n in (a, b)}
    throws = {n: [g["throws"] for g in warm[n]] for n in (a, b)}
    row("warm game: median CPU s", statistics.median(cpu[a]), statistics.median(cpu[b]))
    row("warm game: min CPU s", min(cpu[a]), min(cpu[b]))
    row("throws per game (median)", statistics.median(throws[a]), statistics.median(throws[b]), "{:.1f}")
    row("CPU ms per throw (median over games)", statistics.median(1e3 * c / t for c, t in zip(cpu[a], throws[a])),
        statistics.median(1e3 * c / t for c, t in zip(cpu[b], throws[b])), "{:.2f}")
    share = {}
    for n in (a, b):
        inside = sum(g["pybullet_cpu"] for g in timed[n])
        total = sum(g["cpu"] - g["clock_cpu"] for g in timed[n])
        share[n] = inside / total
    row("share of a warm game's CPU inside pybullet's calls", share[a], share[b], "{:.1%}")
    row("share outside pybullet's calls (Python: players, rules, the roll's loop)", 1 - share[a], 1 - share[b],
        "{:.1%}")
    if first[a]:
        for k, what in enumerate(("empty cache folder", "caches left by a first process")):
            row(f"first game of a fresh process, {what}: game CPU s", first[a][k]["cpu"], first[b][k]["cpu"])
            row(f"first game of a fresh process, {what}: process CPU s (imports included)",
                first[a][k]["process_cpu"], first[b][k]["process_cpu"])
        warm_b = statistics.median(cpu[b])
        rows.append(("first game (set up) / warm median, this tree", "", f"{first[b][1]['cpu'] / warm_b:.2f}", ""))
    same = sum(x["digest"] == y["digest"] for x, y in zip(warm[a], warm[b]))
    rows.append(("identical records (same seed, both sides)", "", f"{same} of {len(warm[a])}", ""))
    ratios = [y["cpu"] / x["cpu"] for x, y in zip(warm[a], warm[b])]
    rows.append(("per-seed ratio of CPU, median [min, max]", "", "",
                 f"{statistics.median(ratios):.2f} [{min(ratios):.2f}, {max(ratios):.2f}]"))
    head = (f"{args.players} players, {args.strategies} at skill {args.skill:g}, default map and rules; seeds "
            f"{seeds[0]}-{seeds[-1]}, {args.repeats} warm game(s) each per side, interleaved; load average "
            f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; {os.cpu_count()} CPUs")
    if args.markdown:
        lines = [head, "", f"| measure | {a} | {b} | ratio |", "|---|---|---|---|"]
        lines += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} |" for r in rows]
        return "\n".join(lines)
    width = max(len(r[0]) for r in rows)
    lines = [head, f"A: {a}", f"B: {b}", f"{'':{width}}  {'A':>12}  {'B':>12}  {'B/A':>8}"]
    lines += [f"{r[0]:{width}}  {r[1]:>12}  {r[2]:>12}  {r[3]:>8}" for r in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
