"""Play many episodes of the PettingZoo environment with random legal actions and count those that end well.

Every seat is an agent choosing uniformly among its legal choices (the observation's action mask), with
uniform throw parameters. An episode ends well when its record closes with the final table; an error is
reported with its seed and the run goes on. Prints episodes, errors, steps, throws and CPU time.

    nice -n 10 python experiments/env/random_episodes.py --episodes 1000 --map maps/tiny.toml --rounds 1
"""

from __future__ import annotations

import argparse
import time
import traceback

import numpy as np

from somaliland.engine.events import Final, Thrown
from somaliland.env import env


def episode(game, seed: int, rng: np.random.Generator) -> tuple[int, int]:
    """Play one episode with random legal actions; return (steps, throws)."""
    game.reset(seed=seed)
    steps = 0
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        action = None if terminated or truncated else {
            "choice": int(rng.choice(np.flatnonzero(obs["action_mask"]))),
            "throw": rng.uniform(-1.0, 1.0, 3).astype(np.float32)}
        game.step(action)
        steps += 1
    result = game.unwrapped.result
    if result is None or not isinstance(result.told[-1].event, Final):
        raise RuntimeError("the episode ended without the final table")
    return steps, sum(isinstance(s.event, Thrown) for s in result.told)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--players", default="2,3,4", help="player counts, taken in turn")
    parser.add_argument("--map", default="maps/tiny.toml")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--observation", default="dict", choices=("dict", "vector"))
    parser.add_argument("--seed", type=int, default=0, help="episode k plays game seed SEED + k")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    games = {n: env(players=n, map_file=args.map, rounds=args.rounds, observation=args.observation) for n in counts}
    rng = np.random.default_rng(args.seed)
    done, errors, steps, throws = 0, [], 0, 0
    wall, cpu = time.perf_counter(), time.process_time()
    for k in range(args.episodes):
        seed = args.seed + k
        try:
            s, t = episode(games[counts[k % len(counts)]], seed, rng)
            done, steps, throws = done + 1, steps + s, throws + t
        except Exception as error:  # noqa: BLE001 - counted and shown, the run goes on
            errors.append((seed, f"{type(error).__name__}: {error}", traceback.format_exc()))
        if (k + 1) % 100 == 0:
            print(f"{k + 1} episodes: {done} ended with the final table, {len(errors)} errors, "
                  f"{time.process_time() - cpu:.0f} CPU s", flush=True)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for g in games.values():
        g.close()
    print(f"{done} of {args.episodes} episodes ended with the final table, {len(errors)} errors "
          f"({args.map}, {args.rounds} round(s), players {args.players}, seeds {args.seed}..{args.seed + args.episodes - 1})")
    print(f"{steps} agent steps, {throws} throws; {cpu:.0f} CPU s ({cpu / args.episodes:.3f} s an episode, "
          f"{steps / cpu:.0f} steps/s), {wall:.0f} s wall")
    for seed, message, trace in errors[:5]:
        print(f"seed {seed}: {message}\n{trace}")
    raise SystemExit(1 if errors else 0)


if __name__ == "__main__":
    main()
