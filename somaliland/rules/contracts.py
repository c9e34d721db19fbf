"""Contract cards: the deck (R3), the deal of each round (R4), the draft (R5, D2) and the cap (R6, D3)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from somaliland.map.model import Direction
from somaliland.rules.config import RulesConfig
from somaliland.rules.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class Card:
    """A contract: cargo worth `value` to carry in one direction (R3). Cards sort by value, North first."""

    value: int
    direction: Direction

    def __lt__(self, other: Card) -> bool:
        return (self.value, self.direction.value) < (other.value, other.direction.value)

    def __str__(self) -> str:
        return f"{self.value}{self.direction.value[0].upper()}"


def full_deck(config: RulesConfig) -> tuple[Card, ...]:
    """Return every contract card: each value once to the North and once to the South (R3)."""
    return tuple(Card(v, d) for v in sorted(config.contract_values) for d in (Direction.NORTH, Direction.SOUTH))


def deal(deck: tuple[Card, ...], config: RulesConfig, rng: np.random.Generator) -> tuple[Card, ...]:
    """Return the cards laid out for a round: the deck shuffled with `rng`, its first `deal_size` (R4)."""
    order = rng.permutation(len(deck))
    return tuple(deck[int(i)] for i in order[:config.deal_size])


def cap_ok(held: tuple[Card, ...], card: Card, cap: int) -> bool:
    """Return True if taking `card` keeps the held contracts' total within the cap (R6)."""
    return sum(c.value for c in held) + card.value <= cap


@dataclass(frozen=True, slots=True)
class Draft:
    """A round's draft: the cards still offered, what each seat holds, who has passed, who acts next."""

    offer: tuple[Card, ...]
    held: tuple[tuple[Card, ...], ...]  # by seat
    caps: tuple[int, ...]  # by seat (R6, D3)
    seats: tuple[int, ...]  # play order, starting with the round's first player (R7)
    at: int = 0  # index into seats of the next to act
    passed: frozenset[int] = frozenset()


def open_draft(offer: tuple[Card, ...], caps: tuple[int, ...], first: int) -> Draft:
    """Return a fresh draft of the offered cards, the first player to act first (R5, R7)."""
    n = len(caps)
    return Draft(offer, tuple(() for _ in range(n)), caps, tuple((first + k) % n for k in range(n)))


def legal_picks(draft: Draft, seat: int) -> tuple[Card, ...]:
    """Return the offered cards this seat may take without exceeding its cap (R5, R6)."""
    return tuple(c for c in draft.offer if cap_ok(draft.held[seat], c, draft.caps[seat]))


def drafter(draft: Draft) -> int | None:
    """Return the seat to pick or pass next, or None when the draft is over (R5, D2)."""
    n = len(draft.seats)
    for k in range(n):
        seat = draft.seats[(draft.at + k) % n]
        if seat not in draft.passed and legal_picks(draft, seat):
            return seat
    return None


def pick(draft: Draft, seat: int, card: Card | None, config: RulesConfig) -> Draft:
    """Return the draft after `seat` takes `card`, or passes when card is None (R5, R6, D2).

    Raises:
        IllegalActionError: it is not this seat's turn, or the card is not a legal pick (lists legal ones).
    """
    turn = drafter(draft)
    if seat != turn:
        raise IllegalActionError("draft pick", f"it is seat {turn}'s turn, not seat {seat}'s", turn)
    at = (draft.seats.index(seat) + 1) % len(draft.seats)
    if card is None:
        return replace(draft, at=at, passed=draft.passed | {seat})
    legal = legal_picks(draft, seat)
    if card not in legal:
        raise IllegalActionError("draft pick", f"{card} is not offered or exceeds the cap",
                                 [str(c) for c in legal] + ["pass"])
    held = tuple(h + (card,) if s == seat else h for s, h in enumerate(draft.held))
    offer = tuple(c for c in draft.offer if c != card)
    passed = draft.passed if config.draft_pass_is_final else frozenset()
    return replace(draft, offer=offer, held=held, at=at, passed=passed)
