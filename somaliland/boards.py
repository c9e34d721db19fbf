"""Where the rules layer gets its physics board: the default map's board until a map is given."""

from __future__ import annotations

from physics import Board


def default_board() -> Board:
    """Return the board of the default map (a plain 75 x 90 cm board until maps load)."""
    return Board()
