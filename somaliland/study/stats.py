"""Statistics of study results: confidence intervals and the balance measures of the game-design literature.

Balance measures follow Ludii's metric definitions (Piette, Browne et al., "Ludii: the Ludemic General
Game System", 2020; the `metrics` package of Ludii): Balance = 1 - the largest gap between the players'
win rates, AdvantageP1 = the first player's win rate, LeadChange = how often the leader changes,
Duration = the game's length (here in throws) and its spread. Players are counted by turn order of
round 1 (position 0 is "whoever last saw the sea", R7), so a shared win (D14) counts 1/k to each of k.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from somaliland.seeding import make_rng

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (successes may be fractional, for shared wins)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values, z: float = Z95) -> tuple[float, float, float]:
    """Return (mean, low, high): the mean with a normal 95% interval (nan when fewer than 2 values)."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if len(x) < 2:
        return (m, math.nan, math.nan)
    half = z * float(x.std(ddof=1)) / math.sqrt(len(x))
    return (m, m - half, m + half)


def binomial_p(successes: float, n: int, p0: float) -> float:
    """Return the two-sided exact binomial test's p-value of `successes` of `n` against rate p0."""
    from scipy.stats import binomtest

    if n <= 0:
        return math.nan
    return float(binomtest(int(round(successes)), n, p0).pvalue)


@dataclass(frozen=True, slots=True)
class Balance:
    """The balance measures of one cell's games."""

    games: int
    players: int
    win_rates: tuple[float, ...]  # by turn-order position of round 1
    balance: float  # 1 - (largest - smallest win rate)
    advantage_p1: float
    advantage_p1_ci: tuple[float, float]
    advantage_p1_p: float  # against the fair 1/players
    lead_change: float  # mean share of round ends at which the leader changed (nan for 1-round games)
    duration: float  # mean throws per game
    duration_sd: float
    spread: float  # mean points between first and last place
    shared: float  # share of games with a shared win (D14)


def balance(players_rows, game_rows) -> Balance:
    """Return the balance measures from one cell's players and games rows (pandas DataFrames)."""
    n = int(len(game_rows))
    k = int(game_rows.players.iloc[0])
    rates = players_rows.groupby("order").win_share.mean().reindex(range(k), fill_value=math.nan)
    p1 = float(players_rows[players_rows.order == 0].win_share.sum())
    throws = game_rows.throws.astype(float)
    return Balance(
        games=n, players=k, win_rates=tuple(float(r) for r in rates),
        balance=float(1 - (rates.max() - rates.min())), advantage_p1=p1 / n if n else math.nan,
        advantage_p1_ci=wilson(p1, n), advantage_p1_p=binomial_p(p1, n, 1 / k),
        lead_change=float(game_rows.lead_change.mean()) if game_rows.lead_change.notna().any() else math.nan,
        duration=float(throws.mean()), duration_sd=float(throws.std(ddof=1)) if n > 1 else math.nan,
        spread=float(game_rows.spread.mean()), shared=float((game_rows.n_winners > 1).mean()))


def difference_ci(a, b, z: float = Z95) -> tuple[float, float, float]:
    """Return (mean(a) - mean(b), low, high) with a Welch normal 95% interval."""
    x, y = (np.asarray(v, dtype=float) for v in (a, b))
    if len(x) < 2 or len(y) < 2:
        return (math.nan, math.nan, math.nan)
    d = float(x.mean() - y.mean())
    half = z * math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
    return (d, d - half, d + half)


def slope_ci(x, y, z: float = Z95) -> tuple[float, float, float]:
    """Return the least-squares slope of y on x with a normal 95% interval."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) < 3 or np.ptp(x) == 0:
        return (math.nan, math.nan, math.nan)
    xc = x - x.mean()
    b = float((xc * (y - y.mean())).sum() / (xc * xc).sum())
    resid = y - y.mean() - b * xc
    se = math.sqrt(float((resid * resid).sum()) / (len(x) - 2) / float((xc * xc).sum()))
    return (b, b - z * se, b + z * se)


def holm(pvalues) -> list[float]:
    """Return Holm's step-down adjusted p-values (family-wise error control over several tests), input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def fair_balance(games: int, players: int, sims: int = 2000) -> float:
    """Return the median Balance a perfectly fair game shows in `games` games (sampling noise alone)."""
    if games <= 0:
        return math.nan
    wins = make_rng(0).multinomial(games, [1 / players] * players, size=sims) / games
    return float(np.median(1 - (wins.max(axis=1) - wins.min(axis=1))))


def ratio_ci(numerators, denominators, z: float = Z95) -> tuple[float, float, float]:
    """Return (sum(a) / sum(b), low, high): a ratio of per-game totals with its delta-method 95% interval.

    Games are the independent units (the contracts of one game are not), so the variance comes from the
    games' residuals a - R b (the ratio estimator of survey sampling). nan when sum(b) is 0 or fewer
    than 2 games.
    """
    a, b = (np.asarray(v, dtype=float) for v in (numerators, denominators))
    if len(a) == 0 or b.sum() <= 0:
        return (math.nan, math.nan, math.nan)
    r = float(a.sum() / b.sum())
    if len(a) < 2:
        return (r, math.nan, math.nan)
    half = z * float(np.std(a - r * b, ddof=1)) / (float(b.mean()) * math.sqrt(len(a)))
    return (r, r - half, r + half)


def share_ci(numerators, denominators, z: float = Z95) -> tuple[float, float, float]:
    """Return (sum(a) / sum(b), low, high) for a share of counted items (contracts fulfilled of those taken,
    throws aground of those thrown): the ratio estimator's interval over games (`ratio_ci`), never narrower
    than Wilson's on the pooled counts and kept within [0, 1].

    Games that all show the same share (1 of 2 contracts in each of 4 games) leave the ratio estimator no
    spread between games, so its interval would have no width; the items themselves still carry a
    binomial's uncertainty, which Wilson's interval states (and it stays within [0, 1], where a normal
    interval of few games may not).
    """
    a, b = (np.asarray(v, dtype=float) for v in (numerators, denominators))
    r, low, high = ratio_ci(a, b, z)
    if math.isnan(r):
        return (r, low, high)
    w_low, w_high = wilson(float(a.sum()), int(round(b.sum())), z)
    if math.isnan(low):
        return (r, w_low, w_high)
    return (r, max(0.0, min(low, w_low)), min(1.0, max(high, w_high)))


def bootstrap_ci(stat: Callable[[np.ndarray], np.ndarray], n: int, *, resamples: int, seed: int = 0,
                 undefined_share: float) -> tuple[float, float, float]:
    """Return (value, low, high): a statistic of n games on all of them and its percentile 95% interval over
    `resamples` resamples of the games (seeded: the same games give the same interval).

    `stat` maps weights (resamples x games; a game's weight is how often it was drawn) to one value per row. All
    NaN with fewer than 2 games or no finite value; (value, -inf, inf) when more than `undefined_share` of the
    resamples give no finite value.
    """
    if n < 2:
        return (math.nan, math.nan, math.nan)
    value = float(stat(np.ones((1, n)))[0])
    if not math.isfinite(value):
        return (math.nan, math.nan, math.nan)
    draws = stat(resample_weights(n, resamples, seed))
    if np.mean(~np.isfinite(draws)) > undefined_share:
        return (value, -math.inf, math.inf)
    low, high = np.nanpercentile(draws, [2.5, 97.5])
    return (value, float(low), float(high))


@lru_cache(maxsize=8)
def resample_weights(n: int, resamples: int, seed: int) -> np.ndarray:
    """Return bootstrap weights of n games (resamples x games: how often each game was drawn), seeded; read-only and
    kept, since a report draws many intervals over the same games."""
    weights = make_rng(seed).multinomial(n, [1 / n] * n, size=resamples).astype(float)
    weights.flags.writeable = False
    return weights


def game_totals(frame, games, columns: dict[str, object]) -> np.ndarray:
    """Return per-game sums of some columns of a table's rows (games x columns, in the order of `games`, a
    (cell, game) MultiIndex; 0 for a game without rows): the units a bootstrap over games resamples.

    `columns` maps a name to a Series (or array) aligned with `frame`'s rows.
    """
    import pandas as pd

    if len(frame) == 0:
        return np.zeros((len(games), len(columns)))
    keys = pd.MultiIndex.from_frame(frame[["cell", "game"]])
    data = pd.DataFrame({name: np.asarray(values, dtype=float) for name, values in columns.items()}, index=keys)
    return data.groupby(level=[0, 1]).sum().reindex(games, fill_value=0.0).to_numpy(dtype=float)


def totals_ci(totals: np.ndarray, stat: Callable[[np.ndarray], np.ndarray], *, resamples: int, seed: int,
              undefined_share: float) -> tuple[float, float, float]:
    """Return (value, low, high): a statistic of summed per-game totals (`game_totals`) on all games, and its
    percentile 95% interval over resamples of the games (`bootstrap_ci`). `stat` maps summed totals (rows x
    columns) to one value per row."""
    return bootstrap_ci(lambda w: stat(w @ totals), len(totals), resamples=resamples, seed=seed,
                        undefined_share=undefined_share)
