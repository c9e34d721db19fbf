"""Check a game record against D19 and D20 from its own lines, independently of the rules code that played it.

`scan_record` re-scores a record from the rules text and the record format (RECORD.md) alone:

- D19 (the path counts; judged when the header's rules say `grounding_on = "path"` and the record keeps its
  paths): every die's recorded path in every throw is measured by `engine/rolled.py`; a die that rolled its
  record's bar or more over land with no `grounded` line for its ship after that throw (before the next) is
  flagged. The bar is the header's coast tolerance (3 mm by default: the rules count a stretch over land that
  long, or reaching that deep) plus `SAMPLING_ALLOWANCE` for this measure's own reading of the sampled path.
  Two such dice are excused, listed but not flagged: a ship that sank in that throw (R18: removed from the
  game, it has no turn to lose and is set down nowhere) and a ship that had already arrived (R9: its voyage is
  over; the rules do not say that a pushed arrived ship runs aground). The dice that did ground are listed
  with how far they rolled over land.
- D20 (once released, at sea; judged when `after_release = "at_sea"`): a ship is `released` at most once
  for each `seized` line in a round, and a released ship that another ship's throw pushes to rest inside its
  destination zone (its plan's route and card direction; where a grounding set it down, if it ran aground
  on the way) gets an `arrived` line in that throw (R18).

`format_scan` writes a record's result for people, `scan_json` for programs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import shapely

from somaliland.engine.events import Deal, Planned, RoundEnd, Thrown
from somaliland.engine.record import RecordError, decode_at, read_record
from somaliland.engine.rolled import LandRoll, land_roll
from somaliland.map.model import Map
from somaliland.rules.events import Arrived, Grounded, Replaced, Released, Seized, Sunk
from somaliland.units import cm_point

SAMPLING_ALLOWANCE = 0.002  # m: the bar's margin over the coast tolerance, for this scan's own measure of the path
DEFAULT_COAST_TOLERANCE = 0.003  # m: D19's tolerance (rules/README.md) for a header that does not give one
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Flag:
    """One thing a record tells against D19 or D20: the line, the ship, the ruling and what is wrong."""

    line: int
    ship: str
    ruling: str
    problem: str
    over_land: float | None = None  # metres (D19)
    at: Point | None = None  # where the path first rolled over land (D19), or where the ship rests (D20)


@dataclass(frozen=True, slots=True)
class Grounding:
    """A ship the record grounds after a throw (line `line`), and how far its path rolled over land (D19)."""

    line: int
    ship: str
    over_land: float
    entered: Point | None  # where its rolling path first came over land, by this scan
    crossed: Point | None  # where the record says it crossed the coast


@dataclass(frozen=True, slots=True)
class RecordScan:
    """What the scan found in one record. `d19` and `d20` say "judged", or why that ruling was not judged."""

    file: str
    map_file: str
    lines: int
    d19: str
    d20: str
    paths: int
    over_land: int  # dice paths that rolled over land at all
    groundings: tuple[Grounding, ...]
    seizures: int
    releases: int
    pushed_released: int  # released ships another ship's throw moved
    pushed_home: int  # of them, pushed to rest inside their destination zone
    flags: tuple[Flag, ...]
    excused: tuple[Flag, ...]  # rolled over land without grounding, as ships the rules excuse (sunk, arrived)
    coast_tolerance: float = DEFAULT_COAST_TOLERANCE  # metres: the header's rules' D19 tolerance
    warnings: tuple[str, ...] = ()

    @property
    def bar(self) -> float:
        """Return the metres over land past which a die that did not ground is flagged (D19)."""
        return self.coast_tolerance + SAMPLING_ALLOWANCE


def scan_record(path: str | Path, map_file: str | Path | None = None) -> RecordScan:
    """Scan one game record for D19 and D20 (see the module's docstring).

    Args:
        path: the record (JSON Lines, RECORD.md); an unfinished one (no final line) is scanned as far as it goes.
        map_file: the map to judge it on; default: the map the header names, found by its sha256.

    Raises:
        RecordError: the record cannot be read, a line is no event of the format, the header's rules lack the
            die size, or a plan names a route the map lacks (names the line).
        MapError: the map file cannot be loaded.
    """
    from somaliland.engine.mapref import find_map
    from somaliland.map import load

    name = str(path)
    lines = read_record(path, whole=False)
    numbers = _line_numbers(Path(path))
    events = [decode_at(line, number, name).event for line, number in zip(lines, numbers)]
    rules = lines[0]["rules"]
    edge = rules.get("die_size")
    if isinstance(edge, bool) or not isinstance(edge, (int, float)) or not 0 < edge < 1:
        raise RecordError(name, 1, f"rules.die_size: expected the die's edge in metres, found {edge!r}")
    warnings = []
    if map_file is None:
        map_file, moved = find_map(lines[0], name)
        if moved:
            warnings.append(moved)
    world = load(map_file)
    if world.sha256 != lines[0]["map"].get("sha256"):
        warnings.append(f"{map_file} is not the map the record was played on (its sha256 differs)")
    d19 = _d19_judged(rules, lines)
    tolerance = rules.get("coast_tolerance", DEFAULT_COAST_TOLERANCE)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < 1:
        raise RecordError(name, 1, f"rules.coast_tolerance: expected the coast tolerance in metres, found "
                                   f"{tolerance!r}")
    d20 = "judged" if rules.get("after_release") == "at_sea" else (
        f"not judged: made under after_release = {rules.get('after_release', 'held')!r}, the reading before D20")
    walk = _Walk(name, world, edge, tolerance + SAMPLING_ALLOWANCE, rules, d19 == "judged", d20 == "judged")
    for index, event in enumerate(events):
        walk.step(index, event, events, numbers)
    return RecordScan(file=name, map_file=str(map_file), lines=len(lines), d19=d19, d20=d20, paths=walk.paths,
                      over_land=walk.over_land, groundings=tuple(walk.groundings),
                      seizures=walk.seizures, releases=walk.releases, pushed_released=walk.pushed_released,
                      pushed_home=walk.pushed_home, flags=tuple(walk.flags), excused=tuple(walk.excused),
                      coast_tolerance=tolerance, warnings=tuple(warnings))


def _line_numbers(path: Path) -> list[int]:
    """Return the file's line number of each record line (read_record skips blank lines)."""
    return [n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if text.strip()]


def _d19_judged(rules: dict[str, Any], lines: list[dict[str, Any]]) -> str:
    """Return "judged", or why D19 cannot be judged on this record."""
    if rules.get("grounding_on") != "path":
        return (f"not judged: made under grounding_on = {rules.get('grounding_on', 'rest')!r}, the reading before "
                f"D19 (only where a die stops counts)")
    if not lines[0].get("record_paths", True):
        return "not judged: the record keeps no paths (played with --no-paths)"
    return "judged"


class _Walk:
    """The scan's pass over a record's events, in order, keeping what D20 needs per round."""

    def __init__(self, name: str, world: Map, edge: float, bar: float, rules: dict[str, Any], d19: bool,
                 d20: bool) -> None:
        self.name, self.world, self.edge, self.bar, self.rules = name, world, edge, bar, rules
        self.d19, self.d20 = d19, d20
        self.paths = self.over_land = self.seizures = self.releases = 0
        self.pushed_released = self.pushed_home = 0
        self.groundings: list[Grounding] = []
        self.flags: list[Flag] = []
        self.excused: list[Flag] = []
        self._new_round()

    def _new_round(self) -> None:
        self.owed: Counter[str] = Counter()  # seizures not yet released, per ship (D20: one release each)
        self.released: set[str] = set()  # released this round and at sea since (not seized again, arrived, sunk)
        self.arrived: set[str] = set()  # arrived this round (R9)
        self.destination: dict[str, tuple[str, Any]] = {}  # ship -> (route, direction) by this round's plans

    def step(self, index: int, event: Any, events: list[Any], numbers: list[int]) -> None:
        """Take one event; a throw also reads the lines that follow it, up to the next throw."""
        line = numbers[index]
        if isinstance(event, (Deal, RoundEnd)):
            self._new_round()
        elif isinstance(event, Planned):
            for plan in event.plans:
                for ship, route in plan.ships_on_routes():
                    if route not in {r.name for r in self.world.routes}:
                        raise RecordError(self.name, line, f"plan: route {route!r} is not on the map "
                                                           f"({', '.join(r.name for r in self.world.routes)})")
                    self.destination[ship] = (route, plan.card.direction)
        elif isinstance(event, Seized):
            self.seizures += 1
            self.owed[event.ship] += 1
            self.released.discard(event.ship)
        elif isinstance(event, Released):
            self._released(line, event)
        elif isinstance(event, (Arrived, Sunk)):
            self.released.discard(event.ship)
            if isinstance(event, Arrived):
                self.arrived.add(event.ship)
        elif isinstance(event, Thrown):
            after = []
            for later in events[index + 1:]:
                if isinstance(later, Thrown):
                    break
                after.append(later)
            if self.d19 and event.with_paths:
                self._paths(line, event, after)
            if self.d20:
                self._pushed(line, event, after)

    def _released(self, line: int, event: Released) -> None:
        """Count a release; under D20 a ship is released at most once per seizure."""
        self.releases += 1
        if self.d20 and self.owed[event.ship] == 0:
            again = "again, with no new seizure since its last release" if event.ship in self.released else (
                "with no seizure this round to release it from")
            self.flags.append(Flag(line, event.ship, "D20", f"released {again}", at=event.at))
        self.owed[event.ship] = max(0, self.owed[event.ship] - 1)
        self.released.add(event.ship)

    def _paths(self, line: int, event: Thrown, after: list[Any]) -> None:
        """Measure each moved die's path over land; flag one that rolled the bar or more and did not ground (D19)."""
        for path in event.result.paths:
            self.paths += 1
            try:
                roll = land_roll(path, self.world, self.edge)
            except ValueError as error:
                raise RecordError(self.name, line, f"throw: the path of {path.name}: {error}") from None
            self.over_land += roll.over_land > 0
            grounded = next((e for e in after if isinstance(e, Grounded) and e.ship == path.name), None)
            if grounded is not None:
                self.groundings.append(Grounding(line, path.name, roll.over_land, roll.entered, grounded.crossed))
            elif roll.over_land >= self.bar:
                sank = any(isinstance(e, Sunk) and e.ship == path.name for e in after)
                excused = "sank in this throw" if sank else "had arrived" if path.name in self.arrived else ""
                (self.excused if excused else self.flags).append(
                    Flag(line, path.name, "D19", _ungrounded(roll, event, after, excused), roll.over_land,
                         roll.entered))

    def _pushed(self, line: int, event: Thrown, after: list[Any]) -> None:
        """Flag a released ship pushed to rest in its destination zone without an `arrived` line (D20, R18)."""
        for rest in event.result.moved:
            ship = rest.name
            if ship == event.ship or ship not in self.released:
                continue
            self.pushed_released += 1
            told = {type(e): e for e in after if getattr(e, "ship", None) == ship}
            if Replaced in told and self.rules.get("off_board_arrival", "same_throw") != "same_throw":
                continue  # R19, D13: put back after leaving the board, it cannot arrive in this throw
            at = (told[Grounded].at if Grounded in told else told[Replaced].at if Replaced in told
                  else (rest.position[0], rest.position[1]))
            if ship not in self.destination:
                continue  # a ship no plan of this round names has no destination to reach
            route, direction = self.destination[ship]
            zone = self.world.route(route).leg(direction)
            if not zone.destination.covers(shapely.Point(at[0], at[1])):
                continue
            self.pushed_home += 1
            if Arrived not in told:
                self.flags.append(Flag(line, ship, "D20", f"released earlier, pushed by {event.ship} to rest in its "
                                       f"destination ({zone.zone or route}) at {cm_point(at)}, and no "
                                       f"arrived line follows the throw", at=(at[0], at[1])))


def _ungrounded(roll: LandRoll, event: Thrown, after: list[Any], excused: str) -> str:
    """Return the sentence a D19 flag says: how far, over which land, from where and when; what else befell it."""
    how = "thrown" if roll.ship == event.ship else f"pushed by {event.ship}"
    how = f"({excused}) {how}" if excused else how
    where = f" from {cm_point(roll.entered)} at {roll.time:.2f} s" if roll.entered else ""
    befell = sorted({e.kind for e in after if getattr(e, "ship", None) == roll.ship})
    note = f" (the throw's lines about it: {', '.join(befell)})" if befell else ""
    return (f"{how}, rolled {roll.over_land * 1000:.1f} mm over land ({', '.join(roll.lands)}){where}, and no "
            f"grounded line follows the throw{note}")


def scan_json(scan: RecordScan) -> dict[str, Any]:
    """Return a record's scan as plain JSON-ready data (SI units)."""
    return {**asdict(scan), "bar": scan.bar}


def format_scan(scan: RecordScan) -> list[str]:
    """Return a record's scan as lines for people: a summary per ruling, then each flag and each grounding."""
    out = [f"{scan.file} ({scan.lines} lines, map {scan.map_file}):"]
    if scan.d19 == "judged":
        d19 = [f for f in scan.flags if f.ruling == "D19"]
        out.append(f"  D19 (the record's coast tolerance {scan.coast_tolerance * 1000:g} mm): {scan.paths} dice "
                   f"paths, {scan.over_land} rolled over land, {len(scan.groundings)} grounded; {len(d19)} rolled "
                   f"{scan.bar * 1000:g} mm or more over land without grounding (the tolerance plus "
                   f"{SAMPLING_ALLOWANCE * 1000:g} mm for this scan's sampling of the path), and {len(scan.excused)} "
                   f"more excused (sunk in that throw, or arrived before it)")
    else:
        out.append(f"  D19: {scan.d19}")
    if scan.d20 == "judged":
        d20 = [f for f in scan.flags if f.ruling == "D20"]
        out.append(f"  D20: {scan.seizures} seizures, {scan.releases} releases; {scan.pushed_released} pushes of a "
                   f"released ship, {scan.pushed_home} into its destination; {len(d20)} flagged")
    else:
        out.append(f"  D20: {scan.d20}")
    out += [f"  line {f.line}: {f.ruling}: {f.ship} {f.problem}" for f in scan.flags]
    out += [f"  line {f.line}: excused: {f.ship} {f.problem}" for f in scan.excused]
    out += [f"  line {g.line}: grounded: {g.ship} rolled {g.over_land * 1000:.1f} mm over land"
            + (f", crossed the coast at {cm_point(g.crossed)}" if g.crossed else "")
            for g in scan.groundings]
    return out
