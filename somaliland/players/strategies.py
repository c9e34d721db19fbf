"""The shipped strategies — cautious, bold, ev, search — and the registry that makes a policy from its name.

All share the machinery of `Strategy` (strategy.py): the survey of the map in play, drafting by marginal
expected worth within the cap (R5, R6, D3), planning by `planner.best_plans` (R8, R10), launching the biggest
hopeful ship whose start is clear (R12), and aiming with the calibrated throw model and the leg's measured odds.
They differ in preferences only: the routes they consider, whether ransom frightens them, what a ship at sea
costs, and how much the aim fears a collision:

- cautious: the safe route only (half value, R8); ransom-averse; a careful aim.
- bold: the full-value route only; ignores ransom when valuing contracts; a daring aim.
- ev: either route per contract, whichever has the higher expected value after capture risk.
- search: ev's contracts, routes and launches; each throw chosen by rolling candidates through the physics
  under its own model of its hand (`search.py`).
"""

from __future__ import annotations

import math
from typing import Any

from physics import Roller
from somaliland.errors import UsageError
from somaliland.players.aim import Spread
from somaliland.players.hazards import AimWeights
from somaliland.players.outlook import Outlook
from somaliland.players.policy import Policy
from somaliland.players.search import Search, SearchWeights
from somaliland.players.strategy import Strategy
from somaliland.players.survey import VOYAGES

MAX_ROLLS = 64  # the most lookahead rolls per throw a policy may be given
_DEFAULT = Outlook()


STRATEGIES: dict[str, dict[str, Any]] = {  # each strategy's own defaults for the parameters below
    "cautious": {"prefer": "safe", "ransom_aversion": 1.0, "weights": AimWeights(collision=0.5)},
    # bold minds neither ransom nor crowding
    "bold": {"prefer": "full", "ransom_aversion": 0.0, "weights": AimWeights(collision=0.15), "ship_cost": 0.0},
    "ev": {"prefer": "any", "ransom_aversion": 1.0, "weights": AimWeights()},
    "search": {"prefer": "any", "ransom_aversion": 1.0, "weights": AimWeights()},  # ev's, and a search (search.py)
}

PARAMS: dict[str, tuple[type, float, float, Any]] = {  # name: (type, low, high, default unless the strategy's)
    "tumble": (float, 0.0, 1.0, 0.05),  # forward spin at release, fraction of the rolling rate
    "heading_sd_deg": (float, 0.0, 90.0, 5.0),  # the heading scatter the aim plans for
    "speed_sd": (float, 0.0, 1.0, 0.10),  # the relative speed scatter the aim plans for
    "rolls": (int, 0, MAX_ROLLS, 0),  # lookahead budget: physics rolls per throw decision
    "voyages": (int, 2, 1000, VOYAGES),  # the survey's lone voyages per leg (survey.py)
    "survey_draw": (int, 0, 1_000_000, 0),  # which draw of the survey's voyages (0: every player's; survey.py)
    "rival_ships_per_route": (float, 0.0, 24.0, _DEFAULT.rival_ships_per_route),  # before rivals plan
    "ship_cost": (float, 0.0, 100.0, _DEFAULT.ship_cost),  # points a ship at sea costs (crowding)
    "ransom_aversion": (float, 0.0, 10.0, 1.0),  # 0: ransom does not count, 1: at face value
}
OWN_PARAMS: dict[str, dict[str, tuple[type, float, float, Any]]] = {  # parameters of one strategy only
    "search": {"search_samples": (int, 4, 1024, 64),  # physics rolls per throw decision (search.py)
               "search_play": (int, 1, 16, 1),  # a game's throw decisions' rolls, as a multiple of search_samples
               "search_launch": (int, 1, 16, 1),  # a launch's rolls, as a multiple of a game throw's (R12)
               "search_play_aground": (float, 0.0, 5.0, 0.0),  # running aground in a game's throws, not the survey's
               # SearchWeights (search.py), in chance to arrive, beyond what the aim's worth already counts:
               "search_aground": (float, 0.0, 5.0, 0.5),  # running aground (R17)
               "search_off_board": (float, 0.0, 5.0, 0.05),  # leaving the board (R19)
               "search_sink": (float, 0.0, 5.0, 1.0),  # tipping another die, so sinking (R18)
               "search_rival": (float, 0.0, 5.0, 0.05),  # a rival ship made to lose a turn (R18, D12)
               "search_prior": (float, 0.0, 16.0, 1.0)},  # rolls the aim's worth of a candidate counts as
}
MEASURED = "every player now measures it on the map in play, somaliland/players/survey.py"
REMOVED = {  # parameters that no longer exist, and why (board facts are measured, not given)
    "stride": f"metres a move covers: {MEASURED}",
    "accident_rate": f"lost turns a move: {MEASURED}",
    "rival_full_route_ships": "the prior is now rival_ships_per_route, on every route",
}


def strategy_params(strategy: str) -> dict[str, tuple[type, float, float, Any]]:
    """Return the parameters a strategy accepts: every strategy's (`PARAMS`) and its own (`OWN_PARAMS`)."""
    return {**PARAMS, **OWN_PARAMS.get(strategy, {})}


def param_expected(name: str, strategy: str = "ev") -> str:
    """Return what a strategy parameter accepts, e.g. 'an integer in [0, 64]'."""
    kind, low, high, _ = strategy_params(strategy)[name]
    return f"{'an integer' if kind is int else 'a number'} in [{low:g}, {high:g}]"


def _param(name: str, value: Any, strategy: str) -> Any:
    """Return a strategy parameter checked against its type and range."""
    kind, low, high, _ = strategy_params(strategy)[name]
    ok = (isinstance(value, int) if kind is int else isinstance(value, (int, float))) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not low <= value <= high:
        raise UsageError(f"strategy parameter {name} = {value!r} is not allowed; "
                         f"expected {param_expected(name, strategy)}")
    return kind(value)


def make_policy(name: str, roller: Roller, **params: Any) -> Policy:
    """Return the named strategy, built on this roller, with parameters changed from their defaults.

    Args:
        name: one of `STRATEGIES` (cautious, bold, ev, search).
        roller: the physics roller the policy calibrates its throws with (and looks ahead with).
        params: any of `PARAMS`: tumble, heading_sd_deg, speed_sd, rolls, voyages, survey_draw, rival_ships_per_route,
            ship_cost, ransom_aversion, and the strategy's own (`OWN_PARAMS`: search_samples, search_play,
            search_launch and the search_* weights for search);
            unset ones take the strategy's defaults.

    Raises:
        UsageError: an unknown strategy name or parameter, a removed one (`REMOVED`, named), or a parameter
            out of range (lists the known ones).
    """
    if name not in STRATEGIES:
        raise UsageError(f"unknown strategy {name!r}; known strategies: {', '.join(sorted(STRATEGIES))}")
    removed = sorted(set(params) & set(REMOVED))
    if removed:
        raise UsageError(f"strategy parameter {removed[0]} was removed ({REMOVED[removed[0]]}); drop it")
    known = strategy_params(name)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise UsageError(f"unknown strategy parameter(s) {', '.join(unknown)} of {name}; "
                         f"known parameters: {', '.join(sorted(known))}")
    base = STRATEGIES[name]
    values = {k: _param(k, params[k], name) if k in params else base.get(k, default)
              for k, (_, _, _, default) in known.items()}
    common = dict(prefer=base["prefer"], ransom_aversion=values["ransom_aversion"], weights=base["weights"],
                  outlook=Outlook(values["rival_ships_per_route"], values["ship_cost"]),
                  spread=Spread(math.radians(values["heading_sd_deg"]), values["speed_sd"]),
                  tumble=values["tumble"], rolls=values["rolls"], voyages=values["voyages"],
                  survey_draw=values["survey_draw"])
    if name == "search":
        weights = SearchWeights(values["search_aground"], values["search_off_board"], values["search_sink"],
                                values["search_rival"], values["search_prior"])
        return Search(name, roller, samples=values["search_samples"], launch_factor=values["search_launch"],
                      play_factor=values["search_play"], play_aground=values["search_play_aground"],
                      search_weights=weights, **common)
    return Strategy(name, roller, **common)
