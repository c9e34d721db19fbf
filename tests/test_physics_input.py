"""Bad input to the physics layer: a clear error naming the value and the allowed range."""

import math

import pytest

from physics import Board, DieSpec, Materials, PhysicsInputError, PlacedDie, Pose, Scene, SimSettings, Throw


@pytest.mark.parametrize("faces", [(1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6, 7), (1, 2, 3, 4, 5, -1), (1, 2, 3, 4, 5, 2.5),
                                   (True, 1, 1, 1, 1, 1)])
def test_die_needs_six_non_negative_integer_faces_D1(faces):
    with pytest.raises(PhysicsInputError, match="faces.*six non-negative integers"):
        DieSpec(faces=faces)


def test_custom_pips_are_allowed_D1():
    assert DieSpec(faces=(0, 0, 9, 1, 4, 4)).pips == 18


@pytest.mark.parametrize("size", [(-0.016, 0.016, 0.016), (0.0, 0.016, 0.016), (math.nan, 0.01, 0.01), (0.016, 0.016)])
def test_die_size_must_be_positive_and_finite(size):
    with pytest.raises(PhysicsInputError, match=r"die size.*\[0.002, 0.2\] m"):
        DieSpec(size=size)


@pytest.mark.parametrize("field, value, pattern", [
    ("speed", math.nan, r"speed = nan.*\[0, 10\] m/s"),
    ("speed", -1.0, r"speed = -1.0.*\[0, 10\] m/s"),
    ("release_height", math.inf, r"release height"),
    ("spin", (0, 0, math.nan), r"spin\[2\]"),
    ("style", "flick", r"style.*roll.*quarter.*half"),
])
def test_throw_rejects_bad_numbers(field, value, pattern):
    with pytest.raises(PhysicsInputError, match=pattern):
        Throw("d", (0.3, 0.3), **{field: value})


def test_throw_origin_off_the_board_is_rejected_with_the_range(roller):
    spec = DieSpec()
    scene = Scene(dice=(PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3)),))
    with pytest.raises(PhysicsInputError, match=r"throw origin.*x in \[0, 0.75\], y in \[0, 0.9\]"):
        roller.roll(scene, Throw("d", (0.80, 0.3)))


def test_thrown_die_must_be_in_the_scene(roller):
    with pytest.raises(PhysicsInputError, match="one of"):
        roller.roll(Scene(), Throw("ghost", (0.3, 0.3)))


def test_resting_die_below_the_board_is_rejected(roller):
    spec = DieSpec()
    scene = Scene(dice=(PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3)),
                        PlacedDie("sunk", spec, Pose((0.5, 0.5, 0.002)))))
    with pytest.raises(PhysicsInputError, match="sunk"):
        roller.roll(scene, Throw("d", (0.3, 0.3)))


def test_other_bad_values():
    with pytest.raises(PhysicsInputError, match="restitution"):
        Materials(die_board_restitution=1.5)
    with pytest.raises(PhysicsInputError, match="board width"):
        Board(width=-1)
    with pytest.raises(PhysicsInputError, match="sample_hz"):
        SimSettings(sample_hz=50, rate_hz=960)
    with pytest.raises(PhysicsInputError, match="unit quaternion"):
        Pose((0, 0, 0.008), (0, 0, 0, 0.5))
    spec = DieSpec()
    die = PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3))
    with pytest.raises(PhysicsInputError, match="unique"):
        Scene(dice=(die, die))


def test_overlapping_resting_dice_are_rejected(roller):
    spec = DieSpec()
    scene = Scene(dice=(PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3)),
                        PlacedDie("a", spec, Pose.resting(spec, 0.5, 0.5)),
                        PlacedDie("b", spec, Pose.resting(spec, 0.505, 0.5))))
    with pytest.raises(PhysicsInputError, match="'a' and 'b'.*do not overlap"):
        roller.roll(scene, Throw("d", (0.3, 0.3)))


def test_dice_pressed_together_as_bullet_leaves_them_are_accepted(roller):
    """Bullet leaves resting dice in contact up to a fraction of a millimetre inside each other
    (0.14 mm seen in CI, a random-action env game); such a scene is a game's own and must roll."""
    spec = DieSpec()
    edge = 2 * spec.half_extents[0]
    scene = Scene(dice=(PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3)),
                        PlacedDie("a", spec, Pose.resting(spec, 0.5, 0.5)),
                        PlacedDie("b", spec, Pose.resting(spec, 0.5 + edge - 0.00015, 0.5))))
    assert roller.roll(scene, Throw("d", (0.3, 0.3))).thrown.name == "d"


def test_a_die_straddling_the_board_edge_is_not_below_the_board():
    from scipy.spatial.transform import Rotation

    from physics.checks import below_board

    spec, board = DieSpec(), Board()
    tipped = tuple(Rotation.from_euler("y", 25, degrees=True).as_quat())
    assert not below_board(board, spec, (board.width - 0.002, 0.4, 0.007), tipped)  # over the edge
    assert below_board(board, spec, (0.4, 0.4, 0.006), tipped)  # sunk 3 mm in the middle of the board
    assert not below_board(board, spec, (0.4, 0.4, 0.008), (0, 0, 0, 1))  # resting flat


def test_a_resting_die_across_the_board_edge_is_accepted(roller):
    """A roll may leave a die resting across the board's edge, a corner below the top: the next roll takes it.

    The pose is the one a 4-player game left (study seat-colours, cell 0, game 1144), which the input
    check used to refuse as sunk into the board.
    """
    from scipy.spatial.transform import Rotation

    spec = DieSpec()
    across = tuple(Rotation.from_euler("y", -25, degrees=True).as_quat())
    edge = PlacedDie("edge", spec, Pose((0.0005280351828434072, 0.22048321228623782, 0.00814268649267439), across))
    scene = Scene(dice=(PlacedDie("d", spec, Pose.resting(spec, 0.3, 0.3)), edge))
    result = roller.roll(scene, Throw("d", (0.3, 0.3), heading=0.0, speed=0.3))
    assert result.thrown.name == "d"
