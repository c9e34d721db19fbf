"""The record's vocabulary (engine/events.py) on real games: every line decodes to its typed event and encodes
back to the very same text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from somaliland.engine.events import (KINDS, Deal, EventError, Header, Planned, Stamped, Thrown, TurnBegun, decode,
                                      encode)
from somaliland.engine.fold import replay_state
from somaliland.engine.loop import GameResult, play_game
from somaliland.engine.record import RecordError, RecordWriter, dumps, read_record
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig
from somaliland.rules.events import Grounded, Seized

TINY = Path(__file__).resolve().parents[1] / "maps" / "tiny.toml"
GAMES = {  # name -> (map, strategies, seed, record paths): real players, real physics, 4 seats
    "default": (DEFAULT_MAP, "ev", 1, True),
    "tiny": (TINY, "cautious,bold,ev,ev", 2, True),
    "tiny-no-paths": (TINY, "ev", 3, False),
}


@pytest.fixture(scope="module")
def games(roller, tmp_path_factory) -> dict[str, tuple[Path, GameResult]]:
    """Play each game of GAMES once, writing its record; return its file and result."""
    out = {}
    for name, (map_file, strategies, seed, paths) in GAMES.items():
        setup = GameSetup(seed=seed, seats=seats_from(strategies.split(","), 4, ThrowSkill.level(0.6)),
                          rules=RulesConfig(players=4), map_path=map_file, record_paths=paths)
        path = tmp_path_factory.mktemp("records") / f"{name}.jsonl"
        with RecordWriter(path) as writer:
            out[name] = path, play_game(setup, load(map_file), roller, sink=writer)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_line_of_a_real_game_decodes_and_encodes_to_the_same_text(games, name):
    path, _ = games[name]
    kinds = set()
    for text in path.read_text().splitlines():
        stamped = decode(json.loads(text))
        assert dumps(encode(stamped)) == text
        kinds.add(stamped.event.kind)
    assert {"game", "deal", "draft_pick", "plan", "turn", "throw", "launched", "round_end", "final"} <= kinds


def test_the_games_told_every_kind_the_seizures_included(games):
    kinds = {decode(json.loads(t)).event.kind for path, _ in games.values() for t in path.read_text().splitlines()}
    assert "seized" in kinds and "arrived" in kinds and "fulfilled" in kinds  # the codec had work to do
    assert kinds <= set(KINDS)


def test_decoded_lines_are_typed_events(games):
    path, _ = games["default"]
    events = [decode(json.loads(t)) for t in path.read_text().splitlines()]
    assert isinstance(events[0].event, Header) and events[0].event.colours == ("red", "green", "yellow", "blue")
    deal = next(s.event for s in events if isinstance(s.event, Deal))
    assert len(deal.offer) == 9 and all(str(card)[-1] in "NS" for card in deal.offer)  # R4
    plan = next(s.event for s in events if isinstance(s.event, Planned))
    assert all(isinstance(p.ships, tuple) for p in plan.plans)
    throw = next(s.event for s in events if isinstance(s.event, Thrown))
    assert throw.result.thrown.name == throw.ship == throw.intended.die
    assert any(isinstance(s.event, TurnBegun) and s.round == 1 and s.turn == 1 for s in events)


def test_a_record_without_paths_reencodes_without_them(games):
    path, _ = games["tiny-no-paths"]
    throws = [json.loads(t) for t in path.read_text().splitlines() if '"kind":"throw"' in t]
    assert throws and all("paths" not in t["result"] for t in throws)
    assert all(not decode(t).event.with_paths for t in throws)


def test_the_events_the_loop_told_are_the_ones_its_record_reads_back(games):
    path, result = games["tiny-no-paths"]  # as a study plays: the study's tables read `told`, not the record
    assert result.told == [decode(json.loads(t)) for t in path.read_text().splitlines()]
    assert len(result.told) == len(result.events)


@pytest.mark.parametrize("line, message", [
    ({"kind": "landed", "round": 1, "turn": 1}, "unknown kind 'landed'"),
    ({"kind": "turn", "turn": 1}, "\"round\" should be a whole number"),
    ({"kind": "seized", "round": 1, "turn": 2, "ship": "red-6a", "port": "Eyl", "distance": "far", "ransom": 3},
     "\"distance\" should be a number, found 'far'"),
    ({"kind": "deal", "round": 1, "turn": 0, "first_player": 0, "offer": ["46X"]},
     "\"offer[0]\" should name a contract card like \"46N\", found '46X'"),
    ({"kind": "arrived", "round": 1, "turn": 3, "ship": "red-6a", "route": "somalia"}, "lacks \"direction\""),
])
def test_a_line_that_is_no_event_is_refused_naming_the_field(line, message):
    with pytest.raises(EventError, match=message.replace("[", r"\[").replace("(", r"\(")):
        decode(line)


def test_an_event_built_in_code_encodes_as_the_record_writes_it():
    line = encode(Stamped(2, 4, Seized("red-6a", "Eyl", 0.125, 4)))
    assert line == {"kind": "seized", "round": 2, "turn": 4, "ship": "red-6a", "port": "Eyl", "distance": 0.125,
                    "ransom": 4, "with_partner_of": ""}
    assert decode(line).event == Seized("red-6a", "Eyl", 0.125, 4)


# -- the fold (engine/fold.py) ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_the_fold_of_a_real_record_ends_in_the_engines_final_state(games, name):
    path, result = games[name]
    lines = read_record(path)
    moments = list(replay_state(lines, load(GAMES[name][0]), str(path)))
    assert [m.line for m in moments] == list(range(1, len(lines) + 1))
    assert [encode(Stamped(m.round, m.turn, m.event)) for m in moments] == lines
    assert moments[-1].state == result.state  # scores, fleets (the sunk included), deck: every field
    table = {row["seat"]: row["points"] for row in lines[-1]["table"]}
    assert [s.points for s in moments[-1].state.sheets] == [table[seat] for seat in range(4)]


def test_each_throw_leaves_its_ship_where_the_record_says_it_came_to_rest(games):
    path, _ = games["default"]
    moments = list(replay_state(read_record(path), load(DEFAULT_MAP)))
    for k, m in enumerate(moments):
        if isinstance(m.event, Thrown):
            ship = m.state.ship(m.event.ship)
            rest = m.event.result.thrown
            told = []
            for later in moments[k + 1:]:
                if isinstance(later.event, Thrown):
                    break
                told.append(later.event)
            set_down = {e.ship: e.at for e in told if isinstance(e, Grounded) and e.crossed is not None}
            if m.event.ship in set_down:  # D19: set down where it crossed the coast, as the record says
                assert ship.pose.position[:2] == set_down[m.event.ship]
                continue
            assert ship.pose is None or ship.pose.position == rest.position or m.event.ship in {
                o.name for o in m.event.result.off_board}  # sunk (R18) or put back (R19)


def _edited(path: Path, tmp_path: Path, edit) -> tuple[Path, int]:
    lines = read_record(path)
    number = edit(lines)
    out = tmp_path / "edited.jsonl"
    out.write_text("".join(dumps(line) + "\n" for line in lines))
    return out, number


def _first(lines: list[dict], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if line["kind"] == kind)


def _ransom(lines):
    k = _first(lines, "seized")
    lines[k]["ransom"] += 1
    return k + 1


def _drop_launch(lines):
    k = _first(lines, "launched")
    del lines[k]
    return k + 1  # the line after the throw now stands where the launch should


def _wrong_seat(lines):
    k = _first(lines, "draft_pick")
    lines[k]["seat"] = (lines[k]["seat"] + 1) % 4
    return k + 1


@pytest.mark.parametrize("edit, words", [(_ransom, "the record says Seized"), (_drop_launch, "the rules make Launched"),
                                         (_wrong_seat, "the rules refuse it")])
def test_a_record_the_rules_do_not_make_is_refused_at_its_line(games, tmp_path, edit, words):
    path, number = _edited(games["tiny"][0], tmp_path, edit)
    with pytest.raises(RecordError, match=f"line {number}: .*{words}"):
        list(replay_state(read_record(path), load(TINY), str(path)))
