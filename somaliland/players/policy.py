"""The one interface every AI player implements, and the view of the game each decision receives.

A policy decides; it never changes the state. Its chance comes from the generator it is handed (the
game's one generator), and anything it simulates (candidate throws) goes through the roller it was
built with, within the budget it states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from physics import Throw
from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card, Draft
from somaliland.rules.planning import Plan
from somaliland.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Table:
    """What a decision sees: the whole (public) game, the board, the rules, and whose decision it is."""

    state: GameState
    world: Map
    config: RulesConfig
    seat: int


class Policy(Protocol):
    """An AI player: draft, plan routes and ships, launch or pass, and aim throws."""

    name: str

    def draft(self, table: Table, draft: Draft, rng: np.random.Generator) -> Card | None:
        """Return the contract to take from the draft's offer, or None to pass (R5, R6, D2)."""
        ...

    def plan(self, table: Table, rng: np.random.Generator) -> tuple[Plan, ...]:
        """Return a route and ships for every contract the seat holds (R8, R10, D5)."""
        ...

    def launch(self, table: Table, rng: np.random.Generator) -> str | None:
        """Return the id of the ship to launch now, or None to pass (R12, D7)."""
        ...

    def throw(self, table: Table, ship_id: str, rng: np.random.Generator) -> Throw:
        """Return the throw the player intends for this ship (its die is named by the ship id)."""
        ...
