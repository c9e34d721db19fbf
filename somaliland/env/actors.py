"""Our strategies as action functions for an agent's seat, and any policy answer as an action.

`StrategyActor("ev")(env, agent)` returns what the `ev` strategy would do in the pending decision, as
the game's own answer (a Card or None, plans, a ship id or None, a Throw) or, with `encode=True`, as the
environment's action (`actions.py`: a choice, and for a throw the nearest parameterised throw). The
strategy answers with the game's one generator, as it would in `play_game`, so an episode played by
native answers gives the same record as `somaliland play` with the same seed.
"""

from __future__ import annotations

from typing import Any

from somaliland.engine.decisions import Answer, DraftRequest, LaunchRequest, PlanRequest
from somaliland.engine.loop import default_factory, seat_policy
from somaliland.engine.setup import Seat
from somaliland.players.policy import Policy


class StrategyActor:
    """Plays a seat of the environment with one of our strategies (cautious, bold, ev, search)."""

    def __init__(self, strategy: str, encode: bool = False, **params: Any) -> None:
        self.strategy, self.encode, self.params = strategy, encode, tuple(sorted(params.items()))
        self._policies: dict[tuple[int, int], Policy] = {}
        self._plans: tuple = ()

    def __call__(self, env: Any, agent: str) -> Any:
        """Return the strategy's action for the agent's pending decision."""
        game = env.unwrapped
        request = game.request
        if isinstance(request, PlanRequest) and game.planned:  # later contracts of a plan answered in one go
            return as_action(game, self._plans)
        key = (id(game.roller), request.seat)
        if key not in self._policies:
            seat = game.seats[request.seat]
            self._policies[key] = seat_policy(Seat(self.strategy, seat.skill, self.params), game.roller,
                                              default_factory)
        answer = request.ask(self._policies[key])
        if isinstance(request, PlanRequest):
            self._plans = answer
        return as_action(game, answer) if self.encode else answer


def as_action(game: Any, answer: Answer) -> Any:
    """Return the environment's action that stands for a native answer to its pending request.

    A plan stands for one step per contract: this returns the choice of the contract now being planned.
    """
    request, layout = game.request, game.layout
    if isinstance(request, DraftRequest):
        return layout.draft_choice(answer)
    if isinstance(request, PlanRequest):
        card = request.table.state.held[request.seat][game.planned].card
        return layout.plan_choice(request, next(p for p in answer if p.card == card))
    if isinstance(request, LaunchRequest):
        return layout.launch_choice(request, answer)
    return layout.throw_action(request, answer)
