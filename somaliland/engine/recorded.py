"""Answers read back from a game record: how `verify` replays a seat whose decisions came from outside.

A seat played through the PettingZoo environment (`somaliland.env`) by an outside agent is written into
the record's header with the strategy `AGENT`. No policy can re-make that agent's choices, but the record
holds every one of them (draft picks, plans, launches and passes, intended throws), so `verify` answers
that seat's requests from its own typed decision events (engine/events.py), in order, and re-simulates
everything else.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from physics import Roller, Throw
from somaliland.engine.events import NAMES, DraftPick, LaunchPass, Planned, Stamped, Thrown
from somaliland.engine.loop import PolicyFactory
from somaliland.engine.record import RecordError
from somaliland.players.policy import Policy, Table
from somaliland.rules.contracts import Card, Draft
from somaliland.rules.planning import Plan

AGENT = "agent"  # the strategy a record names for a seat whose decisions an outside agent made
Decision = DraftPick | Planned | LaunchPass | Thrown
DECISIONS = (DraftPick, Planned, LaunchPass, Thrown)  # the events that carry a seat's decisions (R5, R8, R12, R16)
D = TypeVar("D", bound=Decision)


class RecordedAnswers:
    """A policy that answers each seat's requests from that seat's decision events of a record, in order."""

    name = AGENT

    def __init__(self, events: Sequence[Stamped], path: str) -> None:
        self.path, self.last = path, len(events)
        self.lines: dict[int, deque[tuple[int, Decision]]] = {}
        for number, stamped in enumerate(events, start=1):
            if isinstance(stamped.event, DECISIONS):
                self.lines.setdefault(stamped.event.seat, deque()).append((number, stamped.event))

    def _next(self, seat: int, *wanted: type[D], take: bool = True) -> D:
        names = " or ".join(NAMES[t] for t in wanted)
        queue = self.lines.get(seat)
        if not queue:
            raise RecordError(self.path, self.last, f"seat {seat} has no recorded decision left; expected {names}")
        number, event = queue[0]
        if not isinstance(event, wanted):
            raise RecordError(self.path, number, f"seat {seat}'s next decision is {event.kind}; the game asks for {names}")
        if take:
            queue.popleft()
        return event

    def draft(self, table: Table, draft: Draft, rng: np.random.Generator) -> Card | None:
        """Return the recorded pick (a card of the offer) or pass (R5)."""
        card = self._next(table.seat, DraftPick).card
        return None if card is None else _among(card, draft.offer, self.path)

    def plan(self, table: Table, rng: np.random.Generator) -> tuple[Plan, ...]:
        """Return the recorded plans (R8, R10)."""
        held = tuple(h.card for h in table.state.held[table.seat])
        plans = self._next(table.seat, Planned).plans
        for plan in plans:
            _among(plan.card, held, self.path)
        return plans

    def launch(self, table: Table, rng: np.random.Generator) -> str | None:
        """Return the ship the record throws next from port, or None for a recorded pass (R12, D7)."""
        event = self._next(table.seat, LaunchPass, Thrown, take=False)
        if isinstance(event, Thrown):
            return event.ship
        self._next(table.seat, LaunchPass)
        return None

    def throw(self, table: Table, ship_id: str, rng: np.random.Generator) -> Throw:
        """Return the recorded intended throw."""
        return self._next(table.seat, Thrown).intended


def _among(card: Card, cards: tuple[Card, ...], path: str) -> Card:
    if card not in cards:
        raise RecordError(path, 0, f"the recorded contract {card} is not among {[str(c) for c in cards]}")
    return card


def answering_agents(events: Sequence[Stamped], path: str, factory: PolicyFactory) -> PolicyFactory:
    """Return a policy factory that answers `AGENT` seats from the record's typed events and makes the others
    with `factory`."""

    def make(name: str, roller: Roller, params: dict[str, Any]) -> Policy:
        return RecordedAnswers(events, path) if name == AGENT else factory(name, roller, params)

    return make
