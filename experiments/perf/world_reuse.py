"""Would reusing one Bullet world across a game's rolls be faster, and would it change the games?

Plays the same 4-player games (ev, skill 0.75, seeds 1-6) four ways and prints CPU seconds per game and a
digest of each game's events:

- fresh-dbvt:   what the simulator does (a fresh world for every roll; Bullet's default dynamic-tree broadphase);
- reuse-dbvt:   one world per game, each roll's dice removed (last in, first out) and the statics kept;
- fresh-simple / reuse-simple: the same with `RESET_USE_SIMPLE_BROADPHASE`.

A reuse variant is history-free only if its digests equal its fresh variant's (each variant repeats its own
digests run after run: a reused world is deterministic per game, not per roll). Measured 2026-11-24 (README,
Performance): reuse-dbvt saves 13% of a game's CPU but changes all 6 games; with the simple broadphase reuse
still changes 4 of 6, and the simple broadphase is slower to begin with. In the dynamic tree the pair clean-up
cursor (`btDbvtBroadphase::m_cid`) and stage counters persist across rolls; only `resetPool` on an empty
broadphase resets them, and pybullet does not expose it (only `resetSimulation` starts anew). It is not the
only history: the simple broadphase has no such cursor and reused still changes games.

    PYTHONPATH=. python experiments/perf/world_reuse.py fresh-dbvt   # or reuse-dbvt, fresh-simple, reuse-simple

It patches private methods of `physics.bullet._Roll` for the experiment; nothing else uses it. Since session 6
the reuse it measures is a setting, `SimSettings(world="per_game")` (physics/README.md), which also keeps the
AI's calibration rolls out of the game's world; `experiments/world-per-game.toml` measures what it changes.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

import pybullet

import physics.bullet as bullet
from physics import make_roller
from somaliland.engine.loop import play_game
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig

MODES = ("fresh-dbvt", "reuse-dbvt", "fresh-simple", "reuse-simple")


def patch(mode: str) -> None:
    """Make `_Roll` build (or reuse) its world as `mode` says."""
    flags = pybullet.RESET_USE_SIMPLE_BROADPHASE if mode.endswith("simple") else 0
    build, add = bullet._Roll._build_world, bullet._Roll._add
    worlds: dict[int, dict] = {}

    def fresh(self) -> None:
        reset = self.p.resetSimulation
        self.p.resetSimulation = lambda: reset(flags)
        try:
            build(self)
        finally:
            del self.p.resetSimulation

    def reuse(self) -> None:
        world = worlds.get(id(self.p))
        if world is None:
            fresh(self)
            worlds[id(self.p)] = world = {"shapes": {}, "bodies": []}
        else:
            alive = {self.p.getBodyUniqueId(i) for i in range(self.p.getNumBodies())}
            for uid in reversed(world["bodies"]):
                if uid in alive:  # dice that fell off the table were removed during their roll
                    self.p.removeBody(uid)
            world["bodies"].clear()
        self.shapes, self._world = world["shapes"], world

    def added(self, i, position, orientation, *, asleep):
        uid = add(self, i, position, orientation, asleep=asleep)
        if hasattr(self, "_world"):
            self._world["bodies"].append(uid)
        return uid

    bullet._Roll._build_world = reuse if mode.startswith("reuse") else fresh
    bullet._Roll._add = added


def main(mode: str, seeds=range(1, 7)) -> None:
    if mode not in MODES:
        raise SystemExit(f"world_reuse.py: mode must be one of {', '.join(MODES)}, not {mode!r}")
    patch(mode)
    world = load(DEFAULT_MAP)
    digests, start = [], time.process_time()
    for seed in seeds:
        setup = GameSetup(seed=seed, seats=seats_from(["ev"], 4, ThrowSkill.level(0.75)),
                          rules=RulesConfig(players=4), map_path=DEFAULT_MAP, record_paths=False)
        with make_roller() as roller:
            result = play_game(setup, world, roller)
        digests.append(hashlib.sha256(json.dumps(result.events, sort_keys=True, default=str).encode()).hexdigest()[:10])
    print(f"{mode:13s} {(time.process_time() - start) / len(digests):.3f} CPU s/game  {' '.join(digests)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fresh-dbvt")
