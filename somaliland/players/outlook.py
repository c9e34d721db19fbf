"""What a contract is worth before the round starts: voyage lengths, the chance to arrive, capture risk.

A heuristic model, stated so it can be argued with. A ship covers about `stride` metres a move, so a
leg of length L needs ceil(L / stride) moves of the min(max_moves, turns_per_round) it has (R15, D10).
Turns it loses (groundings, collisions, leaving the board: `accident_rate` per move; captures) arrive
as a Poisson count; it arrives if the lost turns fit in its spare moves. Pirates seize one ship a turn
(R13), the nearest: on the full-value route that is one of the n ships sailing there, so each is taken
about once every n turns at sea, paying its top face (about its mean face) and losing a turn.

The defaults were measured on the default map with the default hand (5 deg, 10 %): a lone 16 mm ship
took 2-4 throws per leg (about 0.35 m a throw; 8 voyages per leg), losing about 0.3 turns a throw; in
4-player games (ev, ev, bold, cautious; seeds 0-5) 64 % of launched ships arrived on the safe route
and 45 % on the full-value one. One accident rate cannot fit both (the safe lane is narrow, the other
route long): 0.7 lost turns a move predicts 84 % and 32 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from somaliland.rules.config import RulesConfig


@dataclass(frozen=True, slots=True)
class Outlook:
    """The constants of the contract model."""

    stride: float = 0.35  # metres a ship covers in one move, on average
    accident_rate: float = 0.70  # turns lost per move to groundings, collisions and leaving the board
    rival_full_route_ships: float = 2.0  # ships each other player is expected to send the full-value way
    ship_cost: float = 2.0  # points a ship at sea costs: it crowds the lanes and invites collisions (R18)


def moves_available(config: RulesConfig) -> int:
    """Return the moves a ship launched in the first turn has this round (R15, D10)."""
    return min(config.max_moves, config.turns_per_round)


def poisson_at_most(k: int, mean: float) -> float:
    """Return P(N <= k) for N ~ Poisson(mean)."""
    if k < 0:
        return 0.0
    term = total = math.exp(-mean)
    for i in range(1, k + 1):
        term *= mean / i
        total += term
    return min(1.0, total)


@dataclass(frozen=True, slots=True)
class Voyage:
    """One ship's prospects on a leg: its chance to arrive and the captures it should expect."""

    arrive: float
    captures: float


def voyage(length: float, moves: int, full_value: bool, rivals: float, convoy: int, outlook: Outlook,
           safe_targeted: bool = True) -> Voyage:
    """Return a ship's prospects on a leg of `length` with `moves`, in a convoy of `convoy` ships.

    On the full-value route the pirates' one seizure a turn falls among the convoy and the `rivals`
    expected there (R13); on the safe route only when no rival sails the full-value route, among the
    convoy (R13 read literally, `pirate_targets = "any_route"`), and never when `safe_targeted` is False
    (ruling D15, the default `pirate_targets = "full_route"`).
    """
    needed = max(1, math.ceil(length / outlook.stride))
    if full_value:
        captures = needed / max(1.0, rivals + convoy)
    else:
        captures = needed / max(1.0, convoy) if rivals <= 0 and safe_targeted else 0.0
    lost = outlook.accident_rate * needed + captures
    return Voyage(poisson_at_most(moves - needed, lost), captures)


@cache
def fulfil_chance(displacements: tuple[int, ...], value: int, arrive: float) -> float:
    """Return the chance that ships arriving independently (each with `arrive`) carry at least `value` (R9)."""
    n = len(displacements)
    total = 0.0
    for mask in range(1 << n):
        if sum(d for i, d in enumerate(displacements) if mask >> i & 1) >= value:
            k = bin(mask).count("1")
            total += arrive ** k * (1 - arrive) ** (n - k)
    return total
