"""The rules configuration: defaults are the rulings as written, every field loads from TOML, bad files are located."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from somaliland.rules import DEFAULT_FLEET, DEFAULT_RULES_FILE, RulesConfig, RulesConfigError, load_rules
from somaliland.rules.config import OPTIONS, field_names
from somaliland.rules.fleet import ShipSpec

RULES_DOC = Path(__file__).parents[1] / "somaliland" / "rules" / "README.md"

EVERY_FIELD_CHANGED = """
players = 3
rounds = 6
contract_values = [10, 20, 30]
deal_size = 5
taken_cards_leave_deck = false
die_size_mm = 20.0
die_mass_g = 7.5
draft_pass_is_final = false
contract_cap = "fleet"
first_player = "seat0"
route_choice = "ship"
pooled_allotment = false
launch_pass_is_final = false
pirates_ignore = ["arrived", "held", "aground"]
held_release = "where_seized"
release_spot = "in_port"
after_release = "held"
pirate_targets = "any_route"
lost_turns = "add_up"
pitchcar_order = "hindmost_first"
pitchcar_ties = "seat_order"
turns_per_round = 7
max_moves = 5
launch_is_first_move = false
grounding = "footprint"
grounding_on = "rest"
collision_both_lose_turn = false
tipped_over = "top_value"
off_board = "move_start"
off_board_arrival = "same_throw"
final_tie = "random"
throw_tolerance_mm = 50
launch_heading_tolerance_deg = 90
touch_tolerance_mm = 2
coast_tolerance_mm = 5
# the design levers
ransom = "share"
ransom_fixed = 5
ransom_share_percent = 20
pirate_take = "per_traffic"
pirate_take_every = 3
contract_cap_total = 60

[[fleet]]
name = "big"
faces = [5, 5, 5, 5, 5, 5]

[[fleet]]
name = "small"
faces = [0, 1, 0, 1, 0, 1]
"""


def test_defaults_are_the_rulings_as_written() -> None:
    c = RulesConfig()
    assert (c.players, c.rounds, c.deal_size) == (4, 4, 9)  # R4, R23
    assert c.contract_values == tuple(range(30, 65, 2))  # R3
    assert [s.faces for s in c.fleet] == [(1,) * 6, (1,) * 6, (1, 1, 1, 1, 2, 2), (2,) * 6, (3,) * 6, (4,) * 6]  # D1
    assert c.die_size == pytest.approx(0.016)  # D1: 16 mm
    assert c.draft_pass_is_final  # D2
    assert c.contract_cap == "afloat"  # D3
    assert c.first_player == "random"  # D4
    assert c.route_choice == "contract"  # D5
    assert c.pooled_allotment  # D6
    assert c.launch_pass_is_final  # D7
    assert c.pirates_ignore == ("arrived", "held") and c.held_release == "port"  # D8
    assert c.release_spot == "open_sea"  # D17
    assert c.after_release == "at_sea"  # D20
    assert c.pirate_targets == "full_route"  # D15
    assert c.lost_turns == "once"  # D16
    assert c.pitchcar_ties == "turn_order"  # D9 ties
    assert c.pitchcar_order == "furthest_first"  # D9
    assert (c.turns_per_round, c.max_moves, c.launch_is_first_move) == (6, 6, True)  # D10, R15
    assert c.grounding == "bottom_centre"  # D11
    assert c.grounding_on == "path" and c.coast_tolerance == pytest.approx(0.003)  # D19
    assert c.collision_both_lose_turn and c.tipped_over == "top_face"  # D12
    assert c.off_board == "nearest_sea" and c.off_board_arrival == "later_move"  # D13, R19
    assert c.final_tie == "shared"  # D14
    assert (c.ransom, c.pirate_take, c.max_moves, c.contract_cap_total) == ("top_face", "one", 6, "fleet")  # L1-L4


def test_the_shipped_default_file_is_the_default_config() -> None:
    assert load_rules(DEFAULT_RULES_FILE) == RulesConfig()


def test_every_field_loads_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(EVERY_FIELD_CHANGED)
    c = load_rules(path)
    default = RulesConfig()
    changed = [name for name in field_names() if getattr(c, name) != getattr(default, name)]
    assert sorted(changed) == sorted(field_names())
    assert c.players == 3 and c.rounds == 6 and c.contract_values == (10, 20, 30)
    assert c.fleet == (ShipSpec("big", (5,) * 6), ShipSpec("small", (0, 1, 0, 1, 0, 1)))
    assert c.die_size == pytest.approx(0.020) and c.die_mass == pytest.approx(0.0075)
    assert c.launch_heading_tolerance == pytest.approx(math.pi / 2)
    assert c.throw_tolerance == pytest.approx(0.05) and c.touch_tolerance == pytest.approx(0.002)
    assert c.coast_tolerance == pytest.approx(0.005)
    assert c.pirates_ignore == ("arrived", "held", "aground")


@pytest.mark.parametrize("text, key, expected", [
    ("players = 5", "players", "an integer from 2 to 4"),
    ("players = 1", "players", "an integer from 2 to 4"),
    ("rounds = 'four'", "rounds", "an integer"),
    ("grounding = 'anywhere'", "grounding", "one of bottom_centre, footprint"),
    ("pooled_allotment = 1", "pooled_allotment", "true or false"),
    ("pirates_ignore = ['sunk']", "pirates_ignore", "a list of"),
    ("contract_values = [30, 30]", "contract_values", "distinct integers"),
    ("die_size_mm = 0.5", "die_size_mm", "a number from 2 to 200"),
    ("tipover = 'top_face'", "tipover", "a known option"),
    ("[[fleet]]\nname = '6a'\nfaces = [1, 1, 1, 1, 1]", "fleet[0].faces", "six non-negative integers"),
    ("[[fleet]]\nname = '6a'\nfaces = [1, 1, 1, 1, 1, -1]", "fleet[0].faces", "six non-negative integers"),
    ("[[fleet]]\nname = 'a'\nfaces = [1, 1, 1, 1, 1, 1]\n[[fleet]]\nname = 'a'\nfaces = [1, 1, 1, 1, 1, 1]",
     "fleet", "distinct names"),
    ("players = ", "(syntax)", "valid TOML"),
    ("pirate_targets = 'nobody'", "pirate_targets", "one of full_route, any_route"),  # D15
    ("lost_turns = 2", "lost_turns", "one of once, add_up"),  # D16
    ("release_spot = 'beside'", "release_spot", "one of open_sea, in_port"),  # D17
    ("off_board_arrival = true", "off_board_arrival", "one of later_move, same_throw"),  # R19, D13
])
def test_a_broken_rules_file_gives_a_located_error(tmp_path: Path, text: str, key: str, expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesConfigError) as caught:
        load_rules(path)
    assert caught.value.key == key
    assert str(path) in str(caught.value) and expected in str(caught.value)


def test_a_missing_rules_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(RulesConfigError, match="nope.toml"):
        load_rules(tmp_path / "nope.toml")


def test_R23_two_to_four_players_and_any_number_of_rounds() -> None:
    for players in (2, 3, 4):
        assert RulesConfig(players=players, rounds=6).players == players
    with pytest.raises(RulesConfigError, match="players"):
        RulesConfig(players=5)


def test_D1_a_layout_must_have_six_non_negative_integer_faces() -> None:
    with pytest.raises(RulesConfigError, match="fleet"):
        RulesConfig(fleet=(ShipSpec("odd", (1, 2, 3, 4, 5)),))  # type: ignore[arg-type]
    assert RulesConfig(fleet=DEFAULT_FLEET[:1]).fleet == DEFAULT_FLEET[:1]


def test_every_option_is_documented_and_in_the_default_file() -> None:
    doc = RULES_DOC.read_text()
    shipped = DEFAULT_RULES_FILE.read_text()
    for option in OPTIONS.values():
        assert f"`{option.key}`" in doc, option.key
        assert f"\n{option.key} = " in shipped, option.key
    assert "`fleet`" in doc


@pytest.mark.parametrize("text, line, key, said", [
    ("rounds = 2\n\n# seize any ship\npirate_target = 'any_route'\n", 4, "pirate_target",
     "expected a known option: did you mean 'pirate_targets'?"),
    ("rounds = 2\n[dice]\nsize_mm = 16\n", 2, "dice", "expected a known option (after_release, "),
    ("players = 3\nrounds = 'four'\n", 2, "rounds", "expected an integer from 1 to 50, found 'four'"),
    ("rounds = 2\n\n[[fleet]]\nname = 'a'\nfaces = [1, 1, 1, 1, 1, 1]\n[[fleet]]\nname = 'b'\n"
     "faces = [1, 1, 1, 1, 1, -1]\n", 8, "fleet[1].faces", "expected six non-negative integers"),
    ("rounds = 2\nplayers = \n", 2, "(syntax)", "expected valid TOML"),
])
def test_a_rules_file_s_problem_names_its_line_and_a_typo_its_likely_option(tmp_path: Path, text: str, line: int,
                                                                           key: str, said: str) -> None:
    """As a map file's problems do: FILE:LINE: key: expected ..., found ...; an unknown key that looks like a
    typo of an option names that option (difflib) rather than listing all of them."""
    path = tmp_path / "rules.toml"
    path.write_text(text)
    with pytest.raises(RulesConfigError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert caught.value.line == line and message.startswith(f"{path}:{line}: {key}: ") and said in message
    if "did you mean" in said:  # the guess replaces the list of every option
        assert "collision_both_lose_turn" not in message


@pytest.mark.parametrize("text, example", [
    ("rounds = 2\nransom = fixed\n", 'ransom = "fixed"'),
    ("grounding_on = rest  # a comment\n", 'ransom = "fixed"'),  # not a bare word: the general example
    ("grounding_on = rest\n", 'grounding_on = "rest"'),
])
def test_a_text_value_without_quotes_is_told_to_quote_it(tmp_path: Path, text: str, example: str) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(text)
    with pytest.raises(RulesConfigError) as caught:
        load_rules(path)
    assert caught.value.key == "(syntax)" and caught.value.found == "Invalid value"
    assert f"expected valid TOML (text values are written in quotes, e.g. {example})" in str(caught.value)


def test_a_study_files_rules_table_in_a_rules_file_says_where_the_options_go(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text("# copied from a study\n[rules]\nrounds = 2\nransom = \"fixed\"\n")
    with pytest.raises(RulesConfigError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:2: rules: expected the options at the top level of a rules file, not "
                              f"under a [rules] table")
    assert "collision_both_lose_turn" not in message  # not the list of every option
