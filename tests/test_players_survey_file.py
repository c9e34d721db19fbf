"""Surveys kept on disk (somaliland/players/survey_file.py): a game on a survey read back is the game on the survey
sailed; a file that is not whole and ours (a planted pickle, damage, another survey's file) is never trusted, costs
one warning line and is kept anew; writers racing each other leave whole files; the code digest follows the code."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import shutil
from pathlib import Path

import pytest

from somaliland.engine.loop import play_game
from somaliland.engine.setup import GameSetup, Seat
from somaliland.map import load
from somaliland.players import survey as survey_module
from somaliland.players import survey_file
from somaliland.players.hand import ThrowSkill
from somaliland.players.strategies import make_policy
from somaliland.rules.config import RulesConfig

TINY = Path(__file__).resolve().parents[1] / "maps" / "tiny.toml"
WORLD = load(TINY)
CONFIG = RulesConfig(players=2, rounds=1)
QUICK = (("voyages", 2),)  # a quick survey


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """Return a function that starts a 'new process' (nothing in memory) on the disk cache in tmp_path/cache, and
    counts the surveys it sails in `sailed`."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("SOMALILAND_CACHE", str(folder))
    sail = survey_module._sail
    sailed = []

    def counted(*args, **kwargs):
        sailed.append(args[7])  # the thrower, None for the aim
        return sail(*args, **kwargs)

    monkeypatch.setattr(survey_module, "_sail", counted)

    def new_process() -> list:
        monkeypatch.setattr(survey_module, "_CACHE", {})
        sailed.clear()
        return sailed

    new_process.folder = folder / "surveys"
    return new_process


def kept(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def test_a_game_on_surveys_read_back_is_the_game_on_surveys_sailed(roller, cache):
    setup = GameSetup(seed=3, seats=(Seat("ev", ThrowSkill(), QUICK), Seat("bold", ThrowSkill(), QUICK)),
                      rules=CONFIG, map_path=TINY, record_paths=False)
    sailed = cache()
    first = play_game(setup, WORLD, roller)
    assert len(sailed) == 2 and len(kept(cache.folder)) == 2  # ev's and bold's surveys, each kept
    sailed = cache()
    again = play_game(setup, WORLD, roller)
    assert sailed == []  # both read back, none sailed
    assert again.events == first.events  # the same record, line for line


class Planted:
    """A pickle that writes a file when loaded: what an attacker with write access to the cache would plant."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return Path.write_text, (self.marker, "code ran")


def test_a_planted_pickle_is_never_loaded(roller, cache, capfd, tmp_path):
    """Whatever sits in the survey folder, a pickle included, under the name a survey is kept by (or the name the
    old format used), is not unpickled: the survey is sailed again with one warning line per file."""
    sailed = cache()
    first = make_policy("search", roller, search_samples=4, voyages=2).survey(WORLD, CONFIG)
    files = [p for p in cache.folder.iterdir() if p.suffix != ".lock"]
    assert files and sailed
    marker = tmp_path / "pwned"
    for path in files:
        path.write_bytes(pickle.dumps(Planted(marker)))
        path.with_suffix(".pickle").write_bytes(pickle.dumps(Planted(marker)))
    capfd.readouterr()
    sailed = cache()
    again = make_policy("search", roller, search_samples=4, voyages=2).survey(WORLD, CONFIG)
    assert not marker.exists()  # no code ran
    assert again == first and len(sailed) == len(files)
    lines = capfd.readouterr().err.splitlines()
    assert len(lines) == len(files) and all("survey file" in line and "sailing the survey again" in line
                                            for line in lines)
    assert {line.split("survey file ")[1].split(":")[0] for line in lines} == {str(p) for p in files}


def _cut(data: bytes) -> bytes:
    return data[:len(data) // 2]


def _changed(data: bytes) -> bytes:
    text = data.decode()
    at = text.index('"throws":') + len('"throws":')
    return (text[:at] + str(int(text[at]) + 1 if text[at] != "9" else 1) + text[at + 1:]).encode()


def _crafted(data: bytes) -> bytes:
    """Return a file whose digest matches but whose content breaks the schema (one turn's count missing)."""
    document = json.loads(data)
    document["content"]["legs"][0]["arrivals"].pop()
    document["sha256"] = survey_file.content_digest(document)
    return json.dumps(document).encode()


DAMAGE = {
    "cut short": _cut,
    "a digit changed": _changed,
    "empty": lambda data: b"",
    "random bytes": lambda data: bytes(range(256)) * 4,
    "nested 100,000 deep": lambda data: b"[" * 100_000,
    "larger than any survey of its key": lambda data: b"{" + b" " * 5_000_000 + b"}",
    "its schema broken under a matching digest": _crafted,
    "not JSON but valid UTF-8": lambda data: b"key = 'toml'\n",
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_file_warns_once_and_is_kept_anew(roller, cache, capfd, damage):
    cache()
    first = make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG)
    [path] = kept(cache.folder)
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    capfd.readouterr()
    sailed = cache()
    assert make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG) == first and sailed == [None]
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and f"survey file {path}: " in err, err
    sailed = cache()  # a later process reads the file kept anew, quietly
    assert make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG) == first and sailed == []
    assert capfd.readouterr().err == ""


def test_another_surveys_file_under_this_name_is_not_taken_for_it(roller, cache, capfd):
    cache()
    two = make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG)
    [mine] = kept(cache.folder)
    make_policy("ev", roller, voyages=3).survey(WORLD, CONFIG)
    [other] = [p for p in kept(cache.folder) if p != mine]
    shutil.copyfile(other, mine)
    capfd.readouterr()
    sailed = cache()
    assert make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG) == two and sailed == [None]
    assert "made for another survey" in capfd.readouterr().err


def test_a_survey_sailed_on_another_kind_of_machine_is_not_read_here(roller, cache, capfd, monkeypatch):
    """A cache shared by a cluster's machines: a survey is read back only where the fingerprint (SIMD level, C
    library, package versions) is the one it was sailed with; elsewhere it is sailed again, quietly, beside it."""
    cache()
    first = make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG)
    [here] = kept(cache.folder)
    this_machine = survey_file.machine
    monkeypatch.setattr(survey_file, "machine", lambda: '{"simd": "another"}')
    capfd.readouterr()
    sailed = cache()
    assert make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG) == first and sailed == [None]
    assert capfd.readouterr().err == "" and len(kept(cache.folder)) == 2
    [there] = [p for p in kept(cache.folder) if p != here]
    shutil.copyfile(there, here)  # the other machine's file under this machine's name
    monkeypatch.setattr(survey_file, "machine", this_machine)
    sailed = cache()
    assert make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG) == first and sailed == [None]
    assert "on another kind of machine" in capfd.readouterr().err


def test_a_folder_that_cannot_keep_surveys_costs_one_warning_and_the_game_goes_on(roller, cache, capfd, monkeypatch,
                                                                                   tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("SOMALILAND_CACHE", str(blocked))
    survey_file._warn_once.cache_clear()
    cache()
    found = make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG)
    assert found.legs
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "cannot keep surveys there" in err


def _writer(path: str, n: int, rounds: int) -> None:
    for _ in range(rounds):
        survey_file.write(Path(path), "race", {"writer": n, "pad": [n] * 200_000})


def test_writers_racing_on_one_file_leave_it_whole(tmp_path, capfd):
    """Four processes write the same survey file over and over while this one reads it: every read finds one
    writer's whole file (renamed into place), never a part of one."""
    path = tmp_path / "race.json"
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_writer, args=(str(path), n, 15)) for n in range(4)]
    for w in writers:
        w.start()
    seen = set()
    while any(w.is_alive() for w in writers):
        content = survey_file.read(path, "race", 10_000_000, lambda c: c)
        if content is not None:
            assert content["pad"] == [content["writer"]] * 200_000
            seen.add(content["writer"])
    for w in writers:
        w.join()
        assert w.exitcode == 0
    assert seen and capfd.readouterr().err == ""
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]  # no temporary file left behind


def test_the_code_digest_follows_the_code_that_sails_a_survey(tmp_path):
    files = {"physics/roll.py": "x = 1\n", "somaliland/players/aim.py": "y = 2\n", "somaliland/rules/r.py": "",
             "somaliland/seeding.py": "", "somaliland/cli/play.py": "", "somaliland/players/README.md": "# notes\n",
             "somaliland/study/runner.py": ""}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = survey_file.digest_sources(tmp_path)
    for unrelated in ("somaliland/cli/play.py", "somaliland/players/README.md", "somaliland/study/runner.py"):
        (tmp_path / unrelated).write_text("# edited\n")
        assert survey_file.digest_sources(tmp_path) == before, unrelated
    for related in ("physics/roll.py", "somaliland/players/aim.py", "somaliland/rules/r.py", "somaliland/seeding.py"):
        (tmp_path / related).write_text("# edited\n")
        assert survey_file.digest_sources(tmp_path) != before, related
        before = survey_file.digest_sources(tmp_path)


@pytest.mark.parametrize("planted", ["a link to a file elsewhere", "a named pipe"])
def test_a_link_or_a_pipe_in_place_of_a_file_is_not_followed_nor_waited_on(roller, cache, capfd, tmp_path, planted):
    cache()
    first = make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG)
    [path] = kept(cache.folder)
    elsewhere = tmp_path / "elsewhere.json"
    shutil.copyfile(path, elsewhere)  # a whole survey file, but not in the folder
    path.unlink()
    if planted == "a named pipe":
        os.mkfifo(path)
    else:
        path.symlink_to(elsewhere)
    capfd.readouterr()
    sailed = cache()
    assert make_policy("ev", roller, voyages=2).survey(WORLD, CONFIG) == first and sailed == [None]
    assert capfd.readouterr().err.count("\n") == 1
    assert path.is_file() and not path.is_symlink() and elsewhere.read_bytes() != b""  # replaced, not written through
