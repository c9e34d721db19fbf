"""Validation of the dice physics against mechanics, each with a fixed seed and a stated tolerance.

Every check rolls its throws as one game would: on a roller begun for a game on the scene's board and materials
(`new_game`), at this module's world (`WORLD`: a fresh Bullet world for every roll).
`test_physics_validation_one_world.py` runs the same checks with one world kept for all of a check's rolls
(`SimSettings.world = "per_game"`), so each of them passes in a world many rolls have used before.
"""

import math
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from physics import DieSpec, Materials, PlacedDie, Pose, Scene, SimSettings, Style, Throw, make_roller
from physics.tipping import critical_tip_rate, push_face_up, push_orientation
from physics.dice import lowest_point_offset, resting_orientation
from physics.lab import face_stats, vigorous_throw
from somaliland.bench import deepest_into_board, drop_rebound, midgame_scene, midgame_throws

CUBE = DieSpec()  # 16 mm, 4 g, faces 1..6
WORLD = "per_roll"


@pytest.fixture(scope="module")
def world():
    """Return how this module's rollers keep their Bullet worlds (`SimSettings.world`)."""
    return WORLD


@contextmanager
def game_roller(world, settings=SimSettings(), materials=None):
    """Yield a roller at these settings and `world`, begun for a game on the default board and these materials."""
    with make_roller(replace(settings, world=world)) as roller:
        roller.new_game(Scene().board, materials or Materials())
        yield roller


@pytest.fixture(scope="module")
def roller(world):
    with game_roller(world) as r:
        yield r


def lone(spec=CUBE, x=0.3, y=0.3, face=4, yaw=0.0, materials=None):
    die = PlacedDie("d", spec, Pose.resting(spec, x, y, face_up=face, yaw=yaw))
    return Scene(dice=(die,), materials=materials or Materials())


def test_critical_tip_rate_matches_energy_derivation():
    # 1/2 I_edge w^2 = m g a (sqrt(2) - 1) / 2 with I_edge = 2/3 m a^2 for a cube of edge a
    a, g = 0.016, 9.81
    expected = math.sqrt(3 * g * (math.sqrt(2) - 1) / (2 * a))
    assert expected == pytest.approx(19.5, abs=0.05)
    heading = 0.7
    squared = push_orientation(resting_orientation(4), heading)
    assert critical_tip_rate(CUBE, squared, heading) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("factor, tips", [(1.02, True), (0.98, False)])
def test_cube_spun_about_bottom_edge_tips_only_above_critical_rate(world, factor, tips):
    rng = np.random.default_rng(11)
    with game_roller(world, SimSettings(push_overdrive=factor)) as roller:
        for _ in range(10):
            face, yaw, heading = int(rng.integers(6)), float(rng.uniform(0, 6.3)), float(rng.uniform(0, 6.3))
            res = roller.roll(lone(face=face, yaw=yaw), Throw("d", (0.3, 0.3), heading, style=Style.QUARTER))
            assert (res.thrown.face_index != face) is tips
            assert not res.thrown.cocked


@pytest.mark.parametrize("e", [0.5, 0.7])
@pytest.mark.parametrize("height", [0.03, 0.10])
def test_drop_bounce_height_ratio_is_restitution_squared(world, e, height):
    """A flat drop rebounds to e^2 of its height, within 10% (sampled every physics step)."""
    with game_roller(world, SimSettings(sample_hz=960), Materials(die_board_restitution=e)) as roller:
        assert drop_rebound(roller, CUBE, e, height) == pytest.approx(e * e, rel=0.10)


def test_standard_die_thrown_vigorously_is_fair(roller):
    """3000 vigorous throws from random orientations: chi-squared against uniform, p > 0.01."""
    stats = face_stats(roller, CUBE, 3000, np.random.default_rng(2024))
    assert stats.throws == sum(stats.counts) == 3000
    assert stats.p_value > 0.01, stats.counts
    assert stats.capped == 0


@pytest.mark.parametrize("style, quarters, needed", [(Style.QUARTER, 1, 0.95), (Style.HALF, 2, 0.95)])
def test_push_lands_on_predicted_face(roller, style, quarters, needed):
    rng = np.random.default_rng(5)
    tries, hits = 200, 0
    for _ in range(tries):
        face, yaw, heading = int(rng.integers(6)), float(rng.uniform(0, 6.3)), float(rng.uniform(0, 6.3))
        scene = lone(face=face, yaw=yaw)
        res = roller.roll(scene, Throw("d", (0.3, 0.3), heading, style=style))
        hits += res.thrown.face_index == push_face_up(scene.dice[0].pose.orientation, heading, quarters)
    assert hits / tries >= needed


def test_no_die_below_board_no_nan_and_impact_penetration_under_1mm(world):
    """Every physics step of 150 mid-game throws: no die's lowest point more than 1 mm into the board."""
    scene = midgame_scene(Scene().board, CUBE)
    worst = 0.0
    with game_roller(world, SimSettings(sample_hz=960)) as roller:
        for throw in midgame_throws(CUBE, 150, seed=9):
            res = roller.roll(scene, throw)
            assert not res.cap_hit
            for path in res.paths:
                assert all(map(math.isfinite, (c for xyz, q in zip(path.positions, path.orientations)
                                               for c in (*xyz, *q))))
            worst = min(worst, deepest_into_board(scene, res))
            for rest in res.moved:
                if scene.board.contains(*rest.position[:2]):
                    assert rest.position[2] - lowest_point_offset(CUBE, rest.orientation) > -1e-4
    assert worst > -1e-3, f"deepest penetration {-worst * 1000:.2f} mm"


def test_settle_detection_does_not_stop_a_moving_die_early(world):
    """Rolls stopped by the default rule match rolls that wait 2 s of stillness: same face, < 0.5 mm."""
    scene = midgame_scene(Scene().board, CUBE)
    throws = midgame_throws(CUBE, 40, seed=3)
    with game_roller(world) as quick, game_roller(world, SimSettings(settle_samples=120)) as patient:
        for throw in throws:
            a, b = quick.roll(scene, throw), patient.roll(scene, throw)
            assert a.thrown.face_index == b.thrown.face_index
            assert math.dist(a.thrown.position, b.thrown.position) < 5e-4
            assert b.settle_time - a.settle_time == pytest.approx(116 / 60, abs=1e-9)


def test_settle_time_is_capped(world):
    with game_roller(world, SimSettings(max_time=0.2)) as roller:
        res = roller.roll(lone(), Throw("d", (0.3, 0.3), 0.0, 1.5, (0, 30, 0), 0.03))
    assert res.cap_hit and res.settle_time == pytest.approx(0.2, abs=1 / 60)


def test_fast_strike_tips_the_struck_die_over_and_reports_it(roller):
    scene = Scene(dice=(PlacedDie("struck", CUBE, Pose.resting(CUBE, 0.40, 0.30)),
                        PlacedDie("d", CUBE, Pose.resting(CUBE, 0.30, 0.30))))
    res = roller.roll(scene, Throw("d", (0.34, 0.30), 0.0, 2.0, (0, 0, 0), 0.014))
    assert [(c.a, c.b) for c in res.contacts][:1] == [("d", "struck")]
    assert len(res.tipovers) == 1
    tip = res.tipovers[0]
    assert tip.name == "struck" and tip.face_before == 4 and tip.face_after != 4
    assert res.rest("struck").face_index == tip.face_after


def test_gentle_touch_is_a_contact_without_tip_over(roller):
    scene = Scene(dice=(PlacedDie("neighbour", CUBE, Pose.resting(CUBE, 0.331, 0.30)),
                        PlacedDie("d", CUBE, Pose.resting(CUBE, 0.30, 0.30))))
    res = roller.roll(scene, Throw("d", (0.30, 0.30), 0.0, style=Style.QUARTER))
    assert {(c.a, c.b) for c in res.contacts} == {("d", "neighbour")}
    assert res.tipovers == ()
    assert res.rest("neighbour").face_index == 4


def test_die_thrown_off_the_edge_is_reported_with_its_rest_point(roller):
    scene = lone(x=0.70, y=0.45)
    res = roller.roll(scene, Throw("d", (0.70, 0.45), 0.0, 1.0, release_height=0.0))
    assert len(res.off_board) == 1
    off = res.off_board[0]
    assert off.name == "d" and not off.fell_off_table
    assert off.position == res.thrown.position
    assert off.position[0] > scene.board.width
    assert off.position[2] == pytest.approx(scene.board.table_top + CUBE.size[2] / 2, abs=1e-4)  # on the table


def test_die_thrown_off_the_table_is_reported_where_it_fell(roller):
    res = roller.roll(lone(x=0.70, y=0.45), Throw("d", (0.70, 0.45), 0.0, 3.0, release_height=0.01))
    assert res.off_board and res.off_board[0].fell_off_table
    assert res.off_board[0].position[0] > 0.75 + Scene().board.table_margin


def test_die_resting_against_another_is_cocked(roller):
    scene = Scene(dice=(PlacedDie("wall", CUBE, Pose.resting(CUBE, 0.30, 0.30)),
                        PlacedDie("d", CUBE, Pose.resting(CUBE, 0.20, 0.30))))
    lean = tuple(Rotation.from_euler("y", 50, degrees=True).as_quat())
    res = roller.roll(scene, Throw("d", (0.284, 0.30), 0.0, 0.0, release_height=0.0, orientation=lean))
    assert res.thrown.cocked and 20 < res.thrown.tilt_deg < 70
    assert res.contacts[-1].end == pytest.approx(res.settle_time)  # still leaning at the end


def test_lone_die_on_empty_board_is_never_cocked(roller):
    rng = np.random.default_rng(8)
    scene = lone(x=0.375, y=0.45)
    for _ in range(100):
        res = roller.roll(scene, vigorous_throw(rng, "d", 0.75, 0.90))
        if not res.off_board:
            assert not res.thrown.cocked, res.thrown


def crowded_scene(n: int, seed: int) -> Scene:
    """Return n dice packed 2 cm apart (centre to centre, some touching) in one corner, plus a die to throw."""
    rng = np.random.default_rng(seed)
    spots: list[tuple[float, float]] = []
    while len(spots) < n:
        p = (0.15 + 0.45 * rng.random(), 0.05 + 0.45 * rng.random())
        if all(math.dist(p, q) > 0.02 for q in spots):
            spots.append(p)
    dice = [PlacedDie(f"r{k}", CUBE, Pose.resting(CUBE, x, y, face_up=int(rng.integers(6)),
                                                  yaw=float(rng.uniform(0, 1.5))))
            for k, (x, y) in enumerate(spots)]
    return Scene(dice=(*dice, PlacedDie("thrown", CUBE, Pose.resting(CUBE, 0.7, 0.8))))


@pytest.mark.parametrize("scene, seed", [(midgame_scene(Scene().board, CUBE), 1), (crowded_scene(80, 2), 2)],
                         ids=["midgame", "crowded"])
def test_reach_bound_never_misses_a_touch(world, scene, seed):
    """Audit every step: no touch begins in an unwatched pair and no die reaches a die not yet in the world."""
    with game_roller(world, SimSettings(audit=True)) as roller:
        for throw in midgame_throws(CUBE, 60, seed=seed):
            roller.roll(scene, throw)  # raises PhysicsError on a miss
