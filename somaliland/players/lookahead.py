"""Looking before throwing: roll the best few candidate throws through the real physics, within a budget.

The analytic aim cannot see a die that tips over when struck or a bounce off another die; a roll of the
intended throw (no scatter) in the scene that mirrors the state can. At most `budget` rolls per decision;
each simulated candidate's worth becomes the mean of its analytic worth and the worth of its simulated
outcome. Physics is deterministic, so the choice is too.
"""

from __future__ import annotations

import numpy as np

from physics import RollResult, Roller, Scene, Throw
from somaliland.players.aim import Candidate
from somaliland.players.calibration import ThrowModel
from somaliland.players.hazards import AimWeights, Surroundings, score_landings
from somaliland.players.policy import Table
from somaliland.rules.game import throw_scene


def scene(table: Table, ship_id: str) -> Scene:
    """Return the physics scene mirroring the table, the ship to throw on the board (at its start if in port)."""
    return throw_scene(table.state, ship_id, table.world, table.config)


def outcome_worth(s: Surroundings, roll: RollResult, weights: AimWeights) -> float:
    """Return the worth of a simulated roll: its rest point, with the touches and tip-overs it really made."""
    touched = np.array([any(roll.thrown.name in (c.a, c.b) for c in roll.contacts)])
    worth = float(score_landings(s, np.array([roll.thrown.position[:2]]), weights, touched)[0])
    if any(t.name != roll.thrown.name for t in roll.tipovers):
        worth -= 1.0  # the thrower sinks (R18): all its chance is gone
    return worth


def look_ahead(table: Table, ship_id: str, ranked: list[Candidate], s: Surroundings, model: ThrowModel,
               roller: Roller, budget: int, weights: AimWeights) -> Throw:
    """Return the best throw after rolling the top `budget` candidates through physics (budget 0: no rolls)."""
    if budget <= 0:
        return ranked[0].throw(model, ship_id, s.origin)
    world = scene(table, ship_id)
    best, best_worth = ranked[0], -np.inf
    for k, c in enumerate(ranked):
        worth = c.worth
        if k < budget:
            rolled = roller.roll(world, c.throw(model, ship_id, s.origin))
            worth = (c.worth + outcome_worth(s, rolled, weights)) / 2
        if worth > best_worth:
            best, best_worth = c, worth
    return best.throw(model, ship_id, s.origin)
