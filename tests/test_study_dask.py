"""The same study on a Dask LocalCluster of two worker processes gives the very same results as locally."""

import pytest

from somaliland.study import load_study, read_table
from somaliland.study.executors import dask_executors, local_executors
from somaliland.study.runner import run_study
from test_study_support import ROOT, tiny_study

distributed = pytest.importorskip("distributed")


def test_dask_cluster_runs_the_study_like_local_processes(tmp_path):
    path = tiny_study(tmp_path, games=2)
    study = load_study(path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        for module in ("scripted.py", "test_study_support.py"):  # the policy factory, as a cluster gets it
            client.upload_file(str(ROOT / "tests" / module))
        make, threads = dask_executors(client)
        assert threads == 2
        summary = run_study(study, path.read_text(), tmp_path / "dask", make, threads, progress=False)
    assert (summary.played, summary.errors) == (4, 0)
    run_study(study, path.read_text(), tmp_path / "local", local_executors(2), 2, progress=False)
    key = ["cell", "game", "seat"]
    on_dask = read_table(tmp_path / "dask", "players").sort_values(key).reset_index(drop=True)
    local = read_table(tmp_path / "local", "players").sort_values(key).reset_index(drop=True)
    assert on_dask.equals(local)  # same seeds, same games, bit for bit
