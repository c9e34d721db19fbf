"""The command line as a user meets it: help everywhere, JSON outputs, bad input as exit 2 without traceback."""

import argparse
import json
import subprocess
import sys

import pytest

from somaliland.cli.main import build_parser, main


def all_command_paths(parser=None, prefix=()):
    parser = parser or build_parser()
    yield prefix
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from all_command_paths(sub, prefix + (name,))


def run(*args):
    return subprocess.run([sys.executable, "-m", "somaliland.cli.main", *args], capture_output=True, text=True)


@pytest.mark.parametrize("path", list(all_command_paths()), ids=lambda p: " ".join(p) or "somaliland")
def test_every_command_has_help(path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*path, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "usage: somaliland" in out
    assert "%%" not in out  # a description is not %-formatted as an argument's help is


def test_dice_json_has_counts_throws_and_p_value():
    out = run("dice", "--faces", "1,1,2,2,3,3", "--size", "16,16,12", "--throws", "30", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data["counts"]) == 6 and sum(data["counts"]) == data["throws"] == 30
    assert 0 <= data["p_value"] <= 1
    assert data["faces"] == [1, 1, 2, 2, 3, 3] and data["size_mm"] == pytest.approx([16, 16, 12])


def test_dice_plot_writes_a_png(tmp_path):
    png = tmp_path / "faces.png"
    out = run("dice", "--throws", "12", "--plot", str(png))
    assert out.returncode == 0, out.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_dice_is_deterministic_for_a_seed():
    a = run("dice", "--throws", "20", "--seed", "5", "--json").stdout
    b = run("dice", "--throws", "20", "--seed", "5", "--json").stdout
    assert json.loads(a)["counts"] == json.loads(b)["counts"]


@pytest.mark.parametrize("args, message", [
    (["dice", "--faces", "1,2,3,4,5"], "expected 6 comma-separated values"),
    (["dice", "--size", "-3"], "between 2 and 200 mm"),
    (["dice", "--throws", "0"], "positive whole number"),
    (["dice", "--seed", "-1"], "non-negative"),
    (["dice", "--mass", "nan", "--throws", "1"], "die mass = nan"),
    (["bench", "game", "--world", "fast"], "argument --world: invalid choice: 'fast'"),
    (["dice", "--throws", "2000000"], "expected a positive whole number up to 1,000,000, got 2,000,000"),
    (["dice", "--throws", "100000", "--plot", "freq.txt"], "--plot freq.txt: expected a .png, .svg or .pdf file name"),
])
def test_bad_input_exits_2_with_a_message_and_no_traceback(args, message):
    out = run(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_demo_tells_what_happened():
    out = run("demo", "--seed", "13")
    assert out.returncode == 0, out.stderr
    assert "came to rest" in out.stdout and "touched" in out.stdout and "tipped over" in out.stdout


def test_bench_roll_json_reports_every_key():
    out = run("bench", "roll", "--throws", "6", "--naive-throws", "1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("throws_per_s", "alone_throws_per_s", "naive_throws_per_s", "ratio_vs_naive"):
        assert key in data
    assert data["throws_per_s"] > 0 and data["alone_throws_per_s"] > 0
    assert data["world"] == "per_game"  # the throws roll as a game's: in one world kept for them


def test_bench_roll_in_a_fresh_world_per_throw_says_so():
    out = run("bench", "roll", "--throws", "4", "--naive-throws", "1", "--world", "per_roll")
    assert out.returncode == 0, out.stderr
    assert "throws rolled in a fresh world for each (960 Hz)" in out.stdout


def test_bench_game_at_another_step_rate_reports_it():
    out = run("bench", "game", "--games", "1", "--rate-hz", "480", "--world", "per_roll", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["rate_hz"], data["solver_iterations"], data["world"]) == (480, 50, "per_roll")
    assert data["median_cpu_s"] > 0 and data["warm_up_cpu_s"] > 0
    stepping = data["stepping"]  # the physics floor: Bullet's steps of one more game, timed
    assert stepping["steps"] > 0 and 0 < stepping["step_cpu_s"] < stepping["game_cpu_s"]


def test_bench_game_rejects_a_step_rate_the_path_samples_do_not_divide():
    out = run("bench", "game", "--games", "1", "--rate-hz", "500")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "sample_hz" in out.stderr and "rate_hz=500" in out.stderr


def test_bench_study_reports_throughput_scaling_and_its_physics():
    out = run("bench", "study", "--games", "1", "--players", "2", "--rounds", "1", "--rate-hz", "480",
              "--world", "per_roll", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["games_1"], data["games_2"]) == (1, 2)
    assert data["games_per_hour_1_with_startup"] > 0 and data["games_per_hour_2_with_startup"] > 0
    assert (data["rate_hz"], data["solver_iterations"], data["world"]) == (480, 50, "per_roll")
    assert data["target_hours_for_10000"] == 1.5 and data["target_scaling"] == 0.8


def test_bench_study_refuses_an_impossible_step_rate_before_any_work():
    out = run("bench", "study", "--rate-hz", "500")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "rate_hz=500" in out.stderr


def test_bench_fidelity_measures_each_rate_against_the_validation_limits():
    out = run("bench", "fidelity", "--rates", "960,480", "--throws", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_rate = {r["rate_hz"]: r for r in data["rates"]}
    assert set(by_rate) == {960, 480} and data["default_rate_hz"] == 960
    assert 0 < by_rate[960]["penetration_mm"] < 1.0  # the default passes what the validation tests demand
    assert all(0.9 <= b["ratio"] <= 1.1 for b in by_rate[960]["bounce_ratios"])
    assert by_rate[480]["steps_per_throw"] < by_rate[960]["steps_per_throw"]


@pytest.mark.parametrize("rates, says", [("960,x", "expected step rates in Hz"), ("500", "divisor of rate_hz=500")])
def test_bench_fidelity_rejects_bad_rates_before_any_work(rates, says):
    out = run("bench", "fidelity", "--rates", rates)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_a_rules_file_that_is_not_utf8_and_a_top_down_figure_of_no_known_format_are_one_line(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_bytes(b"rounds = 2\n# caf\xe9\n")
    out = run("play", "--players", "2", "--rules", str(rules))
    assert out.returncode == 2 and f"{rules}: line 2: expected UTF-8 text, found 'byte 0xe9'" in out.stderr
    assert "Traceback" not in out.stderr
    from replay_fixtures import record_game

    record = record_game(tmp_path / "game.jsonl", rounds=1)
    out = run("replay", str(record), "--round", "1", "--top-down", str(tmp_path / "round.txt"))
    assert out.returncode == 2 and "--top-down" in out.stderr and "expected a .png, .svg or .pdf file name" in out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "round.txt").exists()


def test_a_shipped_map_is_named_from_any_folder_and_recorded_by_its_file(tmp_path):
    """`--map tiny` from a user's own folder plays maps/tiny.toml; the record names that file, not the word, so
    `verify` finds it at its recorded path."""
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[1] / "maps" / "tiny.toml"
    (tmp_path / "rules.toml").write_text("rounds = 1\n")

    def here(*args):
        return subprocess.run([sys.executable, "-m", "somaliland.cli.main", *args], capture_output=True, text=True,
                              cwd=tmp_path)

    out = here("play", "--map", "tiny", "--players", "2", "--rules", "rules.toml", "--record", "game.jsonl")
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "game.jsonl").read_text().splitlines()[0])["map"]["file"] == str(shipped)
    out = here("verify", "game.jsonl")
    assert out.returncode == 0 and "not at its recorded path" not in out.stderr, out.stderr
    out = here("map", "check", "maps/tiny.toml")
    assert out.returncode == 0 and "maps/tiny.toml: OK" in out.stdout, out.stderr


@pytest.mark.parametrize("written, warned", [
    ("players = 3\n", True),
    ("players = 2\n", False),  # they agree: nothing to say
    ("rounds = 1\n", False),  # the file leaves players to the default
])
def test_play_says_when_players_on_the_command_line_win_over_the_rules_file(tmp_path, capsys, written, warned):
    from somaliland.cli.play_cmd import load_setup

    rules = tmp_path / "rules.toml"
    rules.write_text(written)
    setup, _ = load_setup(build_parser().parse_args(["play", "--map", "tiny", "--players", "2",
                                                     "--rules", str(rules)]))
    assert setup.rules.players == 2  # --players wins, as before
    err = capsys.readouterr().err
    if warned:
        said = f"--players 2 wins over players = 3 in {rules}: the game has 2 players"
        assert err == f"somaliland play: warning: {said}\n"
    else:
        assert err == ""
