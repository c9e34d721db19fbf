"""Helpers for the study tests (no tests here): tiny study files and policy factories that fail on purpose.

The factories are imported by name in worker processes (`policy_factory = "test_study_support:..."`),
which find this folder on the path the runner hands its workers.
"""

from __future__ import annotations

import os
from pathlib import Path

import somaliland
from scripted import Scripted

# from the package, not this file: a Dask scheduler in this process may re-import this module from a copy
ROOT = Path(somaliland.__file__).resolve().parents[1]
TINY_MAP = ROOT / "maps" / "tiny.toml"


def tiny_study(folder: Path, games: int = 3, extra: str = "", sweep: str = '"seats.skill" = [0.5, 1.0]',
               factory: str = "scripted:scripted_factory", strategy: str = '["africa", "somalia"]',
               name: str = "tiny") -> Path:
    """Write a study on the tiny board (2 players, 1 round, scripted players) and return its path."""
    path = folder / f"{name}.toml"
    path.write_text(f'''name = "{name}"
map = "{TINY_MAP}"
master_seed = 20261122
games_per_cell = {games}
policy_factory = "{factory}"

[rules]
players = 2
rounds = 1

[seats]
strategy = {strategy}
skill = 0.75
{extra}
[sweep]
{sweep}
''')
    return path


class Boom(Scripted):
    """Raises in its first plan: a game that raises."""

    def plan(self, table, rng):
        raise RuntimeError("boom: a strategy bug")


def failing_factory(name, roller, params):
    """Return scripted players, except 'boom' (raises) and 'die' (kills its process once per marker file)."""
    if name == "boom":
        return Boom("somalia")
    if name == "die":
        marker = Path(params["marker"])
        if not marker.exists() or params.get("always"):
            marker.write_text("died")
            os._exit(17)  # the worker process dies, as on a segfault or the OOM killer
        return Scripted("somalia")
    return Scripted(name)
