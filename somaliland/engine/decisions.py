"""The decisions a game asks of its players, as typed requests: draft, plan, launch, throw.

The game loop (`loop.game_steps`) yields one request at every decision point and is sent the answer:
`play_game` answers with each seat's `Policy` (`request.ask(policy)`), the PettingZoo environment
(`somaliland.env`) with an outside agent's action. A request carries the view of the game the decision
sees (`Table`) and the game's one generator (a policy may draw from it). `check` raises, naming what
was legal, for an answer the game would refuse, so a driver can refuse it before the game sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

import numpy as np

from physics import Throw
from somaliland.players.policy import Policy, Table
from somaliland.rules.contracts import Card, Draft, legal_picks
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.moves import check_throw
from somaliland.rules.order import launchable
from somaliland.rules.planning import Plan, check_plans


@dataclass(frozen=True, slots=True)
class Decision:
    """What every request carries: the view of the game the decision sees and the game's generator."""

    table: Table
    rng: np.random.Generator = field(repr=False, compare=False)

    @property
    def seat(self) -> int:
        """Return the seat that decides."""
        return self.table.seat


@dataclass(frozen=True, slots=True)
class DraftRequest(Decision):
    """Take a contract from the offer, or pass (R5, R6, D2): answered by a `Card` or None."""

    draft: Draft
    kind: ClassVar[str] = "draft"

    def ask(self, policy: Policy) -> Card | None:
        """Return the policy's answer."""
        return policy.draft(self.table, self.draft, self.rng)

    def check(self, card: object) -> None:
        """Raise unless the answer is a pass or a legal pick (R5, R6)."""
        legal = legal_picks(self.draft, self.seat)
        if card is not None and card not in legal:
            raise IllegalActionError("draft pick", f"{card} is not offered or exceeds the cap",
                                     [str(c) for c in legal] + ["pass"])


@dataclass(frozen=True, slots=True)
class PlanRequest(Decision):
    """Give every held contract a route and ships (R8, R10, D5): answered by a tuple of `Plan`s.

    Every seat plans at once: the table shows the state after the draft, not the other seats' plans.
    """

    kind: ClassVar[str] = "plan"

    def ask(self, policy: Policy) -> tuple[Plan, ...]:
        """Return the policy's answer."""
        return policy.plan(self.table, self.rng)

    def check(self, plans: object) -> None:
        """Raise unless the plans cover the seat's contracts with its own ships, one contract each (R8, R10)."""
        if not isinstance(plans, tuple) or not all(isinstance(p, Plan) for p in plans):
            raise IllegalActionError("plan", f"{plans!r} is not a tuple of plans", "a Plan for every held contract")
        t = self.table
        check_plans(t.state, self.seat, plans, t.world, t.config)


@dataclass(frozen=True, slots=True)
class LaunchRequest(Decision):
    """Launch one of the seat's ships now, or pass (R12, D7): answered by a ship id or None."""

    kind: ClassVar[str] = "launch"

    def ask(self, policy: Policy) -> str | None:
        """Return the policy's answer."""
        return policy.launch(self.table, self.rng)

    def check(self, ship_id: object) -> None:
        """Raise unless the answer is a pass or a ship of this seat that may be launched (R12)."""
        legal = [s.id for s in launchable(self.table.state, self.seat)]
        if ship_id is not None and ship_id not in legal:
            raise IllegalActionError("launch", f"seat {self.seat} cannot launch {ship_id}", legal + ["pass"])


@dataclass(frozen=True, slots=True)
class ThrowRequest(Decision):
    """Throw this ship (R12, R15, R16): answered by the intended `Throw`; the seat's hand then scatters it."""

    ship: str
    kind: ClassVar[str] = "throw"

    def ask(self, policy: Policy) -> Throw:
        """Return the policy's answer."""
        return policy.throw(self.table, self.ship, self.rng)

    def check(self, throw: object) -> None:
        """Raise unless the answer throws this ship from where it stands, a launch along its route (R12, R16)."""
        if not isinstance(throw, Throw) or throw.die != self.ship:
            raise IllegalActionError("throw", f"{throw!r} is not a throw of {self.ship}", f"a Throw of {self.ship}")
        t = self.table
        check_throw(t.state, self.ship, throw.origin, throw.heading, t.world, t.config)


Request = Union[DraftRequest, PlanRequest, LaunchRequest, ThrowRequest]
Answer = Union[Card, tuple[Plan, ...], str, Throw, None]
