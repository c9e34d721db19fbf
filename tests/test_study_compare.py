"""`study compare`: two cells' games paired by their seeds, from hand-built tables and from two real tiny studies."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from somaliland.study.compare import FIELD, compare_rows, compare_table, seat_groups, table_setups
from test_study_run import run
from test_study_support import tiny_study


def _cell(games=50, seat0="search", wins=20, points=60.0, aground=1, seeds=None, cell=0, skill0=0.75):
    """One cell of 4-player games: seat 0 plays `seat0`, seats 1-3 ev. Seat 0 wins the first `wins` games, scores
    `points` and runs aground `aground` times in 10 throws; the ev seats score 40, run aground twice in 10 throws."""
    seeds = list(range(1000, 1000 + games)) if seeds is None else seeds
    rows = []
    for g, seed in enumerate(seeds):
        winner = 0 if g < wins else 1 + g % 3
        for seat in range(4):
            mine = seat == 0
            rows.append({"cell": cell, "cell_label": "x", "game": g, "game_seed": seed, "players": 4, "seat": seat,
                         "strategy": seat0 if mine else "ev", "skill": skill0 if mine else 0.75,
                         "win_share": float(seat == winner), "points": points if mine else 40.0,
                         "groundings": aground if mine else 2, "throws": 10, "fulfilled": 2 if mine else 1,
                         "taken": 3 if mine else 2, "throw_cpu_s": 0.5 if mine else 0.05})
    return pd.DataFrame(rows)


def _measures(result, group=0):
    return result["groups"][group]["measures"]


def test_games_pair_by_seed_not_by_number_nor_row_order_and_differences_are_taken_game_by_game():
    a = _cell(wins=30, points=70.0, aground=1)
    b = _cell(wins=20, points=60.0, aground=2)
    b = b.assign(game=(b.game * 7) % 50).sample(frac=1.0, random_state=3)  # other numbers, rows shuffled
    result = compare_rows(a, b)
    assert (result["games"], result["games_a"], result["games_b"]) == (50, 50, 50)
    assert [g["label"] for g in result["groups"]] == ["seat 0: search (skill 0.75)", "seats 1, 2, 3: ev (skill 0.75)"]
    win = _measures(result)["win rate per seat %"]
    assert (win["a"], win["b"], win["games"]) == (60.0, 40.0, 50) and win["difference"] == pytest.approx(20.0)
    # paired by seed, the differences are ten games of +100 and forty of 0 (unpaired, some would be -100)
    assert win["low"] == pytest.approx(20 - 1.959964 * 100 * math.sqrt(0.2 * 0.8 * 50 / 49) / math.sqrt(50))
    points = _measures(result)["points per game"]
    assert (points["difference"], points["low"], points["high"]) == (10.0, 10.0, 10.0)  # the same gap every game
    aground = _measures(result)["groundings per move %"]
    assert (aground["a"], aground["b"]) == (10.0, 20.0) and aground["difference"] == pytest.approx(-10.0)
    field = _measures(result)[FIELD]  # issue 21's form, R17
    assert (field["a"], field["b"]) == (pytest.approx(0.5), pytest.approx(1.0))
    assert field["difference"] == pytest.approx(-0.5)
    assert FIELD not in _measures(result, 1)  # the field against itself: nothing to say
    text = "\n".join(compare_table(result, "first", "second"))
    assert "A − B of a measure in % (a rate) is in percentage points." in text
    assert "- 50 games paired by their seeds, of A's 50 and B's 50" in text
    assert "| seat 0: search (skill 0.75) | win rate per seat % | 60.0 | 40.0 | +20.0 [" in text
    assert "|  | points per game | 70.0 | 60.0 | +10.0 [+10.0, +10.0] | 50 |" in text  # the group named once


def test_a_ratio_difference_is_paired_so_what_games_share_drops_out():
    """Games differ a lot in how often everyone runs aground, A a steady 2 points of moves below B in each: paired,
    the difference's interval is narrow; unpaired (B's games drawn apart from A's) it would be many times wider."""
    rng = np.random.default_rng(5)
    a, b = _cell(games=80), _cell(games=80)
    rough = rng.integers(5, 60, size=80)  # throws aground per 100 in each game, shared by both cells
    a.loc[a.seat == 0, ["groundings", "throws"]] = np.column_stack([rough - 2, np.full(80, 100)])
    b.loc[b.seat == 0, ["groundings", "throws"]] = np.column_stack([rough, np.full(80, 100)])
    m = _measures(compare_rows(a, b))["groundings per move %"]
    assert m["difference"] == pytest.approx(-2.0) and m["high"] - m["low"] < 0.01
    unpaired = np.std([(rng.choice(rough, 80).mean() - rng.choice(rough, 80).mean()) for _ in range(500)])
    assert unpaired > 2  # what an unpaired interval's half-width would be about, in points of moves


def test_only_the_seeds_both_played_are_paired():
    a = _cell(games=30, seeds=list(range(1000, 1030)))
    b = _cell(games=30, seeds=list(range(1020, 1050)))
    result = compare_rows(a, b)
    assert (result["games"], result["games_a"], result["games_b"]) == (10, 30, 30)
    assert compare_rows(a, _cell(seeds=[5, 6]))["groups"] == []  # nothing shared: nothing compared


def test_seats_group_by_their_whole_setup_strategy_and_skill():
    a, b = _cell(skill0=0.5), _cell(skill0=0.5)
    a.loc[a.seat == 0, "strategy"] = b.loc[b.seat == 0, "strategy"] = "ev"
    assert seat_groups(table_setups(a), table_setups(b)) == [
        ((0,), "ev (skill 0.5)", "ev (skill 0.5)"), ((1, 2, 3), "ev (skill 0.75)", "ev (skill 0.75)")]
    result = compare_rows(_cell(seat0="search"), _cell(seat0="ev"))
    assert result["groups"][0]["label"] == "seat 0: search (skill 0.75) in A, ev (skill 0.75) in B"
    assert FIELD not in _measures(result)  # B's seat 0 is of the field there: no ratio on that side
    named = compare_rows(a, b, {0: "x", 1: "y", 2: "y", 3: "y"}, {0: "x", 1: "y", 2: "y", 3: "z"})
    assert [g["seats"] for g in named["groups"]] == [(0,), (1, 2), (3,)]


def test_a_missing_value_is_left_out_not_counted_as_zero():
    a, b = _cell(games=10), _cell(games=10)
    b.loc[b.game < 4, "throw_cpu_s"] = np.nan  # games played before decisions were timed
    b = b[~((b.game == 9) & (b.seat == 2))]  # a seat's row missing in one game
    result = compare_rows(a, b)
    cpu = _measures(result)["CPU s per throw decision"]
    assert (cpu["a"], cpu["b"], cpu["games"]) == (0.05, 0.05, 6)
    assert _measures(result, 1)["points per game"]["games"] == 9 and _measures(result, 1)["points per game"]["b"] == 40
    untimed = compare_rows(a, b.drop(columns="throw_cpu_s"))
    assert _measures(untimed)["CPU s per throw decision"]["games"] == 0
    assert "| CPU s per throw decision | – | – | – | 0 |" in "\n".join(compare_table(untimed, "A", "B"))


def test_undefined_figures_say_so_instead_of_a_number():
    a = _cell(games=1)
    result = compare_rows(a, a)
    points = _measures(result)["points per game"]
    assert points["difference"] == 0.0 and math.isnan(points["low"])  # one game: no interval
    assert "+0.0 (no interval)" in "\n".join(compare_table(result, "A", "A"))
    no_contracts = compare_rows(a.assign(taken=0, fulfilled=0), a)
    assert math.isnan(_measures(no_contracts)["fulfilment %"]["a"])
    assert "| fulfilment % | – |" in "\n".join(compare_table(no_contracts, "A", "A"))


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    """The tiny study (cells: skill 0.5 and 1.0); a copy with one cell, skill 1.0, whose cell 0 plays the same seeds
    as the tiny study's cell 0 (the same master seed and cell index) with the other skill; one of 3 players."""
    folder = tmp_path_factory.mktemp("compare")
    run(tiny_study(folder, games=3), folder / "tiny")
    run(tiny_study(folder, games=3, sweep='"seats.skill" = [1.0]', name="steady"), folder / "steady")
    three = tiny_study(folder, games=2, sweep='"seats.skill" = [0.5]', name="three",
                       strategy='["africa", "somalia", "africa"]')
    three.write_text(three.read_text().replace("players = 2", "players = 3"))
    run(three, folder / "three")
    return folder


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "somaliland.cli.main", "study", "compare", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def test_the_command_pairs_two_studies_on_their_shared_seeds(studies):
    proc = _cli(studies / "steady", studies / "tiny")
    assert proc.returncode == 0, proc.stderr
    assert "- 3 games paired by their seeds, of A's 3 and B's 3" in proc.stdout
    assert "| seat 0: africa (skill 1) in A, africa (skill 0.5) in B | win rate per seat % |" in proc.stdout
    data = json.loads(_cli(studies / "steady", studies / "tiny", "--json").stdout)  # strict JSON: NaN is null
    assert data["games"] == 3 and data["groups"][0]["seats"] == [0]
    assert set(data["groups"][0]["measures"]["points per game"]) == {"a", "b", "difference", "low", "high", "games"}
    proc = _cli(studies / "tiny", studies / "tiny", "--json")
    same = json.loads(proc.stdout)  # a cell against itself: every difference 0, and a note says why
    assert all(m["difference"] == 0 for g in same["groups"] for m in g["measures"].values() if m["games"])
    assert "A and B are the same cell" in proc.stderr


def test_what_cannot_be_compared_says_where_and_why(studies):
    tiny = studies / "tiny"
    proc = _cli(tiny, studies / "steady", "--cell", "1")
    assert proc.returncode == 2 and "--cell: expected a cell of its study, 0 to 0, found 1" in proc.stderr
    proc = _cli(tiny, studies / "three")
    assert proc.returncode == 2 and "players: expected cells of as many players" in proc.stderr
    assert "found '2 and 3'" in proc.stderr
    proc = _cli(tiny, tiny.parent / "nowhere")
    assert proc.returncode == 2 and "nowhere" in proc.stderr
    for proc in (_cli(tiny, studies / "steady", "--cell", "1"), _cli(tiny, tiny.parent / "nowhere")):
        assert "Traceback" not in proc.stderr


def test_a_reader_that_stops_early_gets_no_traceback(studies):
    """`somaliland study compare A B | head -1`: the command stops quietly when its reader has gone."""
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        proc = subprocess.run([sys.executable, "-m", "somaliland.cli.main", "study", "compare",
                               str(studies / "steady"), str(studies / "tiny")],
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)
    assert proc.returncode == 141 and "Traceback" not in proc.stderr, proc.stderr


def _split(table, full_share, own, own_full):
    """Add the groundings split: of seat 0's 10 throws `full_share` on the full-value route, `own` of its groundings
    its own throws (`own_full` of them there); each ev seat 4 of 10 there, 1 own throw aground there, 1 pushed."""
    mine = table.seat == 0
    return table.assign(throws_full=mine.map({True: full_share, False: 4}), launches=0, aground_launch=0,
                        aground_thrown=mine.map({True: own, False: 1}),
                        aground_thrown_full=mine.map({True: own_full, False: 1}))


def test_the_other_readings_of_the_groundings_bar_are_compared_too_R8_R17_R18():
    """Issue 21's bar read on own throws only, and at the field's route mix (`ladder.standardised`): each side's
    figure is the Ladder section's, the difference paired."""
    from somaliland.study.compare import MIX, OWN
    from somaliland.study.ladder import SPLIT, standardised

    a = _split(_cell(games=40, aground=2), full_share=8, own=2, own_full=2)  # 2 own throws aground, both in the Gulf
    b = _split(_cell(games=40, aground=2), full_share=8, own=1, own_full=1)  # 1 own, 1 pushed
    b.loc[(b.seat == 0) & (b.game % 4 == 0), ["aground_thrown", "aground_thrown_full", "groundings"]] = 0
    m = _measures(compare_rows(a, b))
    assert m[OWN]["a"] == pytest.approx(0.2 / 0.1) and m[OWN]["games"] == 40  # ev: 1 own throw aground in 10
    assert m[OWN]["b"] == pytest.approx((30 / 400) / 0.1)
    per_game = lambda t, seats: t[t.seat.isin(seats)].groupby("game_seed")[["groundings", "throws", *SPLIT]].sum()
    for side, t in (("a", a), ("b", b)):
        assert m[MIX][side] == pytest.approx(standardised(per_game(t, [0]), per_game(t, [1, 2, 3]))["ratio"][0])
    assert m[MIX]["difference"] == pytest.approx(m[MIX]["a"] - m[MIX]["b"])
    assert m[MIX]["low"] < m[MIX]["difference"] < m[MIX]["high"]
    older = compare_rows(a.drop(columns=list(SPLIT)), b)  # games played before the split columns existed
    assert _measures(older)[OWN]["games"] == 0 and _measures(older)[MIX]["games"] == 0
