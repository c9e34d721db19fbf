"""Two studies' cells compared game by game on the seeds they share: paired differences with 95% intervals.

A game's seed derives from its study's master seed, its cell's index and its number (`seeds.game_seed`). A copy
of a study with one thing changed (a player's parameter, a map's version, a ruling) and the same master seed
plays its cell N's games on the seeds of the original's cell N: the same deck, the same draft order, the same
draws of every hand. The games then differ only by the change and what follows from it, so a measure's
difference taken game by game has a narrower interval than the two cells' own intervals give as far as the
paired games stay alike (on the default board the dice soon part them: seat 0's points correlated 0.22 across
pairs, a 12% narrower interval; experiments/README.md, "Comparing two studies game by game"). Cells of different
indices, or of studies with different master seeds, share no seed and cannot be paired.

Games pair by their `game_seed`, not their number or their rows' order. Seats are compared seat by seat, grouped:
the seats that play the same seat setup (strategy, throw skill, parameters) in A and the same in B form one group
(say seats 1–3, ev at skill 0.75 in both). For each group: win rate per seat and points per game (the mean of the
per-game differences, a normal interval), groundings per move (R17), its ratio to its table's field's, as played
(`ladder.ratio_to_field`: issue 21's form) and in the two other readings of the Ladder section's groundings split
(its own throws aground per throw over the field's; its groundings per move at the field's route mix over the
field's, `ladder.standardised`; games played since those columns exist), fulfilment (R9) and CPU s per throw
decision (ratios of per-game totals; the difference's interval from `ladder.BOOTSTRAP` resamples of the paired
games, seeded). Each measure
counts the games where it is defined on both sides (a game without timing, a seat without a row, no contracts
taken), and says how many.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from somaliland.study.ladder import BOOTSTRAP, MIXED, SPLIT, TIMED, UNSTABLE, at_field_mix, field_of
from somaliland.study.stats import bootstrap_ci, mean_ci

COLUMNS = ["win_share", "points", "groundings", "throws", "fulfilled", "taken", TIMED, *SPLIT]  # summed per group, game
MEANS = {"win rate per seat %": ("win_share", 100.0), "points per game": ("points", 1.0)}
RATIOS = {"groundings per move %": ("groundings", "throws", 100.0), "fulfilment %": ("fulfilled", "taken", 100.0),
          "CPU s per throw decision": (TIMED, "throws", 1.0)}
FIELD = "× the field's groundings per move"
OWN = "× the field's own throws aground per throw"
MIX = "× the field's groundings per move, at the field's route mix"
DIGITS = {"CPU s per throw decision": 3, FIELD: 2, OWN: 2, MIX: 2}
CPU_NOTE = ("CPU s per throw decision depends on the machine and its load: a difference means something only between "
            "runs on one machine at one load.")
POINTS_NOTE = "A − B of a measure in % (a rate) is in percentage points."


def seat_groups(setups_a: dict[int, str], setups_b: dict[int, str]) -> list[tuple[tuple[int, ...], str, str]]:
    """Return the seats both cells have, grouped: (seats, setup in a, setup in b), the seats of a group having the
    same setup in a and the same in b; the groups ordered by their first seat."""
    groups: dict[tuple[str, str], list[int]] = {}
    for seat in sorted(set(setups_a) & set(setups_b)):
        groups.setdefault((setups_a[seat], setups_b[seat]), []).append(seat)
    return sorted(((tuple(seats), sa, sb) for (sa, sb), seats in groups.items()), key=lambda g: g[0])


def table_setups(players: pd.DataFrame) -> dict[int, str]:
    """Return each seat's setup as its strategy and skill from the players rows (when the study file is not at
    hand: parameters set outside a sweep are then not told apart)."""
    first = players.groupby("seat")[[c for c in ("strategy", "skill") if c in players.columns]].first()
    return {int(seat): (f"{row.strategy} (skill {row.skill:g})" if "skill" in first.columns else str(row.strategy))
            for seat, row in first.iterrows()}


def _label(seats: tuple[int, ...], setup_a: str, setup_b: str) -> str:
    where = f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"
    return f"{where}: {setup_a}" if setup_a == setup_b else f"{where}: {setup_a} in A, {setup_b} in B"


def _measure(a: np.ndarray, b: np.ndarray, stat, value) -> dict:
    """Return a measure on the games where it is defined on both sides: each side's value, the difference and its
    interval. `a` and `b` are (games, columns) arrays; `value(x)` a side's figure, `stat(wa, wb)` the difference
    for rows of game weights (the paired bootstrap draws the same games on both sides)."""
    keep = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    a, b = a[keep], b[keep]
    ones = np.ones(len(a))
    side_a, side_b = (float(value(x, ones)) if len(x) else math.nan for x in (a, b))
    difference, low, high = (math.nan,) * 3
    if len(a):
        difference, low, high = stat(a, b)
    finite = [v if math.isfinite(v) else math.nan for v in (side_a, side_b, difference, low, high)]
    return dict(zip(("a", "b", "difference", "low", "high"), finite), games=int(keep.sum()))


def _mean_stat(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    return mean_ci(a[:, 0] - b[:, 0])


def _mean_value(x: np.ndarray, w: np.ndarray) -> float:
    return float(w @ x[:, 0] / w.sum())


def _ratio_value(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Return sum(num) / sum(den) (columns 0 and 1) for each row of weights; with columns 2 and 3, that over the
    field's own (the field ratio)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mine = (w @ x[:, 0]) / (w @ x[:, 1])
        return mine / ((w @ x[:, 2]) / (w @ x[:, 3])) if x.shape[1] == 4 else mine


def _paired_stat(value):
    """Return the statistic of a ratio measure: `value(x, w)` on each side for the same rows of game weights (the
    paired bootstrap draws the same games on both sides), A's less B's, with its interval."""
    def stat(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
        def difference(w: np.ndarray) -> np.ndarray:
            d = value(a, w) - value(b, w)
            return np.where(np.isfinite(d), d, np.nan)
        return bootstrap_ci(difference, len(a), resamples=BOOTSTRAP, undefined_share=UNSTABLE)
    return stat


def _mix_value(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Return groundings per move at the field's route mix over the field's own (`ladder.at_field_mix`) for each
    row of weights: columns 0-4 a side's seats' `MIXED` counts per game, 5-9 its field's."""
    return at_field_mix(w @ x[:, :5], w @ x[:, 5:])[1]


def compare_rows(a: pd.DataFrame, b: pd.DataFrame, setups_a: dict[int, str] | None = None,
                 setups_b: dict[int, str] | None = None) -> dict:
    """Return the paired comparison of two cells' players rows (module docstring): {"games": the games paired,
    "games_a", "games_b": each cell's games, "groups": [{"label", "seats", "field": (a's, b's), "measures": {name:
    {"a", "b", "difference", "low", "high", "games"}}}]}. `setups_x` name each seat's setup (default: its strategy
    and skill, `table_setups`). A figure is NaN where it is undefined (no games defined on both sides, no throws,
    no contracts, a field that never ran aground); an interval is NaN with fewer than 2 games or, for a ratio, when
    more than `ladder.UNSTABLE` of the resamples leave it undefined. A measure of a column one side lacks (CPU
    of games played before decisions were timed) is NaN with 0 games."""
    seeds = sorted(set(a.game_seed) & set(b.game_seed))
    result = {"games": len(seeds), "games_a": int(a.game_seed.nunique()), "games_b": int(b.game_seed.nunique()),
              "groups": []}
    if not seeds:
        return result
    a, b = a[a.game_seed.isin(seeds)], b[b.game_seed.isin(seeds)]
    setups_a, setups_b = setups_a or table_setups(a), setups_b or table_setups(b)

    def per_game(t: pd.DataFrame, seats) -> pd.DataFrame:
        """Sums over the seats per game, NaN where a game lacks a seat's row or a value (never counted as 0)."""
        rows = t[t.seat.isin(seats)].reindex(columns=["game_seed", "seat", *COLUMNS])
        grouped = rows.groupby("game_seed")[COLUMNS]
        return grouped.sum().mask(grouped.count().lt(len(seats))).reindex(seeds)

    fields = {}
    for side, t in (("a", a), ("b", b)):
        field = field_of(t)
        fields[side] = (field, None if field is None else per_game(t, t[t.strategy == field].seat.unique()))
    (field_a, whole_a), (field_b, whole_b) = fields["a"], fields["b"]
    for seats, setup_a, setup_b in seat_groups(setups_a, setups_b):
        ga, gb = per_game(a, seats), per_game(b, seats)
        k = len(seats)
        measures = {}
        for name, (column, scale) in MEANS.items():
            x, y = (scale * g[[column]].to_numpy(float) / k for g in (ga, gb))
            measures[name] = _measure(x, y, _mean_stat, _mean_value)
        for name, (num, den, scale) in RATIOS.items():
            x, y = (g[[num, den]].to_numpy(float) for g in (ga, gb))
            scaled = lambda v, w, s=scale: s * _ratio_value(v, w)
            measures[name] = _measure(x, y, _paired_stat(scaled), scaled)
        strategies_a, strategies_b = (set(t[t.seat.isin(seats)].strategy) for t in (a, b))
        if field_a not in (None, *strategies_a) and field_b not in (None, *strategies_b):
            for name, columns, value in ((FIELD, ["groundings", "throws"], _ratio_value),
                                         (OWN, ["aground_thrown", "throws"], _ratio_value), (MIX, MIXED, _mix_value)):
                x, y = (np.column_stack([g[columns].to_numpy(float), w[columns].to_numpy(float)])
                        for g, w in ((ga, whole_a), (gb, whole_b)))  # the group's columns, then its field's
                measures[name] = _measure(x, y, _paired_stat(value), value)
        result["groups"].append({"label": _label(seats, setup_a, setup_b), "seats": seats,
                                 "field": (field_a, field_b), "measures": measures})
    return result


def _number(value: float, digits: int) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def _difference(m: dict, digits: int) -> str:
    if not math.isfinite(m["difference"]):
        return "–"
    if not (math.isfinite(m["low"]) and math.isfinite(m["high"])):
        return f"{m['difference']:+.{digits}f} (no interval)"
    return f"{m['difference']:+.{digits}f} [{m['low']:+.{digits}f}, {m['high']:+.{digits}f}]"


def compare_table(result: dict, name_a: str, name_b: str) -> list[str]:
    """Return the comparison as Markdown lines: what was paired, then one row per seat group and measure."""
    lines = [f"- A: {name_a}", f"- B: {name_b}",
             f"- {result['games']:,} games paired by their seeds, of A's {result['games_a']:,} and B's "
             f"{result['games_b']:,}; A's and B's figures below are on the paired games (a measure on fewer says "
             f"how many).", "", "| seats | measure | A | B | A − B [95%] | games |", "|---|---|---|---|---|---|"]
    cpu = False
    for group in result["groups"]:
        for i, (measure, m) in enumerate(group["measures"].items()):
            digits = DIGITS.get(measure, 1)
            cpu |= measure == "CPU s per throw decision" and m["games"] > 0
            lines.append(f"| {group['label'] if i == 0 else ''} | {measure} | {_number(m['a'], digits)} | "
                         f"{_number(m['b'], digits)} | {_difference(m, digits)} | {m['games']:,} |")
    rates = any(measure.endswith("%") for group in result["groups"] for measure in group["measures"])
    return lines + (["", POINTS_NOTE] if rates else []) + (["", CPU_NOTE] if cpu else [])
