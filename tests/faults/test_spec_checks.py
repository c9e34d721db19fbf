"""Issue 18 items 5 and 6: every value of a study, in every sweep cell, is checked before the first game.

An unknown strategy or strategy parameter, a parameter out of range, a policy factory that does not import,
and a map that does not load (a map sweep's cell included) each stop `study run` with exit 2 and one line
naming the file, the cell and the key: no results folder is made and no game is played.
"""

import pytest

from somaliland.cli.main import main
from test_study_support import TINY_MAP

REGISTRY = f'''name = "checked"
map = "{TINY_MAP}"
master_seed = 7
games_per_cell = 20

[rules]
players = 2
rounds = 1
'''


def bowtie(folder):
    """Write a copy of the tiny map whose rock's outline crosses itself; return its path."""
    text = TINY_MAP.read_text()
    square = "[13.0, 35.0], [17.0, 35.0], [17.0, 38.0], [13.0, 38.0]"
    assert square in text, "the tiny map's rock moved: update this test"
    path = folder / "bowtie.toml"
    path.write_text(text.replace(square, "[13.0, 35.0], [17.0, 38.0], [17.0, 35.0], [13.0, 38.0]"))
    return path


@pytest.mark.parametrize("extra, located", [
    ('[seats]\nstrategy = "evv"\n',
     "seats.strategy: expected a strategy of the registry (bold, cautious, ev, search), or a policy_factory that knows it, "
     "found 'evv'"),
    ('[sweep]\n"seat.1.strategy" = ["ev", "bluff"]\n',
     "sweep cell 1 (seat.1.strategy='bluff'): seat.1.strategy: expected a strategy of the registry"),
    ('[seats]\nparams = { depth = 2 }\n', "seats.params.depth: expected a strategy parameter (heading_sd_deg, "),
    ('[sweep]\n"seats.params.rolls" = [0, 100]\n',
     "sweep cell 1 (seats.params.rolls=100): seats.params.rolls: expected an integer in [0, 64], found 100"),
    ('[seat.1]\nparams = { tumble = "fast" }\n', "seat.1.params.tumble: expected a number in [0, 1], found 'fast'"),
    ('[sweep]\n"physics.fidelity" = ["full", "fast"]\n',
     "sweep cell 1 (physics.fidelity='fast'): physics.fidelity: expected \"full\": the fast fidelity (rolls taken "
     "from a library) was removed"),
    ('policy_factory = "no_such_module:make"\n',
     "policy_factory: expected 'module:function' importable by this process and the workers, found "
     "'no_such_module:make'; ModuleNotFoundError: No module named 'no_such_module'"),
])
def test_a_bad_value_stops_the_run_before_any_game(tmp_path, capsys, extra, located):
    text = REGISTRY + extra if not extra.startswith("policy_factory") else extra + REGISTRY
    assert located in refusal(tmp_path, text, capsys)


def test_a_map_sweep_with_an_invalid_map_stops_before_any_game(tmp_path, capsys):
    bad = bowtie(tmp_path)
    text = REGISTRY + f'[sweep]\nmap = ["{TINY_MAP}", "{bad}"]\n'
    assert (f"sweep cell 1 (map='{bad}'): map: expected a map file that loads (`somaliland map check` lists its "
            f"problems), found '{bad}:30: land[1].outline[0]: ") in refusal(tmp_path, text, capsys)


def refusal(folder, text: str, capsys) -> str:
    """Return the one-line error `study run` gives for a study text, having checked nothing was made."""
    path = folder / "checked.toml"
    path.write_text(text)
    out = folder / "out"
    assert main(["study", "run", str(path), "--out", str(out), "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"somaliland study: error: {path}: ") and err.count("\n") == 1
    assert not out.exists()
    return err
