"""`somaliland play`: play a whole game with AI players over real physics and tell what happened."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from somaliland.cli import args as types


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "play", help="play a whole game with AI players over real physics",
        description="Play a whole game of Somaliland: AI players draft, plan, launch and throw their ships "
                    "as dice rolled by PyBullet on the map. Prints an account per round and the final table.",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="number of players; wins over the rules file's players (default: the rules file's, 4)")
    p.add_argument("--seed", type=types.seed, default=7, help="the game's seed (default 7)")
    p.add_argument("--map", type=Path, default=None, help="map file, or a shipped map's name: horn-of-africa (the default) or tiny")
    p.add_argument("--rules", type=Path, default=None, help="rules options file (TOML; default: the rulings' defaults)")
    p.add_argument("--strategies", default="ev",
                   help="comma-separated strategy per seat, or one for all: cautious, bold, ev, search (default ev)")
    p.add_argument("--skill", type=float, default=0.75,
                   help="throw skill of every player, 0 (clumsy) to 1 (perfect hand) (default 0.75)")
    p.add_argument("--record", type=Path, default=None, help="write the game record (JSON Lines) here")
    p.add_argument("--no-paths", action="store_true", help="leave the sampled throw paths out of the record")
    p.add_argument("--json", action="store_true", help="print the final result as one JSON object")
    p.set_defaults(run=run)


def load_setup(args: argparse.Namespace):
    """Return (setup, world) from the command's options."""
    from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
    from somaliland.map import load, resolve
    from somaliland.players.hand import ThrowSkill
    from somaliland.rules import RulesConfig, load_rules

    rules = load_rules(args.rules) if args.rules else RulesConfig()
    if args.players:
        if args.rules and args.players != rules.players and "players" in _written_options(args.rules):
            print(f"somaliland play: warning: --players {args.players} wins over players = {rules.players} in "
                  f"{args.rules}: the game has {args.players} players", file=sys.stderr)
        rules = replace(rules, players=args.players)
    map_path = resolve(args.map) if args.map else DEFAULT_MAP
    world = load(map_path)
    seats = seats_from(args.strategies.split(","), rules.players, ThrowSkill.level(args.skill))
    return GameSetup(seed=args.seed, seats=seats, rules=rules, map_path=map_path,
                     record_paths=not args.no_paths), world


def _written_options(path: Path) -> set[str]:
    """Return the options a rules file writes (it has loaded already, so it is within the input limits)."""
    from somaliland.inputs import load_toml, read_limited

    return set(load_toml(read_limited(path, "rules file").decode("utf-8"), str(path)))


def run(args: argparse.Namespace) -> int:
    """Play the game."""
    from somaliland.engine.account import account
    from somaliland.engine.loop import play_game
    from somaliland.engine.record import RecordWriter

    setup, world = load_setup(args)
    writer = RecordWriter(args.record) if args.record else None
    try:
        result = play_game(setup, world, sink=writer)  # its roller made from setup.physics
    finally:
        if writer is not None:
            writer.close()
    if args.json:
        final = result.events[-1]
        print(json.dumps({"seed": setup.seed, "players": setup.rules.players, "throws": result.throws,
                          "winners": final["winners"], "table": final["table"],
                          "record": str(args.record) if args.record else None}))
        return 0
    print("\n".join(account(result.events)))
    if args.record:
        print(f"\nRecord: {args.record} ({len(result.events)} lines)")
    return 0
