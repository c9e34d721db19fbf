"""Two studies' cells compared game by game on the seeds they share: paired differences with 95% intervals.

A game's seed derives from its study's master seed, its cell's index and its number (`seeds.game_seed`). A copy
of a study with one thing changed (a player's parameter, a map's version, a ruling) and the same master seed
plays its cell N's games on the seeds of the original's cell N: the same deck, the same draft order, the same
draws of every hand. The games then differ only by the change and what follows from it, so a measure's
difference taken game by game has a narrower interval than the two cells' own intervals suggest (the search
pilots, somaliland/players/search-pilots.md, were measured so).

Games pair by their `game_seed`, not their number. Seats are compared seat by seat: seats with the same strategy in
both cells (say seats 1–3, ev in both) form one group, each seat whose strategies differ is a group of its own.
For each group: win rate per seat and points per game (the mean of the per-game differences, a normal interval),
groundings per move (R17), its ratio to its table's field's, as played (`ladder.ratio_to_field`: issue 21's form),
fulfilment (R9) and CPU s per throw decision (ratios of per-game totals; the difference's interval from
`ladder.BOOTSTRAP` resamples of the paired games, seeded).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from somaliland.study.errors import StudyError
from somaliland.study.ladder import BOOTSTRAP, TIMED, UNSTABLE, field_of
from somaliland.study.stats import bootstrap_ci, mean_ci

SUMMED = ["win_share", "points", "groundings", "throws", "fulfilled", "taken"]  # per seat group and game
RATIOS = {"groundings per move %": ("groundings", "throws", 100.0), "fulfilment %": ("fulfilled", "taken", 100.0),
          "CPU s per throw decision": (TIMED, "throws", 1.0)}


def cell_rows(players: pd.DataFrame, cell: int, source: str, option: str) -> pd.DataFrame:
    """Return one cell's players rows, or raise a StudyError naming the cells there are."""
    cells = sorted(int(c) for c in players.cell.unique()) if not players.empty else []
    if cell not in cells:
        raise StudyError(source, option, f"a cell of the results ({', '.join(map(str, cells)) or 'none played yet'})",
                         cell)
    return players[players.cell == cell]


def seat_groups(a: pd.DataFrame, b: pd.DataFrame) -> list[tuple[tuple[int, ...], str, str]]:
    """Return the seats both cells have, grouped: (seats, strategy in a, strategy in b), seats of one group having
    the same strategy in both; the groups ordered by their first seat."""
    strategy_a, strategy_b = (t.groupby("seat").strategy.first() for t in (a, b))
    groups: dict[tuple[str, str], list[int]] = {}
    for seat in sorted(set(strategy_a.index) & set(strategy_b.index)):
        groups.setdefault((strategy_a[seat], strategy_b[seat]), []).append(int(seat))
    return sorted(((tuple(seats), sa, sb) for (sa, sb), seats in groups.items()), key=lambda g: g[0])


def _label(seats: tuple[int, ...], strategy_a: str, strategy_b: str) -> str:
    where = f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"
    return f"{where}: {strategy_a}" if strategy_a == strategy_b else f"{where}: {strategy_a} (A), {strategy_b} (B)"


def _ratio_difference(num_a: np.ndarray, den_a: np.ndarray, num_b: np.ndarray, den_b: np.ndarray,
                      scale: float) -> tuple[float, float, float]:
    """Return sum(num)/sum(den) of a less that of b, over paired games, with a bootstrap 95% interval."""
    def stat(w: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = scale * ((w @ num_a) / (w @ den_a) - (w @ num_b) / (w @ den_b))
        return np.where(np.isfinite(value), value, np.nan)

    return bootstrap_ci(stat, len(num_a), resamples=BOOTSTRAP, undefined_share=UNSTABLE)


def _field_difference(mine: tuple[pd.DataFrame, pd.DataFrame], field: tuple[pd.DataFrame, pd.DataFrame]
                      ) -> tuple[float, float, float]:
    """Return the difference a less b of the groundings per move over the field's, as played, with its interval."""
    arrays = [t[c].to_numpy(float) for pair in zip(mine, field) for t in pair for c in ("groundings", "throws")]
    ga, ta, fga, fta, gb, tb, fgb, ftb = arrays

    def stat(w: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = ((w @ ga) / (w @ ta)) / ((w @ fga) / (w @ fta)) - ((w @ gb) / (w @ tb)) / ((w @ fgb) / (w @ ftb))
        return np.where(np.isfinite(value), value, np.nan)

    return bootstrap_ci(stat, len(ga), resamples=BOOTSTRAP, undefined_share=UNSTABLE)


def compare_rows(a: pd.DataFrame, b: pd.DataFrame) -> dict:
    """Return the paired comparison of two cells' players rows (module docstring): {"games": paired games,
    "games_a", "games_b", "groups": [{"label", "seats", "measures": {name: (a, b, (difference, low, high))}}]}.
    A value is NaN where it is undefined (no throws, no contracts, no field); an interval is NaN with fewer than 2
    paired games or, for a ratio, when more than `ladder.UNSTABLE` of the resamples leave it undefined."""
    seeds = sorted(set(a.game_seed) & set(b.game_seed))
    result = {"games": len(seeds), "games_a": int(a.game_seed.nunique()), "games_b": int(b.game_seed.nunique()),
              "groups": []}
    if not seeds:
        return result
    columns = SUMMED + ([TIMED] if TIMED in a.columns and TIMED in b.columns else [])

    def per_game(t: pd.DataFrame, seats: tuple[int, ...]) -> pd.DataFrame:
        rows = t[t.seat.isin(seats)]
        return rows.groupby("game_seed")[columns].sum().reindex(seeds)

    fields = {}
    for side, t in (("a", a), ("b", b)):
        at_table = t[t.game_seed.isin(seeds)]
        field = field_of(at_table)
        fields[side] = (field, None if field is None else
                        per_game(t, tuple(int(s) for s in at_table[at_table.strategy == field].seat.unique())))
    for seats, strategy_a, strategy_b in seat_groups(a, b):
        ga, gb = per_game(a, seats), per_game(b, seats)
        k = len(seats)
        measures: dict[str, tuple[float, float, tuple[float, float, float]]] = {}
        for name, column, scale in (("win rate per seat %", "win_share", 100.0), ("points per game", "points", 1.0)):
            x, y = scale * ga[column].to_numpy(float) / k, scale * gb[column].to_numpy(float) / k
            measures[name] = (float(x.mean()), float(y.mean()), mean_ci(x - y))
        for name, (num, den, scale) in RATIOS.items():
            if num not in columns:
                continue
            parts = [t[c].to_numpy(float) for t in (ga, gb) for c in (num, den)]
            with np.errstate(divide="ignore", invalid="ignore"):
                sides = [scale * parts[0].sum() / parts[1].sum(), scale * parts[2].sum() / parts[3].sum()]
            measures[name] = (*(float(s) if math.isfinite(s) else math.nan for s in sides),
                              _ratio_difference(*parts, scale=scale))
        (field_a, games_a), (field_b, games_b) = fields["a"], fields["b"]
        if field_a not in (None, strategy_a) and field_b not in (None, strategy_b):
            ratio: Callable[[pd.DataFrame, pd.DataFrame], float] = lambda m, f: (
                (m.groundings.sum() / m.throws.sum()) / (f.groundings.sum() / f.throws.sum())
                if m.throws.sum() and f.groundings.sum() else math.nan)
            measures["× the field's groundings per move"] = (ratio(ga, games_a), ratio(gb, games_b),
                                                            _field_difference((ga, gb), (games_a, games_b)))
        result["groups"].append({"label": _label(seats, strategy_a, strategy_b), "seats": seats,
                                 "field": (field_a, field_b), "measures": measures})
    return result


def _number(value: float, digits: int) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def _difference(d: tuple[float, float, float], digits: int) -> str:
    value, low, high = d
    if not math.isfinite(value):
        return "–"
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{value:+.{digits}f} (no interval)"
    return f"{value:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"


DIGITS = {"CPU s per throw decision": 3, "× the field's groundings per move": 2}


def compare_table(result: dict, name_a: str, name_b: str) -> list[str]:
    """Return the comparison as Markdown lines: what was paired, then one row per seat group and measure."""
    lines = [f"A: {name_a} ({result['games_a']:,} games); B: {name_b} ({result['games_b']:,} games); "
             f"{result['games']:,} games paired by their seeds.", "",
             "| seats | measure | A | B | A − B [95%] |", "|---|---|---|---|---|"]
    for group in result["groups"]:
        for measure, (va, vb, d) in group["measures"].items():
            digits = DIGITS.get(measure, 1)
            lines.append(f"| {group['label']} | {measure} | {_number(va, digits)} | {_number(vb, digits)} | "
                         f"{_difference(d, digits)} |")
    return lines
