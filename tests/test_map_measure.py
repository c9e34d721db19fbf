"""The firm throw that `somaliland map measure` reports beside the players' survey."""

import numpy as np

from somaliland.map import load
from somaliland.map import measure
from somaliland.seeding import make_rng

TINY = load("maps/tiny.toml")


def test_firm_throw_rolls_about_half_a_metre(roller):
    distances = measure.roll_distances(roller, TINY, make_rng(1), 12)
    assert 0.30 < float(np.median(distances)) < 0.70  # the README's 51 cm, from 200 throws


def test_firm_throws_scatter_in_speed_and_spin():
    throw = measure.firm_throw(make_rng(3), (0.1, 0.1), 0.0)
    assert abs(throw.speed / measure.FIRM_SPEED - 1) <= measure.SPEED_SPREAD
    assert all(abs(w) <= measure.SPIN for w in throw.spin) and throw.release_height == measure.RELEASE


# -- pirate exposure (somaliland/players/exposure.py) ------------------------------------------------------
import math  # noqa: E402

import pytest  # noqa: E402

from physics.lab import wilson_interval  # noqa: E402
from somaliland.map.model import Direction  # noqa: E402
from somaliland.players import comparison, exposure  # noqa: E402
from somaliland.players.survey import LegSurvey  # noqa: E402
from somaliland.rules import RulesConfig  # noqa: E402


def leg_survey(made_good, landed, route="somalia", direction=Direction.NORTH, turns=6, aground=0, off_board=0,
               full_value=True) -> LegSurvey:
    """A leg's survey built by hand from its log of turns (voyages follow from where each ends)."""
    voyages = exposure.turn_ends(LegSurvey(route, direction, full_value, 0.27, turns, 0, (), 0, 0, 0, 0, (),
                                           tuple(made_good), tuple(landed), 0, 0, 0, 0, 0, 0, 0, 0), 0.0)
    arrivals = [0] * turns
    k = 0
    for ends in voyages:
        k += len(ends) + 1 if len(ends) < turns else len(ends)
        if landed[k - 1]:
            arrivals[len(ends)] += 1
    return LegSurvey(route, direction, full_value, 0.27, turns, len(voyages), tuple(arrivals), len(made_good),
                     aground, off_board, 0, tuple(0.0 for _ in made_good), tuple(made_good), tuple(landed), 0, 0, 15,
                     0, 0, 0, 0, 0)


def test_each_leg_s_closest_pass_to_a_port_is_exact_geometry():
    """maps/tiny.toml: the east passage runs up x = 25 cm, the west up x = 5 cm, from y = 9 (north) or 31 (south)
    cm; the Cove is at (20, 20) cm: 5 and 15 cm off the lines, 11 cm along either leg."""
    for route, distance in (("somalia", 0.05), ("africa", 0.15)):
        for direction in Direction:
            (only,) = exposure.passes(TINY, TINY.route(route), direction)
            assert only.port == "Cove"
            assert only.distance == pytest.approx(distance, abs=1e-12) and only.along == pytest.approx(0.11, abs=1e-12)


def test_turn_ends_follow_each_voyage_from_its_start():
    """Three voyages of a 3-turn round: arrived in turn 2; never arrived (a lost turn, then back 1 cm); arrived at
    launch. Progress from a start 0.06 m along the line."""
    made = [0.10, 0.20, 0.12, 0.0, -0.01, 0.30]
    landed = [False, True, False, False, False, True]
    leg = LegSurvey("somalia", Direction.NORTH, True, 0.27, 3, 3, (1, 1, 0), 4, 0, 0, 1, (0.0,) * 6, tuple(made),
                    tuple(landed), 0, 0, 15, 0, 0, 0, 0, 0)
    assert exposure.turn_ends(leg, 0.06) == [[pytest.approx(0.16)], [pytest.approx(0.18), pytest.approx(0.18),
                                                                      pytest.approx(0.17)], []]


def test_a_ship_is_taken_when_every_other_ship_of_the_crowd_lies_further_from_the_ports():
    """One ship each way (company 1), one turn. Ours end 1 or 3 (cm) from the port, even odds; the other leg's 2,
    or arrived. At 1 we are nearest for sure; at 3 only if the other has arrived: (1 + 1/2) / 2 = 0.75."""
    ones = np.ones((1, 2))
    taken = exposure.crowd_seizures(np.array([[1.0], [3.0]]), np.array([[2.0], [math.inf]]), 1, ones, ones)
    assert taken == pytest.approx([0.75])
    theirs = exposure.crowd_seizures(np.array([[2.0], [math.inf]]), np.array([[1.0], [3.0]]), 1, ones, ones)
    assert theirs == pytest.approx([0.25])  # together: the one seizure, made whenever a ship is at sea


def test_a_turn_s_seizure_is_shared_out_whole_among_the_crowd():
    """Exact: the crowd's expected seizures in a turn add up to the chance that some ship of it is at sea then (one
    is taken whenever one is there, R13), ties shared. Random distances, some repeated, a third of them arrived."""
    rng = np.random.default_rng(5)
    own, other = rng.integers(0, 12, (20, 4)).astype(float), rng.integers(0, 12, (13, 4)).astype(float)
    own[rng.random(own.shape) < 1 / 3] = math.inf
    other[rng.random(other.shape) < 1 / 3] = math.inf
    company = 4
    shares = [np.isfinite(d).mean(axis=0) for d in (own, other)]
    some = (1 - (1 - shares[0]) ** company * (1 - shares[1]) ** company).sum()
    total = company * (exposure.crowd_seizures(own, other, company, np.ones((1, 20)), np.ones((1, 13)))
                       + exposure.crowd_seizures(other, own, company, np.ones((1, 13)), np.ones((1, 20))))
    assert total == pytest.approx([some], rel=1e-12)


def test_a_safe_route_and_a_map_without_ports_expect_no_seizure():
    north = leg_survey([0.1, 0.1, 0.3], [False, False, True])
    south = leg_survey([0.1, 0.1, 0.3], [False, False, True], direction=Direction.SOUTH)
    west = [leg_survey([0.1, 0.3], [False, True], route="africa", direction=d, full_value=False) for d in Direction]
    from somaliland.players.survey import Survey

    found = exposure.exposure(TINY, Survey((north, south, *west)), RulesConfig(), 8)
    assert [e.targeted for e in found] == [True, True, False, False]  # D15: the west passage is safe
    assert found[0].seizures > 0 and found[2].seizures == found[3].seizures == 0.0
    literal = exposure.exposure(TINY, Survey((north, south, *west)), RulesConfig(pirate_targets="any_route"), 8)
    assert literal[2].targeted and literal[2].seizures > 0  # R13 as written


# -- comparing two maps (somaliland/players/comparison.py) ----------------------------------------------------
def test_voyages_needed_follow_the_intervals_widths_and_do_separate_them():
    """A bootstrap interval's half-width shrinks as 1 / sqrt(voyages): figures 0.1 apart whose facing half-widths
    add to 0.2 need four times the voyages. Shares need the fewest voyages at which their Wilson intervals part:
    50% and 75% of 16 voyages overlap; of the count given they part, of one fewer they do not. Groundings count
    throws: three throws a voyage part them with a third of the voyages (rounded up)."""
    a, b = comparison.Figure(0.5, 0.4, 0.6), comparison.Figure(0.6, 0.5, 0.7)
    assert comparison.needed(16, a, b) == comparison.needed(16, b, a) == 64
    n = 16
    first, second = (comparison.Figure(p, *wilson_interval(p * n, n), 1.0) for p in (0.5, 0.75))
    assert first.high > second.low
    needed = comparison.needed(n, first, second)
    for voyages, parted in ((needed, True), (needed - 1, False)):
        assert (wilson_interval(0.5 * voyages, voyages)[1] < wilson_interval(0.75 * voyages, voyages)[0]) is parted
    thrice = [comparison.Figure(f.value, f.low, f.high, 3.0) for f in (first, second)]
    assert comparison.needed(n, *thrice) == math.ceil(needed / 3)


def test_voyages_are_added_while_intervals_overlap_up_to_the_cap():
    overlap = [comparison.Difference("alone", comparison.Figure(1, 0.8, 1), comparison.Figure(0.9, 0.7, 1),
                                     comparison.OVERLAP, needed)
               for needed in (20, 40)]
    assert comparison.next_voyages(overlap, 16, 64) == 40
    assert comparison.next_voyages(overlap[:1], 16, 64) == 32  # at least twice as many
    assert comparison.next_voyages(overlap, 16, 24) == 24 and comparison.next_voyages(overlap, 64, 64) is None
    told = [comparison.Difference("alone", comparison.Figure(1, 0.9, 1), comparison.Figure(0.5, 0.3, 0.7),
                                  comparison.APART)]
    assert comparison.next_voyages(told, 16, 64) is None
    convoy = [comparison.Difference("convoy", comparison.Figure(0.75, 0.6, 0.85), comparison.Figure(0.58, 0.44, 0.7),
                                    comparison.OVERLAP, 200, comparison.CONVOY_SHIPS)]
    assert comparison.next_voyages(convoy, 16, 64) is None  # more voyages add no convoy


def test_the_same_voyages_make_a_difference_the_map_s_alone():
    """A leg sailed by the very same voyages in both maps (an edit the voyages never meet, such as a moved port)
    has equal figures but its seizures, and that difference owes nothing to luck."""
    leg = leg_survey([0.1, 0.1, 0.3, 0.2, 0.3], [False, False, True, False, True], aground=1)
    near = exposure.Exposure("somalia", Direction.NORTH, (), True, 0.3, (0.2, 0.4), 2.0)
    far = exposure.Exposure("somalia", Direction.NORTH, (), True, 0.1, (0.05, 0.35), 2.0)
    verdicts = {d.measure: d.verdict for d in comparison.compare(leg, near, leg, far, True)}
    assert verdicts == {"alone": "same", "aground": "same", "off board": "same", "convoy": "same",
                        "seizures": "same voyages"}
    other = leg_survey([0.1, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], [False, True] + [False] * 6, aground=3)
    found = {d.measure: d for d in comparison.compare(leg, near, other, far, False)}
    assert found["seizures"].verdict == "overlap" and found["seizures"].needed > other.voyages
    assert found["alone"].verdict == "overlap"  # 2 of 2 against 1 of 2 arrived


def test_a_leg_sailed_by_the_same_voyages_says_why_its_seizures_differ(capsys):
    """The leg's own voyages are the same in both maps but its route's other leg's are not: its seizures differ
    because a voyage's crowd holds the other leg's voyages too (exposure.py), and the line says so; a leg whose own
    voyages differ needs no such word."""
    from somaliland.cli.map_measure import _print_comparison

    leg = leg_survey([0.1, 0.1, 0.3, 0.2, 0.3], [False, False, True, False, True], aground=1)
    near = exposure.Exposure("somalia", Direction.SOUTH, (), True, 0.3, (0.2, 0.4), 2.0)
    far = exposure.Exposure("somalia", Direction.SOUTH, (), True, 0.1, (0.05, 0.35), 2.0)
    diffs = comparison.compare(leg, near, leg, far, False)  # the route as a whole was not sailed alike
    legs = [{"route": "somalia", "direction": "south", "label": "east passage", "full_value": True, "length_cm": 27.0}]
    data = [{"turns": 6, "legs": legs}, {"turns": 6, "legs": legs}]
    for same_leg, told in ((True, True), (False, False)):
        _print_comparison(data, [(None, [(("somalia", "south"), diffs, same_leg)])], ["a.toml", "b.toml"], [16], 64)
        (line,) = [x for x in capsys.readouterr().out.splitlines() if "seizures a voyage" in x]
        assert "-0.20, not told apart: about" in line
        assert line.endswith("; this leg's voyages are the same, but a voyage's seizures depend on its crowd, which "
                             "holds the route's other leg's voyages too, and those differ") is told
