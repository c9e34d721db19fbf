"""`somaliland verify`: re-simulate a game record and report the first line where it differs, or OK."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "verify", help="re-simulate a game record; OK or the first differing line",
        description="Re-play the game a record describes (same seed, map, rules, players, physics) and compare "
                    "it line by line. Exit status 0 when identical, 1 when it differs, 2 when unreadable or when no "
                    "map file has the sha256 the record names.",
    )
    p.add_argument("record", type=Path, help="the game record (JSON Lines) to verify")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Verify the record."""
    import sys

    from somaliland.engine.verify import verify_record

    verdict = verify_record(args.record)
    for warning in verdict.warnings:
        print(f"somaliland verify: warning: {warning}", file=sys.stderr)
    print(verdict.message)
    return 0 if verdict.ok else 1
