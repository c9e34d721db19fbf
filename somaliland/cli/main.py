"""Entry point of the `somaliland` command: builds the parser from each command module and turns user
errors into a one-line message with exit status 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from physics.errors import PhysicsError, PhysicsInputError
from somaliland import __version__
from somaliland.errors import SomalilandError
from somaliland.seeding import SeedError

USER_ERRORS = (SomalilandError, PhysicsInputError, SeedError)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every command registered."""
    from somaliland.cli import bench_cmd, demo_cmd, dice_cmd

    parser = argparse.ArgumentParser(
        prog="somaliland",
        description="Simulate the dexterity board game Somaliland: dice physics, rules, studies.",
    )
    parser.add_argument("--version", action="version", version=f"somaliland {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in (demo_cmd, dice_cmd, bench_cmd, *_optional_commands()):
        module.register(commands)
    return parser


def _optional_commands() -> list:
    """Return command modules that exist in this build (added as features land)."""
    import importlib

    found = []
    for name in ("map_cmd", "play_cmd", "verify_cmd", "scan_cmd", "study_cmd", "replay_cmd", "tune_cmd"):
        try:
            found.append(importlib.import_module(f"somaliland.cli.{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"somaliland.cli.{name}":
                raise
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except USER_ERRORS as exc:
        print(f"somaliland {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except PhysicsError as exc:
        print(f"somaliland {args.command}: physics failed: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print(f"somaliland {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped early (`| head`): nothing more to say, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's own flush at exit must not fail
        return 141


if __name__ == "__main__":
    sys.exit(main())
