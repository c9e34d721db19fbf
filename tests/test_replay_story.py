"""Replay stories: steps and board state follow the record exactly; edited, truncated or foreign records
are refused or flagged with the line named; navigation and path interpolation give exact values."""

import math

import numpy as np
import pytest
from replay_fixtures import lines, record_game, write_lines

from somaliland.cli.main import main
from somaliland.engine.events import decode
from somaliland.engine.record import RecordError
from somaliland.replay import cursor
from somaliland.replay.captions import happened
from somaliland.replay.motion import poses_at, sample, slerp
from somaliland.replay.story import load_story
from somaliland.rules.events import Grounded, Released, Replaced, Seized, Sunk


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return record_game(tmp_path_factory.mktemp("replay") / "game.jsonl")


@pytest.fixture(scope="module")
def story(record):
    return load_story(record)


def test_every_throw_is_a_step_and_ends_at_its_recorded_rest(record, story):
    throws = [(n, e) for n, e in enumerate(lines(record), start=1) if e["kind"] == "throw"]
    steps = [s for s in story.steps if s.kind == "throw"]
    assert [s.line for s in steps] == [n for n, _ in throws]
    for step, (_, event) in zip(steps, throws):
        assert step.ship == event["ship"] and step.seat == event["seat"]
        put = {m.event.ship for m in step.events if isinstance(m.event, (Replaced, Sunk))  # moved again by the rules
               or isinstance(m.event, Grounded) and m.event.crossed is not None}  # D19: set down where it crossed
        for rest in event["result"]["moved"]:
            if rest["name"] not in put:
                assert step.after[rest["name"]] == pytest.approx((*rest["position"], *rest["orientation"]), abs=1e-12)
        assert put or len(step.after) == len(step.before) + (step.ship not in step.before)
        assert step.duration == max(p["times"][-1] for p in event["result"]["paths"])


def test_each_path_starts_where_the_story_left_its_die(story):
    # an untouched record gives no path warning: the board the story follows is the board the game had
    assert not [w for w in story.warnings if "path starts" in w]
    pushed = [(s, t) for s in story.steps for t in s.tracks[1:]]
    assert pushed, "the fixture game should have a collision that pushes a lying die"
    for step, track in pushed:
        assert math.dist(step.before[track.name][:3], track.positions[0]) < 5e-6


def test_pirates_set_the_seized_ship_down_at_their_port(story):
    raids = [s for s in story.steps if s.kind == "pirates"]
    assert raids
    ports = {p.name: p.point for p in story.world.pirate_ports}
    seized = [(raid, m.event) for raid in raids for m in raid.events if isinstance(m.event, Seized)]
    assert seized, "the fixture game should have a ship seized"
    for raid, event in seized:
        x, y = raid.after[event.ship][:2]
        # set down at the port, or on the first ring around it when other dice lie there (placement.py)
        assert math.dist((x, y), ports[event.port]) <= 1.5 * story.die_size + 1e-9


def test_D17_a_released_ship_is_set_down_between_steps_where_the_record_says(story):
    released = [(step, m.event) for step in story.steps for m in step.prelude
                if isinstance(m.event, Released) and m.round == step.round]
    assert released, "the fixture game should have a ship released by the pirates within a round"
    for step, event in released:
        # the release comes before this step: the board it starts from has the ship where it was set down
        assert step.before[event.ship][:2] == tuple(event.at)
        assert (f"pirates of {event.port} released {event.ship}, set down clear of every die"
                in happened(story, step, False))


def test_a_new_round_starts_with_an_empty_board(story):
    first = story.steps[story.select(2)[0]]
    assert not first.before


def test_an_untouched_record_of_this_version_warns_only_about_the_map_if_it_changed(story):
    assert all("differs from the one the game was played on" in w for w in story.warnings)


def test_other_version_and_other_map_are_said(record, tmp_path):
    events = lines(record)
    events[0]["version"] = "0.0.1"
    events[0]["map"]["sha256"] = "0" * 64
    story = load_story(write_lines(tmp_path / "old.jsonl", events))
    assert any("recorded by somaliland 0.0.1" in w for w in story.warnings)
    assert any("differs from the one the game was played on" in w and "recorded 000000000000" in w
               for w in story.warnings)


def test_a_record_replayed_on_another_map_blames_that_map_naming_both(record, tmp_path, capsys):
    """A map chosen with --map that is not the game's: the line where the game parts from it names the map used
    and the record's, each with its sha256, not an edit or other rules."""
    from somaliland.map import load

    tiny, played = load("tiny"), load_story(record).world
    with pytest.raises(RecordError) as refused:
        load_story(record, tiny)
    message = str(refused.value)
    assert (f"the map used, {tiny.source} (\"Tiny\", sha256 {tiny.sha256[:12]}), is not the map the game was "
            f"played on, {played.source} (\"{played.name}\", sha256 {played.sha256[:12]})") in message
    assert "edited" not in message and "other rules" not in message
    page = tmp_path / "x.html"
    assert main(["replay", str(record), "--map", "tiny", "--html", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not the map the game was played on" in err and not page.exists()


def test_an_edited_record_on_its_own_map_is_still_called_edited(record, tmp_path):
    events = lines(record)
    k = next(i for i, e in enumerate(events) if e["kind"] == "grounded")
    events[k]["at"][0] += 0.01
    with pytest.raises(RecordError, match=f"line {k + 1}: grounded line: .*edited, or made by other rules"):
        load_story(write_lines(tmp_path / "edited.jsonl", events))


def test_a_moved_path_start_is_flagged_with_its_line(record, tmp_path):
    events = lines(record)
    k = next(i for i, e in enumerate(events) if e["kind"] == "throw" and len(e["result"]["paths"]) > 1)
    events[k]["result"]["paths"][1]["positions"][0][0] += 0.01
    story = load_story(write_lines(tmp_path / "edited.jsonl", events))
    assert any(f"line {k + 1}:" in w and "path starts 10.0 mm" in w for w in story.warnings)


@pytest.mark.parametrize("edit, message", [
    (lambda e: e["result"].pop("moved"), "lacks \"result.moved\""),
    (lambda e: e.__setitem__("ship", "purple-24"), "the rules refuse it: illegal throw: purple-24 may not be thrown"),
    (lambda e: e["result"]["moved"][0].__setitem__("position", [0.1, "x", 0.0]),
     "\"result.moved[0].position[1]\" should be a number, found 'x'"),
    (lambda e: e["result"]["paths"][0].__setitem__("times", [0.0]),
     "should have as many times as positions"),
    (lambda e: e["result"]["moved"][0].__setitem__("orientation", [0, 0, 0, 3]), "orientation[3] = 3 is not allowed"),
])
def test_a_hand_edited_throw_line_is_refused_naming_the_line(record, tmp_path, edit, message):
    events = lines(record)
    k = next(i for i, e in enumerate(events) if e["kind"] == "throw")
    edit(events[k])
    with pytest.raises(RecordError) as error:
        load_story(write_lines(tmp_path / "edited.jsonl", events))
    assert f"line {k + 1}: throw line: " in str(error.value) and message in str(error.value)


def test_a_contract_planned_with_no_ship_is_read(record):
    plan = next(e for e in lines(record) if e["kind"] == "plan")
    plan["plans"].append({"card": "30N", "route": "africa", "ships": [], "ship_routes": []})
    assert decode(plan).event.plans[-1].ships == ()  # the rules decide whether it may (R10)


def test_a_seizure_into_an_unknown_port_is_refused(record, tmp_path):
    events = lines(record)
    k = next(i for i, e in enumerate(events) if e["kind"] == "seized")
    events[k]["port"] = "Atlantis"
    with pytest.raises(RecordError, match=rf"line {k + 1}: seized line: the record says Seized\(ship='[a-z0-9-]+', "
                                          rf"port='Atlantis'.*the rules make Seized\(.*port='"):
        load_story(write_lines(tmp_path / "edited.jsonl", events))


def test_a_truncated_record_fails_cleanly_on_the_command_line(record, tmp_path, capsys):
    text = record.read_text()
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: len(text) // 2])  # ends inside a line
    status = main(["replay", str(cut), "--round", "1", "-o", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    last = len(text[: len(text) // 2].splitlines())
    assert status == 2
    assert f"cut.jsonl, line {last}: not valid JSON" in err
    assert "Traceback" not in err and len(errors(err)) == 1


def test_a_record_cut_at_a_line_end_says_the_game_is_unfinished(record, tmp_path, capsys):
    events = lines(record)
    status = main(["replay", str(write_lines(tmp_path / "short.jsonl", events[:40])), "-o", str(tmp_path / "x.png")])
    assert status == 2
    assert "short.jsonl, line 40: the record ends before the game does" in capsys.readouterr().err


def test_asking_for_a_round_without_throws_lists_those_with_throws(record, tmp_path, capsys):
    assert main(["replay", str(record), "--round", "7", "-o", str(tmp_path / "x.png")]) == 2
    assert "no throws in round 7; rounds with throws: 1, 2" in capsys.readouterr().err


def test_cursor_moves_by_throw_turn_and_round(story):
    keys = [(s.round, s.turn) for s in story.steps]
    i = 3
    nxt = cursor.next_turn(story, i)
    assert keys[nxt] != keys[i] and keys[nxt - 1] == keys[i]
    assert cursor.previous_turn(story, nxt) == cursor.turn_start(story, i)
    assert cursor.turn_start(story, i) == keys.index(keys[i])
    assert cursor.round_start(story, 2) == keys.index(next(k for k in keys if k[0] == 2))
    assert cursor.next_step(story, len(keys) - 1) == len(keys) - 1
    assert cursor.previous_step(story, 0) == 0


def test_paths_interpolate_between_samples(story):
    step = next(s for s in story.steps if s.kind == "throw" and len(s.tracks[0].times) > 3)
    track = step.tracks[0]
    assert sample(track, track.times[2])[:3] == pytest.approx(track.positions[2])
    mid = sample(track, (track.times[1] + track.times[2]) / 2)
    assert mid[:3] == pytest.approx((track.positions[1] + track.positions[2]) / 2)
    assert np.linalg.norm(mid[3:]) == pytest.approx(1.0)
    assert poses_at(step, step.duration + 1) == step.after
    assert poses_at(step, 0.0)[step.ship][:3] == pytest.approx(track.positions[0])


def test_slerp_turns_halfway_about_one_axis():
    q0 = np.array([0.0, 0.0, 0.0, 1.0])
    q1 = np.array([0.0, 0.0, math.sin(math.pi / 4), math.cos(math.pi / 4)])  # 90 degrees about z
    half = slerp(q0, q1, 0.5)
    assert half == pytest.approx([0.0, 0.0, math.sin(math.pi / 8), math.cos(math.pi / 8)])


def errors(err):
    """Return stderr's lines other than warnings (the map file may change under a running test suite)."""
    return [line for line in err.strip().splitlines() if not line.startswith("somaliland replay: warning:")]


def test_a_rounds_end_after_a_turn_with_no_throw_and_no_seizure_is_told_with_its_last_step(tmp_path):
    """The quick start's own game (seed 7) ends with a turn in which no ship is thrown and no ship seized: its
    contracts, scores and final table come after the last step has closed, and must still be told (the HTML page
    showed no winner for it)."""
    from somaliland.engine.loop import play_game
    from somaliland.engine.record import RecordWriter
    from somaliland.engine.setup import GameSetup, seats_from
    from somaliland.map import default_map
    from somaliland.players.hand import ThrowSkill
    from somaliland.replay.html import game_data
    from somaliland.rules import RulesConfig

    path = tmp_path / "g7.jsonl"
    with RecordWriter(path) as writer:
        play_game(GameSetup(seed=7, seats=seats_from(["ev"], 4, ThrowSkill.level(0.75)), rules=RulesConfig()),
                  default_map(), sink=writer)
    story = load_story(path)
    told = [m.event.kind for step in story.steps for m in step.prelude + step.events]
    record = [e["kind"] for e in lines(path)]
    for kind in ("fulfilled", "failed", "round_end", "final"):
        assert told.count(kind) == record.count(kind), kind
    assert story.steps[-1].events[-1].event.kind == "final"
    assert game_data(story)["final"] is not None
