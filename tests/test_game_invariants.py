"""Invariants over 200 random seeded games with the real strategies over real physics, checked from the records.

Each game draws its players (2-4), strategies, throw skills and seed from one master seed; rounds are
kept to one or two so the set runs in minutes. Everything is recomputed from the record alone.
"""

from collections import defaultdict

import numpy as np
import pytest

from physics import make_roller
from somaliland.engine.loop import play_game
from somaliland.engine.setup import DEFAULT_MAP, GameSetup, Seat
from somaliland.map import load
from somaliland.players.hand import ThrowSkill
from somaliland.rules import RulesConfig
from somaliland.rules.fleet import COLOURS, fleet_displacement

GAMES = 200
STRATEGIES = ("cautious", "bold", "ev")
WORLD = load(DEFAULT_MAP)


def random_setup(rng: np.random.Generator) -> GameSetup:
    players = int(rng.integers(2, 5))
    # four skill levels: every (strategy, skill) surveys the board once per process (about 3.5 s of CPU)
    seats = tuple(Seat(str(rng.choice(STRATEGIES)), ThrowSkill.level(round(float(rng.uniform(0.3, 1.0)) * 4) / 4))
                  for _ in range(players))
    return GameSetup(seed=int(rng.integers(2**31)), seats=seats, record_paths=False,
                     rules=RulesConfig(players=players, rounds=int(rng.integers(1, 3))))


@pytest.fixture(scope="module")
def games():
    rng = np.random.default_rng(20261122)
    with make_roller() as roller:
        return [(s, play_game(s, WORLD, roller).events) for s in (random_setup(rng) for _ in range(GAMES))]


def test_every_game_ends(games):
    assert len(games) == GAMES
    for setup, events in games:
        assert events[0]["kind"] == "game" and events[-1]["kind"] == "final", setup
        assert events[-1]["round"] == setup.rules.rounds + 1


def test_R6_D3_no_player_holds_contracts_above_the_cap_of_ships_afloat(games):
    for setup, events in games:
        sunk: dict[int, int] = defaultdict(int)
        held: dict[tuple[int, int], int] = defaultdict(int)
        for e in events:
            if e["kind"] == "sunk":
                sunk[_owner(e["ship"])] += sum(_ship_pips(setup, e["ship"]))
            if e["kind"] == "draft_pick" and e["card"]:
                held[e["round"], e["seat"]] += int(e["card"][:-1])
                cap = fleet_displacement(setup.rules.fleet) - sunk[e["seat"]]
                assert held[e["round"], e["seat"]] <= cap, (setup.seed, e)


def test_R21_scores_recomputed_from_the_record_equal_the_reported_scores(games):
    for setup, events in games:
        points: dict[int, float] = defaultdict(float)
        for e in events:
            if e["kind"] == "fulfilled":
                value = int(e["card"][:-1])
                assert e["points"] == (value if e["full_value"] else value / 2)
                points[e["seat"]] += e["points"]
            if e["kind"] == "seized":
                points[_owner(e["ship"])] -= e["ransom"]
        for row in events[-1]["table"]:
            assert row["points"] == pytest.approx(points[row["seat"]]), (setup.seed, row)


def test_R13_each_ransom_equals_the_captured_die_top_face(games):
    for setup, events in games:
        face: dict[str, int] = {}
        for e in events:
            if e["kind"] == "throw":
                for rest in e["result"]["moved"]:
                    face[rest["name"]] = rest["face_value"]
            if e["kind"] == "seized":
                assert e["ransom"] == face[e["ship"]], (setup.seed, e)


def test_R18_a_sunk_ship_never_moves_again(games):
    for setup, events in games:
        sunk: set[str] = set()
        for e in events:
            if e["kind"] == "throw":
                moved = {r["name"] for r in e["result"]["moved"]}
                assert not (moved & sunk), (setup.seed, e["ship"], moved & sunk)
            if e["kind"] == "sunk":
                sunk.add(e["ship"])


def test_R15_no_ship_moves_more_than_six_times_a_round(games):
    for setup, events in games:
        moves: dict[tuple[int, str], int] = defaultdict(int)
        for e in events:
            if e["kind"] == "throw":
                moves[e["round"], e["ship"]] += 1
                assert moves[e["round"], e["ship"]] <= setup.rules.max_moves, (setup.seed, e["ship"])


def test_D15_no_ship_on_a_half_value_route_is_ever_seized(games):
    for setup, events in games:
        route: dict[str, str] = {}
        for e in events:
            if e["kind"] == "plan":
                route.update({ship: plan["route"] for plan in e["plans"] for ship in plan["ships"]})
            if e["kind"] == "seized":
                assert WORLD.route(route[e["ship"]]).full_value, (setup.seed, e)


def test_D16_a_ship_loses_one_move_per_accident_owed_never_more(games):
    for setup, events in games:
        owed: set[str] = set()  # ships given a turn to lose (R13, R17-R19) and not yet losing it
        for e in events:
            if e["kind"] in ("lost_turn", "seized"):
                owed.add(e["ship"])
            if e["kind"] == "turn_skipped":
                assert e["ship"] in owed, (setup.seed, e)
                owed.discard(e["ship"])
            if e["kind"] == "deal":
                owed.clear()


def test_R19_no_ship_arrives_in_the_throw_that_put_it_back_on_the_board(games):
    for setup, events in games:
        put_back: set[str] = set()
        for e in events:
            if e["kind"] == "throw":
                put_back.clear()
            if e["kind"] == "replaced":
                put_back.add(e["ship"])
            if e["kind"] == "arrived":
                assert e["ship"] not in put_back, (setup.seed, e)


def test_the_games_exercise_the_rules(games):
    """The invariants mean something only if captures, groundings and fulfilments actually happen."""
    kinds = defaultdict(int)
    for _, events in games:
        for e in events:
            kinds[e["kind"]] += 1
    for kind in ("seized", "fulfilled", "collision", "arrived", "replaced", "released", "turn_skipped", "sunk",
                 "lost_turn", "draft_pick"):
        assert kinds[kind] > 0, kind


def _owner(ship: str) -> int:
    """Return the seat of a ship from its id (colour-name, R1)."""
    return COLOURS.index(ship.split("-", 1)[0])


def _ship_pips(setup: GameSetup, ship: str) -> tuple[int, ...]:
    name = ship.split("-", 1)[1]
    return next(s.faces for s in setup.rules.fleet if s.name == name)
