"""What a survey measured on each leg of a map (`LegSurvey`, `Survey`), the odds, hazards and slowing read from it,
and the survey as plain data: the JSON document a survey is kept on disk as (`survey_file.py`), checked field by
field when read back.

The figures are those `survey.py` sails; `outlook.py` and the aim read them. A document read back is trusted no
further than its schema: every field present with its type, every number finite and in its range, every list as
long as the turns or voyages it counts, and its legs those of the map in play (`from_document`).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from typing import Any

from somaliland.map.model import Direction
from somaliland.players.hazards import LegOdds

PRIOR_TURNS = 2.0  # the prior odds count as this many turns' worth of evidence (stride and hit each)


@dataclass(frozen=True, slots=True)
class LegSurvey:
    """What lone voyages and convoys measured on one leg (see the module docstring).

    `arrivals[k - 1]` lone voyages arrived in turn k (k = 1 is the launch); the rest did not arrive
    within the round's `turns`. `remaining`, `made_good` and `landed` hold, for every turn a lone voyage
    spent at sea, the distance still to go to the destination as that turn began, the progress made
    towards it, and whether the ship arrived in it. The `convoy_*` counts are of this leg's ships in
    the route's convoys, each among `company` other ships; `convoy_alone`, when given, the lone arrivals per
    turn those convoys are set against (`slowing`): the aim's, where the aim sailed the convoys of a thrower's
    survey (survey.py); None, this leg's own.
    """

    route: str
    direction: Direction
    full_value: bool
    length: float  # metres from the start to the destination along the centre line
    turns: int  # turns in a round (D10): a ship launched in the first has them all
    voyages: int
    arrivals: tuple[int, ...]
    throws: int
    aground: int
    off_board: int
    lost: int  # turns lost alone (one at most a throw: aground, off the board)
    remaining: tuple[float, ...]
    made_good: tuple[float, ...]
    landed: tuple[bool, ...]
    predicted_aground: float  # the aim's predicted chances of grounding, summed over the lone throws
    predicted_off_board: float  # ... and of leaving the board
    company: int  # other ships on the route in a convoy
    convoy_ships: int
    convoy_arrived: int
    convoy_turns: int  # turns this leg's convoy ships spent at sea or waiting to launch
    convoy_lost: int  # turns they lost (any accident, and each turn waiting in port for a clear start)
    convoy_sunk: int
    convoy_alone: tuple[int, ...] | None = None

    def arrive_by(self, turn: int) -> float:
        """Return the share of lone voyages that arrived in turn `turn` or before."""
        return _arrived_by(self.arrivals, self.voyages)[min(max(0, turn), self.turns)]

    def at_sea(self, turn: int) -> float:
        """Return the share of lone voyages still at sea after turn `turn` (not yet arrived)."""
        return 1.0 - self.arrive_by(turn)

    def hazard(self, turn: int) -> float:
        """Return the chance a lone ship arrives in the `turn`-th turn of its voyage, given it had not before."""
        return _hazards(self.arrivals, self.voyages)[turn - 1] if 1 <= turn <= self.turns else 0.0

    @property
    def median_turns(self) -> float:
        """Return the median turns to arrive alone (inf if fewer than half the voyages arrived in time)."""
        turns = [k + 1 for k, n in enumerate(self.arrivals) for _ in range(n)]
        turns += [math.inf] * (self.voyages - len(turns))
        return statistics.median(turns)

    @property
    def within_limit(self) -> float:
        """Return the share of lone voyages that arrived within the round (R15, D10)."""
        return self.arrive_by(self.turns)

    @property
    def odds(self) -> LegOdds:
        """Return the leg's stride and hit for the aim (`hazards.arrival_chance`)."""
        return measured_odds(self.remaining, self.made_good, self.landed, None)

    @property
    def aground_rate(self) -> float:
        """Return groundings per lone throw."""
        return self.aground / max(self.throws, 1)

    @property
    def off_board_rate(self) -> float:
        """Return lone throws off the board per throw."""
        return self.off_board / max(self.throws, 1)

    @property
    def convoy_share(self) -> float:
        """Return the share of this leg's convoy ships that arrived within the round."""
        return self.convoy_arrived / self.convoy_ships if self.convoy_ships else self.within_limit

    @property
    def slowing(self) -> float:
        """Return how much each other ship on the route slows a ship down: the share of its chance to arrive in
        each turn that one companion takes away (`outlook.voyage`).

        Measured so that lone hazards scaled by 1 - `company` x slowing give the convoys' share arrived
        within the round (bisection; 0 when company does not hurt, at most 1 / company): the hazards of the lone
        voyages thrown as the convoys were (`convoy_alone`).
        """
        return _slowing(self.arrivals if self.convoy_alone is None else self.convoy_alone, self.voyages,
                        self.company, self.convoy_ships, self.convoy_arrived)


@cache
def _arrived_by(arrivals: tuple[int, ...], voyages: int) -> tuple[float, ...]:
    """Return the share arrived by the end of each turn, turn 0 (none) first."""
    return tuple(sum(arrivals[:turn]) / voyages for turn in range(len(arrivals) + 1))


@cache
def _hazards(arrivals: tuple[int, ...], voyages: int) -> tuple[float, ...]:
    """Return the chance of arriving in each turn given not before, from the counts arriving in each."""
    left, out = voyages, []
    for n in arrivals:
        out.append(n / left if left else 0.0)
        left -= n
    return tuple(out)


@cache
def _slowing(arrivals: tuple[int, ...], voyages: int, company: int, ships: int, arrived: int) -> float:
    """Return `LegSurvey.slowing` (cached: the planner asks for it thousands of times a game)."""
    hazards = _hazards(arrivals, voyages)
    alone = 1.0 - math.prod(1.0 - h for h in hazards)
    share = arrived / ships if ships else alone
    if not company or share >= alone:
        return 0.0
    low, high = 0.0, 1.0 / company
    for _ in range(40):
        mid = (low + high) / 2
        if arrival_within(hazards, 1.0 - company * mid) > share:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def arrival_within(hazards: tuple[float, ...], factor: float) -> float:
    """Return the chance to arrive within the round when the chance in each turn (given not before) is scaled."""
    return 1.0 - math.prod(1.0 - factor * h for h in hazards)


@dataclass(frozen=True)
class Survey:
    """The survey of every leg of a map."""

    legs: tuple[LegSurvey, ...]
    cpu_seconds: float = field(default=0.0, compare=False)

    @cached_property
    def _route_at_sea(self) -> dict[str, tuple[float, ...]]:
        routes = {leg.route for leg in self.legs}
        return {route: tuple(statistics.fmean(leg.at_sea(turn) for leg in self.legs if leg.route == route)
                             for turn in range(max(leg.turns for leg in self.legs) + 1)) for route in routes}

    def leg(self, route: str, direction: Direction) -> LegSurvey:
        """Return one leg's survey."""
        for leg in self.legs:
            if leg.route == route and leg.direction is direction:
                return leg
        raise KeyError(f"no leg {route} {direction.value}; legs: {[(g.route, g.direction.value) for g in self.legs]}")

    def at_sea(self, route: str, turn: int) -> float:
        """Return the share of lone ships on a route still at sea after `turn` (mean over its two legs)."""
        return self._route_at_sea[route][turn]


def measured_odds(remaining: tuple[float, ...] | list[float], made_good: tuple[float, ...] | list[float],
                  landed: tuple[bool, ...] | list[bool], prior: LegOdds | None) -> LegOdds:
    """Return stride (metres made good per turn) and hit (share of turns begun within a stride that arrived).

    With a prior, it counts as `PRIOR_TURNS` turns of evidence for each; without, the measurement alone
    (a leg never sailed within a stride of its zone keeps an even chance).
    """
    weight = PRIOR_TURNS if prior else 0.0
    base = prior or LegOdds(0.0, 0.5)
    turns = len(made_good)
    stride = (sum(made_good) + weight * base.stride) / (turns + weight) if turns + weight else base.stride
    stride = max(stride, 1e-3)  # a leg where ships lost ground still needs a positive stride
    near = [hit for r, hit in zip(remaining, landed) if r <= stride]
    hit = (sum(near) + weight * base.hit) / (len(near) + weight) if near or weight else base.hit
    return LegOdds(stride, hit)


# -- the survey as plain data (the document kept on disk: survey_file.py) ---------------------------------------
_BIG = 10**9  # no count a survey keeps comes near: a larger one is damage


def to_document(found: Survey) -> dict[str, Any]:
    """Return the survey as JSON-ready data: its CPU seconds and, per leg, every field (`from_document` reads it)."""
    legs = [{f.name: _plain(getattr(leg, f.name)) for f in fields(LegSurvey)} for leg in found.legs]
    return {"cpu_seconds": found.cpu_seconds, "legs": legs}


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Direction) else list(value) if isinstance(value, tuple) else value


def from_document(document: Any, legs: tuple[tuple[str, Direction], ...], turns: int, voyages: int) -> Survey:
    """Return the survey a document holds, checked against the survey asked for: these legs in this order, a
    round of `turns` turns, `voyages` lone voyages a leg.

    Raises:
        ValueError: the first thing found wrong, located (e.g. "legs[2].arrivals: expected 6 counts, found 5").
    """
    _keys(document, ("cpu_seconds", "legs"), "the survey")
    cpu = document["cpu_seconds"]
    if not _number(cpu) or cpu < 0:
        raise ValueError(f"cpu_seconds: expected a number of seconds, found {_shown(cpu)}")
    found = document["legs"]
    if not isinstance(found, list) or len(found) != len(legs):
        raise ValueError(f"legs: expected a list of the map's {len(legs)} legs, found {_shown(found)}")
    return Survey(tuple(_leg(item, f"legs[{k}]", legs[k], turns, voyages) for k, item in enumerate(found)),
                  float(cpu))


def _leg(item: Any, where: str, expected: tuple[str, Direction], turns: int, voyages: int) -> LegSurvey:
    """Return one leg of a document, checked field by field (`from_document`)."""
    names = tuple(f.name for f in fields(LegSurvey))
    _keys(item, names, where)
    values = {f.name: _field(item[f.name], f.type, f"{where}.{f.name}") for f in fields(LegSurvey)}
    leg = LegSurvey(**values)

    def need(ok: bool, name: str, wanted: str, found: Any) -> None:
        if not ok:
            raise ValueError(f"{where}.{name}: expected {wanted}, found {_shown(found)}")

    need((leg.route, leg.direction) == expected, "route", f"the leg {expected[0]} {expected[1].value}",
         f"{leg.route} {leg.direction.value}")
    need(leg.turns == turns, "turns", f"{turns} (the turns of a round)", leg.turns)
    need(leg.voyages == voyages, "voyages", f"{voyages} (the lone voyages a leg)", leg.voyages)
    for name in ("arrivals", "convoy_alone"):
        counts = getattr(leg, name)
        if counts is not None:
            need(len(counts) == turns and sum(counts) <= voyages, name,
                 f"{turns} counts of at most {voyages} voyages in all", counts)
    need(len(leg.remaining) == len(leg.made_good) == len(leg.landed) <= turns * voyages, "landed",
         "one entry a turn at sea, as many as remaining and made_good", len(leg.landed))
    need(sum(leg.landed) == sum(leg.arrivals), "landed", f"{sum(leg.arrivals)} arrivals (as arrivals counts)",
         sum(leg.landed))
    need(max(leg.aground, leg.off_board, leg.lost) <= leg.throws, "throws", "at least the groundings, throws off "
         "the board and turns lost", leg.throws)
    need(leg.convoy_arrived + leg.convoy_sunk <= leg.convoy_ships, "convoy_ships",
         "at least the convoy ships arrived and sunk", leg.convoy_ships)
    need(leg.length >= 0 and min(leg.predicted_aground, leg.predicted_off_board) >= 0, "length",
         "lengths and predicted chances of at least 0", (leg.length, leg.predicted_aground, leg.predicted_off_board))
    return leg


def _field(value: Any, kind: str, where: str) -> Any:
    """Return a field's value as its type `kind` (the dataclass annotation) holds it, or raise ValueError."""
    if kind == "tuple[int, ...] | None" and value is None:
        return None
    checks = {"str": (lambda v: isinstance(v, str) and 0 < len(v) <= 200, "a name"),
              "Direction": (lambda v: v in {d.value for d in Direction}, "north or south"),
              "bool": (lambda v: isinstance(v, bool), "true or false"),
              "int": (_count, "a count"),
              "float": (_number, "a finite number")}
    if kind.startswith("tuple["):
        inner = kind[len("tuple["):kind.index(",")]
        test, wanted = checks[inner]
        if not isinstance(value, list) or not all(test(v) for v in value):
            raise ValueError(f"{where}: expected a list of {wanted}s, found {_shown(value)}")
        return tuple(value)
    test, wanted = checks[kind]
    if not test(value):
        raise ValueError(f"{where}: expected {wanted}, found {_shown(value)}")
    return Direction(value) if kind == "Direction" else value


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _BIG


def _number(value: Any) -> bool:
    return isinstance(value, float) and math.isfinite(value)


def _keys(item: Any, names: tuple[str, ...], where: str) -> None:
    """Raise ValueError unless `item` is an object with exactly these keys."""
    if not isinstance(item, dict) or set(item) != set(names):
        found = sorted(item) if isinstance(item, dict) else _shown(item)
        raise ValueError(f"{where}: expected an object of the keys {', '.join(names)}, found {found}")


def _shown(value: Any) -> str:
    """Return a value as a message shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
