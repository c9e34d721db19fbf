"""Is one Bullet world per game faster than a fresh world per roll, and does it change the games?

Plays the same 4-player games (ev, skill 0.75, seeds 1-6) with either world policy (`SimSettings.world`,
physics/README.md) and prints CPU seconds per game and a digest of each game's events:

- per_roll: a fresh world for every roll (the default until one world per game was validated and made it);
- per_game: one world per game, each roll's dice removed (last in, first out) and the statics kept (the default).

A policy is history-free only if its digests equal per_roll's (each policy repeats its own digests run after
run: a kept world is deterministic per game, not per roll). Measured 2026-11-24 (docs/performance.md): one world
per game saves 13% of a game's CPU but changes all 6 games. In Bullet's dynamic-tree broadphase the pair clean-up
cursor (`btDbvtBroadphase::m_cid`) and stage counters persist across rolls; only `resetPool` on an empty
broadphase resets them, and pybullet does not expose it (only `resetSimulation` starts anew). It is not the only
history: that day's run also tried Bullet's simple broadphase (`RESET_USE_SIMPLE_BROADPHASE`, by patching the
roller's private methods), which has no such cursor, and a kept world still changed 4 of 6 games; the simple
broadphase was slower to begin with. This script now uses the physics package's public settings only.

    PYTHONPATH=. python experiments/perf/world_reuse.py per_roll   # or per_game

`experiments/world-per-game.toml` measures what one world per game changes in a study's answers.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

from physics import SimSettings
from somaliland.engine.loop import play_game
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig

MODES = ("per_roll", "per_game")


def main(mode: str, seeds=range(1, 7)) -> None:
    if mode not in MODES:
        raise SystemExit(f"world_reuse.py: mode must be one of {', '.join(MODES)}, not {mode!r}")
    world = load(DEFAULT_MAP)
    digests, start = [], time.process_time()
    for seed in seeds:
        setup = GameSetup(seed=seed, seats=seats_from(["ev"], 4, ThrowSkill.level(0.75)),
                          rules=RulesConfig(players=4), map_path=DEFAULT_MAP, record_paths=False,
                          physics=SimSettings(world=mode))
        result = play_game(setup, world)  # a roller of the setup's physics, fresh for each game
        digests.append(hashlib.sha256(json.dumps(result.events, sort_keys=True, default=str).encode()).hexdigest()[:10])
    print(f"{mode:13s} {(time.process_time() - start) / len(digests):.3f} CPU s/game  {' '.join(digests)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "per_roll")
