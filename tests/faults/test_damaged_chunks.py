"""Issue 18 item 1: a Parquet file cut short, emptied or deleted (a full disk, a copy cut short).

`study run` finds the damaged chunk, sets it aside, plays its games again and says so; `study report` and
`study replay` refuse with one line naming the file, what is wrong and the command that repairs it. A disk
that fills up during a run stops it with a message; its finished games wait in the journal.
"""

import errno

import pytest

from somaliland.cli.main import main
from somaliland.study import StudyError
from somaliland.study.store import ResultStore
from support import assert_same_games, rerun


def cut(part, how):
    if how == "truncated":
        part.write_bytes(part.read_bytes()[:100])
    elif how == "zero-byte":
        part.write_bytes(b"")
    else:
        part.unlink()


@pytest.mark.parametrize("how", ["truncated", "zero-byte", "deleted"])
def test_run_replays_the_games_of_a_damaged_chunk_and_reports_the_repair(damaged, reference, how):
    path, out = damaged
    part = out / "players" / "part-000002.parquet"
    cut(part, how)
    said = []
    summary = rerun(path, out, say=said.append)
    assert summary.played == 2 and summary.done_before == 4  # chunk 2's two games, and only those
    assert len(said) == 1 and said[0].startswith(f"repaired {part}: ") and "played again" in said[0]
    assert (out / "damaged" / "000002" / "players" / "part-000002.parquet").exists() != (how == "deleted")
    assert_same_games(out, reference[1])


@pytest.mark.parametrize("command", [["report"], ["replay", "--cell", "0", "--game", "0"]])
@pytest.mark.parametrize("how", ["truncated", "zero-byte"])
def test_report_and_replay_name_the_damaged_file_and_the_repair(damaged, capsys, command, how):
    path, out = damaged
    part = out / "players" / "part-000001.parquet"  # the table both read
    cut(part, how)
    assert main(["study", command[0], str(out), *command[1:]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"somaliland study: error: {part}: ")
    assert ("0 bytes" if how == "zero-byte" else "100 bytes that do not read as Parquet") in err
    assert f"run `somaliland study run {path} --out {out}` again" in err
    assert not (out / "report.md").exists()


def test_a_full_disk_stops_the_run_with_a_message_and_loses_no_finished_game(reference, tmp_path, monkeypatch):
    path, ref = reference
    out = tmp_path / "out"
    write_chunk = ResultStore._write_chunk
    chunks = []

    def second_fails(store):  # the disk fills up while the second chunk is written
        chunks.append(1)
        if len(chunks) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(out / "players"))
        write_chunk(store)

    monkeypatch.setattr(ResultStore, "_write_chunk", second_fails)
    with pytest.raises(StudyError) as stopped:
        rerun(path, out)
    assert str(stopped.value) == (f"{out / 'players'}: (write): expected a writable results folder with free space, "
                                  f"found 'No space left on device'; the games recorded so far are kept; make room "
                                  f"(or fix the permissions) and run the same command again")
    monkeypatch.setattr(ResultStore, "_write_chunk", write_chunk)  # room again
    summary = rerun(path, out)
    assert summary.done_before == 4 and summary.played == 2  # the failed chunk's games waited in the journal
    assert_same_games(out, ref)
