"""The figures of a report's sections on route economics (`economics`): risk and reward by route and value, the
pirates against traffic, spare displacement, and why contracts fail.

Each function takes the results tables, a PNG path, draws one figure with a panel per map and player count
(never pooled) and returns the number of games behind it (0: nothing to draw, no file written). Whiskers are 95%
intervals from a bootstrap over games; a thick pale bar is ±1 standard deviation, the spread of single
contracts; a point resting on fewer than MIN_PER_SIDE contracts is drawn hollow. The look is the study figures'
(`figures`): Okabe-Ito colours, a marker per kind of route, legends beside the data, counts and rates from zero.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from somaliland.study.economics import (MIN_PER_SIDE, failures, route_risk, spare_displacement, traffic,
                                        traffic_label)
from somaliland.study.figures import MARKERS, OKABE_ITO, error_lengths, kind_look, legend_outside, pyplot, save_figure
from somaliland.study.frames import VALUE_BINS, game_keys
from somaliland.study.routenames import kind_title, per_map

BOOT_NOTE = "whiskers: 95% intervals (bootstrap over games)"
SHIFT = 0.09  # the two kinds of route side by side in a value band


def _bands() -> list[str]:
    return [f"{a}-{b - 1 if b < 65 else 64}" for a, b in zip(VALUE_BINS, VALUE_BINS[1:])]


def _panel_keys(rows: list[dict]) -> list[tuple]:
    """Return the (map, players) panels of some section rows, in order."""
    return list(dict.fromkeys((r["map"], r["players"]) for r in rows))


def _games_of(games, contracts, name, k) -> int:
    """Return how many games a panel rests on (every game of that map and player count)."""
    for map_name, rows, g in per_map(contracts, games):
        if map_name == name:
            frame = g if g is not None and "players" in g and len(g) else rows
            return len(game_keys(frame[frame.players == k]))
    return 0


def _title(name, k, n: int) -> str:
    return f"{f'{name}, ' if name else ''}{k} players - n = {n} games"


def _by_band(ax, rows: list[dict], key: str, games, scale: float = 1.0, spread: str | None = None) -> None:
    """Draw one estimate per kind of route and value band: the mean with its whiskers, ±1 SD as a pale bar."""
    bands = _bands()
    for full in (True, False):
        mine = [r for r in rows if r["full_route"] == full]
        if not mine:
            continue
        colour, marker = kind_look(full)
        xs = [bands.index(r["band"]) + (SHIFT if full else -SHIFT) for r in mine]
        stats = [tuple(v * scale for v in r[key]) for r in mine]
        if spread:
            for x, r, (m, _, _) in zip(xs, mine, stats):
                sd = r[spread][0] * scale
                if np.isfinite(sd):
                    ax.vlines(x, m - sd, m + sd, color=colour, linewidth=7, alpha=0.2, zorder=1)
        ax.plot(xs, [s[0] for s in stats], color=colour, linewidth=1.0, alpha=0.7)
        ax.errorbar(xs, [s[0] for s in stats], yerr=error_lengths(stats), ls="", marker=marker, capsize=3,
                    color=colour, label=f"{kind_title(games, full)}", zorder=3)
        few = [(x, s[0]) for x, s, r in zip(xs, stats, mine) if r["contracts"] < MIN_PER_SIDE]
        if few:
            ax.plot(*zip(*few), ls="", marker=marker, mfc="white", mec=colour, zorder=4)
        for x, s, r in zip(xs, stats, mine):
            top = s[2] if np.isfinite(s[2]) else s[0]
            ax.annotate(f"n={r['contracts']}", (x, top), textcoords="offset points", xytext=(0, 3), ha="center",
                        fontsize=6, color=colour)
    ax.set_xticks(range(len(bands)), bands)
    ax.set_xlim(-0.5, len(bands) - 0.5)


def _legend(ax, plt, spread: bool) -> None:
    handles, labels = ax.get_legend_handles_labels()
    extra = [plt.Line2D([], [], color="grey", marker="o", mfc="white", ls="")]
    texts = [f"hollow: fewer than {MIN_PER_SIDE} contracts"]
    if spread:
        extra.append(plt.Line2D([], [], color="grey", linewidth=7, alpha=0.2))
        texts.append("pale bar: ±1 SD (single contracts)")
    ax.legend(handles + extra, labels + texts, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False)


def route_risk_figure(contracts, players, games, path: Path) -> int:
    """R8, R21: net points per sailed contract (mean, 95% interval, ±1 SD) and the chance its owner won the game,
    by kind of route and value band, a column per map and player count."""
    rows = route_risk(contracts, players, games)
    if not rows:
        return 0
    plt = pyplot()
    keys = _panel_keys(rows)
    fig, axes = plt.subplots(2, len(keys), figsize=(4.6 * len(keys) + 2.6, 7.6), squeeze=False, sharex=True,
                             layout="constrained")
    total = 0
    for j, (name, k) in enumerate(keys):
        mine = [r for r in rows if (r["map"], r["players"]) == (name, k)]
        n = _games_of(games, contracts, name, k)
        total += n
        top, bottom = axes[0][j], axes[1][j]
        _by_band(top, mine, "net", games, spread="sd")
        top.axhline(0, color="grey", linewidth=0.8)
        top.set_title(_title(name, k, n), fontsize=9)
        _by_band(bottom, mine, "win", games, scale=100.0)
        bottom.axhline(100.0 / k, color="k", linestyle="dashed", linewidth=1, label="fair share (1 / players)")
        bottom.set_ylim(0, 100)
        bottom.set_xlabel("contract value (R3, points)")
    axes[0][0].set_ylabel("net points per sailed contract\n(points scored minus ransoms)")
    axes[1][0].set_ylabel("its owner won the game (%)\n(shared wins split)")
    _legend(axes[0][-1], plt, spread=True)
    legend_outside(axes[1][-1])
    fig.suptitle(f"Risk and reward by route and contract value - n = {total} games\n{BOOT_NOTE}", fontsize=10)
    save_figure(fig, path)
    return total


def spare_figure(contracts, games, path: Path) -> int:
    """R6, R9: the displacement a sailed contract's ships carry beyond its value, by kind of route and value band."""
    rows = spare_displacement(contracts, games)
    if not rows:
        return 0
    plt = pyplot()
    keys = _panel_keys(rows)
    fig, axes = plt.subplots(1, len(keys), figsize=(4.6 * len(keys) + 2.6, 4.4), squeeze=False, sharey=True,
                             layout="constrained")
    total = 0
    for ax, (name, k) in zip(axes[0], keys):
        n = _games_of(games, contracts, name, k)
        total += n
        _by_band(ax, [r for r in rows if (r["map"], r["players"]) == (name, k)], "spare", games, spread="sd")
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_title(_title(name, k, n), fontsize=9)
        ax.set_xlabel("contract value (R3, points)")
    axes[0][0].set_ylabel("spare displacement per sailed contract\n(ships' pips beyond its value, R2, R9)")
    _legend(axes[0][-1], plt, spread=True)
    fig.suptitle(f"Spare displacement by route and contract value - n = {total} games\n{BOOT_NOTE}", fontsize=10)
    save_figure(fig, path)
    return total


def traffic_figure(raids, games, path: Path) -> int:
    """R13: per full-value ship at sea per raid, the seizures and the ransom, and the ransom per point of
    displacement at sea, against the full-value ships at sea when the pirates raid; a line per map and players."""
    rows = traffic(raids, games)
    if not rows:
        return 0
    plt = pyplot()
    labels = [traffic_label(lo, hi) for lo, hi in dict.fromkeys((r["low"], r["high"]) for r in rows)]
    order = {label: i for i, label in enumerate(sorted(labels, key=lambda t: int(t.split("-")[0].rstrip("+"))))}
    fig, axes = plt.subplots(1, 3, figsize=(14.5, 4.4), squeeze=False, layout="constrained")
    total = 0
    for i, (name, k) in enumerate(_panel_keys(rows)):
        mine = [r for r in rows if (r["map"], r["players"]) == (name, k)]
        n = len(game_keys(raids[(raids.players == k) & ((raids["map"] == name) if name else True)]))
        total += n
        colour, marker = OKABE_ITO[i % len(OKABE_ITO)], MARKERS[i % len(MARKERS)]
        xs = [order[traffic_label(r["low"], r["high"])] for r in mine]
        for ax, key, scale in zip(axes[0], ("seized", "ransom", "per_point"), (1.0, 1.0, 100.0)):
            stats = [tuple(v * scale for v in r[key]) for r in mine]
            ax.errorbar(xs, [s[0] for s in stats], yerr=error_lengths(stats), marker=marker, capsize=3, color=colour,
                        label=f"{f'{name}, ' if name else ''}{k} players ({n} games)")
        for x, r in zip(xs, mine):
            axes[0][0].annotate(f"{r['raids']}", (x, r["seized"][0]), textcoords="offset points", xytext=(4, 4),
                                fontsize=6, color=colour)
    texts = ("seizures per full-value ship\nat sea per raid (R13)", "ransom per full-value ship\nat sea per raid "
             "(points)", "ransom per point of displacement\nat sea per raid (%)")
    for ax, text in zip(axes[0], texts):
        ax.set_xticks(range(len(order)), list(order))
        ax.set_xlabel("full-value ships at sea when the pirates raid")
        ax.set_ylabel(text)
        ax.set_ylim(bottom=0)
    axes[0][0].set_title("small numbers: raids behind each point", fontsize=8)
    legend_outside(axes[0][-1])
    fig.suptitle(f"The pirates against traffic - n = {total} games\n{BOOT_NOTE}", fontsize=10)
    save_figure(fig, path)
    return total


def failures_figure(contracts, games, path: Path) -> int:
    """R11: for each reason a contract failed (one each), the share of the contracts taken on each kind of route
    that failed for it, a panel per map and player count."""
    rows = failures(contracts, games)
    if not rows:
        return 0
    plt = pyplot()
    keys = _panel_keys(rows)
    reasons = [x["reason"] for x in rows[0]["reasons"]]
    shown = [reason for reason in reasons if any(x["failed"] for r in rows for x in r["reasons"] if x["reason"] == reason)]
    if not shown:
        return 0
    fig, axes = plt.subplots(1, len(keys), figsize=(4.4 * len(keys) + 3.0, 0.45 * len(shown) + 2.6), squeeze=False,
                             sharey=True, sharex=True, layout="constrained")
    total = 0
    y = np.arange(len(shown))
    for ax, (name, k) in zip(axes[0], keys):
        n = _games_of(games, contracts, name, k)
        total += n
        for full in (True, False):
            mine = [r for r in rows if (r["map"], r["players"], r["full_route"]) == (name, k, full)]
            if not mine:
                continue
            r = mine[0]
            by = {x["reason"]: x for x in r["reasons"]}
            stats = [tuple(100 * v for v in by[reason]["share"]) for reason in shown]
            colour, _ = kind_look(full)
            ax.barh(y + (-0.2 if full else 0.2), [s[0] for s in stats], 0.38, xerr=error_lengths(stats), capsize=2,
                    color=colour, alpha=0.85, hatch="" if full else "//", edgecolor="k", linewidth=0.5,
                    label=f"{kind_title(games, full)}: {r['failed']} of {r['taken']} failed")
        ax.set_yticks(y, shown)
        ax.invert_yaxis()
        ax.set_xlim(left=0)
        ax.set_xlabel("contracts taken that failed for this reason (%)")
        ax.set_title(_title(name, k, n), fontsize=9)
        ax.legend(loc="upper left", bbox_to_anchor=(0.0, -0.18), fontsize=7, frameon=False)  # below: panels abut
    fig.suptitle(f"Why contracts fail (one reason each, the first that befell a ship that did not arrive) - "
                 f"n = {total} games\n{BOOT_NOTE}", fontsize=10)
    save_figure(fig, path)
    return total
