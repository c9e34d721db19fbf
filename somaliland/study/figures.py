"""The figures of a study report, one function each; every figure says in its title how many games it rests on.

Each function takes the results tables (pandas DataFrames) and a PNG path, draws with matplotlib's Agg
backend, and returns the number of games behind the figure (0: nothing to draw, no file written).
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np

from somaliland.study.routenames import kind_name, kind_title, per_map
from somaliland.study.stats import mean_ci, wilson

VALUE_BINS = (30, 40, 48, 56, 65)  # contract values (R3: 30..64) in four bands of about equal width


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _plt().close(fig)


def _games(frame) -> int:
    return int(frame[["cell", "game"]].drop_duplicates().shape[0]) if len(frame) else 0


def _wrap(label: str, width: int = 16) -> str:
    return "\n".join(textwrap.wrap(label, width)) or label


def _bars(ax, groups: list[str], series: dict[str, list[tuple[float, float, float]]],
          colours: list | None = None) -> None:
    """Draw grouped bars with 95% error bars: one group per label, one bar per series (in `colours` if given)."""
    width = 0.8 / max(1, len(series))
    x = np.arange(len(groups))
    for i, (name, values) in enumerate(series.items()):
        mean = np.array([v[0] for v in values], dtype=float)
        err = np.array([[max(0.0, v[0] - v[1]), max(0.0, v[2] - v[0])] for v in values], dtype=float).T
        ax.bar(x + (i - (len(series) - 1) / 2) * width, mean, width, yerr=err, capsize=2, label=name,
               color=colours[i] if colours else None, edgecolor="k" if colours else None, linewidth=0.5)
    ax.set_xticks(x, [_wrap(g) for g in groups], fontsize=8)
    ax.legend(fontsize=8)


def _errors(stats: list[tuple[float, float, float]]):
    """Return matplotlib's 2 x n error-bar lengths from (mean, low, high) triples (0 where unknown)."""
    lengths = np.array([[m - lo, hi - m] for m, lo, hi in stats], dtype=float).reshape(-1, 2).T
    return np.clip(np.nan_to_num(lengths), 0.0, None)  # rounding can put an interval's end a hair past the mean


def _cells(frame) -> list[tuple[int, str]]:
    return list(frame[["cell", "cell_label"]].drop_duplicates().sort_values("cell").itertuples(index=False, name=None))


def win_rate_by(players, column: str, what: str, path: Path) -> int:
    """Win rate by turn-order position or by seat, per cell, with 95% Wilson intervals and fair shares.

    Seats are drawn in their players' colours (R1: seat 0 red, 1 green, 2 yellow, 3 blue) and named by them.
    """
    from somaliland.replay.textures import PLAYER_RGB
    from somaliland.rules.fleet import COLOURS

    if players.empty:
        return 0
    plt = _plt()
    cells = _cells(players)
    k = int(players.players.max())
    series: dict[str, list[tuple[float, float, float]]] = {}
    colours = None if column == "order" else [tuple(c / 255 for c in PLAYER_RGB[COLOURS[s]]) for s in range(k)]
    for pos in range(k):
        name = f"P{pos + 1}" if column == "order" else f"seat {pos} ({COLOURS[pos]})"
        series[name] = []
        for cell, _ in cells:
            rows = players[(players.cell == cell) & (players[column] == pos)]
            n, won = len(rows), float(rows.win_share.sum())
            series[name].append((won / n, *wilson(won, n)) if n else (math.nan,) * 3)
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(cells) + 2), 4))
    _bars(ax, [label for _, label in cells], series, colours)
    for i, (cell, _) in enumerate(cells):
        fair = 1 / int(players[players.cell == cell].players.iloc[0])
        ax.hlines(fair, i - 0.45, i + 0.45, colors="k", linestyles="dashed", linewidth=1)
    n = _games(players)
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_title(f"Win rate by {what}\n95% CI, dashed: fair share - n = {n} games", fontsize=10)
    _save(fig, path)
    return n


def win_rate_by_skill(players, column: str, seat: int, path: Path) -> int:
    """Win rate of one seat against its swept throw skill, one line per player count."""
    rows = players[players.seat == seat]
    if rows.empty or rows[column].nunique() < 2:
        return 0
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, group in rows.groupby("players"):
        xs = sorted(group[column].unique())
        stats = [(float(g.win_share.mean()), *wilson(float(g.win_share.sum()), len(g)))
                 for g in (group[group[column] == x] for x in xs)]
        ax.errorbar(xs, [s[0] for s in stats], yerr=_errors(stats), marker="o", capsize=3, label=f"{k} players")
        ax.axhline(1 / k, color="grey", linestyle="dashed", linewidth=1)
    others = players[players.seat != seat].skill
    ax.set_xlabel(f"seat {seat}'s throw skill (others: {', '.join(f'{s:g}' for s in sorted(others.unique()))})")
    ax.set_ylabel(f"seat {seat} win rate")
    n = _games(rows)
    ax.set_title(f"Win rate against throw skill, 95% CI - n = {n} games", fontsize=10)
    ax.legend(fontsize=8)
    _save(fig, path)
    return n


def scores_by_strategy(players, path: Path) -> int:
    """Final points by strategy (and cell when there are several): box plots."""
    if players.empty:
        return 0
    plt = _plt()
    groups = []
    for (cell, label), strategy in players[["cell", "cell_label", "strategy"]].drop_duplicates().sort_values(
            ["cell", "strategy"]).set_index(["cell", "cell_label"]).strategy.items():
        rows = players[(players.cell == cell) & (players.strategy == strategy)]
        groups.append((f"{strategy}\n{label}" if players.cell.nunique() > 1 else strategy, rows.points.to_numpy()))
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(groups) + 2), 4))
    ax.boxplot([g for _, g in groups], showmeans=True)
    ax.set_xticks(range(1, len(groups) + 1), [_wrap(name, 14) for name, _ in groups], fontsize=7)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_ylabel("final points (R21)")
    n = _games(players)
    ax.set_title(f"Score distributions by strategy (triangle: mean) - n = {n} games", fontsize=10)
    _save(fig, path)
    return n


def route_value(contracts):
    """Return contracts with their value band and net points (points minus the ransoms its ships paid)."""
    import pandas as pd

    frame = contracts.copy()
    frame["band"] = pd.cut(frame.value, VALUE_BINS, right=False,
                           labels=[f"{a}-{b - 1 if b < 65 else 64}" for a, b in zip(VALUE_BINS, VALUE_BINS[1:])])
    frame["net"] = frame.points - frame.ransom
    return frame


def _kind_colour(full: bool) -> str:
    """Return the colour of a kind of route: the one `map show` gives the map's first route of that kind."""
    from somaliland.map.render import FULL_ROUTE_COLOURS, HALF_ROUTE_COLOURS

    return (FULL_ROUTE_COLOURS if full else HALF_ROUTE_COLOURS)[0]


def routes_title(games) -> str:
    """Return the routes figure's title: the half-value route against the full-value one, named by the map."""
    return f"Routes: {kind_name(games, False)} vs {kind_name(games, True)}, expected points by contract value"


def routes_by_value(contracts, games, path: Path) -> int:
    """Expected net points of a contract taken, half- against full-value route, by contract value, per map and
    player count (routes named by their map: `routenames`)."""
    if contracts.empty:
        return 0
    plt = _plt()
    frame = route_value(contracts)
    bands = list(frame.band.cat.categories)
    panels = [(name, k, rows[rows.players == k], g) for name, rows, g in per_map(frame, games)
              for k in sorted(rows.players.unique())]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 4), sharey=True, squeeze=False)
    for ax, (name, k, rows, g) in zip(axes[0], panels):
        for full, group in rows.groupby("full_route"):
            stats = [mean_ci(group[group.band == b].net) for b in bands]
            ax.errorbar(range(len(bands)), [s[0] for s in stats], yerr=_errors(stats), marker="o", capsize=3,
                        color=_kind_colour(bool(full)), label=f"{kind_title(g, bool(full))} ({len(group)} contracts)")
        ax.set_xticks(range(len(bands)), bands)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("contract value")
        ax.set_title(f"{f'{name}, ' if name else ''}{k} players - n = {_games(rows)} games", fontsize=9)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("net points per contract taken (95% CI)")
    fig.suptitle(_wrap(f"{kind_name(games, False)} vs {kind_name(games, True)}: points scored minus ransoms paid, "
                       f"per contract", 55 * len(panels)), fontsize=10)
    _save(fig, path)
    return _games(frame)


def captures_by_position(captures, games, path: Path) -> int:
    """Where along their route ships are captured, and what ransom that costs (routes named by their map)."""
    if captures.empty:
        return 0
    plt = _plt()
    bins = np.linspace(0, 1, 11)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for full, group in captures.groupby("full_route"):
        label = kind_title(games, bool(full))
        left.hist(group.progress.dropna().clip(0, 1), bins=bins, histtype="step", linewidth=1.5,
                  color=_kind_colour(bool(full)), label=f"{label} ({len(group)} captures)")
        centres, stats = [], []
        for lo, hi in zip(bins, bins[1:]):
            sel = group[(group.progress >= lo) & (group.progress < hi)]
            if len(sel):
                centres.append((lo + hi) / 2)
                stats.append(mean_ci(sel.ransom))
        right.errorbar(centres, [s[0] for s in stats], yerr=_errors(stats), marker="o", capsize=3,
                       color=_kind_colour(bool(full)), label=label)
    left.set_xlabel("progress along the route at capture (0 start, 1 end)")
    left.set_ylabel("captures")
    left.legend(fontsize=8)
    right.set_xlabel("progress along the route at capture")
    right.set_ylabel("ransom per capture (95% CI)")
    right.legend(fontsize=8)
    fig.suptitle(f"Capture and ransom economics by route position - n = {len(games)} games", fontsize=10)
    _save(fig, path)
    return len(games)


def accidents(players, path: Path) -> int:
    """Sinkings, groundings and captures per player per game, by cell."""
    if players.empty:
        return 0
    plt = _plt()
    cells = _cells(players)
    series = {name: [mean_ci(players[players.cell == c][column]) for c, _ in cells]
              for name, column in (("ships sunk", "sunk"), ("groundings", "groundings"), ("captures", "captures"))}
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(cells) + 2), 4))
    _bars(ax, [label for _, label in cells], series)
    ax.set_ylabel("per player per game (95% CI)")
    n = _games(players)
    ax.set_title(f"Sinkings, groundings and captures - n = {n} games", fontsize=10)
    _save(fig, path)
    return n


def game_length(games, path: Path) -> int:
    """Game length in throws per cell: box plots."""
    if games.empty:
        return 0
    plt = _plt()
    cells = _cells(games)
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(cells) + 2), 4))
    ax.boxplot([games[games.cell == c].throws.to_numpy() for c, _ in cells], showmeans=True)
    ax.set_xticks(range(1, len(cells) + 1), [_wrap(label) for _, label in cells], fontsize=8)
    ax.set_ylabel("throws per game")
    ax.set_title(f"Game length in throws (triangle: mean) - n = {len(games)} games", fontsize=10)
    _save(fig, path)
    return len(games)
