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
    assert "route africa (round Africa): 100.9 cm, half value" in out  # the long way round (D18)


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
    assert ("maps/nowhere.toml: (top level): expected a map file, or a shipped map's name (horn-of-africa, tiny), "
            "found No such file or directory") in capsys.readouterr().out


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


def test_measure_shows_each_leg_s_pirate_exposure_and_a_moved_port_changes_it_alone(tmp_path):
    """Moving the Cove 1.5 cm towards the east passage and 4 cm north: the survey never meets a port, so both maps
    are sailed by the same voyages; the closest pass (exact geometry: from 5.0 cm at 11 cm along the leg to 3.5
    cm at 15 cm northbound, 7 cm southbound) and the seizures a voyage expects change, and the comparison says
    that difference is the map's alone. The safe west passage expects none (D15). Lengths are explained beside
    `map check`'s: a leg sails 27 cm of its route's 34 cm centre line."""
    moved = tmp_path / "port-moved.toml"
    moved.write_text(TINY.replace("at = [20.0, 20.0]", "at = [21.5, 24.0]"))
    args = ("map", "measure", "tiny", str(moved), "--throws", "4", "--voyages", "4")
    out = run(*args, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["voyages_sailed"] == [4]  # nothing to tell apart by sailing more: the same voyages everywhere
    first, second = data["maps"]
    assert first["legs"] == second["legs"]
    assert all(leg["length_cm"] == 27.0 and leg["centre_line_cm"] == 34.0 for leg in first["legs"])
    passes = [[(p["distance_cm"], p["along_cm"]) for leg in m["pirates"] for p in leg["closest_pass"]]
              for m in (first, second)]
    assert passes == [[(5.0, 11.0), (5.0, 11.0), (15.0, 11.0), (15.0, 11.0)],
                      [(3.5, 15.0), (3.5, 7.0), (16.5, 15.0), (16.5, 7.0)]]
    for m in (first, second):
        east, west = m["pirates"][:2], m["pirates"][2:]
        assert all(leg["targeted"] and 0 < leg["seizures_per_voyage"] <= leg["turn_ends_at_sea_per_voyage"]
                   for leg in east)
        assert all(not leg["targeted"] and leg["seizures_per_voyage"] == 0 for leg in west)
    verdicts = {(c["route"], c["direction"]): {f["measure"]: f["verdict"] for f in c["figures"]}
                for c in data["comparison"]}
    assert all(v["alone"] == v["aground"] == v["off board"] == v["convoy"] == "same" for v in verdicts.values())
    assert {verdicts["africa", d]["seizures"] for d in ("north", "south")} == {"same"}
    changed = [v["seizures"] for k, v in verdicts.items() if k[0] == "somalia"]
    assert "same voyages" in changed and set(changed) <= {"same", "same voyages"}
    text = run(*args).stdout
    assert "the map's alone (the same voyages in both)" in text and "Cove 3.5 at 15" in text
    assert "`map check` gives each route's whole centre line, end to end: east passage 34.0 cm" in text


def test_measure_adds_voyages_while_two_maps_figures_overlap_up_to_the_cap(tmp_path):
    """The east passage's northbound start moved 5.5 cm back: that leg's voyages differ (its other legs' do not).
    Sailed at 3 voyages a leg with no room for more, some differing figure's intervals overlap there; allowed 6,
    the command sails 6 (twice as many, within the cap), and what still overlaps then says how many voyages would
    tell it, more than were sailed."""
    far = tmp_path / "far-start.toml"
    far.write_text(TINY.replace("start = [25.0, 9.0]", "start = [25.0, 3.5]"))

    def measure(cap):
        out = run("map", "measure", "tiny", str(far), "--throws", "4", "--voyages", "3", "--max-voyages", str(cap),
                  "--json")
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout), out.stderr

    (short, _), (data, said) = measure(3), measure(6)
    assert short["voyages_sailed"] == [3]
    assert any(f["verdict"] == "overlap" for c in short["comparison"] for f in c["figures"])
    assert data["voyages_sailed"] == [3, 6] and data["max_voyages"] == 6
    assert all(m["voyages"] == 6 for m in data["maps"])
    assert "not told apart with 3 voyages a leg; sailing 6" in said
    same = {(c["route"], c["direction"]): c["same_voyages"] for c in data["comparison"]}
    assert same == {("somalia", "north"): False, ("somalia", "south"): True, ("africa", "north"): True,
                    ("africa", "south"): True}
    for c in data["comparison"]:
        for f in c["figures"]:
            assert (f["needed"] is None) == (f["verdict"] != "overlap")
            assert f["needed_of"] != "voyages" or f["needed"] > 6


def test_measure_refuses_a_cap_below_the_first_count():
    out = run("map", "measure", "tiny", "tiny", "--voyages", "8", "--max-voyages", "4")
    assert out.returncode == 2 and "--max-voyages 4 is fewer than --voyages 8" in out.stderr


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
