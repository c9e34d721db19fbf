"""What a contract earns and risks, by kind of route (R8) and contract value: the numbers behind a report's
sections on routes, pirates, spare ships and failed contracts.

Every estimate is a (value, low, high) triple with a 95% interval over games: the games are the independent
units (the contracts, raids and seats of one game are not), so each statistic is a function of per-game totals
(`stats.game_totals`) and its interval a percentile bootstrap over the games (`stats.totals_ci`, RESAMPLES
resamples, seeded: the same games give the same interval). Results are per map and player count (`panels`):
games on different maps or with different numbers of players are never pooled.

All functions are pure: pandas tables in, lists of plain rows out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from somaliland.study.frames import game_keys, route_table
from somaliland.study.routenames import per_map
from somaliland.study.stats import game_totals, totals_ci
from somaliland.study.tables import FAILURE_CAUSES

MIN_PER_SIDE = 10  # sailed contracts per route and value band before two routes are compared
RESAMPLES = 1000  # bootstrap resamples of the games
SEED = 0
UNDEFINED_SHARE = 0.025  # more resamples than this without a value: the interval is unbounded
TRAFFIC_BINS = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 10_000))  # full-value ships at sea at a raid
NAN3 = (math.nan, math.nan, math.nan)

Estimate = tuple[float, float, float]


def estimate(totals: np.ndarray, stat: Callable[[np.ndarray], np.ndarray]) -> Estimate:
    """Return a statistic of per-game totals with its bootstrap 95% interval over the games."""
    def safe(t: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return stat(t)

    return totals_ci(totals, safe, resamples=RESAMPLES, seed=SEED, undefined_share=UNDEFINED_SHARE)


def ratio(t: np.ndarray, top: int, bottom: int) -> np.ndarray:
    """Return column `top` over column `bottom` of summed totals (NaN where the bottom is 0)."""
    return np.where(t[:, bottom] > 0, t[:, top] / np.where(t[:, bottom] > 0, t[:, bottom], 1.0), np.nan)


def spread(t: np.ndarray, n: int, total: int, squares: int) -> np.ndarray:
    """Return the standard deviation (n - 1 in the denominator) from summed counts, values and squared values."""
    count = t[:, n]
    var = np.where(count > 1, (t[:, squares] - t[:, total] ** 2 / np.where(count > 0, count, 1.0))
                   / np.where(count > 1, count - 1, 1.0), np.nan)
    return np.sqrt(np.maximum(var, 0.0))


def panels(frame, games) -> Iterator[tuple[str | None, int, Any, Any]]:
    """Yield (map or None, players, the frame's rows, the games' (cell, game) keys) for each map and player count
    the games were played with; the keys are every game of the panel, rows or not (a game without rows is a
    resampled game with zero totals)."""
    for name, rows, g in per_map(frame, games):
        for k in sorted(rows.players.unique()):
            mine = g[g.players == k] if g is not None and "players" in g and "cell" in g and len(g) else None
            keys = game_keys(mine if mine is not None and len(mine) else rows[rows.players == k])
            yield name, int(k), rows[rows.players == k], keys


def band_gaps(sailed, keys=None) -> list[tuple[str, int, int, Estimate | None]]:
    """R8: per contract value band (in order), the net points of a sailed contract on the full-value route minus
    one on the half-value route, with its bootstrap 95% interval over games: (band, full contracts, half
    contracts, (gap, low, high)), the last None where either side has fewer than MIN_PER_SIDE sailed contracts.
    `sailed` is `frames.route_table`'s frame of one map and player count; `keys` its games (default: the games
    its rows come from)."""
    keys = game_keys(sailed) if keys is None else keys
    out = []
    for band in sailed.band.cat.categories:
        b = sailed[sailed.band == band]
        full = b.full_route.astype(bool)
        n_full, n_half = int(full.sum()), int((~full).sum())
        gap = None
        if min(n_full, n_half) >= MIN_PER_SIDE:
            totals = game_totals(b, keys, {"n_full": full, "net_full": b.net * full, "n_half": ~full,
                                           "net_half": b.net * ~full})
            gap = estimate(totals, lambda t: ratio(t, 1, 0) - ratio(t, 3, 2))
        out.append((str(band), n_full, n_half, gap))
    return out


def crossing(gaps, full: str, half: str) -> str:
    """R8: where the full-minus-half net points curve of `band_gaps` crosses zero, told by its 95% intervals: between
    the last band whose interval lies on one side of zero and the first whose interval lies on the other; else that
    it does not cross inside the compared contract values, saying which route nets more in how many bands (a band
    whose interval holds zero is told from neither side). A sentence, capitalised, without its full stop."""
    compared = [(band, 1 if gap[1] > 0 else -1 if gap[2] < 0 else 0) for band, _, _, gap in gaps
                if gap is not None and math.isfinite(gap[0])]
    if len(compared) < 2:
        return "Too few value bands compared to say where the routes' net points cross"
    span = f"{compared[0][0].split('-')[0]}-{compared[-1][0].split('-')[-1]}"
    sides = [(band, side) for band, side in compared if side]
    for (band, side), (after, other) in zip(sides, sides[1:]):
        if side != other:
            first, second = (half, full) if side < 0 else (full, half)
            return (f"The curve crosses zero between the {band} and {after} bands (95% intervals on either side): "
                    f"{first} nets more below, {second} above")
    if not sides:
        return f"No band inside contract values {span} tells either route from the other at 95%"
    better = full if sides[0][1] > 0 else half
    if len(sides) == len(compared):
        return (f"The curve does not cross zero inside contract values {span}: {better} nets more in every compared "
                f"band (every 95% interval on its side)")
    return (f"The curve does not cross zero inside contract values {span}: {better} nets more in {len(sides)} of "
            f"{len(compared)} compared bands, the others' 95% intervals hold zero")


def _with_wins(contracts, players):
    """Return sailed contracts with their owner's share of the game's win (`win`: 1, 1/k for a k-way shared win, 0)."""
    sailed = route_table(contracts)
    if sailed.empty:
        return sailed
    wins = players[["cell", "game", "seat", "win_share"]].rename(columns={"win_share": "win"})
    return sailed.merge(wins, on=["cell", "game", "seat"], how="left")


def route_risk(contracts, players, games) -> list[dict[str, Any]]:
    """R8, R21: per map, player count, kind of route and value band, a sailed contract's net points (mean and
    standard deviation) and the chance its owner won the game, each with its 95% interval over games."""
    frame = _with_wins(contracts, players)
    if frame.empty:
        return []
    out = []
    for name, k, full, band, sel, keys in _route_bands(frame, games):
        totals = game_totals(sel, keys, {"n": np.ones(len(sel)), "net": sel.net, "net2": sel.net ** 2,
                                         "win": sel.win.fillna(0.0)})
        out.append({"map": name, "players": k, "full_route": full, "band": str(band), "contracts": len(sel),
                    "games": int(sel[["cell", "game"]].drop_duplicates().shape[0]),
                    "net": estimate(totals, lambda t: ratio(t, 1, 0)),
                    "sd": estimate(totals, lambda t: spread(t, 0, 1, 2)),
                    "win": estimate(totals, lambda t: ratio(t, 3, 0))})
    return out


def _route_bands(frame, games):
    """Yield (map, players, full_route, band, its contracts, their game keys) for every kind of route and value band
    with contracts, panel by panel (`panels`)."""
    for name, k, rows, keys in panels(frame, games):
        for full in (True, False):
            for band in frame.band.cat.categories:
                sel = rows[(rows.full_route == full) & (rows.band == band)]
                if not sel.empty:
                    yield name, k, full, band, sel, keys


def spare_displacement(contracts, games) -> list[dict[str, Any]]:
    """R6, R9: per map, player count, kind of route and value band, the displacement a sailed contract's ships carry
    beyond its value (mean and standard deviation, with 95% intervals over games): insurance against ships that do
    not arrive, paid for with ships the R6 cap leaves for other contracts."""
    frame = route_table(contracts)
    if frame.empty:
        return []
    frame = frame.assign(spare=frame.displacement - frame.value)
    out = []
    for name, k, full, band, sel, keys in _route_bands(frame, games):
        totals = game_totals(sel, keys, {"n": np.ones(len(sel)), "spare": sel.spare, "spare2": sel.spare ** 2,
                                         "ships": sel.ships})
        out.append({"map": name, "players": k, "full_route": full, "band": str(band), "contracts": len(sel),
                    "spare": estimate(totals, lambda t: ratio(t, 1, 0)),
                    "sd": estimate(totals, lambda t: spread(t, 0, 1, 2)),
                    "ships": estimate(totals, lambda t: ratio(t, 3, 0))})
    return out


def traffic(raids, games) -> list[dict[str, Any]]:
    """R13: per map, player count and band of traffic (full-value ships at sea when the pirates raid), the raids
    and, per full-value ship at sea per raid, the seizures of full-value ships and the ransom they paid, and the
    ransom per point of displacement at sea, each with its 95% interval over games."""
    if raids is None or raids.empty or "full_at_sea" not in raids:
        return []
    out = []
    for name, k, rows, keys in panels(raids[raids.full_at_sea > 0], games):
        for low, high in TRAFFIC_BINS:
            sel = rows[(rows.full_at_sea >= low) & (rows.full_at_sea <= high)]
            if sel.empty:
                continue
            totals = game_totals(sel, keys, {"raids": np.ones(len(sel)), "ships": sel.full_at_sea,
                                             "displacement": sel.full_displacement_at_sea, "seized": sel.seized_full,
                                             "ransom": sel.ransom_full})
            out.append({"map": name, "players": k, "low": low, "high": high, "raids": len(sel),
                        "ships": int(sel.full_at_sea.sum()),
                        "seized": estimate(totals, lambda t: ratio(t, 3, 1)),
                        "ransom": estimate(totals, lambda t: ratio(t, 4, 1)),
                        "per_point": estimate(totals, lambda t: ratio(t, 4, 2))})
    return out


def traffic_label(low: int, high: int) -> str:
    """Return a traffic band as read ("1", "3-4", "17+")."""
    return str(low) if low == high else f"{low}+" if high >= 10_000 else f"{low}-{high}"


def failures(contracts, games) -> list[dict[str, Any]]:
    """R11: per map, player count and kind of route, the contracts taken and failed, and for each reason
    (`tables.FAILURE_CAUSES`, one per failed contract) the share of the contracts taken that failed for it, with
    its 95% interval over games, and how many failed contracts it touched at all (any ship of theirs that did not
    arrive). Empty for results recorded before the reasons were."""
    if contracts is None or contracts.empty or "failure" not in contracts:
        return []
    frame = contracts[contracts.failure.notna()]
    out = []
    for name, k, rows, keys in panels(frame, games):
        for full in (True, False):
            taken = rows[rows.full_route == full]
            if taken.empty:
                continue
            failed = taken[taken.failure != ""]
            causes = failed.failure_causes.fillna("").str.split(",")
            reasons = []
            for reason in FAILURE_CAUSES:
                hit = taken.failure == reason
                totals = game_totals(taken, keys, {"n": np.ones(len(taken)), "hit": hit})
                reasons.append({"reason": reason, "failed": int(hit.sum()),
                                "touched": int(causes.map(lambda c, r=reason: r in c).sum()),
                                "share": estimate(totals, lambda t: ratio(t, 1, 0))})
            out.append({"map": name, "players": k, "full_route": full, "taken": len(taken), "failed": len(failed),
                        "reasons": reasons})
    return out
