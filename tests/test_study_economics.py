"""A report's route economics (study/economics.py, sections.py), from small hand-made tables with known answers.

With two games, a bootstrap over games draws one of three samples (game 0 twice, each once, game 1 twice; with
chances 1/4, 1/2, 1/4), so its 95% percentile interval runs exactly from the statistic on game 0 twice to the
statistic on game 1 twice (or from the lower to the higher of those).
"""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from somaliland.study.economics import band_gaps, failures, route_risk, spare_displacement, traffic
from somaliland.study.frames import route_table
from somaliland.study.sections import failure_section, gaps_section, risk_section, traffic_section
from somaliland.study.stats import difference_ci

ROUTES = json.dumps([{"name": "somalia", "label": "Gulf of Aden", "full_value": True},
                     {"name": "africa", "label": "round Africa", "full_value": False}])


def games(n: int, k: int = 2) -> pd.DataFrame:
    return pd.DataFrame([{"cell": 0, "game": g, "players": k, "routes": ROUTES} for g in range(n)])


def contract(game: int, value: int, full: bool, net: float, seat: int = 0, displacement: int | None = None,
             failure: str = "", causes: str = "", ships: int = 1) -> dict:
    return {"cell": 0, "game": game, "players": 2, "seat": seat, "value": value, "full_route": full,
            "points": max(net, 0.0), "ransom": max(-net, 0.0), "ships": ships,
            "displacement": value if displacement is None else displacement, "fulfilled": not failure,
            "failure": failure, "failure_causes": causes or failure}


def test_route_risk_gives_mean_spread_and_the_owners_win_with_intervals_over_games() -> None:
    contracts = pd.DataFrame([contract(0, 32, True, 10.0), contract(0, 34, True, 20.0),
                              contract(1, 36, True, 30.0, seat=1)])
    players = pd.DataFrame([{"cell": 0, "game": g, "seat": s, "win_share": float(s == 0)}
                            for g in range(2) for s in range(2)])  # seat 0 wins both games
    (row,) = route_risk(contracts, players, games(2))
    assert (row["players"], row["full_route"], row["band"], row["contracts"], row["games"]) == (2, True, "30-39", 3, 2)
    assert row["net"] == pytest.approx((20.0, 15.0, 30.0))  # game 0 twice: 15; game 1 twice: 30
    assert row["sd"] == pytest.approx((10.0, 0.0, 10.0))  # 10, 20, 30; game 1 alone has one value twice: 0
    assert row["win"] == pytest.approx((2 / 3, 0.0, 1.0))


def test_R8_route_gaps_take_their_interval_over_games_not_over_contracts() -> None:
    """Twenty games of five contracts a route; a game's Gulf contracts all net 0 or all 10 (alternately), Africa's
    0: the contracts of a game are not independent, so the interval is about sqrt(5) times wider than a Welch
    interval over contracts would claim."""
    rows = [contract(g, 32, full, 10.0 * (g % 2) if full else 0.0) for g in range(20) for full in (True, False)
            for _ in range(5)]
    (gap, *_others) = band_gaps(route_table(pd.DataFrame(rows)))
    band, n_full, n_half, (d, low, high) = gap
    assert (band, n_full, n_half, d) == ("30-39", 100, 100, pytest.approx(5.0))
    sailed = route_table(pd.DataFrame(rows))
    _, w_low, w_high = difference_ci(sailed[sailed.full_route].net, sailed[~sailed.full_route].net)
    assert w_high - 5.0 == pytest.approx(0.985, abs=0.01)  # Welch over contracts: 1.96 x 5.03 / sqrt(100)
    assert 1.8 < (high - low) / 2 < 2.8  # over games: about 1.96 x 5.13 / sqrt(20) = 2.25


def test_traffic_gives_seizures_and_ransom_per_full_value_ship_at_sea_R13() -> None:
    raids = pd.DataFrame([
        {"cell": 0, "game": 0, "players": 2, "full_at_sea": 1, "full_displacement_at_sea": 24, "seized_full": 1,
         "ransom_full": 4.0},
        {"cell": 0, "game": 0, "players": 2, "full_at_sea": 2, "full_displacement_at_sea": 30, "seized_full": 1,
         "ransom_full": 2.0},
        {"cell": 0, "game": 1, "players": 2, "full_at_sea": 1, "full_displacement_at_sea": 6, "seized_full": 1,
         "ransom_full": 2.0},
        {"cell": 0, "game": 1, "players": 2, "full_at_sea": 0, "full_displacement_at_sea": 0, "seized_full": 0,
         "ransom_full": 0.0}])  # no full-value ship at sea: not a raid on the route
    one, two = traffic(raids, games(2))
    assert (one["low"], one["high"], one["raids"], one["ships"]) == (1, 1, 2, 2)
    assert one["seized"] == pytest.approx((1.0, 1.0, 1.0))
    assert one["ransom"] == pytest.approx((3.0, 2.0, 4.0))
    assert one["per_point"] == pytest.approx((0.2, 8 / 48, 4 / 12))  # 6 of 30; 8 of 48 (game 0 twice); 4 of 12
    assert (two["low"], two["raids"], two["seized"][0]) == (2, 1, 0.5)
    assert (two["seized"][1], two["seized"][2]) == (-math.inf, math.inf)  # a quarter of resamples hold no such raid


def test_spare_displacement_is_the_pips_sailed_beyond_the_value_R9() -> None:
    contracts = pd.DataFrame([contract(0, 30, False, 15.0, displacement=36, ships=2),
                              contract(1, 36, False, 18.0, displacement=38, ships=3)])
    (row,) = spare_displacement(contracts, games(2))
    assert (row["full_route"], row["contracts"]) == (False, 2)
    assert row["spare"] == pytest.approx((4.0, 2.0, 6.0))
    assert row["ships"] == pytest.approx((2.5, 2.0, 3.0))


def _failed() -> pd.DataFrame:
    return pd.DataFrame([contract(0, 30, True, 30.0), contract(0, 32, True, 0.0, failure="seized",
                                                              causes="seized,aground"),
                         contract(1, 34, True, 0.0, failure="seized"), contract(1, 36, True, 0.0,
                                                                                failure="out of moves"),
                         contract(0, 38, False, 0.0, failure="not launched")])


def test_R11_failures_count_one_reason_each_and_every_cause_touched() -> None:
    full, half = failures(_failed(), games(2))
    assert (full["full_route"], full["taken"], full["failed"]) == (True, 4, 3)
    by = {r["reason"]: r for r in full["reasons"]}
    assert (by["seized"]["failed"], by["seized"]["touched"]) == (2, 2)
    assert by["seized"]["share"] == pytest.approx((0.5, 0.5, 0.5))  # one of two in each game
    assert (by["aground"]["failed"], by["aground"]["touched"]) == (0, 1)
    assert by["out of moves"]["share"] == pytest.approx((0.25, 0.0, 0.5))
    assert (half["taken"], half["failed"]) == (1, 1)


def test_the_failure_section_states_its_precedence_and_old_results_say_they_lack_it() -> None:
    t = {"contracts": _failed(), "games": games(2)}
    text = "\n".join(failure_section(t, lambda name, title: f"[{name}]"))
    assert "the first of these, in this order, that befell a ship of it that did not arrive — *not sailed*" in text
    # Africa's only contract is in game 0: a quarter of the resamples hold none, so its shares have no interval
    assert "| seized | 2, 50.0% [50.0%, 50.0%] of taken; any 2 | 0, 0.0% [too few games] of taken; any 0 |" in text
    assert "| aground | 0, 0.0% [0.0%, 0.0%] of taken; any 1 |" in text and "| sunk |" not in text
    assert text.endswith("[failures]")
    old = {"contracts": _failed().drop(columns=["failure", "failure_causes"]), "games": games(2)}
    assert failure_section(old, lambda *_: "")[2].startswith("Not measured: these results were recorded before")
    assert traffic_section({"raids": pd.DataFrame(), "games": games(2)}, lambda *_: "")[2].startswith("Not measured")


def test_route_gaps_by_player_count_name_their_games_and_say_when_too_few_contracts_stand_behind_them() -> None:
    rows = [contract(g, 32, full, 10.0 if full else 5.0) for g in range(12) for full in (True, False)]
    rows += [contract(g, 60, True, 40.0) for g in range(3)] + [contract(g, 60, False, 30.0) for g in range(12)]
    text = "\n".join(gaps_section({"contracts": pd.DataFrame(rows), "games": games(12)}, lambda *_: "[gap]"))
    assert "| 2 | 12 | +5.0 [+5.0, +5.0] (12 + 12) | too few (0 + 0) | too few (0 + 0) | too few (3 + 12) |" in text
    assert "Where a cell says *too few*, the gap rests on too few contracts to be told from chance." in text


def test_the_risk_section_tables_each_route_and_band() -> None:
    contracts = pd.DataFrame([contract(g, 32, True, 10.0 * g) for g in range(2)])
    players = pd.DataFrame([{"cell": 0, "game": g, "seat": 0, "win_share": 1.0} for g in range(2)])
    text = "\n".join(risk_section({"contracts": contracts, "players": players, "games": games(2)}, lambda *_: ""))
    assert "| 2 | 30-39 | Gulf of Aden | 2 (few) | +5.0 [+0.0, +10.0] | 7.1 [0.0, 7.1] | 100.0% [100.0%, 100.0%] |" \
        in text
