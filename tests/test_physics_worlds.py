"""One Bullet world per game (`SimSettings.world = "per_game"`): a game's rolls share a world, so a roll depends
on the game's rolls before it; the game itself stays deterministic from its seed, whatever ran before it, and
its record re-plays and re-simulates. Rolls on another board (the AI's calibration lab) never touch it."""

import hashlib
import json

import pytest

from physics import DieSpec, PhysicsError, PlacedDie, Pose, Scene, SimSettings, make_roller
from replay_fixtures import lines, write_lines
from scripted import scripted_factory
from somaliland.bench import midgame_scene, midgame_throws
from somaliland.cli.main import main
from somaliland.engine.loop import play_game
from somaliland.engine.record import RecordWriter
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, Seat, seats_from
from somaliland.engine.verify import verify_record
from somaliland.map import load
from somaliland.players import calibration
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig

WORLD = load(DEFAULT_MAP)
PER_GAME = SimSettings(world="per_game")
PER_ROLL = SimSettings(world="per_roll")
CUBE = DieSpec()


def digest(result) -> str:
    return hashlib.sha256(json.dumps(result.events[1:], sort_keys=True, default=str).encode()).hexdigest()


def ev_game(seed: int):
    return GameSetup(seed=seed, seats=seats_from(["ev"], 2, ThrowSkill.level(0.75)),
                     rules=RulesConfig(players=2, rounds=1), physics=PER_GAME)


def test_a_game_in_one_world_plays_the_same_whatever_was_played_before_it():
    calibration._CACHE.clear()  # the first game below calibrates the AI (lab rolls) in the middle of its turns
    with make_roller(PER_GAME) as roller:
        first = [digest(play_game(ev_game(s), WORLD, roller)) for s in (21, 22)]
    with make_roller(PER_GAME) as roller:
        again = [digest(play_game(ev_game(s), WORLD, roller)) for s in (22, 21)][::-1]
    assert first == again


def test_rolls_share_the_games_world_and_a_lab_roll_leaves_it_alone():
    scene = midgame_scene(WORLD.board(), CUBE)
    one, two = midgame_throws(CUBE, 2, seed=4)
    lab = Scene(calibration._LAB, (PlacedDie("lab", CUBE, Pose.resting(CUBE, 0.3, 0.3)),))
    with make_roller(PER_GAME) as roller:
        roller.new_game(scene.board)
        roller.roll(scene, one)
        plain = roller.roll(scene, two)
    with make_roller(PER_GAME) as roller:
        roller.new_game(scene.board)
        roller.roll(scene, one)
        roller.roll(lab, lab_throw())
        interrupted = roller.roll(scene, two)
    assert interrupted == plain
    with make_roller(PER_GAME) as roller:  # a new game starts a fresh world: the same roll as per roll
        roller.new_game(scene.board)
        fresh_two = roller.roll(scene, two)
    with make_roller() as roller:
        assert roller.roll(scene, two) == fresh_two


def lab_throw():
    from physics import Throw

    return Throw("lab", (0.3, 0.3), 0.5, 0.8, (0.0, 0.0, 0.0), 0.02)


def test_a_failed_roll_leaves_the_next_one_a_fresh_world(monkeypatch):
    import physics.bullet as bullet

    scene = midgame_scene(WORLD.board(), CUBE)
    throw = midgame_throws(CUBE, 1, seed=4)[0]
    with make_roller(PER_GAME) as roller:
        roller.new_game(scene.board)
        with monkeypatch.context() as m:
            m.setattr(bullet, "roll_result", lambda roll, cap_hit: (_ for _ in ()).throw(PhysicsError("boom")))
            with pytest.raises(PhysicsError, match="boom"):
                roller.roll(scene, throw)
        after = roller.roll(scene, throw)
    with make_roller(PER_GAME) as roller:
        roller.new_game(scene.board)
        assert roller.roll(scene, throw) == after


def test_a_game_played_in_one_world_verifies_and_re_simulates(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    setup = GameSetup(seed=11, seats=(Seat("africa"), Seat("somalia")), rules=RulesConfig(players=2, rounds=2),
                      physics=PER_GAME)
    with RecordWriter(record) as writer:
        play_game(setup, WORLD, None, scripted_factory, sink=writer)
    assert lines(record)[0]["physics"]["world"] == "per_game"
    assert verify_record(record, factory=scripted_factory).ok
    events = lines(record)
    for event in events:
        if event["kind"] == "throw":
            event["result"].pop("paths")
    bare = write_lines(tmp_path / "bare.jsonl", events)
    last_round = max(e["round"] for e in events if e["kind"] == "throw")
    assert main(["replay", str(bare), "--round", str(last_round), "--check", "--top-down",
                 str(tmp_path / "r.png")]) == 0
    throws = sum(1 for e in events if e["kind"] == "throw" and e["round"] == last_round)
    assert f"Checked {throws} throws by re-simulating: each came to rest where the record says" in capsys.readouterr().out


def test_lookahead_rolls_in_one_world_are_re_simulated_whole_only(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    seats = tuple(Seat("ev", ThrowSkill.level(0.75), (("rolls", 1),)) for _ in range(2))
    with RecordWriter(record) as writer:
        play_game(GameSetup(seed=5, seats=seats, rules=RulesConfig(players=2, rounds=1), physics=PER_GAME), WORLD,
                  sink=writer)
    assert main(["replay", str(record), "--round", "1", "--check", "--top-down", str(tmp_path / "r.png")]) == 0
    assert "cannot be re-simulated one by one: use `somaliland verify" in capsys.readouterr().err


def test_calibration_rolls_on_its_own_roller_when_the_games_keep_a_world(monkeypatch):
    """The lab's rolls never enter a kept world, even a game on a board equal to the lab's (where the board
    check alone would let them in); per roll, calibration keeps using the roller it is given."""
    calls = []
    with make_roller(PER_GAME) as kept, make_roller(PER_ROLL) as per_roll:
        for roller in (kept, per_roll):
            roll = roller.roll
            monkeypatch.setattr(roller, "roll", lambda scene, throw, roll=roll, who=roller: calls.append(who) or
                                roll(scene, throw))
        calibration._CACHE.clear()
        kept.new_game(calibration._LAB)
        calibration.calibrate(kept, CUBE.size[0], CUBE.mass)
        assert calls == []
        calibration.calibrate(per_roll, CUBE.size[0], CUBE.mass)
        assert len(calls) == calibration.SAMPLE_ROLLS and set(calls) == {per_roll}


def test_the_step_clock_times_bullets_steps_and_changes_no_roll():
    """`step_clock` (what `bench game` reports as the physics floor) counts every step a roll takes and leaves the
    roll's result as it is, bit for bit."""
    from physics.world import step_clock

    scene = midgame_scene(WORLD.board(), CUBE)
    throws = midgame_throws(CUBE, 3, seed=5)
    with make_roller(SimSettings()) as roller:
        plain = [roller.roll(scene, t) for t in throws]
        with step_clock() as clock:
            timed = [roller.roll(scene, t) for t in throws]
    assert timed == plain
    assert clock.steps == sum(r.steps for r in plain) and clock.seconds > 0


def test_a_closed_roller_leaves_no_client_for_bullets_finaliser_and_exit_disconnects_the_rest(monkeypatch):
    """A client disconnected by `close` is marked (id -1), so `BulletClient.__del__` does not disconnect it again
    during interpreter shutdown (where that printed "Exception ignored ... TypeError"); one still open at exit is
    disconnected by the exit hook, a closed one is not touched twice. The hook is run on this test's client
    alone: run on the process's whole set it would close the rollers other tests keep cached."""
    import weakref

    from physics import world

    roller = make_roller(SimSettings())
    clients = [roller._p]
    roller.close()
    assert [c._client for c in clients] == [-1]
    left_open = world.connect()
    assert left_open in world._OPEN and left_open.isConnected()
    monkeypatch.setattr(world, "_OPEN", weakref.WeakSet([left_open]))
    world._disconnect_all()
    assert left_open._client == -1 and left_open not in world._OPEN
    world.disconnect(left_open)  # twice: nothing to do


def test_a_record_made_before_the_world_setting_is_re_simulated_a_world_per_roll(tmp_path):
    """Records written before `world` existed name no world: their rolls each had a fresh world, and still verify
    with one world per game the default."""
    from somaliland.engine.record import decode_at, read_record
    from somaliland.engine.setup import setup_from_header

    record = tmp_path / "game.jsonl"
    setup = GameSetup(seed=11, seats=(Seat("africa"), Seat("somalia")), rules=RulesConfig(players=2, rounds=2),
                      physics=PER_ROLL)
    with RecordWriter(record) as writer:
        play_game(setup, WORLD, None, scripted_factory, sink=writer)
    events = lines(record)
    del events[0]["physics"]["world"]
    old = write_lines(tmp_path / "old.jsonl", events)
    head = decode_at(read_record(old)[0], 1, str(old)).event
    assert setup_from_header(head, str(old)).physics == PER_ROLL
    assert SimSettings().world == "per_game"
    assert verify_record(old, factory=scripted_factory).ok


def test_after_its_game_a_roller_rolls_each_roll_in_a_fresh_world_again():
    """A game played out ends its world (`new_game(None)`): a roll outside any game on the same roller is the roll a
    fresh world gives, whatever the game rolled before it."""
    scene = midgame_scene(WORLD.board(), CUBE)
    throw = midgame_throws(CUBE, 1, seed=6)[0]
    with make_roller(PER_ROLL) as fresh:
        alone = fresh.roll(scene, throw)
    with make_roller(PER_GAME) as roller:
        play_game(ev_game(23), WORLD, roller)
        assert roller._kept is None
        assert roller.roll(scene, throw) == alone


def test_a_game_abandoned_while_the_next_one_plays_leaves_that_ones_world_alone():
    """An environment reset drops a game mid-way; whenever it is collected, the game playing then keeps its world."""
    from somaliland.engine.loop import default_factory, game_steps, seat_policy

    def four(seed):
        return GameSetup(seed=seed, seats=seats_from(["ev"], 4, ThrowSkill.level(0.75)),
                         rules=RulesConfig(players=4), physics=PER_GAME)

    with make_roller(PER_GAME) as roller:
        alone = digest(play_game(four(31), WORLD, roller))
        dropped = game_steps(four(30), WORLD, roller)
        next(dropped)  # begun: its world made, then left mid-game
        setup = four(31)
        policies = [seat_policy(s, roller, default_factory) for s in setup.seats]
        steps, answer, asked = game_steps(setup, WORLD, roller), None, 0
        while True:
            try:
                request = steps.send(answer)
            except StopIteration as done:
                result = done.value
                break
            asked += 1
            if asked == 30:
                kept = roller._kept
                dropped.close()  # collected now, in the middle of the other game
                assert roller._kept is kept is not None  # the playing game's world, still kept
            answer = request.ask(policies[request.seat])
    assert asked > 30 and digest(result) == alone
