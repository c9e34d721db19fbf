"""Two sets of games measured side by side (somaliland/study/agreement.py): what a change of the physics is validated with."""

from pathlib import Path

import pytest

from somaliland.study.agreement import MEASURES, cell_games, compare
from somaliland.study.errors import StudyError

RESULTS = Path(__file__).resolve().parents[1] / "experiments" / "results" / "game-as-designed"


def test_the_same_games_agree_with_themselves_in_every_measure():
    games = cell_games(RESULTS, 0)
    rows = compare(games, games)
    assert len(rows) == len(MEASURES)
    assert all(r.difference == 0 for r in rows)
    assert all(r.agrees in (True, None) for r in rows) and sum(r.agrees is True for r in rows) >= 10


def test_games_that_differ_are_told_apart():
    all_ev, mixed = cell_games(RESULTS, 0), cell_games(RESULTS, 1)
    rows = {r.label: r for r in compare(all_ev, mixed)}
    assert rows["contracts fulfilled"].a.games == 1000 and rows["contracts fulfilled"].b.games == 1000
    # a cautious seat (always Africa, never seized) and a bold one change the pirates' share of the points
    assert rows["ransoms as a share of points"].agrees is False or rows["mean final points per player"].agrees is False


def test_a_cell_without_games_is_a_located_error():
    with pytest.raises(StudyError, match="cell 7"):
        cell_games(RESULTS, 7)
