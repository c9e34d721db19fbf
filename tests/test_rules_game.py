"""Whole games through the rules API with a scripted stand-in for physics: the sequence the game loop follows.

Ships roll straight along their route by a fixed stride; no physics engine runs. Checks the game's
invariants (R6 cap, R13 ransom, R15 moves, R21 scores from events), its end (R4) and determinism.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from rules_fixtures import config, game, place, rest, roll, world
from somaliland.rules import (Plan, RulesConfig, Status, after_launch, apply_plans, apply_roll, begin_turn,
                              check_throw, drafter, end_round, game_over, launch_pose, launchable, launcher,
                              lose_turn, new_game, next_to_sail, open_launch, pick, placed_dice, seize,
                              standings, start_draft, take_contracts, throwable)
from somaliland.engine.events import DraftPick, Stamped, encode
from somaliland.rules.contracts import legal_picks
from somaliland.rules.events import Fulfilled, Seized
from somaliland.seeding import make_rng

STRIDE = 0.25


def scripted_roll(state, ship_id, rng: np.random.Generator, cfg: RulesConfig):
    """Return a roll moving the ship one stride along its leg's heading, face chosen by the test's generator."""
    ship = state.ship(ship_id)
    start = ship.pose or launch_pose(ship, world(), cfg)
    heading = world().route(ship.route).leg(ship.direction).heading
    x = start.position[0] + STRIDE * math.cos(heading)
    y = start.position[1] + STRIDE * math.sin(heading) * (0.5 + rng.random())
    face = int(rng.integers(6))
    return roll(rest(ship_id, x, y, face=face, value=ship.spec.faces[face]))


def play(seed: int, cfg: RulesConfig) -> tuple[list[dict], object]:
    """Play a whole game; return the events as JSON dicts and the final standings."""
    rng = make_rng(seed)
    hand = make_rng(seed + 1)  # the stand-in "hand and physics"
    the_map = world()
    log: list = []  # the draft's picks and the rules' events, in order
    state = new_game(cfg, rng)
    while not game_over(state, cfg):
        draft = start_draft(state, cfg, rng)
        while (seat := drafter(draft)) is not None:
            options = legal_picks(draft, seat)
            card = min(options) if hand.random() < 0.8 else None
            log.append(DraftPick(seat, card))
            draft = pick(draft, seat, card, cfg)
        for seat in range(cfg.players):
            assert sum(c.value for c in draft.held[seat]) <= draft.caps[seat]  # R6
        state = take_contracts(state, draft)
        for seat in range(cfg.players):
            free = sorted((s for s in state.fleet(seat) if s.status is not Status.SUNK),
                          key=lambda s: -s.displacement)
            plans = []
            for holding in state.held[seat]:
                ships, total = [], 0
                while free and total < holding.card.value:
                    ships.append(free.pop(0).id)
                    total += state.ship(ships[-1]).displacement
                plans.append(Plan(holding.card, "somalia" if hand.random() < 0.5 else "africa", tuple(ships)))
            state = apply_plans(state, seat, tuple(plans), the_map, cfg)
        for _ in range(cfg.turns_per_round):
            state = begin_turn(state, cfg)
            while (ship := next_to_sail(state, the_map, cfg)) is not None:
                if ship.skip:
                    state, events = lose_turn(state, ship.id, the_map, cfg)
                else:
                    r = scripted_roll(state, ship.id, hand, cfg)
                    state, events = apply_roll(state, ship.id, r, the_map, cfg)
                log.extend(events)
            phase = open_launch(state)
            while (seat := launcher(phase, state)) is not None:
                launch = hand.random() < 0.9
                if launch:
                    ship = launchable(state, seat)[0]
                    start = launch_pose(ship, the_map, cfg).position[:2]
                    heading = the_map.route(ship.route).leg(ship.direction).heading
                    check_throw(state, ship.id, start, heading, the_map, cfg)
                    state, events = apply_roll(state, ship.id, scripted_roll(state, ship.id, hand, cfg), the_map, cfg)
                    log.extend(events)
                phase = after_launch(phase, seat, launch, cfg)
            assert all(s.moves <= cfg.max_moves for s in state.ships)  # R15
            before = {s.id: s for s in state.ships}
            state, events = seize(state, the_map, cfg)
            for e in events:  # R13: each ransom equals the captured die's top face
                assert e.ransom == before[e.ship].top_value()
            log.extend(events)
            assert {d.name for d in placed_dice(state, cfg)} == {s.id for s in state.ships if s.pose}
        state, events = end_round(state, the_map, cfg)
        log.extend(events)
    final = standings(state.sheets, cfg, rng)
    return log, (state, final)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R4_R21_whole_games_end_and_scores_recompute_from_the_events(players: int) -> None:
    kinds: set[str] = set()
    for seed in range(10):
        cfg = config(players=players)
        log, (state, final) = play(seed, cfg)
        assert game_over(state, cfg) and state.round == cfg.rounds + 1
        for seat in range(players):
            points = sum(e.points for e in log if isinstance(e, Fulfilled) and e.seat == seat)
            ransom = sum(e.ransom for e in log if isinstance(e, Seized) and e.ship.startswith(
                state.sheets[seat].colour + "-"))
            assert state.sheets[seat].points == points - ransom
        assert set(final.winners) <= set(range(players))
        kinds |= {e.kind for e in log}
        json.dumps([encode(Stamped(state.round, state.turn, e)) for e in log])
    assert {"arrived", "fulfilled", "failed", "seized", "turn_skipped"} <= kinds  # the checks above had work to do


def test_same_seed_same_game_event_for_event() -> None:
    a, _ = play(11, config(players=4))
    b, _ = play(11, config(players=4))
    first_difference = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    assert first_difference is None and len(a) == len(b), f"runs part at event {first_difference}"
    c, _ = play(12, config(players=4))
    assert a != c


def test_a_ship_never_moves_after_sinking_and_is_gone_from_later_rounds() -> None:
    state = replace(game(), turn=2)
    state = place(state, "red-24", status=Status.SUNK)
    assert "red-24" not in throwable(state, config())
    state, _ = end_round(state, world(), config())
    assert state.ship("red-24").status is Status.SUNK
    assert all(s.status is Status.IN_PORT for s in state.ships if s.id != "red-24")
