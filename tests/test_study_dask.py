"""The same study on a Dask LocalCluster of two worker processes gives the very same results as locally."""

import pytest

from somaliland.cli.main import main
from somaliland.study import load_study, read_table
from somaliland.study.executors import SCHEDULER_ENV, cluster_address, dask_executors, local_executors
from somaliland.study.runner import run_study
from somaliland.study.worker import MEASURED_COLUMNS
from test_study_support import ROOT, tiny_study

distributed = pytest.importorskip("distributed")


def test_dask_cluster_runs_the_study_like_local_processes(tmp_path, monkeypatch):
    path = tiny_study(tmp_path, games=2)
    study = load_study(path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        for module in ("scripted.py", "test_study_support.py"):  # the policy factory, as a cluster gets it
            client.upload_file(str(ROOT / "tests" / module))
        assert dask_executors(client)[1] == 2
        monkeypatch.setenv(SCHEDULER_ENV, cluster.scheduler_address)  # as `study run` finds a cluster
        assert main(["study", "run", str(path), "--out", str(tmp_path / "dask"), "--quiet"]) == 0
    games = read_table(tmp_path / "dask", "games")
    assert len(games) == 4 and (games.status == "ok").all()
    run_study(study, path.read_text(), tmp_path / "local", local_executors(2), 2, progress=False)
    key = ["cell", "game", "seat"]
    on_dask, local = (read_table(tmp_path / side, "players").sort_values(key).reset_index(drop=True)
                      .drop(columns=list(MEASURED_COLUMNS), errors="ignore") for side in ("dask", "local"))
    assert on_dask.equals(local)  # same seeds, same games, bit for bit


def test_the_cluster_option_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv(SCHEDULER_ENV, "tcp://from-env:8786")
    assert cluster_address("tcp://option:8786") == "tcp://option:8786"
    assert cluster_address(None) == "tcp://from-env:8786"
    monkeypatch.delenv(SCHEDULER_ENV)
    assert cluster_address(None) is None
