"""One set of words for what happened: `play`'s account and the replays' captions say each event alike, and a
lost turn is told only where the rules wrote one (R19, D13, D16)."""

import pytest
from replay_fixtures import lines, record_game

from somaliland.engine.account import TOLD, account
from somaliland.engine.events import Deal, RoundEnd, Score, Stamped
from somaliland.engine.phrases import Names, sentence
from somaliland.replay.captions import news
from somaliland.replay.story import load_story
from somaliland.rules.events import Arrived, Fulfilled, LostTurn, Released, Replaced, Seized

HEAD = {"seats": [{"colour": "red"}, {"colour": "green"}],
        "map": {"routes": [{"name": "somalia", "label": "the Strait", "full_value": True},
                           {"name": "africa", "label": "open ocean", "full_value": False}]}}
NAMES = Names.from_header(HEAD)


@pytest.mark.parametrize("event, words", [
    (Arrived("red-6a", "somalia", "north"), "red-6a arrived (the Strait, northbound)"),
    (Replaced("red-6a", (0.0, 0.0, 0.0), (0.0, 0.0)), "red-6a went off the board, put back on the board"),
    (LostTurn("red-6a", "off_board"), "red-6a will lose its next move (off the board)"),
    (Seized("green-12", "Eyl", 0.1, 3, with_partner_of="red-8"),
     "pirates of Eyl seized green-12, taken with red-8: green pays 3 points ransom"),
    (Released("green-12", "Eyl", (0.4, 0.3)), "pirates of Eyl released green-12, set down clear of every die"),
    (Seized("red-6b", "Hobyo", 0.1, 1), "pirates of Hobyo seized red-6b: red pays 1 point ransom"),
    (Fulfilled(1, "46S", "africa", ("green-12",), False, 23.0), "green fulfilled 46S via open ocean: +23 points"),
    (RoundEnd((Score(0, 45, 0, 0, 1, 45.0), Score(1, 0, 0, 3, 0, -3.0))), "scores after round 2: red 45; green -3 points"),
    (Deal(0, ()), None),
])
def test_each_event_has_one_sentence(event, words):
    """A tip-over's words (the same pips or not, issue 18 item 13) are tested in tests/faults/test_tip_words.py."""
    assert sentence(Stamped(2, 6, event), NAMES) == words


def test_R19_D13_a_ship_put_back_that_arrives_at_once_is_not_said_to_lose_a_turn():
    # off_board_arrival = "same_throw": the rules write replaced and arrived, and no lost_turn (rules/roll.py)
    events = [Replaced("red-6a", (0.0, 0.0, 0.0), (0.0, 0.0)), Arrived("red-6a", "africa", "south")]
    told = [sentence(Stamped(1, 3, e), NAMES) for e in events]
    assert told == ["red-6a went off the board, put back on the board", "red-6a arrived (open ocean, southbound)"]
    assert not any("turn" in text or "move" in text for text in told)


def test_names_fall_back_on_route_keys_and_seat_numbers_for_old_records():
    names = Names.from_header({"seats": [{"colour": "red"}], "map": {}})
    assert names.route("somalia") == "somalia" and names.route_title("somalia") == "somalia"
    assert names.seat(0) == "red" and names.seat(5) == "seat 5"


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return record_game(tmp_path_factory.mktemp("phrases") / "game.jsonl")


def test_the_account_and_the_captions_tell_every_event_in_the_same_words(record):
    events = lines(record)
    told = account(events)
    story = load_story(record)
    shown = 0
    for step in story.steps:
        for kind, text in news(story, step, True):
            if kind in {cls.__dataclass_fields__["kind"].default for cls in TOLD}:
                turn = next(m.turn for m in step.prelude + step.events if sentence(m, story.names) == text)
                assert f"  turn {turn}: {text}" in told
                shown += 1
    assert shown >= 10
