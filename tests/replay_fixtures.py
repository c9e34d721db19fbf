"""A small recorded game for the replay tests: two scripted players, two rounds, real physics."""

from __future__ import annotations

import json
from pathlib import Path

from physics import make_roller
from scripted import scripted_factory
from somaliland.engine.loop import play_game
from somaliland.engine.record import RecordWriter
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, Seat
from somaliland.map import load
from somaliland.rules import RulesConfig


def record_game(path: Path, seed: int = 11, rounds: int = 2) -> Path:
    """Play a 2-player scripted game and write its record to `path`."""
    setup = GameSetup(seed=seed, seats=(Seat("africa"), Seat("somalia")), rules=RulesConfig(players=2, rounds=rounds))
    with RecordWriter(path) as writer, make_roller() as roller:
        play_game(setup, load(DEFAULT_MAP), roller, scripted_factory, sink=writer)
    return path


def lines(path: Path) -> list[dict]:
    """Return the record's lines as dicts."""
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path: Path, events: list[dict]) -> Path:
    """Write dicts as a record."""
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path
