"""A game record read as a story to replay: steps (each throw, each pirate raid) with the board before
and after, the recorded paths, and what happened.

The board is followed exactly as the rules moved the dice: a throw leaves every moved die at its
recorded rest pose; a die put back on the board, seized into a pirate port or released from it is set
down by the rules' own placement functions; a sunk die leaves; a new round sends every ship home. Each recorded path of a
die that was already lying on the board must start where the story left it: where it does not, the
record was edited or made by other rules, and the story says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from physics import Pose
from somaliland import __version__
from somaliland.engine.phrases import Names
from somaliland.engine.record import RecordError, read_record
from somaliland.errors import UsageError
from somaliland.map.model import Map
from somaliland.replay.checks import Line, field as sub, number, text, vector

Pose7 = tuple[float, float, float, float, float, float, float]  # x, y, z (m), then the quaternion x, y, z, w
START_TOLERANCE = 5e-6  # m: paths are rounded to 1e-6 in the record
STEP_KINDS = ("throw", "pirates")
TRIVIA = frozenset({"game", "deal", "draft_pick", "plan", "turn", "launch_pass"})


@dataclass(frozen=True, slots=True, eq=False)
class Track:
    """One die's recorded path during a throw: times (s), centre positions (m), orientations (x, y, z, w)."""

    name: str
    times: np.ndarray
    positions: np.ndarray
    orientations: np.ndarray

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
    throw: dict[str, Any] | None = None  # the throw the hand made (the record's "actual")
    moved: tuple[dict[str, Any], ...] = ()  # the record's rest poses of the dice that moved
    events: tuple[dict[str, Any], ...] = ()  # what followed, up to the next step
    prelude: tuple[dict[str, Any], ...] = ()  # what came between the previous step and this one

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


def load_story(path: str | Path, world: Map | None = None) -> Story:
    """Read a game record and return its story.

    Args:
        path: the record (JSON Lines, RECORD.md).
        world: the map to replay on; by default the file the header names, loaded from disk.

    Raises:
        RecordError: the record cannot be read, is truncated, or a line lacks or garbles what the replay
            needs (names the line).
        MapError: the header's map file cannot be loaded.
    """
    name = str(path)
    events = read_record(path)
    numbers = _line_numbers(Path(path))
    lines = [Line(name, n, e) for n, e in zip(numbers, events)]
    head = lines[0]
    colours, faces, owners, size = _cast(head)
    warnings = []
    version = head.get("version")
    if version != __version__:
        warnings.append(f"recorded by somaliland {version}, replayed by {__version__}: the rules or physics "
                        f"may have changed since")
    recorded = head.mapping("map")
    if world is None:
        from somaliland.engine.mapref import find_map
        from somaliland.map import load

        file = Path(text(head, "map.file", sub(head, "map", recorded, "file")))
        try:
            file, moved = find_map(head.event, name)
        except RecordError:
            if not file.is_file():
                raise
            moved = None  # the recorded file has changed: drawn anyway, with the warning below
        if moved:
            warnings.append(moved)
        world = load(file)
    recorded_sha = sub(head, "map", recorded, "sha256")
    if world.sha256 != recorded_sha:
        warnings.append(f"the map {world.source or world.name} differs from the one the game was played on "
                        f"(sha256 {world.sha256[:12]}, recorded {str(recorded_sha)[:12]}): the board drawn "
                        f"may not be the board played")
    builder = _Builder(name, world, faces, owners, size, warnings)
    for line in lines[1:]:
        builder.feed(line)
    bare = sum(1 for step in builder.steps if step.kind == "throw" and not step.tracks)
    if bare:
        warnings.append(f"{bare} throw{'s' * (bare != 1)} without recorded paths (played with --no-paths): "
                        f"those dice jump from rest to rest")
    names = Names.from_header(head.event)
    if not names.labels:
        names = Names(colours, {r.name: r.display_name for r in world.routes}, {r.name: r.full_value for r in world.routes})
    return Story(name, head.event, world, colours, faces, owners, size, tuple(builder.steps), names, tuple(warnings))


def _line_numbers(path: Path) -> list[int]:
    """Return the file line number of each non-blank line (read_record skips blank ones)."""
    text_ = path.read_text(encoding="utf-8")
    return [n for n, line in enumerate(text_.splitlines(), start=1) if line.strip()]


def _cast(head: Line) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]], dict[str, int], float]:
    """Return the seats' colours, each ship's faces and owner, and the die size, from the header."""
    rules = head.mapping("rules")
    size = number(head, "rules.die_size", sub(head, "rules", rules, "die_size"))
    if not 0.001 <= size <= 0.2:
        raise head.fail(f"\"rules.die_size\" should be a die's edge in metres, found {size}")
    fleet = sub(head, "rules", rules, "fleet")
    if not isinstance(fleet, list) or not fleet:
        raise head.fail("\"rules.fleet\" should list the ships")
    colours = tuple(text(head, "seats[].colour", sub(head, "seats[]", seat, "colour")) for seat in head.items("seats"))
    if not colours:
        raise head.fail("\"seats\" is empty")
    ships = []
    for spec in fleet:
        ship = text(head, "rules.fleet[].name", sub(head, "rules.fleet[]", spec, "name"))
        values = vector(head, "rules.fleet[].faces", sub(head, "rules.fleet[]", spec, "faces"), 6)
        if any(v < 0 or v != int(v) for v in values):
            raise head.fail(f"ship {ship!r} should have six non-negative whole face values, found {list(values)}")
        ships.append((ship, tuple(int(v) for v in values)))
    faces, owners = {}, {}
    for seat, colour in enumerate(colours):  # seat by seat, each fleet in order: the game state's order
        for ship, values in ships:
            faces[f"{colour}-{ship}"], owners[f"{colour}-{ship}"] = values, seat
    return colours, faces, owners, size


class _Builder:
    """Follows the board through the record's lines and cuts it into steps."""

    def __init__(self, path: str, world: Map, faces: dict[str, tuple[int, ...]], owners: dict[str, int],
                 size: float, warnings: list[str]) -> None:
        self.path, self.world, self.faces, self.owners, self.size = path, world, faces, owners, size
        self.warnings = warnings
        self.board: dict[str, Pose7] = {}
        self.carries: dict[str, Assignment] = {}
        self.steps: list[Step] = []
        self.current: dict[str, Any] | None = None  # the step being built
        self.prelude: list[dict[str, Any]] = []

    # -- cutting into steps ----------------------------------------------------------------------
    def feed(self, line: Line) -> None:
        line.integer("round")
        line.integer("turn")
        handler = getattr(self, f"_{line.kind}", None)
        if handler is not None:
            handler(line)
        elif line.kind not in TRIVIA:
            self._note(line)
        if line.kind in ("deal", "final"):
            self._close()

    def _open(self, line: Line, kind: str, **data: Any) -> None:
        self._close()
        self.current = {"kind": kind, "line": line.number, "round": line.event["round"],
                        "turn": line.event["turn"], "before": dict(self.board), "events": [],
                        "prelude": tuple(self.prelude), **data}
        self.prelude = []

    def _close(self) -> None:
        if self.current is not None:
            c = self.current
            c["after"], c["events"] = dict(self.board), tuple(c["events"])
            self.steps.append(Step(**c))
            self.current = None

    def _note(self, line: Line) -> None:
        event = dict(line.event, line=line.number)
        if self.current is not None and line.kind != "turn_skipped":
            self.current["events"].append(event)
        else:
            self.prelude.append(event)

    # -- lines that change the board ------------------------------------------------------------
    def _deal(self, line: Line) -> None:
        self._close()
        self.board.clear()  # every ship went home at the round's end (R15)
        self.carries.clear()

    def _turn(self, line: Line) -> None:
        self._close()

    def _plan(self, line: Line) -> None:
        for plan in line.items("plans"):
            card = text(line, "plans[].card", sub(line, "plans[]", plan, "card"))
            route = text(line, "plans[].route", sub(line, "plans[]", plan, "route"))
            ships = sub(line, "plans[]", plan, "ships")
            routes = (plan.get("ship_routes") or [route] * len(ships)) if isinstance(ships, list) else None
            if not isinstance(routes, list) or len(routes) != len(ships):  # a contract may get no ship
                raise line.fail("\"plans[].ships\" should list the ships (and ship_routes as many routes)")
            for ship, own_route in zip(ships, routes):
                self.carries[self._ship(line, "plans[].ships", ship)] = Assignment(card, str(own_route))

    def _throw(self, line: Line) -> None:
        ship = self._ship(line, "ship", line.get("ship"))
        seat = line.integer("seat")
        result = line.mapping("result")
        tracks = tuple(self._track(line, p) for p in sub(line, "result", result, "paths")) \
            if "paths" in result else ()
        if tracks and tracks[0].name != ship:
            raise line.fail(f"the first path should be the thrown ship {ship}'s, found {tracks[0].name}")
        for track in tracks[1:]:
            self._check_start(line, track)
        moved = sub(line, "result", result, "moved")
        if not isinstance(moved, list) or not moved:
            raise line.fail("\"result.moved\" should list the dice that moved, the thrown one first")
        self._open(line, "throw", tracks=tracks, seat=seat, ship=ship, carries=self.carries.get(ship),
                   throw=line.mapping("actual"), moved=tuple(moved))
        for k, rest in enumerate(moved):
            name = self._ship(line, "result.moved[].name", sub(line, "result.moved[]", rest, "name"))
            if k > 0 and name not in self.board:
                raise line.fail(f"the throw moved {name}, which is not on the board")
            position = vector(line, "result.moved[].position", sub(line, "result.moved[]", rest, "position"), 3)
            orientation = vector(line, "result.moved[].orientation", sub(line, "result.moved[]", rest, "orientation"), 4)
            self.board[name] = (*position, *_unit(line, orientation))  # type: ignore[assignment]

    def _replaced(self, line: Line) -> None:
        ship = self._on_board(line)
        self._set_down(ship, vector(line, "at", line.get("at"), 2))
        self._note(line)

    def _released(self, line: Line) -> None:
        """A held ship set down to sail on between steps (D17): the step before ends with it still held."""
        ship = self._on_board(line)
        self._close()
        self._set_down(ship, vector(line, "at", line.get("at"), 2))
        self._note(line)

    def _sunk(self, line: Line) -> None:
        self.board.pop(self._on_board(line))
        self._note(line)

    def _seized(self, line: Line) -> None:
        from somaliland.rules.placement import free_spot

        ship = self._on_board(line)
        port_name = line.text("port")
        line.integer("ransom")
        port = next((p for p in self.world.pirate_ports if p.name == port_name), None)
        if port is None:
            raise line.fail(f"no pirate port {port_name!r} on the map; ports: "
                            f"{', '.join(p.name for p in self.world.pirate_ports)}")
        if self.current is None or self.current["kind"] != "pirates":
            self._open(line, "pirates")
        others = [pose[:2] for name, pose in self.board.items() if name != ship]
        self._set_down(ship, free_spot(port.point, others, self.size))
        self._note(line)

    # -- helpers ------------------------------------------------------------------------------------
    def _ship(self, line: Line, where: str, value: Any) -> str:
        name = text(line, where, value)
        if name not in self.faces:
            raise line.fail(f"\"{where}\" names {name!r}, which is no ship of this game")
        return name

    def _on_board(self, line: Line) -> str:
        ship = self._ship(line, "ship", line.get("ship"))
        if ship not in self.board:
            raise line.fail(f"{ship} is not on the board at this point of the game")
        return ship

    def _set_down(self, ship: str, at: tuple[float, ...]) -> None:
        from somaliland.rules.placement import set_down

        old = self.board[ship]
        pose = set_down(Pose(old[:3], old[3:]), (at[0], at[1]), self.size, self.world)
        self.board[ship] = (*pose.position, *pose.orientation)  # type: ignore[assignment]

    def _track(self, line: Line, data: Any) -> Track:
        name = self._ship(line, "result.paths[].name", sub(line, "result.paths[]", data, "name"))
        try:
            times = np.asarray(sub(line, "result.paths[]", data, "times"), dtype=float)
            positions = np.asarray(sub(line, "result.paths[]", data, "positions"), dtype=float)
            orientations = np.asarray(sub(line, "result.paths[]", data, "orientations"), dtype=float)
        except (TypeError, ValueError):
            raise line.fail(f"the path of {name} should hold lists of numbers") from None
        n = len(times)
        if (n == 0 or times.shape != (n,) or positions.shape != (n, 3) or orientations.shape != (n, 4)
                or not np.all(np.isfinite(positions)) or not np.all(np.isfinite(orientations))
                or not np.all(np.diff(times) >= 0)):
            raise line.fail(f"the path of {name} should have as many times (never decreasing) as positions [x, y, z] and "
                            f"orientations [x, y, z, w]")
        norms = np.linalg.norm(orientations, axis=1)
        if np.any(np.abs(norms - 1) > 1e-3):
            raise line.fail(f"the path of {name} has orientations that are not unit quaternions")
        return Track(name, times, positions, orientations / norms[:, None])

    def _check_start(self, line: Line, track: Track) -> None:
        pose = self.board.get(track.name)
        if pose is None:
            raise line.fail(f"a path moves {track.name}, which is not on the board")
        gap = math.dist(pose[:3], track.positions[0])
        if gap > START_TOLERANCE:
            self.warnings.append(f"{self.path}, line {line.number}: {track.name}'s path starts {gap * 1000:.1f} mm "
                                 f"from where the record left it: edited, or made by other rules")


def _unit(line: Line, q: tuple[float, ...]) -> tuple[float, ...]:
    """Return q as recorded (physics.Pose normalises it, exactly as the game did) if it is a unit quaternion."""
    norm = math.sqrt(sum(c * c for c in q))
    if not 0.99 <= norm <= 1.01:
        raise line.fail(f"an orientation is not a unit quaternion: {list(q)}")
    return q


def _ranges(values: list[int]) -> str:
    return ", ".join(map(str, values)) or "none"
