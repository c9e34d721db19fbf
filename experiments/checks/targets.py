"""The game-as-designed targets (issue 15) of a study's results, cell by cell, with 95% intervals.

    python experiments/checks/targets.py experiments/results/game-as-designed

For each cell: half-value ships seized (D15: none); the full-value routes' share of planned contracts
(25-75%); the share of ev-planned contracts fulfilled (>= 70%); every strategy's mean final score (> 0);
the share of turns with a full-value ship at sea in which the pirates seize one (>= 50%, R13); the value
where the fitted net-points lines of the two routes cross (R8). Then the net points of a sailed contract,
full-value route minus half-value route, by contract value band, with 95% intervals (normal, Welch), for
the study's contracts pooled and for the contracts of players who never choose (bold: always full
value; cautious: always half), whose routes are not chosen by the value at stake.
The measures are `somaliland.tune.measures`' own (what `somaliland tune` aims at).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd

from somaliland.tune.measures import Games, estimate

BANDS = [(30, 38), (40, 46), (48, 54), (56, 64)]


def cell_games(folder: Path, cell: int) -> Games:
    """Return the finished games of one cell as the tuner's `Games`."""
    tables = {name: pd.read_parquet(folder / name) for name in ("players", "contracts", "captures", "games")}
    return Games(**{name: frame[frame.cell == cell] for name, frame in tables.items()})


def interval(text: str, e) -> str:
    """Return one estimate as 'value [low, high]', in percent for shares."""
    if "%" in text:
        return f"{e.value:.1%} [{e.low:.1%}, {e.high:.1%}]"
    return f"{e.value:+.1f} [{e.low:+.1f}, {e.high:+.1f}]"


def net_by_band(contracts: pd.DataFrame) -> list[str]:
    """Return lines: full minus half net points per sailed contract in each value band, with 95% intervals."""
    sailed = contracts[contracts.ships > 0].assign(net=lambda f: f.points - f.ransom)
    lines = []
    for low, high in BANDS:
        band = sailed[(sailed.value >= low) & (sailed.value <= high)]
        full, half = band[band.full_route].net, band[~band.full_route].net
        if len(full) < 10 or len(half) < 10:
            lines.append(f"    {low}-{high}: too few contracts (full {len(full)}, half {len(half)}; 10 each needed)")
            continue
        diff = full.mean() - half.mean()
        se = math.sqrt(full.var() / len(full) + half.var() / len(half))
        lines.append(f"    {low}-{high}: {diff:+.1f} [{diff - 1.96 * se:+.1f}, {diff + 1.96 * se:+.1f}] "
                     f"(full {full.mean():.1f} net over {len(full)}, half {half.mean():.1f} over {len(half)})")
    return lines


def main(folder: str) -> None:
    """Print the targets of every cell of a results folder."""
    root = Path(folder)
    contracts = pd.read_parquet(root / "contracts")
    for cell in sorted(contracts.cell.unique()):
        games = cell_games(root, int(cell))
        c, k = games.contracts, games.captures
        label = games.games.cell_label.iloc[0]
        print(f"cell {cell} ({label}): {len(games.games)} games, {len(c)} contracts planned")
        print(f"  half-value ships seized: {int((~k.full_route).sum())} of {len(k)} seizures (D15: none)")
        print(f"  full-value share of planned contracts: "
              f"{interval('%', estimate('full_route_share', games, {}))} (25-75%)")
        ev = Games(games.players, c[c.strategy == "ev"], k, games.games)
        if len(ev.contracts):
            print(f"  ev-planned contracts fulfilled: {interval('%', estimate('fulfilment', ev, {}))} (>= 70%)")
        for strategy in sorted(games.players.strategy.unique()):
            score = estimate("mean_score", games, {"strategy": strategy})
            print(f"  {strategy} mean final score: {interval('', score)} points (> 0)")
        print(f"  turns with a full-value ship at sea when pirates seized one: "
              f"{interval('%', estimate('seizure_share', games, {}))} (>= 50%)")
        print(f"  crossover value (fitted lines): {interval('', estimate('crossover_value', games, {}))}")
        print("  net points per sailed contract, full-value minus half-value route, by value:")
        print("\n".join(net_by_band(c)))
        forced = c[c.strategy.isin(["bold", "cautious"])]
        if forced.strategy.nunique() == 2:
            print("  the same, bold (always full value) against cautious (always half value) only:")
            print("\n".join(net_by_band(forced)))


if __name__ == "__main__":
    main(sys.argv[1])
