"""The fast fidelity (`SimSettings.fidelity = "fast"`, physics/fast.py): a lone die's roll across open, flat board
comes from a library of Bullet rolls; anything that could touch another die, an edge or relief is simulated in
full. Deterministic, exact through its cache file, statistically like full physics, and games verify."""

import math

import numpy as np
import pytest

import physics.fast as fast
from physics import (Board, DieSpec, Materials, PhysicsInputError, PlacedDie, Pose, Prism, Scene, SimSettings,
                     Style, Throw, make_roller)
from physics.fast import CUBE_ROTATIONS, FastRoller, cube_symmetry
from physics.tipping import push_face_up
from somaliland.engine.loop import play_game
from somaliland.engine.record import RecordWriter
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.engine.verify import verify_record
from somaliland.map import load
from somaliland.players.calibration import tumble_spin
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig

FAST = SimSettings(fidelity="fast")
CUBE = DieSpec(faces=(1, 6, 2, 5, 3, 4), size=(0.016,) * 3, mass=0.004)
BOARD = Board()


def lone(x=0.375, y=0.45, face=4, yaw=0.3, *others):
    return Scene(BOARD, (PlacedDie("d", CUBE, Pose.resting(CUBE, x, y, face_up=face, yaw=yaw)), *others))


def roll_throw(heading=0.4, speed=1.0, origin=(0.375, 0.45), tumble=0.05):
    return Throw("d", origin, heading, speed, tumble_spin(0.016, tumble, heading, speed), 0.01)


def test_the_fidelity_is_a_named_setting_and_make_roller_follows_it():
    with make_roller(FAST) as roller:
        assert isinstance(roller, FastRoller) and roller.settings == FAST
    with make_roller() as roller:
        assert not isinstance(roller, FastRoller)
    with pytest.raises(PhysicsInputError, match="fidelity"):
        SimSettings(fidelity="quick")


def test_the_cube_has_24_symmetries_and_the_nearest_is_found():
    assert len(set(CUBE_ROTATIONS)) == 24
    for c in CUBE_ROTATIONS:
        assert math.isclose(sum(x * x for x in c), 1.0)
    q = (0.02, -0.01, math.sin(0.8), math.cos(0.8))  # a quarter turn about z, a little off
    assert cube_symmetry(q) == pytest.approx((0.0, 0.0, math.sqrt(0.5), math.sqrt(0.5)))


def test_a_lone_roll_in_open_sea_comes_from_the_library_and_is_deterministic_through_its_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SOMALILAND_CACHE", str(tmp_path))
    monkeypatch.setattr(fast, "_LIBRARIES", {})
    with make_roller(FAST) as roller:
        first = roller.roll(lone(), roll_throw())
        assert (roller.fast_rolls, roller.full_rolls) == (1, 0)
    assert len(list((tmp_path / "throws").glob("*.npz"))) == 1
    monkeypatch.setattr(fast, "_LIBRARIES", {})  # a new process: reads the file instead of rolling
    with make_roller(FAST) as roller:
        assert roller.roll(lone(), roll_throw()) == first
    rest = first.thrown
    assert rest.tilt_deg < 1.0 and not rest.cocked and math.isclose(rest.position[2], 0.008, abs_tol=2e-4)
    assert rest.face_value == CUBE.faces[rest.face_index]
    assert first.contacts == () and first.tipovers == () and first.off_board == ()
    assert first.path.positions[0][:2] == pytest.approx((0.375, 0.45), abs=1e-9)
    (x, y, _), h = rest.position, 0.4
    assert (x - 0.375) * math.cos(h) + (y - 0.45) * math.sin(h) > 0.05  # it went the way it was thrown


def test_a_damaged_cache_file_is_rolled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("SOMALILAND_CACHE", str(tmp_path))
    monkeypatch.setattr(fast, "_LIBRARIES", {})
    with make_roller(FAST) as roller:
        first = roller.roll(lone(), roll_throw())
    (path,) = (tmp_path / "throws").glob("*.npz")
    whole = path.read_bytes()
    path.write_bytes(whole[:100])
    monkeypatch.setattr(fast, "_LIBRARIES", {})
    with make_roller(FAST) as roller:
        assert roller.roll(lone(), roll_throw()) == first
    assert path.read_bytes() == whole  # rolled again and kept again, not read from the damaged file


def test_a_roll_that_could_touch_another_die_an_edge_or_relief_is_simulated_in_full():
    near = PlacedDie("e", CUBE, Pose.resting(CUBE, 0.375 + 0.1 * math.cos(0.4), 0.45 + 0.1 * math.sin(0.4)))
    raised = Board(relief=(Prism(((0.45, 0.40), (0.60, 0.40), (0.60, 0.60), (0.45, 0.60)), 0.002),))
    cases = [
        (lone(0.375, 0.45, 4, 0.3, near), roll_throw()),  # a die on its way
        (lone(0.70, 0.45), roll_throw(heading=0.0, origin=(0.70, 0.45))),  # towards the east edge
        (Scene(raised, lone().dice), roll_throw()),  # towards raised land
        (lone(), Throw("d", (0.375, 0.45), 0.4, 1.0, (0.0, 0.0, 5.0), 0.01)),  # spinning about the vertical
        (lone(), roll_throw(speed=4.0)),  # faster than the library
    ]
    with make_roller(FAST) as quick, make_roller() as full:
        for scene, throw in cases:
            assert quick.roll(scene, throw) == full.roll(scene, throw)
        assert (quick.fast_rolls, quick.full_rolls) == (0, len(cases))


def test_a_push_comes_from_the_library_and_tips_the_die_as_a_push_does():
    with make_roller(FAST) as roller:
        for style, quarters in ((Style.QUARTER, 1), (Style.HALF, 2)):
            throw = Throw("d", (0.375, 0.45), 1.1, 0.0, (0.0, 0.0, 0.0), 0.0, None, style)
            scene = lone(face=2, yaw=0.2)
            result = roller.roll(scene, throw)
            assert result.thrown.face_index == push_face_up(scene.dice[0].pose.orientation, 1.1, quarters)
            moved = math.dist(result.thrown.position[:2], (0.375, 0.45))
            assert moved == pytest.approx(0.016 * quarters, rel=0.35)
        assert roller.fast_rolls == 2


def test_lone_rolls_are_like_full_physics_in_reach_scatter_and_faces():
    rng = np.random.default_rng(5)
    got = {"full": [], "fast": []}
    with make_roller(FAST) as quick, make_roller() as full:
        for _ in range(120):
            v, h = float(rng.uniform(0.6, 1.4)), float(rng.uniform(0, 2 * math.pi))
            scene = lone(0.375, 0.45, int(rng.integers(6)), float(rng.uniform(0, 6.3)))
            throw = roll_throw(heading=h, speed=v, tumble=0.05 * math.exp(float(rng.normal(0, 0.1))))
            for name, roller in (("full", full), ("fast", quick)):
                x, y, _ = roller.roll(scene, throw).thrown.position
                got[name].append(((x - 0.375) * math.cos(h) + (y - 0.45) * math.sin(h),
                                  -(x - 0.375) * math.sin(h) + (y - 0.45) * math.cos(h)))
        assert quick.fast_rolls == 120
    full_, fast_ = np.array(got["full"]), np.array(got["fast"])
    se = math.sqrt(full_[:, 0].var() / 120 + fast_[:, 0].var() / 120)
    assert abs(full_[:, 0].mean() - fast_[:, 0].mean()) < 3 * se  # the same reach
    assert 0.7 < fast_[:, 0].std() / full_[:, 0].std() < 1.4  # the same spread along
    assert 0.6 < np.sqrt((fast_[:, 1] ** 2).mean() / (full_[:, 1] ** 2).mean()) < 1.6  # and across


def test_a_fast_game_is_deterministic_and_verifies(tmp_path):
    world = load(DEFAULT_MAP)
    setup = GameSetup(seed=31, seats=seats_from(["ev"], 2, ThrowSkill.level(0.75)),
                      rules=RulesConfig(players=2, rounds=1), physics=FAST)
    record = tmp_path / "game.jsonl"
    with RecordWriter(record) as writer:
        first = play_game(setup, world, None, sink=writer)
    with make_roller(FAST) as roller:
        again = play_game(setup, world, roller)
        assert roller.fast_rolls > 0 and roller.full_rolls > 0
    assert first.events[1:] == again.events[1:]
    assert first.events[0]["physics"]["fidelity"] == "fast"
    assert verify_record(record).ok


def test_materials_and_die_mass_make_their_own_library():
    a = fast.library(CUBE, Materials(), FAST, ("push", "quarter"))
    b = fast.library(DieSpec(faces=CUBE.faces, size=CUBE.size, mass=0.006), Materials(), FAST, ("push", "quarter"))
    assert a is not b and a is fast.library(CUBE, Materials(), SimSettings(fidelity="fast", world="per_game"),
                                              ("push", "quarter"))


def test_a_players_practice_is_full_physics_at_either_fidelity():
    from physics import practice_roller, practice_settings
    from somaliland.players.calibration import calibrate

    assert practice_settings(FAST) == SimSettings() and practice_settings(SimSettings()) == SimSettings()
    with make_roller(FAST) as quick, make_roller() as full:
        with practice_roller(quick) as lab:
            assert not isinstance(lab, FastRoller) and lab.settings == SimSettings()
        assert calibrate(quick, 0.016, 0.004) is calibrate(full, 0.016, 0.004)  # one model, rolled in full
