"""The ladder: each strategy and strength at a study's tables rated with 95% intervals.

One row per cell and strategy at its table (the seats playing it, e.g. one `search` seat against three `ev`
seats): the win rate of its first seat (pooled over all its seats, a strategy holding the whole table would win
its fair share by definition), points per game per seat, groundings per move (throws aground per throw, R17), fulfilment
(contracts fulfilled per contract taken, R9) and CPU seconds per throw decision; beside the groundings, their
ratio to the table's field's (the strategy with the most seats there, as played: `ratio_to_field`, the form of
the search's bar, "at most half of ev's"). Games are the independent
units: a rate over several seats of one game, or a ratio of per-game totals, takes its interval over games
(`stats.ratio_ci`, the ratio estimator; a share of counted items, `stats.share_ci`, never narrower than Wilson's
on the pooled counts and within [0, 1]); a single seat's win rate takes Wilson's.

`aground_table` splits each strategy's groundings by cause and place: its own throws that ran their ship
aground (R17) per throw, all of them (and over the field's, as played: a strategy's moves that ran aground, the
pushes of others left out), on the map's full-value route(s) and on the others (R8), at launching throws (R12)
against all other throws, and its ships pushed aground by any throw (R18) per throw of its own. A strategy that
sails the riskier route more runs aground more often per move without throwing worse; these rates tell the two
apart, and `standardised` sums them into one figure: a strategy's groundings per move had it split its throws
between the kinds of route as its table's field did (the strategy with more seats there than any other; direct
standardisation: its own rate on each kind of route weighted by the field's share of throws on that kind, plus
its pushed groundings), against the field's own groundings per move, with a 95% interval from resampling games
(`BOOTSTRAP`, a fixed seed). Only the kind of route is standardised: its launches, its seat and the ships that
push it are as they were. They need the players-table columns `throws_full`, `launches`, `aground_thrown`,
`aground_thrown_full` and `aground_launch` (games played before they were recorded are left out and the table
says how many games it rests on).
"""

from __future__ import annotations

import math

import numpy as np

from somaliland.study.routenames import kind_name
from somaliland.study.stats import bootstrap_ci, mean_ci, ratio_ci, share_ci, wilson

TIMED = "throw_cpu_s"  # the players-table column the ladder needs (study/worker.py times each seat's decisions)
BOOTSTRAP = 2000  # resamples of games for the intervals of `ratio_to_field` and `standardised` (seeded: the same
# results, the same report)
UNSTABLE = 0.01  # a share of resamples above which an undefined figure withholds its interval
NO_FIELD = "no field: no strategy holds more seats than every other"  # e.g. one against one: nothing to compare with


def rated(players) -> bool:
    """Return True if these results can be laddered: decisions were timed and more than one strategy played."""
    return not players.empty and TIMED in players.columns and players.strategy.nunique() > 1


def _ci(value: float, lo: float, hi: float, scale: float = 1.0, digits: int = 1) -> str:
    if math.isnan(value):
        return "–"
    if math.isnan(lo):
        return f"{scale * value:.{digits}f}"
    return f"{scale * value:.{digits}f} [{scale * lo:.{digits}f}, {scale * hi:.{digits}f}]"


def field_of(at_table) -> str | None:
    """Return a table's field: the strategy with more seats there than any other, or None when two tie."""
    seats_of = at_table.strategy.value_counts()
    return seats_of.index[0] if len(seats_of) == 1 or seats_of.iloc[0] > seats_of.iloc[1] else None


def ratio_to_field(mine, field, column: str = "groundings") -> dict:
    """R17: `mine`'s groundings per move over the field's, both as played (the issue-21 bar's form), with a 95%
    interval from `BOOTSTRAP` resamples of the games both played, drawn together (seeded). `mine` and `field` are
    per-game sums of throws and of `column`: groundings, or `aground_thrown` for own throws that ran aground. Returns {"ratio": (value, low, high), "why": ""}, or, where the ratio is
    undefined, NaNs and why: no game shared, no throws of `mine`, a field that never ran aground; the interval alone is
    NaN with fewer than 2 games or when more than `UNSTABLE` of the resamples leave the ratio undefined."""
    games = mine.index.intersection(field.index)
    a = mine.loc[games, [column, "throws"]].to_numpy(float)
    f = field.loc[games, [column, "throws"]].to_numpy(float)
    nan3 = (math.nan,) * 3
    (ma, ta), (mf, tf) = a.sum(axis=0), f.sum(axis=0)
    why = ("no game with the field" if len(games) == 0 else "no throws" if ta == 0
           else "the field never ran aground" if mf == 0 else "")
    if why:
        return {"ratio": nan3, "why": why}

    def ratio(weights: np.ndarray) -> np.ndarray:
        sa, sf = weights @ a, weights @ f
        with np.errstate(divide="ignore", invalid="ignore"):
            value = (sa[:, 0] / sa[:, 1]) / (sf[:, 0] / sf[:, 1])
        return np.where(np.isfinite(value), value, np.nan)

    value = (ma / ta) / (mf / tf)
    _, low, high = bootstrap_ci(ratio, len(games), resamples=BOOTSTRAP, undefined_share=UNSTABLE)
    finite = math.isfinite(low) and math.isfinite(high)
    return {"ratio": (value, low, high) if finite else (value, math.nan, math.nan), "why": ""}


def ladder_rows(players) -> list[dict]:
    """Return the ladder as rows: per cell and strategy, each measure as (value, low, high); `vs_field`, its
    groundings per move over its table's field's (`ratio_to_field`: the ratio and why it is missing), None for the
    field itself or at a table without one."""
    rows = []
    for (cell, label), at_table in players.groupby(["cell", "cell_label"], sort=True):
        games = at_table.game.nunique()
        field = field_of(at_table)
        by_strategy = {strategy: (seats, seats.groupby("game")[["win_share", "points", "groundings", "throws",
                                                                 "fulfilled", "taken", TIMED]].sum())
                       for strategy, seats in at_table.groupby("strategy", sort=True)}
        for strategy, (seats, per_game) in by_strategy.items():
            k = len(seats) / games  # seats of this strategy at each table
            timed = seats.dropna(subset=[TIMED]).groupby("game")[[TIMED, "throws"]].sum()  # not untimed games as 0 s
            # a win rate per seat is its first seat's: pooled over every seat of a strategy that holds the whole
            # table it would be the fair share by definition
            first = int(seats.seat.min())
            share = float(seats[seats.seat == first].win_share.sum()) / games
            lo, hi = wilson(share * games, games)
            rows.append({"cell": int(cell), "label": label, "strategy": strategy, "seats": k, "games": games,
                         "players": int(seats.players.iloc[0]), "win": (share, lo, hi), "first_seat": first,
                         "points": mean_ci(per_game.points / k),
                         "aground": share_ci(per_game.groundings, per_game.throws),
                         "fulfilled": share_ci(per_game.fulfilled, per_game.taken),
                         "cpu": ratio_ci(timed[TIMED], timed.throws), "field": field,
                         "vs_field": (ratio_to_field(per_game, by_strategy[field][1])
                                      if field not in (None, strategy) else None)})
    return rows


def ladder_table(players) -> list[str]:
    """Return the ladder as a Markdown table (empty when `rated` is False): the cells in order, within each the best
    win rate per seat first (a strategy is rated against its own table, so cells are not mixed)."""
    if not rated(players):
        return []
    rows = sorted(ladder_rows(players), key=lambda r: (r["cell"], -r["win"][0], r["strategy"]))
    lines = ["| cell | strategy | seats | games | win rate of its first seat % (fair) | points per game per seat | "
             "groundings per move % | × the field's | fulfilment % | CPU s per throw decision |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    notes: list[str] = []
    for r in rows:
        fair = 100 / r["players"]
        ratio = r["vs_field"]["ratio"] if r["vs_field"] else None
        vs = ("– (the field)" if r["field"] == r["strategy"] else footnote(notes, NO_FIELD) if r["field"] is None
              else footnote(notes, r["vs_field"]["why"]) if r["vs_field"]["why"]
              else f"{_ci(*ratio, digits=2)}×" + (" (too few games for an interval)" if math.isnan(ratio[1]) else ""))
        seat = f", seat {r['first_seat']}" if r["seats"] > 1 else ""
        lines.append(f"| {r['label']} | {r['strategy']} | {r['seats']:g} | {r['games']} | "
                     f"{_ci(*r['win'], scale=100)} ({fair:.0f}{seat}) | {_ci(*r['points'])} | "
                     f"{_ci(*r['aground'], scale=100)} | {vs} | {_ci(*r['fulfilled'], scale=100)} | "
                     f"{_ci(*r['cpu'], digits=3)} |")
    return lines + footnotes(notes)


def footnote(notes: list[str], text: str) -> str:
    """Return a table cell that points to a note ("– (a)"), the note kept once in `notes` for `footnotes`."""
    if text not in notes:
        notes.append(text)
    return f"– ({chr(ord('a') + notes.index(text))})"


def footnotes(notes: list[str]) -> list[str]:
    """Return the lines under a table that say what its notes mean, each once."""
    return ["", *(f"({chr(ord('a') + i)}) {text}." for i, text in enumerate(notes))] if notes else []


SPLIT = ("throws_full", "launches", "aground_thrown", "aground_thrown_full", "aground_launch")  # `aground_table`'s
MIXED = ["groundings", "throws", "throws_full", "aground_thrown", "aground_thrown_full"]  # `at_field_mix`'s counts


def _mix_rate(counts: np.ndarray, weight_full: np.ndarray) -> np.ndarray:
    """Return groundings per move at a route mix: counts (..., 5) of groundings, throws, throws_full,
    aground_thrown, aground_thrown_full summed over games; `weight_full`, the share of throws on full-value routes.
    A kind of route the mix gives no weight needs no throws (its term is 0); one it weighs but with no throws
    leaves the figure undefined (NaN)."""
    groundings, throws, throws_full, thrown, thrown_full = np.moveaxis(counts, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        full = np.where(weight_full == 0, 0.0, weight_full * (thrown_full / throws_full))
        half = np.where(weight_full == 1, 0.0, (1 - weight_full) * ((thrown - thrown_full) / (throws - throws_full)))
        return full + half + (groundings - thrown) / throws


def at_field_mix(mine: np.ndarray, field: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (rate, ratio): a strategy's groundings per move at its field's route mix, and that over the field's
    own groundings per move, from counts (..., 5) in `MIXED` order summed over games, the strategy's and its
    field's; the ratio NaN where it is undefined."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = _mix_rate(mine, field[..., 2] / field[..., 1])
        ratio = rate / (field[..., 0] / field[..., 1])
    return rate, np.where(np.isfinite(ratio), ratio, np.nan)


def standardised(mine, field) -> dict:
    """Return `mine`'s groundings per move at the field's route mix and its ratio to the field's own (module
    docstring): {"games": the games both played, "rate" and "ratio": (value, low, high)}, the interval from
    `BOOTSTRAP` resamples of those games drawn together (seeded). A figure is NaN where it is undefined: no game
    shared, no throws of `mine` on a kind of route the field sails, a field that never ran aground (no ratio);
    the interval is NaN when more than `UNSTABLE` of the resamples leave it undefined.

    `mine` and `field` are per-game sums (indexed by game) of groundings, throws and `SPLIT`'s columns. Only the
    route kind is standardised: launches, seats and the ships that push are as each played them.
    """
    games = mine.index.intersection(field.index)
    nan3 = (math.nan,) * 3
    if len(games) == 0:
        return {"games": 0, "rate": nan3, "ratio": nan3}
    a, f = mine.loc[games, MIXED].to_numpy(float), field.loc[games, MIXED].to_numpy(float)

    def figures(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (rate, ratio) for each row of game counts (k, n): each game taken that many times."""
        return at_field_mix(counts @ a, counts @ f)

    rate, ratio = (float(x[0]) for x in figures(np.ones((1, len(games)))))
    result = {"games": len(games), "rate": (rate, math.nan, math.nan), "ratio": (ratio, math.nan, math.nan)}
    for name, value, part in (("rate", rate, 0), ("ratio", ratio, 1)):
        _, low, high = bootstrap_ci(lambda w: figures(w)[part], len(games), resamples=BOOTSTRAP,
                                    undefined_share=UNSTABLE)
        if math.isfinite(low) and math.isfinite(high):  # else no interval: too few games, or too unstable
            result[name] = (value, low, high)
    return result


def aground_rows(players) -> list[dict]:
    """Return the groundings split (module docstring) per cell and strategy, each rate as (value, low, high) over
    games with its throws; only games whose rows have the split columns count."""
    if players.empty or not set(SPLIT) <= set(players.columns):
        return []
    players = players[players[list(SPLIT)].notna().all(axis=1)]
    rows = []
    for (cell, label), at_table in players.groupby(["cell", "cell_label"], sort=True):
        field = field_of(at_table)
        field_games = (at_table[at_table.strategy == field].groupby("game")[["groundings", "throws", *SPLIT]].sum()
                       if field is not None else None)
        for strategy, seats in at_table.groupby("strategy", sort=True):
            g = seats.groupby("game")[["groundings", "throws", *SPLIT]].sum()
            parts = {"own": (g.aground_thrown, g.throws),
                     "full": (g.aground_thrown_full, g.throws_full),
                     "half": (g.aground_thrown - g.aground_thrown_full, g.throws - g.throws_full),
                     "launch": (g.aground_launch, g.launches),
                     "other": (g.aground_thrown - g.aground_launch, g.throws - g.launches),
                     "pushed": (g.groundings - g.aground_thrown, g.throws)}
            beside = field not in (None, strategy)
            row = {"cell": int(cell), "label": label, "strategy": strategy, "games": len(g), "field": field,
                   "at_field_mix": standardised(g, field_games) if beside else None,
                   "own_vs_field": ratio_to_field(g, field_games, column="aground_thrown") if beside else None}
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
    lines = [f"| cell | strategy | games | own throws aground, all % (× the field's) | on {full} % (throws) | "
             f"on {half} % (throws) | at launches % (throws) | at other throws % (throws) | "
             "pushed aground by any throw, per own throw % | "
             "groundings per move at the field's route mix % (× the field's) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    notes: list[str] = []
    for r in sorted(rows, key=lambda r: (r["cell"], r["strategy"])):
        own = _ci(*r["own"][0], scale=100)
        if r["own_vs_field"] is not None:
            ratio, why = r["own_vs_field"]["ratio"], r["own_vs_field"]["why"]
            own += f" {footnote(notes, why).removeprefix('– ')}" if why else f" ({_ci(*ratio, digits=2)}×)"
        cells = " | ".join([own, *(f"{_ci(*r[k][0], scale=100)} ({r[k][1]:,})"
                                   for k in ("full", "half", "launch", "other"))])
        mix = r["at_field_mix"]
        if mix is None:
            mix = "– (the field)" if r["field"] == r["strategy"] else footnote(notes, NO_FIELD)
        elif mix["games"] == 0:
            mix = footnote(notes, "no game with the field")
        elif math.isnan(mix["rate"][0]):
            mix = footnote(notes, "no throws on a kind of route the field sails")
        else:
            ratio = "no ratio: the field never ran aground" if math.isnan(mix["ratio"][0]) else \
                f"{_ci(*mix['ratio'], digits=2)}×"
            mix = f"{_ci(*mix['rate'], scale=100)} ({ratio}; {mix['games']} games)"
        lines.append(f"| {r['label']} | {r['strategy']} | {r['games']} | {cells} | {_ci(*r['pushed'][0], scale=100)} "
                     f"| {mix} |")
    return lines + footnotes(notes)
