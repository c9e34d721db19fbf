"""Do two sets of games give the same balance answers? Each measure of `somaliland.tune.measures` on a cell of one
study's results against a cell of another's (or the same study's), with both 95% intervals and their difference.

Two estimates agree when their difference lies within the two intervals' half-widths combined in quadrature
(a 95% interval of the difference for independent games; for games sharing their seeds, which play the same
draws with other physics, a conservative one). The check a change of the physics that alters what seeds play must
pass before it becomes the default: its games' measures against today's, cell by cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from somaliland.study.errors import StudyError
from somaliland.tune.evaluate import games_where
from somaliland.tune.measures import Estimate, Games, estimate

# (measure, filters, label): what a change of the physics must not change
MEASURES: tuple[tuple[str, dict[str, str], str], ...] = (
    ("full_route_share", {}, "full-value route share of planned contracts"),
    ("fulfilment", {}, "contracts fulfilled"),
    ("fulfilment", {"route": "full"}, "full-value route contracts fulfilled"),
    ("fulfilment", {"route": "half"}, "half-value route contracts fulfilled"),
    ("seizure_share", {}, "turns with a full-value ship at sea with a seizure"),
    ("seizures_per_turn", {}, "seizures per turn"),
    ("ransom_share", {}, "ransoms as a share of points"),
    ("mean_score", {}, "mean final points per player"),
    ("game_length", {}, "throws per game"),
    ("seat_advantage", {}, "largest turn position's win rate - 1/players"),
    ("route_gap", {"values": "cheap"}, "net points full - half route, cheapest third"),
    ("route_gap", {"values": "dear"}, "net points full - half route, dearest third"),
)


@dataclass(frozen=True, slots=True)
class Agreement:
    """One measure on two sets of games."""

    label: str
    a: Estimate
    b: Estimate
    difference: float
    half_width: float  # of the difference's interval

    @property
    def agrees(self) -> bool | None:
        """Return True if the difference is within its interval, None if either side has no interval."""
        if not (math.isfinite(self.difference) and math.isfinite(self.half_width)):
            return None
        return abs(self.difference) <= self.half_width


def cell_games(folder: str | Path, cell: int) -> Games:
    """Return the result tables of one cell of a study's results folder.

    Raises:
        StudyError: the folder holds no games of that cell.
    """
    games = games_where(folder, lambda frame: frame.cell == cell)
    if len(games.games) == 0:
        raise StudyError(str(folder), f"cell {cell}", "a results folder with games in that cell", "no games")
    return games


def compare(a: Games, b: Games) -> list[Agreement]:
    """Return every measure of `MEASURES` on both sets of games."""
    rows = []
    for measure, filters, label in MEASURES:
        ea, eb = estimate(measure, a, filters), estimate(measure, b, filters)
        half = math.sqrt(((ea.high - ea.low) / 2) ** 2 + ((eb.high - eb.low) / 2) ** 2)
        rows.append(Agreement(label, ea, eb, eb.value - ea.value, half))
    return rows
