"""Balance measures a tuning aims at, each estimated from a candidate's games with its 95% interval.

Games are the independent units: a share of contracts is a ratio of per-game totals (delta-method
interval, `stats.ratio_ci`; for a share of counted items never narrower than Wilson's on the pooled counts and
within [0, 1], `stats.share_ci`), a per-game mean has a normal interval (`stats.mean_ci`), and the measures
built from several rates (the largest seat edge, the spread between strategies, where two fitted lines
cross) take a percentile bootstrap over games (fixed seed, so the same games give the same interval).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from somaliland.study.stats import bootstrap_ci, mean_ci, ratio_ci, share_ci

BOOTSTRAP = 1000  # resamples of the games
BOOTSTRAP_SEED = 0
UNDEFINED_SHARE = 0.025  # more resamples than this without a value: the interval is unbounded


@dataclass(frozen=True, slots=True)
class Estimate:
    """A measure's value on some games, with its 95% interval (nan when the games cannot tell)."""

    value: float
    low: float
    high: float
    games: int

    def as_list(self) -> list[float]:
        """Return [value, low, high, games], for JSON."""
        return [self.value, self.low, self.high, self.games]


@dataclass(frozen=True, slots=True)
class Games:
    """The result tables of a candidate's games (pandas DataFrames), only games that finished."""

    players: Any
    contracts: Any
    captures: Any
    games: Any

    @property
    def ids(self) -> np.ndarray:
        """Return the games' numbers, in order."""
        return np.sort(self.games.game.to_numpy()) if len(self.games) else np.zeros(0, dtype=int)


@dataclass(frozen=True, slots=True)
class Measure:
    """A named balance measure: what it is, which filters a target may give it, and how it is computed."""

    name: str
    means: str
    share: bool  # a proportion (shown in percent)
    filters: tuple[str, ...]
    compute: Callable[[Games, dict[str, str]], tuple[float, float, float]]
    needs_strategies: int = 0  # distinct strategies the seats must play
    axis: str = ""  # what a figure's axis names it, in a few words
    unit: str = ""  # the unit its axis is in (% for a share, drawn times 100)
    signed: bool = False  # it can be below 0 (otherwise its axis starts at 0)


def _per_game(games: Games, frame: Any, values: Callable[[Any], Any] = lambda f: f.game * 0 + 1) -> np.ndarray:
    """Return per-game totals of `values(frame)` (default: rows), 0 for games without rows."""
    if len(frame) == 0:
        return np.zeros(len(games.ids))
    return values(frame).astype(float).groupby(frame.game).sum().reindex(games.ids, fill_value=0).to_numpy()


def _contracts(games: Games, filters: dict[str, str]) -> Any:
    c = games.contracts
    if len(c) and "route" in filters:
        c = c[c.full_route == (filters["route"] == "full")]
    return c


def _full_route_share(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    c = games.contracts
    return share_ci(_per_game(games, c, lambda f: f.full_route), _per_game(games, c))


def _fulfilment(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    c = _contracts(games, filters)
    return share_ci(_per_game(games, c, lambda f: f.fulfilled), _per_game(games, c))


def _seizures_per_turn(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    g = games.games.set_index("game").reindex(games.ids)
    return share_ci(_per_game(games, games.captures), g.turns.to_numpy(dtype=float))


def _seizure_share(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    g = games.games.set_index("game").reindex(games.ids)
    return share_ci(g.turns_full_at_sea_seized.to_numpy(dtype=float), g.turns_full_at_sea.to_numpy(dtype=float))


def _half_value_seized(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    """D15: the share of seizures that took a ship on a half-value route (none under D15's default). A check of
    the rule, not a sample: its zero under D15 is the rule's, so it keeps the ratio estimator's interval (0 to 0)."""
    k = games.captures
    return ratio_ci(_per_game(games, k, lambda f: ~f.full_route.astype(bool)), _per_game(games, k))


def _contracts_per_game(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    """Contracts taken in a game, all players and rounds (R5): of deal_size x rounds laid out, how many the draft took."""
    return mean_ci(_per_game(games, games.contracts))


def _game_length(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    return mean_ci(games.games.throws.to_numpy(dtype=float))


def _ransom_share(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    p = games.players
    return ratio_ci(_per_game(games, p, lambda f: f.ransom),
                    _per_game(games, p, lambda f: f.full + f.half / 2))  # R21: the half-value route pays half


def _mean_score(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    p = games.players
    if "strategy" in filters:
        p = p[p.strategy == filters["strategy"]]
    return mean_ci(p.groupby("game").points.mean().to_numpy(dtype=float))


def _seat_advantage(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    p = games.players
    k = int(games.games.players.iloc[0]) if len(games.games) else 0
    wins = p.pivot_table(index="game", columns="order", values="win_share", aggfunc="sum")
    wins = wins.reindex(index=games.ids, columns=range(k), fill_value=0).fillna(0).to_numpy(dtype=float)

    def stat(w: np.ndarray) -> np.ndarray:
        return (w @ wins).max(axis=1) / w.sum(axis=1) - 1 / k

    return _bootstrap(stat, len(games.ids))


def _strategy_spread(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    p = games.players
    names = sorted(p.strategy.unique())
    wins = p.pivot_table(index="game", columns="strategy", values="win_share", aggfunc="sum")
    seats = p.pivot_table(index="game", columns="strategy", values="seat", aggfunc="count")
    wins, seats = (t.reindex(index=games.ids, columns=names, fill_value=0).fillna(0).to_numpy(dtype=float)
                   for t in (wins, seats))

    def stat(w: np.ndarray) -> np.ndarray:
        rates = (w @ wins) / (w @ seats)
        return rates.max(axis=1) - rates.min(axis=1)

    return _bootstrap(stat, len(games.ids))


def _crossover_value(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    """R8: the contract value at which the straight lines fitted to net points (points - ransom) against
    value on the full-value and the half-value route cross; sailed contracts (a ship sent) only."""
    c = games.contracts
    c = c[c.ships > 0] if len(c) else c
    columns = []
    for full in (True, False):
        mine = c[c.full_route == full] if len(c) else c
        columns += [_per_game(games, mine), _per_game(games, mine, lambda f: f.value),
                    _per_game(games, mine, lambda f: f.value.astype(float) ** 2),
                    _per_game(games, mine, lambda f: f.points - f.ransom),
                    _per_game(games, mine, lambda f: f.value * (f.points - f.ransom))]
    stats = np.stack(columns, axis=1)

    def stat(w: np.ndarray) -> np.ndarray:
        s = w @ stats
        lines = []
        for n, sv, svv, sy, svy in (s[:, :5].T, s[:, 5:].T):
            with np.errstate(divide="ignore", invalid="ignore"):
                det = n * svv - sv * sv
                slope = np.where((n >= 2) & (det > 1e-9 * np.maximum(n * svv, 1)), (n * svy - sv * sy) / det, np.nan)
                lines.append((slope, (sy - slope * sv) / n))
        (b_full, a_full), (b_half, a_half) = lines
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = (a_half - a_full) / (b_full - b_half)
        return np.where(np.isfinite(cross), cross, np.nan)

    return _bootstrap(stat, len(games.ids))


def _route_gap(games: Games, filters: dict[str, str]) -> tuple[float, float, float]:
    """R8: net points (points - ransom) per sailed contract on the full-value route minus on the half-value
    one, among the contracts of a value band (`values`: the cheapest, middle or dearest third of the contract
    values the games dealt, or all). The crossover as two stable gaps: negative for cheap cargo and positive
    for dear cargo means the routes' net points cross inside the contract values."""
    c = games.contracts
    c = c[c.ships > 0] if len(c) else c
    band = filters.get("values", "all")
    if len(c) and band != "all":
        values = np.sort(c.value.unique())
        thirds = np.array_split(values, 3)
        chosen = {"cheap": thirds[0], "middle": thirds[1], "dear": thirds[2]}[band]
        c = c[c.value.isin(chosen)]
    columns = []
    for full in (True, False):
        mine = c[c.full_route == full] if len(c) else c
        columns += [_per_game(games, mine), _per_game(games, mine, lambda f: f.points - f.ransom)]
    stats = np.stack(columns, axis=1)

    def stat(w: np.ndarray) -> np.ndarray:
        n_full, net_full, n_half, net_half = (w @ stats).T
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((n_full > 0) & (n_half > 0), net_full / n_full - net_half / n_half, np.nan)

    return _bootstrap(stat, len(games.ids))


def _bootstrap(stat: Callable[[np.ndarray], np.ndarray], n: int) -> tuple[float, float, float]:
    """Return (value, low, high): the statistic on all games and its percentile 95% interval over resamples
    (`stats.bootstrap_ci`; `stat` maps weights, resamples x games, to one value per row)."""
    return bootstrap_ci(stat, n, resamples=BOOTSTRAP, seed=BOOTSTRAP_SEED, undefined_share=UNDEFINED_SHARE)


MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("full_route_share", "share of planned contracts on a full-value route (R8)", True, (),
            _full_route_share, axis="planned contracts on a full-value route", unit="%"),
    Measure("crossover_value", "contract value where the full-value route starts to net more than the half-value "
            "one (lines fitted to net points by value, sailed contracts)", False, (), _crossover_value,
            axis="contract value where the full-value route starts to net more", unit="points", signed=True),
    Measure("route_gap", "net points per sailed contract, full-value minus half-value route, in a band of the "
            "contract values (values = cheap, middle, dear or all thirds)", False, ("values",), _route_gap,
            axis="net points per sailed contract, full-value minus half-value route", unit="points", signed=True),
    Measure("seat_advantage", "largest turn position's win rate minus the fair 1/players", True, (), _seat_advantage,
            axis="largest turn position's win rate above the fair 1/players", unit="percentage points"),
    Measure("strategy_spread", "best minus worst strategy's win rate", True, (), _strategy_spread,
            needs_strategies=2, axis="best minus worst strategy's win rate", unit="percentage points"),
    Measure("fulfilment", "share of planned contracts fulfilled", True, ("route",), _fulfilment,
            axis="planned contracts fulfilled", unit="%"),
    Measure("seizures_per_turn", "ships seized per turn (R13)", False, (), _seizures_per_turn,
            axis="ships seized per turn", unit="ships a turn"),
    Measure("seizure_share", "share of turns with a full-value ship at sea in which the pirates seize a ship",
            True, (), _seizure_share, axis="turns with a full-value ship at sea in which the pirates seize one",
            unit="%"),
    Measure("half_value_seized", "share of seizures that took a ship on a half-value route (D15: none)", True, (),
            _half_value_seized, axis="seizures that took a ship on a half-value route", unit="%"),
    Measure("game_length", "throws per game", False, (), _game_length, axis="game length", unit="throws"),
    Measure("contracts_per_game", "contracts taken per game, every player and round (R5)", False, (),
            _contracts_per_game, axis="contracts taken per game", unit="contracts"),
    Measure("ransom_share", "ransoms paid as a share of the points scored (R21)", True, (), _ransom_share,
            axis="ransoms paid, share of the points scored", unit="%"),
    Measure("mean_score", "mean final points per player", False, ("strategy",), _mean_score,
            axis="mean final points per player", unit="points", signed=True),
)}
FILTERS = {"route": ("full", "half"), "strategy": None, "values": ("cheap", "middle", "dear", "all")}  # None: any strategy the seats play


def estimate(measure: str, games: Games, filters: dict[str, str]) -> Estimate:
    """Return one measure of some games with its 95% interval."""
    if len(games.games) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    value, low, high = MEASURES[measure].compute(games, filters)
    return Estimate(value, low, high, int(len(games.games)))
