"""The survey of the map in play: deterministic across processes, its own per map, cached by all that changes it,
sailed on a private roller, and the aim's predicted risks held to what physics does."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from shapely import box

from physics import SimSettings
from rules_fixtures import N, S, config, world
from somaliland.map import default_map, load
from somaliland.map.model import Land
from somaliland.players.aim import Spread
from somaliland.players.hazards import AimWeights
from somaliland.players.legs import LegSurvey, measured_odds
from somaliland.players.survey import (CONVOY, convoy_runs, convoy_size, leg_seed, map_digest,
                                       sea_rules, survey)
from somaliland.errors import UsageError
from somaliland.rules import RulesConfig
from test_players_calibration import CountingRoller, per_roll_roller  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "maps" / "tiny.toml"
AIM = {"spread": Spread(), "weights": AimWeights(), "tumble": 0.05}
DIGEST = """
from physics import make_roller
from somaliland.map import default_map, load
from somaliland.players.aim import Spread
from somaliland.players.hazards import AimWeights
from somaliland.players.survey import survey
from somaliland.rules import RulesConfig
with make_roller() as roller:
    found = survey(roller, load("maps/tiny.toml"), RulesConfig(), spread=Spread(), weights=AimWeights(), tumble=0.05,
                   voyages=2)
print(repr(found.legs))
"""


def straits(m):
    """Return the test map with two capes that leave a 4 cm strait in the full-value lane."""
    return replace(m, lands=m.lands + (Land("west cape", box(0.50, 0.40, 0.60, 0.44)),
                                       Land("east cape", box(0.64, 0.40, 0.75, 0.44))))


def test_the_survey_is_the_same_in_another_process(roller, tmp_path):
    here = survey(roller, load(TINY), RulesConfig(), voyages=2, **AIM)
    there = subprocess.run([sys.executable, "-c", DIGEST], capture_output=True, text=True, check=True, cwd=ROOT,
                           env={**os.environ, "SOMALILAND_CACHE": str(tmp_path)})  # sailed there, not read back
    assert there.stdout.strip() == repr(here.legs)


def test_every_leg_is_sailed_and_counted(roller):
    found = survey(roller, load(TINY), RulesConfig(), voyages=2, **AIM)
    assert [(g.route, g.direction) for g in found.legs] == [("somalia", N), ("somalia", S), ("africa", N),
                                                            ("africa", S)]
    for g in found.legs:
        assert g.voyages == 2 and sum(g.arrivals) <= 2 and len(g.arrivals) == 6  # R15, D10: six turns
        assert len(g.remaining) == len(g.made_good) == len(g.landed) >= 2  # one entry a turn at sea
        assert sum(g.landed) == sum(g.arrivals)
        assert g.throws >= sum(g.arrivals) and g.aground + g.off_board <= g.throws
        assert g.company == 2 * 2 - 1 and g.convoy_ships == 2 * convoy_runs(2) == 2  # a quick survey's convoys
        assert 0 <= g.slowing <= 1 / g.company
    # one convoy is one sample of a crowd's luck: a full survey sails several (CONVOY_RUNS_MAX at most)
    assert (convoy_size(16), convoy_runs(16), convoy_size(8), convoy_runs(8), convoy_runs(40)) == (CONVOY, 6, CONVOY, 6, 6)
    assert (convoy_runs(2), convoy_runs(4)) == (1, 3)


def test_each_map_gets_its_own_survey(roller):
    plain = survey(roller, world(), config(), voyages=2, **AIM)
    narrowed = survey(roller, straits(world()), config(), voyages=2, **AIM)
    assert map_digest(world()) != map_digest(straits(world()))
    assert plain.legs != narrowed.legs
    assert leg_seed(map_digest(world()), "somalia", N).entropy != leg_seed(map_digest(world()), "somalia", S).entropy


def test_another_survey_draw_sails_other_hands_on_the_same_map(roller):
    """`survey_draw` (a parameter of every strategy): draw 0 is the survey every player sails; another draw
    seeds the same legs from the map's digest plus "|drawN", so its voyages scatter otherwise."""
    from somaliland.players.strategies import make_policy
    from somaliland.players.survey import survey_digest

    default = survey(roller, world(), config(), voyages=2, **AIM)
    assert survey(roller, world(), config(), voyages=2, draw=0, **AIM) is default
    other = survey(roller, world(), config(), voyages=2, draw=1, **AIM)
    assert other.legs != default.legs
    assert (survey_digest(world()), survey_digest(world(), 2)) == (map_digest(world()), map_digest(world()) + "|draw2")
    assert make_policy("ev", roller, survey_draw=1, voyages=2).survey_draw == 1
    with pytest.raises(UsageError, match="survey_draw = -1"):
        make_policy("ev", roller, survey_draw=-1)


def test_maps_sailed_with_the_same_luck_keep_their_own_surveys(roller):
    """`luck` (what `map measure A B` compares by) seeds every map's legs alike, but each map is still sailed: a
    map whose strait narrows the full-value lane measures otherwise, and neither is the map's own draw."""
    plain = survey(roller, world(), config(), voyages=2, luck="compare", **AIM)
    narrowed = survey(roller, straits(world()), config(), voyages=2, luck="compare", **AIM)
    assert plain is not narrowed and plain.legs != narrowed.legs
    assert plain.legs != survey(roller, world(), config(), voyages=2, **AIM).legs


def test_the_survey_reads_the_maps_geometry_not_its_files_text(tmp_path):
    text = TINY.read_text()
    edited = tmp_path / "edited.toml"
    edited.write_text("# a designer's note\n" + text.replace('name = "Isle"', 'name = "Islet"'))
    assert load(edited).sha256 != load(TINY).sha256
    assert map_digest(load(edited)) == map_digest(load(TINY))  # same sea, same survey


def test_the_survey_is_cached_by_all_that_changes_it(per_roll_roller):
    counting = CountingRoller(per_roll_roller)
    first = survey(counting, world(), config(), voyages=3, **AIM)
    rolled = counting.rolls
    assert rolled > 0
    assert survey(counting, world(), config(), voyages=3, **AIM) is first
    # options a voyage without pirates never meets do not enter the key; its own rules do
    assert survey(counting, world(), config(pirate_targets="full_route", rounds=2), voyages=3, **AIM) is first
    assert counting.rolls == rolled
    assert sea_rules(config(max_moves=4)) != sea_rules(config())
    other = survey(counting, world(), config(), voyages=3, spread=Spread(speed_sd=0.2), weights=AimWeights(),
                   tumble=0.05)
    assert other is not first and counting.rolls > rolled  # another hand model sails again


def test_a_roller_keeping_a_world_per_game_is_never_rolled(roller):
    kept = CountingRoller(roller)
    kept.settings = SimSettings(world="per_game")
    survey(kept, world(), config(), voyages=2, **AIM)
    assert kept.rolls == 0  # the survey rolls on a private roller of the same settings


def test_measured_odds_weigh_a_prior_as_two_turns():
    prior = measured_odds([], [], [], None)
    assert prior.hit == 0.5  # a leg never sailed near its zone keeps even chances
    odds = measured_odds([0.5, 0.15, 0.1], [0.3, 0.1, 0.1], [False, True, True], replace(prior, stride=0.2))
    assert odds.stride == pytest.approx((0.5 + 2 * 0.2) / 5)  # 0.18 m a turn
    assert odds.hit == pytest.approx((2 + 2 * 0.5) / 4)  # turns begun within 0.18 m: the last two, both arrived


def test_the_aims_predicted_risks_match_physics():
    """On the default map (20 lone voyages a leg, the survey's own seeds), the aim's predicted chances of
    leaving the board and of running aground, summed over every throw, are within 5 points of what happened."""
    from physics import make_roller

    with make_roller() as own:
        found = survey(own, default_map(), RulesConfig(), voyages=20, **AIM)
    throws = sum(g.throws for g in found.legs)
    assert throws > 150
    predicted_off = sum(g.predicted_off_board for g in found.legs) / throws
    predicted_aground = sum(g.predicted_aground for g in found.legs) / throws
    off = sum(g.off_board for g in found.legs) / throws
    aground = sum(g.aground for g in found.legs) / throws
    assert predicted_off == pytest.approx(off, abs=0.05)
    assert predicted_aground == pytest.approx(aground, abs=0.05)


def test_leg_survey_reports_a_leg_that_does_not_arrive_in_time():
    g = LegSurvey("somalia", N, True, 1.0, 6, 4, (0, 0, 0, 0, 1, 0), 24, 0, 0, 0, (), (), (), 0.0, 0.0, 0, 0, 0,
                  0, 0, 0)
    assert math.isinf(g.median_turns) and g.within_limit == 0.25
