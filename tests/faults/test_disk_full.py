"""A full disk: `study run` and `tune` stop with one line naming the file they could not write and why (exit
2), keep everything already computed, and the same command resumes once there is room, to the very results of
a run that never stopped. The small disk is a tmpfs (root only; skipped elsewhere).
"""

import re

import pytest
from support import assert_same_games, grow, rerun, tmpfs, tune_json

from somaliland.cli.main import main

ROOM = 4096  # KiB: enough for either to finish


@pytest.mark.parametrize("size, kept", [(12, 0), (16, 1)])  # 12 KiB fill up on the first game's journal line
def test_study_run_on_a_full_disk_says_which_file_and_resumes(reference, tmp_path, capsys, size, kept):
    path, ref = reference
    with tmpfs(tmp_path / "disk", size) as disk:
        out = disk / "out"
        assert main(["study", "run", str(path), "--out", str(out), "--workers", "1", "--chunk", "2", "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        told = re.fullmatch(r"somaliland study: error: (\S+): \(write\): expected a writable results folder with free "
                            r"space, found 'No space left on device'; the games recorded so far are kept; make room "
                            r"\(or fix the permissions\) and run the same command again\n", err)
        assert told and told.group(1).startswith(f"{out}/"), err  # the file, not only the folder
        grow(disk, ROOM)
        summary = rerun(path, out)
        assert summary.done_before >= kept and summary.done_before + summary.played == 6  # what was kept counts
        assert_same_games(out, ref)


@pytest.mark.parametrize("size, kept", [(100, False), (300, True), (600, True)])  # 100 KiB: full before a game
def test_tune_on_a_full_disk_says_which_file_and_resumes(tuned, tmp_path, size, kept):
    path, _, whole = tuned
    with tmpfs(tmp_path / "disk", size) as disk:
        out = disk / "out"
        code, _, err = tune_json(path, out)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        told = re.fullmatch(r"somaliland tune: error: (\S+): \(write\): expected a writable (tuning|results) folder "
                            r"with free space, found '(database or disk is full|No space left on device)'; the games "
                            r"(played|recorded) so far are kept; make room.* and run the same command again\n", err)
        assert told and told.group(1).startswith(f"{out}/"), err
        grow(disk, ROOM)
        code, resumed, err = tune_json(path, out)
        assert code == 0, err
        assert resumed["played_now"] < whole["played_now"] or not kept  # the games played before it filled were kept
        for key in ("trials", "chosen", "values", "validation", "search_games", "validation_games"):
            assert resumed[key] == whole[key], key
