"""Issue 18 item 10: `verify` of a game played on another map finds that map by the sha256 its record keeps.

The map is looked for at its recorded path, then beside the record (by name, then by content), then in the
maps folder; when no file has the recorded sha256, verify exits 2 naming the file it needs (name, sha256).
"""

import json
import shutil

import pytest

from physics import make_roller
from scripted import scripted_factory
from somaliland.cli.main import main
from somaliland.engine.loop import play_game
from somaliland.engine.mapref import find_map
from somaliland.engine.record import RecordError, RecordWriter
from somaliland.engine.setup import GameSetup, Seat
from somaliland.engine.verify import verify_record
from somaliland.map import load
from somaliland.map.schema import MAPS_DIR
from somaliland.rules import RulesConfig
from test_study_support import TINY_MAP


@pytest.fixture
def played(tmp_path):
    """Return (record, map file) of a game played on a variant of the tiny map kept in its own folder."""
    board = tmp_path / "boards" / "lagoon.toml"
    board.parent.mkdir()
    text = TINY_MAP.read_text()
    assert 'name = "Tiny"' in text
    board.write_text(text.replace('name = "Tiny"', 'name = "Lagoon"'))  # unlike any shipped map
    record = tmp_path / "records" / "game.jsonl"
    record.parent.mkdir()
    setup = GameSetup(seed=4, seats=(Seat("africa"), Seat("somalia")), rules=RulesConfig(players=2, rounds=1),
                      map_path=board)
    with RecordWriter(record) as writer, make_roller() as roller:
        play_game(setup, load(board), roller, scripted_factory, sink=writer)
    return record, board


def test_the_map_at_its_recorded_path_verifies_without_a_warning(played):
    record, _ = played
    verdict = verify_record(record, scripted_factory)
    assert verdict.ok and verdict.warnings == ()


@pytest.mark.parametrize("name", ["lagoon.toml", "renamed.toml"])
def test_a_moved_map_is_found_beside_the_record_by_its_sha256(played, name):
    record, board = played
    shutil.move(board, record.parent / name)
    verdict = verify_record(record, scripted_factory)
    assert verdict.ok, verdict.message
    assert verdict.warnings == (f"the map is not at its recorded path {board}; using {record.parent / name}, which "
                                f"has the recorded sha256",)


def test_a_map_in_the_maps_folder_is_found_by_its_sha256(played, tmp_path):
    record, board = played
    maps = tmp_path / "maps"
    maps.mkdir()
    shutil.move(board, maps / "tiny-copy.toml")
    head = json.loads(record.read_text().splitlines()[0])
    assert find_map(head, record, maps) == (maps / "tiny-copy.toml", f"the map is not at its recorded path {board}; "
                                            f"using {maps / 'tiny-copy.toml'}, which has the recorded sha256")


@pytest.mark.parametrize("fault, state", [("deleted", "is missing"), ("edited", "has changed since the game was "
                                                                                  "recorded")])
def test_without_the_map_verify_names_the_file_it_needs_and_exits_2(played, capsys, fault, state):
    record, board = played
    sha = json.loads(record.read_text().splitlines()[0])["map"]["sha256"]
    if fault == "deleted":
        board.unlink()
    else:
        board.write_text(board.read_text().replace('name = "Lagoon"', 'name = "Lagoon, edited"'))
    assert main(["verify", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"somaliland verify: error: {record}, line 1: map.file: needs the map the game was played "
                          f"on, lagoon.toml (\"Lagoon\", sha256 {sha}); {board} {state}, and no file of that sha256 is "
                          f"in ")
    assert err.endswith(f"in {record.parent} or {MAPS_DIR}: put that map file beside the record\n")
    assert err.count("\n") == 1
    with pytest.raises(RecordError):
        find_map(json.loads(record.read_text().splitlines()[0]), record)
