"""Do the pirates' nearest-ship ties (R13, D8) ever fall to the seat order?

`rules.pirates.nearest` breaks exact ties by the order ships are listed (seat order), which would be a seat
bias if ties happened. This plays 4-player games (ev, skill 0.75, seeds 1-10) and, at every seizure with two
or more targetable ships, records the gap between the nearest ship's distance to a port and the next one's.
Measured 2026-11-24: 218 such seizures, no exact tie, 6 gaps under 1 mm, the smallest 0.28 mm.

    PYTHONPATH=. python experiments/checks/pirate_ties.py
"""

from __future__ import annotations

import math

import somaliland.rules.pirates as pirates
from physics import make_roller
from somaliland.engine.loop import play_game
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig


def main(seeds=range(1, 11)) -> None:
    gaps: list[float] = []
    nearest = pirates.nearest

    def watched(state, world, config):
        distances = sorted(min(math.dist(s.pose.position[:2], p.point) for p in world.pirate_ports)
                           for s in state.ships if pirates.targetable(s, world, config))
        if len(distances) >= 2:
            gaps.append(distances[1] - distances[0])
        return nearest(state, world, config)

    pirates.nearest = watched  # seize() looks it up in its module at each call
    world = load(DEFAULT_MAP)
    for seed in seeds:
        setup = GameSetup(seed=seed, seats=seats_from(["ev"], 4, ThrowSkill.level(0.75)),
                          rules=RulesConfig(players=4), map_path=DEFAULT_MAP, record_paths=False)
        with make_roller() as roller:
            play_game(setup, world, roller)
    print(f"{len(gaps)} seizures with 2+ targetable ships in {len(seeds)} games: exact ties "
          f"{sum(g == 0 for g in gaps)}, gaps under 1 mm {sum(g < 1e-3 for g in gaps)}, "
          f"smallest gap {1000 * min(gaps):.2f} mm")


if __name__ == "__main__":
    main()
