"""Issue 18 item 8: a map sweep's report never pools two maps, and says what it left out for too few games.

Hand-built results tables of a sweep over two maps (and a rules option, the rounds, a seat's skill) whose
answers are known; then a real map sweep played and reported end to end.
"""

import json

import numpy as np
import pandas as pd

from somaliland.cli.main import main
from somaliland.study import load_study
from somaliland.study.answers import (answers, players_context, rounds_answer, routes_answer, seats_answer,
                                      skill_answer, variant_answer)
from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study
from test_study_support import TINY_MAP, tiny_study

HORN = [{"name": "somalia", "label": "Gulf of Aden", "full_value": True},
        {"name": "africa", "label": "round Africa", "full_value": False}]
STRAITS = [{"name": "ocean", "label": "open ocean", "full_value": False},
           {"name": "strait", "label": "the Strait", "full_value": True}]
ROUTES = {"horn": HORN, "straits": STRAITS}


def cell(index, board, k=2, n=100, p1_wins=50, rounds=4, extra=None, points=10.0):
    """Return (players, games) of n games of k identical players on a map; the first player wins p1_wins."""
    players, games = [], []
    for g in range(n):
        winner = 0 if g < p1_wins else 1 + g % (k - 1)
        for seat in range(k):
            order = (seat + g) % k
            players.append({"cell": index, "game": g, "cell_label": f"cell {index}", "players": k, "rounds": rounds,
                            "map": board, "seat": seat, "order": order, "strategy": "ev", "skill": 0.75,
                            "win_share": float(order == winner), "points": points + (g % 7), "ransom": 2.0,
                            "taken": 2, "fulfilled": 1, "groundings": 1, "throws": 10, **(extra or {})})
        games.append({"cell": index, "game": g, "cell_label": f"cell {index}", "players": k, "rounds": rounds,
                      "map": board, "routes": json.dumps(ROUTES[board]), "throws": 10 * k, "lead_change": 0.3,
                      "spread": 20.0, "n_winners": 1, **(extra or {})})
    return pd.DataFrame(players), pd.DataFrame(games)


def tables(*cells):
    players = pd.concat([c[0] for c in cells], ignore_index=True)
    games = pd.concat([c[1] for c in cells], ignore_index=True)
    return players, games


def contract(board, value, full, net, n, strategy="ev", k=2):
    return [{"map": board, "cell": 0, "game": g, "players": k, "value": value, "full_route": full, "ships": 2,
             "points": max(net, 0.0), "ransom": max(-net, 0.0), "fulfilled": net > 0, "strategy": strategy}
            for g in range(n)]


def test_a_band_with_too_few_contracts_says_so_with_both_counts():
    rows = (contract("horn", 32, True, 5.0, 4) + contract("horn", 32, False, 15.0, 31)
            + contract("horn", 60, True, 40.0, 12) + contract("horn", 60, False, 30.0, 14))
    (text,) = routes_answer(pd.DataFrame(rows), cell(0, "horn")[1])
    assert "30-39: too few contracts to compare (Gulf of Aden 4, round Africa 31; at least 10 each)" in text
    assert "40-47: too few contracts to compare (Gulf of Aden 0, round Africa 0; at least 10 each)" in text
    assert "56-64: Gulf of Aden, +10.0 [+10.0, +10.0]" in text


def test_a_player_count_with_no_band_to_compare_is_not_left_out():
    rows = contract("horn", 32, True, 5.0, 3) + contract("horn", 32, False, 15.0, 2)
    (text,) = routes_answer(pd.DataFrame(rows), cell(0, "horn")[1])
    assert text.startswith("**2 players (100 games): round Africa and Gulf of Aden not compared, too few sailed "
                           "contracts** — "
                           "30-39: too few contracts to compare (Gulf of Aden 3, round Africa 2; at least 10 each);")


def test_contracts_all_sailed_one_way_on_a_map_with_both_kinds_are_said():
    players, games = cell(0, "horn")
    contracts = pd.DataFrame(contract("horn", 40, True, 20.0, 50))
    out = answers({"players": players, "games": games, "contracts": contracts})
    assert "**Routes: not compared** — all 50 sailed contracts went via Gulf of Aden (full value); comparing the " \
           "routes needs at least 10 sailed contracts on each kind per value band." in out
    assert out[0].startswith("**cell 0: no first-player advantage detected")  # still the seats answer


def test_a_rules_option_swept_over_two_maps_is_answered_per_map():
    cells = []
    for index, (board, value, points) in enumerate((("horn", "any_route", 0.0), ("horn", "full_route", 30.0),
                                                     ("straits", "any_route", 0.0), ("straits", "full_route", 0.0))):
        cells.append(cell(index, board, extra={"pirate_targets": value}, points=points))
    players, games = tables(*cells)
    contracts = pd.DataFrame(contract("horn", 40, False, 20.0, 1))
    horn, straits = variant_answer(players, games, contracts, "pirate_targets")
    # pooled, the maps would show +15 points; each map answers alone
    assert horn.startswith("**2 players, on horn, pirate_targets = full_route against any_route: more points** — "
                           "points per player +33.0 vs +3.0")
    assert straits.startswith("**2 players, on straits, pirate_targets = full_route against any_route: points "
                              "consistent with no change** — points per player +3.0 vs +3.0")


def test_the_map_itself_is_compared_across_maps():
    players, games = tables(cell(0, "horn"), cell(1, "straits", points=20.0))
    (text,) = variant_answer(players, games, pd.DataFrame(contract("horn", 40, False, 20.0, 1)), "map")
    assert text.startswith("**2 players, map = straits against horn: more points**")


def test_rounds_and_skill_and_who_played_are_answered_per_map():
    players, games = tables(cell(0, "horn", rounds=4), cell(1, "horn", rounds=6),
                            cell(2, "straits", rounds=4), cell(3, "straits", rounds=6))
    heads = [a.split("**")[1] for a in rounds_answer(players, games) if a.startswith("**")]
    assert heads == ["2 players, on horn: play 4 rounds.", "2 players, on straits: play 4 rounds."]
    players["seat0_skill"] = np.where(players.cell % 2 == 0, 0.5, 1.0)
    heads = [a.split("**")[1] for a in skill_answer(players, "seat0_skill", 0)]
    assert heads == ["2 players, on horn: dexterity is not shown to matter.",
                     "2 players, on straits: dexterity is not shown to matter."]
    contracts = pd.DataFrame(contract("horn", 40, True, 20.0, 4) + contract("straits", 40, False, 20.0, 4))
    horn, straits = players_context(players, contracts, games)
    assert horn.startswith("**Who played, on horn**") and "sails 4 of them, 100.0% via Gulf of Aden (full value)" in horn
    assert straits.startswith("**Who played, on straits**")
    assert "sails 4 of them, 0.0% via the Strait (full value)" in straits


def test_tests_with_too_few_games_say_so_with_the_count():
    players, games = tables(cell(0, "horn", k=4, n=12, p1_wins=3))
    (text,) = seats_answer(players, games)
    assert "(too few games for a χ² test (12; at least 20)); by seat (colour)" in text
    players, games = tables(cell(0, "horn", n=30, rounds=4), cell(1, "horn", n=8, rounds=6))
    (head, _) = rounds_answer(players, games)
    assert "6 rounds: P1" in head and "8 games (turn positions: too few games for a χ² test (8; at least 10); P1's " \
                                      "binomial test only)" in head
    players["seat0_skill"] = 0.5
    (text,) = skill_answer(players[players.cell == 1], "seat0_skill", 0)
    assert text == ("**2 players: dexterity not measured** — a slope needs at least 3 games over at least 2 skill "
                    "levels of seat 0; found 8 games at level 0.5.")


def test_a_played_map_sweep_reports_each_map_on_its_own(tmp_path):
    relabelled = tmp_path / "relabelled.toml"
    relabelled.write_text(TINY_MAP.read_text().replace('"east passage"', '"the Strait"')
                          .replace('"west passage"', '"open ocean"'))
    path = tiny_study(tmp_path, games=3, sweep=f'map = ["{TINY_MAP}", "{relabelled}"]', name="sweep")
    out, report = tmp_path / "out", tmp_path / "report" / "report.md"
    run_study(load_study(path), path.read_text(), out, local_executors(1), 1, progress=False)
    assert main(["study", "report", str(out), "-o", str(report)]) == 0
    answer = report.read_text().split("## Answer")[1].split("## Conclusions")[0]
    bullets = [line for line in answer.splitlines() if line.startswith("- **")]
    routes = [b for b in bullets if "too few contracts to compare (" in b]  # 3 games a map: too few everywhere
    assert [b.split("**")[1] for b in routes] == [
        "2 players, on relabelled (3 games): open ocean and the Strait not compared, too few sailed contracts",
        "2 players, on tiny (3 games): west passage and east passage not compared, too few sailed contracts"]
    assert [b.split("**")[1] for b in bullets if "Who played" in b] == ["Who played, on relabelled",
                                                                       "Who played, on tiny"]


def test_two_map_files_of_one_name_are_refused_before_they_could_be_pooled(tmp_path, capsys):
    other = tmp_path / "copy" / "tiny.toml"
    other.parent.mkdir()
    other.write_text(TINY_MAP.read_text().replace('"east passage"', '"the Strait"'))
    path = tiny_study(tmp_path, games=3, sweep=f'map = ["{TINY_MAP}", "{other}"]', name="same-name")
    assert main(["study", "run", str(path), "--out", str(tmp_path / "out")]) == 2
    assert (f"{path}: map: expected map files of different names (results and reports name a map by its file name, "
            f"and would pool two called 'tiny'), found '{TINY_MAP} and {other}'") in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
