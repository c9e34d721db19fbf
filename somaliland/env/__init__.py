"""Somaliland as a PettingZoo environment: `env()` (wrapped as PettingZoo recommends) and `raw_env`.

See `aec.py` (the environment, rewards), `actions.py` (the action space and its mask), `observations.py`
and `actors.py` (our strategies as action functions). Needs `pettingzoo` and `gymnasium`.
"""

from __future__ import annotations

from typing import Any

from somaliland.env.actors import StrategyActor, as_action
from somaliland.env.aec import raw_env


def env(**kwargs: Any) -> Any:
    """Return the environment wrapped in PettingZoo's `OrderEnforcingWrapper` (arguments: `raw_env`).

    Not `AssertOutOfBoundsWrapper` or `TerminateIllegalWrapper`: an action may also be a bare choice or
    the game's own answer, and the environment itself refuses an illegal one, naming what was legal.
    """
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["StrategyActor", "as_action", "env", "raw_env"]
