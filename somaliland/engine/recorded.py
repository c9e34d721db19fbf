"""Answers read back from a game record: how `verify` replays a seat whose decisions came from outside.

A seat played through the PettingZoo environment (`somaliland.env`) by an outside agent is written into
the record's header with the strategy `AGENT`. No policy can re-make that agent's choices, but the record
holds every one of them (draft picks, plans, launches and passes, intended throws), so `verify` answers
that seat's requests from its own lines, in order, and re-simulates everything else.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from physics import Roller, Throw
from somaliland.engine.encode import throw_from_json
from somaliland.engine.loop import PolicyFactory
from somaliland.engine.record import RecordError
from somaliland.players.policy import Policy, Table
from somaliland.rules.contracts import Card, Draft
from somaliland.rules.planning import Plan

AGENT = "agent"  # the strategy a record names for a seat whose decisions an outside agent made
DECISIONS = ("draft_pick", "plan", "launch_pass", "throw")  # the record lines that carry a seat's decisions


class RecordedAnswers:
    """A policy that answers each seat's requests from that seat's decision lines of a record, in order."""

    name = AGENT

    def __init__(self, events: list[dict[str, Any]], path: str) -> None:
        self.path, self.last = path, len(events)
        self.lines: dict[int, deque[tuple[int, dict[str, Any]]]] = {}
        for number, event in enumerate(events, start=1):
            if event.get("kind") in DECISIONS:
                self.lines.setdefault(event.get("seat"), deque()).append((number, event))

    def _next(self, seat: int, kinds: tuple[str, ...], take: bool = True) -> dict[str, Any]:
        queue = self.lines.get(seat)
        if not queue:
            raise RecordError(self.path, self.last, f"seat {seat} has no recorded decision left; expected {' or '.join(kinds)}")
        number, event = queue[0]
        if event["kind"] not in kinds:
            raise RecordError(self.path, number, f"seat {seat}'s next decision is {event['kind']}; "
                                                 f"the game asks for {' or '.join(kinds)}")
        if take:
            queue.popleft()
        return event

    def draft(self, table: Table, draft: Draft, rng: np.random.Generator) -> Card | None:
        """Return the recorded pick (a card of the offer) or pass (R5)."""
        card = self._next(table.seat, ("draft_pick",))["card"]
        return None if card is None else _named(card, draft.offer, self.path)

    def plan(self, table: Table, rng: np.random.Generator) -> tuple[Plan, ...]:
        """Return the recorded plans (R8, R10)."""
        held = tuple(h.card for h in table.state.held[table.seat])
        return tuple(Plan(_named(p["card"], held, self.path), p["route"], tuple(p["ships"]), tuple(p["ship_routes"]))
                     for p in self._next(table.seat, ("plan",))["plans"])

    def launch(self, table: Table, rng: np.random.Generator) -> str | None:
        """Return the ship the record throws next from port, or None for a recorded pass (R12, D7)."""
        event = self._next(table.seat, ("launch_pass", "throw"), take=False)
        if event["kind"] == "launch_pass":
            self._next(table.seat, ("launch_pass",))
            return None
        return event["ship"]

    def throw(self, table: Table, ship_id: str, rng: np.random.Generator) -> Throw:
        """Return the recorded intended throw."""
        return throw_from_json(self._next(table.seat, ("throw",))["intended"])


def _named(name: str, cards: tuple[Card, ...], path: str) -> Card:
    for card in cards:
        if str(card) == name:
            return card
    raise RecordError(path, 0, f"the recorded contract {name} is not among {[str(c) for c in cards]}")


def answering_agents(events: list[dict[str, Any]], path: str, factory: PolicyFactory) -> PolicyFactory:
    """Return a policy factory that answers `AGENT` seats from the record and makes the others with `factory`."""

    def make(name: str, roller: Roller, params: dict[str, Any]) -> Policy:
        return RecordedAnswers(events, path) if name == AGENT else factory(name, roller, params)

    return make
