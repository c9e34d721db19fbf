"""Do two studies' games give the same balance answers? Every measure of `somaliland.study.agreement`, cell by
cell, with both 95% intervals, their difference and whether it lies within the two intervals combined.

    python experiments/checks/agreement.py experiments/results/game-as-designed \
        experiments/results/game-as-designed-one-world [--markdown]

The check a change of the physics that alters what seeds play must pass before it becomes the default. The two
folders' cells are matched by their index, and must sweep the same cells (the same labels). For games of the two
folders that share their seeds, it also counts those that end alike (the same throws, winners and spread). Exit
status 0 when every measure with an interval agrees, 1 when one does not, 2 on an unreadable folder or folders
with no cell in common.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from somaliland.study.agreement import MEASURES as COMPARED
from somaliland.study.agreement import Agreement, cell_games, compare
from somaliland.study.errors import StudyError
from somaliland.study.store import read_table
from somaliland.tune.measures import MEASURES


def _cell(e, share: bool) -> str:
    if e.value != e.value:  # nan: too few games to tell
        return "–"
    if share:
        return f"{e.value:.1%} [{e.low:.1%}, {e.high:.1%}]"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]"


def _verdict(row: Agreement) -> str:
    return {True: "agrees", False: "DIFFERS", None: "–"}[row.agrees]


def rows_of(row: Agreement, share: bool) -> list[str]:
    """Return one table row's cells for a measure (a share in percent)."""
    scale = 100 if share else 1
    unit = " pp" if share else ""
    diff = f"{row.difference * scale:+.2f} ± {row.half_width * scale:.2f}{unit}"
    return [row.label, _cell(row.a, share), _cell(row.b, share), diff, _verdict(row)]


def alike(games_a, games_b, cell: int) -> str:
    """Return how many of a cell's games share their seeds in both folders, and how many of those end alike."""
    keys = ["game_seed"]
    ends = ["throws", "winners", "spread"]
    a = games_a[games_a.cell == cell].set_index(keys)[ends].astype(str)
    b = games_b[games_b.cell == cell].set_index(keys)[ends].astype(str)
    shared = a.index.intersection(b.index)
    same = int((a.loc[shared] == b.loc[shared]).all(axis=1).sum())
    return f"{len(shared):,} seeds in both, {same:,} of their games end alike (throws, winners and spread)"


def _plain(cells: list[str]) -> str:
    return f"  {cells[0]:<52}" + "".join(f"{c:<26}" for c in cells[1:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="results folder of today's physics")
    parser.add_argument("b", help="results folder of the physics to compare")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    try:
        games_a, games_b = read_table(Path(args.a), "games"), read_table(Path(args.b), "games")
        labels_a, labels_b = (dict(zip(g.cell, g.cell_label)) if not g.empty else {} for g in (games_a, games_b))
        cells = sorted(set(labels_a) & set(labels_b))
        if not cells:
            raise StudyError(args.b, "cells", f"a cell of index {', '.join(map(str, sorted(labels_a)))} as in {args.a}",
                             "no cell with games in common")
        for c in cells:
            if labels_a[c] != labels_b[c]:
                raise StudyError(args.b, f"cell {c}", f"the cell of {args.a} ({labels_a[c]})", labels_b[c])
        tables = [(int(c), compare(cell_games(args.a, int(c)), cell_games(args.b, int(c)))) for c in cells]
    except StudyError as error:
        print(f"agreement: {error}", file=sys.stderr)
        return 2
    told = differ = 0
    for cell, rows in tables:
        a_games, b_games = rows[0].a.games, rows[0].b.games
        print(f"\ncell {cell} ({labels_a[cell]}): A {Path(args.a).name}, {a_games:,} games; B {Path(args.b).name}, "
              f"{b_games:,} games; {alike(games_a, games_b, cell)}\n")
        head = ["measure", "A [95%]", "B [95%]", "B − A ± half-width", ""]
        if args.markdown:
            print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
        for (measure, _, _), row in zip(COMPARED, rows, strict=True):  # `compare` keeps the measures' order
            cells_ = rows_of(row, MEASURES[measure].share)
            print("| " + " | ".join(cells_) + " |" if args.markdown else _plain(cells_))
            told += row.agrees is not None
            differ += row.agrees is False
    print(f"\n{told - differ} of {told} measures agree ({differ} differ; a measure without an interval is not counted)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
