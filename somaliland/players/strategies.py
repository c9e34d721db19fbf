"""The shipped strategies — cautious, bold, ev — and the registry that makes a policy from its name.

All three share the machinery: drafting by marginal expected worth within the cap (R5, R6, D3), planning
by `planner.best_plans` (R8, R10), launching the biggest hopeful ship whose start is clear (R12), and
aiming with the calibrated throw model (`aim`, `lookahead`). They differ in the routes they consider,
whether ransom frightens them, and how much the aim fears a lost turn or a collision:

- cautious: the safe route only (half value, R8); ransom-averse; a careful aim.
- bold: the full-value route only; ignores ransom when valuing contracts; a daring aim.
- ev: either route per contract, whichever has the higher expected value after capture risk.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from physics import Roller, Throw
from somaliland.errors import UsageError
from somaliland.players.aim import Spread, rank, sizing_up
from somaliland.players.calibration import ThrowModel, calibrate
from somaliland.players.hazards import AimWeights
from somaliland.players.lookahead import look_ahead
from somaliland.players.outlook import Outlook
from somaliland.players.planner import Valuation, best_plans, rival_full_route_ships, vessels
from somaliland.players.policy import Policy, Table
from somaliland.rules.contracts import Card, Draft, legal_picks
from somaliland.rules.moves import launch_pose, moves_left
from somaliland.rules.order import launchable
from somaliland.rules.planning import Plan
from somaliland.rules.state import ShipState, Status

MAX_ROLLS = 64  # the most lookahead rolls per throw a policy may be given
_DEFAULT = Outlook()


class Strategy:
    """A policy built from a route preference, a ransom aversion and aim weights (see module docstring)."""

    def __init__(self, name: str, roller: Roller, *, prefer: str, ransom_aversion: float, weights: AimWeights,
                 outlook: Outlook, spread: Spread, tumble: float, rolls: int) -> None:
        self.name = name
        self.roller = roller
        self.prefer = prefer  # "safe", "full" or "any"
        self.ransom_aversion = ransom_aversion
        self.weights = weights
        self.outlook = outlook
        self.spread = spread
        self.tumble = tumble
        self.rolls = rolls  # lookahead budget: physics rolls per throw decision

    def __repr__(self) -> str:
        return f"Strategy({self.name!r}, rolls={self.rolls}, tumble={self.tumble})"

    # -- contracts ----------------------------------------------------------------------------------
    def valuation(self, table: Table) -> Valuation:
        """Return how this strategy prices contracts on this map."""
        routes = tuple(r.name for r in table.world.routes
                       if self.prefer == "any" or r.full_value == (self.prefer == "full"))
        return Valuation(routes or tuple(r.name for r in table.world.routes), self.ransom_aversion, self.outlook)

    def _worth(self, table: Table, cards: tuple[Card, ...]) -> tuple[float, tuple[Plan, ...]]:
        state = table.state
        return best_plans(cards, vessels(state, table.seat), table.world, table.config, self.valuation(table),
                          rival_full_route_ships(state, table.seat, table.world, self.outlook))

    def draft(self, table: Table, draft: Draft, rng: np.random.Generator) -> Card | None:
        """Return the legal card that adds the most expected worth, or None when none adds any (R5, R6)."""
        held = draft.held[table.seat]
        base = self._worth(table, held)[0]
        best, gain = None, 1e-9
        for card in sorted(legal_picks(draft, table.seat), key=lambda c: (-c.value, c.direction.value)):
            extra = self._worth(table, held + (card,))[0] - base
            if extra > gain:
                best, gain = card, extra
        return best

    def plan(self, table: Table, rng: np.random.Generator) -> tuple[Plan, ...]:
        """Return a route and ships for every held contract, the most expected worth first (R8, R10)."""
        cards = tuple(h.card for h in table.state.held[table.seat])
        return self._worth(table, cards)[1]

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
        return calibrate(self.roller, table.config.die_size, table.config.die_mass, tumble=self.tumble)

    def throw(self, table: Table, ship_id: str, rng: np.random.Generator) -> Throw:
        """Return the intended throw: the best-ranked candidate, checked by physics within the budget."""
        model = self.model(table)
        s = sizing_up(table, ship_id, model)
        ranked = rank(table, ship_id, s, model, self.spread, self.weights)
        return look_ahead(table, ship_id, ranked, s, model, self.roller, self.rolls, self.weights)


def start_clear(table: Table, ship: ShipState) -> bool:
    """Return True if no die lies where the ship would be launched from (R12)."""
    x, y = launch_pose(ship, table.world, table.config).position[:2]
    return all(math.dist((x, y), s.pose.position[:2]) > 1.2 * table.config.die_size
               for s in table.state.ships if s.pose is not None and s.status is not Status.SUNK)


def hopeful(table: Table, ship: ShipState, model: ThrowModel) -> bool:
    """Return True if the ship's moves left could carry it the length of its leg at the longest roll (R15)."""
    moves = moves_left(ship, table.state.turn, table.config)
    return moves * model.max_roll >= table.world.leg_length(ship.route, ship.direction)  # type: ignore[arg-type]


STRATEGIES: dict[str, dict[str, Any]] = {  # each strategy's own defaults for the parameters below
    "cautious": {"prefer": "safe", "ransom_aversion": 1.0, "weights": AimWeights(collision=0.5)},
    # bold judges a voyage by a lone ship's luck (0.3 lost turns a move) and minds neither ransom nor crowding
    "bold": {"prefer": "full", "ransom_aversion": 0.0, "weights": AimWeights(collision=0.15),
             "accident_rate": 0.3, "ship_cost": 0.0},
    "ev": {"prefer": "any", "ransom_aversion": 1.0, "weights": AimWeights()},
}

PARAMS: dict[str, tuple[type, float, float, Any]] = {  # name: (type, low, high, default unless the strategy's)
    "tumble": (float, 0.0, 1.0, 0.05),  # forward spin at release, fraction of the rolling rate
    "heading_sd_deg": (float, 0.0, 90.0, 5.0),  # the heading scatter the aim plans for
    "speed_sd": (float, 0.0, 1.0, 0.10),  # the relative speed scatter the aim plans for
    "rolls": (int, 0, MAX_ROLLS, 0),  # lookahead budget: physics rolls per throw decision
    "stride": (float, 0.01, 2.0, _DEFAULT.stride),  # metres a move covers: for contracts and for the aim
    "accident_rate": (float, 0.0, 5.0, _DEFAULT.accident_rate),  # lost turns a move (outlook.py)
    "rival_full_route_ships": (float, 0.0, 24.0, _DEFAULT.rival_full_route_ships),
    "ship_cost": (float, 0.0, 100.0, _DEFAULT.ship_cost),  # points a ship at sea costs (crowding)
    "ransom_aversion": (float, 0.0, 10.0, 1.0),  # 0: ransom does not count, 1: at face value
}


def param_expected(name: str) -> str:
    """Return what a strategy parameter accepts, e.g. 'an integer in [0, 64]'."""
    kind, low, high, _ = PARAMS[name]
    return f"{'an integer' if kind is int else 'a number'} in [{low:g}, {high:g}]"


def _param(name: str, value: Any) -> Any:
    """Return a strategy parameter checked against its type and range."""
    kind, low, high, _ = PARAMS[name]
    ok = (isinstance(value, int) if kind is int else isinstance(value, (int, float))) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not low <= value <= high:
        raise UsageError(f"strategy parameter {name} = {value!r} is not allowed; expected {param_expected(name)}")
    return kind(value)


def make_policy(name: str, roller: Roller, **params: Any) -> Policy:
    """Return the named strategy, built on this roller, with parameters changed from their defaults.

    Args:
        name: one of `STRATEGIES` (cautious, bold, ev).
        roller: the physics roller the policy calibrates its throws with (and looks ahead with).
        params: any of `PARAMS`: tumble, heading_sd_deg, speed_sd, rolls, stride, accident_rate,
            rival_full_route_ships, ship_cost, ransom_aversion (unset ones take the strategy's defaults).

    Raises:
        UsageError: an unknown strategy name or parameter, or a parameter out of range (lists the known ones).
    """
    if name not in STRATEGIES:
        raise UsageError(f"unknown strategy {name!r}; known strategies: {', '.join(sorted(STRATEGIES))}")
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise UsageError(f"unknown strategy parameter(s) {', '.join(unknown)}; "
                         f"known parameters: {', '.join(sorted(PARAMS))}")
    base = STRATEGIES[name]
    values = {k: _param(k, params[k]) if k in params else base.get(k, default)
              for k, (_, _, _, default) in PARAMS.items()}
    weights = replace(base["weights"], stride=values["stride"])
    return Strategy(name, roller, prefer=base["prefer"], ransom_aversion=values["ransom_aversion"], weights=weights,
                    outlook=Outlook(values["stride"], values["accident_rate"], values["rival_full_route_ships"],
                                    values["ship_cost"]),
                    spread=Spread(math.radians(values["heading_sd_deg"]), values["speed_sd"]),
                    tumble=values["tumble"], rolls=values["rolls"])
