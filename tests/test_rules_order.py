"""Who acts when: R7 and D4 (first player), R12 and D7 (launching), R14 and D9 (moving order)."""

from __future__ import annotations

from dataclasses import replace

from rules_fixtures import N, S, _route, config, game, place, world
from somaliland.rules import Card, after_launch, launcher, leg_order, next_to_sail, open_launch
from somaliland.rules.game import end_round, new_game
from somaliland.rules.order import draw_first_player, play_order
from somaliland.seeding import make_rng


def test_D4_the_first_player_is_drawn_from_the_games_seed() -> None:
    cfg = config(players=4, first_player="random")
    firsts = [draw_first_player(cfg, make_rng(seed)) for seed in range(40)]
    assert firsts == [draw_first_player(cfg, make_rng(seed)) for seed in range(40)]
    assert set(firsts) == {0, 1, 2, 3}
    assert new_game(cfg, make_rng(5)).first_player == draw_first_player(cfg, make_rng(5))
    assert draw_first_player(config(players=4), make_rng(5)) == 0  # first_player = "seat0"


def test_R7_each_later_round_starts_with_the_next_player_to_the_left() -> None:
    state = replace(game(config(players=3)), first_player=2)
    state, _ = end_round(state, world(), config(players=3))
    assert state.first_player == 0 and state.round == 2
    assert play_order(2, 4) == (2, 3, 0, 1)


def _launch_ready(players: int = 3):
    cfg = config(players=players)
    state = game(cfg)
    for seat, colour in enumerate(["red", "green", "yellow"][:players]):
        for ship in ("6a", "24"):
            state = place(state, f"{colour}-{ship}", status=state.ship(f"{colour}-{ship}").status,
                          card=Card(30 + 2 * seat, N), route="somalia")
    return cfg, replace(state, first_player=1)


def test_R12_launching_goes_left_from_the_first_player_until_all_pass() -> None:
    cfg, state = _launch_ready()
    phase = open_launch(state)
    seen = []
    for launched in (True, True, False, True, False, False):
        seat = launcher(phase, state)
        seen.append(seat)
        phase = after_launch(phase, seat, launched, cfg)
    assert seen == [1, 2, 0, 1, 2, 1]
    assert launcher(phase, state) is None


def test_R12_a_player_with_nothing_to_launch_is_skipped() -> None:
    cfg, state = _launch_ready()
    state = place(state, "green-6a", 0.6, 0.3, card=Card(32, N), route="somalia")
    state = place(state, "green-24", 0.6, 0.4, card=Card(32, N), route="somalia")
    assert launcher(open_launch(state), state) == 2


def test_D7_off_a_player_who_passed_may_launch_again_after_another_launch() -> None:
    cfg, state = _launch_ready(players=2)
    cfg = replace(cfg, launch_pass_is_final=False)
    phase = open_launch(replace(state, first_player=0))
    phase = after_launch(phase, 0, False, cfg)
    phase = after_launch(phase, 1, True, cfg)
    assert launcher(phase, state) == 0  # back in, since someone launched
    phase = after_launch(phase, 0, False, cfg)
    phase = after_launch(phase, 1, False, cfg)
    assert launcher(phase, state) is None


def test_R14_legs_move_africa_south_somalia_south_somalia_north_africa_north() -> None:
    assert leg_order(world()) == (("africa", S), ("somalia", S), ("somalia", N), ("africa", N))


def test_R14_several_routes_of_a_kind_move_in_the_order_the_map_lists_them() -> None:
    routes = (_route("strait", 0.62, True), _route("lagoon", 0.12, False), _route("canal", 0.70, True),
              _route("ocean", 0.05, False))
    assert leg_order(replace(world(), routes=routes)) == (
        ("lagoon", S), ("ocean", S), ("strait", S), ("canal", S), ("strait", N), ("canal", N), ("lagoon", N),
        ("ocean", N))


def test_R14_a_map_of_one_kind_of_route_moves_its_legs_south_then_north() -> None:
    routes = (_route("strait", 0.62, True), _route("canal", 0.70, True))
    assert leg_order(replace(world(), routes=routes)) == (("strait", S), ("canal", S), ("strait", N), ("canal", N))


def test_R14_D9_routes_in_order_and_the_ship_furthest_along_first() -> None:
    cfg = config()
    state = replace(game(cfg), turn=2)
    state = place(state, "red-6a", 0.62, 0.30, card=Card(30, N), route="somalia", sailed_turn=1)
    state = place(state, "green-6a", 0.62, 0.50, card=Card(32, N), route="somalia", sailed_turn=1)
    state = place(state, "red-8", 0.62, 0.60, card=Card(34, S), route="somalia", sailed_turn=1)
    state = place(state, "green-8", 0.12, 0.70, card=Card(36, N), route="africa", sailed_turn=1)
    state = place(state, "red-12", 0.12, 0.40, card=Card(38, S), route="africa", sailed_turn=1)
    order = []
    while (ship := next_to_sail(state, world(), cfg)) is not None:
        order.append(ship.id)
        state = place(state, ship.id, *ship.pose.position[:2], card=ship.card, route=ship.route, sailed_turn=2)
    assert order == ["red-12", "red-8", "green-6a", "red-6a", "green-8"]


def test_D9_the_leader_is_judged_afresh_before_each_move() -> None:
    cfg = config()
    state = replace(game(cfg), turn=2)
    state = place(state, "red-6a", 0.62, 0.30, card=Card(30, N), route="somalia", sailed_turn=1)
    state = place(state, "green-6a", 0.62, 0.50, card=Card(32, N), route="somalia", sailed_turn=1)
    state = place(state, "red-8", 0.62, 0.40, card=Card(34, N), route="somalia", sailed_turn=1)
    assert next_to_sail(state, world(), cfg).id == "green-6a"
    state = place(state, "green-6a", 0.62, 0.50, card=Card(32, N), route="somalia", sailed_turn=2)
    state = place(state, "red-6a", 0.62, 0.45, card=Card(30, N), route="somalia", sailed_turn=1)  # pushed ahead
    assert next_to_sail(state, world(), cfg).id == "red-6a"


def test_D9_hindmost_first_variant() -> None:
    cfg = config(pitchcar_order="hindmost_first")
    state = replace(game(cfg), turn=2)
    state = place(state, "red-6a", 0.62, 0.30, card=Card(30, N), route="somalia", sailed_turn=1)
    state = place(state, "green-6a", 0.62, 0.50, card=Card(32, N), route="somalia", sailed_turn=1)
    assert next_to_sail(state, world(), cfg).id == "red-6a"


def _tied(cfg, first_player: int):
    """Two ships of different seats equally far along the Somalia leg (side by side across it)."""
    state = replace(game(cfg), turn=2, first_player=first_player)
    state = place(state, "red-6a", 0.60, 0.40, card=Card(30, N), route="somalia", sailed_turn=1)
    return place(state, "green-6a", 0.64, 0.40, card=Card(32, N), route="somalia", sailed_turn=1)


def test_D9_ties_go_in_this_rounds_play_order_which_rotates_with_the_first_player() -> None:
    cfg = config()
    assert cfg.pitchcar_ties == "turn_order"
    assert next_to_sail(_tied(cfg, 0), world(), cfg).id == "red-6a"
    assert next_to_sail(_tied(cfg, 1), world(), cfg).id == "green-6a"  # green starts this round


def test_D9_ties_by_seat_variant_always_moves_red_first() -> None:
    cfg = config(pitchcar_ties="seat_order")
    assert next_to_sail(_tied(cfg, 0), world(), cfg).id == "red-6a"
    assert next_to_sail(_tied(cfg, 1), world(), cfg).id == "red-6a"
