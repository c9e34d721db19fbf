"""One set of words for what happened: `play`'s account and the replays' captions say each event alike, and a
lost turn is told only where the rules wrote one (R19, D13, D16)."""

import pytest
from replay_fixtures import lines, record_game

from somaliland.engine.account import TOLD, account
from somaliland.engine.phrases import Names, sentence
from somaliland.replay.captions import news
from somaliland.replay.story import load_story

HEAD = {"seats": [{"colour": "red"}, {"colour": "green"}],
        "map": {"routes": [{"name": "somalia", "label": "the Strait", "full_value": True},
                           {"name": "africa", "label": "open ocean", "full_value": False}]}}
NAMES = Names.from_header(HEAD)


@pytest.mark.parametrize("event, words", [
    ({"kind": "arrived", "ship": "red-6a", "route": "somalia", "direction": "north"},
     "red-6a arrived (the Strait, northbound)"),
    ({"kind": "replaced", "ship": "red-6a", "rest": [0, 0, 0], "at": [0, 0]},
     "red-6a went off the board, put back on the board"),
    ({"kind": "lost_turn", "ship": "red-6a", "reason": "off_board"}, "red-6a will lose its next move (off the board)"),
    ({"kind": "seized", "ship": "green-12", "port": "Eyl", "ransom": 3, "with_partner_of": "red-8"},
     "pirates of Eyl seized green-12, taken with red-8: green pays 3 points ransom"),
    ({"kind": "released", "ship": "green-12", "port": "Eyl", "at": [0.4, 0.3]},
     "pirates of Eyl released green-12, set down clear of every die"),
    ({"kind": "tipped", "ship": "red-8", "value_before": 2, "value_after": 2}, "red-8 tipped over (onto another face of 2 pips)"),
    ({"kind": "fulfilled", "seat": 1, "card": "46S", "route": "africa", "points": 23.0},
     "green fulfilled 46S via open ocean: +23 points"),
    ({"kind": "round_end", "round": 2, "sheets": [{"seat": 0, "points": 45.0}, {"seat": 1, "points": -3.0}]},
     "scores after round 2: red 45; green -3 points"),
    ({"kind": "deal", "offer": []}, None),
])
def test_each_event_has_one_sentence(event, words):
    assert sentence(event, NAMES) == words


def test_R19_D13_a_ship_put_back_that_arrives_at_once_is_not_said_to_lose_a_turn():
    # off_board_arrival = "same_throw": the rules write replaced and arrived, and no lost_turn (rules/roll.py)
    events = [{"kind": "replaced", "ship": "red-6a"}, {"kind": "arrived", "ship": "red-6a", "route": "africa",
                                                         "direction": "south"}]
    told = [sentence(e, NAMES) for e in events]
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
            if kind in TOLD:
                turn = next(e["turn"] for e in step.prelude + step.events if sentence(e, story.names) == text)
                assert f"  turn {turn}: {text}" in told
                shown += 1
    assert shown >= 10
