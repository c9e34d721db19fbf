"""Somaliland as a PettingZoo AEC environment: one agent per seat, every decision of the game an action.

The environment drives the engine's one game loop (`engine.loop.game_steps`): each decision request of
an agent's seat becomes that agent's turn (`agent_selection`), and the action answers it; seats listed
in `opponents` are answered inside the environment by our own strategies, exactly as `play_game` would.
Actions: `actions.py`; observations: `observations.py`; the game record, `verify`-able: `raw_env.events`.

Rewards (`reward=`):
- `"final"` (default): each agent's points (R21) when the game ends, 0 before.
- `"shaped"`: points as the rules score them (each round's end), plus a potential-based term
  (Ng, Harada and Russell 1999) F = phi(s') - phi(s), where phi is `SHAPING` times the contract value
  (halved on a half-value route, R8) each of the seat's ships carries, shared among the ships carrying
  that contract, times how far along its leg the ship lies (0..1). Ships go home at every round's end
  (phi = 0 there, and at the start), so an episode's undiscounted shaped rewards add up to the final
  points, as under `"final"`; they only arrive sooner.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from physics import Roller, SimSettings, make_roller
from somaliland.engine.decisions import Answer, DraftRequest, LaunchRequest, PlanRequest, Request
from somaliland.engine.loop import GameResult, GameSteps, default_factory, game_steps, seat_policy
from somaliland.engine.recorded import AGENT
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, Seat
from somaliland.env.actions import Layout
from somaliland.env.observations import Observer
from somaliland.errors import UsageError
from somaliland.players.hand import ThrowSkill
from somaliland.players.policy import Policy
from somaliland.players.strategies import STRATEGIES
from somaliland.rules.config import RulesConfig, load_rules
from somaliland.rules.contracts import Card
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.fleet import COLOURS
from somaliland.rules.state import GameState
from somaliland.seeding import child_seeds, make_rng

REWARDS = ("final", "shaped")
OBSERVATIONS = ("dict", "vector")
SHAPING = 0.5  # the share of a contract's value the potential credits for a whole leg sailed
SEED_RANGE = 2 ** 31  # game seeds drawn for episodes reset without a seed


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Somaliland for agents: see the module docstring, `actions.py` and `observations.py`."""

    metadata = {"name": "somaliland_v0", "render_modes": ["rgb_array"], "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, players: int = 2, map_file: str | Path = DEFAULT_MAP,
                 rules: RulesConfig | str | Path | None = None, rounds: int | None = None,
                 opponents: Mapping[str, str] | None = None, skill: float | Mapping[str, float] = 0.75,
                 reward: str = "final", observation: str = "dict", record_paths: bool = False,
                 physics: SimSettings | None = None, render_mode: str | None = None) -> None:
        """Set up the game every episode plays (a new seed each reset).

        Args:
            players: seats, 2 to 4 (R23), named by colour: red, green, yellow, blue.
            map_file: the map (TOML), or a shipped map's name: "tiny" plays fastest.
            rules: a rules config or a rules file (TOML); `players` and `rounds` override its values.
            rounds: rounds in a game (R4, R23); the rules' by default.
            opponents: seats played inside the environment, colour -> strategy (cautious, bold, ev, search);
                the other seats are the agents.
            skill: every seat's throw skill, 0 (clumsy) to 1 (perfect), or one per colour (`hand.py`).
            reward: "final" or "shaped" (module docstring).
            observation: "dict" or "vector" (`observations.py`).
            record_paths: keep each throw's sampled path in the record (for replays; slower).
            physics: how the games' rolls are simulated, part of every game's setup (the defaults by default).
            render_mode: None or "rgb_array".

        Raises:
            UsageError: a bad option, an unknown colour or strategy, no agent left (names the option).
            RulesConfigError: a bad rules file. MapError: a bad map file.
        """
        from somaliland.map import load, resolve

        super().__init__()
        if reward not in REWARDS or observation not in OBSERVATIONS:
            raise UsageError(f"reward={reward!r}, observation={observation!r}: expected reward in {REWARDS} "
                             f"and observation in {OBSERVATIONS}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise UsageError(f"render_mode={render_mode!r}: expected None or 'rgb_array'")
        config = rules if isinstance(rules, RulesConfig) else load_rules(rules) if rules is not None else RulesConfig()
        self.config = replace(config, players=players, rounds=config.rounds if rounds is None else rounds)
        self.map_file = resolve(map_file)
        self.world = load(self.map_file)
        colours = COLOURS[:players]
        opponents = dict(opponents or {})
        unknown = sorted(set(opponents) - set(colours))
        if unknown:
            raise UsageError(f"opponents name {unknown}; the seats of a {players}-player game are {list(colours)}")
        strange = sorted(set(opponents.values()) - set(STRATEGIES))
        if strange:
            raise UsageError(f"unknown strategy {strange[0]!r} for an opponent; known: {', '.join(sorted(STRATEGIES))}")
        skills = skill if isinstance(skill, Mapping) else dict.fromkeys(colours, skill)
        if set(skills) != set(colours):
            raise UsageError(f"skill names {sorted(skills)}; expected one per seat: {list(colours)}")
        self.seats = tuple(Seat(opponents.get(c, AGENT), ThrowSkill.level(skills[c])) for c in colours)
        self.possible_agents = [c for c in colours if c not in opponents]
        if not self.possible_agents:
            raise UsageError("every seat is an opponent; leave at least one seat to an agent")
        self.layout = Layout.of(self.world, self.config)
        self.observer = Observer(self.layout, self.world, self.config, observation == "vector")
        self.action_spaces = {a: self.layout.space() for a in self.possible_agents}
        self.observation_spaces = {a: self.observer.space for a in self.possible_agents}
        self.reward_mode, self.record_paths, self.render_mode = reward, record_paths, render_mode
        self.settings = physics or SimSettings()
        self.roller: Roller | None = None
        self.policies: dict[int, Policy] = {}
        self._episodes: np.random.Generator | None = None

    # -- PettingZoo API ------------------------------------------------------------------------------
    def observation_space(self, agent: str):
        """Return the agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        """Return the agent's action space (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: with `seed`, the game of that seed (as `somaliland play --seed`).

        Without a seed, the next game of the sequence the last seeded reset began (or of fresh entropy).
        """
        if seed is not None:
            make_rng(seed)  # rejects a bad seed with a clear message
            self._episodes = make_rng(child_seeds(seed, 1)[0])
            game_seed = int(seed)
        else:
            if self._episodes is None:
                self._episodes = make_rng(np.random.SeedSequence())
            game_seed = int(self._episodes.integers(SEED_RANGE))
        self.setup = GameSetup(seed=game_seed, seats=self.seats, rules=self.config, map_path=self.map_file,
                               record_paths=self.record_paths, physics=self.settings)
        if self.roller is None:  # made once from the setup's physics, which every episode shares
            self.roller = make_roller(self.setup.physics)
        self.policies = {k: seat_policy(s, self.roller, default_factory) for k, s in enumerate(self.seats)
                         if s.strategy != AGENT}
        self.events: list[dict[str, Any]] = []
        self.result: GameResult | None = None
        self.request: Request | None = None
        self.state: GameState | None = None
        self._steps: GameSteps = game_steps(self.setup, self.world, self.roller, sink=self.events.append)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._plans: list = []
        self._credited = dict.fromkeys(self.agents, 0.0)  # shaped: what the rewards have paid so far
        self.agent_selection = self.agents[0]
        self._send(None)
        self._reward()

    def observe(self, agent: str) -> dict:
        """Return what the agent sees now (its action mask is all zeros unless the decision is its own)."""
        seat = COLOURS.index(agent)
        planning = None
        if isinstance(self.request, PlanRequest) and self.request.seat == seat:
            planning = self.layout.card_index(self._holding(len(self._plans)))
        return self.observer.observe(self.state, self.request, seat, planning, self._used())

    def step(self, action: Any) -> None:
        """Answer the pending decision of `agent_selection` (see `actions.py` for what an action may be).

        Raises:
            IllegalActionError: a choice the mask forbids, or an answer the rules refuse (lists what was legal).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        answer, complete = self._answer(action)
        self._cumulative_rewards[agent] = 0.0
        if complete:
            self._send(answer)
        self._reward()

    def render(self) -> np.ndarray | None:
        """Return the board after the latest throw as an RGB image (the replay's offscreen view), if asked for."""
        if self.render_mode is None:
            return None
        from imageio.v3 import imread

        from somaliland.engine.record import RecordWriter
        from somaliland.replay.export import export
        from somaliland.replay.story import load_story

        with tempfile.TemporaryDirectory() as folder:
            record = Path(folder) / "episode.jsonl"
            with RecordWriter(record) as writer:
                for event in self.events:
                    writer(event)
            story = load_story(record, self.world, whole=False)  # the game so far
            if not story.steps:  # nothing thrown yet: the board as the map draws it
                from somaliland.map.render import render

                render(self.world, str(Path(folder) / "frame.png"), dpi=60)
            else:
                export(story, Path(folder) / "frame.png", [len(story.steps) - 1], hold=0.0)
            return imread(Path(folder) / "frame.png")[..., :3]

    def close(self) -> None:
        """Release the physics roller."""
        if self.roller is not None:
            self.roller.close()
            self.roller = None

    # -- driving the game loop -------------------------------------------------------------------------
    def _send(self, answer: Answer) -> None:
        """Answer the pending request, then answer opponents' requests until an agent's is pending or the game ends."""
        while True:
            try:
                request = self._steps.send(answer)
            except StopIteration as done:
                self.result, self.request, self.state = done.value, None, done.value.state
                self.terminations = dict.fromkeys(self.agents, True)
                return
            if request.seat in self.policies:
                answer = request.ask(self.policies[request.seat])
                continue
            self.request, self.state, self._plans = request, request.table.state, []
            self.agent_selection = COLOURS[request.seat]
            return

    def _holding(self, k: int) -> Card:
        return self.state.held[self.request.seat][k].card

    def _used(self) -> int:
        """Return the bit mask of the pending plan's ships already given to contracts (R10)."""
        fleet = self.state.fleet(self.request.seat) if self.request is not None else ()
        return sum(1 << k for k, s in enumerate(fleet) for p in self._plans if s.id in p.ships)

    @property
    def planned(self) -> int:
        """Return how many of the pending plan's contracts have their route and ships (a plan takes a step each)."""
        return len(self._plans)

    def _answer(self, action: Any) -> tuple[Answer, bool]:
        """Return the game's answer an action stands for, and whether it is complete (a plan takes a step per contract)."""
        request = self.request
        if isinstance(action, (int, np.integer)) or (isinstance(action, np.ndarray) and action.shape == ()):
            choice, params = int(action), np.zeros(3)
        elif isinstance(action, Mapping) and "choice" in action:
            choice, params = int(action["choice"]), np.asarray(action.get("throw", np.zeros(3)), dtype=float)
        else:  # the game's own answer, as a Policy gives it (a Card or None, plans, a ship id or None, a Throw)
            request.check(action)
            return action, True
        legal = self.layout.mask(request, self._used())
        if not (0 <= choice < self.layout.size and legal[choice]):
            raise IllegalActionError(f"{request.kind} choice", f"{choice} is not legal for {self.agent_selection} now",
                                     np.flatnonzero(legal).tolist())
        if isinstance(request, DraftRequest):
            return self.layout.draft_answer(choice), True
        if isinstance(request, PlanRequest):
            self._plans.append(self.layout.plan_answer(request, self._holding(len(self._plans)), choice))
            done = len(self._plans) == len(self.state.held[request.seat])
            return (tuple(self._plans), True) if done else (None, False)
        if isinstance(request, LaunchRequest):
            return self.layout.launch_answer(request, choice), True
        throw = self.layout.throw_answer(request, choice, params)
        request.check(throw)
        return throw, True

    # -- rewards -------------------------------------------------------------------------------------
    def _reward(self) -> None:
        """Set this step's rewards (final points at the end; shaped: what was earned since) and accumulate them."""
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward_mode == "shaped" or self.result is not None:
            for agent in self.agents:
                seat = COLOURS.index(agent)
                worth = float(self.state.sheets[seat].points)
                if self.reward_mode == "shaped" and self.result is None:
                    worth += self._potential(seat)
                self.rewards[agent] = worth - self._credited[agent]
                self._credited[agent] = worth
        self._accumulate_rewards()

    def _potential(self, seat: int) -> float:
        """Return phi: the shaping credit of the seat's ships for how far along their legs they lie (docstring)."""
        ships = [s for s in self.state.fleet(seat) if s.card is not None and s.pose is not None]
        carrying = {}
        for s in self.state.fleet(seat):
            if s.card is not None:
                carrying[s.card] = carrying.get(s.card, 0) + 1
        total = 0.0
        for s in ships:
            route = self.world.route(s.route)
            length = max(self.world.leg_length(s.route, s.direction), 1e-6)
            start = route.progress(s.direction, *route.leg(s.direction).start)
            along = min(max((route.progress(s.direction, *s.pose.position[:2]) - start) / length, 0.0), 1.0)
            total += (1.0 if route.full_value else 0.5) * s.card.value / carrying[s.card] * along
        return SHAPING * total
