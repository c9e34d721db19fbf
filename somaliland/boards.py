"""Where the rules layer gets its physics board: the default map's board until a map is given."""

from __future__ import annotations

from physics import Board


def default_board() -> Board:
    """Return the board of the default map, maps/horn-of-africa.toml (the map is loaded once)."""
    from somaliland.map import default_map

    return default_map().board()
