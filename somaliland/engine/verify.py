"""Re-simulate a game record and report the first line where the re-run differs, or that it matches.

The record is read through the one codec (engine/events.py) and so is every line the re-run writes, as a record
would read it back (paths rounded): the two are compared as typed events, and where they part the message names
the line, its kind and the first field that differs. Verify rebuilds no game state from the record: the re-run's
engine makes the state from the setup the header tells (`setup_from_header`: seed, players, physics settings, so
the re-run's roller is the game's); seats an outside agent played answer from their recorded decisions
(engine/recorded.py). Folding the record through the rules is `engine.fold`'s work.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from physics.settings import BEFORE as PHYSICS_BEFORE
from physics.settings import current_fields
from somaliland import __version__
from somaliland.engine.encode import BEFORE_OPTIONS
from somaliland.engine.events import Header, Stamped, decode, encode
from somaliland.engine.loop import PolicyFactory, default_factory, play_game
from somaliland.engine.mapref import find_map
from somaliland.engine.record import RecordError, decode_at, dumps, read_record
from somaliland.engine.recorded import AGENT, answering_agents
from somaliland.engine.setup import GameSetup, setup_from_header
from somaliland.machine import parting_note
from somaliland.rules.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of a verification: ok, or the first differing line and what differs."""

    ok: bool
    lines: int  # lines compared
    message: str
    warnings: tuple[str, ...] = ()


class _Parted(Exception):
    def __init__(self, index: int, recorded: Stamped | None, simulated: Stamped) -> None:
        self.index, self.recorded, self.simulated = index, recorded, simulated


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Return the key path of the first place two JSON values differ, or None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}".lstrip(".")
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found is not None:
                return found.lstrip(".")
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{path} (length {len(a)} vs {len(b)})"
    return None if a == b else (path or "(value)")


def verify_record(path: str | Path, factory: PolicyFactory = default_factory) -> Verdict:
    """Re-simulate the game a record describes and compare it line by line.

    Seats an outside agent played (strategy `agent`, `somaliland.env`) answer from their recorded decisions.

    Args:
        path: the record file.
        factory: makes the players from the header's strategy names (the strategy registry by default).

    Raises:
        RecordError: the record cannot be read, its header is not a game, or the map it was played on (by
            sha256) is neither at its recorded path nor in maps/ nor beside the record.
        MapError: the map file named in the header cannot be loaded.
    """
    from somaliland.map import load

    name = str(path)
    lines = read_record(path)
    told = [decode_at(line, number, name) for number, line in enumerate(lines, start=1)]
    head = told[0].event
    assert isinstance(head, Header)  # read_record has decoded the first line as the header
    setup = setup_from_header(head, name)  # its physics settings too: the re-run's roller is made from them
    warnings = []
    if head.version != __version__:
        warnings.append(f"recorded by somaliland {head.version}, verifying with {__version__}")
    map_file, moved = find_map(lines[0], name)
    if moved:
        warnings.append(moved)
    world = load(map_file)
    if factory is default_factory:
        _check_replayable(setup, name)
    count = 0

    def compare(line: dict[str, Any]) -> None:
        nonlocal count
        simulated = decode(json.loads(dumps(line)))  # as the record reads it back: paths rounded
        recorded = told[count] if count < len(told) else None
        if isinstance(simulated.event, Header) and recorded is told[0]:
            recorded = replace(recorded, event=_comparable(head, head))
            simulated = replace(simulated, event=_comparable(simulated.event, head))
        if recorded != simulated:
            raise _Parted(count, recorded, simulated)
        count += 1

    def parted(message: str) -> Verdict:
        note = parting_note(head.machine)
        return Verdict(False, count, message if note is None else f"{message}; {note}", tuple(warnings))

    try:
        play_game(setup, world, None, answering_agents(told, name, factory), sink=compare)
    except IllegalActionError as refused:  # a recorded decision (an agent's, or edited) the rules refuse
        kind = told[count].event.kind if count < len(told) else "end"
        return parted(f"line {count + 1} ({kind}): the re-run refuses the recorded decision: {refused}")
    except _Parted as part:
        line = part.index + 1
        if part.recorded is None:
            return parted(f"the re-run goes on after the record's last line ({line - 1})")
        recorded, simulated = encode(part.recorded), encode(part.simulated)  # named by the record's keys
        where = first_difference(recorded, simulated)
        return parted(f"line {line} ({part.recorded.event.kind}) differs at {where}: recorded "
                      f"{_at(recorded, where)!r}, re-simulated {_at(simulated, where)!r}")
    if count != len(told):
        return parted(f"the re-run ended at line {count}, the record has {len(told)} lines")
    return Verdict(True, count, f"OK: {count} lines re-simulated identically", tuple(warnings))


def _check_replayable(setup: GameSetup, path: str) -> None:
    """Refuse, before playing, a seat whose strategy the registry cannot make again (a policy factory's)."""
    from somaliland.players.strategies import STRATEGIES

    for k, seat in enumerate(setup.seats):
        if seat.strategy not in STRATEGIES and seat.strategy != AGENT:
            raise RecordError(path, 1, f"seats[{k}].strategy: expected a strategy verify can play again "
                                       f"({', '.join(sorted(STRATEGIES))}, or {AGENT} for an outside agent), found "
                                       f"{seat.strategy!r}")


def _comparable(header: Header, recorded: Header) -> Header:
    """Return a header as verify compares it with the record's: without the machine that played (any may replay
    it), without rules options younger than the recorded header (the game played them as the code before), and
    without retired physics settings at the value rolls are simulated at now (`physics.settings.RETIRED`), and
    without physics settings younger than the recorded header (`physics.settings.BEFORE`: its rolls were simulated
    at their earlier value)."""
    rules = {k: v for k, v in header.rules.items() if k in recorded.rules or k not in BEFORE_OPTIONS}
    physics = {k: v for k, v in current_fields(header.physics).items()
               if k in recorded.physics or k not in PHYSICS_BEFORE}
    return replace(header, rules=rules, physics=physics, machine=None)


def _at(data: Any, where: str | None) -> Any:
    """Return the value at a key path like 'result.thrown.position[0]' (best effort, for messages)."""
    import re

    if not where:
        return data
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", where.split(" (")[0]):
        try:
            data = data[int(part[1:-1])] if part.startswith("[") else data[part]
        except (KeyError, IndexError, TypeError):
            return "?"
    return data if not isinstance(data, (dict, list)) else json.dumps(data)[:80]
