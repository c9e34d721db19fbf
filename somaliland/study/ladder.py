"""The ladder: each strategy and strength at a study's tables rated with 95% intervals (issue 21).

One row per cell and strategy at its table (the seats playing it, e.g. one `search` seat against three `ev`
seats): win rate per seat, points per game, groundings per move (throws aground per throw, R17), fulfilment
(contracts fulfilled per contract taken, R9) and CPU seconds per throw decision. Games are the independent
units: a rate over several seats of one game, or a ratio of per-game totals, takes its interval over games
(`stats.ratio_ci`, the ratio estimator; a share of counted items, `stats.share_ci`, never narrower than Wilson's
on the pooled counts and within [0, 1]); a single seat's win rate takes Wilson's.

`aground_table` splits each strategy's groundings by cause and place: its own throws that ran their ship
aground (R17) per throw on the map's full-value route(s) and on the others (R8), at launching throws (R12)
against all other throws, and its ships pushed aground by any throw (R18) per throw of its own. A strategy that
sails the riskier route more runs aground more often per move without throwing worse; these rates tell the two
apart, and `standardised` sums them into one figure: a strategy's groundings per move had it sailed its table's
route mix (direct standardisation: its own rate on each kind of route weighted by the share of throws the
table's field, the strategy with the most seats there, made on that kind, plus its pushed groundings), against
the field's own groundings per move, with a 95% interval from resampling games (`BOOTSTRAP`, a fixed seed). They need the players-table columns `throws_full`, `launches`, `aground_thrown`, `aground_thrown_full`
and `aground_launch` (games played since 2026-11-28; older games are left out and the table says how many
games it rests on).
"""

from __future__ import annotations

import math

import numpy as np

from somaliland.study.routenames import kind_name
from somaliland.study.stats import mean_ci, ratio_ci, share_ci, wilson

TIMED = "throw_cpu_s"  # the players-table column the ladder needs (study/worker.py times each seat's decisions)


def rated(players) -> bool:
    """Return True if these results can be laddered: decisions were timed and more than one strategy played."""
    return not players.empty and TIMED in players.columns and players.strategy.nunique() > 1


def _ci(value: float, lo: float, hi: float, scale: float = 1.0, digits: int = 1) -> str:
    if math.isnan(value):
        return "–"
    if math.isnan(lo):
        return f"{scale * value:.{digits}f}"
    return f"{scale * value:.{digits}f} [{scale * lo:.{digits}f}, {scale * hi:.{digits}f}]"


def ladder_rows(players) -> list[dict]:
    """Return the ladder as rows: per cell and strategy, each measure as (value, low, high)."""
    rows = []
    for (cell, label), at_table in players.groupby(["cell", "cell_label"], sort=True):
        games = at_table.game.nunique()
        for strategy, seats in at_table.groupby("strategy", sort=True):
            per_game = seats.groupby("game")[["win_share", "points", "groundings", "throws", "fulfilled", "taken",
                                              TIMED]].sum()
            k = len(seats) / games  # seats of this strategy at each table
            share = float(per_game.win_share.sum()) / (games * k)
            lo, hi = wilson(share * games, games)
            rows.append({"cell": int(cell), "label": label, "strategy": strategy, "seats": k, "games": games,
                         "players": int(seats.players.iloc[0]), "win": (share, lo, hi),
                         "points": mean_ci(per_game.points / k),
                         "aground": share_ci(per_game.groundings, per_game.throws),
                         "fulfilled": share_ci(per_game.fulfilled, per_game.taken),
                         "cpu": ratio_ci(per_game[TIMED], per_game.throws)})
    return rows


def ladder_table(players) -> list[str]:
    """Return the ladder as a Markdown table (empty when `rated` is False): the cells in order, within each the best
    win rate per seat first (a strategy is rated against its own table, so cells are not mixed)."""
    if not rated(players):
        return []
    rows = sorted(ladder_rows(players), key=lambda r: (r["cell"], -r["win"][0], r["strategy"]))
    lines = ["| cell | strategy | seats | games | win rate per seat % (fair) | points per game | groundings per move "
             "% | fulfilment % | CPU s per throw decision |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        fair = 100 / r["players"]
        lines.append(f"| {r['label']} | {r['strategy']} | {r['seats']:g} | {r['games']} | "
                     f"{_ci(*r['win'], scale=100)} ({fair:.0f}) | {_ci(*r['points'])} | "
                     f"{_ci(*r['aground'], scale=100)} | {_ci(*r['fulfilled'], scale=100)} | "
                     f"{_ci(*r['cpu'], digits=3)} |")
    return lines


SPLIT = ("throws_full", "launches", "aground_thrown", "aground_thrown_full", "aground_launch")  # `aground_table`'s
BOOTSTRAP = 2000  # resamples of games for `standardised`'s interval (seeded: the same results, the same report)


def _mix_rate(counts: np.ndarray, weight_full: np.ndarray) -> np.ndarray:
    """Return groundings per move at a route mix: counts (..., 5) of groundings, throws, throws_full,
    aground_thrown, aground_thrown_full summed over games; `weight_full`, the share of throws on full-value routes."""
    groundings, throws, throws_full, thrown, thrown_full = np.moveaxis(counts, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        full = thrown_full / throws_full
        half = (thrown - thrown_full) / (throws - throws_full)
        return weight_full * full + (1 - weight_full) * half + (groundings - thrown) / throws


def standardised(mine, field) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Return (groundings per move at the field's route mix, its ratio to the field's groundings per move), each
    as (value, low, high) with a game-resampling 95% interval (module docstring); NaN where a kind of route has no
    throws of `mine` (a strategy that sails one kind only cannot be set at another mix).

    `mine` and `field` are per-game sums (indexed by game) of groundings, throws and `SPLIT`'s columns.
    """
    columns = ["groundings", "throws", "throws_full", "aground_thrown", "aground_thrown_full"]
    games = mine.index.intersection(field.index)
    a, f = mine.loc[games, columns].to_numpy(float), field.loc[games, columns].to_numpy(float)

    def figures(idx):
        sa, sf = a[idx].sum(axis=-2), f[idx].sum(axis=-2)
        weight = sf[..., 2] / sf[..., 1]
        rate = _mix_rate(sa, weight)
        return rate, rate / (sf[..., 0] / sf[..., 1])

    rate, ratio = figures(np.arange(len(games)))
    if not np.isfinite(ratio) or len(games) < 2:
        return (float(rate), math.nan, math.nan), (float(ratio), math.nan, math.nan)
    draws = np.random.default_rng(0).integers(0, len(games), (BOOTSTRAP, len(games)))
    rates, ratios = figures(draws)
    bounds = [np.nanpercentile(x, [2.5, 97.5]) for x in (rates, ratios)]
    return ((float(rate), *map(float, bounds[0])), (float(ratio), *map(float, bounds[1])))


def aground_rows(players) -> list[dict]:
    """Return the groundings split (module docstring) per cell and strategy, each rate as (value, low, high) over
    games with its throws; only games whose rows have the split columns count."""
    if players.empty or not set(SPLIT) <= set(players.columns):
        return []
    players = players[players[list(SPLIT)].notna().all(axis=1)]
    rows = []
    for (cell, label), at_table in players.groupby(["cell", "cell_label"], sort=True):
        field = at_table.strategy.value_counts().idxmax()  # the strategy with the most seats at this table
        field_games = at_table[at_table.strategy == field].groupby("game")[["groundings", "throws", *SPLIT]].sum()
        for strategy, seats in at_table.groupby("strategy", sort=True):
            g = seats.groupby("game")[["groundings", "throws", *SPLIT]].sum()
            parts = {"full": (g.aground_thrown_full, g.throws_full),
                     "half": (g.aground_thrown - g.aground_thrown_full, g.throws - g.throws_full),
                     "launch": (g.aground_launch, g.launches),
                     "other": (g.aground_thrown - g.aground_launch, g.throws - g.launches),
                     "pushed": (g.groundings - g.aground_thrown, g.throws)}
            row = {"cell": int(cell), "label": label, "strategy": strategy, "games": len(g), "field": field,
                   "at_field_mix": standardised(g, field_games) if strategy != field else None}
            for name, (aground, throws) in parts.items():
                row[name] = (share_ci(aground, throws) if throws.sum() else (math.nan,) * 3,
                             int(throws.sum()))
            rows.append(row)
    return rows


def aground_table(players, games=None) -> list[str]:
    """Return the groundings split (`aground_rows`) as a Markdown table, or nothing when no game has it."""
    rows = aground_rows(players) if rated(players) else []
    if not rows:
        return []
    full, half = kind_name(games, True), kind_name(games, False)
    lines = [f"| cell | strategy | games | own throws aground on {full} % (throws) | on {half} % (throws) | "
             "at launches % (throws) | at other throws % (throws) | pushed aground by any throw, per own throw % | "
             "groundings per move at the field's route mix % (× the field's) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r["cell"], r["strategy"])):
        cells = " | ".join(f"{_ci(*r[k][0], scale=100)} ({r[k][1]:,})" for k in ("full", "half", "launch", "other"))
        mix = r["at_field_mix"]
        if mix is None:
            mix = "– (the field)"
        elif math.isnan(mix[0][0]):
            mix = "– (sails one kind of route)"
        else:
            mix = f"{_ci(*mix[0], scale=100)} ({_ci(*mix[1], digits=2)}×)"
        lines.append(f"| {r['label']} | {r['strategy']} | {r['games']} | {cells} | {_ci(*r['pushed'][0], scale=100)} "
                     f"| {mix} |")
    return lines
