"""What rulings D15-D17 and R19/D13 govern, counted over played games.

Plays 4-player games (skill 0.75; ev for every seat unless told) and counts: seizures, and those of ships
on a half-value route (D15: none); contracts planned on a full-value route and fulfilled; arrivals, and
those of ships put back on the board in the same throw (R19/D13: none); releases from pirate ports, those
ending within two die edges of another die (D17: none, measured between the dice's shadows) or on land,
and the least room any release left. Options after the seeds override the default rules, so the
variants can be counted alike:

    PYTHONPATH=. python experiments/checks/rulings.py 1-6
    PYTHONPATH=. python experiments/checks/rulings.py 1-6 --strategies ev,bold,ev,bold
    PYTHONPATH=. python experiments/checks/rulings.py 1-6 pirate_targets=any_route lost_turns=add_up \\
        release_spot=in_port off_board_arrival=same_throw
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter

import somaliland.engine.loop as loop
from physics import make_roller
from somaliland.engine.events import NAMES, Planned, Thrown
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig
from somaliland.rules.accidents import footprint
from somaliland.rules.events import Arrived, Fulfilled, Replaced, Seized
from somaliland.rules.state import Status

COUNTED = (Thrown, Seized, Arrived, Replaced, Fulfilled)  # counted under their record names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", help="first-last, e.g. 1-6")
    parser.add_argument("options", nargs="*", help="rules options as key=value (choices only)")
    parser.add_argument("--strategies", default="ev")
    args = parser.parse_intermixed_args()
    first, last = (int(n) for n in args.seeds.split("-"))
    rules = RulesConfig(players=4, **dict(option.split("=", 1) for option in args.options))
    world = load(DEFAULT_MAP)
    size = rules.die_size
    counts: Counter[str] = Counter(dict.fromkeys(tuple(NAMES[t] for t in COUNTED) + ("seized_half_route", "arrived_put_back_that_throw",
                                                             "releases", "releases_within_2_edges", "releases_on_land"), 0))
    room: list[float] = []
    lose_turn = loop.lose_turn

    def watched(state, ship_id, *rest):
        after, events = lose_turn(state, ship_id, *rest)
        ship = after.ship(ship_id)
        if state.ship(ship_id).status is Status.HELD and ship.skip == 0:
            others = [footprint(s.pose, size) for s in after.ships if s.pose is not None and s.id != ship_id]
            gap = min((footprint(ship.pose, size).distance(o) for o in others), default=math.inf)
            room.append(gap / size)
            counts["releases"] += 1
            counts["releases_within_2_edges"] += gap < 2 * size
            counts["releases_on_land"] += world.is_land(*ship.pose.position[:2])
        return after, events

    loop.lose_turn = watched  # the game loop looks it up in its module at each lost turn
    with make_roller() as roller:
        for seed in range(first, last + 1):
            seats = seats_from(args.strategies.split(","), 4, ThrowSkill.level(0.75))
            result = loop.play_game(GameSetup(seed=seed, seats=seats, rules=rules, record_paths=False), world, roller)
            route: dict[str, str] = {}
            put_back: set[str] = set()
            for stamped in result.told:
                event = stamped.event
                if isinstance(event, COUNTED):
                    counts[event.kind] += 1
                match event:
                    case Planned(plans=plans):
                        for plan in plans:
                            counts["contracts"] += 1
                            counts["contracts_full_route"] += world.route(plan.route).full_value
                            route.update({ship: plan.route for ship in plan.ships})
                    case Thrown():
                        put_back.clear()
                    case Replaced(ship=ship):
                        put_back.add(ship)
                    case Seized(ship=ship):
                        counts["seized_half_route"] += not world.route(route[ship]).full_value
                    case Arrived(ship=ship):
                        counts["arrived_put_back_that_throw"] += ship in put_back
    print(json.dumps(dict(sorted(counts.items()))))
    if counts["contracts"]:
        print(f"full-value route: {counts['contracts_full_route'] / counts['contracts']:.1%} of contracts; "
              f"fulfilled: {counts['fulfilled'] / counts['contracts']:.1%}")
    if room:
        print(f"least room left by a release: {min(room):.3f} die edges")


if __name__ == "__main__":
    main()
