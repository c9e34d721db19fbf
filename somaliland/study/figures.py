"""The figures of a study report, one function each; every figure says in its title how many games it rests on.

Each function takes the results tables (pandas DataFrames) and a PNG path, draws with matplotlib's Agg
backend, and returns the number of games behind the figure (0: nothing to draw, no file written).

Every estimate carries its 95% interval (Wilson for rates, normal for means, Garwood for counts), counts and
rates are drawn from zero, units are named on the axes, legends sit beside the data, never on it, and the
colours are safe for colour-blind readers: seats are drawn in their players' colours (R1) with a hatching
each, so that red and green seats differ without colour, and every other series takes the Okabe-Ito
palette with a marker or hatching of its own.
"""

from __future__ import annotations

import math
import textwrap
import zlib
from pathlib import Path

import numpy as np

from somaliland.study.economics import band_gaps, crossing, panels
from somaliland.study.frames import route_table, route_value, seat_kind
from somaliland.study.routenames import kind_name, kind_title, per_map
from somaliland.study.stats import mean_ci, wilson

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442", "#000000")
HATCHES = ("", "//", "..", "xx", "\\\\", "++", "oo", "--")  # a seat's or series' pattern, in order
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
MIN_CONTRACTS = 10  # a value band with fewer contracts on a route is drawn hollow: too few to lean on
CI_NOTE = "bars and whiskers: 95% intervals"


def pyplot():
    """Return matplotlib's pyplot on the Agg backend (no window): every figure of the study and tune reports."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path: Path) -> None:
    """Write a figure to `path` (its folder made), legends beside the axes included, and close it.

    Raises:
        OSError: naming `path` (a failed write, e.g. on a full disk, names no file of its own).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fig.savefig(path, dpi=110, bbox_inches="tight")  # the legends beside the axes are part of the picture
    except OSError as error:
        error.filename = error.filename or str(path)
        raise
    finally:
        pyplot().close(fig)


def games_in(frame) -> int:
    """Return how many games (cell, game pairs) a table's rows come from."""
    return int(frame[["cell", "game"]].drop_duplicates().shape[0]) if len(frame) else 0


def _label(cell_label: str) -> str:
    """Return a cell's label one setting a line ("players=2, seat0_skill=0.5" on two lines), never cut mid-word."""
    return "\n".join(cell_label.split(", "))


def legend_outside(ax, title: str | None = None) -> None:
    """Put the axes' legend beside them, right of the data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False, title=title,
              title_fontsize=8)


def _bars(ax, groups: list[str], series: dict[str, list[tuple[float, float, float]]],
          colours: list | None = None) -> None:
    """Draw grouped bars with 95% error bars: one group per label, one bar per series, each series in its colour
    (Okabe-Ito unless given) and hatching, the legend beside the axes."""
    width = 0.8 / max(1, len(series))
    x = np.arange(len(groups))
    for i, (name, values) in enumerate(series.items()):
        ax.bar(x + (i - (len(series) - 1) / 2) * width, [v[0] for v in values], width, yerr=error_lengths(values),
               capsize=2, label=name, color=(colours or OKABE_ITO)[i % len(colours or OKABE_ITO)],
               hatch=HATCHES[i % len(HATCHES)], edgecolor="k", linewidth=0.5, error_kw={"elinewidth": 1})
    ax.set_xticks(x, [_label(g) for g in groups], fontsize=8)
    ax.set_ylim(bottom=0)
    legend_outside(ax)


def error_lengths(stats: list[tuple[float, float, float]]):
    """Return matplotlib's 2 x n error-bar lengths from (mean, low, high) triples (0 where unknown)."""
    lengths = np.array([[m - lo, hi - m] for m, lo, hi in stats], dtype=float).reshape(-1, 2).T
    # rounding can put an interval's end a hair past the mean; an unbounded end draws no whisker
    return np.clip(np.nan_to_num(lengths, nan=0.0, posinf=0.0, neginf=0.0), 0.0, None)


def count_ci(count: int) -> tuple[float, float]:
    """Return the exact (Garwood) 95% interval of a Poisson count."""
    from scipy.stats import chi2

    alpha = 1 - 0.95
    low = 0.0 if count == 0 else chi2.ppf(alpha / 2, 2 * count) / 2
    return float(low), float(chi2.ppf(1 - alpha / 2, 2 * count + 2) / 2)


def _cells(frame) -> list[tuple[int, str]]:
    return list(frame[["cell", "cell_label"]].drop_duplicates().sort_values("cell").itertuples(index=False, name=None))


def _means(ax, groups: list, positions) -> None:
    """Draw each group's mean with its 95% interval beside its box (a box plot shows spread, not the estimate)."""
    for x, (name, values) in zip(positions, groups):
        m, lo, hi = mean_ci(values)
        ax.errorbar([x + 0.3], [m], yerr=error_lengths([(m, lo, hi)]), fmt="D", ms=4, color="k", capsize=3, zorder=5)


def win_rate_by(players, column: str, what: str, path: Path) -> int:
    """Win rate by turn-order position or by seat, per cell, with 95% Wilson intervals and fair shares.

    Seats are drawn in their players' colours (R1: seat 0 red, 1 green, 2 yellow, 3 blue), each with its own
    hatching, and named by them; turn-order positions take the Okabe-Ito colours.
    """
    from somaliland.replay.textures import PLAYER_RGB
    from somaliland.rules.fleet import COLOURS

    if players.empty:
        return 0
    plt = pyplot()
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
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(cells) + 3), 4))
    _bars(ax, [label for _, label in cells], series, colours)
    for i, (cell, _) in enumerate(cells):
        fair = 1 / int(players[players.cell == cell].players.iloc[0])
        ax.hlines(fair, i - 0.45, i + 0.45, colors="k", linestyles="dashed", linewidth=1,
                  label="fair share (1 / players)" if i == 0 else None)
    legend_outside(ax)
    n = games_in(players)
    ax.set_ylabel("win rate (share of games won;\nshared wins split)")
    ax.set_title(f"Win rate by {what} - n = {n} games\n{CI_NOTE} (Wilson)", fontsize=10)
    save_figure(fig, path)
    return n


def win_rate_by_skill(players, column: str, seat: int, path: Path) -> int:
    """Win rate of one seat against its swept throw skill, one line per player count and per what plays the seat
    (its strategy and swept parameters, `frames.seat_kind`: the ladder's skill study), with 95% Wilson bands."""
    rows = players[players.seat == seat]
    if rows.empty or rows[column].nunique() < 2:
        return 0
    plt = pyplot()
    kinds = seat_kind(rows, seat)
    several = kinds.nunique() > 1
    fig, ax = plt.subplots(figsize=(8, 4.5) if several else (7, 4))
    counts = sorted(rows.players.unique())
    for i, ((k, kind), group) in enumerate(rows.groupby(["players", kinds])):
        xs = sorted(group[column].unique())
        stats = [(float(g.win_share.mean()), *wilson(float(g.win_share.sum()), len(g)))
                 for g in (group[group[column] == x] for x in xs)]
        colour = OKABE_ITO[i % len(OKABE_ITO)]
        label = f"{k} players, {kind}" if several and len(counts) > 1 else kind if several else f"{k} players"
        ax.errorbar(xs, [s[0] for s in stats], yerr=error_lengths(stats), marker=MARKERS[i % len(MARKERS)], capsize=3,
                    color=colour, label=label)
        ax.fill_between(xs, [s[1] for s in stats], [s[2] for s in stats], color=colour, alpha=0.15, linewidth=0)
        if not several:
            ax.axhline(1 / k, color=colour, linestyle="dashed", linewidth=1, label=f"fair share, {k} players")
    if several:
        for j, k in enumerate(counts):
            ax.axhline(1 / k, color="grey", linestyle=("dashed", "dotted", "dashdot")[j % 3], linewidth=1,
                       label=f"fair share, {k} players")
    others = players[players.seat != seat].skill
    ax.set_xlabel(f"seat {seat}'s throw skill (0 clumsy ... 1 perfect; the others: "
                  f"{', '.join(f'{s:g}' for s in sorted(others.unique()))})")
    ax.set_ylabel(f"seat {seat}'s win rate (share of games won)")
    ax.set_ylim(bottom=0)
    n = games_in(rows)
    ax.set_title(f"Win rate against throw skill - n = {n} games\n{CI_NOTE} (Wilson)", fontsize=10)
    legend_outside(ax)
    save_figure(fig, path)
    return n


def _varying(labels: list[str]) -> list[str]:
    """Return each cell label's settings that differ between the labels, strategy aside (the colour tells it): "skill
    0.5", "search_play_aground 1.0"; empty when only the strategy differs."""
    parts = [dict(p.split("=", 1) for p in label.split(", ") if "=" in p) for label in labels]
    keys = [k for k in dict.fromkeys(k for d in parts for k in d)
            if not k.endswith("strategy") and len({d.get(k) for d in parts}) > 1]

    def short(key: str) -> str:
        return key.split("_params_")[-1].removeprefix("seat0_")

    return [", ".join(f"{short(k)} {d.get(k, '-')}" for k in keys) for d in parts]


def strategy_look(strategy: str) -> int:
    """Return a strategy's index into the colours, markers and hatches: the same in every report (the built-in
    strategies in name order, any other after them)."""
    from somaliland.players.strategies import STRATEGIES

    known = sorted(STRATEGIES)
    return known.index(strategy) if strategy in known else len(known) + zlib.crc32(strategy.encode()) % 4


def ladder_front(players, path: Path) -> int:
    """Each rated strategy's win rate per seat against its groundings per move over its table's field's
    (`ladder.ladder_rows`), one point per cell and strategy other than the field, with 95% intervals (Wilson; games
    resampled): what a strategy's wins cost in groundings, beside the field (ratio 1) and the fair share. A
    strategy's points are joined in cell order (a sweep's order) and named by what their cells vary; a point whose
    ratio has no interval (too few games, unstable resamples) is drawn hollow."""
    from somaliland.study.ladder import ladder_rows, rated

    rows = [r for r in ladder_rows(players) if r["vs_field"] is not None] if rated(players) else []
    rows = [r for r in rows if math.isfinite(r["vs_field"]["ratio"][0])]
    if not rows:
        return 0
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    named = _varying([r["label"] for r in rows])
    for strategy in sorted({r["strategy"] for r in rows}):
        i = strategy_look(strategy)
        colour, marker = OKABE_ITO[i % len(OKABE_ITO)], MARKERS[i % len(MARKERS)]
        mine = [(r, name) for r, name in zip(rows, named) if r["strategy"] == strategy]
        x = np.array([r["vs_field"]["ratio"] for r, _ in mine])
        y = np.array([r["win"] for r, _ in mine])
        games = sorted({r["games"] for r, _ in mine})
        each = f"{games[0]}" if len(games) == 1 else f"{games[0]}-{games[-1]}"
        label = (f"{strategy} ({each} games a cell, {len(mine)} cells)" if len(mine) > 1
                 else f"{strategy} ({each} games)")
        if len(mine) > 1:
            ax.plot(x[:, 0], y[:, 0], color=colour, linewidth=0.8, alpha=0.5)
        ax.errorbar(x[:, 0], y[:, 0], xerr=error_lengths(list(map(tuple, x))), yerr=error_lengths(list(map(tuple, y))),
                    capsize=3, ls="", marker=marker, color=colour, label=label)
        hollow = np.isnan(x[:, 1])
        if hollow.any():
            ax.plot(x[hollow, 0], y[hollow, 0], ls="", marker=marker, markersize=7, markerfacecolor="white",
                    markeredgecolor=colour, zorder=3)  # above the error bars' own markers
        for j, ((r, name), xi, yi) in enumerate(zip(mine, x[:, 0], y[:, 0])):
            if name:  # staggered, so neighbours' names do not print over each other
                up = (4, 13) if yi < 0.03 else (4, -10)  # a point at the floor: both names above it
                ax.annotate(name, (xi, yi), xytext=(5, up[j % 2]), textcoords="offset points", fontsize=7,
                            color=colour)
    if any(np.isnan(r["vs_field"]["ratio"][1]) for r in rows):
        ax.plot([], [], ls="", marker="o", markerfacecolor="white", markeredgecolor="grey",
                label="hollow: too few games for an interval")
    for j, k in enumerate(sorted({r["players"] for r in rows})):
        ax.axhline(1 / k, color="grey", linestyle=("dashed", "dotted", "dashdot")[j % 3], linewidth=1,
                   label=f"fair share, {k} players")
    ax.axvline(1, color="grey", linewidth=0.8, label="as often as the field")
    ax.axvline(0.5, color="grey", linewidth=0.8, linestyle="dotted", label="half as often")
    right = max(1.1, float(np.nanmax([r["vs_field"]["ratio"][2] if math.isfinite(r["vs_field"]["ratio"][2])
                                      else r["vs_field"]["ratio"][0] for r in rows])) * 1.05)
    top = max(1 / min(r["players"] for r in rows), max(r["win"][2] for r in rows)) * 1.05
    ax.set_xlim(-0.03 * right, right)  # a point at 0 shown whole, its whiskers clear of the axis
    ax.set_ylim(-0.03 * top, top)
    fields = sorted({r["field"] for r in rows})
    ax.set_xlabel(f"groundings per move (R17) over the field's at its table (the field: {', '.join(fields)}; ratio)")
    ax.set_ylabel("win rate of its first seat (share of games won)")
    n = games_in(players[players.cell.isin({r["cell"] for r in rows})])
    ax.set_title(f"Win rate against groundings, each strategy beside its table's field - n = {n} games in the "
                 f"cells drawn\n{CI_NOTE} (Wilson; games resampled)", fontsize=10)
    legend_outside(ax)
    save_figure(fig, path)
    return n


def scores_by_strategy(players, path: Path) -> int:
    """Final points by strategy (and cell when there are several): box plots, each with its mean and 95% interval."""
    if players.empty:
        return 0
    plt = pyplot()
    groups = []
    for (cell, label), strategy in players[["cell", "cell_label", "strategy"]].drop_duplicates().sort_values(
            ["cell", "strategy"]).set_index(["cell", "cell_label"]).strategy.items():
        rows = players[(players.cell == cell) & (players.strategy == strategy)]
        groups.append((strategy, f"{strategy}\n{_label(label)}" if players.cell.nunique() > 1 else strategy,
                       rows.points.to_numpy()))
    fig, ax = plt.subplots(figsize=(max(6, 1.7 * len(groups) + 3), 4.5))
    positions = np.arange(1, len(groups) + 1)
    boxes = ax.boxplot([g for _, _, g in groups], positions=positions, widths=0.45, patch_artist=True,
                       medianprops={"color": "k"}, flierprops={"marker": ".", "markersize": 3})
    for patch, (strategy, _, _) in zip(boxes["boxes"], groups):
        i = strategy_look(strategy)
        patch.set(facecolor=OKABE_ITO[i % len(OKABE_ITO)], hatch=HATCHES[i % len(HATCHES)], alpha=0.8)
    _means(ax, [(name, g) for _, name, g in groups], positions)
    ax.set_xticks(positions, [name for _, name, _ in groups], fontsize=7)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_ylabel("final points per player\n(R21: contract points minus ransoms)")
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=OKABE_ITO[i % len(OKABE_ITO)], hatch=HATCHES[i % len(HATCHES)],
                             edgecolor="k", label=name)
               for i, name in ((strategy_look(s), s) for s in sorted(players.strategy.unique()))]
    handles.append(plt.Line2D([], [], color="k", marker="D", ms=4, ls="", label="mean, 95% interval"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    n = games_in(players)
    ax.set_title(f"Final points by strategy - n = {n} games\nboxes: quartiles, whiskers 1.5 IQR; diamonds: mean "
                 f"with 95% interval", fontsize=10)
    save_figure(fig, path)
    return n


def kind_look(full: bool) -> tuple[str, str]:
    """Return the colour and marker of a kind of route: Okabe-Ito vermilion and a square for full-value routes,
    blue and a circle for half-value ones (R8)."""
    return ("#D55E00", "s") if full else ("#0072B2", "o")


def routes_title(games) -> str:
    """Return the routes figure's title: the half-value route against the full-value one, named by the map."""
    return f"Routes: {kind_name(games, False)} vs {kind_name(games, True)}, expected points by contract value"


def routes_by_value(contracts, games, path: Path) -> int:
    """Expected net points of a contract taken, half- against full-value route, by contract value, per map and
    player count (routes named by their map: `routenames`); each point says how many contracts it rests on."""
    if contracts.empty:
        return 0
    plt = pyplot()
    frame = route_value(contracts)
    bands = list(frame.band.cat.categories)
    cells = [(name, k, rows[rows.players == k], g) for name, rows, g in per_map(frame, games)
             for k in sorted(rows.players.unique())]
    fig, axes = plt.subplots(1, len(cells), figsize=(4.5 * len(cells) + 2.5, 4.2), sharey=True, squeeze=False)
    for ax, (name, k, rows, g) in zip(axes[0], cells):
        for full, group in rows.groupby("full_route"):
            colour, marker = kind_look(bool(full))
            shift = 0.06 if full else -0.06  # the two routes side by side, not on top of each other
            xs, stats, counts = [], [], []
            for i, band in enumerate(bands):
                values = group[group.band == band].net
                if len(values):
                    xs.append(i + shift)
                    stats.append(mean_ci(values))
                    counts.append(len(values))
            if not xs:
                continue
            ax.plot(xs, [s[0] for s in stats], color=colour, linewidth=1.2,
                    label=f"{kind_title(g, bool(full))}\n({len(group)} contracts)")
            for x, stat, count in zip(xs, stats, counts):
                m, lo, hi = stat
                ax.errorbar([x], [m], yerr=error_lengths([stat]), marker=marker, capsize=3, color=colour,
                            mfc=colour if count >= MIN_CONTRACTS else "white")
                ax.annotate(f"n={count}" + (f", all {m:g}" if lo == hi else ""),  # zero width: every contract alike
                            (x, hi if math.isfinite(hi) else m), textcoords="offset points", xytext=(0, 4),
                            ha="center", fontsize=6, color=colour)
        ax.set_xticks(range(len(bands)), bands)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("contract value (R3, points)")
        ax.set_title(f"{f'{name}, ' if name else ''}{k} players - n = {games_in(rows)} games", fontsize=9)
    axes[0][0].set_ylabel("net points per contract taken\n(points scored minus ransoms paid)")
    shown = {}
    for ax in axes[0]:  # one legend for all panels: a route missing from the last panel is still named
        for handle, text in zip(*ax.get_legend_handles_labels()):
            shown.setdefault(text.split("\n")[0], (handle, text))
    shown["hollow"] = (plt.Line2D([], [], color="grey", marker="o", mfc="white", ls=""),
                       f"hollow: fewer than {MIN_CONTRACTS} contracts")
    axes[0][-1].legend(*zip(*shown.values()), loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.suptitle(f"{kind_name(games, False)} vs {kind_name(games, True)}: net points per contract, {CI_NOTE}",
                 fontsize=10)
    save_figure(fig, path)
    return games_in(frame)


def route_gap_title(games) -> str:
    """Return the route-gap figure's title: the full-value route minus the half-value one, named by the map."""
    return (f"Routes: {kind_name(games, True)} minus {kind_name(games, False)}, net points per sailed contract by "
            f"contract value")


def route_gap_by_value(contracts, games, path: Path) -> int:
    """R8: the net points of a sailed contract on the full-value route minus one on the half-value route, by
    contract value band, with 95% intervals from a bootstrap over games, per map and player count
    (`economics.band_gaps`); the title of each panel says where the curve crosses zero (`economics.crossing`) and
    how many games it rests on. A band with fewer than MIN_PER_SIDE sailed contracts on either route is left out
    and named under the axis."""
    frame = route_table(contracts)
    if frame.empty or frame.full_route.nunique() < 2:
        return 0
    shown = [(name, k, rows, g, keys, band_gaps(rows, keys)) for name, on_map, g in per_map(frame, games)
             for _, k, rows, keys in panels(on_map, g)]
    shown = [p for p in shown if any(gap is not None for *_, gap in p[5])]
    if not shown:
        return 0
    plt = pyplot()
    bands = list(frame.band.cat.categories)
    fig, axes = plt.subplots(1, len(shown), figsize=(4.8 * len(shown) + 0.8, 4.8), sharey=True, squeeze=False,
                             layout="constrained")  # the titles of several lines each keep their own place
    for ax, (name, k, rows, g, keys, gaps) in zip(axes[0], shown):
        full, half = kind_name(g, True), kind_name(g, False)
        shown = [(i, n_full, n_half, gap) for i, (_, n_full, n_half, gap) in enumerate(gaps) if gap is not None]
        xs, stats = [i for i, *_ in shown], [gap for *_, gap in shown]
        ax.plot(xs, [s[0] for s in stats], color="k", linewidth=1.0)
        ax.errorbar(xs, [s[0] for s in stats], yerr=error_lengths(stats), fmt="D", ms=5, capsize=3, color="k")
        for x, n_full, n_half, (m, lo, hi) in shown:
            ax.annotate(f"n={n_full}+{n_half}", (x, hi if math.isfinite(hi) else m), textcoords="offset points",
                        xytext=(0, 4), ha="center", fontsize=6)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(bands)), bands)
        ax.set_xlim(-0.5, len(bands) - 0.5)
        missing = [band for band, *_, gap in gaps if gap is None]
        ax.set_xlabel("contract value (R3, points)" + (f"\nnot compared, too few contracts: {', '.join(missing)}"
                                                      if missing else ""))
        verdict = crossing(gaps, full, half)
        ax.set_title(f"{f'{name}, ' if name else ''}{k} players - n = {len(keys)} games\n"
                     + textwrap.fill(verdict, 64), fontsize=8)
    ax0 = axes[0][0]
    ax0.set_ylabel(f"{kind_name(games, True)} minus {kind_name(games, False)}\n"
                   f"(net points per sailed contract: points minus ransoms)")
    top, bottom = ax0.get_ylim()[1], ax0.get_ylim()[0]
    ax0.set_ylim(min(bottom, 0.0) - 1.0, max(top, 0.0) + 1.0)  # zero, where the routes pay alike, always shown
    fig.suptitle(f"{route_gap_title(games)}\ndiamonds: difference of means, whiskers: 95% interval (bootstrap over "
                 f"games); n = sailed contracts on the full-value + half-value route", fontsize=9)
    save_figure(fig, path)
    return games_in(frame)


def captures_by_position(captures, games, path: Path) -> int:
    """Where along their route ships are captured, and what ransom that costs (routes named by their map)."""
    if captures.empty:
        return 0
    plt = pyplot()
    bins = np.linspace(0, 1, 11)
    centres = (bins[:-1] + bins[1:]) / 2
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2))
    for full, group in captures.groupby("full_route"):
        label = kind_title(games, bool(full))
        colour, marker = kind_look(bool(full))
        counts, _ = np.histogram(group.progress.dropna().clip(0, 1), bins=bins)
        left.stairs(counts, bins, linewidth=1.5, color=colour, label=f"{label}\n({len(group)} captures)")
        limits = np.array([count_ci(int(c)) for c in counts])
        left.errorbar(centres, counts, yerr=np.clip([counts - limits[:, 0], limits[:, 1] - counts], 0, None), fmt="none",
                      ecolor=colour, capsize=2)
        xs, stats = [], []
        for lo, hi in zip(bins, bins[1:]):
            sel = group[(group.progress >= lo) & (group.progress < hi)]
            if len(sel):
                xs.append((lo + hi) / 2)
                stats.append(mean_ci(sel.ransom))
        right.errorbar(xs, [s[0] for s in stats], yerr=error_lengths(stats), marker=marker, capsize=3, color=colour,
                       label=label)
    left.set_xlabel("progress along the route at capture (0 start, 1 destination)")
    left.set_ylabel("captures (count per tenth of the route)")
    left.set_ylim(bottom=0)
    left.set_title("where ships are seized (whiskers: 95% Poisson intervals)", fontsize=9)
    right.set_xlabel("progress along the route at capture (0 start, 1 destination)")
    right.set_ylabel("ransom per capture (points: pips on the top face, R13)")
    right.set_ylim(bottom=0)
    right.set_title("what a capture costs (whiskers: 95% intervals)", fontsize=9)
    legend_outside(right)
    fig.suptitle(f"Capture and ransom economics by route position - n = {len(games)} games", fontsize=10)
    save_figure(fig, path)
    return len(games)


def accidents(players, path: Path) -> int:
    """Sinkings, groundings and captures per player per game, by cell."""
    if players.empty:
        return 0
    plt = pyplot()
    cells = _cells(players)
    series = {name: [mean_ci(players[players.cell == c][column]) for c, _ in cells]
              for name, column in (("ships sunk (R18)", "sunk"), ("groundings (R17)", "groundings"),
                                   ("captures by pirates (R13)", "captures"))}
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(cells) + 3), 4))
    _bars(ax, [label for _, label in cells], series)
    ax.set_ylabel("accidents per player per game (count)")
    n = games_in(players)
    ax.set_title(f"Sinkings, groundings and captures - n = {n} games\n{CI_NOTE}", fontsize=10)
    save_figure(fig, path)
    return n


def game_length(games, path: Path) -> int:
    """Game length in throws per cell: box plots, each with its mean and 95% interval."""
    if games.empty:
        return 0
    plt = pyplot()
    cells = _cells(games)
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(cells) + 3), 4))
    groups = [(label, games[games.cell == c].throws.to_numpy()) for c, label in cells]
    positions = np.arange(1, len(groups) + 1)
    ax.boxplot([g for _, g in groups], positions=positions, widths=0.45, patch_artist=True,
               boxprops={"facecolor": OKABE_ITO[1]}, medianprops={"color": "k"}, flierprops={"marker": ".", "markersize": 3})
    _means(ax, groups, positions)
    ax.set_xticks(positions, [_label(label) for label, _ in groups], fontsize=8)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("throws per game (count)")
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=OKABE_ITO[1], edgecolor="k", label="quartiles, 1.5 IQR"),
               plt.Line2D([], [], color="k", marker="D", ms=4, ls="", label="mean, 95% interval")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title(f"Game length in throws - n = {len(games)} games", fontsize=10)
    save_figure(fig, path)
    return len(games)
