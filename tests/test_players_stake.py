"""A ship's stake in its owner's contracts (somaliland/players/stake.py; R9, R10, R13, R21, D6, D15), the search's
`search_stake` weight that uses it, and what it leaves alone."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from rules_fixtures import N, config, game, place, world
from somaliland.map.model import Direction
from somaliland.players.hazards import LegOdds
from somaliland.players.policy import Table
from somaliland.players.search import SearchWeights
from somaliland.players.stake import exposure, ship_chance, stake
from somaliland.players.strategies import make_policy
from somaliland.rules import Card, Status

ODDS = LegOdds(stride=0.2, hit=0.5)
ALL_LEGS = {(route, d): ODDS for route in ("somalia", "africa") for d in Direction}


def table(state, cfg=None) -> Table:
    return Table(state, world(), cfg or config(), 0)


def test_R9_a_lone_ship_carrying_its_contract_has_all_of_it_at_stake() -> None:
    state = place(game(), "red-24", 0.62, 0.3, card=Card(24, N), route="somalia")
    assert stake(table(state), "red-24", ALL_LEGS) == 1.0
    safe = place(game(), "red-24", 0.12, 0.3, card=Card(24, N), route="africa")
    assert stake(table(safe), "red-24", ALL_LEGS) == 1.0  # R21: a share of the half value the safe route pays


def test_R9_a_ship_whose_contract_the_arrived_ships_already_carry_has_nothing_at_stake() -> None:
    state = place(game(), "red-24", 0.62, 0.8, status=Status.ARRIVED, card=Card(24, N), route="somalia")
    state = place(state, "red-18", 0.62, 0.3, card=Card(24, N), route="somalia")
    assert stake(table(state), "red-18", ALL_LEGS) == 0.0


def test_R9_a_ship_whose_contract_can_no_longer_be_fulfilled_has_nothing_at_stake() -> None:
    state = place(game(), "red-18", 0.62, 0.3, card=Card(30, N), route="somalia")
    state = place(state, "red-12", status=Status.SUNK, card=Card(30, N), route="somalia")
    assert stake(table(state), "red-18", ALL_LEGS) == 0.0


def test_R9_two_ships_each_enough_share_the_stake_by_the_others_chance() -> None:
    state = place(game(), "red-24", 0.62, 0.5, card=Card(18, N), route="somalia")
    state = place(state, "red-18", 0.62, 0.3, card=Card(18, N), route="somalia")
    t = table(state)
    other = ship_chance(t, state.ship("red-24"), ODDS)
    assert 0.0 < other < 1.0
    assert stake(t, "red-18", ALL_LEGS) == pytest.approx(1.0 - other)
    # the ship nearer its destination is the surer: the one behind it has less at stake than it has
    assert stake(t, "red-24", ALL_LEGS) > stake(t, "red-18", ALL_LEGS)


def test_R9_a_ship_needed_with_another_has_that_ships_chance_at_stake() -> None:
    state = place(game(), "red-24", 0.62, 0.5, card=Card(40, N), route="somalia")
    state = place(state, "red-18", 0.62, 0.3, card=Card(40, N), route="somalia")
    t = table(state)
    assert stake(t, "red-18", ALL_LEGS) == pytest.approx(ship_chance(t, state.ship("red-24"), ODDS))


def test_chances_read_off_the_board_fall_with_distance_and_lost_turns() -> None:
    near = place(game(), "red-24", 0.62, 0.6, card=Card(24, N), route="somalia")
    far = place(game(), "red-24", 0.62, 0.2, card=Card(24, N), route="somalia")
    held = place(game(), "red-24", 0.62, 0.6, card=Card(24, N), route="somalia", skip=1)
    c = [ship_chance(table(s), s.ship("red-24"), ODDS) for s in (near, far, held)]
    assert c[0] > c[1] and c[0] > c[2]
    done = place(game(), "red-24", 0.62, 0.8, status=Status.ARRIVED, card=Card(24, N), route="somalia")
    gone = place(game(), "red-24", status=Status.SUNK, card=Card(24, N), route="somalia")
    assert ship_chance(table(done), done.ship("red-24"), ODDS) == 1.0
    assert ship_chance(table(gone), gone.ship("red-24"), ODDS) == 0.0


def test_R13_D15_exposure_to_ransom_only_where_pirates_hunt() -> None:
    gulf = place(game(), "red-24", 0.62, 0.3, card=Card(24, N), route="somalia")
    safe = place(game(), "red-24", 0.12, 0.3, card=Card(24, N), route="africa")
    assert exposure(table(gulf), "red-24") > 0.0
    assert exposure(table(safe), "red-24") == 0.0
    literal = config(pirate_targets="any_route")
    assert exposure(table(safe, literal), "red-24") > 0.0
    # a second ship the pirates may take halves the share of the turns' seizures that falls on this one
    crowded = place(gulf, "green-24", 0.62, 0.5, card=Card(24, N), route="somalia")
    assert exposure(table(crowded), "red-24") == pytest.approx(exposure(table(gulf), "red-24") / 2)


def test_search_stake_is_a_knob_of_search_off_by_default_and_not_part_of_the_survey(roller) -> None:
    plain = make_policy("search", roller)
    assert plain.search_weights.stake == 0.0
    staked = make_policy("search", roller, search_stake=1.0)
    assert staked.search_weights == SearchWeights(stake=1.0)
    assert staked.survey_key == plain.survey_key  # the survey's voyages do not read the stake
    assert make_policy("search", roller, search_prior=0.0).survey_key != plain.survey_key


def test_the_voyage_stake_blends_one_with_the_ships_stake(roller) -> None:
    state = place(game(), "red-24", 0.62, 0.8, status=Status.ARRIVED, card=Card(24, N), route="somalia")
    state = place(state, "red-18", 0.12, 0.3, card=Card(24, N), route="africa")
    t = table(state)

    class Legs:
        legs = tuple(type("Leg", (), {"route": r, "direction": d, "odds": ODDS})() for r, d in ALL_LEGS)

    for weight, expected in ((1.0, 0.0), (0.5, 0.5), (0.25, 0.75)):
        policy = make_policy("search", roller, search_stake=weight)
        policy.survey = lambda world, cfg: Legs()  # type: ignore[method-assign]
        assert math.isclose(policy.voyage_stake(t, "red-18"), expected)
