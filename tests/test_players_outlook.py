"""The numbers behind the players' judgement, against values worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rules_fixtures import N, world
from somaliland.players.hazards import AimWeights, arrival_chance
from somaliland.players.outlook import Outlook, fulfil_chance, poisson_at_most, voyage


def test_poisson_at_most():
    assert poisson_at_most(-1, 1.0) == 0.0
    assert poisson_at_most(0, 2.0) == pytest.approx(math.exp(-2))
    assert poisson_at_most(2, 1.0) == pytest.approx(math.exp(-1) * (1 + 1 + 0.5))


def test_fulfil_chance_counts_every_arriving_subset():  # R9: displacement of the ships that arrive
    assert fulfil_chance((24, 6), 30, 0.5) == pytest.approx(0.25)  # both must arrive
    assert fulfil_chance((24, 18, 12), 30, 0.5) == pytest.approx(0.5)  # any two, 24+18 or 24+12 or 18+12
    assert fulfil_chance((12,), 30, 1.0) == 0.0


def test_voyage_on_each_route():
    outlook = Outlook(stride=0.25, accident_rate=0.1)
    # 0.7 m needs 3 moves of 6: lost turns 0.3 from accidents, plus 3 captures shared by 2 + 1 ships
    full = voyage(0.7, 6, True, rivals=2.0, convoy=1, outlook=outlook)
    assert full.captures == pytest.approx(1.0)
    assert full.arrive == pytest.approx(poisson_at_most(3, 1.3))
    safe = voyage(0.7, 6, False, rivals=2.0, convoy=1, outlook=outlook)
    assert safe.captures == 0.0  # the pirates take the full-route ships, nearer their ports
    alone = voyage(0.7, 6, False, rivals=0.0, convoy=2, outlook=outlook)
    assert alone.captures == pytest.approx(1.5)  # nobody else at sea: R13 takes the nearest, wherever
    # ruling D15 (pirate_targets = "full_route", the default): the safe route is never taken
    assert voyage(0.7, 6, False, rivals=0.0, convoy=2, outlook=outlook, safe_targeted=False).captures == 0.0


def test_leg_length_on_the_test_map():
    # north leg: start (0.62, 0.10); the destination box 0.75-0.88 has its representative point mid-height
    assert world().leg_length("somalia", N) == pytest.approx(0.815 - 0.10, abs=1e-3)


def test_arrival_chance():
    w = AimWeights(stride=0.3, hit=0.6)
    chance = arrival_chance(np.array([0.0, 0.1, 0.3, 0.6, 0.6, 0.6]), np.array([0, 1, 1, 1, 2, 0]), w)
    # in the zone; one move to try from within reach; 0.6 m: one move to approach, then one try
    assert chance == pytest.approx([1.0, 0.6, 0.6, 0.0, 0.6, 0.0])
