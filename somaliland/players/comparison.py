"""Two maps' surveys compared leg by leg: each figure with its 95% interval, whether the maps' intervals
separate, and how many voyages would separate them (`somaliland map measure A.toml B.toml`).

Both maps are sailed with the same draws of the hands' scatter (common random numbers, `survey(luck=...)`),
so a leg the edit does not touch is sailed by the very same voyages in both, and a difference in its
pirate exposure is then the map's alone, owing nothing to luck. Elsewhere a difference is told only when
the two intervals lie apart; while they overlap, more voyages narrow them. How many would set them apart,
were the figures to stay as they are: for a share (a Wilson interval) the fewest voyages at which the two
shares' Wilson intervals lie apart, found by search (for the convoys' share, convoy ships: the survey
sails a fixed number of convoys a route, so more voyages do not narrow it, and none are added for it);
for the seizures (a bootstrap interval) the half-widths shrink as one over the square root of the
voyages, so intervals whose facing half-widths add up to w, around figures a difference d apart,
separate at about voyages x (w / d)^2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from physics.lab import wilson_interval
from somaliland.players.exposure import Exposure
from somaliland.players.survey import LegSurvey

MEASURES = ("alone", "aground", "off board", "convoy", "seizures")  # compared on every leg, in this order
VOYAGES, CONVOY_SHIPS = "voyages", "convoy ships"  # what more of would tell a difference
SAME, SAME_VOYAGES, APART, OVERLAP = "same", "same voyages", "apart", "overlap"


@dataclass(frozen=True, slots=True)
class Figure:
    """A leg's measured figure and its 95% interval; for a share (Wilson), the trials it counts for each of what
    it is sailed by (`unit`: lone voyages, or the convoys' ships, which more voyages do not add)."""

    value: float
    low: float
    high: float
    trials_per_unit: float | None = None  # None: a bootstrap interval
    unit: str = VOYAGES


@dataclass(frozen=True, slots=True)
class Difference:
    """One figure of one leg in a map against the first map's: the verdict, and for intervals that overlap how
    many of the figure's `unit` (lone voyages, or convoy ships) would set them apart."""

    measure: str
    base: Figure
    other: Figure
    verdict: str  # SAME (equal figures), SAME_VOYAGES (the map's alone), APART or OVERLAP
    needed: int | None = None
    unit: str = VOYAGES


def figures(leg: LegSurvey, exposure: Exposure) -> dict[str, Figure]:
    """Return a leg's compared figures (`MEASURES`): the share of lone voyages arriving within the round (Wilson,
    over voyages), groundings and throws off the board a lone throw (Wilson, over throws, counted as if
    independent), the share of the convoys' ships arriving within the round (Wilson, over ships), and the
    seizures a voyage expects in a crowd (bootstrap, `exposure.py`)."""
    throws = leg.throws / leg.voyages
    return {"alone": Figure(leg.within_limit, *wilson_interval(sum(leg.arrivals), leg.voyages), 1.0),
            "aground": Figure(leg.aground_rate, *wilson_interval(leg.aground, leg.throws), throws),
            "off board": Figure(leg.off_board_rate, *wilson_interval(leg.off_board, leg.throws), throws),
            "convoy": Figure(leg.convoy_share, *wilson_interval(leg.convoy_arrived, leg.convoy_ships), 1.0,
                             CONVOY_SHIPS),
            "seizures": Figure(exposure.seizures, *exposure.seizures_ci95)}


def same_voyages(a: LegSurvey, b: LegSurvey) -> bool:
    """Return True if two surveys sailed a leg by the very same lone voyages (turn by turn, throw by throw)."""
    return (a.voyages == b.voyages and a.arrivals == b.arrivals and a.throws == b.throws and a.aground == b.aground
            and a.off_board == b.off_board and a.made_good == b.made_good and a.landed == b.landed)


def compare(base: LegSurvey, base_exposure: Exposure, leg: LegSurvey, leg_exposure: Exposure,
            same: bool) -> tuple[Difference, ...]:
    """Return each figure of a leg against the first map's (`MEASURES`); `same`: both maps sailed the leg's route
    by the same voyages (`same_voyages`, both legs: a voyage's crowd is drawn from both), so that any difference
    is the map's alone."""
    ours, theirs = figures(base, base_exposure), figures(leg, leg_exposure)
    out = []
    for measure in MEASURES:
        a, b = ours[measure], theirs[measure]
        if math.isclose(a.value, b.value, abs_tol=1e-9):
            out.append(Difference(measure, a, b, SAME))
        elif same and a.unit == VOYAGES:
            out.append(Difference(measure, a, b, SAME_VOYAGES))
        elif a.high < b.low or b.high < a.low:
            out.append(Difference(measure, a, b, APART))
        else:
            count = leg.voyages if a.unit == VOYAGES else leg.convoy_ships
            out.append(Difference(measure, a, b, OVERLAP, needed(count, a, b), a.unit))
    return tuple(out)


def needed(count: int, a: Figure, b: Figure) -> int:
    """Return about how many of the figures' unit (voyages or convoy ships, `count` now) would set two different
    figures' intervals apart, were the figures to stay as they are (the module docstring); more than now."""
    low, high = (a, b) if a.value < b.value else (b, a)
    if low.trials_per_unit is None or high.trials_per_unit is None:
        facing = (low.high - low.value) + (high.value - high.low)
        return max(count + 1, math.ceil(count * (facing / (high.value - low.value)) ** 2))

    def apart(n: int) -> bool:
        return (wilson_interval(low.value * n * low.trials_per_unit, n * low.trials_per_unit)[1]
                < wilson_interval(high.value * n * high.trials_per_unit, n * high.trials_per_unit)[0])

    told = count + 1
    while not apart(told):
        told *= 2
    untold = told // 2 if told > count + 1 else count
    while told - untold > 1:  # apart(told), not apart(untold): intervals only narrow as voyages are added
        middle = (told + untold) // 2
        told, untold = (middle, untold) if apart(middle) else (told, middle)
    return told


def next_voyages(differences: list[Difference], voyages: int, cap: int) -> int | None:
    """Return how many voyages to sail next so that overlapping intervals may separate: the most any of them needs,
    at least twice as many as now, at most `cap`; None when none that more voyages narrow overlaps (the convoys'
    are not: the survey sails a fixed number of convoys a route) or the cap has been sailed."""
    wanted = [d.needed for d in differences if d.needed is not None and d.unit == VOYAGES]
    if not wanted or voyages >= cap:
        return None
    return min(cap, max(2 * voyages, max(wanted)))
