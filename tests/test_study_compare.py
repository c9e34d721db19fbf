"""`study compare`: two cells' games paired by their seeds, from hand-built tables and from two real tiny studies."""

import json
import os
import math
import subprocess
import sys

import pandas as pd
import pytest

from somaliland.study import StudyError
from somaliland.study.compare import cell_rows, compare_rows, compare_table, seat_groups
from test_study_run import run
from test_study_support import tiny_study


def _cell(games=50, seat0="search", wins=20, points=60.0, aground=1, seeds=None, cell=0):
    """One cell of 4-player games: seat 0 plays `seat0`, seats 1-3 ev. Seat 0 wins the first `wins` games, scores
    `points` and runs aground `aground` times in 10 throws; the ev seats score 40, run aground twice in 10 throws."""
    seeds = list(range(1000, 1000 + games)) if seeds is None else seeds
    rows = []
    for g, seed in enumerate(seeds):
        winner = 0 if g < wins else 1 + g % 3
        for seat in range(4):
            mine = seat == 0
            rows.append({"cell": cell, "cell_label": "x", "game": g, "game_seed": seed, "players": 4, "seat": seat,
                         "strategy": seat0 if mine else "ev", "win_share": float(seat == winner),
                         "points": points if mine else 40.0, "groundings": aground if mine else 2, "throws": 10,
                         "fulfilled": 2 if mine else 1, "taken": 3 if mine else 2,
                         "throw_cpu_s": 0.5 if mine else 0.05})
    return pd.DataFrame(rows)


def test_games_pair_by_seed_not_by_number_and_differences_are_taken_game_by_game():
    a = _cell(wins=30, points=70.0, aground=1)
    b = _cell(wins=20, points=60.0, aground=2)
    b = b.assign(game=(b.game * 7) % 50)  # the same seeds under other game numbers
    result = compare_rows(a, b)
    assert (result["games"], result["games_a"], result["games_b"]) == (50, 50, 50)
    seat0, ev = result["groups"]
    assert (seat0["label"], ev["label"]) == ("seat 0: search", "seats 1, 2, 3: ev")
    win = seat0["measures"]["win rate per seat %"]
    assert win[:2] == (60.0, 40.0) and win[2][0] == pytest.approx(20.0)
    # paired by seed, the differences are ten games of +100 and forty of 0 (by game number some would be -100)
    assert win[2][1] == pytest.approx(20 - 1.959964 * 100 * math.sqrt(0.2 * 0.8 * 50 / 49) / math.sqrt(50))
    assert seat0["measures"]["points per game"][2][:3] == (10.0, 10.0, 10.0)  # the same gap in every game
    aground = seat0["measures"]["groundings per move %"]
    assert aground[:2] == (10.0, 20.0) and aground[2][0] == pytest.approx(-10.0)
    field = seat0["measures"]["× the field's groundings per move"]  # issue 21's form, R17
    assert field[0] == pytest.approx(0.5) and field[1] == pytest.approx(1.0) and field[2][0] == pytest.approx(-0.5)
    assert "× the field's groundings per move" not in ev["measures"]  # the field against itself: nothing to say
    lines = compare_table(result, "A", "B")
    assert lines[0] == "A: A (50 games); B: B (50 games); 50 games paired by their seeds."
    assert "| seat 0: search | win rate per seat % | 60.0 | 40.0 | +20.0 [" in "\n".join(lines)


def test_only_the_seeds_both_played_are_paired():
    a = _cell(games=30, seeds=list(range(1000, 1030)))
    b = _cell(games=30, seeds=list(range(1020, 1050)))
    result = compare_rows(a, b)
    assert (result["games"], result["games_a"], result["games_b"]) == (10, 30, 30)
    assert compare_rows(a, _cell(seeds=[5, 6]))["groups"] == []  # nothing shared: nothing compared


def test_a_seat_whose_strategy_differs_is_its_own_group():
    a, b = _cell(seat0="search"), _cell(seat0="ev")
    assert seat_groups(a, b) == [((0,), "search", "ev"), ((1, 2, 3), "ev", "ev")]
    result = compare_rows(a, b)
    assert result["groups"][0]["label"] == "seat 0: search (A), ev (B)"
    # B's seat 0 is of the field there: no ratio to the field on that side, so no difference either
    assert "× the field's groundings per move" not in result["groups"][0]["measures"]


def test_undefined_figures_say_so_instead_of_a_number():
    a = _cell(games=1)
    result = compare_rows(a, a)
    points = result["groups"][0]["measures"]["points per game"]
    assert points[2][0] == 0.0 and math.isnan(points[2][1])  # one game: no interval
    assert "+0.0 (no interval)" in "\n".join(compare_table(result, "A", "A"))
    no_contracts = compare_rows(a.assign(taken=0, fulfilled=0), a)
    assert math.isnan(no_contracts["groups"][0]["measures"]["fulfilment %"][0])
    assert "| fulfilment % | – |" in "\n".join(compare_table(no_contracts, "A", "A"))


def test_a_missing_cell_names_the_cells_there_are():
    with pytest.raises(StudyError, match=r"--cell-a: expected a cell of the results \(0\), found 3"):
        cell_rows(_cell(), 3, "here", "--cell-a")


@pytest.fixture(scope="module")
def two_studies(tmp_path_factory):
    """The tiny study (cells: skill 0.5 and 1.0) and a copy with one cell, skill 1.0: its cell 0 plays the same
    seeds as the tiny study's cell 0 (the same master seed and cell index), with the other skill."""
    folder = tmp_path_factory.mktemp("compare")
    run(tiny_study(folder, games=3), folder / "tiny")
    run(tiny_study(folder, games=3, sweep='"seats.skill" = [1.0]', name="steady"), folder / "steady")
    return folder / "tiny", folder / "steady"


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "somaliland.cli.main", "study", "compare", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def test_the_command_pairs_two_studies_on_their_shared_seeds(two_studies):
    tiny, steady = two_studies
    proc = _cli(steady, tiny)
    assert proc.returncode == 0, proc.stderr
    assert "3 games paired by their seeds" in proc.stdout and "| seat 0: africa | win rate per seat % |" in proc.stdout
    data = json.loads(_cli(steady, tiny, "--json").stdout)  # strict JSON: an undefined figure is null
    assert data["games"] == 3 and data["groups"][0]["seats"] == [0]
    same = json.loads(_cli(tiny, tiny, "--json").stdout)  # a cell against itself: every difference 0
    assert all(m[2][0] == 0 for g in same["groups"] for m in g["measures"].values())


def test_cells_without_shared_seeds_or_missing_say_so(two_studies):
    tiny, _ = two_studies
    proc = _cli(tiny, tiny, "--cell-b", "1")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "found 'none shared'; games pair when the two studies have the same master seed" in proc.stderr
    proc = _cli(tiny, tiny, "--cell-a", "5")
    assert proc.returncode == 2 and "--cell-a: expected a cell of the results (0, 1), found 5" in proc.stderr
    proc = _cli(tiny, tiny.parent / "nowhere")
    assert proc.returncode == 2 and "nowhere" in proc.stderr and "Traceback" not in proc.stderr


def test_a_reader_that_stops_early_gets_no_traceback(two_studies):
    """`somaliland study compare A B | head -1`: the command stops quietly when its reader has gone."""
    tiny, steady = two_studies
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        proc = subprocess.run([sys.executable, "-m", "somaliland.cli.main", "study", "compare", str(steady), str(tiny)],
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)
    assert proc.returncode == 141 and "Traceback" not in proc.stderr, proc.stderr
