"""`somaliland study`: run a Monte Carlo balance study, report on it, replay any one of its games, compare two."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from somaliland.cli import args as types


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser("study", help="Monte Carlo balance studies: run, report, replay, compare",
                            description="Balance studies defined in TOML files (experiments/README.md).")
    sub = p.add_subparsers(dest="study", metavar="ACTION", required=True)
    run = sub.add_parser(
        "run", help="play a study's games (resumable) into a results folder",
        description="Play every game of a study not yet in the results folder: on local worker processes by "
                    "default, on a Dask cluster with --cluster or $DASK_SCHEDULER_ADDRESS. Run the same command "
                    "again to continue an interrupted or extended study.",
    )
    run.add_argument("study_file", type=Path, help="the study file (TOML), e.g. experiments/seat-advantage.toml")
    run.add_argument("--out", type=Path, default=None,
                     help="results folder (default: results/NAME beside the study file)")
    run.add_argument("--workers", type=types.positive_int, default=None,
                     help="local worker processes (default: one per CPU)")
    run.add_argument("--cluster", default=None, metavar="ADDRESS",
                     help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (default: $DASK_SCHEDULER_ADDRESS; "
                          "none: run locally)")
    run.add_argument("--games", type=types.positive_int, default=None,
                     help="override games_per_cell (e.g. a pilot; seeds stay those of the full study)")
    run.add_argument("--chunk", type=types.positive_int, default=100, help="games per Parquet chunk (default 100)")
    run.add_argument("--worker-wait", type=types.positive_float, default=120.0, metavar="SECONDS",
                     help="on a cluster: how long to wait with no worker before stopping (default 120; the games "
                          "finished are kept)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--json", action="store_true", help="print the run summary as one JSON object")
    run.set_defaults(run=run_study_cmd)
    report = sub.add_parser("report", help="write a Markdown report with figures from a results folder",
                            description="Write a Markdown report (conclusions first, with confidence) and its "
                                        "PNG figures from a study's results folder.")
    report.add_argument("results", type=Path, help="the results folder of `study run`")
    report.add_argument("-o", "--output", type=Path, default=None,
                        help="the Markdown file (default: RESULTS/report.md); figures go beside it")
    report.add_argument("--title", default=None, help="report title (default: from the study)")
    report.set_defaults(run=run_report)
    replay = sub.add_parser("replay", help="replay one game of a study, with its full record",
                            description="Replay game GAME of cell CELL of a study from its results folder, print "
                                        "what happened and check it against the stored result.")
    replay.add_argument("results", type=Path, help="the results folder of `study run`")
    replay.add_argument("--cell", type=int, required=True, help="the game's cell (column `cell`)")
    replay.add_argument("--game", type=int, required=True, help="the game's number in its cell (column `game`)")
    replay.add_argument("--record", type=Path, default=None, help="write the game record (JSON Lines) here")
    replay.add_argument("--study-dir", type=Path, default=None, metavar="DIR",
                        help="the folder of the study file that made the results, where its relative map paths are "
                             "read from (default: where the results' manifest puts it; give it for a results folder "
                             "moved or copied away from its study)")
    replay.set_defaults(run=run_replay)
    compare = sub.add_parser(
        "compare", help="compare two studies' cells game by game on the seeds they share",
        description="Pair the games of cell CELL of results A with those of cell CELL of results B by their seeds "
                    "(a copy of a study with one thing changed and the same master seed plays the same seeds) and "
                    "print, per group of seats, each measure on both sides and their paired difference with its "
                    "95% interval (Markdown).")
    compare.add_argument("results_a", type=Path, metavar="A", help="a results folder of `study run`")
    compare.add_argument("results_b", type=Path, metavar="B", help="another results folder, of the same master seed")
    compare.add_argument("--cell", type=int, default=0,
                         help="the cell compared (column `cell`; default 0): a seed depends on the cell's index, so "
                              "only cells of the same index pair")
    compare.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    compare.set_defaults(run=run_compare)


def run_study_cmd(args: argparse.Namespace) -> int:
    """Run the study."""
    from dataclasses import replace

    from somaliland.study import load_study
    from somaliland.study.executors import executors_for
    from somaliland.study.spec import read_utf8
    from somaliland.study.runner import run_study

    study = load_study(args.study_file)
    if args.games:
        study = replace(study, games_per_cell=args.games)
    out = args.out or args.study_file.resolve().parent / "results" / study.name
    run = executors_for(args.cluster, args.workers)
    if not args.quiet and not args.json:
        print(f"study {study.name}: {len(study.cells)} cells x {study.games_per_cell} games = {study.total_games} "
              f"games on {run.where}; results in {out}", file=sys.stderr)
    try:
        text = read_utf8(args.study_file, "a readable study file", "study file")
        summary = run_study(study, text, out, run.make, run.workers, progress=not (args.quiet or args.json),
                            chunk_games=args.chunk, cluster_threads=run.watch, worker_wait_s=args.worker_wait, say=_say)
    finally:
        run.close()
    data = {"study": study.name, "out": str(out), "total": summary.total, "done_before": summary.done_before,
            "played": summary.played, "errors": summary.errors, "retried": summary.retried,
            "extra": summary.extra, "notes": list(summary.notes),
            "seconds": round(summary.seconds, 2), "cpu_s": round(summary.cpu_s, 2),
            "games_per_hour": round(summary.games_per_hour, 1) if summary.played else None}
    if args.json:
        print(json.dumps(data))
        return 0
    extra = (f" (and {summary.extra} games beyond games_per_cell = {study.games_per_cell}, kept from a run that "
             f"planned more; reports use them too)" if summary.extra else "")
    print(f"{summary.played} games played ({summary.errors} errors, {summary.retried} retried after a worker died) "
          f"in {summary.seconds:.0f} s; {summary.done_before + summary.played} of {summary.total} done{extra}. "
          f"Results: {out}")
    if summary.errors:
        print(f"errors, with their seeds: pandas.read_parquet('{out}/errors')")
    return 0


def _say(text: str) -> None:
    """Print a note of the run (a repair, a change in the cluster) on standard error, between progress bars."""
    print(f"somaliland study run: {text}", file=sys.stderr)


def run_report(args: argparse.Namespace) -> int:
    """Write the report."""
    from somaliland.study import StudyError
    from somaliland.study.report import write_report

    output = args.output or args.results / "report.md"
    try:
        figures = write_report(args.results, output, title=args.title)
    except OSError as error:  # the report or a figure cannot be written there
        raise StudyError(str(error.filename or output), "(write)", "a writable report file and figures folder",
                         error.strerror or str(error)) from None
    print(f"report: {output} ({len(figures)} figures)")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Replay one game of a study: with the study's setup, or, when the stored result differs, in the other kind of
    Bullet world (the results of studies played before one world per game was the default)."""
    from dataclasses import replace

    from physics.settings import CHOICE_FIELDS
    from somaliland.engine.account import account
    from somaliland.engine.loop import play_game
    from somaliland.engine.record import RecordWriter
    from somaliland.map import load
    from somaliland.study import StudyError, game_seed, read_table
    from somaliland.study.store import study_of
    from somaliland.study.worker import init_worker, policy_factory

    study, _ = study_of(args.results, study_dir=args.study_dir)
    if not 0 <= args.cell < len(study.cells):
        raise StudyError(str(args.results), "--cell", f"a cell from 0 to {len(study.cells) - 1}", args.cell)
    if args.game < 0:
        raise StudyError(str(args.results), "--game", "a non-negative game number", args.game)
    cell = study.cells[args.cell]
    seed = game_seed(study.master_seed, cell.index, args.game)
    setup = cell.setup(seed, record_paths=True)
    stored = read_table(args.results, "players")  # a damaged results folder is reported before the game is played
    init_worker(list(sys.path))
    world = load(cell.map_path)
    writer = RecordWriter(args.record) if args.record else None  # an unwritable path is refused before any game
    try:
        result = play_game(setup, world, None, policy_factory(study.policy_factory))
        if not stored.empty:
            stored = stored[(stored.cell == cell.index) & (stored.game == args.game)].sort_values("seat")
        wanted = None if stored.empty else [float(p) for p in stored.points]
        same, other = _final_points(result) == wanted, None
        if wanted is not None and not same:  # played in the other kind of Bullet world? (the default changed once)
            other = next(w for w in CHOICE_FIELDS["world"] if w != setup.physics.world)
            again = play_game(replace(setup, physics=replace(setup.physics, world=other)), world, None,
                              policy_factory(study.policy_factory))
            if _final_points(again) == wanted:
                result, same = again, True
            else:
                other = None
        if writer is not None:  # the record of the game that matches, or of the study's own setup
            for line in result.events:
                writer(line)
    finally:
        if writer is not None:
            writer.close()
    print(f"study {study.name}, cell {cell.index} ({cell.label()}), game {args.game}: seed {seed}")
    print("\n".join(account(result.events)))
    if stored.empty:
        print("\nnot in the results yet (or it raised): nothing to compare")
    else:
        print(f"\nstored result: points {list(stored.points)} -> {'the replay matches it' if same else 'DIFFERS'}")
        if other is not None:
            print(f"played with physics world = \"{other}\" (a fresh Bullet world per roll was the "
                  f"default before one world per game), as the stored game was: its record says so")
        if not same:
            print(_version_hint(args.results, cell.index, args.game), file=sys.stderr)
            return 1
    if args.record:
        print(f"Record: {args.record} ({len(result.events)} lines)")
    return 0


def _final_points(result) -> list[float]:
    """Return a played game's final points, seat by seat."""
    return [float(row["points"]) for row in sorted(result.events[-1]["table"], key=lambda r: r["seat"])]


def run_compare(args: argparse.Namespace) -> int:
    """Compare two studies' cells game by game."""
    from somaliland.study import StudyError, read_table
    from somaliland.study.compare import compare_rows, compare_table
    from somaliland.study.store import study_of

    sides = []
    for results in (args.results_a, args.results_b):
        study, _ = study_of(results, maps=False)
        if not 0 <= args.cell < len(study.cells):
            raise StudyError(str(results), "--cell", f"a cell of its study, 0 to {len(study.cells) - 1}", args.cell)
        cell = study.cells[args.cell]
        players = read_table(results, "players")
        rows = players[players.cell == cell.index] if not players.empty else players
        if rows.empty:
            raise StudyError(str(results), "--cell", "a cell with games played", args.cell,
                             f"run `somaliland study run` on {study.source} first")
        setups = {i: _setup(seat) for i, seat in enumerate(cell.seats)}
        sides.append((rows, setups, study, f"{results}, cell {cell.index}: {cell.label()}"))
    (a, setups_a, study_a, name_a), (b, setups_b, study_b, name_b) = sides
    if len(setups_a) != len(setups_b):
        raise StudyError(f"{args.results_a} and {args.results_b}", "players",
                         "cells of as many players (a seat's win rate and fair share depend on it)",
                         f"{len(setups_a)} and {len(setups_b)}")
    result = compare_rows(a, b, setups_a, setups_b)
    if not result["games"]:
        why = (f"their master seeds differ ({study_a.master_seed} and {study_b.master_seed}), and a game's seed "
               f"comes from it" if study_a.master_seed != study_b.master_seed else
               "the same master seed, yet no game seed in common (games of the cell not yet played on one side)")
        raise StudyError(f"{args.results_a} and {args.results_b}", f"cell {args.cell}", "games on the same seeds",
                         "none shared", why)
    if args.results_a.resolve() == args.results_b.resolve():
        print("note: A and B are the same cell of the same results: every difference is 0", file=sys.stderr)
    if args.json:
        print(json.dumps(_plain({"a": name_a, "b": name_b, **result}), allow_nan=False))
        return 0
    print("\n".join(compare_table(result, name_a, name_b)))
    return 0


def _setup(seat) -> str:
    """Return a seat's setup as words: strategy, throw skill and any parameters."""
    params = "".join(f", {name}={value:g}" if isinstance(value, float) else f", {name}={value}"
                     for name, value in seat.params)
    return f"{seat.strategy} (skill {seat.skill:g}{params})"


def _plain(value):
    """Return a value JSON can hold: numpy numbers as Python's, tuples as lists, an undefined number (NaN) as null."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    value = value.item() if hasattr(value, "item") else value
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _version_hint(results: Path, cell: int, game: int) -> str:
    """Say why the stored game may replay differently: another simulator source, or another machine."""
    from somaliland.machine import parting_note
    from somaliland.study import read_table
    from somaliland.study.worker import code_version

    games = read_table(results, "games")
    row = games[(games.cell == cell) & (games.game == game)] if not games.empty else games
    stored = str(row.code.iloc[0]) if len(row) and "code" in row else None
    here = code_version()
    if stored and stored != here:
        return (f"note: this game was played by simulator source {stored}, and this is {here}: a changed simulator "
                f"plays the same seed differently. Replay it with the version that played it (the study's README "
                f"names the commit).")
    machine = row.machine.iloc[0] if len(row) and "machine" in row else None
    note = parting_note(machine if isinstance(machine, str) else None)
    if note is not None:
        return f"note: the same simulator source ({here}) played it; {note}."
    return (f"note: the same simulator source ({here}) on the same kind of machine played it and gives a different "
            f"result: a reproducibility bug; please report it with the study folder and this command.")
