"""`somaliland replay`: replay a recorded game in PyBullet's GUI, export a turn as a video or picture,
or draw a round's paths from above."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from somaliland.cli import args as types


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "replay", help="replay a recorded game (GUI), export a turn as GIF/MP4/PNG, draw a round from above, or "
                       "write an HTML replay",
        description="Replay a game record (from `somaliland play --record`). Without -o, --top-down or --html, opens "
                    "PyBullet's 3-D GUI on the board (it needs a display; the others do not) and plays the throws at real speed; keys: space pause, "
                    "left/right throw, up/down turn, 1-9 round, +/- speed, r replay, q quit; cameras: o overview, "
                    "f follow the die, p pirate ports. "
                    "With -o, renders the chosen round (and turn) offscreen to a .gif, .mp4 or .png (last frame); "
                    "with --html, writes the whole game as one page that replays it in any browser.",
    )
    p.add_argument("record", type=Path, help="the game record (JSON Lines)")
    p.add_argument("--round", type=types.positive_int, default=None, help="the round to show (default: all)")
    p.add_argument("--turn", type=types.positive_int, default=None, help="the turn within --round (default: all)")
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="render offscreen to this file instead of opening the GUI: .gif, .mp4, or .png (last frame)")
    p.add_argument("--top-down", type=Path, default=None, metavar="PNG",
                   help="draw --round's ship paths over the board from above (matplotlib: .png, .svg, .pdf)")
    p.add_argument("--html", type=Path, default=None, metavar="HTML",
                   help="write the whole game as one self-contained HTML page that replays it in any browser "
                        "(no server, works offline)")
    p.add_argument("--camera", choices=("overview", "follow"), default="overview",
                   help="export camera: the whole board, or following the thrown die (default overview)")
    p.add_argument("--fps", type=float, default=30.0, help="export frames per second (default 30)")
    p.add_argument("--hold", type=float, default=1.0, help="seconds each throw's outcome stays in an export (default 1)")
    p.add_argument("--size", type=_size, default=(960, 720), help="export frame size WIDTHxHEIGHT (default 960x720)")
    p.add_argument("--speed", type=float, default=1.0, help="GUI replay speed, 1 = real time (default 1)")
    p.add_argument("--follow", action="store_true", help="GUI: start with the follow-the-die camera")
    p.add_argument("--map", type=Path, default=None, help="map file (or a shipped map's name) to replay on (default: the one the record names)")
    p.add_argument("--check", action="store_true",
                   help="re-simulate the chosen throws and check each comes to rest where the record says; "
                        "throws recorded without paths then play their re-simulated paths")
    p.add_argument("--screenshot", type=Path, default=None, metavar="PNG",
                   help="GUI: show the end of the chosen round/turn, save the window with its captions (and PNG.json "
                        "with the camera matrices and caption lines) and exit; for tests and bug reports")
    p.set_defaults(run=run)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 960x720, got {text!r}") from None
    return width, height


def run(args: argparse.Namespace) -> int:
    """Replay, export or draw."""
    from somaliland.errors import UsageError
    from somaliland.replay.story import load_story

    if args.turn is not None and args.round is None:
        raise UsageError("--turn needs --round")
    if args.output is None and args.top_down is None and args.html is None:
        from somaliland.engine.record import decode_at, read_record
        from somaliland.engine.setup import setup_from_header

        head = read_record(args.record)[0]  # a record verify refuses is refused first, with its line
        setup_from_header(decode_at(head, 1, str(args.record)).event, str(args.record))
        _check_display(args.record)
    world = None
    if args.map is not None:
        from somaliland.map import load

        world = load(args.map)
    story = load_story(args.record, world)
    for warning in story.warnings:
        print(f"somaliland replay: warning: {warning}", file=sys.stderr)
    if not story.steps:
        raise UsageError(f"{args.record} has no throws to replay")
    steps = story.select(args.round, args.turn)
    if args.check:
        from somaliland.machine import parting_note
        from somaliland.replay.resim import resimulate

        story, problems = resimulate(story, steps)
        for problem in problems:
            print(f"somaliland replay: warning: {problem}", file=sys.stderr)
        throws = sum(1 for i in steps if story.steps[i].kind == "throw")
        print(f"Checked {throws} throw{'s' * (throws != 1)} by re-simulating: "
              + (f"{len(problems)} came to rest elsewhere than recorded" if problems
                 else "each came to rest where the record says"))
        machine = story.header.get("machine")
        note = parting_note(machine if isinstance(machine, dict) else None) if problems else None
        if note is not None:
            print(f"somaliland replay: note: {note}", file=sys.stderr)
    if args.top_down is not None:
        from somaliland.replay.topdown import draw_round

        if args.round is None:
            raise UsageError("--top-down draws one round: give --round")
        types.figure_file("--top-down", args.top_down)
        draw_round(story, args.round, args.top_down, turn=args.turn)
        print(f"Wrote {args.top_down}: round {args.round} from above")
    if args.html is not None:
        from somaliland.replay.html import write_html

        size = write_html(story, args.html)
        print(f"Wrote {args.html}: {len(story.steps)} steps, {size / 1e6:.2f} MB; open it in any browser")
    if args.output is not None:
        from somaliland.replay.export import export

        count = export(story, args.output, steps, fps=args.fps, hold=args.hold, size=args.size, camera=args.camera)
        print(f"Wrote {args.output}: {count} frame{'s' * (count != 1)} of {len(steps)} step{'s' * (len(steps) != 1)}")
    if args.output is None and args.top_down is None and args.html is None:
        from somaliland.replay.gui import replay

        if not 0.05 <= args.speed <= 16:
            raise UsageError(f"--speed must lie in 0.05..16, got {args.speed:g}")
        replay(story, steps, speed=args.speed, follow=args.follow, screenshot=args.screenshot)
        if args.screenshot is not None:
            print(f"Wrote {args.screenshot}")
    return 0


def _check_display(record: Path) -> None:
    """Refuse the GUI replay at once where PyBullet could not open its window (it would end the process with
    status 1 and its message silenced), saying what works without a display."""
    from physics.view import display_problem
    from somaliland.errors import UsageError

    problem = display_problem()
    if problem is not None:
        raise UsageError(f"the GUI replay needs a display, and {problem}; without one, write the game as a page "
                         f"for any browser (--html game.html), a turn as a video (--round 1 -o turn.gif), a round "
                         f"from above (--round 1 --top-down round.png), or the window's picture under a virtual "
                         f"display (xvfb-run -a somaliland replay {record} --screenshot shot.png)")
