"""The game loop: plays a whole game of Somaliland by driving the pure rules, the players and the physics.

The state is frozen data and the only truth; each throw builds a physics scene from it, the roller
says how the dice came to rest, and `apply_roll` decides what that means. Chance comes from one
generator made from the setup's seed: the deal, the first player, the players' choices and their
hands all draw from it in a fixed order, so a setup always plays the same game.

Round sequence (R4–R15, D10): deal and draft; plans; turn 1 is the launching phase; after it the
pirates seize a ship; turns 2..6 each move every route in R14's order (D9 within a route), then open a
launching phase for ships not yet sailed, then the pirates seize again; the round is scored.

There is one loop, `game_steps`: a generator that yields a typed decision request (`decisions.py`) at
every draft pick, plan, launch and throw and is sent the answer. `play_game` answers with the seats'
policies; the PettingZoo environment (`somaliland.env`) lets an outside agent answer a seat's requests.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, fields, replace
from typing import Any

from physics import Roller, make_roller
from somaliland import __version__
from somaliland.engine.decisions import Answer, DraftRequest, LaunchRequest, PlanRequest, Request, ThrowRequest
from somaliland.engine.encode import as_recorded, plain, rules_json
from somaliland.engine.events import (Deal, DraftPick, Event, Header, LaunchPass, Planned, Stamped, Thrown, TurnBegun,
                                      encode, final_table, scores)
from somaliland.engine.record import RECORD_SCHEMA
from somaliland.engine.setup import GameSetup, Seat, check_roller
from somaliland.machine import fingerprint
from somaliland.map.model import Map
from somaliland.players.hand import execute
from somaliland.players.policy import Policy, Table
from somaliland.rules import (after_launch, apply_plans, apply_roll, begin_turn, drafter, end_round,
                              game_over, launcher, lose_turn, new_game, next_to_sail, open_launch, pick,
                              seize, standings, start_draft, take_contracts)
from somaliland.rules.fleet import COLOURS
from somaliland.rules.game import throw_scene
from somaliland.rules.state import GameState
from somaliland.seeding import make_rng

PolicyFactory = Callable[[str, Roller, dict[str, Any]], Policy]
GameSteps = Generator[Request, Answer, "GameResult"]


@dataclass
class GameResult:
    """A finished game: the final state and the final table, the record's lines as the typed events the loop told
    (`told`: what the study's tables read, with no decoding), and the record itself (`events`, one dict per line).

    The lines are encoded once, when first asked for (a study game never asks: encoding every line of a game
    was about 3% of its CPU); a game played with a sink has them already, as the sink received them.
    """

    state: GameState
    winners: tuple[int, ...]
    throws: int
    told: list[Stamped]
    lines: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Return the game's record, one dict per line (engine/RECORD.md)."""
        if self.lines is None:
            self.lines = [encode(stamped) for stamped in self.told]
        return self.lines


def default_factory(name: str, roller: Roller, params: dict[str, Any]) -> Policy:
    """Return the registered strategy of that name."""
    from somaliland.players.strategies import make_policy

    return make_policy(name, roller, **params)


class _Game:
    """One game in progress: the state, the record, the players. Methods follow the round sequence."""

    def __init__(self, setup: GameSetup, world: Map, roller: Roller,
                 sink: Callable[[dict[str, Any]], None] | None) -> None:
        check_roller(setup, roller)
        self.setup, self.world, self.roller, self.config = setup, world, roller, setup.rules
        self.rng = make_rng(setup.seed)
        self.board = world.board()
        self.lines: list[dict[str, Any]] | None = [] if sink is not None else None  # encoded only for a sink
        self.told: list[Stamped] = []
        self.sink = sink
        self.throws = 0
        self.state = new_game(self.config, self.rng)

    # -- record ------------------------------------------------------------------------------------
    def emit(self, *events: Event) -> None:
        for event in events:  # each as a record line (engine/events.py), stamped with the round and turn
            stamped = Stamped(self.state.round, self.state.turn, event)
            self.told.append(stamped)
            if self.sink is not None:
                line = encode(stamped)
                self.lines.append(line)
                self.sink(line)

    def header(self) -> None:
        s = self.setup
        self.emit(Header(
            schema=RECORD_SCHEMA, version=__version__, seed=s.seed,
            map={"file": str(s.map_path), "name": self.world.name, "sha256": self.world.sha256,
                 "routes": [{"name": r.name, "label": r.display_name, "full_value": r.full_value}
                            for r in self.world.routes]},
            rules=rules_json(self.config), physics=plain({f.name: getattr(s.physics, f.name) for f in fields(s.physics)}),
            seats=tuple(plain({"seat": i, "colour": COLOURS[i], "strategy": seat.strategy,
                               "skill": {"heading_sd_deg": seat.skill.heading_sd_deg, "speed_sd": seat.skill.speed_sd},
                               "params": dict(seat.params)}) for i, seat in enumerate(s.seats)),
            first_player=self.state.first_player, record_paths=s.record_paths, machine=plain(fingerprint())))

    def table(self, seat: int) -> Table:
        return Table(self.state, self.world, self.config, seat)

    # -- a round -----------------------------------------------------------------------------------
    def play(self) -> GameSteps:
        self.roller.new_game(self.board)  # lets the game's rolls share a world if the settings say so
        self.header()
        while not game_over(self.state, self.config):
            yield from self.draft()
            yield from self.plan()
            yield from self.turns()
            scored_state, scored = end_round(self.state, self.world, self.config)
            self.emit(*scored)  # still labelled with the round they end
            self.emit(scores(scored_state.sheets))
            self.state = scored_state
        # played out: the roller's next rolls outside a game each get a fresh world. Not in a `finally`: a game
        # abandoned (an environment reset) may be collected while the roller's next game plays, whose world this
        # would end; its world stays until that next game begins a world of its own.
        self.roller.new_game(None)
        final = standings(self.state.sheets, self.config, self.rng)
        self.emit(final_table(final, self.state.sheets))
        freeze_warm_objects()
        return GameResult(self.state, final.winners, self.throws, self.told, self.lines)

    def draft(self) -> GameSteps:
        draft = start_draft(self.state, self.config, self.rng)
        self.emit(Deal(self.state.first_player, draft.offer))
        while (seat := drafter(draft)) is not None:
            card = yield DraftRequest(self.table(seat), self.rng, draft)
            draft = pick(draft, seat, card, self.config)
            self.emit(DraftPick(seat, card))
        self.state = take_contracts(self.state, draft)

    def plan(self) -> GameSteps:
        """Every player plans at once (R8): each sees the state after the draft, not the others' plans,
        so no seat learns from another's choice (planning in seat order let later seats exploit it)."""
        before = self.state
        for seat in range(before.players):
            if not before.held[seat]:
                continue
            plans = yield PlanRequest(Table(before, self.world, self.config, seat), self.rng)
            self.state = apply_plans(self.state, seat, plans, self.world, self.config)
            self.emit(Planned(seat, tuple(plans)))

    def turns(self) -> GameSteps:
        for _ in range(self.config.turns_per_round):
            self.state = begin_turn(self.state, self.config)
            self.emit(TurnBegun())
            if self.state.turn > 1:
                while (ship := next_to_sail(self.state, self.world, self.config)) is not None:
                    if ship.skip > 0:
                        self.state, skipped = lose_turn(self.state, ship.id, self.world, self.config)
                        self.emit(*skipped)
                    else:
                        yield from self.throw(ship.owner, ship.id)
            yield from self.launch_phase()
            self.state, seized = seize(self.state, self.world, self.config)
            self.emit(*seized)

    def launch_phase(self) -> GameSteps:
        phase = open_launch(self.state)
        while (seat := launcher(phase, self.state)) is not None:
            request = LaunchRequest(self.table(seat), self.rng)
            ship_id = yield request
            if ship_id is not None:
                request.check(ship_id)
                yield from self.throw(seat, ship_id)
            else:
                self.emit(LaunchPass(seat))
            phase = after_launch(phase, seat, ship_id is not None, self.config)

    # -- a throw -----------------------------------------------------------------------------------
    def throw(self, seat: int, ship_id: str) -> GameSteps:
        request = ThrowRequest(self.table(seat), self.rng, ship_id)
        intended = yield request
        request.check(intended)
        actual = execute(intended, self.setup.seats[seat].skill, self.rng)
        roll = as_recorded(self.roller.roll(throw_scene(self.state, ship_id, self.world, self.config), actual))
        self.throws += 1
        paths = self.setup.record_paths  # without paths, the told roll is the one the record reads back: none
        self.emit(Thrown(seat, ship_id, intended, actual, roll if paths else replace(roll, paths=()), paths))
        self.state, happened = apply_roll(self.state, ship_id, roll, self.world, self.config)
        self.emit(*happened)


def freeze_warm_objects() -> None:
    """After a process's first game, take what outlives games (the players' surveys and calibrations, maps,
    modules) out of the cyclic garbage collector's walks: collected once, then frozen (`gc.freeze`).

    The first game makes what later games only read; a full collection walked all of it again every few games
    (about 25 ms of CPU each, measured). Nothing of the first game's that is still garbage is frozen (it is
    collected first), and objects made later are collected as before.
    """
    if not gc.get_freeze_count():
        gc.collect()
        gc.freeze()


def play_game(setup: GameSetup, world: Map, roller: Roller | None = None, factory: PolicyFactory = default_factory,
              sink: Callable[[dict[str, Any]], None] | None = None) -> GameResult:
    """Play a whole game and return its record and result.

    Args:
        setup: seed, rules, map file, seats and physics settings.
        world: the loaded map (its sha256 goes into the record).
        roller: the physics roller (any `physics.Roller`) simulating as `setup.physics` says, to share between
            games; None: one made from `setup.physics` for this game.
        factory: makes each seat's policy from its strategy name (the strategy registry by default).
        sink: called with each record line as it happens (to stream a record to a file).

    Raises:
        UsageError: the roller's settings are not the setup's (`check_roller`).
        IllegalActionError: a player attempted an illegal action (a bug in that strategy).
    """
    if roller is None:
        with make_roller(setup.physics) as own:
            return play_game(setup, world, own, factory, sink)
    check_roller(setup, roller)  # before the players are made with it
    policies = [seat_policy(seat, roller, factory) for seat in setup.seats]
    steps = game_steps(setup, world, roller, sink)
    answer: Answer = None  # a fresh generator is started by sending None
    while True:
        try:
            request = steps.send(answer)
        except StopIteration as done:
            return done.value
        answer = request.ask(policies[request.seat])


def seat_policy(seat: Seat, roller: Roller, factory: PolicyFactory) -> Policy:
    """Return the policy that plays a seat: its strategy, aiming for the scatter of the seat's own hand.

    A strategy parameter (`seat.params`) may override the scatter the aim plans for.
    """
    return factory(seat.strategy, roller, {"heading_sd_deg": seat.skill.heading_sd_deg,
                                           "speed_sd": seat.skill.speed_sd, **dict(seat.params)})


def game_steps(setup: GameSetup, world: Map, roller: Roller,
               sink: Callable[[dict[str, Any]], None] | None = None) -> GameSteps:
    """Return the game as a generator: it yields each decision request, is sent its answer, returns the result.

    `gen.send(answer)` answers the request last yielded (see `decisions.py` for what each takes); the
    generator's return value (StopIteration.value) is the `GameResult`. Arguments as for `play_game`; the roller
    is required.

    Raises:
        UsageError: the roller's settings are not the setup's (`check_roller`).
        IllegalActionError: an answer the rules refuse (the generator is then finished).
    """
    return _Game(setup, world, roller, sink).play()

