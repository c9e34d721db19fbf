"""Issue 18 item 2: a damaged chunk mark or manifest, a deleted study.toml or manifest in a results folder.

Readers give one located line (the file, the line or key, what is wrong, the repair); `study run` repairs
what it can (a mark's chunk is set aside and its games played again; the manifest is rebuilt when the
study.toml kept beside it matches the study file; a deleted study.toml is restored) and refuses, naming the
way out, what it cannot.
"""

import json

import pytest

from somaliland.cli.main import main
from support import assert_same_games, rerun


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("text, found", [
    ('{"games": [[0, 1', "not a chunk mark (Expecting"),
    ('{"games": [[0, 1, 2]]}', "games[0]: expected [cell, game, seed, ok], found [0, 1, 2]"),
    ("", "not a chunk mark (Expecting value"),
    ('{"games": [[0, 0, 1, true]], "files": {"players": {"sha256": 1}}}', "files: expected {table: {sha256, bytes}}"),
])
def test_a_damaged_mark_is_named_by_readers_and_its_chunk_replayed_by_run(damaged, reference, capsys, text, found):
    path, out = damaged
    mark = out / "chunks" / "000003.json"
    mark.write_text(text)
    assert main(["study", "report", str(out)]) == 2
    err = one_error_line(capsys)
    assert f"error: {mark}: (file): expected a chunk mark" in err and found in err
    assert f"`somaliland study run {path} --out {out}`" in err
    said = []
    summary = rerun(path, out, say=said.append)
    assert summary.played == 2 and f"repaired {mark}: " in said[0] and "played again" in said[0]
    assert_same_games(out, reference[1])


@pytest.mark.parametrize("text, located", [
    ('{"name": "tiny",', "line 1, column 17: expected JSON (a results manifest)"),
    ("[1, 2]", "(top level): expected a JSON object, found 'list'"),
    ('{"name": "tiny"}', "source: expected a str, found None"),
])
def test_a_damaged_manifest_is_located_and_rebuilt_by_run(damaged, reference, capsys, text, located):
    path, out = damaged
    manifest = out / "manifest.json"
    good = json.loads(manifest.read_text())
    manifest.write_text(text)
    for command in (["report", str(out)], ["replay", str(out), "--cell", "0", "--game", "0"]):
        assert main(["study", *command]) == 2
        err = one_error_line(capsys)
        assert f"error: {manifest}: {located}" in err and "it rebuilds the manifest" in err
    said = []
    summary = rerun(path, out, say=said.append)
    assert summary.played == 0 and said[0].startswith(f"repaired {manifest}: ") and "rebuilt from" in said[0]
    rebuilt = json.loads(manifest.read_text())
    same = [k for k in good if k not in ("created", "base_dir")]
    assert {k: rebuilt[k] for k in same} == {k: good[k] for k in same}
    assert (out / rebuilt["base_dir"]).resolve() == path.parent.resolve()
    assert_same_games(out, reference[1])


def test_a_deleted_manifest_is_rebuilt_by_run(damaged, reference, capsys):
    path, out = damaged
    (out / "manifest.json").unlink()
    assert main(["study", "report", str(out)]) == 2
    assert "manifest.json: (file): expected the manifest of these results, found 'no such file'" in \
        one_error_line(capsys)
    assert rerun(path, out).played == 0
    assert_same_games(out, reference[1])


def test_a_deleted_study_copy_is_named_and_restored_by_run(damaged, reference, capsys):
    path, out = damaged
    kept = out / "study.toml"
    kept.unlink()
    assert main(["study", "replay", str(out), "--cell", "0", "--game", "0"]) == 2
    err = one_error_line(capsys)
    assert f"error: {kept}: (file): expected the study file as run" in err
    assert f"run `somaliland study run {path} --out {out}` to restore it" in err
    said = []
    assert rerun(path, out, say=said.append).played == 0
    assert said == [f"repaired {kept}: was missing; restored from {path}"] and kept.read_text() == path.read_text()
    assert_same_games(out, reference[1])


def test_without_manifest_and_study_copy_run_refuses_and_says_how_to_adopt(damaged, reference, capsys):
    path, out = damaged
    (out / "manifest.json").unlink()
    (out / "study.toml").unlink()
    assert main(["study", "run", str(path), "--out", str(out), "--quiet", "--workers", "1"]) == 2
    err = one_error_line(capsys)
    assert f"error: {out / 'manifest.json'}: (file)" in err and f"copy {path} into the folder as study.toml" in err
    assert not (out / "manifest.json").exists()  # nothing adopted, nothing played
    (out / "study.toml").write_text(path.read_text())  # as the message says
    assert rerun(path, out).played == 0
    assert_same_games(out, reference[1])
