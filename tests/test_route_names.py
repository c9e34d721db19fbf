"""Routes are named by the map (issue 15, item 4): a board whose routes are `ocean` (half value, R8) and
`strait` (full value) is played, told, replayed, tabled, reported and drawn with its own names, and
nothing shown says the default board's route names or places."""

import json
import re

import matplotlib
import pytest

from somaliland.cli.main import main
from somaliland.engine.account import account
from somaliland.engine.record import read_record
from somaliland.map import load
from somaliland.map.render import FULL_ROUTE_COLOURS, HALF_ROUTE_COLOURS, route_colours
from somaliland.replay.captions import happened, where
from somaliland.replay.story import load_story
from somaliland.study import load_study, read_table
from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study
from test_study_support import ROOT, tiny_study

STRAITS = ROOT / "tests" / "data" / "straits.toml"
DEFAULT_NAMES = re.compile(r"somalia|africa|aden", re.IGNORECASE)


def assert_no_default_names(text: str) -> None:
    found = DEFAULT_NAMES.search(text)
    assert found is None, f"{found.group(0)!r} in: ...{text[max(0, found.start() - 80):found.end() + 80]}..."


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """One round of cautious against bold on the straits board; returns (record path, printed account)."""
    folder = tmp_path_factory.mktemp("straits")
    rules = folder / "rules.toml"
    rules.write_text("players = 2\nrounds = 1\n")
    record = folder / "game.jsonl"
    return record, main(["play", "--map", str(STRAITS), "--rules", str(rules), "--strategies", "cautious,bold",
                         "--seed", "3", "--record", str(record)])


def test_the_account_names_the_maps_routes_and_their_value(game, capsys):
    record, status = game
    assert status == 0
    text = "\n".join(account(read_record(record)))
    assert "Routes: open ocean (half value), the Strait (full value)" in text
    # cautious wants the half-value route and bold the full-value one, whatever the map calls them
    assert re.search(r"red plans \d+[NS] via open ocean", text) and re.search(r"green plans \d+[NS] via the Strait", text)
    assert_no_default_names(text)


def test_the_record_header_lists_the_routes_as_people_call_them(game):
    head = read_record(game[0])[0]
    assert head["map"]["routes"] == [{"name": "ocean", "label": "open ocean", "full_value": False},
                                     {"name": "strait", "label": "the Strait", "full_value": True}]


def test_replay_captions_and_the_top_down_legend_use_the_maps_names(game, tmp_path, monkeypatch):
    story = load_story(game[0])
    lines = [line for i, step in enumerate(story.steps) for line in where(story, i) + happened(story, step, True)]
    text = "\n".join(lines)
    assert "open ocean (half value), " in text and "the Strait (full value), " in text
    assert_no_default_names(text)
    import matplotlib.axes

    labels = []
    legend = matplotlib.axes.Axes.legend
    monkeypatch.setattr(matplotlib.axes.Axes, "legend", lambda ax, *a, **k: labels.extend(
        h.get_label() for h in ax.get_legend_handles_labels()[0]) or legend(ax, *a, **k))
    from somaliland.replay.topdown import draw_round

    draw_round(story, 1, tmp_path / "round.png")
    assert "route: open ocean (half value)" in labels and "route: the Strait (full value)" in labels


def test_study_tables_and_report_name_the_maps_routes(tmp_path):
    path = tiny_study(tmp_path, games=2, sweep="", strategy='["ocean", "strait"]', name="straits")
    path.write_text(path.read_text().replace(str(ROOT / "maps" / "tiny.toml"), str(STRAITS)))
    run_study(load_study(path), path.read_text(), tmp_path / "out", local_executors(1), 1, progress=False)
    contracts, games = read_table(tmp_path / "out", "contracts"), read_table(tmp_path / "out", "games")
    assert set(contracts.route) == {"ocean", "strait"}
    assert (contracts.full_route == (contracts.route == "strait")).all()
    assert {json.dumps(json.loads(r)) for r in games.routes} == {json.dumps(
        [{"name": "ocean", "label": "open ocean", "full_value": False},
         {"name": "strait", "label": "the Strait", "full_value": True}])}
    output = tmp_path / "report" / "report.md"
    assert main(["study", "report", str(tmp_path / "out"), "-o", str(output)]) == 0
    text = output.read_text()
    assert "### Routes: open ocean vs the Strait, expected points by contract value" in text
    assert "of them, 0.0% via the Strait (full value)" in text
    assert_no_default_names(text)


def test_map_show_colours_routes_by_value_and_names_each_in_the_legend(tmp_path, monkeypatch):
    monkeypatch.setitem(matplotlib.rcParams, "svg.fonttype", "none")  # text stays text in the SVG
    out = tmp_path / "board.svg"
    assert main(["map", "show", str(STRAITS), "-o", str(out)]) == 0
    svg = out.read_text()
    assert "open ocean: half value, 34 cm" in svg and "the Strait: full value, 34 cm" in svg
    assert_no_default_names(svg)
    assert route_colours(load(STRAITS)) == {"ocean": HALF_ROUTE_COLOURS[0], "strait": FULL_ROUTE_COLOURS[0]}


def test_map_check_and_measure_name_the_routes(capsys):
    assert main(["map", "check", str(STRAITS)]) == 0
    assert main(["map", "measure", str(STRAITS), "--throws", "6", "--voyages", "2", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "route ocean (open ocean): 34.0 cm, half value" in text and "route strait (the Strait): 34.0 cm, full" in text
    assert re.search(r"^  open ocean \(half\) +north ", text, re.MULTILINE)
    assert re.search(r"^  the Strait \(full\) +south ", text, re.MULTILINE)
    assert_no_default_names(text)
