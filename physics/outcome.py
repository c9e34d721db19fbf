"""What a finished roll leaves, as plain data: which dice moved, where each came to rest and with which face up,
their sampled paths, the contacts between dice, the tip-overs of resting dice, and the dice that left the board."""

from __future__ import annotations

import math

from physics.checks import below_board
from physics.dice import face_up, tilt_deg
from physics.errors import PhysicsError
from physics.result import Contact, DiePath, DieRest, OffBoard, RollResult, TipOver
from physics.stepping import FELL, MOVED_DISTANCE, Roll

MOVED_ANGLE = math.radians(0.5)  # a die turned less than this and displaced less than MOVED_DISTANCE did not move


def _moved(roll: Roll, i: int) -> bool:
    if i == 0 or roll.state[i] == FELL:
        return True
    start = roll.dice[i].pose
    pos, orn = roll.poses[i][-1]
    if math.dist(start.position, pos) > MOVED_DISTANCE:
        return True
    # the angle between two unit quaternions: 2 acos |<q1, q2>|
    dot = abs(sum(a * b for a, b in zip(orn, start.orientation)))
    return 2 * math.acos(min(1.0, dot)) > MOVED_ANGLE


def _rest(roll: Roll, i: int) -> DieRest:
    pos, q = roll.poses[i][-1]
    face, tilt = face_up(q), tilt_deg(q)
    spec = roll.dice[i].spec
    if roll.state[i] != FELL and below_board(roll.board, spec, pos, q):
        raise PhysicsError(f"die {roll.dice[i].name!r} ended below the board surface at z={pos[2]:.5f} m")
    fell = roll.state[i] == FELL  # caught in mid-fall: its tilt says nothing
    return DieRest(roll.dice[i].name, tuple(pos), tuple(q), face, spec.faces[face], tilt,
                   not fell and tilt > roll.s.cocked_deg)


def roll_result(roll: Roll, cap_hit: bool) -> RollResult:
    """Return what a finished roll leaves: the dice that moved, their rests, paths, contacts, tip-overs and
    departures from the board.

    Raises:
        PhysicsError: a die came to rest below the board surface.
    """
    moved = [i for i in sorted(roll.uid) if _moved(roll, i)]
    rests = {i: _rest(roll, i) for i in moved}
    names = [d.name for d in roll.dice]
    tipovers = []
    for i in moved[1:]:
        before = face_up(roll.dice[i].pose.orientation)
        if before != rests[i].face_index:
            faces = roll.dice[i].spec.faces
            tipovers.append(TipOver(names[i], before, rests[i].face_index, faces[before], rests[i].face_value))
    off = tuple(
        OffBoard(names[i], tuple(roll.off_table.get(i, rests[i].position)), roll.state[i] == FELL)
        for i in moved if roll.state[i] == FELL or not roll.board.contains(*rests[i].position[:2])
    )
    paths = tuple(
        DiePath(names[i], tuple(roll.times[i]), tuple(p for p, _ in roll.poses[i]),
                tuple(q for _, q in roll.poses[i]))
        for i in moved
    )
    contacts = tuple(Contact(names[a], names[b], start, end)
                     for a, b, start, end in sorted(roll.contacts, key=lambda c: (c[2], c[0], c[1])))
    return RollResult(
        thrown=rests[0], moved=tuple(rests[i] for i in moved), paths=paths, contacts=contacts,
        tipovers=tuple(tipovers), off_board=off, settle_time=roll.step * roll.s.dt, steps=roll.step,
        cap_hit=cap_hit,
    )
