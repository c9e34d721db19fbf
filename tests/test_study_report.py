"""Reports: Markdown with conclusions first and PNG figures that say how many games they rest on; statistics."""

import math

import pandas as pd
import pytest

from somaliland.cli.main import main
from somaliland.study import load_study
from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study
from somaliland.study.stats import balance, fair_balance, wilson
from test_study_support import tiny_study


def test_wilson_matches_a_published_value():
    # Newcombe (1998), Stat. Med. 17:857, Table I: 81 of 263 -> 0.2553 to 0.3662 (Wilson, no correction)
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    assert wilson(0, 10)[0] == 0.0 and all(math.isnan(v) for v in wilson(0, 0))


def test_balance_measures_on_a_hand_built_cell():
    # 4 two-player games: P1 (order 0) wins 3, one shared win; 3 rounds so LeadChange is defined
    players = pd.DataFrame({"order": [0, 1] * 4, "win_share": [1, 0, 1, 0, 1, 0, 0.5, 0.5]})
    games = pd.DataFrame({"players": [2] * 4, "lead_change": [0.0, 0.5, 1.0, 0.5], "throws": [10, 20, 30, 40],
                          "spread": [5.0, 5.0, 5.0, 5.0], "n_winners": [1, 1, 1, 2]})
    b = balance(players, games)
    assert b.win_rates == (0.875, 0.125) and b.balance == pytest.approx(0.25)
    assert b.advantage_p1 == 0.875 and b.lead_change == 0.5 and b.duration == 25 and b.shared == 0.25
    assert b.duration_sd == pytest.approx(12.909944, rel=1e-6)


def test_fair_balance_approaches_one_with_more_games():
    assert fair_balance(20, 2) < fair_balance(2000, 2) < 1.0


def test_report_writes_markdown_and_figures(tmp_path):
    path = tiny_study(tmp_path, games=3, sweep='"seat.0.skill" = [0.2, 1.0]')
    study = load_study(path)
    run_study(study, path.read_text(), tmp_path / "out", local_executors(2), 2, progress=False)
    output = tmp_path / "rep" / "report.md"
    assert main(["study", "report", str(tmp_path / "out"), "-o", str(output)]) == 0
    text = output.read_text()
    assert text.startswith("# Study tiny: report") and text.index("## Conclusions") < text.index("## Figures")
    assert "Rests on 6 games in 2 cells" in text and text.index("## Answer") < text.index("## Conclusions")
    assert "**2 players: dexterity" in text and "**Who played**" in text
    pngs = sorted(p.name for p in (tmp_path / "rep" / "figures").glob("*.png"))
    assert {"win_rate_by_order.png", "skill_seat0.png", "game_length.png", "routes_by_value.png"} <= set(pngs)
    for name in pngs:
        assert f"](figures/{name})" in text
        assert (tmp_path / "rep" / "figures" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert text.count("*Rests on 6 games.*") == len(pngs)
    assert "| seat0_skill=0.2 | 3 |" in text


def test_report_labels_a_partial_run(tmp_path):
    path = tiny_study(tmp_path, games=4, sweep="")
    study = load_study(path)
    from dataclasses import replace

    run_study(replace(study, games_per_cell=2), path.read_text(), tmp_path / "out", local_executors(1), 1,
              progress=False)
    assert main(["study", "report", str(tmp_path / "out")]) == 0
    assert "> **Partial run**: 2 of the 4 games this study plans" in (tmp_path / "out" / "report.md").read_text()


def test_report_of_a_folder_that_is_not_a_study_is_a_one_line_error(tmp_path, capsys):
    assert main(["study", "report", str(tmp_path)]) == 2
    assert "expected a study results folder" in capsys.readouterr().err


def test_report_warns_when_games_come_from_different_code_versions(tmp_path):
    path = tiny_study(tmp_path, games=2, sweep="")
    run_study(load_study(path), path.read_text(), tmp_path / "out", local_executors(1), 1, progress=False)
    (part,) = (tmp_path / "out" / "games").glob("*.parquet")
    games = pd.read_parquet(part)
    games.loc[0, "code"] = "0123456789ab"  # as if the source changed between two runs of the study
    games.to_parquet(part, index=False)
    assert main(["study", "report", str(tmp_path / "out")]) == 0
    report = (tmp_path / "out" / "report.md").read_text()
    assert "**Mixed code versions**: these games were played by 2 versions" in report
    assert "`--cell 0 --game 0` (0123456789ab)" in report  # the game to replay to check the older version


def test_a_report_names_the_code_version_that_played_its_games_and_the_manifest_records_it(tmp_path):
    import json

    from somaliland.study.worker import code_version

    path = tiny_study(tmp_path, games=2, sweep="")
    run_study(load_study(path), path.read_text(), tmp_path / "out", local_executors(1), 1, progress=False)
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["code"] == {code_version(): 2}
    assert main(["study", "report", str(tmp_path / "out")]) == 0
    report = (tmp_path / "out" / "report.md").read_text()
    assert f"Played by code version `{code_version()}` (2 games)" in report
    assert "issue" not in report.lower()  # no work history in what a designer reads


def test_report_warns_when_games_come_from_different_kinds_of_machine(tmp_path):
    path = tiny_study(tmp_path, games=2, sweep="")
    run_study(load_study(path), path.read_text(), tmp_path / "out", local_executors(1), 1, progress=False)
    (part,) = (tmp_path / "out" / "games").glob("*.parquet")
    assert main(["study", "report", str(tmp_path / "out")]) == 0
    assert "**Mixed machines**" not in (tmp_path / "out" / "report.md").read_text()
    games = pd.read_parquet(part)
    games.loc[0, "machine"] = "AMD EPYC (x86_64 AVX512_ICL, libm fma, glibc 2.36; python 3.11.7)"  # resumed elsewhere
    games.to_parquet(part, index=False)
    assert main(["study", "report", str(tmp_path / "out")]) == 0
    report = (tmp_path / "out" / "report.md").read_text()
    assert "**Mixed machines**: these games were played on 2 kinds of machine (1 game on" in report
    assert "1 game on AMD EPYC (x86_64 AVX512_ICL" in report


def test_holm_adjusts_step_down_and_keeps_the_input_order():
    from somaliland.study.stats import holm

    # Holm (1979): sorted p 0.01, 0.02, 0.04 over 3 tests -> 0.03, 0.04, 0.04 (monotone)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0]) and holm([]) == []


def _seat_rows(cell, games, seat0_wins):
    rows = []
    for g in range(games):
        for seat in (0, 1):
            rows.append({"cell": cell, "cell_label": f"cell {cell}", "game": g, "seat": seat, "strategy": "ev",
                         "skill": 0.75, "win_share": float((g < seat0_wins) == (seat == 0))})
    return rows


def test_a_seat_that_wins_too_often_between_identical_players_is_flagged_after_holm_correction():
    from somaliland.study.report import _seat_conclusions

    # cell 0: seat 0 wins 80 of 100 (a bug); cell 1: 60 of 100 (p = 0.046 alone, not after correction)
    players = pd.DataFrame(_seat_rows(0, 100, 80) + _seat_rows(1, 100, 60) + _seat_rows(2, 100, 50))
    bug, chance, even = _seat_conclusions(players)
    assert bug.startswith("**The seat decides, though the players are identical**, in cell 0: seat 0 80.0%")
    assert chance.startswith("Seats differ in cell 1") and "not after Holm's correction over the 3 cells" in chance
    assert even == "Seats (colours) win alike in cell 2: seat 0 50.0% / seat 1 50.0% (χ² test of equal rates, p = 1)."


def test_win_rate_by_seat_draws_each_seat_in_its_players_colour_R1(tmp_path, monkeypatch):
    """Seat 0 is red, 1 green, 2 yellow, 3 blue (R1): the figure's bars and legend say so."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from somaliland.replay.textures import PLAYER_RGB
    from somaliland.study import figures

    rows = [{"cell": 0, "cell_label": "players=4", "players": 4, "game": g, "seat": s, "win_share": float(s == g % 4)}
            for g in range(40) for s in range(4)]
    drawn = {}
    monkeypatch.setattr(figures, "save_figure", lambda fig, path: drawn.setdefault("fig", fig))
    assert figures.win_rate_by(pd.DataFrame(rows), "seat", "seat", tmp_path / "seat.png") == 40
    ax = drawn["fig"].axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [label for label in labels if label.startswith("seat")] == ["seat 0 (red)", "seat 1 (green)",
                                                                        "seat 2 (yellow)", "seat 3 (blue)"]
    assert "fair share (1 / players)" in labels
    from matplotlib.container import BarContainer

    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    faces = [tuple(round(255 * c) for c in bar.patches[0].get_facecolor()[:3]) for bar in bars]
    assert faces == [PLAYER_RGB[c] for c in ("red", "green", "yellow", "blue")]
    # told apart without colour too (red and green look alike to many): each seat has its own hatching
    assert len({bar.patches[0].get_hatch() for bar in bars}) == 4
    assert ax.get_ylim()[0] == 0 and ax.get_legend().get_bbox_to_anchor().x0 > ax.bbox.x1  # rates from 0, legend beside
    plt.close(drawn["fig"])


def test_code_version_is_the_source_read_at_import_not_at_each_game(monkeypatch):
    """A study's games are labelled with the code their process loaded: `code_version` reads no file when asked,
    in any thread (a file edited while a study runs would otherwise label games the old code played)."""
    import sys
    import threading
    from pathlib import Path

    from somaliland.study import worker

    assert worker.code_version() == worker._source_digest()  # nothing edited since import
    assert {"somaliland.engine.loop", "somaliland.players.search"} <= set(sys.modules)  # read after what games run
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail(f"code_version read {self}"))
    seen = []
    thread = threading.Thread(target=lambda: seen.append(worker.code_version()))  # a new thread: no cache of its own
    thread.start()
    thread.join()
    assert seen == [worker._CODE]
