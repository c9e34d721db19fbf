"""`somaliland demo`: one roll on the default board, told as what happened."""

from __future__ import annotations

import argparse
import json
import math

from somaliland.cli import args as types
from somaliland.units import cm, deg


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "demo", help="one roll among resting ships on the default board, told as what happened",
        description="Throw one die into a cluster of resting dice on the default board and print what "
                    "happened: where it stopped, the face up, contacts, tip-overs, dice off the board.",
    )
    p.add_argument("--seed", type=types.seed, default=13, help="seed of the throw (default 13)")
    p.add_argument("--json", action="store_true", help="print the roll result as JSON")
    p.set_defaults(run=run)


def demo_scene_and_throw(seed: int):
    """Return the demo scene and a throw aimed into its cluster of ships, varied by the seed."""
    from physics import DieSpec, PlacedDie, Pose, Scene, Throw
    from somaliland.boards import default_board
    from somaliland.seeding import make_rng

    rng = make_rng(seed)
    board = default_board()
    from somaliland.rules.fleet import DEFAULT_FLEET

    layouts = {str(ship.displacement): ship.faces for ship in DEFAULT_FLEET}  # D1, by pips
    cx, cy = board.width / 2, board.depth / 2
    dice = []
    for k, (colour, pips) in enumerate([("blue", "12"), ("green", "18"), ("yellow", "8"), ("blue", "24"),
                                        ("green", "6")]):
        angle = 2 * math.pi * k / 5
        spec = DieSpec(faces=layouts[pips])
        dice.append(PlacedDie(f"{colour}-{pips}", spec, Pose.resting(
            spec, cx + 0.05 * math.cos(angle), cy + 0.05 * math.sin(angle), face_up=int(rng.integers(6)),
            yaw=float(rng.uniform(0, math.pi / 2)))))
    red = DieSpec(faces=layouts["24"])
    dice.append(PlacedDie("red-24", red, Pose.resting(red, cx - 0.16, cy - 0.16)))
    heading = math.atan2(0.16, 0.16) + float(rng.normal(0, 0.05))
    throw = Throw("red-24", (cx - 0.16, cy - 0.16), heading, speed=float(rng.uniform(1.3, 1.7)),
                  spin=tuple(float(w) for w in rng.uniform(-20, 20, 3)), release_height=0.02)
    return Scene(board=board, dice=tuple(dice)), throw


def run(args: argparse.Namespace) -> int:
    """Roll once and tell what happened."""
    from dataclasses import asdict

    from physics import FACE_NAMES, make_roller

    scene, throw = demo_scene_and_throw(args.seed)
    roller = make_roller()
    try:
        r = roller.roll(scene, throw)
    finally:
        roller.close()
    if args.json:
        data = asdict(r)
        data.pop("paths")
        print(json.dumps(data))
        return 0
    t = r.thrown
    print(f"Demo roll (seed {args.seed}) on a {cm(scene.board.width):g} x {cm(scene.board.depth):g} cm board, "
          f"{len(scene.dice) - 1} ships at rest.")
    print(f"red-24 thrown from ({cm(throw.origin[0]):.1f}, {cm(throw.origin[1]):.1f}) cm, heading "
          f"{deg(throw.heading):.0f} deg, {throw.speed:.2f} m/s.")
    print(f"It came to rest at ({cm(t.position[0]):.1f}, {cm(t.position[1]):.1f}) cm after {r.settle_time:.2f} s "
          f"({r.steps} steps{', TIME CAP HIT' if r.cap_hit else ''}), face {FACE_NAMES[t.face_index]} up "
          f"showing {t.face_value}{f', cocked {t.tilt_deg:.0f} deg' if t.cocked else ', flat'}.")
    for c in r.contacts:
        print(f"  {c.start:5.2f} s  {c.a} touched {c.b} (until {c.end:.2f} s)")
    for tip in r.tipovers:
        print(f"  {tip.name} tipped over: {FACE_NAMES[tip.face_before]} ({tip.value_before}) -> "
              f"{FACE_NAMES[tip.face_after]} ({tip.value_after})")
    for rest in r.moved[1:]:
        print(f"  {rest.name} moved to ({cm(rest.position[0]):.1f}, {cm(rest.position[1]):.1f}) cm"
              f"{', cocked' if rest.cocked else ''}")
    for off in r.off_board:
        where = "fell off the table" if off.fell_off_table else "ended off the board, on the table"
        print(f"  {off.name} {where} at ({cm(off.position[0]):.1f}, {cm(off.position[1]):.1f}) cm")
    if not (r.contacts or r.off_board):
        print("  No contact with another ship.")
    return 0
