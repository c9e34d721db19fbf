"""Racing: which candidates their intervals already show cannot reach the front, and the front itself.

Each target turns its measure's 95% interval into an interval of loss (how far from the goal). A
candidate is stopped when another candidate's loss interval lies at or below its own in every target
and strictly below in one (it is surely dominated); with one objective (TPE's weighted sum of losses,
whose interval is the weighted sum of the targets' bounds), when another's whole interval lies below
its own. Optuna's pruners judge one objective from intermediate values and do not support
multi-objective studies, so racing is done here, on the intervals, for both samplers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from somaliland.tune.measures import Estimate
from somaliland.tune.spec import Target


@dataclass(frozen=True, slots=True)
class Scored:
    """A candidate's estimates of every target after some games."""

    number: int
    games: int
    estimates: tuple[Estimate, ...]

    def _steered(self, targets: tuple[Target, ...]) -> list[tuple[Target, Estimate]]:
        return [(t, e) for t, e in zip(targets, self.estimates) if t.steers]

    def defined(self, targets: tuple[Target, ...]) -> bool:
        """Return whether the games estimate every steering target (none is undefined, e.g. a share of
        contracts on a route no contract sailed): only then can the candidate be an answer."""
        return all(math.isfinite(e.value) for _, e in self._steered(targets))

    def losses(self, targets: tuple[Target, ...]) -> tuple[float, ...]:
        """Return each steering target's loss at the estimate (a watched target, weight 0, has none)."""
        return tuple(t.goal.loss(e.value) for t, e in self._steered(targets))

    def bounds(self, targets: tuple[Target, ...]) -> tuple[tuple[float, float], ...]:
        """Return each steering target's (least, most) loss over the estimate's 95% interval."""
        return tuple(t.goal.loss_bounds(e.low, e.high) for t, e in self._steered(targets))

    def weighted(self, targets: tuple[Target, ...]) -> float:
        """Return the weighted sum of losses at the estimates (what TPE minimises, how the front is ordered)."""
        return sum(t.weight * loss for t, loss in zip(steering(targets), self.losses(targets)))

    def weighted_worst(self, targets: tuple[Target, ...]) -> float:
        """Return the weighted sum of each target's most loss over its 95% interval (how the chosen one
        is picked: the candidate whose worse end is best, not the luckiest estimate)."""
        return sum(t.weight * high for t, (_, high) in zip(steering(targets), self.bounds(targets)))


def steering(targets: tuple[Target, ...]) -> tuple[Target, ...]:
    """Return the targets that steer the search (weight above 0); the others are only watched and reported."""
    return tuple(t for t in targets if t.steers)


def surely_beaten(x: Scored, others: list[Scored], targets: tuple[Target, ...], single: bool) -> bool:
    """Return True if some other candidate's loss intervals show `x` cannot reach the front (or be the best)."""
    mine = x.bounds(targets)
    for y in others:
        if y.number == x.number:
            continue
        theirs = y.bounds(targets)
        if single:
            low = sum(t.weight * lo for t, (lo, _) in zip(steering(targets), mine))
            high = sum(t.weight * hi for t, (_, hi) in zip(steering(targets), theirs))
            if high < low:
                return True
        elif all(hi <= lo for (_, hi), (lo, _) in zip(theirs, mine)) and \
                any(hi < lo for (_, hi), (lo, _) in zip(theirs, mine)):
            return True
    return False


def dominates(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Return True if losses `a` are no worse than `b` everywhere and better somewhere."""
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def front(scored: list[Scored], targets: tuple[Target, ...]) -> list[Scored]:
    """Return the candidates no other dominates by their estimated losses, best weighted loss first."""
    losses = {s.number: s.losses(targets) for s in scored}
    kept = [s for s in scored if not any(dominates(losses[o.number], losses[s.number]) for o in scored)]
    return sorted(kept, key=lambda s: (s.weighted(targets), s.number))


def best(scored: list[Scored], targets: tuple[Target, ...]) -> Scored | None:
    """Return the candidate with the least weighted loss (the lowest number among equals), or None."""
    finite = [s for s in scored if math.isfinite(s.weighted(targets))]
    return min(finite, key=lambda s: (s.weighted(targets), s.number)) if finite else None


def safest(scored: list[Scored], targets: tuple[Target, ...]) -> Scored | None:
    """Return the candidate whose weighted loss at the worse end of its intervals is least (then the least
    weighted loss at the estimates, then the lowest number), or None.

    The point estimate of the best of many candidates is biased low (the winner's curse: a board tuning once
    chose a candidate whose 80 search games flattered it, and it failed on fresh seeds); its worse
    end is what the games can vouch for. Candidates with an unbounded worse end count after all others.
    """
    finite = [s for s in scored if math.isfinite(s.weighted(targets))]
    if not finite:
        return None
    def key(s: Scored):
        worst = s.weighted_worst(targets)
        return (not math.isfinite(worst), worst if math.isfinite(worst) else 0.0, s.weighted(targets), s.number)
    return min(finite, key=key)
