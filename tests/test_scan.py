"""`somaliland scan`: D19 and D20 re-scored from a record's own lines, on hand-made records and real games."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

from physics import DiePath
from somaliland.cli.main import main
from somaliland.engine.rolled import land_roll, lowest_corners, rolling_mask
from somaliland.engine.scan import scan_record
from somaliland.map import load, loads
from somaliland.map.schema import MAPS_DIR

TINY = MAPS_DIR / "tiny.toml"
EDGE = 0.016
FLAT = (0.0, 0.0, 0.0, 1.0)
REST_Z = EDGE / 2  # a flat die's centre on the board
FLIGHT_Z = 0.03  # its lowest corner 22 mm above the board: in flight


def die_path(name: str, xs, y: float, zs, orientation=FLAT) -> DiePath:
    """Return a path at 60 Hz through (x, y, z) for each x and z given."""
    xs, zs = np.broadcast_arrays(np.asarray(xs, dtype=float), np.asarray(zs, dtype=float))
    return DiePath(name, tuple(i / 60 for i in range(len(xs))), tuple((x, y, z) for x, z in zip(xs, zs)),
                   tuple(orientation for _ in xs))


# -- the measure: rolling samples and land under them (engine/rolled.py) -----------------------------------

def test_lowest_corner_of_a_flat_die_and_of_one_on_its_edge():
    flat = lowest_corners(np.array([[0.1, 0.2, REST_Z]]), np.array([FLAT]), EDGE)
    assert flat[0, 2] == pytest.approx(0.0, abs=1e-12)
    assert abs(flat[0, 0] - 0.1) == pytest.approx(EDGE / 2) and abs(flat[0, 1] - 0.2) == pytest.approx(EDGE / 2)
    half = math.sin(math.pi / 8)  # 45 degrees about x: the die stands on an edge
    edge_on = lowest_corners(np.array([[0.1, 0.2, 0.05]]), np.array([(half, 0.0, 0.0, math.cos(math.pi / 8))]), EDGE)
    assert edge_on[0, 2] == pytest.approx(0.05 - EDGE / 2 * math.sqrt(2), abs=1e-12)


def test_a_die_rolls_across_the_isle_and_its_land_is_measured():
    # the tiny board's Isle spans x 10-20 cm; along y = 12 cm there is no lagoon
    roll = land_roll(die_path("red-12", np.linspace(0.05, 0.25, 41), 0.12, REST_Z), load(TINY), EDGE)
    assert roll.over_land == pytest.approx(0.10, abs=1e-9)
    assert roll.entered == pytest.approx((0.10, 0.12)) and roll.lands == ("Isle",)
    assert roll.time == pytest.approx(10 / 60) and roll.rolling == roll.samples == 41


def test_a_die_in_flight_over_the_isle_rolls_over_no_land():
    xs = np.linspace(0.05, 0.25, 41)
    zs = np.where((xs > 0.095) & (xs < 0.205), FLIGHT_Z, REST_Z)
    roll = land_roll(die_path("red-12", xs, 0.12, zs), load(TINY), EDGE)
    assert roll.over_land == 0.0 and roll.entered is None
    assert roll.rolling == 41 - 21  # the 21 samples from x = 10 cm to 20 cm fly


def test_the_lagoon_is_water():
    # along y = 20 cm the Isle is land from 10 to 13 cm and from 17 to 20 cm
    roll = land_roll(die_path("red-12", np.linspace(0.05, 0.25, 41), 0.20, REST_Z), load(TINY), EDGE)
    assert roll.over_land == pytest.approx(0.06, abs=1e-9)


def test_land_a_die_lay_on_counts_only_once_it_has_left_it():
    world = load(TINY)
    leaving = land_roll(die_path("red-12", np.linspace(0.15, 0.25, 21), 0.12, REST_Z), world, EDGE)
    assert leaving.over_land == 0.0  # it never crossed a coast onto land
    back = np.concatenate([np.linspace(0.15, 0.25, 21), np.linspace(0.245, 0.17, 16)])  # out to sea and back on
    returning = land_roll(die_path("red-12", back, 0.12, REST_Z), world, EDGE)
    assert returning.over_land == pytest.approx(0.03, abs=1e-9) and returning.entered == pytest.approx((0.20, 0.12))


def test_raised_land_is_a_surface_to_roll_on():
    world = loads(TINY.read_text().replace("relief = 2.0", "relief = 10.0"), "tiny-high.toml")
    on_rock = np.array([[0.15, 0.365, 0.010 + REST_Z], [0.25, 0.365, 0.010 + REST_Z]])  # the Rock, then the sea
    assert rolling_mask(on_rock, np.array([FLAT, FLAT]), EDGE, world).tolist() == [True, False]


# -- hand-made records ------------------------------------------------------------------------------------

def header(rules: dict | None = None) -> dict:
    """Return a game header on the tiny map under the default D19 and D20 readings (`rules` overrides)."""
    return {"kind": "game", "round": 1, "turn": 0, "schema": 1, "version": "0.1.0", "seed": 1,
            "map": {"file": str(TINY), "name": "Tiny", "sha256": hashlib.sha256(TINY.read_bytes()).hexdigest()},
            "rules": {"players": 2, "die_size": EDGE, "grounding_on": "path", "after_release": "at_sea",
                      "off_board_arrival": "later_move", **(rules or {})},
            "physics": {}, "seats": [{"seat": 0, "colour": "red"}, {"seat": 1, "colour": "green"}],
            "first_player": 0, "record_paths": True}


def rest(name: str, x: float, y: float) -> dict:
    return {"name": name, "position": [x, y, REST_Z], "orientation": list(FLAT), "face_index": 4, "face_value": 2,
            "tilt_deg": 0.0, "cocked": False}


def throw(ship: str, paths: list[DiePath], turn: int = 1) -> dict:
    """Return a throw line: the ship thrown first, each die resting at its path's last sample."""
    aim = {"die": ship, "origin": list(paths[0].positions[0][:2]), "heading": 0.0, "speed": 1.0, "spin": [0, 0, 0],
           "release_height": 0.01, "orientation": None, "style": "roll"}
    rests = [rest(p.name, *p.positions[-1][:2]) for p in paths]
    return {"kind": "throw", "round": 1, "turn": turn, "seat": 0 if ship.startswith("red") else 1, "ship": ship,
            "intended": aim, "actual": aim,
            "result": {"thrown": rests[0], "moved": rests, "contacts": [], "tipovers": [], "off_board": [],
                       "settle_time": 1.0, "steps": 240, "cap_hit": False,
                       "paths": [{"name": p.name, "times": list(p.times), "positions": [list(q) for q in p.positions],
                                  "orientations": [list(q) for q in p.orientations]} for p in paths]}}


def line(kind: str, turn: int = 1, **fields) -> dict:
    return {"kind": kind, "round": 1, "turn": turn, **fields}


FINAL = {"kind": "final", "round": 2, "turn": 0, "winners": [0], "table": []}
ACROSS = die_path("red-12", np.linspace(0.05, 0.25, 41), 0.12, REST_Z)  # 10 cm over the Isle, on the board
PLANS = [line("plan", 0, seat=0, plans=[{"card": "40N", "route": "somalia", "ships": ["red-12"], "ship_routes": []}]),
         line("plan", 0, seat=1, plans=[{"card": "30N", "route": "somalia", "ships": ["green-12"],
                                         "ship_routes": []}])]


def write(tmp_path: Path, lines: list[dict], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def grounded_across() -> list[dict]:
    return [header(), *PLANS, line("turn"), throw("red-12", [ACROSS]),
            line("grounded", ship="red-12", at=[0.09, 0.12], crossed=[0.10, 0.12], time=10 / 60),
            line("lost_turn", ship="red-12", reason="aground"), FINAL]


def test_a_grounding_the_record_tells_is_listed_with_its_land(tmp_path):
    scan = scan_record(write(tmp_path, grounded_across()))
    assert scan.flags == () and scan.d19 == "judged" and scan.paths == 1
    (grounding,) = scan.groundings
    assert grounding.line == 5 and grounding.ship == "red-12" and grounding.over_land == pytest.approx(0.1)
    assert grounding.crossed == (0.10, 0.12)


def test_a_deleted_grounded_line_is_flagged_by_its_throw_line(tmp_path, capsys):
    lines = [x for x in grounded_across() if x["kind"] not in ("grounded", "lost_turn")]
    path = write(tmp_path, lines)
    (flag,) = scan_record(path).flags
    assert (flag.line, flag.ship, flag.ruling) == (5, "red-12", "D19")
    assert flag.over_land == pytest.approx(0.1) and flag.at == pytest.approx((0.10, 0.12))
    assert main(["scan", str(path)]) == 1
    out = capsys.readouterr().out
    assert "line 5: D19: red-12 thrown, rolled 100.0 mm over land (Isle) from (10.0, 12.0) cm" in out  # as play says


def test_the_bar_is_the_records_coast_tolerance_plus_the_sampling_allowance(tmp_path, capsys):
    lines = [x for x in grounded_across() if x["kind"] not in ("grounded", "lost_turn")]
    lines[0] = header({"coast_tolerance": 0.003})
    assert main(["scan", str(write(tmp_path, lines))]) == 1
    out = capsys.readouterr().out
    assert "D19 (the record's coast tolerance 3 mm): " in out
    assert "1 rolled 5 mm or more over land without grounding (the tolerance plus 2 mm for this scan's sampling" in out
    lines[0] = header({"coast_tolerance": 0.1})  # 100 mm: the 100 mm across the Isle is under the bar
    scan = scan_record(write(tmp_path, lines, "wide.jsonl"))
    assert scan.flags == () and scan.bar == pytest.approx(0.102)
    assert main(["scan", str(tmp_path / "wide.jsonl")]) == 0
    assert "0 rolled 102 mm or more" in capsys.readouterr().out


def test_scan_help_says_why_its_bar_is_5_mm(capsys):
    with pytest.raises(SystemExit):
        main(["scan", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "5 mm or more over land while on the board (the rules' 3 mm coast tolerance" in help_text
    assert "plus 2 mm for this scan's sampling of the path" in help_text


def test_a_grounding_and_a_d20_flag_say_their_points_in_centimetres(tmp_path, capsys):
    assert main(["scan", str(write(tmp_path, grounded_across()))]) == 0
    assert "line 5: grounded: red-12 rolled 100.0 mm over land, crossed the coast at (10.0, 12.0) cm" in (
        capsys.readouterr().out)
    assert main(["scan", str(write(tmp_path, [*released_then_pushed((0.25, 0.36)), FINAL], "d20.jsonl"))]) == 1
    assert "to rest in its destination (North-east) at (25.0, 36.0) cm, and no arrived line" in (
        capsys.readouterr().out)


def test_a_pushed_die_that_rolled_over_land_is_judged_too(tmp_path):
    pushed = die_path("green-12", np.linspace(0.08, 0.12, 9), 0.25, REST_Z)  # 2 cm onto the Isle's west coast
    thrower = die_path("red-12", np.linspace(0.02, 0.07, 9), 0.25, REST_Z)
    (flag,) = scan_record(write(tmp_path, [header(), *PLANS, line("turn"), throw("red-12", [thrower, pushed]),
                                           FINAL])).flags
    assert flag.ship == "green-12" and "pushed by red-12" in flag.problem and flag.over_land == pytest.approx(0.02)


def test_a_die_in_flight_over_land_and_a_graze_are_not_flagged(tmp_path):
    xs = np.linspace(0.05, 0.25, 41)
    flying = die_path("red-12", xs, 0.12, np.where((xs > 0.095) & (xs < 0.205), FLIGHT_Z, REST_Z))
    graze = die_path("red-12", np.linspace(0.09, 0.104, 8), 0.12, REST_Z)  # 4 mm over the coast: under the bar
    scan = scan_record(write(tmp_path, [header(), *PLANS, line("turn"), throw("red-12", [flying]),
                                        throw("red-12", [graze]), FINAL]))
    assert scan.flags == () and scan.over_land == 1 and scan.paths == 2


def test_a_ship_that_sank_or_had_arrived_is_excused_not_flagged(tmp_path):
    struck = die_path("green-12", [0.06, 0.06], 0.13, REST_Z)
    tipped = [line("collision", causer="red-12", a="red-12", b="green-12"),
              line("tipped", ship="green-12", value_before=2, value_after=2)]
    sank = scan_record(write(tmp_path, [header(), *PLANS, line("turn"), throw("red-12", [ACROSS, struck]), *tipped,
                                        line("sunk", ship="red-12", tipped=["green-12"]), FINAL]))
    assert sank.flags == () and [(f.line, f.ship) for f in sank.excused] == [(5, "red-12")]
    assert "(sank in this throw) thrown" in sank.excused[0].problem
    other_sank = scan_record(write(tmp_path, [header(), *PLANS, line("turn"), throw("red-12", [ACROSS, struck]),
                                              *tipped, line("sunk", ship="green-12", tipped=["red-12"]), FINAL], "b"))
    assert [f.ship for f in other_sank.flags] == ["red-12"] and other_sank.excused == ()
    pushed = die_path("green-12", np.linspace(0.08, 0.12, 9), 0.25, REST_Z)
    thrower = die_path("red-12", np.linspace(0.02, 0.07, 9), 0.25, REST_Z)
    home = [line("arrived", ship="green-12", route="somalia", direction="north")]
    arrived = scan_record(write(tmp_path, [header(), *PLANS, line("turn"), throw("green-12", [struck]), *home,
                                           throw("red-12", [thrower, pushed]), FINAL], "c"))
    assert arrived.flags == () and [(f.line, f.ship) for f in arrived.excused] == [(7, "green-12")]


def test_records_of_the_old_reading_are_not_judged_for_d19(tmp_path, capsys):
    old = header()
    del old["rules"]["grounding_on"]
    lines = [old, *[x for x in grounded_across()[1:] if x["kind"] != "grounded"]]
    scan = scan_record(write(tmp_path, lines))
    assert scan.flags == () and scan.paths == 0 and "grounding_on = 'rest'" in scan.d19
    assert main(["scan", str(tmp_path / "game.jsonl")]) == 0
    assert "D19: not judged: made under grounding_on = 'rest'" in capsys.readouterr().out


# -- D20 on hand-made records -----------------------------------------------------------------------------

def released_then_pushed(into: tuple[float, float]) -> list[dict]:
    """green-12 is seized, released, then pushed by red-12 to rest at `into` (its destination: North-east)."""
    pushed = die_path("green-12", np.linspace(0.25, into[0], 5), into[1], REST_Z)
    thrower = die_path("red-12", np.linspace(0.25, 0.25, 5), 0.30, REST_Z)
    return [header(), *PLANS, line("turn"), line("seized", ship="green-12", port="Cove", distance=0.05, ransom=2),
            line("turn", 2), line("turn_skipped", 2, ship="green-12", status="held"),
            line("released", 2, ship="green-12", port="Cove", at=[0.216, 0.2]), throw("red-12", [thrower, pushed], 2)]


def test_a_released_ship_pushed_into_its_destination_must_arrive(tmp_path):
    lines = released_then_pushed((0.25, 0.36))
    (flag,) = scan_record(write(tmp_path, [*lines, FINAL])).flags
    assert (flag.line, flag.ship, flag.ruling) == (9, "green-12", "D20") and "North-east" in flag.problem
    arrived = line("arrived", 2, ship="green-12", route="somalia", direction="north")
    clean = scan_record(write(tmp_path, [*lines, arrived, FINAL], "arrived.jsonl"))
    assert clean.flags == () and clean.pushed_released == clean.pushed_home == 1


def test_a_released_ship_grounded_on_its_way_is_judged_where_it_was_set_down(tmp_path):
    lines = released_then_pushed((0.25, 0.36))
    grounded = line("grounded", 2, ship="green-12", at=[0.25, 0.30], crossed=[0.25, 0.32], time=0.05)
    scan = scan_record(write(tmp_path, [*lines, grounded, FINAL]))
    assert scan.pushed_released == 1 and scan.pushed_home == 0 and scan.flags == ()


def test_a_second_release_for_one_seizure_is_flagged(tmp_path):
    lines = released_then_pushed((0.25, 0.30))
    again = [line("turn", 3), line("turn_skipped", 3, ship="green-12", status="lost_turn"),
             line("released", 3, ship="green-12", port="Cove", at=[0.216, 0.2])]
    (flag,) = scan_record(write(tmp_path, [*lines, *again, FINAL])).flags
    assert (flag.line, flag.ruling) == (12, "D20") and "no new seizure" in flag.problem
    seized_again = line("seized", 2, ship="green-12", port="Cove", distance=0.05, ransom=2)
    assert scan_record(write(tmp_path, [*lines, seized_again, *again, FINAL], "b.jsonl")).flags == ()


def test_the_held_reading_is_not_judged_for_d20(tmp_path):
    lines = released_then_pushed((0.25, 0.36))
    lines[0] = header({"after_release": "held"})
    scan = scan_record(write(tmp_path, [*lines, FINAL]))
    assert scan.flags == () and "after_release = 'held'" in scan.d20


# -- bad files --------------------------------------------------------------------------------------------

def test_a_bad_record_gets_one_located_line_and_the_others_are_still_scanned(tmp_path, capsys):
    good = write(tmp_path, grounded_across())
    bad = write(tmp_path, [header(), line("grounded", ship="red-12", at="here"), FINAL], "bad.jsonl")
    assert main(["scan", str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [err.strip()] and f"{bad}, line 2" in err and "at" in err
    assert str(good) in out and "Totals over 1 record" in out


def test_a_path_with_an_empty_orientation_is_a_bad_record(tmp_path, capsys):
    lines = grounded_across()
    lines[4]["result"]["paths"][0]["orientations"][7] = [0, 0, 0, 0]
    assert main(["scan", str(write(tmp_path, lines))]) == 2
    assert "line 5: throw: the path of red-12: sample 7's orientation has zero length" in capsys.readouterr().err


# -- real games -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_games(tmp_path_factory, roller):
    """Two real 2-player games on the tiny map (fixed seeds), recorded with their paths."""
    from somaliland.engine.loop import play_game
    from somaliland.engine.record import RecordWriter
    from somaliland.engine.setup import GameSetup, Seat
    from somaliland.rules import RulesConfig

    folder = tmp_path_factory.mktemp("games")
    paths = []
    for seed in (1, 2):
        path = folder / f"tiny-{seed}.jsonl"
        setup = GameSetup(seed=seed, seats=(Seat("ev"), Seat("ev")), rules=RulesConfig(players=2), map_path=TINY)
        with RecordWriter(path) as writer:
            play_game(setup, load(TINY), roller, sink=writer)
        paths.append(path)
    return paths


def test_real_games_scan_clean(real_games, capsys):
    assert main(["scan", *map(str, real_games), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["totals"]["d19_flags"] == report["totals"]["d20_flags"] == 0
    assert report["totals"]["paths"] > 100 and report["totals"]["seizures"] > 0


def test_a_doubled_release_in_a_real_game_is_flagged(real_games, tmp_path):
    lines = real_games[0].read_text().splitlines()
    first = next(i for i, text in enumerate(lines) if json.loads(text)["kind"] == "released")
    doctored = tmp_path / "doubled.jsonl"
    doctored.write_text("\n".join([*lines[:first + 1], lines[first], *lines[first + 1:]]) + "\n")
    flags = scan_record(doctored).flags
    assert [(f.line, f.ruling) for f in flags] == [(first + 2, "D20")]


def test_a_grounded_line_deleted_from_a_real_game_is_flagged(real_games, tmp_path):
    lines = real_games[1].read_text().splitlines()
    kinds = [json.loads(text)["kind"] for text in lines]
    grounded = kinds.index("grounded")  # seed 2 runs a ship aground on the Isle
    assert json.loads(lines[grounded]).get("crossed") is not None
    throw_line = max(i for i in range(grounded) if kinds[i] == "throw") + 1
    doctored = tmp_path / "ungrounded.jsonl"
    doctored.write_text("\n".join(lines[:grounded] + lines[grounded + 1:]) + "\n")
    ship = json.loads(lines[grounded])["ship"]
    assert [(f.line, f.ship, f.ruling) for f in scan_record(doctored).flags] == [(throw_line, ship, "D19")]
