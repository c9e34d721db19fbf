"""The game-as-designed targets (issue 15) of a study's results, cell by cell, with 95% intervals.

    python experiments/checks/targets.py experiments/results/game-as-designed

For each cell: half-value ships seized (D15: none); the full-value routes' share of planned contracts
(25-75%); the share of ev-planned contracts fulfilled (>= 70%); every strategy's mean final score (> 0);
the share of turns with a full-value ship at sea in which the pirates seize one (>= 50%, R13); the value
where the fitted net-points lines of the two routes cross (R8). Then the net points of a sailed contract,
full-value route minus half-value route, by the reports' contract value bands, with 95% intervals (a
bootstrap over games: `somaliland.study.economics.band_gaps`, as `study report` compares them), for
the study's contracts pooled and for the contracts of players who never choose (bold: always full
value; cautious: always half), whose routes are not chosen by the value at stake.
The measures are `somaliland.tune.measures`' own (what `somaliland tune` aims at).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from somaliland.study.agreement import cell_games
from somaliland.study.economics import MIN_PER_SIDE, band_gaps
from somaliland.study.frames import route_table
from somaliland.study.store import read_table
from somaliland.tune.measures import Estimate, Games, estimate


def interval(e: Estimate, share: bool) -> str:
    """Return one estimate as 'value [low, high]', in percent for a share."""
    if share:
        return f"{e.value:.1%} [{e.low:.1%}, {e.high:.1%}]"
    return f"{e.value:+.1f} [{e.low:+.1f}, {e.high:+.1f}]"


def net_by_band(contracts: pd.DataFrame) -> list[str]:
    """Return lines: full minus half net points per sailed contract in each value band, with 95% intervals."""
    sailed = route_table(contracts)
    lines = []
    for band, n_full, n_half, gap in band_gaps(sailed):
        if gap is None:
            lines.append(f"    {band}: too few contracts (full {n_full}, half {n_half}; {MIN_PER_SIDE} each needed)")
            continue
        diff, low, high = gap
        rows = sailed[sailed.band == band]
        full, half = rows[rows.full_route].net, rows[~rows.full_route].net
        lines.append(f"    {band}: {diff:+.1f} [{low:+.1f}, {high:+.1f}] "
                     f"(full {full.mean():.1f} net over {n_full}, half {half.mean():.1f} over {n_half})")
    return lines


def main(folder: str) -> None:
    """Print the targets of every cell of a results folder."""
    root = Path(folder)
    contracts = read_table(root, "contracts")
    for cell in sorted(contracts.cell.unique()):
        games = cell_games(root, int(cell))
        c, k = games.contracts, games.captures
        label = games.games.cell_label.iloc[0]
        print(f"cell {cell} ({label}): {len(games.games)} games, {len(c)} contracts planned")
        print(f"  half-value ships seized: {int((~k.full_route).sum())} of {len(k)} seizures (D15: none)")
        print(f"  full-value share of planned contracts: "
              f"{interval(estimate('full_route_share', games, {}), True)} (25-75%)")
        ev = Games(games.players, c[c.strategy == "ev"], k, games.games)
        if len(ev.contracts):
            print(f"  ev-planned contracts fulfilled: {interval(estimate('fulfilment', ev, {}), True)} (>= 70%)")
        for strategy in sorted(games.players.strategy.unique()):
            score = estimate("mean_score", games, {"strategy": strategy})
            print(f"  {strategy} mean final score: {interval(score, False)} points (> 0)")
        print(f"  turns with a full-value ship at sea when pirates seized one: "
              f"{interval(estimate('seizure_share', games, {}), True)} (>= 50%)")
        print(f"  crossover value (fitted lines): {interval(estimate('crossover_value', games, {}), False)}")
        print("  net points per sailed contract, full-value minus half-value route, by value:")
        print("\n".join(net_by_band(c)))
        forced = c[c.strategy.isin(["bold", "cautious"])]
        if forced.strategy.nunique() == 2:
            print("  the same, bold (always full value) against cautious (always half value) only:")
            print("\n".join(net_by_band(forced)))


if __name__ == "__main__":
    main(sys.argv[1])
