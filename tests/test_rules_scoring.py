"""Contracts fulfilled and scored (R8–R11, R21, D5, D6), final standings and tie-breaks (R22, D14)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_fixtures import N, S, config, game, place, world
from somaliland.rules import (Card, IllegalActionError, Plan, Sheet, Status, apply_plans, best_allotment,
                              score_round, standings)
from somaliland.rules.allotment import Cargo, Hull, may_carry, value_of
from somaliland.seeding import make_rng


def arrived(state, seat_colour: str, ships: dict[str, tuple[Card, str]]):
    for name, (card, route) in ships.items():
        state = place(state, f"{seat_colour}-{name}", 0.62, 0.8, status=Status.ARRIVED, card=card, route=route)
    return state


def test_R8_R21_the_africa_route_scores_half_the_somalia_route_all() -> None:
    state = arrived(game(), "red", {"24": (Card(30, N), "somalia"), "6a": (Card(30, N), "somalia"),
                                    "18": (Card(34, S), "africa"), "12": (Card(34, S), "africa"),
                                    "8": (Card(34, S), "africa")})
    state, events = score_round(state, world(), config())
    sheet = state.sheets[0]
    assert (sheet.full, sheet.half, sheet.fulfilled, sheet.points) == (30, 34, 2, 47)
    assert [(e.kind, e.card, e.points, e.full_value) for e in events] == [
        ("fulfilled", "30N", 30, True), ("fulfilled", "34S", 17, False)]


def test_R9_a_contract_needs_arrived_displacement_at_least_its_value() -> None:
    state = arrived(game(), "red", {"24": (Card(32, N), "somalia"), "6a": (Card(32, N), "somalia")})
    state = place(state, "red-8", 0.62, 0.5, card=Card(32, N), route="somalia")  # still at sea: does not count
    state, events = score_round(state, world(), config())
    assert [e.kind for e in events] == ["failed"] and state.sheets[0].points == 0
    exact = arrived(game(), "red", {"24": (Card(30, N), "somalia"), "6a": (Card(30, N), "somalia")})
    exact, events = score_round(exact, world(), config())
    assert [e.kind for e in events] == ["fulfilled"] and exact.sheets[0].full == 30


def test_R10_no_ship_may_carry_two_contracts() -> None:
    state = game(held=((Card(30, N), Card(32, S)), ()))
    with pytest.raises(IllegalActionError) as caught:
        apply_plans(state, 0, (Plan(Card(30, N), "somalia", ("red-24", "red-8")),
                               Plan(Card(32, S), "africa", ("red-24",))), world(), config())
    assert "red-24" not in caught.value.legal and "red-18" in caught.value.legal


def test_R10_plans_must_use_own_afloat_ships_and_known_routes() -> None:
    state = game(held=((Card(30, N),), ()))
    with pytest.raises(IllegalActionError, match="green-24"):
        apply_plans(state, 0, (Plan(Card(30, N), "somalia", ("green-24",)),), world(), config())
    with pytest.raises(IllegalActionError, match="route"):
        apply_plans(state, 0, (Plan(Card(30, N), "suez", ("red-24",)),), world(), config())
    with pytest.raises(IllegalActionError, match="plans name"):
        apply_plans(state, 0, (), world(), config())


def test_R8_D5_a_plan_routes_the_contract_and_all_its_ships() -> None:
    state = game(held=((Card(30, N),), ()))
    state = apply_plans(state, 0, (Plan(Card(30, N), "africa", ("red-24", "red-8")),), world(), config())
    assert state.held[0][0].route == "africa"
    assert {(s.id, s.route, s.card) for s in state.fleet(0) if s.card} == {
        ("red-24", "africa", Card(30, N)), ("red-8", "africa", Card(30, N))}
    with pytest.raises(IllegalActionError, match="route_choice"):
        apply_plans(state, 0, (Plan(Card(30, N), "africa", ("red-24",), ("somalia",)),), world(), config())


def test_D5_ship_variant_a_contract_with_any_safe_route_ship_scores_half() -> None:
    cfg = config(route_choice="ship")
    state = game(cfg, held=((Card(30, N),), ()))
    state = apply_plans(state, 0, (Plan(Card(30, N), "somalia", ("red-24", "red-8"), ("somalia", "africa")),),
                        world(), cfg)
    assert state.ship("red-8").route == "africa"
    state = arrived(state, "red", {"24": (Card(30, N), "somalia"), "8": (Card(30, N), "africa")})
    state, events = score_round(state, world(), cfg)
    assert (state.sheets[0].full, state.sheets[0].half) == (0, 30) and events[0].points == 15


def test_D6_ships_on_the_same_route_and_direction_are_pooled_to_score_the_most() -> None:
    declared = {"24": (Card(30, N), "somalia"), "18": (Card(30, N), "somalia"),
                "12": (Card(32, N), "somalia"), "8": (Card(32, N), "somalia")}
    pooled, events = score_round(arrived(game(), "red", declared), world(), config())
    assert pooled.sheets[0].full == 62
    assert {e.card: set(e.ships) for e in events} == {"30N": {"red-18", "red-12"}, "32N": {"red-24", "red-8"}}
    apart, _ = score_round(arrived(game(), "red", declared), world(), config(pooled_allotment=False))
    assert apart.sheets[0].full == 30


def test_D6_pooling_never_mixes_routes_or_directions() -> None:
    declared = {"24": (Card(30, N), "somalia"), "18": (Card(30, N), "somalia"),
                "12": (Card(32, N), "africa"), "8": (Card(32, N), "africa")}
    state, _ = score_round(arrived(game(), "red", declared), world(), config())
    assert (state.sheets[0].full, state.sheets[0].half) == (30, 0)


def test_R22_ties_go_to_fewer_contracts_then_less_ransom() -> None:
    sheets = (Sheet(0, full=60, fulfilled=2), Sheet(1, full=60, fulfilled=1), Sheet(2, full=64, ransom=4, fulfilled=1),
              Sheet(3, full=40))
    table = standings(sheets, config(players=4))
    assert [s.seat for s in table.table] == [1, 2, 0, 3]  # all of 1, 2, 0 have 60 points
    assert table.winners == (1,)
    assert [s.place for s in table.table] == [1, 2, 3, 4]
    assert table.table[0].reason == "tie on points and contracts: less ransom paid (R22)"
    assert table.table[1].reason == "tie on points: fewer contracts fulfilled (R22)"
    assert table.table[2].reason == "more points"


def test_D14_a_full_tie_is_a_shared_win_recorded_as_such() -> None:
    sheets = (Sheet(0, full=60, fulfilled=1), Sheet(1, full=60, fulfilled=1), Sheet(2, full=10, fulfilled=1))
    table = standings(sheets, config(players=3))
    assert table.winners == (0, 1)
    assert [s.place for s in table.table] == [1, 1, 3]
    assert table.table[0].reason.endswith("shared place (D14)")


def test_D14_random_variant_draws_one_winner_with_the_passed_generator() -> None:
    sheets = (Sheet(0, full=60, fulfilled=1), Sheet(1, full=60, fulfilled=1))
    cfg = config(final_tie="random")
    first = standings(sheets, cfg, make_rng(1))
    assert first == standings(sheets, cfg, make_rng(1)) and len(first.winners) == 1
    assert [s.place for s in first.table] == [1, 2] and "drawn at random (D14)" in first.table[0].reason
    assert {standings(sheets, cfg, make_rng(seed)).winners for seed in range(20)} == {(0,), (1,)}
    with pytest.raises(ValueError):
        standings(sheets, cfg)


def _brute_force(cargoes, hulls, pooled):
    best = None
    options = [[None] + [c for c in range(len(cargoes)) if may_carry(h, c, cargoes[c], pooled)] for h in hulls]
    for choice in itertools.product(*options):
        chosen = [tuple(h for h, c in enumerate(choice) if c == k) for k in range(len(cargoes))]
        points = [value_of(cargoes[k], hulls, chosen[k]) for k in range(len(cargoes))]
        key = (sum(points), -sum(1 for p in points if p))
        best = key if best is None or key > best else best
    return best


routes = st.sampled_from(["somalia", "africa"])
directions = st.sampled_from([N, S])


@st.composite
def allotment_cases(draw):
    cargoes = tuple(Cargo(draw(st.integers(1, 40)), draw(directions), draw(routes))
                    for _ in range(draw(st.integers(0, 4))))
    hulls = tuple(Hull(draw(st.integers(0, 24)), draw(routes), draw(directions),
                       draw(st.integers(0, max(0, len(cargoes) - 1))), False) for _ in range(draw(st.integers(0, 6))))
    hulls = tuple(replace(h, full_value=h.route == "somalia") for h in hulls)
    return cargoes, hulls, draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(allotment_cases())
def test_R9_R10_D6_the_allotment_is_optimal_against_brute_force(case) -> None:
    cargoes, hulls, pooled = case
    allot = best_allotment(cargoes, hulls, pooled)
    used = [h for ships in allot.ships for h in ships]
    assert len(used) == len(set(used))  # R10: no ship carries two contracts
    for c, ships in enumerate(allot.ships):
        assert all(may_carry(hulls[h], c, cargoes[c], pooled) for h in ships)
        assert allot.half_points[c] == value_of(cargoes[c], hulls, ships)
    assert (sum(allot.half_points), -len(allot.fulfilled)) == _brute_force(cargoes, hulls, pooled)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 128), st.integers(0, 128), st.integers(0, 20), st.integers(0, 4)),
                min_size=2, max_size=4))
def test_R21_R22_standings_follow_points_then_fewer_contracts_then_less_ransom(rows) -> None:
    sheets = tuple(Sheet(i, full=f, half=h, ransom=r, fulfilled=n) for i, (f, h, r, n) in enumerate(rows))
    table = standings(sheets, config(players=len(rows)))
    keys = [(-sheets[s.seat].points, sheets[s.seat].fulfilled, sheets[s.seat].ransom) for s in table.table]
    assert keys == sorted(keys)
    assert all(s.points == sheets[s.seat].full + sheets[s.seat].half / 2 - sheets[s.seat].ransom
               for s in table.table)
    assert set(table.winners) == {s.seat for s in table.table if s.place == 1}


def test_R10_planning_again_replaces_the_earlier_plan() -> None:
    state = game(held=((Card(30, N),), ()))
    state = apply_plans(state, 0, (Plan(Card(30, N), "somalia", ("red-24", "red-6a")),), world(), config())
    state = apply_plans(state, 0, (Plan(Card(30, N), "africa", ("red-18", "red-12")),), world(), config())
    assert {s.id for s in state.fleet(0) if s.card} == {"red-18", "red-12"}
