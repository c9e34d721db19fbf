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


def _agreement_script():
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "experiments" / "checks" / "agreement.py"
    spec = importlib.util.spec_from_file_location("agreement_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_agreement_check_passes_the_same_games_and_fails_games_that_differ(capsys):
    script = _agreement_script()
    assert script.main([str(RESULTS), str(RESULTS), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "24 of 24 measures agree (0 differ" in out and "| contracts fulfilled | 72.4% [71.7%, 73.1%]" in out
    rest = RESULTS.parent / "game-as-designed-rest"  # the same seeds judged at rest: another game
    assert script.main([str(RESULTS), str(rest)]) == 1
    assert "DIFFERS" in capsys.readouterr().out


def test_the_agreement_check_names_a_folder_it_cannot_read(tmp_path, capsys):
    assert _agreement_script().main([str(tmp_path), str(RESULTS)]) == 2
    assert f"agreement: {tmp_path}: manifest.json" in capsys.readouterr().err


def test_the_agreement_check_refuses_studies_of_other_cells(capsys):
    economics = RESULTS.parent / "economics"  # cell 0 there is 2 players of ev, not 4
    assert _agreement_script().main([str(RESULTS), str(economics)]) == 2
    assert "cell 0: expected the cell of" in capsys.readouterr().err


def test_the_agreement_check_counts_games_that_end_alike_on_shared_seeds(capsys):
    assert _agreement_script().main([str(RESULTS), str(RESULTS)]) == 0
    assert "1,000 seeds in both, 1,000 of their games end alike" in capsys.readouterr().out
