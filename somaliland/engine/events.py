"""The game record's vocabulary: one frozen type per line kind, and the one codec between them and the record.

A game is told once. The rules report what happened as the frozen events of `somaliland.rules.events`
(launched, grounded, collision, ... failed); the game loop adds the lines that are its own (the header, the
deal, draft picks, plans, the turn marker, throws, launch passes, round ends, the final table), typed here.
`encode` turns a `Stamped` event (the event with the round and turn it happened in) into the record's
JSON-ready dict, `decode` reads one back, checking every field; `decode(line)` encodes to `line` again, key
for key and float for float (RECORD.md is the format; it is unchanged). Views never switch on `kind`
strings: they match on these types (`match event: case Seized(): ...`), and the state goes with them from
`engine.fold`, which folds a record through the rules.
"""

from __future__ import annotations

import enum
import math
import typing
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from functools import cache
from types import NoneType, UnionType
from typing import Any, Union

from physics import DiePath, RollResult, Throw
from somaliland.engine.encode import roll_json, throw_json
from somaliland.map.model import Direction
from somaliland.rules.contracts import Card
from somaliland.rules.events import Event as RulesEvent
from somaliland.rules.fleet import COLOURS
from somaliland.rules.planning import Plan
from somaliland.rules.scoring import Standings
from somaliland.rules.state import Sheet


@dataclass(frozen=True, slots=True)
class Header:
    """The game's first line: what a re-run needs to play it again (seed, map, rules, physics, seats) (R1, R2, R7, D4).

    The nested parts stay the record's own dicts (RECORD.md): `map` {file, name, sha256, routes}, `rules`
    (every rules option, SI), `physics` (every SimSettings field), `seats` [{seat, colour, strategy, skill,
    params}], `machine` (None for records made before it was kept).
    """

    schema: int
    version: str
    seed: int
    map: dict[str, Any]
    rules: dict[str, Any]
    physics: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    first_player: int
    record_paths: bool = True
    machine: dict[str, Any] | None = None
    kind: str = field(default="game", init=False)

    @property
    def colours(self) -> tuple[str, ...]:
        """Return the seats' colours, by seat."""
        return tuple(str(s.get("colour", "?")) for s in self.seats)


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's nine cards laid out, and the round's first player (R4, R7)."""

    first_player: int
    offer: tuple[Card, ...]
    kind: str = field(default="deal", init=False)


@dataclass(frozen=True, slots=True)
class DraftPick:
    """A seat took a card from the offer, or passed (`card` None) (R5, R6, D2)."""

    seat: int
    card: Card | None
    kind: str = field(default="draft_pick", init=False)


@dataclass(frozen=True, slots=True)
class Planned:
    """A seat's plans for the contracts it holds: a route and ships for each (R8, R10, D5)."""

    seat: int
    plans: tuple[Plan, ...]
    kind: str = field(default="plan", init=False)


@dataclass(frozen=True, slots=True)
class TurnBegun:
    """The turn marker moved one space (R14, D10)."""

    kind: str = field(default="turn", init=False)


@dataclass(frozen=True, slots=True)
class Thrown:
    """A seat threw a ship: what it aimed (`intended`), what its hand did (`actual`), how the dice came to rest
    (`result`, the physics outcome the rules read: R12-R19). `with_paths`: the record keeps the 60 Hz paths."""

    seat: int
    ship: str
    intended: Throw
    actual: Throw
    result: RollResult
    with_paths: bool = True
    kind: str = field(default="throw", init=False)


@dataclass(frozen=True, slots=True)
class LaunchPass:
    """A seat launched nothing in a launching phase (R12, D7)."""

    seat: int
    kind: str = field(default="launch_pass", init=False)


@dataclass(frozen=True, slots=True)
class Score:
    """One seat's score sheet after a round (R21): full and half contract values, ransoms, points."""

    seat: int
    full: int
    half: int
    ransom: int
    fulfilled: int
    points: float


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """Every seat's score sheet after the round was scored (R21)."""

    sheets: tuple[Score, ...]
    kind: str = field(default="round_end", init=False)


@dataclass(frozen=True, slots=True)
class Placing:
    """One seat's row of the final table: its place and why it stands above the next (R21, R22, D14)."""

    seat: int
    colour: str
    place: int
    points: float
    full: int
    half: int
    fulfilled: int
    ransom: int
    reason: str


@dataclass(frozen=True, slots=True)
class Final:
    """The game's last line: the winners (several for a shared win, D14) and the final table (R21, R22)."""

    winners: tuple[int, ...]
    table: tuple[Placing, ...]
    kind: str = field(default="final", init=False)


def scores(sheets: tuple[Sheet, ...]) -> RoundEnd:
    """Return the round-end line of the score sheets the rules kept (R21)."""
    return RoundEnd(tuple(Score(s.seat, s.full, s.half, s.ransom, s.fulfilled, s.points) for s in sheets))


def final_table(final: Standings, sheets: tuple[Sheet, ...]) -> Final:
    """Return the final line of the rules' standings, each row with its seat's sheet (R21, R22, D14)."""
    return Final(final.winners, tuple(Placing(st.seat, COLOURS[st.seat], st.place, st.points, sheets[st.seat].full,
                                              sheets[st.seat].half, st.fulfilled, st.ransom, st.reason)
                                      for st in final.table))


EngineEvent = Header | Deal | DraftPick | Planned | TurnBegun | Thrown | LaunchPass | RoundEnd | Final
Event = EngineEvent | RulesEvent
KINDS: dict[str, type] = {cls.__dataclass_fields__["kind"].default: cls  # type: ignore[union-attr]
                          for cls in typing.get_args(Event)}
NAMES: dict[type, str] = {cls: kind for kind, cls in KINDS.items()}  # each type's name in the record, for messages


@dataclass(frozen=True, slots=True)
class Stamped:
    """An event with the round and turn of the record line that tells it (RECORD.md: the header's round is 1,
    scoring lines keep the round they end, the final line's is one past the last round)."""

    round: int
    turn: int
    event: Event


class EventError(ValueError):
    """A record line that is no event of the vocabulary: names the field and what was expected."""


# -- encoding --------------------------------------------------------------------------------------------

def encode(stamped: Stamped) -> dict[str, Any]:
    """Return the record line of an event: `kind`, `round`, `turn`, then its fields in order (RECORD.md)."""
    event = stamped.event
    line: dict[str, Any] = {"kind": event.kind, "round": stamped.round, "turn": stamped.turn}
    if isinstance(event, Thrown):
        line.update(seat=event.seat, ship=event.ship, intended=throw_json(event.intended),
                    actual=throw_json(event.actual), result=roll_json(event.result, event.with_paths))
        return line
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name != "kind" and not (value is None and f.default is None):  # an optional part the record lacks
            line[f.name] = _plain(value)
    return line


def _plain(value: Any) -> Any:
    if type(value) in (int, float, str, bool, NoneType, dict):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


# -- decoding --------------------------------------------------------------------------------------------

def decode(line: dict[str, Any]) -> Stamped:
    """Return the event a record line tells, with its round and turn.

    Raises:
        EventError: an unknown kind, or a field missing or of the wrong type (names the field).
    """
    kind = line.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    stamp = tuple(_int(line.get(key), key) for key in ("round", "turn"))
    if cls is Thrown:
        event: Event = _thrown(line)
    else:
        event = _build(cls, line, "")
    return Stamped(stamp[0], stamp[1], event)


def _int(value: Any, where: str) -> int:
    if type(value) is not int:
        raise EventError(f"\"{where}\" should be a whole number, found {value!r}")
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _build(cls: type, data: Any, where: str) -> Any:
    """Return a dataclass of `cls` from its dict, each field converted by its type."""
    if not isinstance(data, dict):
        raise EventError(f"\"{where or cls.__name__}\" should be an object, found {data!r}")
    hints = _hints(cls)
    values = {}
    for f in fields(cls):
        if not f.init:
            continue
        key = f"{where}.{f.name}".lstrip(".")
        if f.name not in data:
            if f.default is MISSING:
                raise EventError(f"lacks \"{key}\"")
            continue
        values[f.name] = _value(hints[f.name], data[f.name], key)
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:  # a value the type refuses (e.g. a physics input out of range)
        raise EventError(f"\"{where or cls.__name__}\": {error}") from None


_NUMBER = {int: "a whole number", float: "a number", str: "text", bool: "true or false"}


def _value(tp: Any, data: Any, where: str) -> Any:
    """Return a JSON value as the type `tp` (numbers and text as they are, lists as tuples, cards parsed)."""
    origin = typing.get_origin(tp)
    if origin in (Union, UnionType):
        options = typing.get_args(tp)
        if data is None and NoneType in options:
            return None
        return _value(next(o for o in options if o is not NoneType), data, where)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list) or (args[-1] is not Ellipsis and len(data) != len(args)):
            size = "a list" if args[-1] is Ellipsis else f"a list of {len(args)}"
            raise EventError(f"\"{where}\" should be {size}, found {data!r}")
        if args[-1] is Ellipsis:
            return tuple(_value(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        return tuple(_value(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin is dict or tp is dict:
        if not isinstance(data, dict):
            raise EventError(f"\"{where}\" should be an object, found {data!r}")
        return data
    if tp is Any:
        return data
    if tp is float:
        if type(data) not in (float, int) or not math.isfinite(data):
            raise EventError(f"\"{where}\" should be a number, found {data!r}")
        return data
    if tp in (int, str, bool):
        if type(data) is not tp:
            raise EventError(f"\"{where}\" should be {_NUMBER[tp]}, found {data!r}")
        return data
    if tp is Card:
        return parse_card(data, where)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise EventError(f"\"{where}\" should be one of {[m.value for m in tp]}, found {data!r}") from None
    if tp is DiePath:
        return _path(data, where)
    if tp is Throw:
        return _throw(data, where)
    if is_dataclass(tp):
        return _build(tp, data, where)
    raise TypeError(f"no decoding for {tp!r}")  # a type added to the vocabulary without its decoding


def parse_card(text: Any, where: str = "card") -> Card:
    """Return the card a record names ("46N": value 46, North; R3)."""
    if isinstance(text, str) and len(text) > 1 and text[:-1].isdigit() and text[-1] in "NS":
        return Card(int(text[:-1]), Direction.NORTH if text[-1] == "N" else Direction.SOUTH)
    raise EventError(f"\"{where}\" should name a contract card like \"46N\", found {text!r}")


def _throw(data: Any, where: str) -> Throw:
    """Return a recorded throw; its orientation exactly as recorded (Throw would normalise it once more)."""
    throw = _build(Throw, data, where)
    if throw.orientation is not None:
        object.__setattr__(throw, "orientation", tuple(data["orientation"]))
    return throw


def _path(data: Any, where: str) -> DiePath:
    """Return a recorded path, its samples checked in bulk (a path holds hundreds of numbers)."""
    import numpy as np

    if not isinstance(data, dict):
        raise EventError(f"\"{where}\" should be an object, found {data!r}")
    name = _value(str, data.get("name"), f"{where}.name")
    try:
        times, positions, orientations = (np.asarray(data[k], dtype=float) for k in ("times", "positions", "orientations"))
    except (KeyError, TypeError, ValueError):
        raise EventError(f"\"{where}\" of {name} should hold times, positions [x, y, z] and orientations "
                         f"[x, y, z, w] as lists of numbers") from None
    n = len(times)
    if (n == 0 or times.shape != (n,) or positions.shape != (n, 3) or orientations.shape != (n, 4)
            or not (np.all(np.isfinite(positions)) and np.all(np.isfinite(orientations)))):
        raise EventError(f"\"{where}\" of {name} should have as many times as positions [x, y, z] and "
                         f"orientations [x, y, z, w], all finite")
    return DiePath(name, tuple(data["times"]), tuple(map(tuple, data["positions"])),
                   tuple(map(tuple, data["orientations"])))


def _thrown(line: dict[str, Any]) -> Thrown:
    result = line.get("result")
    with_paths = isinstance(result, dict) and "paths" in result
    if isinstance(result, dict) and not with_paths:
        result = {**result, "paths": []}
    return _build(Thrown, {**line, "result": result, "with_paths": with_paths}, "")
