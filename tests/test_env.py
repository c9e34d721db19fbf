"""The PettingZoo environment: PettingZoo's own checks, records identical to `play`, seeding, masks, rewards.

Games are short (maps/tiny.toml, one round) to keep the file within about two CPU minutes.
"""

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, performance_benchmark, seed_test

from physics import Style, make_roller
from somaliland.engine.loop import play_game
from somaliland.engine.record import RecordWriter
from somaliland.engine.setup import GameSetup, seats_from
from somaliland.engine.verify import verify_record
from somaliland.env import StrategyActor, env, raw_env
from somaliland.env.observations import PHASES
from somaliland.errors import UsageError
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import IllegalActionError, RulesConfig
from somaliland.rules.contracts import legal_picks

TINY = Path(__file__).resolve().parents[1] / "maps" / "tiny.toml"
COLOURS = ["red", "green", "yellow", "blue"]


def tiny(**kwargs):
    return env(**{"players": 2, "map_file": TINY, "rounds": 1, **kwargs})


def run(game, act, seed):
    """Play one episode with `act(env, agent)`; return the record."""
    game.reset(seed=seed)
    for agent in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else act(game, agent))
    return game.unwrapped.events


def random_actor(rng):
    def act(game, agent):
        mask = game.observe(agent)["action_mask"]
        return {"choice": int(rng.choice(np.flatnonzero(mask))), "throw": rng.uniform(-1, 1, 3)}
    return act


def played(strategies, seed):
    """Return the record `somaliland play` makes of this game (tiny map, one round, skill 0.75)."""
    setup = GameSetup(seed=seed, seats=seats_from(strategies, len(strategies), ThrowSkill.level(0.75)),
                      rules=RulesConfig(players=len(strategies), rounds=1), map_path=TINY, record_paths=False)
    with make_roller() as roller:
        return play_game(setup, load(TINY), roller).events


def same_game(a, b):
    """Return True if two records are identical but for who made the decisions (header seats' strategy) and machine."""
    def header(h):
        return {**{k: v for k, v in h.items() if k != "machine"},
                "seats": [{k: v for k, v in s.items() if k != "strategy"} for s in h["seats"]]}
    return header(a[0]) == header(b[0]) and a[1:] == b[1:]


# -- PettingZoo's checks ---------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "observation": "vector", "reward": "shaped",
                                         "opponents": {"green": "ev"}}])
def test_pettingzoo_api_test_passes(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on dict spaces and agent names
        api_test(tiny(**kwargs), num_cycles=100)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: tiny(players=3), num_cycles=100)


def test_performance_benchmark_plays_games_quickly(capsys):
    performance_benchmark(tiny())
    turns = float(re.search(r"([\d.]+) turns per second", capsys.readouterr().out).group(1))
    assert turns > 5  # 167 on the 2-core development machine, loaded, 2026-11-29


# -- one game loop: the environment's games are play's games -----------------------------------------
@pytest.mark.parametrize("strategies, seed, opponents", [(["ev", "bold"], 3, {}),
                                                         (["cautious", "ev", "bold"], 4, {"green": "ev"})])
def test_env_episode_with_play_decisions_gives_plays_record(strategies, seed, opponents):
    actors = {c: StrategyActor(s) for c, s in zip(COLOURS, strategies) if c not in opponents}
    game = tiny(players=len(strategies), opponents=opponents)
    record = run(game, lambda g, agent: actors[agent](g, agent), seed)
    assert same_game(played(strategies, seed), record)
    assert [s["strategy"] for s in record[0]["seats"]] == [opponents.get(c, "agent") for c in COLOURS[:len(strategies)]]


def test_encoded_choices_stand_for_the_same_decisions():
    """Draft, plan and launch as action indices (a plan a step per contract), throws as given: the same game."""
    encoded, native = StrategyActor("ev", encode=True), StrategyActor("ev")
    record = run(tiny(), lambda g, agent: (native if g.unwrapped.request.kind == "throw" else encoded)(g, agent), 3)
    assert same_game(played(["ev", "ev"], 3), record)


def test_an_agents_record_verifies(tmp_path):
    record = run(tiny(players=3, opponents={"yellow": "bold"}), random_actor(np.random.default_rng(1)), 8)
    path = tmp_path / "episode.jsonl"
    with RecordWriter(path) as writer:
        for event in record:
            writer(event)
    verdict = verify_record(path)
    assert verdict.ok, verdict.message
    assert verdict.lines == len(record)


@pytest.mark.parametrize("turn, change, says", [(1, 1.5, "the re-run refuses the recorded decision: illegal launch"),
                                                (2, 0.3, "differs at actual.heading")])
def test_verify_names_the_line_where_an_agents_throw_was_edited(tmp_path, turn, change, says):
    """A launch turned off its route is refused (R12); a throw at sea turned aside rolls elsewhere."""
    record = run(tiny(), random_actor(np.random.default_rng(2)), 9)
    line = next(k for k, e in enumerate(record) if e["kind"] == "throw" and e["seat"] == 0 and e["turn"] >= turn)
    record[line]["intended"]["heading"] += change
    path = tmp_path / "edited.jsonl"
    with RecordWriter(path) as writer:
        for event in record:
            writer(event)
    verdict = verify_record(path)
    assert not verdict.ok and f"line {line + 1} (throw)" in verdict.message and says in verdict.message


# -- seeding -------------------------------------------------------------------------------------------
def test_same_seed_and_actions_same_episode_other_seed_other_episode():
    first = run(tiny(), random_actor(np.random.default_rng(5)), 11)
    again = run(tiny(), random_actor(np.random.default_rng(5)), 11)
    other = run(tiny(), random_actor(np.random.default_rng(5)), 12)
    assert first == again
    assert first[1:] != other[1:]


def test_reset_without_seed_continues_the_seeded_sequence():
    game = raw_env(players=2, map_file=TINY, rounds=1)
    seeds = []
    for _ in range(2):
        game.reset(seed=21)
        game.reset()
        seeds.append(game.setup.seed)
        game.reset()
        seeds.append(game.setup.seed)
    game.close()
    assert seeds[:2] == seeds[2:] and seeds[0] != seeds[1] and 21 not in seeds


def test_a_bad_seed_is_refused_with_its_value():
    with pytest.raises(ValueError, match="seed = -1"):
        raw_env(map_file=TINY).reset(seed=-1)


# -- actions and masks -----------------------------------------------------------------------------
def test_draft_mask_is_the_legal_picks_and_pass():
    game = raw_env(players=2, map_file=TINY, rounds=1)
    game.reset(seed=1)
    request = game.request
    mask = game.observe(game.agent_selection)["action_mask"]
    assert request.kind == "draft"
    legal = {game.layout.card_index(c) for c in legal_picks(request.draft, request.seat)} | {game.layout.draft_pass}
    assert set(np.flatnonzero(mask)) == legal
    other = COLOURS[1 - request.seat]
    assert not game.observe(other)["action_mask"].any()  # not its decision
    game.close()


def until(game, kind):
    """Answer with ev until a decision of this kind is pending."""
    actor = StrategyActor("ev")
    while game.request.kind != kind:
        game.step(actor(game, game.agent_selection))


@pytest.mark.parametrize("seed, contracts", [(5, 1), (7, 2)])  # what the seat planning first holds then
def test_a_plan_takes_a_step_per_contract_and_masks_the_ships_already_given(seed, contracts):
    game = raw_env(players=2, map_file=TINY, rounds=1)
    game.reset(seed=seed)
    until(game, "plan")
    seat, layout = game.request.seat, game.layout
    held = game.state.held[seat]
    assert len(held) == contracts
    size = 2 ** layout.ships
    first = layout.plan + 0b000011  # route 0, the seat's first two ships
    game.step(first)
    if contracts == 1:  # one step plans it all
        assert game.events[-1]["kind"] == "plan" and game.events[-1]["plans"][0]["ships"] == [
            s.id for s in game.state.fleet(seat)[:2]]
    else:  # a step per contract: the ships given to the first are masked for the second
        obs = game.observe(game.agent_selection)
        assert game.planned == 1 and list(obs["observation"]["request"]["used"][:3]) == [1, 1, 0]
        mask = obs["action_mask"]
        assert not mask[layout.plan + 0b000001] and not mask[layout.plan + size + 0b000010]
        assert mask[layout.plan + 0b000100] and mask[layout.plan + size + 0b111100]
    game.close()


def test_an_illegal_choice_is_refused_naming_the_legal_ones_and_the_game_goes_on():
    game = raw_env(players=2, map_file=TINY, rounds=1)
    game.reset(seed=1)
    launch = game.layout.launch
    with pytest.raises(IllegalActionError, match=r"draft choice: .* legal: \["):
        game.step(launch)
    with pytest.raises(IllegalActionError, match="draft pick"):
        game.step("not a card")
    game.step(game.layout.draft_pass)
    assert game.events[-1] == {**game.events[-1], "kind": "draft_pick", "card": None}
    game.close()


def test_throw_parameters_aim_along_the_route_and_a_launch_keeps_within_its_tolerance():
    game = raw_env(players=2, map_file=TINY, rounds=1)
    game.reset(seed=3)
    until(game, "throw")
    request, layout = game.request, game.layout
    ship = game.state.ship(request.ship)
    leg = game.world.route(ship.route).leg(ship.direction)
    straight = layout.throw_answer(request, layout.roll, np.array([0.0, 0.0, 0.0]))
    assert straight.heading == pytest.approx(leg.heading) and straight.speed == pytest.approx(1.25)
    assert straight.spin == (0.0, 0.0, 0.0) and straight.style is Style.ROLL
    wide = layout.throw_answer(request, layout.roll, np.array([0.9, 1.0, 1.0]))  # 162 degrees off: clamped (R12)
    assert wide.heading - leg.heading == pytest.approx(math.radians(45) - 1e-3) and wide.speed == pytest.approx(2.5)
    for spin in (1.0, -1.0):  # 2.5 m/s would roll the 16 mm die at 312 rad/s: held at the physics layer's 300
        fast = layout.throw_answer(request, layout.roll, np.array([0.0, 1.0, spin]))
        assert max(abs(c) for c in fast.spin) == pytest.approx(300.0) and fast.speed == pytest.approx(2.5)
    push = layout.throw_answer(request, layout.roll + 2, np.array([0.0, 1.0, 1.0]))
    assert push.style is Style.HALF and push.speed == 0.0
    action = layout.throw_action(request, wide)
    assert action["choice"] == layout.roll
    np.testing.assert_allclose(action["throw"], [math.radians(45) / math.pi - 1e-3 / math.pi, 1.0, 1.0], atol=1e-6)
    game.close()


def test_every_corner_of_the_throw_box_is_a_throw_the_physics_layer_takes():
    import itertools

    game = raw_env(players=2, map_file=TINY, rounds=1)
    game.reset(seed=3)
    until(game, "throw")
    request, layout = game.request, game.layout
    for choice in range(layout.roll, layout.size):
        for corner in itertools.product((-1.0, 0.0, 1.0), repeat=3):  # Throw's own checks raise on anything else
            layout.throw_answer(request, choice, np.array(corner))
    game.close()


# -- rewards, observations, options ----------------------------------------------------------------
def test_shaped_rewards_add_up_to_the_final_points():
    game = tiny(players=3, reward="shaped", opponents={"green": "ev"})
    rng = np.random.default_rng(4)
    game.reset(seed=6)
    returns = dict.fromkeys(game.possible_agents, 0.0)
    shaped_before_end = False
    for agent in game.agent_iter():
        _, reward, terminated, truncated, _ = game.last()
        returns[agent] += reward
        shaped_before_end |= reward != 0 and not terminated
        game.step(None if terminated or truncated else random_actor(rng)(game, agent))
    final = {row["colour"]: row["points"] for row in game.unwrapped.events[-1]["table"]}
    assert returns == pytest.approx({a: final[a] for a in returns})
    assert shaped_before_end


def test_observations_show_the_phase_and_the_die_to_throw():
    game = raw_env(players=2, map_file=TINY, rounds=1)
    game.reset(seed=3)
    until(game, "throw")
    obs = game.observe(game.agent_selection)["observation"]
    ids = [s.id for s in game.state.ships]
    assert PHASES[obs["phase"]] == "throw" and obs["to_move"] == game.request.seat
    assert ids[obs["request"]["ship"] - 1] == game.request.ship
    vector = raw_env(players=2, map_file=TINY, rounds=1, observation="vector")
    vector.reset(seed=3)
    flat = vector.observe(vector.agent_selection)["observation"]
    assert flat.dtype == np.float32 and flat.shape == vector.observation_space("red")["observation"].shape
    game.close()
    vector.close()


def test_render_gives_the_board_as_an_rgb_image():
    game = raw_env(players=2, map_file=TINY, rounds=1, render_mode="rgb_array")
    game.reset(seed=3)
    board = game.render()
    until(game, "throw")
    game.step(game.layout.roll)
    after = game.render()
    game.close()
    assert board.ndim == 3 and board.shape[2] == 3 and board.dtype == np.uint8
    assert after.ndim == 3 and after.shape[2] == 3 and after.std() > 10


@pytest.mark.parametrize("kwargs, message", [
    ({"opponents": {"purple": "ev"}}, r"opponents name \['purple'\]; the seats of a 2-player game are"),
    ({"opponents": {"red": "ev", "green": "ev"}}, "leave at least one seat to an agent"),
    ({"opponents": {"green": "clever"}}, "unknown strategy 'clever' for an opponent; known: bold, cautious, ev, search"),
    ({"reward": "points"}, r"reward='points'.*expected reward in \('final', 'shaped'\)"),
    ({"skill": {"red": 0.5}}, r"skill names \['red'\]; expected one per seat"),
])
def test_bad_options_are_refused_naming_the_option(kwargs, message):
    with pytest.raises(UsageError, match=message):
        raw_env(players=2, map_file=TINY, **kwargs)


def test_random_episodes_of_two_to_four_players_end_with_a_final_table():
    for players, seed in ((2, 31), (3, 32), (4, 33)):
        record = run(tiny(players=players), random_actor(np.random.default_rng(seed)), seed)
        assert record[-1]["kind"] == "final" and len(record[-1]["table"]) == players


# -- the README's example ------------------------------------------------------------------------------
def test_the_readmes_ten_line_example_runs_from_any_folder_and_plays_the_same_game_every_run(monkeypatch, capsys,
                                                                                             tmp_path):
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## Agents: a PettingZoo environment"):]
    example = section[section.index("```python") + len("```python"):section.index("```", section.index("```python") + 3)]
    assert len([line for line in example.splitlines() if line.strip()]) <= 10
    monkeypatch.chdir(tmp_path)  # a user's own folder: the example names a shipped map, found from anywhere
    outputs = []
    for _ in range(2):
        exec(compile(example, "README.md", "exec"), {})
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and "'colour': 'red'" in outputs[0] and "'colour': 'green'" in outputs[0]
