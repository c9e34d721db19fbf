"""`somaliland tune`: tuning files, knob paths, geometric knobs, rejected candidates, racing, resume.

Fast: the tiny board, a toy objective from a fake evaluator (no games) for the search, and one small real
tuning (2 players, 1 round, a few games) for the pipeline through the study runner.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import tomlkit

from somaliland.cli.main import main
from somaliland.study.errors import StudyError
from somaliland.tune import parse_tuning
from somaliland.tune.candidate import base_documents, build
from somaliland.tune.measures import Estimate
from somaliland.tune.paths import Named, PathError, get, parse_path, put
from somaliland.tune.racing import Scored, front, safest, surely_beaten
from somaliland.tune.search import Rejected, _race_batch, run_search
from somaliland.tune.shapes import ShapeError, apply
from somaliland.tune.spec import Goal

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "maps" / "tiny.toml"
PYTHON = sys.executable

BASE = f"""
name = "toy"
map = "{TINY}"
master_seed = 5

[rules]
players = 2
rounds = 1

[seats]
strategy = ["bold", "cautious"]

[search]
trials = 6
batch = 2
rungs = [4, 16]
startup = 2

[validation]
games = 4

[[knob]]
name = "port_y"
path = "map:pirate_port[Cove].at[1]"
range = [12.0, 28.0]

[[target]]
measure = "seizure_share"
goal = [0.5, inf]
"""


def tuning_of(text: str, source: str = "toy.toml"):
    return parse_tuning(textwrap.dedent(text), source, ROOT)


# -- the tuning file ---------------------------------------------------------------------------------------


def test_a_good_tuning_file_gives_knobs_params_and_targets():
    t = tuning_of(BASE)
    assert [k.name for k in t.knobs] == ["port_y"]
    assert t.params[0].low == 12.0 and t.params[0].high == 28.0 and not t.params[0].integer
    assert t.targets[0].goal == Goal("range", 0.5, math.inf)
    assert (t.batches, t.top, t.validation_seed != t.master_seed) == (3, 16, True)


@pytest.mark.parametrize("path", sorted((ROOT / "experiments").glob("tune-*.toml")), ids=lambda p: p.name)
def test_every_shipped_tuning_loads(path: Path):
    from somaliland.tune import load_tuning

    tuning = load_tuning(path)
    assert tuning.knobs and tuning.targets and tuning.question, f"{path.name} should state its question"


@pytest.mark.parametrize("change, key, expected", [
    (("rungs = [4, 16]", "rungs = [16, 4]"), "search.rungs", "increasing game counts"),
    (('sampler = "x"\n', None), "search.sampler", "one of tpe, nsga2"),
    (('path = "map:pirate_port[Cove].at[1]"', 'path = "map:pirate_port[Eyl].at[1]"'), "knob[0].path",
     "the name of one item of pirate_port (Cove)"),
    (('path = "map:pirate_port[Cove].at[1]"', 'path = "map:pirate_port[Cove].at[2]"'), "knob[0].path",
     "an index of pirate_port[Cove].at from 0 to 1"),
    (("range = [12.0, 28.0]", "range = [28.0, 12.0]"), "knob[0].range", "low <= high"),
    (('path = "map:pirate_port[Cove].at[1]"', 'path = "rules:rounds"'), "knob[0].range",
     "two finite integers"),
    (('measure = "seizure_share"', 'measure = "fun"'), "target[0].measure", "one of full_route_share"),
    (("goal = [0.5, inf]", 'goal = "lots"'), "target[0].goal", "minimise"),
    (('strategy = ["bold", "cautious"]', 'strategy = "ev"\nskill = 2'), "seats.skill", "a throw skill"),
    (("players = 2", "players = 7"), "rules.players", "an integer from 2 to 4"),
    (("master_seed = 5", "master_seed = -1"), "master_seed", "a non-negative integer"),
    (("games = 4", "games = 4\nbase_games = 5"), "validation.base_games", "from 2 to validation.games (4)"),
])
def test_a_bad_tuning_file_is_refused_with_the_key_and_what_was_expected(change, key, expected):
    old, new = change
    text = BASE.replace(old, new) if new is not None else BASE.replace("[search]\n", "[search]\n" + old)
    with pytest.raises(StudyError) as caught:
        tuning_of(text)
    assert caught.value.key == key and expected in caught.value.expected and caught.value.source == "toy.toml"


def test_the_base_is_validated_on_as_many_games_as_the_chosen_unless_base_games_says_fewer():
    assert (tuning_of(BASE).validation_games, tuning_of(BASE).validation_base_games) == (4, 4)
    fewer = tuning_of(BASE.replace("games = 4", "games = 4\nbase_games = 2"))
    assert (fewer.validation_games, fewer.validation_base_games) == (4, 2)
    assert fewer.fingerprint == tuning_of(BASE).fingerprint  # [validation] may change between runs


def test_a_route_gap_target_takes_a_band_of_the_contract_values_and_refuses_another():
    text = BASE + '\n[[target]]\nmeasure = "route_gap"\nvalues = "cheap"\ngoal = [-inf, 0.0]\n'
    assert [t.name for t in tuning_of(text).targets] == ["seizure_share", "route_gap[cheap]"]
    with pytest.raises(StudyError, match=r"target\[1\]\.values: expected one of cheap, middle, dear, all"):
        tuning_of(text.replace('values = "cheap"', 'values = "lowest"'))


def test_a_rules_knob_whose_range_breaks_the_rules_is_refused_up_front():
    text = BASE.replace('path = "map:pirate_port[Cove].at[1]"\nrange = [12.0, 28.0]', 'path = "rules:rounds"\nrange = [0, 3]')
    with pytest.raises(StudyError, match=r"knob\[0\]\.range: expected an integer from 1 to 50, found 0"):
        tuning_of(text)


def test_a_rules_choice_knob_checks_every_choice():
    text = BASE + '\n[[knob]]\npath = "rules:pirate_targets"\nchoices = ["any_route", "gulf_only"]\n'
    with pytest.raises(StudyError, match=r"knob\[1\]\.choices\[1\]: expected one of full_route, any_route"):
        tuning_of(text)


def test_the_design_levers_are_rules_knobs_and_a_candidate_carries_them_L1_L2_L3_L4(tmp_path):
    from somaliland.rules.config import load_rules

    text = BASE.replace("rounds = 1\n", "rounds = 1\ncontract_cap_total = 74\n") + textwrap.dedent("""
        [[knob]]
        path = "rules:ransom"
        choices = ["top_face", "share"]

        [[knob]]
        name = "share"
        path = "rules:ransom_share_percent"
        range = [5, 30]

        [[knob]]
        name = "take"
        path = "rules:pirate_take"
        choices = ["one", "per_traffic"]

        [[knob]]
        name = "every"
        path = "rules:pirate_take_every"
        range = [2, 6]

        [[knob]]
        name = "moves"
        path = "rules:max_moves"
        range = [5, 8]

        [[knob]]
        name = "cap"
        path = "rules:contract_cap_total"
        range = [50, 90]
        """)
    tuning = tuning_of(text)
    values = {"port_y": 20.0, "rules:ransom": "share", "share": 12, "take": "per_traffic", "every": 3, "moves": 7,
              "cap": 60}
    candidate = build(tuning, values, tmp_path / "c")
    assert candidate.rejected == ""
    rules = load_rules(tmp_path / "c" / "rules.toml")
    assert (rules.ransom, rules.ransom_share_percent, rules.pirate_take, rules.pirate_take_every, rules.max_moves,
            rules.contract_cap_total) == ("share", 12, "per_traffic", 3, 7, 60)
    with pytest.raises(StudyError, match=r"knob\[1\]\.choices\[1\]: expected one of top_face, fixed, share"):
        tuning_of(BASE + '\n[[knob]]\npath = "rules:ransom"\nchoices = ["top_face", "pips"]\n')
    with pytest.raises(StudyError, match=r"knob\[1\]\.path: expected a path to a number \(for `range`\)"):
        tuning_of(BASE + '\n[[knob]]\npath = "rules:contract_cap_total"\nrange = [50, 90]\n')  # "fleet" by default


def test_the_command_prints_one_located_line_and_exits_2_for_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(BASE.replace("range = [12.0, 28.0]", "range = [12.0]"))
    assert main(["tune", str(bad), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}: knob[0].range: expected [low, high]" in err[0]


# -- knob paths --------------------------------------------------------------------------------------------


def test_paths_parse_keys_indices_and_names():
    assert parse_path("map:pirate_port[2].at[0]").steps == ("pirate_port", 2, "at", 0)
    assert parse_path('map:zone["North-east"].outline').steps == ("zone", Named("North-east"), "outline")
    assert parse_path("rules:fleet[5].faces[0]").steps == ("fleet", 5, "faces", 0)
    assert parse_path('rules:fleet["24"].faces[0]').steps == ("fleet", Named("24"), "faces", 0)  # a name of digits
    assert str(parse_path("map:routes.somalia.north.start[1]")) == "map:routes.somalia.north.start[1]"
    for bad in ("rounds", "game:rounds", "map:", "map:[0]", "map:a..b", "map:a[1"):
        with pytest.raises(PathError):
            parse_path(bad)


def test_paths_set_and_read_back_values_of_the_map_and_rules_keeping_comments():
    t = tuning_of(BASE)
    docs = base_documents(t)
    put(docs["map"], parse_path("map:pirate_port[Cove].at[1]"), 23.5)
    put(docs["map"], parse_path("map:routes.somalia.north.start[0]"), 24.0)
    put(docs["rules"], parse_path("rules:contract_values[0]"), 31)
    put(docs["rules"], parse_path('rules:fleet["24"].faces[0]'), 5)
    again = {f: tomlkit.parse(tomlkit.dumps(d)) for f, d in docs.items()}
    assert get(again["map"], parse_path("map:pirate_port[0].at")) == [20.0, 23.5]
    assert get(again["map"], parse_path("map:routes.somalia.north.start")) == [24.0, 9.0]
    assert get(again["rules"], parse_path("rules:contract_values"))[:2] == [31, 32]
    assert get(again["rules"], parse_path("rules:fleet[5].faces")) == [5, 4, 4, 4, 4, 4]
    assert get(again["rules"], parse_path("rules:rounds")) == 1  # the tuning's [rules] on the rules file
    assert "# the lagoon is water" in tomlkit.dumps(docs["map"])
    assert "# R3" in tomlkit.dumps(docs["rules"])
    with pytest.raises(PathError, match="a key of routes"):
        get(docs["map"], parse_path("map:routes.gulf.centre_line"))


def test_add_and_factor_knobs_move_every_number_under_a_path_and_keep_integers(tmp_path):
    text = BASE + textwrap.dedent("""
        [[knob]]
        path = "rules:contract_values"
        add = [-10, 10]

        [[knob]]
        name = "wide"
        path = "map:routes.africa.centre_line"
        factor = [0.5, 1.5]
        """)
    t = tuning_of(text)
    assert t.knobs[1].params[0][1].integer and not t.knobs[2].params[0][1].integer
    c = build(t, {"port_y": 20.0, "rules:contract_values": -4, "wide": 1.1}, tmp_path)
    assert tomlkit.parse((tmp_path / "rules.toml").read_text())["contract_values"][:3] == [26, 28, 30]
    assert tomlkit.parse(c.map_path.read_text())["routes"]["africa"]["centre_line"] == [[5.5, 3.3], [5.5, 40.7]]
    assert c.rejected.startswith("map check: ")  # the line's north end now lies off the 40 cm board


# -- geometric knobs ---------------------------------------------------------------------------------------


def test_moving_a_land_by_name_moves_its_outline_and_holes():
    doc = tomlkit.parse(TINY.read_text())
    isle = get(doc, parse_path("map:land[Isle]"))
    apply(isle, "move", 1.5, axis="dx")
    apply(isle, "move", -2.0, axis="dy")
    assert isle["outline"][0] == [11.5, 8.0] and isle["holes"][0][0] == [14.5, 16.0]


def test_scaling_a_zone_and_rotating_a_point_about_a_centre():
    from shapely import Polygon

    doc = tomlkit.parse(TINY.read_text())
    zone = get(doc, parse_path("map:zone[North-east]"))
    apply(zone, "scale", 0.5)
    assert Polygon(zone["outline"]).area == pytest.approx(9 * 6 / 4)
    assert Polygon(zone["outline"]).centroid.coords[0] == pytest.approx((24.5, 36.0))
    port = get(doc, parse_path("map:pirate_port[Cove].at"))
    apply(port, "rotate", 90.0, about=(20.0, 10.0))
    assert list(port) == pytest.approx([10.0, 10.0])
    start = get(doc, parse_path("map:routes.somalia.centre_line[1]"))
    apply(start, "move", 2.0, heading=180.0)
    assert list(start) == pytest.approx([23.0, 37.0])


def test_buffering_an_outline_grows_it_and_shrinks_its_holes_and_a_split_is_refused():
    from shapely import Polygon

    doc = tomlkit.parse(TINY.read_text())
    isle = get(doc, parse_path("map:land[Isle]"))
    apply(isle, "buffer", 1.0)
    assert Polygon(isle["outline"]).area == pytest.approx(12 * 22)
    assert Polygon(isle["holes"][0]).area == pytest.approx(2 * 2)
    rock = get(doc, parse_path("map:land[Rock]"))
    with pytest.raises(ShapeError, match="leaves nothing"):
        apply(rock, "buffer", -2.0)
    apply(rock, "buffer", 3.0, board=(30.0, 40.0))  # land grown past the board's edge is cut at the edge
    assert Polygon(rock["outline"]).bounds == pytest.approx((10.0, 32.0, 20.0, 40.0))


def test_a_geometric_knob_turns_into_dx_and_dy_parameters():
    text = BASE + textwrap.dedent("""
        [[knob]]
        name = "isle"
        feature = "map:land[Isle]"
        op = "move"
        dx = [-1.0, 1.0]
        dy = [-1.0, 1.0]
        """)
    assert [p.name for p in tuning_of(text).params] == ["port_y", "isle.dx", "isle.dy"]
    with pytest.raises(StudyError, match=r"knob\[1\]\.factor: expected a key of op move"):
        tuning_of(text.replace("dy = [-1.0, 1.0]", "factor = [1, 2]"))


# -- candidates --------------------------------------------------------------------------------------------


def test_a_pirate_port_moved_out_to_sea_is_rejected_by_the_map_check_with_its_reason(tmp_path):
    text = BASE.replace('name = "port_y"\npath = "map:pirate_port[Cove].at[1]"\nrange = [12.0, 28.0]',
                        'name = "port_x"\npath = "map:pirate_port[Cove].at[0]"\nrange = [20.0, 27.0]')
    t = tuning_of(text)
    ok = build(t, {"port_x": 21.0}, tmp_path / "ok")
    assert ok.rejected == "" and ok.rules["players"] == 2
    far = build(t, {"port_x": 26.0}, tmp_path / "far")
    assert far.rejected.startswith("map check: map.toml:")
    assert "pirate_port[0].at: expected a port on or within 2 cm of a coast" in far.rejected
    assert "out at sea 6.0 cm from the coast" in far.rejected


def test_a_rejected_candidate_is_recorded_never_played(tmp_path):
    text = BASE.replace('path = "map:pirate_port[Cove].at[1]"\nrange = [12.0, 28.0]',
                        'path = "map:pirate_port[Cove].at[0]"\nrange = [20.0, 29.0]')
    t = tuning_of(text.replace("trials = 6", "trials = 4"))
    fake = Toy(lambda v: 0.6)
    result = run_search(t, tmp_path, fake)
    rejected = [r for r in result.trials if r.rejected]
    assert rejected and all(r.values["port_y"] > 22.0 for r in rejected)
    assert all("within 2 cm of a coast" in r.rejected for r in rejected)
    assert {n for n, _ in fake.calls} == {r.number for r in result.trials if not r.rejected}


def test_a_candidate_some_of_whose_games_raised_is_rejected_with_the_count_and_first_error(tmp_path):
    t = tuning_of(BASE)
    toy = Toy(lambda v: v["port_y"] / 40)
    plain = toy.evaluate

    def evaluate(jobs, games):  # trial 1's games raise at the second rung
        found = plain(jobs, games)
        return {n: "2 of its first 16 games raised (game 5: ValueError: boom)" if n == 1 and games == 16 else e
                for n, e in found.items()}

    toy.evaluate = evaluate
    trials = {0: (None, SimpleNamespace(params={"port_y": 19.0})), 1: (None, SimpleNamespace(params={"port_y": 20.0}))}
    result = _race_batch(t, tmp_path, toy, trials, previous=[])
    assert result[1] == Rejected("2 of its first 16 games raised (game 5: ValueError: boom)", 16)
    assert isinstance(result[0], Scored) and result[0].games == 16
    searched = run_search(t, tmp_path / "search", toy)
    one = searched.trial(1)
    assert one.rejected.startswith("2 of its first 16 games raised") and one.scored is None and one.games == 16
    assert searched.chosen(t).number != 1
    assert searched.games_spent == sum(s.games for s in searched.played) + 16  # its games count as spent


def test_the_evaluator_reads_a_candidates_raised_games_as_its_reason_to_reject_it(tmp_path, monkeypatch):
    import pandas as pd

    from somaliland.tune import evaluate as ev
    from somaliland.tune.measures import Games

    empty = pd.DataFrame({"game": []})
    tables = {"errors": pd.DataFrame({"game": [7, 3, 40], "error": ["KeyError"] * 3, "message": ["'x'"] * 3})}
    monkeypatch.setattr(ev, "read_table", lambda folder, name: tables.get(name, empty))
    evaluator = ev.GameEvaluator(tuning_of(BASE), lambda: None, 1)
    monkeypatch.setattr(evaluator, "play", lambda *a: Games(empty, empty, empty, empty))
    found = evaluator.evaluate([(4, SimpleNamespace(folder=tmp_path, rules={}))], 16)
    assert found[4] == ("2 of its first 16 games raised (game 3: KeyError: 'x'); `somaliland study report` on its "
                        "folder lists them")
    tables["errors"] = tables["errors"][tables["errors"].game >= 16]  # game 40 is not among the first 16
    assert isinstance(evaluator.evaluate([(4, SimpleNamespace(folder=tmp_path, rules={}))], 16)[4], tuple)


def test_a_candidate_whose_games_cannot_estimate_a_steering_target_is_no_answer(tmp_path):
    from somaliland.tune.search import SearchResult, TrialResult

    t = tuning_of(BASE)
    undefined = Scored(0, 16, (Estimate(float("nan"), float("nan"), float("nan"), 16),))  # e.g. no capture at all
    assert not undefined.defined(t.targets) and undefined.weighted(t.targets) < float("inf")
    only = SearchResult((TrialResult(0, {"port_y": 20.0}, tmp_path, "", undefined),), 16)
    assert only.front(t) == [] and only.chosen(t) is None
    defined = Scored(1, 16, (Estimate(0.3, 0.2, 0.4, 16),))
    both = SearchResult(only.trials + (TrialResult(1, {"port_y": 21.0}, tmp_path, "", defined),), 16)
    assert both.chosen(t) is defined
    from somaliland.tune.report import write_report

    text = write_report(t, tmp_path, only, None, None, 1.0).read_text()
    assert "**No answer.** The games of none of the 1 candidates played on the full number of games estimate " \
           "every steering target" in text


def test_a_tuning_waits_for_cluster_workers_as_long_as_asked_then_stops(tmp_path):
    import concurrent.futures as cf

    from somaliland.tune.run import run_tuning

    class Never(cf.Executor):  # a cluster with no worker: nothing submitted ever runs
        def submit(self, fn, /, *args, **kwargs):
            return cf.Future()

    said = []
    with pytest.raises(StudyError, match=r"--cluster: workers: expected a Dask worker to play the games, found "
                                         r"'none for 0 s'; the finished games are kept"):
        run_tuning(tuning_of(BASE), BASE, tmp_path / "out", Never, 1, progress=False, cluster_threads=lambda: 0,
                   worker_wait_s=0.2, say=said.append)
    assert said == ["no worker left in the cluster: waiting up to 0 s for one to join"]
    assert (tmp_path / "out" / "optuna.db").exists()  # what the tuning had is kept: the same command resumes


def test_an_out_that_is_a_file_or_a_tuning_file_that_is_not_utf8_is_one_located_line(tmp_path, capsys):
    spec = tmp_path / "t.toml"
    spec.write_text(BASE)
    (tmp_path / "file").write_text("")
    assert main(["tune", str(spec), "--out", str(tmp_path / "file"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{tmp_path / 'file'}: --out: expected a tuning folder, found 'a file'" in err[0]
    spec.write_bytes(BASE.encode() + b"# caf\xe9\n")
    assert main(["tune", str(spec), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    lines = BASE.count("\n") + 1
    assert len(err) == 1 and f"{spec}: line {lines}: expected UTF-8 text, found 'byte 0xe9'" in err[0]
    latin = tmp_path / "latin.toml"
    latin.write_bytes(TINY.read_bytes() + b"# caf\xe9\n")
    assert main(["tune", str(tmp_path / "t2.toml"), "--quiet"]) == 2  # a missing file: one line too
    (tmp_path / "t2.toml").write_text(BASE.replace(str(TINY), str(latin)))
    capsys.readouterr()
    assert main(["tune", str(tmp_path / "t2.toml"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{latin}: line " in err[0] and "expected UTF-8 text" in err[0]


# -- racing and the search, on a toy objective -------------------------------------------------------------


class Toy:
    """A fake evaluator: the target's value is `f(params)`, its 95% interval +-0.2/sqrt(games), no games."""

    def __init__(self, f) -> None:
        self.f, self.calls = f, []

    def evaluate(self, jobs, games):
        out = {}
        for n, candidate in jobs:
            self.calls.append((n, games))
            values, half = self.f(candidate.values), 0.2 / math.sqrt(games)
            out[n] = tuple(Estimate(v, v - half, v + half, games)
                           for v in (values if isinstance(values, tuple) else (values,)))
        return out


def test_a_clearly_worse_candidate_stops_at_the_first_rung(tmp_path):
    t = tuning_of(BASE)  # seizure_share >= 0.5; the toy's value is port_y / 40
    toy = Toy(lambda v: v["port_y"] / 40)
    trials = {0: (None, SimpleNamespace(params={"port_y": 24.0})), 1: (None, SimpleNamespace(params={"port_y": 12.0}))}
    result = _race_batch(t, tmp_path, toy, trials, previous=[])
    assert (result[0].games, result[1].games) == (16, 4)  # 0.6 +- 0.1 is surely in the goal, 0.3 +- 0.1 surely not
    assert toy.calls == [(0, 4), (1, 4), (0, 16)]


def test_successive_halving_keeps_the_best_share_of_a_batch_after_each_rung(tmp_path):
    t = tuning_of(BASE.replace("startup = 2", "startup = 2\nkeep = 0.5"))
    toy = Toy(lambda v: v["port_y"] / 40)  # at 4 games: 0.5 +- 0.1 and 0.475 +- 0.1, neither surely beaten
    trials = {0: (None, SimpleNamespace(params={"port_y": 19.0})), 1: (None, SimpleNamespace(params={"port_y": 20.0}))}
    result = _race_batch(t, tmp_path, toy, trials, previous=[])
    assert (result[0].games, result[1].games) == (4, 16)
    with pytest.raises(StudyError, match="search.keep"):
        tuning_of(BASE.replace("startup = 2", "startup = 2\nkeep = 0"))


def test_racing_stops_only_what_another_candidate_surely_beats():
    t = tuning_of(BASE)
    good = Scored(0, 4, (Estimate(0.6, 0.55, 0.65, 4),))  # inside the goal, surely
    bad = Scored(1, 4, (Estimate(0.2, 0.1, 0.3, 4),))  # surely outside: loss at least 0.2
    unsure = Scored(2, 4, (Estimate(0.45, 0.3, 0.6, 4),))  # might reach the goal
    assert surely_beaten(bad, [good, bad, unsure], t.targets, single=True)
    assert not surely_beaten(unsure, [good, bad, unsure], t.targets, single=True)
    assert not surely_beaten(good, [good, bad, unsure], t.targets, single=True)
    assert [s.number for s in front([good, bad, unsure], t.targets)] == [0]


def test_the_chosen_candidate_is_the_one_whose_worse_end_is_best_not_the_luckiest_estimate():
    t = tuning_of(BASE)  # one target: >= 0.5
    lucky = Scored(0, 16, (Estimate(0.56, 0.30, 0.82, 16),))  # the better estimate, but it may well miss by 0.2
    sure = Scored(1, 16, (Estimate(0.52, 0.46, 0.58, 16),))  # a little worse, misses by at most 0.04
    assert lucky.weighted(t.targets) == sure.weighted(t.targets) == 0.0
    assert lucky.weighted_worst(t.targets) == pytest.approx(0.2)
    assert sure.weighted_worst(t.targets) == pytest.approx(0.04)
    assert safest([lucky, sure], t.targets) is sure
    unbounded = Scored(2, 16, (Estimate(0.9, float("nan"), float("nan"), 16),))  # the games cannot bound it
    assert safest([unbounded, lucky], t.targets) is lucky
    assert safest([unbounded], t.targets) is unbounded and safest([], t.targets) is None


def test_a_search_is_deterministic_given_its_seed_and_counts_the_games_stopping_saved(tmp_path):
    t = tuning_of(BASE)
    runs = []
    for name in ("a", "b"):
        toy = Toy(lambda v: v["port_y"] / 40)
        result = run_search(t, tmp_path / name, toy)
        runs.append([(r.number, r.values, r.scored) for r in result.trials])
    assert runs[0] == runs[1] and len(runs[0]) == 6
    stopped = [s for s in result.played if s.games == 4]
    assert stopped and result.games_saved == 12 * len(stopped)
    assert result.games_spent == sum(s.games for s in result.played) == 6 * 16 - result.games_saved
    assert result.chosen(t).games == 16 and result.chosen(t).estimates[0].value >= 0.5


def test_nsga2_finds_a_front_of_two_conflicting_targets_and_is_deterministic(tmp_path):
    text = BASE.replace("[search]\n", '[search]\nsampler = "nsga2"\n') + textwrap.dedent("""
        [[target]]
        measure = "game_length"
        goal = "minimise"
        """)
    t = tuning_of(text)
    runs = []
    for name in ("a", "b"):  # the port high up raises the first target and the second: they conflict
        result = run_search(t, tmp_path / name, Toy(lambda v: (v["port_y"] / 40, v["port_y"] / 10)))
        runs.append([(r.number, r.values, r.scored) for r in result.trials])
    assert runs[0] == runs[1]
    played = sorted(result.trial(s.number).values["port_y"] for s in result.complete)
    front = sorted(result.trial(s.number).values["port_y"] for s in result.front(t))
    # below 20 cm each port trades one target for the other; above, only the lowest meets the first for least
    assert front == [y for y in played if y < 20.0] + [min(y for y in played if y >= 20.0)] and len(front) >= 2


@pytest.mark.parametrize("sampler", ["tpe", "nsga2"])
def test_a_watched_target_of_weight_0_is_measured_but_does_not_steer_the_search(tmp_path, sampler):
    base = BASE.replace("[search]\n", f'[search]\nsampler = "{sampler}"\n')
    watched = base + textwrap.dedent("""
        [[target]]
        measure = "game_length"
        goal = "minimise"
        weight = 0
        """)
    t, plain = tuning_of(watched), tuning_of(base)
    assert [x.steers for x in t.targets] == [True, False]
    one = run_search(plain, tmp_path / "one", Toy(lambda v: v["port_y"] / 40))
    two = run_search(t, tmp_path / "two", Toy(lambda v: (v["port_y"] / 40, v["port_y"] / 10)))
    assert [(r.number, r.values) for r in one.trials] == [(r.number, r.values) for r in two.trials]
    assert [s.number for s in one.front(plain)] == [s.number for s in two.front(t)]
    assert one.chosen(plain).number == two.chosen(t).number
    assert all(len(r.scored.estimates) == 2 for r in two.trials if r.scored)  # measured all the same
    good = Scored(0, 4, (Estimate(0.6, 0.55, 0.65, 4), Estimate(9.0, 8.0, 10.0, 4)))
    other = Scored(1, 4, (Estimate(0.6, 0.55, 0.65, 4), Estimate(1.0, 0.5, 1.5, 4)))
    assert good.losses(t.targets) == (0.0,) and not surely_beaten(good, [good, other], t.targets, single=False)
    # the report shows it, marked, with its verdict
    from somaliland.tune.report import write_report
    from somaliland.tune.run import Validation

    est = (Estimate(0.6, 0.55, 0.65, 4), Estimate(3.0, 2.0, 4.0, 4))
    report = write_report(t, tmp_path / "two", two, two.chosen(t).number, Validation(1, 4, 4, est, est, 0), 1.0)
    text = report.read_text()
    assert "| game_length (watched) |" in text and "game_length (watched) 3" in text
    assert "(watched: measured and reported, not steering)" in text
    with pytest.raises(StudyError, match="at least one target with a weight above 0"):
        tuning_of(BASE.replace("goal = [0.5, inf]", "goal = [0.5, inf]\nweight = 0"))
    with pytest.raises(StudyError, match="a number >= 0"):
        tuning_of(BASE.replace("goal = [0.5, inf]", "goal = [0.5, inf]\nweight = -1"))


def test_the_front_figure_says_what_and_in_what_unit_starts_shares_at_0_and_keeps_its_legend_beside_the_data(
        tmp_path):
    import matplotlib.colors as mcolors

    from somaliland.study.figures import OKABE_ITO
    from somaliland.tune.report import draw_front, knob_axis, target_axis

    text = BASE.replace("[search]\n", '[search]\nsampler = "nsga2"\n') + textwrap.dedent("""
        [[target]]
        measure = "game_length"
        goal = "minimise"

        [[target]]
        name = "gap_cheap"
        measure = "route_gap"
        values = "cheap"
        goal = [-inf, 0.0]
        weight = 0
        """)
    t = tuning_of(text)
    share, length, gap = t.targets
    def words(axis):  # the label as read, lines joined
        return (axis[0].replace("\n", " "), *axis[1:])

    assert words(target_axis(share)) == ("turns with a full-value ship at sea in which the pirates seize one (%) "
                                         "target seizure_share", 100.0, True)
    assert target_axis(length) == ("game length (throws)\ntarget game_length", 1.0, True)
    what, scale, zero = words(target_axis(gap))  # a signed measure, its filter said in words, marked watched
    assert what == ("net points per sailed contract, full-value minus half-value route, cheapest "
                                       "third of the contract values (points) target gap_cheap (watched)")
    assert (scale, zero) == (1.0, False)
    assert knob_axis(t, "port_y") == "port_y (cm)\nsets map:pirate_port[Cove].at[1]"
    result = run_search(t, tmp_path, Toy(lambda v: (v["port_y"] / 40, v["port_y"] / 10, 0.0)))
    fig = draw_front(t, result, result.chosen(t).number)
    ax = fig.axes[0]
    assert ax.get_xlabel() == target_axis(share)[0] and ax.get_ylabel() == target_axis(length)[0]
    assert ax.get_xlim()[0] == 0.0 < 40 < ax.get_xlim()[1] <= 104  # a share in percent, from 0
    assert ax.get_ylim()[0] == 0.0  # a count of throws, from 0
    fig.canvas.draw()
    legend, data = ax.get_legend().get_window_extent(), ax.get_window_extent()
    assert legend.x0 >= data.x1  # beside the axes, not on the data
    allowed = {mcolors.to_hex(c) for c in (*OKABE_ITO, "0.6", "k")}
    drawn = {mcolors.to_hex(line.get_color()) for line in ax.get_lines()}
    assert drawn and drawn <= allowed  # Okabe-Ito, grey for the stopped, black for the front
    import matplotlib.pyplot as plt

    plt.close(fig)


def fake_search(out: str, pause: float) -> None:
    """Run the toy search in `out`, pausing in every evaluation (a subprocess the test kills)."""
    toy = Toy(lambda v: v["port_y"] / 40)
    slow = toy.evaluate

    def evaluate(jobs, games):
        time.sleep(pause)
        return slow(jobs, games)

    toy.evaluate = evaluate
    result = run_search(tuning_of(BASE.replace("trials = 6", "trials = 8")), Path(out), toy)
    Path(out, "result.json").write_text(json.dumps(
        [[r.number, r.values, r.rejected, r.scored and [r.scored.games, r.scored.estimates[0].as_list()]]
         for r in result.trials]))


def _kill_group(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def test_a_search_killed_with_sigkill_resumes_to_the_result_of_an_uninterrupted_one(tmp_path):
    code = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import test_tune as t; " \
           f"t.fake_search(sys.argv[1], float(sys.argv[2]))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([PYTHON, "-c", code, str(tmp_path / "whole"), "0"], check=True, env=env, cwd=ROOT)
    killed = tmp_path / "killed"
    proc = subprocess.Popen([PYTHON, "-c", code, str(killed), "0.3"], env=env, cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list((killed / "trials").glob("0003")):
        time.sleep(0.05)
    time.sleep(0.2)  # mid-batch: batch 1's candidates are built, some rungs played
    _kill_group(proc)
    import optuna

    states = [t.state.name for t in optuna.load_study(study_name="tune", storage=f"sqlite:///{killed / 'optuna.db'}")
              .get_trials(deepcopy=False)]
    assert "RUNNING" in states and not (killed / "result.json").exists()  # killed inside a batch
    subprocess.run([PYTHON, "-c", code, str(killed), "0"], check=True, env=env, cwd=ROOT)
    assert json.loads((killed / "result.json").read_text()) == json.loads((tmp_path / "whole" / "result.json").read_text())


# -- the whole pipeline, with real games -------------------------------------------------------------------

REAL = BASE.replace("trials = 6", "trials = 2").replace("rungs = [4, 16]", "rungs = [2, 3]") \
    .replace("games = 4", "games = 2")


def test_a_real_tuning_writes_the_chosen_files_report_and_figure_and_a_rerun_plays_nothing(tmp_path):
    spec = tmp_path / "real.toml"
    spec.write_text(REAL)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = [PYTHON, "-m", "somaliland.cli.main", "tune", str(spec), "--out", str(out), "--workers", "2", "--json"]
    first = json.loads(subprocess.run(run, check=True, env=env, cwd=ROOT, capture_output=True, text=True).stdout)
    assert first["played_now"] == first["search_games"] + first["validation_games"] == 2 * 3 + 2 * 2
    second = json.loads(subprocess.run(run, check=True, env=env, cwd=ROOT, capture_output=True, text=True).stdout)
    assert second["played_now"] == 0 and second["values"] == first["values"]
    assert json.dumps(second["validation"]) == json.dumps(first["validation"])
    from somaliland.map import problems

    chosen = out / "chosen" / "map.toml"
    assert problems(chosen) == []
    head = chosen.read_text().splitlines()
    assert head[0] == "#:schema ./map.schema.json" and head[1].startswith(f"# Tuned by `somaliland tune {spec}`")
    assert (out / "chosen" / "rules.toml").read_text().startswith("# Tuned by")
    report = (out / "report.md").read_text()
    assert "## Before and after, on fresh seeds" in report and "## The Pareto front" in report
    assert (out / "front.png").stat().st_size > 1000
    assert main(["study", "replay", str(out / "trials" / "0000"), "--cell", "0", "--game", "1"]) == 0


def test_a_tuning_folder_refuses_another_tuning_and_a_second_run_at_once(tmp_path):
    from somaliland.tune.run import _open_folder

    lock = _open_folder(tuning_of(BASE), BASE, tmp_path)
    with pytest.raises(StudyError, match="in use by another run"):
        _open_folder(tuning_of(BASE), BASE, tmp_path)
    lock.close()
    _open_folder(tuning_of(BASE.replace("trials = 6", "trials = 9")), BASE, tmp_path).close()  # more trials: the same
    with pytest.raises(StudyError, match="fingerprint: expected the folder of the same tuning"):
        _open_folder(tuning_of(BASE.replace("range = [12.0, 28.0]", "range = [12.0, 27.0]")), BASE, tmp_path)


def test_the_validation_has_a_progress_bar_in_games_that_starts_at_the_games_already_played(capsys):
    from somaliland.tune.search import Progress

    bar = Progress(True)
    bar.open(total=8, initial=8)
    bar.validating(total=10, initial=4)
    bar.game()
    assert (bar.bar.n, bar.bar.total, bar.games) == (5, 10, 1)
    bar.close()
    assert "validation" in capsys.readouterr().err


def test_the_front_figure_starts_a_rate_at_0_unless_a_whisker_reaches_below_it():
    from somaliland.study.figures import pyplot
    from somaliland.tune.report import _floor

    plt = pyplot()
    for whisker_low, floor in ((0.2, 0.0), (-0.5, None)):  # a normal interval of a rate near 0 may reach below it
        fig, ax = plt.subplots()
        ax.errorbar([1.0, 2.0], [0.4, 3.0], yerr=[[0.4 - whisker_low, 0.5], [0.5, 0.5]])
        _floor(ax, True, 1.0, vertical=False)
        if floor is None:
            assert ax.get_ylim()[0] <= whisker_low  # the whisker is drawn whole
        else:
            assert ax.get_ylim()[0] == floor
        plt.close(fig)


def test_a_damaged_tuning_manifest_is_one_located_line_and_leaves_the_folder_free(tmp_path):
    from somaliland.tune.run import _open_folder

    (tmp_path / "tuning.json").write_text("{not json")
    for _ in range(2):  # the lock was let go: the second try meets the same problem, not "in use by another run"
        with pytest.raises(StudyError, match=r"tuning.json: \(file\): expected the tuning folder's manifest \(JSON\)"):
            _open_folder(tuning_of(BASE), BASE, tmp_path)
