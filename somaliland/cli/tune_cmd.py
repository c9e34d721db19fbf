"""`somaliland tune`: tune a map and rules towards balance targets, with evidence (experiments/README.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from somaliland.cli import args as types


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "tune", help="tune map and rules values towards balance targets (resumable)",
        description="Search the knobs of a tuning file (values of the map and rules files, geometric operations "
                    "on map features) for candidates that meet its balance targets: Optuna proposes, each candidate "
                    "plays rungs of games on the study runner and stops early when its 95% intervals show it cannot "
                    "reach the front; the chosen candidate is validated on fresh seeds. Run the same command again "
                    "to resume after an interruption.")
    p.add_argument("tuning_file", type=Path, help="the tuning file (TOML), e.g. experiments/tune-small.toml")
    p.add_argument("--out", type=Path, default=None,
                   help="tuning folder (default: results/NAME beside the tuning file)")
    p.add_argument("--workers", type=types.positive_int, default=None,
                   help="local worker processes (default: one per CPU)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="Dask scheduler address (default: $DASK_SCHEDULER_ADDRESS; none: run locally)")
    p.add_argument("--worker-wait", type=types.positive_float, default=120.0, metavar="SECONDS",
                   help="on a cluster: how long to wait with no worker before stopping (default 120; the games "
                        "finished are kept, and the same command resumes)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(run=run_tune)


def run_tune(args: argparse.Namespace) -> int:
    """Run the tuning."""
    from somaliland.study.executors import executors_for
    from somaliland.study.spec import read_utf8
    from somaliland.tune import load_tuning
    from somaliland.tune.evaluate import KeptPool
    from somaliland.tune.run import run_tuning
    from somaliland.tune.measures import Estimate
    from somaliland.tune.report import fmt, goal_text, label

    tuning = load_tuning(args.tuning_file)
    out = args.out or args.tuning_file.resolve().parent / "results" / tuning.name
    run = executors_for(args.cluster, args.workers)
    pool = KeptPool(run.make) if run.client is None else None  # one local pool for the tuning's many small studies
    make = pool or run.make
    quiet = args.quiet or args.json
    if not quiet:
        print(f"tune {tuning.name}: {tuning.batches * tuning.batch} candidates in batches of {tuning.batch}, rungs "
              f"{', '.join(map(str, tuning.rungs))} games, on {run.where}; results in {out}", file=sys.stderr)
    try:
        text = read_utf8(args.tuning_file, "a readable tuning file", "tuning file")
        summary = run_tuning(tuning, text, out, make, run.workers, progress=not quiet, cluster_threads=run.watch,
                             worker_wait_s=args.worker_wait, say=_say)
    finally:
        if pool is not None:
            pool.close()
        run.close()
    result, v = summary.result, summary.validation
    data = {"tuning": tuning.name, "out": str(out), "trials": len(result.trials),
            "rejected": sum(1 for t in result.trials if t.rejected), "search_games": result.games_spent,
            "saved_games": result.games_saved, "validation_games": v.games + v.base_games if v else 0,
            "played_now": summary.played_now, "seconds": round(summary.seconds, 1), "chosen": summary.chosen,
            "values": result.trial(summary.chosen).values if summary.chosen is not None else None,
            "validation": {t.name: {"base": b.as_list()[:3], "chosen": c.as_list()[:3],
                                    "verdict": t.goal.verdict(c.value, c.low, c.high), "watched": not t.steers}
                           for t, b, c in zip(tuning.targets, v.base, v.chosen)} if v else None,
            "report": str(summary.report)}
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"{data['trials']} candidates ({data['rejected']} rejected); {result.games_spent} search games played, "
          f"{result.games_saved} saved by early stopping; {data['validation_games']} validation games "
          f"({summary.played_now} played in this run); {summary.seconds / 60:.1f} min in all.")
    if summary.chosen is not None:
        print(f"chosen: trial {summary.chosen}: {data['values']}")
        for t in tuning.targets:
            row = data["validation"][t.name]
            b, c = (Estimate(*row[k], games=0) for k in ("base", "chosen"))
            held = (t.goal.verdict(b.value, b.low, b.high), row["verdict"])
            print(f"  {label(t)}, goal {goal_text(t)}: base {fmt(t, b)}" + (f" {held[0]}" if held[0] else "")
                  + f", chosen {fmt(t, c)}" + (f" {held[1]}" if held[1] else ""))
    print(f"report: {summary.report}")
    return 0


def _say(text: str) -> None:
    """Print a note of the run (a change in the cluster, a repaired folder) on standard error."""
    print(f"somaliland tune: {text}", file=sys.stderr)
