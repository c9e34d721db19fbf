"""The game loop, records and verification, with a plain scripted player (strategies are tested apart)."""

import json
import re
from dataclasses import replace

import pytest

from physics import SimSettings, make_roller
from scripted import scripted_factory
from somaliland.engine.account import account
from somaliland.engine.encode import BEFORE_OPTIONS
from somaliland.engine.loop import game_steps, play_game
from somaliland.engine.record import RecordError, RecordWriter, decode_at, read_record
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, Seat, setup_from_header
from somaliland.engine.verify import first_difference, verify_record
from somaliland.errors import UsageError
from somaliland.map import load
from somaliland.rules import RulesConfig

WORLD = load(DEFAULT_MAP)


def setup(seed=3, players=2, rounds=2):
    routes = ["africa", "somalia", "africa", "somalia"][:players]
    return GameSetup(seed=seed, seats=tuple(Seat(r) for r in routes),
                     rules=RulesConfig(players=players, rounds=rounds))


def play(s):
    with make_roller() as roller:
        return play_game(s, WORLD, roller, scripted_factory)


def first_parting(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"event {i} ({x['kind']}) at {first_difference(x, y)}"
    return None if len(a) == len(b) else f"lengths {len(a)} and {len(b)}"


def test_same_seed_same_record():
    a, b = play(setup(seed=5)), play(setup(seed=5))
    assert first_parting(a.events, b.events) is None


def test_a_finished_game_leaves_what_outlives_it_to_no_full_garbage_collection(monkeypatch):
    """After a process's first game, what it made that later games read (surveys, maps, modules) is frozen out of the
    cyclic collector's walks (`gc.freeze`), once."""
    import gc

    play(setup(seed=5, rounds=1))
    assert gc.get_freeze_count() > 0
    again = []
    monkeypatch.setattr(gc, "freeze", lambda: again.append(True))
    play(setup(seed=6, rounds=1))
    assert not again  # frozen once: later games' objects are collected as before


def test_other_seed_other_game():
    assert first_parting(play(setup(seed=5)).events, play(setup(seed=6)).events) is not None


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    with RecordWriter(path) as writer, make_roller() as roller:
        result = play_game(setup(seed=11), WORLD, roller, scripted_factory, sink=writer)
    return path, result


def test_a_roller_simulating_otherwise_than_the_setup_says_is_refused(roller):
    """How rolls are simulated is part of the setup (`GameSetup.physics`): a roller of other settings never plays it."""
    other = replace(setup(seed=5), physics=SimSettings(rate_hz=480, world="per_roll"))
    says = r"rate_hz 960 \(the setup's: 480\), world 'per_game' \(the setup's: 'per_roll'\)"
    with pytest.raises(UsageError, match=says):
        play_game(other, WORLD, roller, scripted_factory)
    with pytest.raises(UsageError, match=says):
        game_steps(other, WORLD, roller)


def test_the_header_tells_the_setup_back(recorded):
    path, _ = recorded
    head = decode_at(read_record(path)[0], 1, str(path)).event
    assert setup_from_header(head, str(path)) == setup(seed=11)  # its physics settings included


def test_record_is_json_lines_that_read_back(recorded):
    path, result = recorded
    lines = path.read_text().splitlines()
    assert len(lines) == len(result.events)
    assert read_record(path) == [json.loads(json.dumps(e)) for e in result.events]
    head = json.loads(lines[0])
    assert head["kind"] == "game" and head["seed"] == 11 and len(head["map"]["sha256"]) == 64
    assert json.loads(lines[-1])["kind"] == "final"


def test_verify_says_ok_for_an_untouched_record(recorded):
    verdict = verify_record(recorded[0], scripted_factory)
    assert verdict.ok, verdict.message


def _with_physics(recorded, tmp_path, **physics):
    lines = recorded[0].read_text().splitlines()
    head = json.loads(lines[0])
    head["physics"].update(physics)
    older = tmp_path / "older.jsonl"
    older.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    return older


def test_a_record_of_the_retired_fidelity_setting_verifies_at_full_physics_and_is_refused_at_fast(recorded, tmp_path):
    """Records made while `SimSettings` had a `fidelity` name it: "full" is how every roll is simulated now, so such
    a record verifies; a game played at "fast" (rolls from a library, removed) cannot be re-simulated: one line."""
    verdict = verify_record(_with_physics(recorded, tmp_path, fidelity="full"), scripted_factory)
    assert verdict.ok, verdict.message
    fast = _with_physics(recorded, tmp_path, fidelity="fast")
    with pytest.raises(RecordError, match=r"older\.jsonl, line 1: .*physics\.fidelity = 'fast' is not allowed; "
                                          r"expected \"full\": the fast fidelity .* was removed"):
        verify_record(fast, scripted_factory)


def test_verify_names_the_first_line_that_differs(recorded, tmp_path):
    lines = recorded[0].read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == "throw")
    event = json.loads(lines[k])
    event["result"]["thrown"]["face_value"] += 1
    lines[k] = json.dumps(event)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    verdict = verify_record(edited, scripted_factory)
    assert not verdict.ok
    assert f"line {k + 1} (throw) differs at result.thrown.face_value" in verdict.message


def _edit(recorded, tmp_path, kind, edit):
    lines = recorded[0].read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == kind)
    event = json.loads(lines[k])
    edit(event)
    lines[k] = json.dumps(event)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    return edited, k + 1


def test_verify_names_the_field_of_a_rules_event_that_differs(recorded, tmp_path):
    edited, line = _edit(recorded, tmp_path, "launched", lambda e: e.update(direction="sideways"))
    verdict = verify_record(edited, scripted_factory)
    assert not verdict.ok
    assert f"line {line} (launched) differs at direction: recorded 'sideways', re-simulated " in verdict.message


def test_verify_refuses_a_line_that_is_no_event_naming_the_line_and_field(recorded, tmp_path):
    edited, line = _edit(recorded, tmp_path, "throw", lambda e: e.update(seat="red"))
    with pytest.raises(RecordError, match=f"line {line}: throw line: \"seat\" should be a whole number, found 'red'"):
        verify_record(edited, scripted_factory)


def test_a_record_older_than_the_D16_D17_R19_options_verifies_as_the_code_before_them_played(recorded, tmp_path):
    old = setup(seed=11)
    old = GameSetup(seed=11, seats=old.seats, rules=RulesConfig(players=2, rounds=2, **BEFORE_OPTIONS))
    path = tmp_path / "old.jsonl"
    with RecordWriter(path) as writer, make_roller() as roller:
        events = play_game(old, WORLD, roller, scripted_factory, sink=writer).events
    assert first_parting(events, recorded[1].events) is not None  # the options change this game
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    for key in BEFORE_OPTIONS:  # as the code before these options wrote its headers
        del head["rules"][key]
    path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    verdict = verify_record(path, scripted_factory)
    assert verdict.ok, verdict.message


def test_a_record_older_than_the_design_levers_L1_L2_L4_verifies_as_the_rulebook(recorded, tmp_path):
    path, _ = recorded
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    for key in ("ransom", "ransom_fixed", "ransom_share_percent", "pirate_take", "pirate_take_every",
                "contract_cap_total"):
        del head["rules"][key]  # as the code before the levers wrote its headers
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    verdict = verify_record(old, scripted_factory)
    assert verdict.ok, verdict.message


@pytest.mark.parametrize("mangle, message", [
    (lambda lines: lines[:-3], "ends before the game does"),
    (lambda lines: lines[:4] + ["{not json"] + lines[5:], "line 5: not valid JSON"),
    (lambda lines: lines[1:], "line 1: expected the \"game\" header first"),
    (lambda lines: ["[1, 2]"] + lines[1:], "line 1: expected a JSON object"),
    (lambda lines: [], "empty record"),
    (lambda lines: [lines[0].replace('"schema":1', '"schema":99', 1)] + lines[1:],
     "line 1: a record of schema 99: this version reads schema 1"),
])
def test_broken_records_fail_cleanly_naming_the_line(recorded, tmp_path, mangle, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(mangle(recorded[0].read_text().splitlines())))
    with pytest.raises(RecordError, match=message):
        read_record(bad)


def test_a_record_that_is_not_text_names_its_line_and_an_unreadable_one_names_no_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"kind":"game"}\n{"kind":"caf\xe9"}\n')
    with pytest.raises(RecordError, match=r"bad.jsonl, line 2: not UTF-8 text \(byte 0xe9\)"):
        read_record(bad)
    with pytest.raises(RecordError) as missing:
        read_record(tmp_path / "nope.jsonl")
    assert str(missing.value).startswith(f"{tmp_path / 'nope.jsonl'}: cannot read: ")


def test_account_tells_rounds_and_final_table(recorded):
    text = "\n".join(account(recorded[1].events))
    assert "Round 1" in text and "Round 2" in text and "Final table" in text and "Winner:" in text
    assert re.search(r"turn \d: pirates of [\w-]+ released (red|green)-\w+", text)  # D17 releases are told


def test_game_steps_asks_each_seat_to_draft_and_a_game_of_passes_ends_without_a_throw():
    """R5, D2: a pass is final, so each seat is asked once a round; with no contract nothing is planned or sailed."""
    from somaliland.engine.decisions import DraftRequest
    from somaliland.engine.loop import game_steps

    s = setup(seed=5, players=3, rounds=2)
    asked = []
    with make_roller() as roller:
        steps = game_steps(s, WORLD, roller)
        request = next(steps)
        try:
            while True:
                asked.append((type(request), request.seat, request.table.state.round))
                request = steps.send(None)
        except StopIteration as done:
            result = done.value
    first = result.events[0]["first_player"]
    assert asked == [(DraftRequest, (first + r + k) % 3, r + 1) for r in range(2) for k in range(3)]
    assert result.throws == 0 and [row["points"] for row in result.events[-1]["table"]] == [0, 0, 0]
