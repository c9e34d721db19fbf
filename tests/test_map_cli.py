"""`somaliland map` as a designer meets it: exit codes, every problem printed, files written."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from somaliland.cli.main import main

TINY = Path("maps/tiny.toml").read_text(encoding="utf-8")


def run(*args):
    return subprocess.run([sys.executable, "-m", "somaliland.cli.main", *args], capture_output=True, text=True)


def test_check_prints_ok_for_every_shipped_map(capsys):
    assert main(["map", "check", "maps/horn-of-africa.toml", "maps/tiny.toml"]) == 0
    out = capsys.readouterr().out
    assert "maps/horn-of-africa.toml: OK" in out and "maps/tiny.toml: OK" in out
    assert "route somalia (Gulf of Aden): 99.8 cm, full value" in out
    assert "route africa (round Africa): 102.9 cm, half value" in out  # the long way round (D18)


def test_check_prints_every_problem_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace("at = [20.0, 20.0]", "at = [26.0, 20.0]").replace("start = [25.0, 9.0]",
                                                                                 "start = [15.0, 12.0]"))
    assert main(["map", "check", str(bad), "maps/tiny.toml"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{bad}:") and "routes.somalia.north.start: expected a start at sea" in out[0]
    assert "pirate_port[0].at: expected a port on or within 2 cm of a coast" in out[1]
    assert out[2] == f"{bad}: 2 problems" and "maps/tiny.toml: OK" in out


def test_a_command_given_a_bad_map_prints_one_line_and_exits_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace("width = 30.0", "width = -3"))
    out = run("map", "show", str(bad), "-o", str(tmp_path / "x.png"))
    assert out.returncode == 2
    assert out.stderr.strip() == (f"somaliland map: error: {bad}:13: board.width: expected a number >= 10, "
                                  "found -3")
    assert "Traceback" not in out.stderr


def test_check_of_a_missing_file_exits_2(capsys):
    assert main(["map", "check", "maps/nowhere.toml"]) == 2
    assert "maps/nowhere.toml: (top level): expected a readable map file" in capsys.readouterr().out


def test_show_writes_a_png(tmp_path):
    out = tmp_path / "board.png"
    assert main(["map", "show", "maps/tiny.toml", "-o", str(out), "--dpi", "40"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_refuses_an_unknown_image_type(tmp_path, capsys):
    assert main(["map", "show", "maps/tiny.toml", "-o", str(tmp_path / "board.gif")]) == 2
    assert "expected a .png, .svg or .pdf" in capsys.readouterr().err


def test_mesh_is_the_physics_board_mesh(tmp_path):
    from physics.board import board_mesh
    from somaliland.map import load

    out = tmp_path / "board.obj"
    assert main(["map", "mesh", "maps/tiny.toml", "-o", str(out), "--units", "cm"]) == 0
    verts, tris = board_mesh(load("maps/tiny.toml").board())
    lines = out.read_text().splitlines()
    v = [tuple(map(float, ln.split()[1:])) for ln in lines if ln.startswith("v ")]
    assert len(v) == len(verts) and sum(ln.startswith("f ") for ln in lines) == len(tris)
    assert max(z for _, _, z in v) == pytest.approx(0.2)  # the 2 mm rock, in cm
    assert max(x for x, _, _ in v) == pytest.approx(30.0)


def test_import_svg_writes_a_map_that_checks_clean(tmp_path, capsys):
    out = tmp_path / "drawn.toml"
    assert main(["map", "import-svg", "maps/tiny.svg", "-o", str(out), "--name", "Drawn"]) == 0
    assert main(["map", "check", str(out)]) == 0
    text = out.read_text()
    assert 'name = "Drawn"' in text and text.startswith("#:schema ")
    assert main(["map", "import-svg", "maps/tiny.svg", "-o", str(out)]) == 2  # no silent overwrite
    assert "--force" in capsys.readouterr().err


def test_measure_reports_the_players_survey_as_json():
    args = ("map", "measure", "maps/tiny.toml", "--throws", "12", "--voyages", "2", "--seed", "5", "--json")
    out = run(*args)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["seed"] == 5 and data["throws"] == 12 and data["median_roll_cm"] > 5
    assert data["strategy"] == "ev" and data["voyages"] == 2 and data["turns"] == 6  # R15, D10
    assert [(leg["route"], leg["direction"], leg["full_value"]) for leg in data["legs"]] == [
        ("somalia", "north", True), ("somalia", "south", True), ("africa", "north", False),
        ("africa", "south", False)]
    for leg in data["legs"]:
        assert len(leg["arrivals_by_turn"]) == 6 and leg["within_limit"] == sum(leg["arrivals_by_turn"]) / 2
        lo, hi = leg["within_limit_ci95"]
        assert lo <= leg["within_limit"] <= hi
        assert 0 <= leg["aground_per_throw"] <= 1 and 0 <= leg["off_board_per_throw"] <= 1
        assert 0 <= leg["convoy_lost_turns_per_turn"] <= 2 and 0 <= leg["slowing_per_companion"] <= 1
        assert leg["length_cm"] == 27.0  # the tiny board's legs, start to destination
    again = json.loads(run(*args).stdout)
    assert again.pop("survey_cpu_s") > 0 and data.pop("survey_cpu_s") > 0
    assert again == data  # the survey is seeded by the map, the firm throws by --seed: same figures


def test_measure_names_an_unknown_strategy():
    out = run("map", "measure", "maps/tiny.toml", "--strategy", "reckless", "--voyages", "2")
    assert out.returncode == 2 and "known strategies: bold, cautious, ev, search" in out.stderr


def test_survey_sails_the_players_surveys_once_and_later_runs_read_them(tmp_path, monkeypatch, capsys):
    """`map survey` (what `make setup` runs for the default map): each strategy's survey sailed and kept, then read
    back by the next process that asks; a strategy or skill that does not exist is one line and exit 2."""
    from somaliland.players import survey

    monkeypatch.setenv("SOMALILAND_CACHE", str(tmp_path))
    monkeypatch.setattr(survey, "_CACHE", {})
    assert main(["map", "survey", "maps/tiny.toml", "--strategies", "ev,bold"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[1] for line in out[:2]] == ["ev at skill 0.75", "bold at skill 0.75"]
    assert all("sailed in" in line and "kept already" not in line for line in out[:2])
    assert out[2] == f"Surveys kept in {tmp_path / 'surveys'}" and len(list((tmp_path / "surveys").glob("*.json"))) == 2
    monkeypatch.setattr(survey, "_CACHE", {})  # a later process
    assert main(["map", "survey", "maps/tiny.toml", "--strategies", "ev,bold"]) == 0
    assert all("kept already" in line for line in capsys.readouterr().out.splitlines()[:2])
    assert main(["map", "survey", "maps/tiny.toml", "--strategies", "ev,reckless"]) == 2
    assert "unknown strategy 'reckless'" in capsys.readouterr().err
    assert main(["map", "survey", "--skill", "1.5"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
