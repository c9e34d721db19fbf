"""`somaliland dice`: the die lab. Throws one die many times and tests its faces for fairness."""

from __future__ import annotations

import argparse
import json
import sys

from somaliland.cli import args as types
from somaliland.units import GRAM, MM

MAX_THROWS = 1_000_000  # a bound on a typo: a million throws take hours of one core


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "dice", help="throw one die many times; face frequencies and a chi-squared test",
        description="Throw one die vigorously N times on an empty default board and report how often each "
                    "face came up, with 95% Wilson intervals and a chi-squared test against uniform.",
    )
    p.add_argument("--faces", type=types.int_list(6, "faces"), default=(1, 2, 3, 4, 5, 6),
                   help="six face values in the order +x,-x,+y,-y,+z,-z (default 1,2,3,4,5,6)")
    p.add_argument("--size", type=types.size_mm, default=(0.016, 0.016, 0.016),
                   help="edge length in mm: S for a cube or X,Y,Z (default 16)")
    p.add_argument("--mass", type=float, default=4.0, help="mass in grams (default 4)")
    p.add_argument("--throws", type=types.positive_int_at_most(MAX_THROWS), default=600,
                   help=f"number of throws (default 600, at most {MAX_THROWS:,})")
    p.add_argument("--seed", type=types.seed, default=0, help="random seed of the throws (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--plot", metavar="OUT.png", help="draw the frequencies with their intervals")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the die lab."""
    from physics import DieSpec, Scene, make_roller
    from physics.lab import face_stats
    from somaliland.boards import default_board
    from somaliland.seeding import make_rng

    if args.plot:
        types.figure_file("--plot", args.plot)  # before the throws, not after
    spec = DieSpec(faces=args.faces, size=args.size, mass=args.mass * GRAM)
    roller = make_roller()
    try:
        result = face_stats(roller, spec, args.throws, make_rng(args.seed), Scene(board=default_board()),
                            progress=_progress(args))
    finally:
        roller.close()
    if args.plot:
        plot(result, args.plot)
    if args.json:
        print(json.dumps({
            "faces": list(result.faces), "counts": list(result.counts), "throws": result.throws,
            "frequencies": [round(f, 6) for f in result.frequencies],
            "ci95": [[round(lo, 6), round(hi, 6)] for lo, hi in result.intervals],
            "chi2": round(result.chi2, 4), "p_value": result.p_value, "cocked": result.cocked,
            "capped": result.capped, "seed": args.seed, "size_mm": [s / MM for s in spec.size],
        }))
        return 0
    print(f"{result.throws} throws of a {'x'.join(f'{s / MM:g}' for s in spec.size)} mm die, seed {args.seed}")
    print(f"{'face':>6} {'value':>5} {'count':>6} {'freq':>7}   95% interval")
    for i, (name, value, count, f, (lo, hi)) in enumerate(zip(
            ("+x", "-x", "+y", "-y", "+z", "-z"), result.faces, result.counts, result.frequencies,
            result.intervals)):
        print(f"{name:>6} {value:>5} {count:>6} {f:>7.4f}   [{lo:.4f}, {hi:.4f}]")
    verdict = "consistent with uniform" if result.p_value > 0.01 else "NOT uniform at the 1% level"
    print(f"chi-squared {result.chi2:.2f} on 5 degrees of freedom, p = {result.p_value:.4g}: {verdict}")
    if result.cocked or result.capped:
        print(f"{result.cocked} throws ended cocked, {result.capped} hit the time cap")
    return 0


def _progress(args: argparse.Namespace):
    if args.json or not sys.stderr.isatty():
        return None

    def show(k: int) -> None:
        if k % 50 == 0 or k == args.throws:
            print(f"\r{k}/{args.throws} throws", end="" if k < args.throws else "\n", file=sys.stderr)

    return show


def plot(result, path: str) -> None:
    """Draw face frequencies with 95% intervals and the uniform line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=120)
    labels = [f"{n}\n({v} pip{'s' * (v != 1)})" for n, v in zip(("+x", "-x", "+y", "-y", "+z", "-z"), result.faces)]
    freqs = result.frequencies
    err = [[max(0.0, f - lo) for f, (lo, _) in zip(freqs, result.intervals)],
           [max(0.0, hi - f) for f, (_, hi) in zip(freqs, result.intervals)]]
    ax.bar(labels, freqs, yerr=err, capsize=4, color="#0072B2", alpha=0.85, label="observed, 95% Wilson interval")
    ax.axhline(1 / 6, color="k", ls="--", lw=1, label="uniform 1/6")
    ax.set_xlabel("face up at rest (die axis, pips)")
    ax.set_ylabel("share of throws")
    ax.set_ylim(bottom=0)
    ax.set_title(f"Face frequencies of {result.throws} throws (error bars: 95% intervals)\n"
                 f"chi-squared = {result.chi2:.2f} on 5 degrees of freedom, p = {result.p_value:.3g}", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
