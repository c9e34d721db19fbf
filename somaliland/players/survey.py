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
per process and on disk between processes (`survey_file.py`: `$SOMALILAND_CACHE/surveys`, JSON checked on read),
keyed by all that changes it: the map, the rules that govern a voyage without pirates, the die, the aim, the
hand model, the roller's physics settings, the number of voyages, and the code that sails it. At the default
`VOYAGES`, about 4-9 s of CPU on the default map, once per key (`Survey.cpu_seconds`); read back, milliseconds.
Only a real-physics roller's surveys are kept (a test's stand-in neither reads nor leaves one).

A player whose throws are not the aim's best (the search, a `Thrower`) sails its lone voyages with its own
`choose`, its draws from a branch of the leg's seed (`THINKING`) so the hand's draws are those of any other
survey; its choices' parameters join the key. Its convoys are the aim's (the survey of the same aim and hand
model without the thrower, which its ev rivals sail too): what company costs is measured there, as the share of
a lone ship's chance to arrive each companion takes away, against the aim's own lone voyages (`convoy_alone`),
and applied to the thrower's lone voyages. The thrower's own rolls go where its throws differ most, a lone
ship's way through the narrows, and not into convoys of 16 (three quarters of a survey's throws and nine tenths
of the search's CPU when it threw them).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from collections.abc import Callable
from typing import Protocol

import numpy as np

from physics import Roller, private_roller, simulates
from somaliland.map.model import Direction, Map, Route
from somaliland.players import survey_file
from somaliland.players.aim import Candidate, Spread, prior_odds, rank, risks, sizing_up
from somaliland.players.calibration import ThrowModel, calibrate
from somaliland.players.hand import ThrowSkill, execute
from somaliland.players.hazards import AimWeights, LegOdds, Surroundings, progress_at, start_clear
from somaliland.players.legs import LegSurvey, Survey, from_document, measured_odds, to_document
from somaliland.players.policy import Table
from somaliland.rules import apply_roll, begin_turn, check_throw, lose_turn, next_to_sail
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card
from somaliland.rules.events import Grounded, LostTurn, Replaced
from somaliland.rules.fleet import COLOURS, ship_id
from somaliland.rules.game import throw_scene
from somaliland.rules.state import GameState, Holding, Sheet, ShipState, Status
from somaliland.seeding import make_rng

VOYAGES = 16  # lone voyages per leg by default
CONVOY = 8  # ships each way in a convoy (2 x CONVOY - 1 others on the route for each): a crowded route
CONVOY_RUNS_MAX = 6  # convoys per route, at most (`convoy_runs`)
# rules that cannot change a voyage without pirates: reset to their defaults, out of the cache key
NOT_AT_SEA = ("players", "rounds", "contract_values", "deal_size", "taken_cards_leave_deck", "fleet",
              "draft_pass_is_final", "contract_cap", "first_player", "route_choice", "pooled_allotment",
              "launch_pass_is_final", "pirates_ignore", "held_release", "pirate_targets", "final_tie",
              "ransom", "ransom_fixed", "ransom_share_percent", "pirate_take", "pirate_take_every",
              "contract_cap_total")
_CACHE: dict[tuple, Survey] = {}
THINKING = 0x7468696E  # a leg's seed branch for a thrower's own draws (`Thrower`), apart from the hand's


class Thrower(Protocol):
    """A player whose throws are not the aim's best: the survey sails its lone voyages with its own choices.

    `survey_key` holds everything its choices depend on beyond the survey's own key (e.g. the search's
    samples and weights); `choose` returns the candidate to throw, given the sizing-up, the throw model, the
    aim's ranking and a generator of the thrower's own (never the hand's).
    """

    survey_key: tuple

    def choose(self, table: Table, ship_id: str, s: Surroundings, model: ThrowModel, ranked: list[Candidate],
               rng: np.random.Generator) -> Candidate: ...


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
        thrower: a player whose throws are its own choices, not the aim's best (the search): its lone voyages
            are thrown as it would throw; its convoys are those of the aim's survey (module docstring).
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
    aim = None if thrower is None else survey(roller, world, config, spread=spread, weights=weights, tumble=tumble,
                                              voyages=voyages, draw=draw, luck=luck)  # its convoys

    def sail() -> Survey:
        return _sail(roller, world, at_sea, spread, weights, tumble, voyages, thrower, digest, aim)

    _CACHE[key] = _kept(repr(key), world, at_sea, voyages, sail) if simulates(roller) else sail()
    return _CACHE[key]


def _kept(key: str, world: Map, at_sea: RulesConfig, voyages: int, sail: Callable[[], Survey]) -> Survey:
    """Return the survey kept on disk for this key (`survey_file`), or sail it and keep it.

    One process sails it while the others asking for it wait on its lock, then read it back. A kept file that
    is not whole and ours is sailed again, with one warning line.
    """
    legs = tuple((r.name, d) for r in world.routes for d in Direction)
    turns = at_sea.turns_per_round
    # bytes: the key (escaped), and a few numbers a turn of each voyage on each leg
    limit = 4096 + 2 * len(key) + len(legs) * (4096 + 100 * turns * (voyages + 1))
    path = survey_file.path_for(key)
    with survey_file.sailing_alone(path):
        found = survey_file.read(path, key, limit, lambda content: from_document(content, legs, turns, voyages))
        if found is None:
            found = sail()
            survey_file.write(path, key, to_document(found))
    return found


def _sail(roller: Roller, world: Map, at_sea: RulesConfig, spread: Spread, weights: AimWeights, tumble: float,
          voyages: int, thrower: Thrower | None, digest: str, aim: Survey | None) -> Survey:
    """Return the survey sailed under the rules at sea, with its CPU: lone voyages on every leg, and convoys on
    every route unless the aim's survey (`aim`, for a thrower) gives them (its CPU is then the lone voyages')."""
    started = time.process_time()
    model = calibrate(roller, at_sea.die_size, at_sea.die_mass, tumble=tumble)
    with private_roller(roller) as own:
        sailor = _Sailor(own, world, at_sea, model, spread, weights, thrower, digest)
        lone = {(r.name, d): sailor.lone(r, d, voyages) for r in world.routes for d in Direction}
        convoys = {} if aim is not None else {
            r.name: sailor.convoys(r, convoy_size(voyages), convoy_runs(voyages),
                                   {d: lone[r.name, d].odds(None) for d in Direction})
            for r in world.routes}
    company = 2 * convoy_size(voyages) - 1
    legs = []
    for r in world.routes:
        for d in Direction:
            if aim is None:
                legs.append(_leg_survey(world, at_sea, r, d, voyages, lone[r.name, d], convoys[r.name][d], company))
            else:
                alone = _leg_survey(world, at_sea, r, d, voyages, lone[r.name, d], _Log(), company)
                legs.append(_with_convoys(alone, aim.leg(r.name, d)))
    return Survey(tuple(legs), time.process_time() - started)


def _with_convoys(leg: LegSurvey, aim: LegSurvey) -> LegSurvey:
    """Return a thrower's leg with the aim's convoys on it, set against the aim's lone arrivals (`convoy_alone`;
    None where they are the thrower's own, as a thrower of the aim's best throws sails)."""
    return replace(leg, company=aim.company, convoy_ships=aim.convoy_ships, convoy_arrived=aim.convoy_arrived,
                   convoy_turns=aim.convoy_turns, convoy_lost=aim.convoy_lost, convoy_sunk=aim.convoy_sunk,
                   convoy_alone=None if aim.arrivals == leg.arrivals else aim.arrivals)


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
            off, aground = risks(s, best, model, spread)
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
