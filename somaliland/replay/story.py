"""A game record read as a story to replay: steps (each throw, each pirate raid) with the board before
and after, the recorded paths, and what happened.

The story is a view of `engine.fold.replay_state`: the board before and after each step is the fold's
state, as the rules moved the dice (a throw's rest poses, a die put back on the board, seized into a pirate
port or released from it, a sunk die gone, every ship home after a round), and each step's events are the
fold's moments. Each recorded path of a die already lying on the board must start where the state had it:
where it does not, the record was edited, and the story says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from physics import DieRest, Throw
from somaliland import __version__
from somaliland.engine.events import Deal, DraftPick, Final, Header, LaunchPass, Planned, RoundEnd, Thrown, TurnBegun
from somaliland.engine.fold import Moment, replay_state
from somaliland.engine.phrases import Names
from somaliland.engine.record import RecordError, decode_at, read_record
from somaliland.engine.setup import setup_from_header
from somaliland.errors import UsageError
from somaliland.map.model import Map
from somaliland.rules.events import Failed, Fulfilled, Grounded, Released, Seized, TurnSkipped
from somaliland.rules.state import GameState

Pose7 = tuple[float, float, float, float, float, float, float]  # x, y, z (m), then the quaternion x, y, z, w
START_TOLERANCE = 5e-6  # m: paths are rounded to 1e-6 in the record
STEP_KINDS = ("throw", "pirates")
QUIET = (Header, Deal, DraftPick, Planned, TurnBegun, LaunchPass, Thrown)  # lines no caption tells as news


@dataclass(frozen=True, slots=True, eq=False)
class Track:
    """One die's recorded path during a throw: times (s), centre positions (m), orientations (x, y, z, w)."""

    name: str
    times: np.ndarray
    positions: np.ndarray
    orientations: np.ndarray
    aground: float | None = None  # D19: the time it ran aground on its way (the rest of its roll did not count)
    crossed: tuple[float, float] | None = None  # D19: where it first crossed the coast (m)

    @property
    def end(self) -> float:
        """Return the time of the last sample."""
        return float(self.times[-1])


@dataclass(frozen=True, slots=True)
class Assignment:
    """What a ship carries this round: the contract card (e.g. "54S") and the route it sails."""

    card: str
    route: str

    @property
    def direction(self) -> str:
        """Return "north" or "south", from the card's letter (R3)."""
        return "north" if self.card.endswith("N") else "south"


@dataclass(frozen=True, slots=True, eq=False)
class Step:
    """One thing that moves dice: a throw (animated from its paths) or a pirate raid (dice set down)."""

    kind: str  # "throw" or "pirates"
    line: int  # the record line of the throw, or of the first seizure
    round: int
    turn: int
    before: dict[str, Pose7]
    after: dict[str, Pose7]
    tracks: tuple[Track, ...] = ()
    seat: int | None = None
    ship: str | None = None
    carries: Assignment | None = None
    thrown: Moment | None = None  # the throw line, with the state after the roll
    throw: Throw | None = None  # the throw the hand made (the record's "actual")
    moved: tuple[DieRest, ...] = ()  # the rest poses of the dice that moved, the thrown one first
    events: tuple[Moment, ...] = ()  # what followed, up to the next step
    prelude: tuple[Moment, ...] = ()  # what came between the previous step and this one

    @property
    def duration(self) -> float:
        """Return how long the recorded motion lasts (s); 0 for a raid or a throw without paths."""
        return max((t.end for t in self.tracks), default=0.0)


@dataclass(frozen=True, slots=True, eq=False)
class Story:
    """A record ready to replay."""

    path: str
    header: dict[str, Any]
    world: Map
    colours: tuple[str, ...]  # by seat
    faces: dict[str, tuple[int, ...]]  # ship id -> its six face values (+x, -x, +y, -y, +z, -z), in state order
    owners: dict[str, int]  # ship id -> seat
    die_size: float
    steps: tuple[Step, ...]
    names: Names  # what the header calls the seats and routes (the map's routes for older records)
    warnings: tuple[str, ...] = ()

    def rounds(self) -> list[int]:
        """Return the rounds that have steps."""
        return sorted({s.round for s in self.steps})

    def turns(self, round_: int) -> list[int]:
        """Return the turns of a round that have steps."""
        return sorted({s.turn for s in self.steps if s.round == round_})

    def select(self, round_: int | None = None, turn: int | None = None) -> list[int]:
        """Return the indices of the steps of a round (and turn), in order.

        Raises:
            UsageError: no step in that round or turn (names the rounds or turns there are).
        """
        if round_ is None:
            return list(range(len(self.steps)))
        if round_ not in self.rounds():
            raise UsageError(f"{self.path} has no throws in round {round_}; rounds with throws: "
                             f"{_ranges(self.rounds())}")
        chosen = [i for i, s in enumerate(self.steps) if s.round == round_ and (turn is None or s.turn == turn)]
        if not chosen:
            raise UsageError(f"{self.path} has no throws in round {round_} turn {turn}; turns with throws: "
                             f"{_ranges(self.turns(round_))}")
        return chosen


def load_story(path: str | Path, world: Map | None = None, whole: bool = True) -> Story:
    """Read a game record and return its story.

    Args:
        path: the record (JSON Lines, RECORD.md).
        world: the map to replay on; by default the file the header names, loaded from disk.
        whole: the record must end with the final table (False: a game still being played, its story so far).

    Raises:
        RecordError: the record cannot be read, is truncated, or a line lacks or garbles what the replay
            needs (names the line).
        MapError: the header's map file cannot be loaded.
    """
    name = str(path)
    lines = read_record(path, whole)
    setup_from_header(decode_at(lines[0], 1, name).event, name)  # refuses what verify refuses, with its line
    numbers = _line_numbers(Path(path))
    head = lines[0]
    warnings = []
    version = head.get("version")
    if version != __version__:
        warnings.append(f"recorded by somaliland {version}, replayed by {__version__}: the rules or physics "
                        f"may have changed since")
    recorded_sha = (head.get("map") or {}).get("sha256")
    if world is None:
        from somaliland.engine.mapref import find_map
        from somaliland.map import load

        file = Path(str((head.get("map") or {}).get("file", "")))
        try:
            file, moved = find_map(head, name)
        except RecordError:
            if not file.is_file():
                raise
            moved = None  # the recorded file has changed: drawn anyway, with the warning below
        if moved:
            warnings.append(moved)
        world = load(file)
    if world.sha256 != recorded_sha:
        warnings.append(f"the map {world.source or world.name} differs from the one the game was played on "
                        f"(sha256 {world.sha256[:12]}, recorded {str(recorded_sha)[:12]}): the board drawn "
                        f"may not be the board played")
    builder = _Builder(name, warnings)
    for moment in replay_state(lines, world, name):
        builder.feed(moment, numbers[moment.line - 1])
    builder.close()  # a game still being played ends in the middle of a step
    bare = sum(1 for step in builder.steps if step.kind == "throw" and not step.tracks)
    if bare:
        warnings.append(f"{bare} throw{'s' * (bare != 1)} without recorded paths (played with --no-paths): "
                        f"those dice jump from rest to rest")
    header, ships = builder.header, builder.ships
    names = Names.from_header(header)
    if not names.labels:
        names = Names(header.colours, {r.name: r.display_name for r in world.routes},
                      {r.name: r.full_value for r in world.routes})
    return Story(name, head, world, header.colours, {s.id: s.spec.faces for s in ships},
                 {s.id: s.owner for s in ships}, builder.die_size, tuple(builder.steps), names, tuple(warnings))


def _line_numbers(path: Path) -> list[int]:
    """Return the file line number of each non-blank line (read_record skips blank ones)."""
    from somaliland.inputs import read_limited

    text_ = read_limited(path, "game record").decode("utf-8")  # read whole by read_record just before
    return [n for n, line in enumerate(text_.splitlines(), start=1) if line.strip()]


def _board(state: GameState) -> dict[str, Pose7]:
    """Return every die on the board as the state has it: position, then orientation."""
    return {s.id: (*s.pose.position, *s.pose.orientation) for s in state.ships if s.pose is not None}  # type: ignore


class _Builder:
    """Cuts the fold's moments into steps; the board before and after each is the fold's state."""

    def __init__(self, path: str, warnings: list[str]) -> None:
        self.path, self.warnings = path, warnings
        self.board: dict[str, Pose7] = {}
        self.state: GameState | None = None
        self.steps: list[Step] = []
        self.current: dict[str, Any] | None = None  # the step being built
        self.prelude: list[Moment] = []

    def feed(self, moment: Moment, number: int) -> None:
        event = moment.event
        match event:
            case Header():
                self.header, self.ships, self.die_size = event, moment.state.ships, float(event.rules["die_size"])
            case Deal() | TurnBegun() | Released():  # a step ends; a released ship is set down between steps (D17)
                self.close()
            case Thrown():
                self.throw(moment, number)
            case Seized() if self.current is None or self.current["kind"] != "pirates":
                self.open(moment, number, "pirates")
        if isinstance(event, (Deal, Thrown, Seized, Released)):  # the lines that move dice: the state has them
            self.board = _board(moment.state)
        if not isinstance(event, QUIET):
            self.note(moment)
        if isinstance(event, Final):
            self.close()
        self.state = moment.state

    def open(self, moment: Moment, number: int, kind: str, **data: Any) -> None:
        self.close()
        self.current = {"kind": kind, "line": number, "round": moment.round, "turn": moment.turn,
                        "before": dict(self.board), "events": [], "prelude": tuple(self.prelude), **data}
        self.prelude = []

    def close(self) -> None:
        if self.current is not None:
            c = self.current
            c["after"], c["events"] = dict(self.board), tuple(c["events"])
            landed = {m.event.ship: m.event for m in c["events"]
                      if isinstance(m.event, Grounded) and m.event.crossed is not None}
            if landed and c.get("tracks"):  # D19: where each ship that ran aground on its way crossed the coast
                c["tracks"] = tuple(replace(t, aground=landed[t.name].time, crossed=landed[t.name].crossed)
                                    if t.name in landed else t for t in c["tracks"])
            self.steps.append(Step(**c))
            self.current = None

    def note(self, moment: Moment) -> None:
        if self.current is not None and not isinstance(moment.event, TurnSkipped):
            self.current["events"].append(moment)
        elif isinstance(moment.event, (Fulfilled, Failed, RoundEnd, Final)) and self.steps and (
                isinstance(moment.event, Final) or self.steps[-1].round == moment.round):
            # a round's end after its last step had closed (a last turn with no throw and no seizure): the round's
            # contracts, scores and the final table are told with that step, not lost or put off to the next round
            last = self.steps[-1]
            self.steps[-1] = replace(last, events=last.events + tuple(self.prelude) + (moment,))
            self.prelude = []
        else:
            self.prelude.append(moment)

    def throw(self, moment: Moment, number: int) -> None:
        event = moment.event
        assert isinstance(event, Thrown) and self.state is not None
        result = event.result
        tracks = tuple(_track(self.path, number, p) for p in result.paths)
        if tracks and tracks[0].name != event.ship:
            raise RecordError(self.path, number, f"throw line: the first path should be the thrown ship "
                                                 f"{event.ship}'s, found {tracks[0].name}")
        for track in tracks[1:]:
            self.check_start(number, track)
        ship = self.state.ship(event.ship)
        carries = Assignment(str(ship.card), ship.route) if ship.card is not None and ship.route else None
        self.open(moment, number, "throw", tracks=tracks, seat=event.seat, ship=event.ship, carries=carries,
                  thrown=moment, throw=event.actual, moved=result.moved)

    def check_start(self, number: int, track: Track) -> None:
        pose = self.board.get(track.name)
        if pose is None:
            raise RecordError(self.path, number, f"throw line: a path moves {track.name}, which is not on the board")
        gap = math.dist(pose[:3], track.positions[0])
        if gap > START_TOLERANCE:
            self.warnings.append(f"{self.path}, line {number}: {track.name}'s path starts {gap * 1000:.1f} mm "
                                 f"from where the record left it: edited, or made by other rules")


def _track(path: str, number: int, recorded) -> Track:
    """Return a recorded path as arrays; its orientations as unit quaternions."""
    times = np.asarray(recorded.times, dtype=float)
    orientations = np.asarray(recorded.orientations, dtype=float)
    norms = np.linalg.norm(orientations, axis=1)
    if np.any(np.diff(times) < 0):
        raise RecordError(path, number, f"throw line: the path of {recorded.name} goes back in time")
    if np.any(np.abs(norms - 1) > 1e-3):
        raise RecordError(path, number, f"throw line: the path of {recorded.name} has orientations that are not "
                                        f"unit quaternions")
    return Track(recorded.name, times, np.asarray(recorded.positions, dtype=float), orientations / norms[:, None])


def _ranges(values: list[int]) -> str:
    return ", ".join(map(str, values)) or "none"
