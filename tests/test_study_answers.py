"""The answer a report opens with, from hand-built results tables whose answer is known."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from somaliland.study.answers import (answers, band_gaps, crossing, route_table, rounds_answer, routes_answer,
                                      seats_answer, skill_answer)
from somaliland.study.figures import route_gap_by_value


def _cell(cell, k, rounds, n, p1_wins, throws, label=None, strategy="ev", skill=0.75, extra=None):
    """n games of k identical players; the first player (order 0) wins p1_wins of them, the others share the rest."""
    players, games = [], []
    for g in range(n):
        winner = 0 if g < p1_wins else 1 + g % (k - 1)
        for seat in range(k):
            order = (seat + g) % k
            row = {"cell": cell, "game": g, "cell_label": label or f"players={k}, rounds={rounds}", "players": k,
                   "rounds": rounds, "seat": seat, "order": order, "strategy": strategy, "skill": skill,
                   "win_share": float(order == winner), "points": 10.0, "ransom": 2.0, "taken": 2, "fulfilled": 1,
                   "groundings": 1, "throws": throws // k}
            row.update(extra or {})
            players.append(row)
        games.append({"cell": cell, "game": g, "cell_label": label or f"players={k}, rounds={rounds}", "players": k,
                      "rounds": rounds, "throws": throws, "lead_change": 0.3, "spread": 20.0, "n_winners": 1})
    return pd.DataFrame(players), pd.DataFrame(games)


def _concat(*cells):
    return (pd.concat([c[0] for c in cells], ignore_index=True), pd.concat([c[1] for c in cells], ignore_index=True))


def test_rounds_answer_R23_recommends_the_fair_rounds_closest_in_length_to_the_designed_games():
    # 3 players: 3 rounds fair but short, 4 rounds unfair (P1 wins 70%), 6 rounds fair and as long per player
    # as the 2- and 4-player games (30 throws each)
    players, games = _concat(_cell(0, 3, 3, 300, 100, 45), _cell(1, 3, 4, 300, 210, 60),
                             _cell(2, 3, 6, 300, 100, 90), _cell(3, 2, 4, 300, 150, 60), _cell(4, 4, 4, 300, 75, 120))
    (head, starts) = rounds_answer(players, games)
    assert head.startswith("**3 players: play 6 rounds.**")
    assert "turn order matters with 4 rounds" in head and "30.0 throws per player" in head
    assert "With 3 or 6 rounds every one of the 3 players starts the same number of rounds (R7)" in starts


def test_rounds_answer_is_silent_without_a_rounds_sweep():
    players, games = _concat(_cell(0, 2, 4, 50, 25, 40), _cell(1, 4, 4, 50, 12, 100))
    assert rounds_answer(players, games) == []


def test_seats_answer_R7_finds_a_first_player_advantage_and_bounds_a_fair_one():
    players, games = _concat(_cell(0, 2, 4, 1000, 600, 40, label="players=2"),
                             _cell(1, 4, 4, 1000, 250, 100, label="players=4"))
    two, four = seats_answer(players, games)
    assert two.startswith("**players=2: the first player wins more than a fair share.**") and "60.0%" in two
    assert four.startswith("**players=4: no first-player advantage detected; any edge is under 2.8 percentage points of win rate.**")
    assert "Holm-corrected over 2 cells" in two


def test_seats_answer_R7_gives_each_colours_win_rate_between_identical_players():
    """Seats are colours and turn order rotates, so the answer also says whether a colour wins more (D4)."""
    players, games = _cell(0, 4, 4, 400, 100, 100, label="players=4")
    colours = {0: "red", 1: "green", 2: "yellow", 3: "blue"}
    players["colour"] = players.seat.map(colours)
    (four,) = seats_answer(players, games)
    # _cell rotates turn order with the game, so the first player's 100 wins fall on each seat equally
    assert "by seat (colour) red 25.0% / green 25.0% / yellow 25.0% / blue 25.0% (χ² p = 1)" in four
    blue_wins = (players.seat == 3) & (players.game < 200)
    players["win_share"] = blue_wins.astype(float) + ((players.seat == 0) & (players.game >= 200)).astype(float)
    (four,) = seats_answer(players, games)
    assert "red 50.0% / green 0.0% / yellow 0.0% / blue 50.0% (χ² p = " in four


def test_seats_answer_corrects_for_the_number_of_cells():
    """P1 at 26.8% of 2500 four-player games: p = 0.04 alone, not significant once two cells were looked at."""
    players, games = _concat(_cell(0, 2, 4, 2500, 1250, 40, label="players=2"),
                             _cell(1, 4, 4, 2500, 670, 100, label="players=4"))
    _, four = seats_answer(players, games)
    assert four.startswith("**players=4: no first-player advantage detected")
    assert "binomial p = 0.04" in four and "Holm-corrected over 2 cells" in four


def test_skill_answer_reports_the_slope_and_each_level():
    rng = np.random.default_rng(1)
    rows = []
    for level in (0.0, 0.5, 1.0):
        for g in range(200):
            win = rng.random() < 0.1 + 0.8 * level  # 10% at skill 0, 90% at skill 1
            for seat in range(2):
                rows.append({"cell": int(level * 2), "game": g, "players": 2, "seat": seat, "seat0_skill": level,
                             "skill": level if seat == 0 else 0.75, "win_share": float(win == (seat == 0))})
    (text,) = skill_answer(pd.DataFrame(rows), "seat0_skill", 0)
    assert text.startswith("**2 players: dexterity decides strongly.**")
    assert "against opponents of skill 0.75" in text and "each +0.1 of skill adds +8." in text


def test_skill_answer_and_figure_read_a_sweep_of_strategies_and_skills_per_strategy(tmp_path):
    """Issue 21's skill study: seat 0's strategy and strength swept with its skill; one answer and one line each."""
    from somaliland.study.figures import win_rate_by_skill

    rng = np.random.default_rng(2)
    rows = []
    for i, (strategy, samples, edge) in enumerate((("ev", float("nan"), 0.0), ("search", 64.0, 0.3))):
        for j, level in enumerate((0.0, 1.0)):
            for g in range(100):
                win = rng.random() < 0.1 + 0.4 * level + edge
                for seat in range(4):
                    rows.append({"cell": 2 * i + j, "game": g, "players": 4, "seat": seat, "seat0_skill": level,
                                 "seat0_params_search_samples": samples, "win_share": float(win == (seat == 0)),
                                 "strategy": strategy if seat == 0 else "ev", "skill": level if seat == 0 else 0.75})
    players = pd.DataFrame(rows)
    ev, search = skill_answer(players, "seat0_skill", 0)
    assert ev.startswith("**4 players, seat 0 playing ev: dexterity")
    assert search.startswith("**4 players, seat 0 playing search (search_samples=64): dexterity")
    assert win_rate_by_skill(players, "seat0_skill", 0, tmp_path / "skill.png") == 400
    assert (tmp_path / "skill.png").stat().st_size > 0


DEFAULT_ROUTES = [{"name": "somalia", "label": "Gulf of Aden", "full_value": True},
                  {"name": "africa", "label": "round Africa", "full_value": False}]
STRAITS_ROUTES = [{"name": "ocean", "label": "open ocean", "full_value": False},
                  {"name": "strait", "label": "the Strait", "full_value": True}]


def _games_on(routes, board="horn"):
    """A games table of one game on a map with these routes (as the record's header lists them)."""
    return pd.DataFrame([{"cell": 0, "game": 0, "map": board, "routes": json.dumps(routes)}])


def _contract(k, value, full, net, ships=2, strategy=None, game=0):
    return {"cell": 0, "game": game, "players": k, "value": value, "full_route": full, "points": max(net, 0.0),
            "ransom": max(-net, 0.0), "ships": ships, "fulfilled": net > 0,
            "strategy": strategy or ("bold" if full else "cautious")}


def test_routes_answer_R8_compares_sailed_contracts_by_value_band():
    rows = []
    for i in range(40):
        rows.append(_contract(2, 32, False, 16.0 + i % 3, game=i))  # Africa nets about 17 on low values
        rows.append(_contract(2, 32, True, 5.0 + i % 3, game=i))  # Aden about 6
        rows.append(_contract(2, 60, False, 30.0 + i % 3, game=i))
        rows.append(_contract(2, 60, True, 45.0 + i % 3, game=i))  # Aden wins on high values
        rows.append(_contract(2, 60, True, 0.0, ships=0, game=i))  # taken, never sailed: left out
    (text, who) = routes_answer(pd.DataFrame(rows), _games_on(DEFAULT_ROUTES))
    assert text.startswith("**2 players (40 games), net points of Gulf of Aden minus round Africa per sailed contract, "
                           "by value**")
    assert "30-39: round Africa, -11.0" in text and "56-64: Gulf of Aden, +15.0" in text
    assert "Gulf of Aden (full value): 80 contracts" in text and "round Africa (half value): 80 contracts" in text
    assert "round Africa: cautious; Gulf of Aden: bold" in who
    (text, who) = routes_answer(pd.DataFrame(rows), _games_on([]))  # results made before routes were recorded
    assert "30-39: the half-value route, -11.0" in text and "56-64: the full-value route, +15.0" in text
    assert "the half-value route: cautious; the full-value route: bold" in who


def test_R8_route_gaps_are_full_minus_half_by_band_and_say_where_they_cross_zero():
    rows = []
    for i in range(40):
        rows.append(_contract(2, 32, False, 16.0 + i % 3, game=i))  # low values: half value nets 11 more
        rows.append(_contract(2, 32, True, 5.0 + i % 3, game=i))
        rows.append(_contract(2, 60, False, 30.0 + i % 3, game=i))  # high values: full value nets 15 more
        rows.append(_contract(2, 60, True, 45.0 + i % 3, game=i))
    rows += [_contract(2, 44, True, 20.0, game=j) for j in range(9)] + [_contract(2, 44, False, 10.0, game=j)
                                                                      for j in range(30)]  # 9 < 10: not compared
    gaps = band_gaps(route_table(pd.DataFrame(rows)))
    assert [(band, n_full, n_half) for band, n_full, n_half, _ in gaps] == [
        ("30-39", 40, 40), ("40-47", 9, 30), ("48-55", 0, 0), ("56-64", 40, 40)]
    assert gaps[0][3][0] == pytest.approx(-11.0) and gaps[3][3][0] == pytest.approx(15.0) and gaps[1][3] is None and gaps[2][3] is None
    assert gaps[0][3][1] < -11.0 < gaps[0][3][2]
    assert crossing(gaps, "Aden", "Africa") == ("The curve crosses zero between the 30-39 and 56-64 bands (95% "
                                                 "intervals on either side): Africa nets more below, Aden above")
    (text, _) = routes_answer(pd.DataFrame(rows), _games_on(DEFAULT_ROUTES))
    assert "The curve crosses zero between the 30-39 and 56-64 bands " in text
    always = [r for r in rows if r["value"] != 32]  # the full-value route nets more wherever compared
    assert crossing(band_gaps(route_table(pd.DataFrame(always))), "Aden", "Africa") == (
        "Too few value bands compared to say where the routes' net points cross")
    always += [_contract(2, 50, full, net, game=j) for j in range(10) for full, net in ((True, 30.0), (False, 20.0))]
    assert crossing(band_gaps(route_table(pd.DataFrame(always))), "Aden", "Africa") == (
        "The curve does not cross zero inside contract values 48-64: Aden nets more in every compared band (every "
        "95% interval on its side)")
    noisy = [("30-39", 20, 20, (-0.4, -3.0, 2.0)), ("40-47", 20, 20, (0.3, -2.0, 3.0)), ("48-55", 20, 20, (0.0, 0, 0))]
    assert crossing(noisy, "Aden", "Africa") == ("No band inside contract values 30-55 tells either route from the "
                                                 "other at 95%")  # point estimates of either sign, and an exact 0
    noisy.append(("56-64", 20, 20, (5.0, 2.0, 8.0)))
    assert crossing(noisy, "Aden", "Africa") == ("The curve does not cross zero inside contract values 30-64: Aden "
                                                 "nets more in 1 of 4 compared bands, the others' 95% intervals "
                                                 "hold zero")


def test_R8_route_gap_figure_is_drawn_only_where_both_routes_were_sailed(tmp_path):
    rows = [{**_contract(2, 32, full, net), "cell": 0, "game": i % 5} for i in range(40)
            for full, net in ((False, 16.0 + i % 3), (True, 5.0 + i % 3))]
    assert route_gap_by_value(pd.DataFrame(rows), _games_on(DEFAULT_ROUTES), tmp_path / "gap.png") == 5
    assert (tmp_path / "gap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    half_only = [r for r in rows if not r["full_route"]]
    assert route_gap_by_value(pd.DataFrame(half_only), _games_on(DEFAULT_ROUTES), tmp_path / "none.png") == 0
    assert not (tmp_path / "none.png").exists()


def test_routes_answer_R8_names_the_routes_of_each_map_and_never_pools_two_maps():
    rows = []
    for board in ("horn", "straits"):
        for i in range(40):
            rows.append({**_contract(2, 32, False, 16.0 + i % 3, game=i), "map": board})
            rows.append({**_contract(2, 32, True, 5.0 + i % 3, game=i), "map": board})
    games = pd.concat([_games_on(DEFAULT_ROUTES, "horn"), _games_on(STRAITS_ROUTES, "straits")], ignore_index=True)
    horn, horn_who, straits, straits_who = routes_answer(pd.DataFrame(rows), games)
    assert horn.startswith("**2 players, on horn (40 games), net points of Gulf of Aden minus round Africa")
    assert straits.startswith("**2 players, on straits (40 games), net points of the Strait minus open ocean")
    assert "30-39: open ocean, -11.0" in straits and "Aden" not in straits and "Africa" not in straits
    assert horn_who.startswith("On horn, the routes were sailed by different strategies (round Africa: cautious; "
                               "Gulf of Aden: bold)")
    assert "(open ocean: cautious; the Strait: bold)" in straits_who  # each map's own names, never pooled


def test_answers_pick_the_seat_answer_for_identical_players_and_always_say_who_played():
    players, games = _concat(_cell(0, 2, 4, 100, 50, 40, label="players=2"))
    # four contracts sailed round Africa and one taken for the Gulf that no ship was sent for
    contracts = pd.DataFrame([_contract(2, 40, False, 20.0, strategy="ev")] * 4
                             + [_contract(2, 40, True, 0.0, ships=0, strategy="ev")])
    out = answers({"players": players, "games": games, "contracts": contracts})
    assert out[0].startswith("**players=2: no first-player advantage detected")
    assert out[-1].startswith("**Who played**") and "ev fulfils 50.0% of 400 contracts taken" in out[-1]
    assert "sails 4 of them, 0.0% via the full-value route, runs aground on 5.0% of throws" in out[-1]  # 1 of 20
    games["routes"] = json.dumps(STRAITS_ROUTES)
    out = answers({"players": players, "games": games, "contracts": contracts})
    assert "sails 4 of them, 0.0% via the Strait (full value)" in out[-1]


def test_strategies_answer_names_the_better_strategy_only_when_significant():
    rows = []
    for cell, cautious_wins in ((0, 150), (1, 104)):  # of 200: 75% (significant), 52% (not)
        for g in range(200):
            for seat, strategy in enumerate(("ev", "cautious")):
                won = (g < cautious_wins) == (strategy == "cautious")
                rows.append({"cell": cell, "game": g, "cell_label": f"cell {cell}", "players": 2, "seat": seat,
                             "strategy": strategy, "win_share": float(won), "points": 20.0 if won else 5.0})
    clear, unclear = answers_of(pd.DataFrame(rows))
    assert clear.startswith("**cell 0: cautious plays best** (200 games). cautious wins 75.0% [")
    assert unclear.startswith("**cell 1: no strategy is shown to play better**")


def answers_of(players):
    from somaliland.study.answers import strategies_answer

    return strategies_answer(players)


def _only_variant_answer(cells, column):
    """Return the one answer about `column`, checking it is the only swept setting the tables show."""
    from somaliland.study.answers import swept_variants, variant_answer

    players, games = _concat(*cells)
    contracts = pd.DataFrame([{**_contract(2, 40, False, 20.0), "cell": c} for c in range(len(cells))])
    assert swept_variants(games) == [column]
    (text,) = variant_answer(players, games, contracts, column)
    return text


def test_variant_answer_compares_each_value_of_a_swept_rules_option_with_the_first():
    cells = []
    for cell, (value, points, ransom) in enumerate((("any_route", 0.0, 20.0), ("full_route", 30.0, 0.0))):
        players, games = _cell(cell, 2, 4, 100, 50, 40, label=f"pirate_targets={value}",
                               extra={"pirate_targets": value, "ransom": ransom})
        players["points"] = points + np.random.default_rng(cell).normal(0, 5, len(players))
        games["pirate_targets"] = value
        games["first_player"] = games.game % 2  # an outcome that varies within a cell: not a variant
        cells.append((players, games))
    text = _only_variant_answer(cells, "pirate_targets")
    assert text.startswith("**2 players, pirate_targets = full_route against any_route: more points**")
    assert "ransom per player 0.0 vs 20.0" in text and "(100 and 100 games)" in text


def test_a_swept_physics_setting_is_answered_like_a_rules_variant():
    """Does the simulation's step rate move the answers? Equal results read as consistent with no change."""
    cells = []
    for cell, rate in enumerate((960, 480)):
        players, games = _cell(cell, 2, 4, 100, 50, 40, label=f"physics_rate_hz={rate}")
        players["points"] = np.random.default_rng(7).normal(0, 5, len(players))  # the same in both cells
        games["physics_rate_hz"] = rate
        cells.append((players, games))
    text = _only_variant_answer(cells, "physics_rate_hz")
    assert text.startswith("**2 players, physics_rate_hz = 480 against 960: points consistent with no change**")
    assert "40.0 vs 40.0 (+0.0 [+0.0, +0.0]) throws a game" in text


def test_a_variant_answer_gives_game_length_and_groundings_with_intervals():
    """480 Hz games one throw longer and one more throw aground per player: both differences shown with CIs."""
    cells = []
    for cell, (rate, extra) in enumerate(((960, 0), (480, 1))):
        players, games = _cell(cell, 2, 4, 100, 50, 40, label=f"physics_rate_hz={rate}")
        noise = np.random.default_rng(cell).normal(0, 0.5, len(players))
        players["groundings"] = 5 + extra + noise
        games["throws"] = 40 + extra + np.random.default_rng(10 + cell).normal(0, 0.5, len(games))
        games["physics_rate_hz"] = rate
        cells.append((players, games))
    text = _only_variant_answer(cells, "physics_rate_hz")
    for part, unit in ((4, "throws a game"), (5, "throws aground per player")):
        m = re.fullmatch(r"([\d.]+) vs ([\d.]+) \(([+-][\d.]+) \[([+-][\d.]+), ([+-][\d.]+)\]\) " + unit,
                         text.split("; ")[part])
        assert m, text.split("; ")[part]
        d, lo, hi = map(float, m.groups()[2:])
        assert 0.8 < d < 1.2 and 0 < lo <= d <= hi < 1.3  # a real difference, its interval clear of zero


def test_a_map_sweep_names_each_maps_full_value_route_in_its_variant_answer():
    cells = []
    for cell, (board, routes) in enumerate((("horn", DEFAULT_ROUTES), ("straits", STRAITS_ROUTES))):
        players, games = _cell(cell, 2, 4, 100, 50, 40, label=f"map={board}")
        games["map"], games["routes"] = board, json.dumps(routes)
        cells.append((players, games))
    text = _only_variant_answer(cells, "map")
    assert "sailed the full-value route 0.0% (the Strait) vs 0.0% (Gulf of Aden)" in text
