"""The strategies on hand-built positions: registry errors, drafting within the cap, routes, plans, launches,
and the lookahead budget (counted with a wrapping roller)."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import pytest

from rules_fixtures import N, S, config, game, place, world
from somaliland.errors import UsageError
from somaliland.engine.loop import play_game
from somaliland.engine.setup import GameSetup, Seat
from somaliland.players.outlook import companions, seizure_chances, voyage
from somaliland.players.policy import Table
from somaliland.players.strategies import STRATEGIES, make_policy
from somaliland.rules.fleet import COLOURS, ShipSpec
from somaliland.rules.planning import Plan
from somaliland.rules import Card, Status, apply_plans, check_plans, check_throw, drafter, legal_picks, pick
from somaliland.rules.contracts import open_draft
from somaliland.seeding import make_rng
from test_players_calibration import CountingRoller
from test_players_survey import straits

RNG = make_rng(0)


def players_imports() -> dict[str, set[str]]:
    """Return, for each module of somaliland/players, the modules of that package it imports, at its top or inside
    a function."""
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "somaliland" / "players"
    names = {p.stem for p in folder.glob("*.py")}
    graph = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("somaliland.players"):
                rest = node.module.removeprefix("somaliland.players").lstrip(".")
                found |= {rest} if rest else {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name.removeprefix("somaliland.players.") for a in node.names}
        graph[path.stem] = (found & names) - {path.stem}
    return graph


def test_the_players_modules_import_each_other_without_a_circle():
    """Each module of the players imports only modules below it: the registry (strategies) the search, the search
    the Strategy it builds on (strategy), never back; no import hidden in a function to dodge a circle."""
    graph = players_imports()
    assert "search" in graph["strategies"] and "strategy" in graph["search"]

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    circles = sorted(name for name in graph if name in reach(name))
    assert not circles, f"modules of somaliland/players that import themselves through others: {circles}"


def test_registry_knows_four_strategies_and_names_them_on_error(roller):
    assert sorted(STRATEGIES) == ["bold", "cautious", "ev", "search"]
    for name in STRATEGIES:
        assert make_policy(name, roller).name == name
    with pytest.raises(UsageError, match="known strategies: bold, cautious, ev, search"):
        make_policy("reckless", roller)
    with pytest.raises(UsageError, match="known parameters: .*rolls"):
        make_policy("ev", roller, lookahead=3)
    with pytest.raises(UsageError, match="rolls"):
        make_policy("ev", roller, rolls=-1)
    with pytest.raises(UsageError, match="heading_sd_deg"):
        make_policy("ev", roller, heading_sd_deg=float("nan"))


@pytest.mark.parametrize("name", ["stride", "accident_rate", "rival_full_route_ships"])
def test_a_removed_parameter_is_named(roller, name):  # board facts are measured by the survey now
    with pytest.raises(UsageError, match=f"strategy parameter {name} was removed"):
        make_policy("ev", roller, **{name: 0.3})


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_a_draft_never_exceeds_the_cap(roller, name):
    cfg = config()
    # the search drafts by ev's reckoning on a survey thrown by its own search: a quick one (its default takes minutes)
    policy = make_policy(name, roller, **({"search_samples": 8, "voyages": 2} if name == "search" else {}))
    offer = tuple(Card(v, d) for v, d in ((64, N), (62, S), (44, N), (40, S), (36, N), (32, S), (30, N),
                                          (30, S), (34, N)))
    for caps in ((74, 74), (40, 74), (30, 12)):  # D3: a seat that lost ships has a smaller cap
        draft = open_draft(offer, caps, 0)
        state = replace(game(cfg), held=(), turn=0)  # as in a real draft: nobody holds anything yet
        while (seat := drafter(draft)) is not None:
            card = policy.draft(Table(state, world(), cfg, seat), draft, RNG)
            assert card is None or card in legal_picks(draft, seat)
            draft = pick(draft, seat, card, cfg)
        assert draft.held[0]  # something worth taking was offered to each
        for seat, held in enumerate(draft.held):
            assert sum(c.value for c in held) <= caps[seat]  # R6


def test_cautious_takes_africa_and_bold_somalia(roller):
    held = ((Card(44, N),), (Card(44, S),))
    state = game(held=held)
    cautious = make_policy("cautious", roller).plan(Table(state, world(), config(), 0), RNG)
    bold = make_policy("bold", roller).plan(Table(state, world(), config(), 1), RNG)
    assert [p.route for p in cautious] == ["africa"]
    assert [p.route for p in bold] == ["somalia"]


@pytest.mark.parametrize("only", ["somalia", "africa"])
def test_on_a_map_of_one_kind_of_route_every_strategy_sails_the_route_there_is(roller, only):
    one_route = replace(world(), routes=(world().route(only),))
    state = game(held=((Card(44, N),), (Card(44, S),)))
    for seat, name in enumerate(("cautious", "bold")):
        plans = make_policy(name, roller).plan(Table(state, one_route, config(), seat), RNG)
        assert [p.route for p in plans] == [only], name


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@pytest.mark.parametrize("cards", [(Card(30, N), Card(44, S)), (Card(64, S),), (Card(30, N), Card(32, N))])
def test_plans_cover_every_contract_legally(roller, name, cards):
    state = game(held=(cards, ()))
    plans = make_policy(name, roller).plan(Table(state, world(), config(), 0), RNG)
    check_plans(state, 0, plans, world(), config())  # R8, R10
    assert sorted(p.card for p in plans) == sorted(cards)
    for plan in plans:  # a contract gets enough displacement (R9) or, if not worth it, no ships at all
        carried = sum(state.ship(s).displacement for s in plan.ships)
        assert carried >= plan.card.value or carried == 0


@pytest.mark.parametrize("cards", [(Card(30, N), Card(44, S)), (Card(64, S),), (Card(30, N), Card(32, N))])
def test_cautious_covers_every_contract_the_fleet_can(roller, cards):
    # pirates never take a ship on the safe route (D15) and ships cost nothing: any chance to arrive makes
    # every contract the fleet can carry worth carrying (R9)
    state = game(held=(cards, (Card(40, N),)))
    policy = make_policy("cautious", roller, ship_cost=0.0, voyages=4)
    plans = policy.plan(Table(state, world(), config(pirate_targets="full_route"), 0), RNG)
    assert sorted(p.card for p in plans) == sorted(cards)  # every contract is sailed
    for plan in plans:
        assert sum(state.ship(s).displacement for s in plan.ships) >= plan.card.value


def test_a_plan_after_a_sinking_uses_only_ships_afloat(roller):
    state = game(held=((Card(30, N),), ()))
    state = replace(state, ships=tuple(replace(s, status=Status.SUNK) if s.id == "red-24" else s
                                       for s in state.ships))
    plans = make_policy("ev", roller).plan(Table(state, world(), config(), 0), RNG)
    check_plans(state, 0, plans, world(), config())
    assert "red-24" not in plans[0].ships


BIG = config(pirate_targets="full_route", players=4, fleet=(ShipSpec("big", (12, 12, 12, 12, 13, 13)),))


def big_fleet_table(board, value: int) -> Table:
    """Return seat 0 holding one contract for its one 74-pip ship; three rivals' ships planned on the full route."""
    held = ((Card(value, N),),) + tuple((Card(30 + 2 * seat, S),) for seat in range(1, 4))
    state = game(BIG, held=held)
    for seat in range(1, 4):
        state = apply_plans(state, seat, (Plan(held[seat][0], "somalia", (f"{COLOURS[seat]}-big",)),), board, BIG)
    return Table(state, board, BIG, 0)


def prospects(policy, board) -> tuple:
    """Return the outlook of the one ship on each route, as the planner figures it from the map's survey."""
    found = policy.survey(board, BIG)
    traffic = (("somalia", 3.0), ("africa", 0.0))

    def trip(route: str):
        leg = found.leg(route, N)
        return voyage(leg, seizure_chances(leg, found, 1, traffic, BIG), companions(leg, 1, traffic))

    return trip("somalia"), trip("africa")


def test_ev_route_choice_moves_with_contract_value_and_with_the_map(roller):
    """Low-value cargo goes the safe way, high-value cargo the full-value way, where the map's measured odds say
    so: the ransom aversion is set so that, by the outlook of the test map, the full route's edge in points
    (value x (its chance to arrive - half the safe route's)) pays its expected ransom at a value of 47. On the
    same map with a strait in the full-value lane, the same contract of 54 goes the safe way."""
    policy = make_policy("ev", roller, voyages=4, ship_cost=0.0)
    full, safe = prospects(policy, world())
    edge = full.arrive - 0.5 * safe.arrive
    assert edge > 0 and full.captures > safe.captures == 0.0  # D15: only the full route is hunted
    pips = 74 / 6  # the ship's mean face: its ransom (R13)
    aversion = 47 * edge / (full.captures * pips)
    assert 0 < aversion <= 10
    ev = make_policy("ev", roller, voyages=4, ship_cost=0.0, ransom_aversion=aversion)
    assert [ev.plan(big_fleet_table(world(), v), RNG)[0].route for v in (40, 54)] == ["africa", "somalia"]
    narrow_full, narrow_safe = prospects(policy, straits(world()))
    narrow_edge = narrow_full.arrive - 0.5 * narrow_safe.arrive
    break_even = aversion * narrow_full.captures * pips / narrow_edge if narrow_edge > 0 else math.inf
    assert break_even > 54  # the strait slows ships: more turns at sea, more seizures, a later break-even
    assert ev.plan(big_fleet_table(straits(world()), 54), RNG)[0].route == "africa"


def test_launch_picks_the_biggest_ship_and_passes_when_the_start_is_taken(roller):
    state = game(held=((Card(30, N),), ()))
    plans = make_policy("bold", roller).plan(Table(state, world(), config(), 0), RNG)
    state = apply_plans(state, 0, plans, world(), config())
    policy = make_policy("bold", roller)
    ships = plans[0].ships
    biggest = max(ships, key=lambda s: state.ship(s).displacement)
    assert policy.launch(Table(state, world(), config(), 0), RNG) == biggest
    blocked = place(state, "green-6a", 0.62, 0.105)  # a die lying on the start of the somalia north leg
    assert policy.launch(Table(blocked, world(), config(), 0), RNG) is None
    assert policy.launch(Table(state, world(), config(), 1), RNG) is None  # nothing to launch


def test_lookahead_rolls_at_most_its_budget_and_is_deterministic(roller):
    counting = CountingRoller(roller)
    state = place(game(), "red-24", 0.62, 0.30, card=Card(40, N), route="somalia")
    state = place(state, "green-24", 0.62, 0.45, card=Card(40, S), route="somalia")
    table = Table(state, world(), config(), 0)
    for budget in (0, 1, 3):
        policy = make_policy("ev", counting, rolls=budget)
        policy.model(table)  # calibration and the survey of the map are made once per process, outside the budget
        policy.survey(table.world, table.config)
        before = counting.rolls
        first = policy.throw(table, "red-24", RNG)
        assert counting.rolls - before == budget
        assert policy.throw(table, "red-24", RNG) == first
        check_throw(state, "red-24", first.origin, first.heading, world(), config())  # R16


def test_two_strategies_play_a_whole_round(roller):
    cfg = config(rounds=1)
    setup = GameSetup(seed=3, seats=(Seat("bold"), Seat("cautious")), rules=cfg, record_paths=False)
    result = play_game(setup, world(), roller)
    assert result.throws > 0
    kinds = {e["kind"] for e in result.events}
    assert {"plan", "throw", "final"} <= kinds


def test_a_designers_big_fleet_is_planned_quickly_and_legally(roller):
    fleet = tuple(ShipSpec(f"s{i}", (2, 2, 2, 2, 2, 2)) for i in range(12))  # twelve 12s: the search keeps 8
    cfg = config(fleet=fleet)
    state = game(cfg, held=((Card(60, N), Card(40, S)), (Card(30, N),)))
    started = time.process_time()
    plans = make_policy("cautious", roller, ship_cost=0.0, voyages=4).plan(Table(state, world(), cfg, 0), RNG)
    assert time.process_time() - started < 2.0
    check_plans(state, 0, plans, world(), cfg)
    # 8 ships of 12 are considered: 60 needs 5 of them and 40 needs 4, so only one can go, the 60
    assert {p.card.value: len(p.ships) for p in plans} == {60: 5, 40: 0}
