"""The numbers behind the players' judgement of contracts, against values worked by hand from survey figures."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rules_fixtures import N, S, config, world
from somaliland.players.hazards import LegOdds, arrival_chance
from somaliland.players.outlook import companions, fulfil_chance, seizure_chances, voyage
from somaliland.players.legs import LegSurvey, Survey, arrival_within
from somaliland.players.planner import ransoms
from somaliland.rules import Card


def leg(arrivals: tuple[int, ...], voyages: int, *, route: str = "somalia", direction=N, full_value: bool = True,
        company: int = 0, convoy_ships: int = 0, convoy_arrived: int = 0) -> LegSurvey:
    """Return a leg survey with these lone arrivals per turn (and convoy counts); the rest does not matter here."""
    return LegSurvey(route, direction, full_value, 0.7, len(arrivals), voyages, arrivals, 10, 0, 0, 0, (), (), (),
                     0.0, 0.0, company, convoy_ships, convoy_arrived, 0, 0, 0)


def test_fulfil_chance_counts_every_arriving_subset():  # R9: displacement of the ships that arrive
    assert fulfil_chance((24, 6), 30, 0.5) == pytest.approx(0.25)  # both must arrive
    assert fulfil_chance((24, 18, 12), 30, 0.5) == pytest.approx(0.5)  # any two, 24+18 or 24+12 or 18+12
    assert fulfil_chance((12,), 30, 1.0) == 0.0


def test_fulfil_chance_sums_every_arriving_subset_in_order_to_the_last_bit():
    """The chance sums one term per subset that carries enough, in the order of the subsets' masks (bit i: ship i):
    a float sum's last bit depends on its order, and a game is chaotic, so the sum must be that one."""
    import random

    def by_every_subset(displacements, value, arrive):
        n, total = len(displacements), 0.0
        for mask in range(1 << n):
            if sum(d for i, d in enumerate(displacements) if mask >> i & 1) >= value:
                k = bin(mask).count("1")
                total += arrive ** k * (1 - arrive) ** (n - k)
        return total

    draw = random.Random(3)
    for _ in range(5000):
        fleet = tuple(draw.choice((6, 12, 18, 24, 30)) for _ in range(draw.randint(0, 7)))
        value, arrive = draw.choice((6, 12, 24, 30, 48, 60)), draw.random()
        assert fulfil_chance(fleet, value, arrive) == by_every_subset(fleet, value, arrive), (fleet, value, arrive)


def test_a_leg_survey_gives_the_chance_to_arrive_in_each_turn():
    g = leg((0, 2, 1, 0), 4)  # of 4 voyages: 2 arrived in turn 2, 1 in turn 3, 1 not in time
    assert [g.hazard(t) for t in (1, 2, 3, 4, 5)] == [0.0, 0.5, 0.5, 0.0, 0.0]
    assert [g.at_sea(t) for t in (0, 1, 2, 3)] == [1.0, 1.0, 0.5, 0.25]
    assert g.within_limit == 0.75 and g.median_turns == 2.5


def test_voyage_alone_is_the_survey():  # R15: the survey's own chance to arrive within the round
    g = leg((0, 2, 1, 0), 4)
    trip = voyage(g, (0.0,) * 4, 0.0)
    assert trip.arrive == pytest.approx(0.75) and trip.captures == 0.0


def test_a_seizure_costs_one_turn():  # R13, D8, D16: held for a turn, not taken again while held
    g = leg((0, 2, 2), 4)  # arrives in turn 2 or 3 of its voyage, half each
    trip = voyage(g, (0.5, 0.0, 0.0), 0.0)
    # half is taken after turn 1 and sails turns 2-3 of its voyage one turn late: it arrives in time only
    # if its voyage takes 2 turns (1/2). The free half arrives in its turn 2 or 3 (all of it).
    assert trip.arrive == pytest.approx(0.5 * 0.5 + 0.5)
    assert trip.captures == pytest.approx(0.5)


def test_company_slows_a_ship_as_the_convoys_measured():  # R18: collisions and waiting for a clear start
    g = leg((0, 2, 1, 0), 4, company=4, convoy_ships=10, convoy_arrived=4)
    scaled = arrival_within(tuple(g.hazard(t) for t in range(1, 5)), 1.0 - g.company * g.slowing)
    assert scaled == pytest.approx(0.4, abs=1e-6)  # the convoys' 4 of 10 within the round
    assert voyage(g, (0.0,) * 4, 4.0).arrive == pytest.approx(0.4, abs=1e-6)
    assert voyage(g, (0.0,) * 4, 2.0).arrive == pytest.approx(arrival_within((0, 0.5, 0.5, 0), 1 - 2 * g.slowing))
    assert leg((0, 2, 1, 0), 4, company=4, convoy_ships=10, convoy_arrived=9).slowing == 0.0  # company did not hurt


def test_seizure_chances_share_one_seizure_a_turn():  # R13, D15
    full = leg((0, 2, 2), 4)
    full_s = leg((0, 2, 2), 4, direction=S)
    safe = leg((0, 4, 0), 4, route="africa", full_value=False)
    safe_s = leg((0, 4, 0), 4, route="africa", direction=S, full_value=False)
    survey = Survey((full, full_s, safe, safe_s))
    traffic = (("somalia", 3.0), ("africa", 0.0))
    # turn 1: the convoy's other ship and 3 rivals all at sea; turn 2: half of each still at sea
    assert seizure_chances(full, survey, 2, traffic, config()) == pytest.approx((1 / 5, 1 / 3, 1.0))
    # R13 as written: the safe route is taken only when no full-value ship is at sea: each of the 3 is at
    # sea after turn 2 with chance 1/2, and none after turn 3
    assert (seizure_chances(safe, survey, 1, traffic, config(pirate_targets="any_route"))
            == pytest.approx((0.0, 0.5 ** 3, 1.0)))
    # D15 (the default): pirates take only ships on the full-value route
    assert seizure_chances(safe, survey, 1, traffic, config()) == (0.0, 0.0, 0.0)
    assert companions(full, 2, traffic) == 4.0  # arrived ships stay on the board as obstacles


def test_L2_seizure_chances_grow_with_the_ships_a_raid_takes():  # L2 "per_traffic": one per 2 at sea
    full = leg((0, 2, 2), 4)
    survey = Survey((full, leg((0, 2, 2), 4, direction=S), leg((0, 4, 0), 4, route="africa", full_value=False),
                     leg((0, 4, 0), 4, route="africa", direction=S, full_value=False)))
    traffic = (("somalia", 3.0), ("africa", 0.0))
    cfg = config(pirate_take="per_traffic", pirate_take_every=2)
    # 5 at sea in turn 1: 2.5 taken of 5; 3 in turn 2: 1.5 of 3; 1 in turn 3: at least one, of 1
    assert seizure_chances(full, survey, 2, traffic, cfg) == pytest.approx((0.5, 0.5, 1.0))
    assert seizure_chances(full, survey, 2, traffic, replace(cfg, pirate_take_every=10)) == pytest.approx(
        seizure_chances(full, survey, 2, traffic, config()))  # never fewer than one a raid


def test_L1_planning_prices_a_capture_at_the_ransom_in_force():
    card = Card(45, N)
    assert ransoms(config(), card, 7.5, 3) == 7.5  # the convoy's mean top faces (R13)
    assert ransoms(config(ransom="fixed", ransom_fixed=3), card, 7.5, 3) == 9.0
    assert ransoms(config(ransom="share", ransom_share_percent=10), card, 7.5, 3) == 15.0  # 5 a ship


def test_leg_length_on_the_test_map():
    # north leg: start (0.62, 0.10); the destination box 0.75-0.88 has its representative point mid-height
    assert world().leg_length("somalia", N) == pytest.approx(0.815 - 0.10, abs=1e-3)


def test_arrival_chance():
    odds = LegOdds(stride=0.3, hit=0.6)
    chance = arrival_chance(np.array([0.0, 0.1, 0.3, 0.6, 0.6, 0.6]), np.array([0, 1, 1, 1, 2, 0]), odds)
    # in the zone; one turn to try from within reach; 0.6 m: one turn to approach, then one try
    assert chance == pytest.approx([1.0, 0.6, 0.6, 0.0, 0.6, 0.0])
