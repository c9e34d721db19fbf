"""Which seed each game of a study plays: one documented scheme, so any game can be replayed.

Game `g` of cell `c` takes the child sequence `SeedSequence(master).spawn(c + 1)[c].spawn(g + 1)[g]`,
which NumPy defines as `SeedSequence(master, spawn_key=(c, g))`. Its integer game seed, the one
`GameSetup.seed` holds and the results store, is the first 64-bit word of that sequence's state with
its top bit dropped (so it fits a signed 64-bit Parquet column):
`int(SeedSequence(master, spawn_key=(c, g)).generate_state(1, numpy.uint64)[0] >> 1)`.
A game's seed depends only on (master, cell, game): raising `games_per_cell` adds games and leaves
the earlier ones as they were.
"""

from __future__ import annotations

import numpy as np

from somaliland.seeding import make_rng


def game_sequence(master: int, cell: int, game: int) -> np.random.SeedSequence:
    """Return the spawned seed sequence of one game of a study."""
    make_rng(master)  # validates the master seed
    return np.random.SeedSequence(int(master), spawn_key=(int(cell), int(game)))


def game_seed(master: int, cell: int, game: int) -> int:
    """Return the integer seed game `game` of cell `cell` is played with (see the module docstring)."""
    return int(game_sequence(master, cell, game).generate_state(1, np.uint64)[0] >> np.uint64(1))
