"""How well does the search choose a throw, decision by decision? (issue 21; players/search-pilots.md, "The launches")

`log`: play 4-player games (one `search` seat against three `ev`, skill 0.75, the default map and rules) and, at
the search's launches (a ship leaving its port, R12) and at every EVERY-th other throw decision, roll each of the
decision's candidates T more times through the physics (the hand model's scatter, the same T draws for every
candidate: common random numbers), valuing every roll as the search does (`Search.outcome_value`). The games play
as they would: the extra rolls come after the decision, on the search's private practice roller.

`rules`: replay selection rules offline on those rolls. A rule sees the first half of each candidate's rolls (its
"samples", in the order drawn) and picks a candidate; the pick is judged on the other half (its "truth"), so a
rule's luck in its samples does not flatter it. Rules: the search's own sequential halving (`halving`) at 64, 128
and 256 rolls, with its analytic prior or without, with a further grounding penalty, or ranking by a lower
confidence bound; and the best candidate by its first-half mean (all the rolls a rule could see).

    python experiments/search/launch_decisions.py log --seeds 2,3,4,6 --rolls 64 --out launches-a.pkl
    python experiments/search/launch_decisions.py rules launches-a.pkl

Each extra roll costs what a search roll costs (about 9 ms here): 16 candidates x 64 rolls is about 10 s a
decision.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from physics import SimSettings, make_roller  # noqa: E402
from somaliland.engine.loop import play_game  # noqa: E402
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, seats_from  # noqa: E402
from somaliland.map import load  # noqa: E402
from somaliland.players.aim import FINE, worth  # noqa: E402
from somaliland.players.hand import ThrowSkill, execute  # noqa: E402
from somaliland.players.search import Search, halving, practice_world  # noqa: E402
from somaliland.players.strategies import make_policy  # noqa: E402
from somaliland.rules import RulesConfig  # noqa: E402
from somaliland.rules.game import throw_scene  # noqa: E402
from somaliland.rules.roll import apply_roll  # noqa: E402
from somaliland.rules.state import Status  # noqa: E402
from somaliland.seeding import make_rng  # noqa: E402


class LoggingSearch(Search):
    """The search, unchanged in its choices, that rolls each candidate of chosen decisions `rolls` more times."""

    def __init__(self, base: Search, rolls: int, every: int, log: list[dict]) -> None:
        self.__dict__.update(base.__dict__)
        self.extra, self.every, self.log, self.seen = rolls, every, log, 0

    def choose(self, table, ship_id, s, model, ranked, rng, budget=None):
        chosen = super().choose(table, ship_id, s, model, ranked, rng, budget)
        if budget is None:  # the survey's throws (`Search.throw` always gives its budget)
            return chosen
        self.seen += 1
        launch = table.state.ship(ship_id).status is Status.IN_PORT
        if launch or self.seen % self.every == 0:
            # the decision's candidates again, from a fresh generator of the decision's seed
            made = self.candidates(table, ship_id, ranked, model, make_rng(rng.bit_generator.seed_seq))
            self.log.append(self.measure(table, ship_id, s, model, made, chosen, launch))
            d = self.log[-1]
            means = d["V"].mean(1)
            print(f"decision {len(self.log)}: {'launch' if launch else 'at sea'} {ship_id}, chosen {d['chosen']} "
                  f"(value {means[d['chosen']]:.3f}, aground {d['A'][d['chosen']].mean():.2f}); best {means.max():.3f}",
                  flush=True)
        return chosen

    def measure(self, table, ship_id, s, model, made, chosen, launch) -> dict:
        hand = ThrowSkill(math.degrees(self.spread.heading_sd), self.spread.speed_sd)
        scene = throw_scene(table.state, ship_id, table.world, table.config)
        roller = practice_world(self.roller, scene)
        seeds = np.random.SeedSequence([2121, len(self.log), table.state.round, table.state.turn]).spawn(self.extra)
        values = np.zeros((len(made), self.extra))
        aground = np.zeros((len(made), self.extra), dtype=bool)
        for i, candidate in enumerate(made):
            intended = candidate.throw(model, ship_id, s.origin)
            for j in range(self.extra):
                roll = roller.roll(scene, execute(intended, hand, make_rng(seeds[j])))
                after, _ = apply_roll(table.state, ship_id, roll, table.world, table.config)
                values[i, j] = self.outcome_value(table, ship_id, s, roll)
                aground[i, j] = after.ship(ship_id).status is Status.AGROUND
        return {"launch": launch, "ship": ship_id, "round": table.state.round, "turn": table.state.turn,
                "carries": [c.distance for c in made], "prior": worth(s, made, model, self.spread, self.weights, FINE),
                "V": values, "A": aground, "chosen": made.index(chosen)}


def log_decisions(args: argparse.Namespace) -> None:
    world, rules = load(DEFAULT_MAP), RulesConfig(players=4)
    seats = seats_from(["search", "ev", "ev", "ev"], 4, ThrowSkill.level(0.75))
    log: list[dict] = []

    def factory(name, roller, params):
        policy = make_policy(name, roller, **params)
        return LoggingSearch(policy, args.rolls, args.every, log) if isinstance(policy, Search) else policy

    settings = SimSettings()
    with make_roller(settings) as roller:
        for seed in args.seeds:
            t0 = time.process_time()
            play_game(GameSetup(seed=seed, seats=seats, rules=rules, physics=settings), world, roller, factory)
            Path(args.out).write_bytes(pickle.dumps(log))
            print(f"game {seed}: {time.process_time() - t0:.0f} CPU s, {len(log)} decisions logged", flush=True)


def lcb_halving(prior: np.ndarray, sampled, budget: int, weight: float, k: float) -> int:
    """`halving`, ranking by mean - k standard errors (the prior counting as `weight` samples)."""
    n = len(prior)
    total, squares = weight * prior.astype(float), weight * prior.astype(float) ** 2
    rolled, alive, used = np.zeros(n, dtype=int), list(range(n)), 0
    stages = max(1, math.ceil(math.log2(n)))

    def bound(i: int) -> float:
        count = weight + rolled[i]
        mean = total[i] / count
        return mean - k * math.sqrt(max(squares[i] / count - mean * mean, 0.0) / count)

    for stage in range(stages):
        each = max(1, (budget - used) // (len(alive) * (stages - stage)))
        for i in alive:
            for _ in range(min(each, budget - used)):
                v = sampled(i, int(rolled[i]))
                total[i] += v
                squares[i] += v * v
                rolled[i] += 1
                used += 1
        alive = sorted(alive, key=lambda i: (-bound(i), i))[:max(1, math.ceil(len(alive) / 2))]
    return alive[0]


def rules_table(args: argparse.Namespace) -> None:
    log = [d for path in args.logs for d in pickle.loads(Path(path).read_bytes())]
    half = min(d["V"].shape[1] for d in log) // 2

    def seen(V, A, penalty=0.0):
        return lambda i, j: float(V[i, j] - penalty * A[i, j])

    rules = {
        "halving, 64 rolls (the default)": lambda V, A, p: halving(p, seen(V, A), 64, 1.0),
        "halving, 64 rolls, no prior": lambda V, A, p: halving(p, seen(V, A), 64, 0.0),
        "halving, 64 rolls, grounding +0.5": lambda V, A, p: halving(p, seen(V, A, 0.5), 64, 1.0),
        "halving, 64 rolls, mean - 2 se": lambda V, A, p: lcb_halving(p, seen(V, A), 64, 1.0, 2.0),
        "halving, 128 rolls": lambda V, A, p: halving(p, seen(V, A), 128, 1.0),
        "halving, 128 rolls, grounding +0.5": lambda V, A, p: halving(p, seen(V, A, 0.5), 128, 1.0),
        "halving, 256 rolls": lambda V, A, p: halving(p, seen(V, A), 256, 1.0) if half >= 64 else None,
        f"best mean of {half} rolls each": lambda V, A, p: int(np.argmax(V.mean(1))),
    }
    print(f"rules judged on {half} rolls of each candidate they did not see; value in chance to arrive "
          "(the search's scale), paired differences with the default's pick and their 95% intervals")
    for group in (True, False):
        decisions = [d for d in log if d["launch"] is group]
        if not decisions:
            continue
        print(f"\n{'launches' if group else 'other throw decisions'}: {len(decisions)}")
        print("| rule | value of the pick | vs the default | aground, the pick |")
        print("|---|---|---|---|")
        base = None
        for name, rule in rules.items():
            values, grounded = [], []
            for d in decisions:
                V, A, prior = d["V"][:, :half], d["A"][:, :half], np.asarray(d["prior"], float)
                pick = rule(V, A, prior)
                if pick is None:
                    break
                values.append(d["V"][pick, half:].mean())
                grounded.append(d["A"][pick, half:].mean())
            else:
                values = np.array(values)
                base = values if base is None else base
                diff = values - base
                ci = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
                print(f"| {name} | {values.mean():.3f} | {diff.mean():+.3f} ± {ci:.3f} | {np.mean(grounded):.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(required=True)
    log = sub.add_parser("log", help="play games and roll the candidates of chosen decisions")
    log.add_argument("--seeds", type=lambda s: [int(x) for x in s.split(",")], default=[2, 3, 4, 6])
    log.add_argument("--rolls", type=int, default=64, help="extra rolls per candidate (even: half seen, half judged)")
    log.add_argument("--every", type=int, default=5, help="also every EVERY-th throw decision that is not a launch")
    log.add_argument("--out", required=True)
    log.set_defaults(run=log_decisions)
    table = sub.add_parser("rules", help="judge selection rules on logged decisions")
    table.add_argument("logs", nargs="+")
    table.set_defaults(run=rules_table)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
