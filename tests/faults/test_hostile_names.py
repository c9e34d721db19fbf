"""Names are names, not paths, and a results folder is never an unrelated one.

A study's or tuning's `name` is the folder its results go to (results/NAME beside the file): one with a path
separator, `..` or an absolute path is refused with one located line, and nothing is written anywhere. `--out`
onto an existing folder that is not a results folder of the same study (or tuning) is refused before anything
is written in it: its files are left byte for byte as they were.
"""

import json

import pytest
from support import toy_tuning

from somaliland.cli.main import main
from test_study_support import tiny_study


def tree(folder):
    """Return every file under a folder with its bytes (what a refused command must leave as it was)."""
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", ["../../escaped", "../escaped", "ABSOLUTE", "a/b", "..", ".", "", "a\\b",
                                  "line\nbreak"])
@pytest.mark.parametrize("kind", ["study", "tune"])
def test_a_name_that_is_a_path_is_refused_and_nothing_is_written(tmp_path, capsys, kind, name):
    name = str(tmp_path / "escaped") if name == "ABSOLUTE" else name
    folder = tmp_path / "deep" / "specs"
    folder.mkdir(parents=True)
    spec = tiny_study(folder, games=1) if kind == "study" else toy_tuning(folder)
    text = spec.read_text()
    spec.write_text(text.replace(text.splitlines()[0], f"name = {json.dumps(name)}"))  # the name is the first line
    before, paths = tree(tmp_path), sorted(tmp_path.rglob("*"))
    command = ["study", "run"] if kind == "study" else ["tune"]
    assert main([*command, str(spec), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"somaliland {kind}: error: {spec}: name: expected a plain "
                                                         f"name (the results go in a folder of that name"), err
    assert tree(tmp_path) == before and sorted(tmp_path.rglob("*")) == paths  # nothing changed, nothing made


def unrelated(tmp_path):
    """Return a folder of someone's own files, some with the names a results folder uses."""
    folder = tmp_path / "mine"
    (folder / ".staging").mkdir(parents=True)
    (folder / "chosen").mkdir()
    files = {"study.toml": "my notes\n", "manifest.json": '{"app": "mine"}', ".staging/draft.txt": "draft\n",
             "report.md": "# my report\n", "tune.toml": "x = 1\n", "chosen/map.toml": "# my map\n"}
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_study_run_refuses_an_out_that_is_not_its_results_folder_before_writing(tmp_path, capsys):
    spec = tiny_study(tmp_path, games=1)
    out = unrelated(tmp_path)
    before = tree(out)
    assert main(["study", "run", str(spec), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"somaliland study: error: {out}: --out: expected a new or empty folder, or a results "
                          f"folder of `study run` (with its manifest.json), found 'a folder holding chosen, "
                          f"manifest.json, report.md, study.toml and 1 more'; nothing was written"), err
    assert tree(out) == before and not (out / ".lock").exists()


def test_tune_refuses_an_out_that_is_not_its_folder_before_writing(tmp_path, capsys):
    spec = toy_tuning(tmp_path)
    out = unrelated(tmp_path)
    before = tree(out)
    assert main(["tune", str(spec), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"somaliland tune: error: {out}: --out: expected a new or empty folder, or a folder of "
                          f"`tune` (with its tuning.json), found 'a folder holding .staging, chosen, manifest.json, "
                          f"report.md and 2 more'; nothing was written"), err
    assert tree(out) == before and not (out / ".lock").exists()


def test_an_empty_folder_or_one_a_killed_run_left_is_taken(tmp_path):
    from somaliland.study import load_study
    from somaliland.study.store import ResultStore

    spec = tiny_study(tmp_path, games=1)
    study = load_study(spec)
    for leftovers in ((), (".lock",), (".lock", ".staging")):
        out = tmp_path / f"out-{len(leftovers)}"
        out.mkdir()
        for name in leftovers:
            if name == ".staging":
                (out / name).mkdir()
            else:
                (out / name).write_text("")
        ResultStore.open(out, study, spec.read_text()).close()
        assert (out / "manifest.json").exists() and (out / "study.toml").read_text() == spec.read_text()
