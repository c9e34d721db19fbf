"""A results folder read from elsewhere: copied away from its study's maps, or named from another folder.

Issue 18's "nothing silent, no traceback" for folders that moved. `study report` opens no map, so a copied
results folder reports as it would in place. `study replay` plays a game, so it needs the map: when the folder
was copied away from its study, the message names the map file looked for, where relative paths are read
from, and `--study-dir`, which points at the study's folder. A repair hint names the study file by a path that
works from the folder the command runs in (the manifest keeps it as `study run` was given it, relative to the
folder that command ran in).
"""

import os
import shutil
from pathlib import Path

import pytest

from somaliland.cli.main import main
from test_study_support import TINY_MAP, tiny_study


@pytest.fixture(scope="module")
def top(tmp_path_factory) -> Path:
    """Return a folder holding maps/tiny.toml and studies/tiny.toml (map = "../maps/tiny.toml"), whose results
    `study run studies/tiny.toml --out studies/results/tiny`, run in that folder, wrote (2 games)."""
    top = tmp_path_factory.mktemp("moved")
    (top / "maps").mkdir()
    shutil.copy(TINY_MAP, top / "maps" / "tiny.toml")
    (top / "studies").mkdir()
    study = tiny_study(top / "studies", games=1)
    study.write_text(study.read_text().replace(f'map = "{TINY_MAP}"', 'map = "../maps/tiny.toml"'))
    assert 'map = "../maps/tiny.toml"' in study.read_text()
    here = os.getcwd()
    os.chdir(top)
    try:
        assert main(["study", "run", "studies/tiny.toml", "--out", "studies/results/tiny", "--workers", "1",
                     "--quiet"]) == 0
    finally:
        os.chdir(here)
    return top


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.removeprefix("somaliland study: error: ").removesuffix("\n")


def test_a_report_reads_a_results_folder_copied_away_from_its_study(top, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(top / "studies" / "results" / "tiny", copy)  # its manifest's ../.. now leads nowhere
    assert main(["study", "report", str(copy)]) == 0
    assert capsys.readouterr().out.startswith(f"report: {copy / 'report.md'} (")
    in_place = top / "studies" / "results" / "tiny"
    assert main(["study", "report", str(in_place), "-o", str(tmp_path / "in-place" / "report.md")]) == 0
    assert (copy / "report.md").read_text().replace(str(copy), "RESULTS") == \
        (tmp_path / "in-place" / "report.md").read_text().replace(str(in_place), "RESULTS")


def test_a_replay_of_a_copied_folder_names_the_map_it_needs_and_how_to_point_at_it(top, tmp_path, capsys,
                                                                                     monkeypatch):
    copy = tmp_path / "copy"
    shutil.copytree(top / "studies" / "results" / "tiny", copy)
    monkeypatch.chdir(tmp_path)  # from here studies/tiny.toml, as the manifest names it, is not found either
    assert main(["study", "replay", str(copy), "--cell", "0", "--game", "0"]) == 2
    lost = tmp_path.parent  # copy/../..
    assert one_error_line(capsys) == (
        f"{copy / 'study.toml'}: map: expected the map file these results were played on (a relative path is read "
        f"from the study file's folder, {lost}, which the manifest puts at '../..' from the results folder), found "
        f"'no file at {lost.parent / 'maps' / 'tiny.toml'}'; the results folder was moved or copied away from its "
        f"study's maps: run this on the folder where `study run` wrote it, or add --study-dir DIR naming the folder "
        f"of the study file that made it (studies/tiny.toml from the folder that run started in)")
    assert main(["study", "replay", str(copy), "--cell", "0", "--game", "0", "--study-dir", str(tmp_path)]) == 2
    assert one_error_line(capsys).endswith(
        f"found 'no file at {tmp_path.parent / 'maps' / 'tiny.toml'}'; --study-dir {tmp_path} should name the folder "
        f"of the study file that made these results (studies/tiny.toml from the folder that run started in)")
    assert main(["study", "replay", str(copy), "--cell", "1", "--game", "0", "--study-dir",
                 str(top / "studies")]) == 0
    assert "the replay matches it" in capsys.readouterr().out


def test_a_replay_of_a_copied_folder_finds_its_study_from_the_folder_its_run_started_in(top, tmp_path, capsys,
                                                                                        monkeypatch):
    shutil.copytree(top, tmp_path / "top")
    copy = tmp_path / "copy"
    shutil.copytree(top / "studies" / "results" / "tiny", copy)
    monkeypatch.chdir(tmp_path / "top")  # studies/tiny.toml, as the manifest names it, is here: its map is the run's
    assert main(["study", "replay", str(copy), "--cell", "0", "--game", "0"]) == 0
    assert "the replay matches it" in capsys.readouterr().out
    with open(tmp_path / "top" / "maps" / "tiny.toml", "a") as edited:
        edited.write("# edited since the run\n")  # another map than the games': not taken silently
    assert main(["study", "replay", str(copy), "--cell", "0", "--game", "0"]) == 2
    assert ("; studies/tiny.toml from here has its maps, but they are not the ones these results were played on "
            "(the study's fingerprint differs); the results folder was moved or copied away from its study's maps: "
            ) in one_error_line(capsys)


def test_a_replay_in_place_whose_map_is_gone_says_so(top, tmp_path, capsys, monkeypatch):
    shutil.copytree(top, tmp_path / "top")
    monkeypatch.chdir(tmp_path)  # (from the repository, studies/../maps/tiny.toml would be a map of the same bytes)
    (tmp_path / "top" / "maps" / "tiny.toml").unlink()
    out = tmp_path / "top" / "studies" / "results" / "tiny"
    assert main(["study", "replay", str(out), "--cell", "0", "--game", "0"]) == 2
    assert one_error_line(capsys).endswith(
        f"found 'no file at {tmp_path / 'top' / 'maps' / 'tiny.toml'}'; the map was moved or deleted since the run: "
        f"put it back")


def test_a_replay_whose_maps_changed_since_the_run_says_so_in_place_and_with_study_dir(top, tmp_path, capsys,
                                                                                       monkeypatch):
    shutil.copytree(top, tmp_path / "top")
    monkeypatch.chdir(tmp_path)
    with open(tmp_path / "top" / "maps" / "tiny.toml", "a") as edited:
        edited.write("# edited since the run\n")  # the map is where it was, but not the games' map
    out = tmp_path / "top" / "studies" / "results" / "tiny"
    for extra, where in (([], f"{tmp_path / 'top' / 'studies'}, the folder of the study file"),
                         (["--study-dir", str(tmp_path / "top" / "studies")],
                          f"--study-dir {tmp_path / 'top' / 'studies'}")):
        assert main(["study", "replay", str(out), "--cell", "0", "--game", "0", *extra]) == 2
        assert one_error_line(capsys) == (
            f"{out / 'study.toml'}: map: expected the map files these results were played on (their bytes are in "
            f"the manifest's fingerprint), found 'maps read from {where}, that differ from them'; put back the maps the "
            f"run played on (git history keeps them), or name the folder of a study file beside them with "
            f"--study-dir")


def damaged_copy(top: Path, tmp_path: Path) -> Path:
    """Copy the whole folder (the study, its map and its results keep their places) and cut a Parquet file."""
    shutil.copytree(top, tmp_path / "top")
    (part,) = (tmp_path / "top" / "studies" / "results" / "tiny" / "players").glob("part-*.parquet")
    part.write_bytes(b"")
    return tmp_path / "top"


def test_the_repair_hint_names_the_study_file_from_the_folder_the_command_runs_in(top, tmp_path, capsys,
                                                                                  monkeypatch):
    copy = damaged_copy(top, tmp_path)
    monkeypatch.chdir(copy / "studies")  # not where `study run` ran: the manifest says studies/tiny.toml
    assert main(["study", "report", "results/tiny"]) == 2
    assert "; run `somaliland study run tiny.toml --out results/tiny` again: it sets the damaged chunk aside" in \
        one_error_line(capsys)
    monkeypatch.chdir(copy / "studies" / "results")  # the study file is not below this folder: an absolute path
    assert main(["study", "report", "tiny"]) == 2
    assert f"; run `somaliland study run {copy / 'studies' / 'tiny.toml'} --out tiny` again" in one_error_line(capsys)
    monkeypatch.chdir(copy / "studies")
    assert main(["study", "run", "tiny.toml", "--out", "results/tiny", "--workers", "1", "--quiet"]) == 0  # the hint
    assert "2 games played" in capsys.readouterr().out
    assert main(["study", "report", "results/tiny"]) == 0


def test_the_repair_hint_of_a_copied_folder_asks_for_the_study_file(top, tmp_path, capsys, monkeypatch):
    copy = damaged_copy(top, tmp_path)
    moved = tmp_path / "results-copy"
    shutil.copytree(copy / "studies" / "results" / "tiny", moved)
    monkeypatch.chdir(copy)  # studies/tiny.toml, as the manifest names it, is here, and is the study kept in the folder
    assert main(["study", "report", str(moved)]) == 2
    assert f"; run `somaliland study run studies/tiny.toml --out {moved}` again: it sets" in one_error_line(capsys)
    monkeypatch.chdir(tmp_path)  # not from here
    assert main(["study", "report", str(moved)]) == 2
    assert one_error_line(capsys).endswith(
        f"; run `somaliland study run STUDY_FILE --out {moved}` again, STUDY_FILE being the study file that made "
        f"these results (studies/tiny.toml from the folder that run started in; it is not at "
        f"{tmp_path.parent / 'tiny.toml'}: the results folder was moved or copied away from it): it sets the damaged "
        f"chunk aside (in {moved / 'damaged'}) and plays its games again")
