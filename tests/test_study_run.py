"""Study runs on local worker processes: one row per game and seat, replays, errors kept with their seeds."""

import concurrent.futures as cf
import json
from dataclasses import replace
import subprocess
import sys

import numpy as np
import pytest

from somaliland.cli.main import main
from somaliland.study import game_seed, load_study, read_table
from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study
from test_study_support import ROOT, tiny_study


def run(path, out, workers=2, **kw):
    study = load_study(path)
    return run_study(study, path.read_text(), out, local_executors(workers), workers, progress=False, **kw)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    path = tiny_study(folder, games=3)
    summary = run(path, folder / "out", chunk_games=4)
    return path, folder / "out", summary


def test_every_game_gives_one_row_per_seat(finished):
    path, out, summary = finished
    assert (summary.played, summary.errors, summary.done_before) == (6, 0, 0)
    players = read_table(out, "players")
    assert len(players) == 12 and not players.duplicated(["cell", "game", "seat"]).any()
    assert sorted(set(zip(players.cell, players.game))) == [(c, g) for c in (0, 1) for g in range(3)]
    assert set(players.seats_skill) == {0.5, 1.0} and set(players.strategy) == {"africa", "somalia"}
    games = read_table(out, "games")
    assert len(games) == 6 and (games.status == "ok").all()
    # each game is won (or shared) exactly once
    assert np.allclose(players.groupby(["cell", "game"]).win_share.sum(), 1.0)
    winners = games.set_index(["cell", "game"]).n_winners.sort_index()
    assert (players.groupby(["cell", "game"]).winner.sum() == winners).all()
    assert read_table(out, "errors").empty
    assert games.code.str.fullmatch("[0-9a-f]{12}").all() and games.code.nunique() == 1  # one code version
    assert (players.decisions >= players.throws).all() and (players.throws > 0).any()  # each seat's decisions timed
    assert (players.throw_cpu_s >= 0).all() and (players.decide_cpu_s >= players.throw_cpu_s).all()


def test_game_seeds_follow_the_documented_scheme(finished):
    _, out, _ = finished
    games = read_table(out, "games")
    assert all(seed == game_seed(20261122, c, g) for c, g, seed in zip(games.cell, games.game, games.game_seed))
    seq = np.random.SeedSequence(20261122).spawn(2)[1].spawn(3)[2]  # SeedSequence(master).spawn
    assert game_seed(20261122, 1, 2) == int(seq.generate_state(1, np.uint64)[0] >> np.uint64(1))


def test_tables_agree_with_each_other(finished):
    _, out, _ = finished
    players, contracts, captures = (read_table(out, t) for t in ("players", "contracts", "captures"))
    per_seat = contracts.groupby(["cell", "game", "seat"]).size()
    assert (players.set_index(["cell", "game", "seat"]).taken == per_seat.reindex(
        players.set_index(["cell", "game", "seat"]).index, fill_value=0)).all()
    assert captures.ransom.sum() == players.ransom.sum()  # every ransom paid is a capture (R13)
    assert len(captures) == players.captures.sum()
    africa = captures[captures.route == "africa"]
    assert africa.empty or not africa.full_route.any()


def test_running_again_plays_nothing_and_more_games_play_only_the_new_ones(finished, tmp_path):
    path, out, _ = finished
    assert run(path, out).played == 0
    more = tmp_path / "more.toml"
    more.write_text(path.read_text().replace("games_per_cell = 3", "games_per_cell = 4"))
    summary = run(more, out)
    assert (summary.done_before, summary.played) == (6, 2)
    assert len(read_table(out, "games")) == 8


def test_another_study_in_the_same_folder_is_refused(finished, tmp_path):
    path, out, _ = finished
    other = tmp_path / "other.toml"
    other.write_text(path.read_text().replace("rounds = 1", "rounds = 2"))
    assert main(["study", "run", str(other), "--out", str(out), "--quiet"]) == 2


def test_replay_one_game_matches_the_stored_result(finished, tmp_path):
    _, out, _ = finished
    record = tmp_path / "game.jsonl"
    proc = subprocess.run([sys.executable, "-m", "somaliland.cli.main", "study", "replay", str(out), "--cell", "1",
                           "--game", "2", "--record", str(record)], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT / "tests"), "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    assert "the replay matches it" in proc.stdout
    head = json.loads(record.read_text().splitlines()[0])
    assert head["seed"] == game_seed(20261122, 1, 2)


def replay_edited(out, tmp_path, games_change):
    """Replay game 1 of cell 0 from a copy of the results whose stored points (and given games columns) differ."""
    import shutil

    import pandas as pd

    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    for table, change in (("players", {"points": 999.0}), ("games", games_change)):
        for part in (copy / table).glob("*.parquet"):
            frame = pd.read_parquet(part)
            mine = (frame.cell == 0) & (frame.game == 1)
            for column, value in change.items():
                frame.loc[mine, column] = value
            frame.to_parquet(part, index=False)
    env = {"PYTHONPATH": str(ROOT / "tests"), "PATH": ""}
    args = [sys.executable, "-m", "somaliland.cli.main", "study", "replay", str(copy), "--cell", "0", "--game", "1"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 1 and "DIFFERS" in proc.stdout
    return proc.stderr


def test_a_replay_that_differs_says_whether_another_simulator_version_played_it(finished, tmp_path):
    _, out, _ = finished
    assert "played by simulator source 0123456789ab" in replay_edited(out, tmp_path, {"code": "0123456789ab"})


def test_a_replay_that_differs_says_whether_another_machine_played_it(finished, tmp_path):
    from somaliland.machine import describe, fingerprint

    _, out, _ = finished
    games = read_table(out, "games")
    assert set(games.machine) == {describe(fingerprint())}
    other = describe({**fingerprint(), "cpu": "Some Other CPU"})
    said = replay_edited(out, tmp_path / "other", {"machine": other})
    assert f"recorded on {other}, replayed on {describe(fingerprint())}: physics results can differ" in said
    assert "a reproducibility bug" in replay_edited(out, tmp_path / "same", {})


def test_a_physics_sweep_plays_each_cell_at_its_setting_and_replays_it(tmp_path):
    """The [physics] table reaches the workers: each cell's records carry its step rate, and replay uses it."""
    path = tiny_study(tmp_path, games=1, sweep='"physics.rate_hz" = [960, 480]')
    run(path, tmp_path / "out", workers=1)
    games = read_table(tmp_path / "out", "games")
    assert sorted(games.physics_rate_hz) == [480, 960] and (games.status == "ok").all()
    record = tmp_path / "game.jsonl"
    proc = subprocess.run([sys.executable, "-m", "somaliland.cli.main", "study", "replay", str(tmp_path / "out"),
                           "--cell", "1", "--game", "0", "--record", str(record)], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT / "tests"), "PATH": ""})
    assert proc.returncode == 0 and "the replay matches it" in proc.stdout, proc.stdout + proc.stderr
    assert json.loads(record.read_text().splitlines()[0])["physics"]["rate_hz"] == 480


class Recording(cf.ThreadPoolExecutor):
    """A thread pool that notes what it was given and when each piece finished."""

    def __init__(self, log: list) -> None:
        super().__init__(max_workers=2)
        self.log = log

    def submit(self, fn, *args, **kwargs):
        self.log.append(("submit", fn.__name__))
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: self.log.append(("done", fn.__name__)))
        return future


def test_the_surveys_the_games_play_by_are_made_once_before_any_game(tmp_path, monkeypatch):
    """A worker's first game must not wait for the players' survey of the map: the runner has each distinct
    seat's survey made (on the workers, in parallel) and kept on disk before it hands out a game."""
    from somaliland.players import survey

    monkeypatch.setenv("SOMALILAND_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(survey, "_CACHE", {})  # as a new process: no survey an earlier test sailed in memory
    path = tiny_study(tmp_path, games=2, factory="", strategy='["ev", "bold"]', sweep="",
                      extra="params = { voyages = 2 }\n")
    path.write_text(path.read_text().replace('policy_factory = ""\n', ""))
    study = load_study(path)
    log: list = []
    summary = run_study(study, path.read_text(), tmp_path / "out", lambda: Recording(log), 2, progress=False)
    assert (summary.played, summary.errors) == (2, 0)
    first_game = log.index(("submit", "play_task"))
    assert log[:first_game] == [("submit", "prepare_survey")] * 2 + [("done", "prepare_survey")] * 2
    assert len(list((tmp_path / "cache" / "surveys").glob("*.json"))) == 2  # ev's and bold's, for every worker
    log.clear()
    more = load_study(path)
    run_study(replace(more, games_per_cell=3), path.read_text(), tmp_path / "out", lambda: Recording(log), 2,
              progress=False)
    assert log.count(("submit", "prepare_survey")) == 2 and log.count(("submit", "play_task")) == 1
    log.clear()
    run_study(more, path.read_text(), tmp_path / "out", lambda: Recording(log), 2, progress=False)
    assert log == []  # nothing left to play: no survey made either


def test_a_cluster_without_workers_stops_the_run_while_the_surveys_wait(tmp_path, monkeypatch):
    """The surveys made before the games are watched as the games are: a cluster with no worker for longer than
    the run waits stops it with its one located error, the surveys it waited for cancelled."""
    from somaliland.study.errors import StudyError

    class Never(cf.Executor):  # a cluster with no worker: nothing submitted ever runs
        def __init__(self) -> None:
            self.given: list[cf.Future] = []

        def submit(self, fn, /, *args, **kwargs):
            self.given.append(cf.Future())
            return self.given[-1]

    monkeypatch.setenv("SOMALILAND_CACHE", str(tmp_path / "cache"))
    path = tiny_study(tmp_path, games=2, factory="", strategy='"ev"', sweep="", extra="params = { voyages = 2 }\n")
    path.write_text(path.read_text().replace('policy_factory = ""\n', ""))
    never = Never()
    said = []
    with pytest.raises(StudyError, match="expected a Dask worker to play the games, found 'none for 0 s'"):
        run_study(load_study(path), path.read_text(), tmp_path / "out", lambda: never, 1, progress=False,
                  cluster_threads=lambda: 0, worker_wait_s=0.2, say=said.append)
    assert said == ["no worker left in the cluster: waiting up to 0 s for one to join"]
    assert len(never.given) == 1 and never.given[0].cancelled()  # the one survey (ev's), cancelled


def test_a_game_that_raises_is_kept_as_an_error_with_its_seed(tmp_path):
    path = tiny_study(tmp_path, games=2, factory="test_study_support:failing_factory",
                      sweep='"seat.1.strategy" = ["somalia", "boom"]')
    summary = run(path, tmp_path / "out")
    assert (summary.played, summary.errors) == (4, 2)
    errors = read_table(tmp_path / "out", "errors")
    assert list(errors.seat1_strategy) == ["boom", "boom"] and set(errors.error) == {"RuntimeError"}
    assert "boom: a strategy bug" in errors.message.iloc[0]
    assert set(errors.game_seed) == {game_seed(20261122, 1, g) for g in (0, 1)}
    assert len(read_table(tmp_path / "out", "games")) == 2
    assert run(path, tmp_path / "out").played == 0  # an error is a result: not replayed on resume


def test_a_worker_that_dies_is_retried_and_a_killer_game_is_recorded(tmp_path):
    once = tmp_path / "once"
    path = tiny_study(tmp_path, games=3, factory="test_study_support:failing_factory",
                      extra=f'[seat.1]\nstrategy = "die"\nparams = {{marker = "{once}"}}\n', sweep="")
    summary = run(path, tmp_path / "out")
    assert (summary.played, summary.errors) == (3, 0) and summary.retried >= 1
    assert len(read_table(tmp_path / "out", "players")) == 6
    always = tiny_study(tmp_path, games=2, factory="test_study_support:failing_factory", name="always",
                        extra=f'[seat.1]\nstrategy = "die"\nparams = {{marker = "{once}", always = true}}\n',
                        sweep="")
    summary = run(always, tmp_path / "out2", max_attempts=2)
    errors = read_table(tmp_path / "out2", "errors")
    assert (summary.played, summary.errors) == (2, 2)
    assert set(errors.error) == {"WorkerDied(BrokenExecutor)"} and set(errors.game) == {0, 1}


def test_a_game_played_a_fresh_world_per_roll_replays_in_one(tmp_path, capsys):
    """game-as-designed was played with a fresh Bullet world per roll, the default then; its game 9 of cell 0 plays
    differently in one world per game, so replay plays it again per roll, says so, and records it so."""
    results = ROOT / "experiments" / "results" / "game-as-designed"
    record = tmp_path / "game.jsonl"
    assert main(["study", "replay", str(results), "--cell", "0", "--game", "9", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "the replay matches it" in out and 'played with physics world = "per_roll"' in out
    assert json.loads(record.read_text().splitlines()[0])["physics"]["world"] == "per_roll"
