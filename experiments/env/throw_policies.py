"""How much is a good throw worth? Four throw policies for one seat, through the PettingZoo environment.

Red is the agent; green is our `ev` strategy played inside the environment. Red's contracts, plans and
launches are `ev`'s too (`StrategyActor`), so the arms differ only in how red throws:

- random: a roll with uniform parameters (aim, speed, spin);
- straight: a roll along the route (aim 0) at 0.75 m/s, no spin;
- fitted: a roll at aim a, at a speed that goes from `far` (at the leg's start) to `near` (at its end) with
  the ship's progress (the observation's `dice/progress`), or a quarter push when less than `push` of the
  leg is left; (a, far, near, push) fitted by the cross-entropy method on training games;
- ev: our `ev` strategy's aimed throw (candidate targets scored over the hand's scatter, `players/aim.py`).

Every throw goes through red's hand (skill 0.75) before physics. Arms are compared on the same evaluation
seeds (paired), disjoint from the training seeds: red's points (95% t interval) and win share (a k-way
shared win counts 1/k; 95% Wilson interval), and each arm's points minus ev's (paired 95% interval).

    nice -n 10 python experiments/env/throw_policies.py [--eval-games 100] [--out experiments/env/throw-policies.md]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from somaliland.env import StrategyActor, env
from somaliland.env.observations import PHASES

Throw = Callable[[dict, np.random.Generator], dict]
MAP = "maps/tiny.toml"
TRAIN_SEEDS, EVAL_SEEDS = 10_000, 20_000  # seed ranges: training games and evaluation games never share a seed


def fitted(theta: np.ndarray, roll: int) -> Throw:
    """Return the throw policy of parameters (aim, far, near, push); `roll`: the layout's roll choice."""
    aim, far, near, push = (float(v) for v in theta)

    def throw(obs: dict, rng: np.random.Generator) -> dict:
        o = obs["observation"]
        left = 1.0 - float(np.clip(o["dice"]["progress"][o["request"]["ship"] - 1], 0.0, 1.0))
        if left < push:
            return {"choice": roll + 1, "throw": np.array([aim, 0.0, 0.0], np.float32)}
        speed = near + (far - near) * left
        return {"choice": roll, "throw": np.clip([aim, speed, 0.0], -1, 1).astype(np.float32)}
    return throw


def random_throw(roll: int) -> Throw:
    """Return the policy of rolls with uniform parameters."""
    return lambda obs, rng: {"choice": roll, "throw": rng.uniform(-1, 1, 3).astype(np.float32)}


def play(game: Any, seed: int, throw: Throw | None, rng: np.random.Generator) -> tuple[float, float]:
    """Play one game; return red's points and win share. `throw` None: red throws as ev."""
    actor = StrategyActor("ev")
    game.reset(seed=seed)
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
        elif throw is not None and PHASES[obs["observation"]["phase"]] == "throw":
            game.step(throw(obs, rng))
        else:
            game.step(actor(game, agent))
    final = game.unwrapped.events[-1]
    points = next(row["points"] for row in final["table"] if row["seat"] == 0)
    return float(points), (1.0 / len(final["winners"])) if 0 in final["winners"] else 0.0


def cem(game: Any, iterations: int, candidates: int, games: int, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """Return the fitted parameters and each iteration's (mean, best) training points."""
    mean, sd = np.array([0.0, -0.2, -0.6, 0.1]), np.array([0.15, 0.4, 0.4, 0.1])
    history, seed = [], TRAIN_SEEDS
    for _ in range(iterations):
        thetas = mean + sd * rng.standard_normal((candidates, 4))
        seeds = range(seed, seed + games)  # every candidate on the same games (common random numbers)
        seed += games
        roll = game.unwrapped.layout.roll
        scores = np.array([np.mean([play(game, s, fitted(t, roll), rng)[0] for s in seeds]) for t in thetas])
        elite = thetas[np.argsort(-scores)[:max(2, candidates // 4)]]
        mean, sd = elite.mean(axis=0), 0.5 * sd + 0.5 * (elite.std(axis=0) + 0.02)
        history.append((float(scores.mean()), float(scores.max())))
    return mean, history


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """Return the mean and its 95% t interval."""
    m, se = float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values)))
    half = float(stats.t.ppf(0.975, len(values) - 1)) * se
    return m, m - half, m + half


def wilson(share: np.ndarray) -> tuple[float, float, float]:
    """Return the mean win share and its 95% Wilson score interval (a k-way shared win counts 1/k)."""
    n, p, z = len(share), float(share.mean()), float(stats.norm.ppf(0.975))
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--train-games", type=int, default=4)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the results table here (markdown)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    game = env(players=2, map_file=MAP, rounds=1, opponents={"green": "ev"})
    roll = game.unwrapped.layout.roll
    cpu = time.process_time()
    theta, history = cem(game, args.iterations, args.candidates, args.train_games, rng)
    train_cpu = time.process_time() - cpu
    arms = {"random": random_throw(roll), "straight": fitted(np.array([0.0, -0.4, -0.4, -1.0]), roll),
            "fitted": fitted(theta, roll),
            "ev": None}
    seeds = range(EVAL_SEEDS, EVAL_SEEDS + args.eval_games)
    results = {name: np.array([play(game, s, arm, rng) for s in seeds]) for name, arm in arms.items()}
    game.close()
    cpu = time.process_time() - cpu
    lines = [f"Red's throw policy against green = ev, 2 players, {MAP}, 1 round, skill 0.75; {args.eval_games} "
             f"evaluation games per arm on the same seeds ({EVAL_SEEDS}..{EVAL_SEEDS + args.eval_games - 1}).",
             "",
             f"Fitted (cross-entropy method, {args.iterations} iterations x {args.candidates} candidates x "
             f"{args.train_games} games, {train_cpu:.0f} CPU s): aim {theta[0]:+.3f} x 180 deg, speed "
             f"{1.25 + 1.25 * theta[1]:.2f} m/s at the leg's start to {1.25 + 1.25 * theta[2]:.2f} m/s at its end, "
             f"a quarter push under {theta[3]:.2f} of the leg left. Training points by iteration (mean, best "
             f"candidate): {', '.join(f'{m:.1f}/{b:.1f}' for m, b in history)}.",
             "",
             "| red throws | points, 95% CI | win share, 95% Wilson CI | points minus ev's, paired 95% CI |",
             "|---|---|---|---|"]
    for name, values in results.items():
        p, w = interval(values[:, 0]), wilson(values[:, 1])
        d = interval(values[:, 0] - results["ev"][:, 0]) if name != "ev" else None
        diff = f"{d[0]:+.1f} [{d[1]:+.1f}, {d[2]:+.1f}]" if d else "—"
        lines.append(f"| {name} | {p[0]:.1f} [{p[1]:.1f}, {p[2]:.1f}] | {100 * w[0]:.0f}% "
                     f"[{100 * w[1]:.0f}, {100 * w[2]:.0f}] | {diff} |")
    lines += ["", f"CPU: {cpu:.0f} s in all."]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
