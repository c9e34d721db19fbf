"""The `Strategy` every shipped player is: ev's reckoning, with a route preference, a ransom aversion and aim weights.

Its machinery: the survey of the map in play (`survey.py`), drafting by marginal expected worth within the cap
(R5, R6, D3), planning by `planner.best_plans` (R8, R10), launching the biggest hopeful ship whose start is clear
(R12), and aiming with the calibrated throw model and the leg's measured odds (`aim`, `lookahead`). The shipped
strategies and their preferences are in `strategies.py`; the search builds on it in `search.py`.
"""

from __future__ import annotations

import numpy as np

from physics import Roller, Throw
from somaliland.map.model import Map
from somaliland.players.aim import Candidate, Spread, prior_odds, rank, sizing_up
from somaliland.players.calibration import ThrowModel, calibrate
from somaliland.players.hazards import AimWeights, Surroundings, start_clear
from somaliland.players.legs import Survey
from somaliland.players.lookahead import look_ahead
from somaliland.players.outlook import Outlook, Traffic
from somaliland.players.planner import Valuation, best_plans, foreseen_traffic, rival_traffic, vessels
from somaliland.players.policy import Table
from somaliland.players.survey import VOYAGES, Thrower, survey
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card, Draft, legal_picks
from somaliland.rules.moves import moves_left
from somaliland.rules.order import launchable
from somaliland.rules.planning import Plan
from somaliland.rules.state import ShipState


class Strategy:
    """A policy built from a route preference, a ransom aversion and aim weights (see module docstring)."""

    def __init__(self, name: str, roller: Roller, *, prefer: str, ransom_aversion: float, weights: AimWeights,
                 outlook: Outlook, spread: Spread, tumble: float, rolls: int, voyages: int = VOYAGES,
                 survey_draw: int = 0) -> None:
        self.name = name
        self.roller = roller
        self.prefer = prefer  # "safe", "full" or "any"
        self.ransom_aversion = ransom_aversion
        self.weights = weights
        self.outlook = outlook
        self.spread = spread
        self.tumble = tumble
        self.rolls = rolls  # lookahead budget: physics rolls per throw decision
        self.voyages = voyages  # the survey's lone voyages per leg
        self.survey_draw = survey_draw  # which draw of the survey's voyages (0: every player's; survey.py)
        # the last survey and throw model asked for, by the identity of the map and rules they were asked for: a
        # game asks at every decision, and the process-wide caches' keys are dear to hash
        self._surveyed: tuple[Map, RulesConfig, Survey] | None = None
        self._modelled: tuple[RulesConfig, ThrowModel] | None = None

    def __repr__(self) -> str:
        return f"Strategy({self.name!r}, rolls={self.rolls}, tumble={self.tumble})"

    # -- contracts ----------------------------------------------------------------------------------
    def valuation(self, table: Table) -> Valuation:
        """Return how this strategy prices contracts on this map."""
        routes = tuple(r.name for r in table.world.routes
                       if self.prefer == "any" or r.full_value == (self.prefer == "full"))
        return Valuation(routes or tuple(r.name for r in table.world.routes), self.ransom_aversion, self.outlook)

    def survey(self, world: Map, config: RulesConfig, luck: str | None = None) -> Survey:
        """Return the survey of the map in play for this strategy's aim and hand model (sailed once per process);
        with `luck`, the survey seeded by it instead of the map (survey.py; what `map measure` compares maps by)."""
        last = self._surveyed
        if luck is None and last is not None and last[0] is world and last[1] is config:
            return last[2]
        found = survey(self.roller, world, config, spread=self.spread, weights=self.weights, tumble=self.tumble,
                       voyages=self.voyages, thrower=self.own_thrower(), draw=self.survey_draw, luck=luck)
        if luck is None:
            self._surveyed = (world, config, found)
        return found

    def own_thrower(self) -> Thrower | None:
        """Return the player whose choices the survey throws with, if not the aim's best (None: the aim's)."""
        return None

    def _worth(self, table: Table, cards: tuple[Card, ...], traffic: Traffic) -> tuple[float, tuple[Plan, ...]]:
        return best_plans(cards, vessels(table.state, table.seat), self.survey(table.world, table.config),
                          table.config, self.valuation(table), traffic)

    def draft(self, table: Table, draft: Draft, rng: np.random.Generator) -> Card | None:
        """Return the legal card that adds the most expected worth, or None when none adds any (R5, R6)."""
        held = draft.held[table.seat]
        traffic = rival_traffic(table.state, table.seat, table.world, self.outlook)
        base = self._worth(table, held, traffic)[0]
        best, gain = None, 1e-9
        for card in sorted(legal_picks(draft, table.seat), key=lambda c: (-c.value, c.direction.value)):
            extra = self._worth(table, held + (card,), traffic)[0] - base
            if extra > gain:
                best, gain = card, extra
        return best

    def plan(self, table: Table, rng: np.random.Generator) -> tuple[Plan, ...]:
        """Return a route and ships for every held contract, the most expected worth first (R8, R10)."""
        cards = tuple(h.card for h in table.state.held[table.seat])
        traffic = foreseen_traffic(table.state, table.seat, table.world, self.survey(table.world, table.config),
                                   table.config, self.valuation(table))
        return self._worth(table, cards, traffic)[1]

    # -- launching ----------------------------------------------------------------------------------
    def launch(self, table: Table, rng: np.random.Generator) -> str | None:
        """Return the biggest ship that can still arrive and whose start is clear, or None (R12, D7)."""
        model = self.model(table)
        options = [s for s in launchable(table.state, table.seat)
                   if start_clear(table, s) and hopeful(table, s, model)]
        if not options:
            return None
        return min(options, key=lambda s: (-s.displacement, s.id)).id

    # -- throwing -----------------------------------------------------------------------------------
    def model(self, table: Table) -> ThrowModel:
        """Return the throw model of this table's dice (measured once per process)."""
        last = self._modelled
        if last is None or last[0] is not table.config:
            last = self._modelled = (table.config, calibrate(self.roller, table.config.die_size,
                                                             table.config.die_mass, tumble=self.tumble))
        return last[1]

    def ranked(self, table: Table, ship_id: str) -> tuple[ThrowModel, Surroundings, list[Candidate]]:
        """Return the throw model, the sizing-up of the ship's position (its leg's surveyed odds) and the
        candidate throws ranked by their analytic worth, best first."""
        model = self.model(table)
        ship = table.state.ship(ship_id)
        legs = self.survey(table.world, table.config)
        odds = legs.leg(ship.route, ship.direction).odds if ship.route and ship.direction else prior_odds(model)
        s = sizing_up(table, ship_id, model, odds)
        return model, s, rank(table, ship_id, s, model, self.spread, self.weights)

    def throw(self, table: Table, ship_id: str, rng: np.random.Generator) -> Throw:
        """Return the intended throw: the best-ranked candidate, checked by physics within the budget."""
        model, s, ranked = self.ranked(table, ship_id)
        return look_ahead(table, ship_id, ranked, s, model, self.roller, self.rolls, self.weights)


def hopeful(table: Table, ship: ShipState, model: ThrowModel) -> bool:
    """Return True if the ship's moves left could carry it the length of its leg at the longest roll (R15)."""
    moves = moves_left(ship, table.state.turn, table.config)
    return moves * model.max_roll >= table.world.leg_length(ship.route, ship.direction)  # type: ignore[arg-type]
