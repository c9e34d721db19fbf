"""`somaliland bench`: performance benchmarks that measure and print, each beside its reference."""

from __future__ import annotations

import argparse
import json

from physics.settings import CHOICE_FIELDS
from somaliland.cli import args as types


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser("bench", help="performance benchmarks",
                            description="Performance benchmarks. Each measures and prints.")
    sub = p.add_subparsers(dest="bench", metavar="BENCH", required=True)
    roll = sub.add_parser(
        "roll", help="settled throws per second in the mid-game scene, beside the naive script",
        description="The mid-game scene: the default board, 24 resting dice spread as in "
                    "shared/bench/naive_roll.py, one die thrown at a time with that script's throw "
                    "distribution, at the physics settings games use. Also one die alone on the empty "
                    "board, and the naive script itself when present, all in one run.",
    )
    roll.add_argument("--throws", type=types.positive_int, default=300, help="throws per scene (default 300)")
    roll.add_argument("--naive-throws", type=types.positive_int, default=20,
                      help="throws for the naive script (default 20; it is ~100x slower)")
    roll.add_argument("--world", choices=CHOICE_FIELDS["world"], default=None,
                      help="the throws share one Bullet world, as a game's rolls do (per_game, the default), or "
                           "each builds a fresh one (per_roll)")
    roll.add_argument("--json", action="store_true", help="print one JSON object")
    roll.set_defaults(run=run_roll)
    game = sub.add_parser(
        "game", help="CPU seconds per 4-player game on the default map at full physics, and where they go",
        description="Play whole 4-player games (strategy ev, skill 0.75, default rules and map, records "
                    "kept in memory with paths) and report the median CPU seconds per game, throws per game, "
                    "and a profile summary of one game: time in physics, AI aiming, rules, and the loop.",
    )
    game.add_argument("--games", type=types.positive_int, default=5, help="games to time (default 5)")
    game.add_argument("--seed", type=types.seed, default=1, help="seed of the first game (default 1)")
    game.add_argument("--strategies", default="ev", help="strategies, as for play (default ev)")
    game.add_argument("--rate-hz", type=types.positive_int, default=None,
                      help="physics steps per second instead of the default (a multiple of 60), to measure what "
                           "another setting would cost; games then play differently")
    game.add_argument("--solver-iterations", type=types.positive_int, default=None,
                      help="Bullet solver iterations instead of the default")
    game.add_argument("--world", choices=CHOICE_FIELDS["world"], default=None,
                      help="one Bullet world per game (the default) or a fresh one per roll, as a study's "
                           "[physics] table would set it; per roll, some games play differently")
    game.add_argument("--json", action="store_true", help="print one JSON object")
    game.set_defaults(run=run_game)
    fid = sub.add_parser(
        "fidelity", help="what a physics step rate costs in accuracy and saves in time, rates side by side",
        description="For each step rate: the deepest impact penetration of any die into the board over the "
                    "mid-game throws (sampled every step), the rebound of flat drops against e^2 (1.0 is exact), "
                    "and steps and milliseconds per throw, all in one run. The physics validation tests hold the "
                    "default rate to under 1 mm and within 10% of e^2.",
    )
    fid.add_argument("--rates", default="960,720,480", help="step rates in Hz, multiples of 60 (default 960,720,480)")
    fid.add_argument("--throws", type=types.positive_int, default=150, help="mid-game throws per rate (default 150)")
    fid.add_argument("--seed", type=types.seed, default=9, help="seed of the throws (default 9)")
    fid.add_argument("--json", action="store_true", help="print one JSON object")
    fid.set_defaults(run=run_fidelity)
    study = sub.add_parser(
        "study", help="games per hour through the study runner with 1 and 2 workers, and the scaling ratio",
        description="Run a small study (default map, 4 players, 4 rounds, strategy ev, skill 0.75) through "
                    "`study run`'s machinery (worker processes, journal, Parquet) with 1 worker, then twice the "
                    "games with 2 workers, and report games per hour and the scaling ratio (target >= 0.8 of "
                    "linear; a 10,000-game study in <= 1.5 h).",
    )
    study.add_argument("--games", type=types.positive_int, default=8,
                       help="games for 1 worker; 2 workers play twice as many (default 8)")
    study.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="players (default 4)")
    study.add_argument("--rounds", type=types.positive_int, default=4, help="rounds (default 4)")
    study.add_argument("--strategy", default="ev", help="every seat's strategy (default ev)")
    study.add_argument("--rate-hz", type=types.positive_int, default=None,
                       help="physics steps per second instead of the default (a multiple of 60), as a study's "
                            "[physics] table would set it; games then play differently")
    study.add_argument("--solver-iterations", type=types.positive_int, default=None,
                       help="Bullet solver iterations instead of the default")
    study.add_argument("--world", choices=CHOICE_FIELDS["world"], default=None,
                       help="one Bullet world per game (the default) or a fresh one per roll, as a study's "
                            "[physics] table would set it; per roll, some games play differently")
    study.add_argument("--json", action="store_true", help="print one JSON object")
    study.set_defaults(run=run_study_bench)


def run_roll(args: argparse.Namespace) -> int:
    """Run the roll benchmark."""
    from physics import DieSpec, SimSettings, make_roller
    from somaliland.bench import measure, midgame_scene, midgame_throws, run_naive
    from somaliland.boards import default_board

    spec = DieSpec()
    board = default_board()
    scene = midgame_scene(board, spec)
    alone = midgame_scene(board, spec, resting=0)
    throws = midgame_throws(spec, args.throws)
    settings = SimSettings(**_physics_overrides(args))
    roller = make_roller(settings)
    roller.new_game(board)  # the throws roll as a game's do: in one world kept for them (the default) or fresh each
    try:
        measure(roller, scene, throws[:10])  # warm up
        # interleave halves so machine noise hits both scenes alike
        half = len(throws) // 2 or 1
        parts = [measure(roller, scene, throws[:half]), measure(roller, alone, throws[:half]),
                 measure(roller, scene, throws[half:]), measure(roller, alone, throws[half:])]
    finally:
        roller.close()
    mid = _sum(parts[0::2])
    solo = _sum(parts[1::2])
    naive = run_naive(args.naive_throws)
    out = {
        "throws_per_s": round(mid.throws_per_s, 2), "steps_per_throw": round(mid.steps_per_throw, 1),
        "alone_throws_per_s": round(solo.throws_per_s, 2), "alone_steps_per_throw": round(solo.steps_per_throw, 1),
        "naive_throws_per_s": naive["throws_per_s"] if naive else None,
        "naive_steps_per_throw": naive["steps_per_throw"] if naive else None,
        "ratio_vs_naive": round(mid.throws_per_s / naive["throws_per_s"], 1) if naive else None,
        "ratio_vs_alone": round(mid.throws_per_s / solo.throws_per_s, 3),
        "throws": mid.throws, "rate_hz": settings.rate_hz, "world": settings.world,
    }
    if args.json:
        print(json.dumps(out))
        return 0
    where = "one world kept for them all, as a game's" if settings.shares_world else "a fresh world for each"
    print(f"throws rolled in {where} ({settings.rate_hz} Hz)")
    print(f"mid-game scene (24 resting dice): {out['throws_per_s']:8.1f} throws/s  {out['steps_per_throw']:7.1f} steps/throw")
    print(f"one die alone on the empty board: {out['alone_throws_per_s']:8.1f} throws/s  {out['alone_steps_per_throw']:7.1f} steps/throw")
    if naive:
        print(f"naive reference script:           {out['naive_throws_per_s']:8.2f} throws/s  {out['naive_steps_per_throw']:7.1f} steps/throw")
        print(f"mid-game vs naive: {out['ratio_vs_naive']}x    mid-game vs alone: {out['ratio_vs_alone']}")
    else:
        print("naive reference script not found (../shared/bench/naive_roll.py); no ratio")
        print(f"mid-game vs alone: {out['ratio_vs_alone']}")
    return 0


def _sum(parts):
    from somaliland.bench import RollRate

    return RollRate(sum(p.throws for p in parts), sum(p.seconds for p in parts), sum(p.steps for p in parts))


def _benchmark_table(strategies: list[str]):
    """Return the map, rules and seats of the benchmarks' games: the default map and rules, 4 players of
    these strategies at skill 0.75."""
    from somaliland.engine.setup import DEFAULT_MAP, seats_from
    from somaliland.map import load
    from somaliland.players.hand import ThrowSkill
    from somaliland.rules import RulesConfig

    return load(DEFAULT_MAP), RulesConfig(players=4), seats_from(strategies, 4, ThrowSkill.level(0.75))


def run_game(args: argparse.Namespace) -> int:
    """Run the game benchmark."""
    import cProfile
    import pstats
    import statistics
    import time

    from physics import SimSettings, make_roller
    from physics.world import step_clock
    from somaliland.engine.loop import play_game
    from somaliland.engine.setup import GameSetup

    world, rules, seats = _benchmark_table(args.strategies.split(","))
    settings = SimSettings(**_physics_overrides(args))
    cpu, throws = [], []
    with make_roller(settings) as roller:  # one for all the games: each game's setup says these settings
        t0 = time.process_time()  # a warm-up game, not counted: a process's first game also surveys the map
        play_game(GameSetup(seed=args.seed + args.games, seats=seats, rules=rules, physics=settings), world, roller)
        warm_up = time.process_time() - t0
        for k in range(args.games):
            setup = GameSetup(seed=args.seed + k, seats=seats, rules=rules, physics=settings)
            t0 = time.process_time()
            result = play_game(setup, world, roller)
            cpu.append(time.process_time() - t0)
            throws.append(result.throws)
        profile = cProfile.Profile()
        profile.enable()
        play_game(GameSetup(seed=args.seed, seats=seats, rules=rules, physics=settings), world, roller)
        profile.disable()
        with step_clock() as clock:  # the first game again, Bullet's steps timed: the floor at these settings
            t0 = time.process_time()
            play_game(GameSetup(seed=args.seed, seats=seats, rules=rules, physics=settings), world, roller)
            clocked = time.process_time() - t0
    areas = _profile_areas(pstats.Stats(profile))
    out = {"games": args.games, "median_cpu_s": round(statistics.median(cpu), 3),
           "min_cpu_s": round(min(cpu), 3), "max_cpu_s": round(max(cpu), 3),
           "median_throws": statistics.median(throws), "warm_up_cpu_s": round(warm_up, 3), "rate_hz": settings.rate_hz,
           "solver_iterations": settings.solver_iterations, "world": settings.world,
           "profile_share": areas,
           "stepping": {"game_cpu_s": round(clocked, 3), "step_cpu_s": round(clock.seconds, 3), "steps": clock.steps,
                        "us_per_step": round(1e6 * clock.seconds / max(clock.steps, 1), 2)}}
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.games} four-player games on {world.name}: median {out['median_cpu_s']} CPU s per game "
          f"(min {out['min_cpu_s']}, max {out['max_cpu_s']}), "
          f"median {out['median_throws']} throws; after a warm-up game of {out['warm_up_cpu_s']} CPU s (a process's first "
          f"game also surveys the map for its players)")
    if settings != SimSettings():
        print(_physics_note(settings))
    st = out["stepping"]
    print(f"Bullet's stepping alone (seed {args.seed} again, its steps timed): {st['step_cpu_s']} of the game's "
          f"{st['game_cpu_s']} CPU s ({st['steps']} steps, {st['us_per_step']} us a step): at these physics settings "
          f"no game of these throws costs less on this machine")
    print("where one game's time goes:")
    for area, share in areas.items():
        print(f"  {area:<42} {share:6.1%}")
    return 0


def run_fidelity(args: argparse.Namespace) -> int:
    """Run the fidelity benchmark."""
    from physics import SimSettings
    from somaliland.bench import fidelity
    from somaliland.errors import UsageError

    try:
        rates = [int(r) for r in args.rates.split(",")]
    except ValueError:
        raise UsageError(f"--rates {args.rates!r}: expected step rates in Hz separated by commas, "
                         f"e.g. 960,480") from None
    for rate in rates:
        SimSettings(rate_hz=rate)  # a rate the path samples do not divide is refused here, before any work
    found = [fidelity(rate, args.throws, args.seed) for rate in rates]
    default = SimSettings().rate_hz
    if args.json:
        print(json.dumps({"throws": args.throws, "seed": args.seed, "default_rate_hz": default, "rates": [
            {"rate_hz": f.rate_hz, "penetration_mm": round(f.penetration_mm, 3),
             "bounce_ratios": [{"restitution": e, "height_m": h, "ratio": round(r, 4)} for e, h, r in f.bounce_ratios],
             "steps_per_throw": round(f.steps_per_throw, 1), "ms_per_throw": round(f.ms_per_throw, 2)}
            for f in found]}))
        return 0
    print(f"physics fidelity by step rate ({args.throws} mid-game throws, seed {args.seed}; default {default} Hz):")
    for f in found:
        bounces = ", ".join(f"{r:.3f}" for _, _, r in f.bounce_ratios)
        print(f"  {f.rate_hz:5d} Hz: deepest penetration {f.penetration_mm:5.2f} mm (test: < 1 mm); rebound / e^2 h "
              f"{bounces} (test: 0.90-1.10); {f.steps_per_throw:5.0f} steps and {f.ms_per_throw:6.2f} ms per throw")
    print("  (bounces: e = 0.5 then 0.7, each from 3 then 10 cm; sampled at every step, so slower than a game's roll)")
    return 0


def _physics_overrides(args: argparse.Namespace) -> dict[str, int | str]:
    """Return the SimSettings fields `--rate-hz`, `--solver-iterations` and `--world` set (empty: the defaults), of
    those the benchmark takes."""
    return {name: value for name in ("rate_hz", "solver_iterations", "world")
            if (value := getattr(args, name, None)) is not None}


def _physics_note(settings) -> str:
    """Return the line that says a benchmark ran at physics settings other than the games' defaults."""
    from physics import SimSettings

    defaults = SimSettings()
    return (f"  physics at {settings.rate_hz} Hz, {settings.solver_iterations} solver iterations, one world "
            f"{settings.world.replace('_', ' ')} (defaults {defaults.rate_hz} Hz, "
            f"{defaults.solver_iterations}, {defaults.world.replace('_', ' ')}): these games "
            f"play differently")


def run_study_bench(args: argparse.Namespace) -> int:
    """Run the study throughput benchmark."""
    import os

    from physics import SimSettings
    from somaliland.study.bench import measure

    physics = _physics_overrides(args)
    settings = SimSettings(**physics)  # refuses an impossible setting before any work
    load = os.getloadavg()[0]
    one = measure(1, args.games, args.players, args.rounds, args.strategy, physics=physics)
    two = measure(2, 2 * args.games, args.players, args.rounds, args.strategy, physics=physics)
    ratio = two.steady_games_per_hour / (2 * one.steady_games_per_hour)
    out = {"games_1": one.games, "games_per_hour_1": round(one.steady_games_per_hour, 1),
           "games_per_hour_1_with_startup": round(one.games_per_hour, 1), "games_2": two.games,
           "games_per_hour_2": round(two.steady_games_per_hour, 1),
           "games_per_hour_2_with_startup": round(two.games_per_hour, 1), "scaling": round(ratio, 3),
           "hours_for_10000_games": round(10_000 / two.steady_games_per_hour, 2), "target_scaling": 0.8,
           "target_hours_for_10000": 1.5, "cpus": os.cpu_count(), "load_average_before": round(load, 2),
           "rate_hz": settings.rate_hz, "solver_iterations": settings.solver_iterations, "world": settings.world}
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"study runner, {args.players} players, {args.rounds} rounds, strategy {args.strategy}:")
    if settings != SimSettings():
        print(_physics_note(settings))
    for k, t in ((1, one), (2, two)):
        print(f"  {k} worker{'s' if k > 1 else ' '}: {t.steady_games_per_hour:8.1f} games/hour once warm "
              f"({t.games_per_hour:.1f} with start-up; {t.games} games in {t.seconds:.1f} s)")
    print(f"  scaling 1 -> 2 workers: {ratio:.2f} of linear (target 0.8); a 10,000-game study: "
          f"{out['hours_for_10000_games']} h at 2 workers (target 1.5 h)")
    print(f"  load average before the run: {load:.2f} on {os.cpu_count()} CPUs (other work on the machine skews this)")
    return 0


_AREAS = (  # (label, path fragment): a function's own time is charged to the first fragment it matches
    # Bullet's stepping is called through a C partial, which the profiler does not see: its time
    # counts as the roll's own
    ("physics rolls (Bullet stepping included)", "/physics/"),
    ("other pybullet calls", "pybullet"),
    ("AI players", "/somaliland/players/"),
    ("rules", "/somaliland/rules/"),
    ("map geometry (shapely)", "shapely"),
    ("game loop and record", "/somaliland/engine/"),
)


def _profile_areas(stats) -> dict[str, float]:
    """Return the share of a profile's own time per area of the code."""
    totals: dict[str, float] = {label: 0.0 for label, _ in _AREAS}
    totals["other (numpy, scipy, python)"] = 0.0
    grand = 0.0
    for (filename, _, function), (_, _, own, _, _) in stats.stats.items():
        grand += own
        where = f"{filename}:{function}"
        for label, fragment in _AREAS:
            if fragment in where:
                totals[label] += own
                break
        else:
            totals["other (numpy, scipy, python)"] += own
    return {label: round(t / grand, 4) for label, t in totals.items() if grand}
