"""The tuning's balance measures on hand-made result tables (known values), and the raid-turn columns."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd
import numpy as np
import pytest

from physics import DieRest, RollResult, Throw
from somaliland.engine.events import Deal, Final, RoundEnd, Stamped, Thrown, TurnBegun
from somaliland.rules.events import Arrived, Fulfilled, Launched, Seized
from somaliland.study.stats import ratio_ci, share_ci, wilson
from somaliland.study.tables import pirate_turns, raid_rows
from somaliland.tune.measures import Games, estimate


def games_of(contracts=(), players=(), games=None, n=2, captures=()):
    games = games or [{"game": g, "players": 2, "throws": 10 + 2 * g, "turns": 6, "turns_full_at_sea": 4,
                       "turns_full_at_sea_seized": 2 + g} for g in range(n)]
    return Games(pd.DataFrame(list(players)), pd.DataFrame(list(contracts)), pd.DataFrame(list(captures)),
                 pd.DataFrame(games))


def contract(game, full, fulfilled=False, value=40, points=0.0, ransom=0.0, ships=1):
    return {"game": game, "full_route": full, "fulfilled": fulfilled, "value": value, "points": points,
            "ransom": ransom, "ships": ships}


def test_ratio_ci_treats_games_as_the_units():
    r, low, high = ratio_ci([1, 2], [2, 2])
    half = 1.959963984540054 * math.sqrt(0.5) / (2 * math.sqrt(2))
    assert (r, low, high) == pytest.approx((0.75, 0.75 - half, 0.75 + half))
    assert math.isnan(ratio_ci([0, 0], [0, 0])[0])


def test_a_share_of_counted_items_is_never_narrower_than_wilsons_nor_beyond_0_and_1():
    # 1 of 2 contracts fulfilled in each of 4 games: no spread between games, yet 8 contracts are few
    assert ratio_ci([1] * 4, [2] * 4)[1:] == (0.5, 0.5)
    r, low, high = share_ci([1] * 4, [2] * 4)
    assert r == 0.5 and (low, high) == pytest.approx(wilson(4, 8))
    r, low, high = share_ci([2, 2, 1, 1], [2, 2, 2, 2])  # 6 of 8: the ratio estimator's reaches above 1
    assert ratio_ci([2, 2, 1, 1], [2, 2, 2, 2])[2] > 1 and high == 1.0 and low == pytest.approx(wilson(6, 8)[0])
    assert math.isnan(share_ci([0, 0], [0, 0])[0])


def test_a_goal_value_inside_the_interval_is_consistent_never_met():
    from somaliland.tune.spec import Goal

    goal = Goal("value", 0.7, 0.7)
    assert goal.verdict(0.625, 0.318, 0.932) == "consistent" and goal.verdict(0.5, 0.45, 0.55) == "missed"
    assert Goal("range", 0.6, 0.8).verdict(0.7, 0.65, 0.75) == "met"


def test_shares_of_contracts_and_turns():
    g = games_of([contract(0, True, True), contract(0, False), contract(1, True), contract(1, True, True)])
    assert estimate("full_route_share", g, {}).value == pytest.approx(0.75)
    assert estimate("fulfilment", g, {}).value == pytest.approx(0.5)
    assert estimate("fulfilment", g, {"route": "full"}).value == pytest.approx(2 / 3)
    assert estimate("fulfilment", g, {"route": "half"}).value == 0.0
    assert estimate("seizure_share", g, {}).value == pytest.approx(5 / 8)
    assert estimate("game_length", g, {}).value == 11.0
    assert estimate("contracts_per_game", g, {}).value == 2.0  # R5: two taken in each game
    assert estimate("contracts_per_game", games_of([contract(0, True)], n=3), {}).value == pytest.approx(1 / 3)
    k = games_of(captures=[{"game": 0}, {"game": 0}, {"game": 1}])
    assert estimate("seizures_per_turn", k, {}).value == pytest.approx(3 / 12)


def test_d15_half_value_seized_is_the_share_of_seizures_that_took_half_value_ships():
    k = games_of(captures=[{"game": 0, "full_route": True}, {"game": 0, "full_route": False},
                           {"game": 1, "full_route": True}, {"game": 1, "full_route": True}])
    assert estimate("half_value_seized", k, {}).value == pytest.approx(1 / 4)
    none = estimate("half_value_seized", games_of(captures=[{"game": 0, "full_route": True},
                                                            {"game": 1, "full_route": True}]), {})
    assert (none.value, none.low, none.high) == (0.0, 0.0, 0.0)  # D15's default: a goal of <= 0 is met


def test_seat_advantage_strategy_spread_scores_and_ransoms():
    rows = [{"game": g, "order": o, "seat": o, "strategy": s, "win_share": w, "points": p, "full": f, "half": h,
             "ransom": r}
            for g in range(4) for o, s, w, p, f, h, r in ((0, "bold", 1.0, 20.0, 30, 0, 10), (1, "ev", 0.0, 5.0, 0, 10, 0))]
    g = games_of(players=rows, n=4)
    assert estimate("seat_advantage", g, {}).value == pytest.approx(0.5)
    assert estimate("strategy_spread", g, {}).value == pytest.approx(1.0)
    assert estimate("mean_score", g, {}).value == pytest.approx(12.5)
    assert estimate("mean_score", g, {"strategy": "ev"}).value == pytest.approx(5.0)
    assert estimate("ransom_share", g, {}).value == pytest.approx(40 / (4 * 35))


def test_the_crossover_is_where_the_fitted_net_points_of_the_two_routes_meet():
    rows = []
    for game in range(20):
        for v in (30, 40, 50, 60):
            rows.append(contract(game, True, value=v, points=float(v), ransom=40.0))  # full nets v - 40
            rows.append(contract(game, False, value=v, points=v / 2, ransom=15.0))  # half nets v/2 - 15
    e = estimate("crossover_value", games_of(rows, n=20), {})
    assert (e.value, e.low, e.high) == pytest.approx((50.0, 50.0, 50.0))
    only_full = estimate("crossover_value", games_of([r for r in rows if r["full_route"]], n=20), {})
    assert math.isnan(only_full.value)


def test_the_route_gap_is_the_full_minus_half_net_points_per_sailed_contract_in_a_value_band():
    rows = []
    for game in range(20):
        for v in (30, 40, 50, 60, 62, 64):
            rows.append(contract(game, True, value=v, points=float(v), ransom=40.0))  # full nets v - 40
            rows.append(contract(game, False, value=v, points=v / 2, ransom=15.0))  # half nets v/2 - 15
    g = games_of(rows, n=20)
    cheap, dear = estimate("route_gap", g, {"values": "cheap"}), estimate("route_gap", g, {"values": "dear"})
    assert (cheap.value, cheap.low, cheap.high) == pytest.approx((-7.5, -7.5, -7.5))  # 30, 40: mean v/2 - 25
    assert dear.value == pytest.approx(6.5)  # 62, 64: mean v/2 - 25
    assert estimate("route_gap", g, {}).value == pytest.approx(np.mean([30, 40, 50, 60, 62, 64]) / 2 - 25)
    only_full = estimate("route_gap", games_of([r for r in rows if r["full_route"]], n=20), {"values": "cheap"})
    assert math.isnan(only_full.value)


def test_raid_turns_count_full_value_ships_at_sea_and_seizures():
    world = SimpleNamespace(route=lambda name: SimpleNamespace(full_value=name == "somalia"))
    aim = Throw("red-8", (0.0, 0.0))
    rest = DieRest("red-8", (0.0, 0.5, 0.008), (0.0, 0.0, 0.0, 1.0), 4, 1, 0.0, False)
    thrown = Thrown(0, "red-8", aim, aim, RollResult(rest, (rest,), (), (), (), (), 1.0, 240, False),
                    with_paths=False)
    events = [Deal(0, ()), TurnBegun(), Launched("red-8", "somalia", "north"), Launched("red-6a", "africa", "north"),
              Seized("red-8", "Eyl", 0.1, 1),
              TurnBegun(),  # red-8 is held: no full-value ship at sea
              TurnBegun(), thrown,  # thrown again: at sea, not seized
              TurnBegun(), Arrived("red-8", "somalia", "north"),
              Fulfilled(0, "40N", "somalia", ("red-8",), True, 40), RoundEnd(()), Final((0,), ())]
    raids = raid_rows([Stamped(1, 0, e) for e in events], world, {"8": 8, "6a": 6})
    assert pirate_turns(raids) == {"turns": 4, "turns_full_at_sea": 2, "turns_full_at_sea_seized": 1}
    assert [(r["full_at_sea"], r["full_displacement_at_sea"], r["seized_full"]) for r in raids] == [
        (1, 8, 1), (0, 0, 0), (1, 8, 0), (0, 0, 0)]
