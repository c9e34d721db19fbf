"""Issue 18 item 13: a tip-over onto a face with as many pips is told as such, not as "tipped over (3 -> 3)".

D12 (`tipped_over = "top_face"`) counts a die as tipped when its top face changes, even to another face with the
same pips; `play`'s and `study replay`'s account, and the replays' captions (the same words, engine/phrases.py),
say "onto another face of 3 pips" then, and "3 -> 5 pips up" when the pips changed.
"""

import pytest
from replay_fixtures import lines, record_game

from somaliland.engine.account import account
from somaliland.engine.events import Stamped
from somaliland.engine.phrases import Names, sentence
from somaliland.rules.events import Tipped


@pytest.mark.parametrize("before, after, words", [
    (3, 3, "red-8 tipped over (onto another face of 3 pips)"),
    (1, 1, "red-8 tipped over (onto another face of 1 pip)"),
    (3, 5, "red-8 tipped over (3 -> 5 pips up)"),
])
def test_a_tip_over_says_whether_the_pips_changed(before, after, words):
    assert sentence(Stamped(1, 2, Tipped("red-8", before, after)), Names.from_header({"seats": [], "map": {}})) == words


def test_the_account_of_a_game_with_a_tip_onto_as_many_pips_never_says_3_to_3(tmp_path):
    events = lines(record_game(tmp_path / "game.jsonl", rounds=1))
    at, hit = next((i, e) for i, e in enumerate(events) if e["kind"] == "collision")
    events.insert(at + 1, {"kind": "tipped", "round": hit["round"], "turn": hit["turn"], "ship": hit["b"],
                           "value_before": 3, "value_after": 3})  # the line the rules write for such a tip
    told = account(events)
    assert f"  turn {hit['turn']}: {hit['b']} tipped over (onto another face of 3 pips)" in told
    assert not any("3 -> 3" in line for line in told)
