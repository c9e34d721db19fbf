"""How much does a player's survey of the map move between independent draws of its voyages?

A survey (somaliland/players/survey.py) is deterministic: its voyages draw their hands' scatter from seeds made
of the map's geometry digest and the leg, so a map always gets the same survey, and every game of every study
plans by that one draw. This check sails the survey of a strategy again with its parameter `survey_draw` = 1, 2,
... (seeds from the digest plus a suffix "|draw1", "|draw2", ...: the same map and rules, other draws; draw 0 is
the one every player sails) and prints, per
leg, the share of convoy ships arriving within the round, the share of lone voyages arriving, and the lone
voyages' groundings per throw, with their mean and standard deviation over the draws.

    python experiments/checks/survey_draws.py --draws 8            # ev's survey, about 10 s a draw here
    python experiments/checks/survey_draws.py --draws 4 --strategy search   # about 6 minutes a draw

The planner values a route by these shares (outlook.py), so where two routes' shares differ by less than
their spread between draws, which route a player prefers is a matter of its survey's draw.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from physics import make_roller  # noqa: E402
from somaliland.engine.setup import DEFAULT_MAP  # noqa: E402
from somaliland.map import load  # noqa: E402
from somaliland.players.strategies import make_policy  # noqa: E402
from somaliland.rules import RulesConfig  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=8)
    parser.add_argument("--strategy", default="ev")
    parser.add_argument("--map", default=str(DEFAULT_MAP))
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    world, config = load(args.map), RulesConfig(players=args.players)
    legs: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    with make_roller() as roller:
        for k in range(args.draws):
            sailed = make_policy(args.strategy, roller, survey_draw=k).survey(world, config)
            line = []
            for leg in sailed.legs:
                legs.setdefault((leg.route, leg.direction.value), []).append(
                    (leg.convoy_share, leg.within_limit, leg.aground_rate))
                line.append(f"{leg.route} {leg.direction.value} {leg.convoy_share:.2f}")
            print(f"draw {k}: convoy share arriving: " + ", ".join(line), flush=True)
    print(f"\n{args.strategy}'s survey of {world.name}, {args.draws} draws: mean (standard deviation)")
    print("| leg | convoy ships arriving | lone voyages arriving | lone groundings per throw |")
    print("|---|---|---|---|")
    for (route, direction), rows in legs.items():
        cells = [f"{statistics.fmean(c):.3f} ({statistics.stdev(c) if len(c) > 1 else 0:.3f})"
                 for c in zip(*rows)]
        print(f"| {route} {direction} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
