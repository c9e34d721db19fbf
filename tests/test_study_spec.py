"""Study files: the grid of cells, seats, and located errors for every kind of bad value."""

from pathlib import Path

import pytest

from somaliland.study import StudyError, load_study, parse_study
from somaliland.study.spec import column_name
from test_study_support import ROOT, TINY_MAP, tiny_study

BASE = f'master_seed = 1\ngames_per_cell = 10\nmap = "{TINY_MAP}"\n'


def parse(text: str):
    return parse_study(BASE + text, "study.toml", ROOT)


def error_of(text: str) -> str:
    with pytest.raises(StudyError) as info:
        parse(text)
    return str(info.value)


@pytest.mark.parametrize("text, located", [
    ("colour = 1\n", "study.toml:4: colour: expected a known key (name, question, map, "),
    ("[rules]\nroundz = 3\n", "study.toml: rules.roundz: expected a known option"),
    ("[rules]\nplayers = 5\n", "study.toml: rules.players: expected an integer from 2 to 4, found 5"),
    ("[seats]\nskill = 1.5\n", "study.toml: seats.skill: expected a throw skill from 0"),
    ("[seats]\nhand = 1\n", "study.toml: seats.hand: expected a known key"),
    ("[seat.7]\nskill = 0.5\n", "study.toml: seat.7: expected a seat number 0 to 3"),
    ("[seat.1]\nstrategy = 3\n", "study.toml: seat.1.strategy: expected a strategy name"),
    ("[seats]\nparams = 3\n", "study.toml: seats.params: expected a table of strategy parameters, found 3"),
    ("[seats]\nparams = { accident_rate = 0.3 }\n",
     "study.toml: seats.params.accident_rate: expected a strategy parameter that exists, found 'accident_rate, which "
     "was removed (lost turns a move: every player now measures it on the map in play"),
    ("[seat.2]\nparams = { stride = 0.3 }\n", "study.toml: seat.2.params.stride: expected a strategy parameter"),
    ("[sweep]\n\"rules.rounds\" = 3\n", "study.toml: sweep.rules.rounds: expected a non-empty array"),
    ("[sweep]\n\"board.size\" = [3]\n", "study.toml: sweep.board.size: expected a key under map, rules"),
    ("[sweep]\n\"rules.rounds\" = [3, 0]\n",
     "study.toml: sweep cell 1 (rules.rounds=0): rules.rounds: expected an integer from 1 to 50, found 0"),
    ("[[sweep]]\n\"rules.players\" = [2]\n[[sweep]]\n\"seats.skill\" = [0.5, -1]\n",
     "study.toml: sweep[1] cell 2 (seats.skill=-1): seats.skill: expected a throw skill"),
    ("[sweep]\nmap = [\"nowhere.toml\"]\n", "study.toml: sweep cell 0 (map='nowhere.toml'): map: expected an existing"),
    ("policy_factory = \"nocolon\"\n", "study.toml: policy_factory: expected 'module:function'"),
    ("[rules\n", "study.toml: line 4, column 7: expected valid TOML, found \"Expected ']' at the end"),
    ("[physics]\nrate = 480\n", "study.toml: physics.rate: expected a known key: did you mean 'rate_hz'? (rate_hz, "
     "sample_hz"),
    ("[physics]\nrate_hz = 480.5\n", "study.toml: physics.rate_hz: expected an integer, found 480.5"),
    ("[physics]\nmax_time = \"5\"\n", "study.toml: physics.max_time: expected a number, found '5'"),
    ("[physics]\naudit = true\n", "study.toml: physics.audit: expected a known key"),
    ("[physics]\nworld = \"fast\"\n", 'study.toml: physics.world: expected "per_roll" or "per_game", found \'fast\''),
    ("[physics]\nworld = 1\n", 'study.toml: physics.world: expected "per_roll" or "per_game", found 1'),
    ("[sweep]\n\"physics.rate_hz\" = [960, 500]\n",
     "study.toml: sweep cell 1 (physics.rate_hz=500): physics.sample_hz: expected a divisor of rate_hz=500, found 60"),
])
def test_bad_values_are_located(text, located):
    assert located in error_of(text)


def test_an_unknown_top_level_key_names_its_line_and_the_key_it_looks_like():
    text = 'name = "typo"\nmaster_seed = 1\n\n# how many games\ngames_per_cel = 10\n'
    with pytest.raises(StudyError) as info:
        parse_study(text, "study.toml", ROOT)
    assert info.value.line == 5
    assert str(info.value).startswith("study.toml:5: games_per_cel: expected a known key: did you mean "
                                      "'games_per_cell'? (name, question, map, master_seed, games_per_cell, ")


def test_seeds_and_counts_are_checked():
    assert "master_seed: expected a non-negative integer" in str(
        pytest.raises(StudyError, parse_study, "master_seed = -1\ngames_per_cell = 1\n", "s.toml", ROOT).value)
    assert "games_per_cell: expected an integer from 1" in str(
        pytest.raises(StudyError, parse_study, "master_seed = 1\ngames_per_cell = 0\n", "s.toml", ROOT).value)
    for text, key in (("games_per_cell = 1\n", "master_seed"), ("master_seed = 1\n", "games_per_cell")):
        message = str(pytest.raises(StudyError, parse_study, text, "s.toml", ROOT).value)
        assert f"the key is missing: add `{key} = ...` among the top-level keys" in message
    assert "missing" not in str(pytest.raises(StudyError, parse_study, "master_seed = -1\ngames_per_cell = 1\n",
                                              "s.toml", ROOT).value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(StudyError, match="nope.toml: \\(file\\): expected a readable study file"):
        load_study(tmp_path / "nope.toml")


def test_grids_multiply_and_sweeps_join():
    study = parse('[[sweep]]\n"rules.players" = [3]\n"rules.rounds" = [3, 4, 6]\n'
                  '[[sweep]]\n"rules.players" = [2, 4]\n')
    assert [(c.rules.players, c.rules.rounds) for c in study.cells] == [(3, 3), (3, 4), (3, 6), (2, 4), (4, 4)]
    assert study.total_games == 50 and study.sweep_keys == ("rules.players", "rules.rounds")
    assert study.cells[1].label() == "players=3, rounds=4"


def test_seats_cycle_lists_and_take_overrides():
    study = parse('[rules]\nplayers = 4\n[seats]\nstrategy = ["bold", "ev"]\nskill = 0.5\n'
                  '[seats.params]\nrolls = 2\n[seat.2]\nskill = 0.9\n[seat.2.params]\ntumble = 0.1\n')
    seats = study.cells[0].seats
    assert [s.strategy for s in seats] == ["bold", "ev", "bold", "ev"]
    assert [s.skill for s in seats] == [0.5, 0.5, 0.9, 0.5]
    assert seats[2].params == (("rolls", 2), ("tumble", 0.1)) and seats[0].params == (("rolls", 2),)
    setup = study.cells[0].setup(99)
    assert setup.seed == 99 and not setup.record_paths and setup.seats[2].skill.heading_sd_deg == pytest.approx(2.0)


def test_fingerprint_ignores_games_per_cell_only(tmp_path):
    a = load_study(tiny_study(tmp_path, games=3, name="a"))
    b = load_study(tiny_study(tmp_path, games=30, name="b"))
    c = load_study(tiny_study(tmp_path, games=3, name="c", sweep='"seats.skill" = [0.5]'))
    assert a.fingerprint == b.fingerprint != c.fingerprint


def test_column_names():
    assert [column_name(k) for k in ("rules.rounds", "seat.0.skill", "seats.skill", "map")] == [
        "rounds", "seat0_skill", "seats_skill", "map"]


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "experiments").glob("*.toml")
                                         if not p.name.startswith("tune-")),  # tunings: tests/test_tune.py
                         ids=lambda p: p.name)
def test_every_shipped_study_loads(path: Path):
    study = load_study(path)
    assert study.cells and study.question, f"{path.name} should state its question"


def test_physics_settings_default_and_sweep_per_cell():
    """A study's [physics] table sets how its rolls are simulated; a sweep over it makes one cell per setting."""
    from physics import SimSettings

    assert parse("").cells[0].physics == SimSettings()
    study = parse('[physics]\nsolver_iterations = 20\n[sweep]\n"physics.rate_hz" = [960, 480]\n')
    assert [(c.physics.rate_hz, c.physics.solver_iterations) for c in study.cells] == [(960, 20), (480, 20)]
    assert [c.label() for c in study.cells] == ["physics_rate_hz=960", "physics_rate_hz=480"]
    assert parse("[physics]\nmax_time = 5\n").cells[0].physics.max_time == 5.0  # an integer is a number
    assert study.fingerprint != parse('[sweep]\n"physics.rate_hz" = [960, 480]\n').fingerprint
    worlds = parse('[sweep]\n"physics.world" = ["per_roll", "per_game"]\n')
    assert [c.physics.world for c in worlds.cells] == ["per_roll", "per_game"]
