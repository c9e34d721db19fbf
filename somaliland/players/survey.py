"""The survey of the map in play: what this player's ships meet on each leg, measured by sailing it.

Before it decides anything, a strategy sails voyages on every leg of every route of the map in play
with its own aim and its own model of its hand (its `Spread`, never the seat's actual draws), through
the real physics, under the game's rules: launched from the leg's start (R12), within the turns and
moves of a round (R15, D10), aground (R17), in collisions (R18) and off the board (R19, D13) as the
rules' own `apply_roll`, `lose_turn` and `next_to_sail` decide. Pirates are left out: `outlook.py`
models captures from the turns a ship spends at sea, which the survey measures.

Two kinds of voyage:
- **lone**: one ship on an otherwise empty board, `voyages` times per leg. They give the chance a ship
  arrives in each turn of its voyage (throws plus turns lost), groundings and throws off the board,
  the progress made good each turn and the chance a turn begun within that distance of the zone
  arrives (the aim's `LegOdds`), and the aim's own predicted chances of grounding and of leaving the
  board for every throw (to hold the aim to physics). The aim sails each lone voyage with the odds the
  voyages before it measured on that leg (the first with `aim.prior_odds`): a player learning its board.
- **convoy**: `convoy_size(voyages)` ships each way on a route at once (`CONVOY`, fewer only for a
  quick survey of fewer voyages), launched in turn 1 as their start is clear and moved in R14's order,
  `convoy_runs(voyages)` times per route. They measure what company costs
  (collisions, pushes aground, waiting in port for a clear start, sinking): `LegSurvey.slowing`.
  Company costs more than in proportion to the ships, so the convoy is as big as a crowded route.

Deterministic: each leg (and each route's convoys) draws its hand's scatter from its own generator,
seeded from the map's geometry digest and the leg, never the game's; physics is deterministic. Cached in memory
per process, keyed by all that changes it: the map, the rules that govern a voyage without pirates,
the die, the aim, the hand model, the roller's physics settings and the number of voyages. At the
default `VOYAGES`, about 7-9 s of CPU on the default map, once per process and key (`Survey.cpu_seconds`).

A player whose throws are not the aim's best (the search, a `Thrower`) has every voyage thrown by its own
`choose`, its draws from a branch of the leg's seed (`THINKING`) so the hand's draws are those of any other
survey; its choices' parameters join the key. Such a survey costs the thrower's physics rolls at every throw
(322 CPU s for the search at 64 rolls on the default map), so it is also kept on disk (`stored_survey`,
`store_survey`: `$SOMALILAND_CACHE/surveys`), keyed by the same key and a digest of the physics and somaliland
source (`code_digest`): only the code that sailed it reads it back; a real-physics roller only. Processes asking
for one at once (a study's workers) take turns on a lock beside its file: the first sails it, the rest read it.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import hashlib
import math
import os
import pickle
import statistics
import time
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache
from pathlib import Path
from collections.abc import Iterator
from typing import Protocol

import numpy as np

from physics import Roller, portable, private_roller, simulates
from somaliland.cache import cache_root
from somaliland.map.model import Direction, Map, Route
from somaliland.players.aim import FINE, Candidate, Spread, landings, prior_odds, rank, sizing_up
from somaliland.players.calibration import ThrowModel, calibrate
from somaliland.players.hand import ThrowSkill, execute
from somaliland.players.hazards import AimWeights, LegOdds, Surroundings, outcomes, progress_at, start_clear
from somaliland.players.policy import Table
from somaliland.rules import apply_roll, begin_turn, check_throw, lose_turn, next_to_sail
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card
from somaliland.rules.events import Grounded, LostTurn, Replaced, Sunk
from somaliland.rules.fleet import COLOURS, ship_id
from somaliland.rules.game import throw_scene
from somaliland.rules.state import GameState, Holding, Sheet, ShipState, Status
from somaliland.seeding import make_rng

VOYAGES = 16  # lone voyages per leg by default
CONVOY = 8  # ships each way in a convoy (2 x CONVOY - 1 others on the route for each): a crowded route
CONVOY_RUNS_MAX = 6  # convoys per route, at most (`convoy_runs`)
PRIOR_TURNS = 2.0  # the prior odds count as this many turns' worth of evidence (stride and hit each)
# rules that cannot change a voyage without pirates: reset to their defaults, out of the cache key
NOT_AT_SEA = ("players", "rounds", "contract_values", "deal_size", "taken_cards_leave_deck", "fleet",
              "draft_pass_is_final", "contract_cap", "first_player", "route_choice", "pooled_allotment",
              "launch_pass_is_final", "pirates_ignore", "held_release", "pirate_targets", "final_tie")
_CACHE: dict[tuple, "Survey"] = {}
THINKING = 0x7468696E  # a leg's seed branch for a thrower's own draws (`Thrower`), apart from the hand's
SURVEY_FORMAT = 1  # of the files in the survey cache folder: part of their key


class Thrower(Protocol):
    """A player whose throws are not the aim's best: the survey sails its voyages with its own choices.

    `survey_key` holds everything its choices depend on beyond the survey's own key (e.g. the search's
    samples and weights); `choose` returns the candidate to throw, given the sizing-up, the throw model, the
    aim's ranking and a generator of the thrower's own (never the hand's).
    """

    survey_key: tuple

    def choose(self, table: Table, ship_id: str, s: Surroundings, model: ThrowModel, ranked: list[Candidate],
               rng: np.random.Generator) -> Candidate: ...


@dataclass(frozen=True, slots=True)
class LegSurvey:
    """What lone voyages and convoys measured on one leg (see the module docstring).

    `arrivals[k - 1]` lone voyages arrived in turn k (k = 1 is the launch); the rest did not arrive
    within the round's `turns`. `remaining`, `made_good` and `landed` hold, for every turn a lone voyage
    spent at sea, the distance still to go to the destination as that turn began, the progress made
    towards it, and whether the ship arrived in it. The `convoy_*` counts are of this leg's ships in
    the route's convoys, each among `company` other ships.
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
        within the round (bisection; 0 when company does not hurt, at most 1 / company).
        """
        return _slowing(self.arrivals, self.voyages, self.company, self.convoy_ships, self.convoy_arrived)


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


def survey(roller: Roller, world: Map, config: RulesConfig, *, spread: Spread, weights: AimWeights,
           tumble: float, voyages: int = VOYAGES, thrower: Thrower | None = None, draw: int = 0,
           luck: str | None = None) -> Survey:
    """Return the survey of this map for a player of this aim and hand model (sailed on first use, then cached).

    Args:
        roller: the physics roller (its settings are part of the key; a roller that keeps a world per game
            is not used: the survey rolls on a private one of the same settings).
        world: the map in play.
        config: the game's rules; those that cannot change a voyage without pirates do not enter the key.
        spread: the scatter the player's aim plans for, and the hand model the voyages are thrown with.
        weights: the aim's weights.
        tumble: the throw model's forward spin.
        voyages: lone voyages per leg (and `convoy_runs(voyages)` convoys per route).
        thrower: a player whose throws are its own choices, not the aim's best (the search): every voyage,
            lone and in convoy, is thrown as it would throw. Its surveys cost as many physics rolls per throw
            as it makes per decision, so they are also kept on disk (`stored_survey`).
        draw: which draw of the voyages' scatter (0, the default: the one every player sails; `survey_digest`).
            A survey is one draw, and what it measures moves between draws (experiments/README, Findings): another
            draw shows how much an answer owes to it.
        luck: seed the legs by this text instead of the map's digest (and `draw`): maps sailed with the same
            luck draw the same hands' scatter on legs of the same route names, so their figures differ by the
            maps more than by luck (common random numbers; `somaliland map measure A.toml B.toml`). Not what
            the players plan by, which is their map's own draw.
    """
    at_sea = sea_rules(config)
    digest = survey_digest(world, draw) if luck is None else f"luck|{luck}"  # what the legs' seeds are made from
    keyed = digest if luck is None else f"{map_digest(world)}|{digest}"  # the map's, whatever seeds its legs
    key = (keyed, at_sea, spread, weights, tumble, roller.settings, voyages)
    if thrower is not None:
        key += (thrower.survey_key,)
    if key in _CACHE:
        return _CACHE[key]
    kept = _stored_path(key, roller) if thrower is not None else None  # only a thrower's survey is kept
    with _sailing_alone(kept):  # one process sails it, the others wait and read it
        found = stored_survey(kept)
        if found is None:
            found = _sail(roller, world, at_sea, spread, weights, tumble, voyages, thrower, digest)
            store_survey(kept, found)
        _CACHE[key] = found
    return _CACHE[key]


@contextlib.contextmanager
def _sailing_alone(path: Path | None) -> Iterator[None]:
    """Hold, while a kept survey is looked for and sailed, an exclusive lock beside its file (`fcntl.flock`): a
    study's workers, all asking for the same thrower's survey at once, sail it once and read it back. No lock
    without a file to keep it in (`path` None) or where the folder cannot be written."""
    if path is None:
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_suffix(".lock"), "a+b")  # noqa: SIM115 - held until the survey is kept
    except OSError:
        yield
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError:
            pass
        yield


def _sail(roller: Roller, world: Map, at_sea: RulesConfig, spread: Spread, weights: AimWeights, tumble: float,
          voyages: int, thrower: Thrower | None, digest: str) -> Survey:
    """Return the survey sailed under the rules at sea (lone voyages and convoys on every route), with its CPU."""
    started = time.process_time()
    model = calibrate(roller, at_sea.die_size, at_sea.die_mass, tumble=tumble)
    with private_roller(roller) as own:
        sailor = _Sailor(own, world, at_sea, model, spread, weights, thrower, digest)
        lone = {(r.name, d): sailor.lone(r, d, voyages) for r in world.routes for d in Direction}
        convoys = {r.name: sailor.convoys(r, convoy_size(voyages), convoy_runs(voyages),
                                          {d: lone[r.name, d].odds(None) for d in Direction})
                   for r in world.routes}
    company = 2 * convoy_size(voyages) - 1
    return Survey(tuple(_leg_survey(world, at_sea, r, d, voyages, lone[r.name, d], convoys[r.name][d], company)
                        for r in world.routes for d in Direction), time.process_time() - started)


def survey_folder() -> Path:
    """Return the folder surveys are kept in between processes (`$SOMALILAND_CACHE`, default ~/.cache/somaliland)."""
    return cache_root() / "surveys"


def _read_sources() -> dict[str, bytes]:
    """Return the source of every module of physics and somaliland, by path, as this process found it."""
    root = Path(__file__).resolve().parents[2]
    paths = sorted([*(root / "physics").rglob("*.py"), *(root / "somaliland").rglob("*.py")])
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in paths}


_SOURCES = _read_sources()  # read as the players are imported: the code this process runs, not later edits


@cache
def code_digest() -> str:
    """Return a digest of the code of every module a survey's voyages run through (physics and somaliland):
    a survey kept on disk is read back only by the very code that sailed it.

    The code, not the text: each module's syntax tree without its docstrings and comments (`ast.dump`), so
    that editing documentation does not throw away surveys that took minutes to sail. The sources are those
    read when this module was imported (`_SOURCES`), so a file edited while a study runs does not key the
    surveys its workers sail with the code they have not loaded.
    """
    h = hashlib.sha256()
    for name, source in _SOURCES.items():
        h.update(name.encode() + b"\0" + _code_of(source.decode()).encode() + b"\0")
    return h.hexdigest()


def _code_of(source: str) -> str:
    """Return a module's syntax tree without docstrings, as text (its comments are not in the tree)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _stored_path(key: tuple, roller: Roller) -> Path | None:
    """Return where a survey of this key is kept, or None for a roller that is not real physics (a test's
    counting or scripted roller must neither read nor leave a survey that real games would use)."""
    if not simulates(roller):
        return None
    name = hashlib.sha256(f"{SURVEY_FORMAT}|{code_digest()}|{key!r}".encode()).hexdigest()[:32]
    return survey_folder() / f"{name}.pickle"


def stored_survey(path: Path | None) -> Survey | None:
    """Return the survey kept at `path` (`_stored_path`) by an earlier process of the same code, or None.

    A file that cannot be read (cut short, another format) is ignored: the survey is sailed again.
    """
    if path is None or not path.is_file():
        return None
    try:
        kept = pickle.loads(path.read_bytes())
    except Exception:  # noqa: BLE001 - any damage only costs sailing it again
        return None
    return kept if isinstance(kept, Survey) and kept.legs else None


def store_survey(path: Path | None, found: Survey) -> None:
    """Keep a survey at `path` for later processes (written whole, then renamed; a failure only costs them time)."""
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(found))
        os.replace(tmp, path)
    except OSError:
        pass


def convoy_size(voyages: int) -> int:
    """Return the ships each way in the convoys that go with `voyages` lone voyages a leg: `CONVOY`, at most."""
    return min(CONVOY, voyages)


def convoy_runs(voyages: int) -> int:
    """Return how many convoys sail each route with `voyages` lone voyages a leg: three for every four voyages,
    1 to `CONVOY_RUNS_MAX`. One convoy is one sample of a crowd's luck (a pile-up at a start, a clear run): on
    the default board two surveys of one convoy each, seeded by two copies of the map that differed only in a
    comment, measured 62-75% and 100% of the Gulf route's convoy arriving, and the players who trusted the
    second sent 99.8% of their contracts through the Gulf and fulfilled a third of them."""
    return min(CONVOY_RUNS_MAX, max(1, (3 * voyages) // 4))


@lru_cache(maxsize=64)
def sea_rules(config: RulesConfig) -> RulesConfig:
    """Return the rules with every option that cannot change a voyage without pirates at its default.

    Cached: every throw's survey lookup asks it, and building a `RulesConfig` validates it (a game has a few).
    """
    default = RulesConfig()
    return replace(config, **{name: getattr(default, name) for name in NOT_AT_SEA})


def map_digest(world: Map) -> str:
    """Return the digest the survey is keyed and seeded by: the map's geometry (`Map.geometry_digest`), not its
    file's text, so that editing a comment, a name of land or the author does not change what the players
    measure."""
    return world.geometry_digest


def survey_digest(world: Map, draw: int = 0) -> str:
    """Return the digest a survey's voyages are seeded by: the map's (`map_digest`) for draw 0, and with a suffix
    "|drawN" for another draw of the same map (other hands' scatter, the same map and rules)."""
    return map_digest(world) if draw == 0 else f"{map_digest(world)}|draw{draw}"


def leg_seed(digest: str, route: str, direction: Direction | None) -> np.random.SeedSequence:
    """Return the seed of one leg's lone voyages (or, direction None, of a route's convoys): from the map's
    digest and the leg, never the game's generator."""
    name = f"{digest}|{route}|{direction.value if direction else 'convoy'}"
    return np.random.SeedSequence(int.from_bytes(hashlib.sha256(name.encode()).digest()[:16], "big"))


def fleet_at_sea(config: RulesConfig, route: Route, ships: tuple[tuple[int, Direction], ...]) -> GameState:
    """Return a game before turn 1 whose ships (seat, direction) are in port, each carrying a contract along
    its leg of the route; the seat's n-th ship listed takes its n-th ship of the fleet."""
    seats = max(seat for seat, _ in ships) + 1
    fleet: list[ShipState] = []
    held: list[tuple[Holding, ...]] = [()] * seats
    for seat, direction in ships:
        spec = config.fleet[sum(1 for s in fleet if s.owner == seat)]
        card = Card(spec.displacement, direction)
        fleet.append(ShipState(ship_id(seat, spec), seat, spec, card=card, route=route.name))
        held[seat] += (Holding(card, route.name),)
    return GameState(sheets=tuple(Sheet(seat) for seat in range(seats)), ships=tuple(fleet), deck=(),
                     first_player=0, held=tuple(held))


@dataclass
class _Log:
    """What one leg's voyages have measured so far (mutable while sailing, frozen into a LegSurvey)."""

    throws: int = 0
    aground: int = 0
    off_board: int = 0
    lost: int = 0
    sunk: int = 0
    ships: int = 0
    arrived: int = 0
    turns: int = 0  # turns at sea (or waiting in port for a clear start)
    arrivals: list[int] = field(default_factory=list)
    remaining: list[float] = field(default_factory=list)
    made_good: list[float] = field(default_factory=list)
    landed: list[bool] = field(default_factory=list)
    predicted_aground: float = 0.0
    predicted_off_board: float = 0.0

    def odds(self, prior: LegOdds | None) -> LegOdds:
        """Return the stride and hit measured so far (with the prior's weight, if given)."""
        return measured_odds(self.remaining, self.made_good, self.landed, prior)


class _Sailor:
    """Sails voyages on one map under one set of rules, for one aim and hand model."""

    def __init__(self, roller: Roller, world: Map, config: RulesConfig, model: ThrowModel, spread: Spread,
                 weights: AimWeights, thrower: Thrower | None, digest: str) -> None:
        self.roller, self.world, self.config, self.model = roller, world, config, model
        self.digest = digest  # what its legs' seeds are made from (`survey`)
        self.spread, self.weights = spread, weights
        self.hand = ThrowSkill(math.degrees(spread.heading_sd), spread.speed_sd)
        self.thrower = thrower
        self.thinking: np.random.Generator | None = None  # the thrower's own draws, on the leg being sailed

    def _think_on(self, seed: np.random.SeedSequence) -> None:
        """Give the thrower (if any) its own generator for the voyages of this seed: a branch of it, so the
        hand's draws are the same whoever throws."""
        if self.thrower is not None:
            self.thinking = make_rng(np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, THINKING)))

    def lone(self, route: Route, direction: Direction, voyages: int) -> _Log:
        """Return the log of `voyages` lone voyages on a leg, each aimed with the odds measured before it."""
        seed = leg_seed(self.digest, route.name, direction)
        rng = make_rng(seed)
        self._think_on(seed)
        log, prior = _Log(), prior_odds(self.model)
        for _ in range(voyages):
            log.arrivals.append(self._lone_voyage(route, direction, log.odds(prior), rng, log))
        return log

    def _lone_voyage(self, route: Route, direction: Direction, odds: LegOdds, rng: np.random.Generator,
                     log: _Log) -> int:
        """Sail one lone voyage through a round's turns, log each turn, and return the turn it arrived in (0: never).

        Turn 1 launches the ship (R12); each later turn it throws, or loses the turn it owes (R17, R19),
        or stays put when its moves are spent (R15), as the game loop would have it.
        """
        config = self.config
        state = fleet_at_sea(config, route, ((0, direction),))
        sid = state.ships[0].id
        leg = route.leg(direction)
        zone = leg.destination.representative_point()
        goal = route.progress(direction, zone.x, zone.y) - math.sqrt(leg.destination.area) / 2
        done = route.progress(direction, *leg.start)
        for turn in range(1, config.turns_per_round + 1):
            state = begin_turn(state, config)
            before = done
            if turn == 1:
                state, done = self._throw(state, sid, odds, rng, log, done)
            elif (ship := next_to_sail(state, self.world, config)) is not None:
                if ship.skip > 0:
                    state, _ = lose_turn(state, sid, self.world, config)
                else:
                    state, done = self._throw(state, sid, odds, rng, log, done)
            arrived = state.ship(sid).status is Status.ARRIVED
            log.remaining.append(goal - before)
            log.made_good.append(goal - before if arrived else done - before)
            log.landed.append(arrived)
            if arrived:
                return turn
        return 0

    def convoys(self, route: Route, size: int, runs: int, odds: dict[Direction, LegOdds]) -> dict[Direction, _Log]:
        """Return, per leg, the log of `runs` convoys of `size` ships each way on the route."""
        seed = leg_seed(self.digest, route.name, None)
        rng = make_rng(seed)
        self._think_on(seed)
        logs = {d: _Log() for d in Direction}
        # launched turn about, both ways, by seats in turn (each seat's n-th ship is its fleet's n-th)
        order = tuple((k % len(COLOURS), d) for k, d in enumerate(d for _ in range(size) for d in Direction))
        for _ in range(runs):
            self._convoy(route, order, odds, rng, logs)
        return logs

    def _convoy(self, route: Route, order: tuple[tuple[int, Direction], ...], odds: dict[Direction, LegOdds],
                rng: np.random.Generator, logs: dict[Direction, _Log]) -> None:
        """Sail one convoy through a round: ships move in R14's order, then those in port launch if their
        start is clear (R12); every ship's turns, lost turns, sinking and arrival are logged on its leg."""
        config, world = self.config, self.world
        state = fleet_at_sea(config, route, order)
        ids = [s.id for s in state.ships]
        owed = dict.fromkeys(ids, 0)
        for turn in range(1, config.turns_per_round + 1):
            state = begin_turn(state, config)
            for sid in ids:
                ship = state.ship(sid)
                if ship.status not in (Status.ARRIVED, Status.SUNK):
                    logs[ship.direction].turns += 1  # type: ignore[index]
            while turn > 1 and (ship := next_to_sail(state, world, config)) is not None:
                if ship.skip > 0:
                    state, _ = lose_turn(state, ship.id, self.world, config)
                else:
                    state, lost = self._company_throw(state, ship.id, odds, rng, logs)
                    for sid in lost:
                        owed[sid] += 1
            for sid in ids:
                ship = state.ship(sid)
                if ship.status is Status.IN_PORT:
                    if start_clear(Table(state, world, config, ship.owner), ship):
                        state, lost = self._company_throw(state, sid, odds, rng, logs)
                        for other in lost:
                            owed[other] += 1
                    else:
                        owed[sid] += 1  # waiting for a clear start costs the ship this turn
        for sid in ids:
            ship = state.ship(sid)
            log = logs[ship.direction]  # type: ignore[index]
            log.ships += 1
            log.arrived += ship.status is Status.ARRIVED
            log.sunk += ship.status is Status.SUNK
            log.lost += owed[sid]

    def _company_throw(self, state: GameState, sid: str, odds: dict[Direction, LegOdds], rng: np.random.Generator,
                       logs: dict[Direction, _Log]) -> tuple[GameState, list[str]]:
        """Throw one convoy ship; return the state and the ships that lost a turn by it."""
        direction = state.ship(sid).direction
        state, _, events = self._roll(state, sid, odds[direction], rng)  # type: ignore[index]
        logs[direction].throws += 1  # type: ignore[index]
        return state, [e.ship for e in events if isinstance(e, LostTurn)]

    def _throw(self, state: GameState, sid: str, odds: LegOdds, rng: np.random.Generator, log: _Log,
               done: float) -> tuple[GameState, float]:
        """Throw the lone ship and log it; return the state and its progress along the leg."""
        state, s, events = self._roll(state, sid, odds, rng, log)
        log.throws += 1
        log.aground += any(isinstance(e, Grounded) and e.ship == sid for e in events)
        log.off_board += any(isinstance(e, Replaced) and e.ship == sid for e in events)
        log.lost += any(isinstance(e, LostTurn) and e.ship == sid for e in events)
        pose = state.ship(sid).pose
        return state, float(progress_at(s, np.array([pose.position[:2]]))[0]) if pose else done

    def _roll(self, state: GameState, sid: str, odds: LegOdds, rng: np.random.Generator,
              log: _Log | None = None) -> tuple[GameState, Surroundings, tuple]:
        """Aim (logging the aim's predicted risks, if asked), scatter by the hand model, roll and apply a throw."""
        world, config, model, spread = self.world, self.config, self.model, self.spread
        table = Table(state, world, config, state.ship(sid).owner)
        s = replace(sizing_up(table, sid, model, odds), ports=np.empty((0, 2)))  # captures: see outlook.py
        ranked = rank(table, sid, s, model, spread, self.weights)
        if self.thrower is None or self.thinking is None:
            best = ranked[0]
        else:
            best = self.thrower.choose(table, sid, s, model, ranked, self.thinking)
        if log is not None:
            off, aground = predicted_risks(s, landings([best], s.origin, model, spread, FINE)[0])
            log.predicted_off_board += off
            log.predicted_aground += aground
        intended = best.throw(model, sid, s.origin)
        check_throw(state, sid, intended.origin, intended.heading, world, config)
        roll = self.roller.roll(throw_scene(state, sid, world, config), execute(intended, self.hand, rng))
        state, events = apply_roll(state, sid, roll, world, config)
        return state, s, events


def _leg_survey(world: Map, config: RulesConfig, route: Route, direction: Direction, voyages: int, lone: _Log,
                convoy: _Log, company: int) -> LegSurvey:
    """Return the frozen survey of a leg from its lone and convoy logs."""
    arrivals = tuple(sum(1 for turn in lone.arrivals if turn == k) for k in range(1, config.turns_per_round + 1))
    return LegSurvey(route.name, direction, route.full_value, world.leg_length(route.name, direction),
                     config.turns_per_round, voyages, arrivals, lone.throws, lone.aground, lone.off_board, lone.lost,
                     tuple(lone.remaining), tuple(lone.made_good), tuple(lone.landed), lone.predicted_aground,
                     lone.predicted_off_board, company, convoy.ships, convoy.arrived, convoy.turns,
                     convoy.lost, convoy.sunk)


def predicted_risks(s: Surroundings, points: np.ndarray) -> tuple[float, float]:
    """Return the aim's chances that a throw with these fine-grid landing points leaves the board or grounds."""
    on_board, aground, _ = outcomes(s, points)
    return (float(portable.dot(FINE.weights, (~on_board).astype(float))),
            float(portable.dot(FINE.weights, aground.astype(float))))
