"""Limits before work: no input can exhaust the memory or the stack before it is checked.

Every input file is bounded in size before it is read (`/dev/zero` and a 3 GB sparse file are refused at once,
the message says the limit); arrays and tables nested deeper than the limit get one located line, in a record,
a map, a rules, study or tuning file, and in a results folder's journal, chunk mark and manifest (which
`study run` repairs and `study report` names); a sweep's size is counted from its axes before a cell is made,
and a study's games are made as they are played: memory stays small before the first of ten million.

The commands that could take the machine's memory on code without these limits run in a subprocess capped
at `MEMORY` of address space and `TIMEOUT` seconds, so that such code fails the test instead.
"""

import json
import os
import resource
import subprocess
import sys
import time

import pytest
from support import assert_same_games, rerun, toy_tuning

from somaliland.cli.main import main
from somaliland.inputs import MAX_DEPTH
from test_study_support import ROOT, TINY_MAP, tiny_study

MEMORY = 2 << 30  # bytes of address space a capped command may take
TIMEOUT = 60  # seconds
DEEP = 100_000  # the `[` of a record line (issue case 6)
DEEP_TOML = 500  # the levels of a TOML value


def capped(args: list, code: str | None = None) -> subprocess.CompletedProcess:
    """Run `somaliland ARGS` (or Python `code` with ARGS) in a subprocess with its memory and time capped."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    # one thread each for BLAS and few malloc arenas: address space reserved, not used, stays far below the cap
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "MALLOC_ARENA_MAX": "2"}
    command = ["-c", code] if code is not None else ["-m", "somaliland.cli.main"]
    return subprocess.run([sys.executable, *command, *map(str, args)], capture_output=True, text=True,
                          timeout=TIMEOUT, preexec_fn=limit, cwd=ROOT, env=env)


@pytest.fixture(scope="module")
def sparse(tmp_path_factory):
    """Return a 3 GB sparse file (no disk taken): what a size check must refuse before reading it."""
    path = tmp_path_factory.mktemp("sparse") / "huge.toml"
    with open(path, "wb") as file:
        file.truncate(3 << 30)
    return path


def commands(path, tmp):
    """Return the command that reads each kind of input file, reading `path` as that file."""
    study = tiny_study(tmp, games=1)
    return {"map": ["map", "check", path], "rules": ["play", "--players", "2", "--rules", path],
            "record (verify)": ["verify", path], "record (replay)": ["replay", path, "--html", tmp / "x.html"],
            "study": ["study", "run", path, "--quiet"], "tuning": ["tune", path, "--quiet"],
            "study's map": ["study", "run", _with_map(study, path), "--quiet"]}  # read to be hashed


def _with_map(study, map_path):
    study.write_text(study.read_text().replace(str(TINY_MAP), str(map_path)))
    return study


@pytest.mark.parametrize("kind, source", [
    *((kind, source) for kind in ("map", "rules", "record (verify)", "record (replay)", "study", "tuning")
      for source in ("/dev/zero", "sparse")),
    ("study's map", "sparse"),  # a study's map must be a file: /dev/zero is refused as none
])
def test_an_endless_or_huge_file_is_refused_at_once_saying_the_limit(tmp_path, sparse, kind, source):
    path = sparse if source == "sparse" else source
    started = time.monotonic()
    done = capped(commands(path, tmp_path)[kind])
    took = time.monotonic() - started
    told = (done.stdout + done.stderr).strip().splitlines()  # map check tells on standard output
    assert done.returncode == 2 and "Traceback" not in done.stderr, (done.returncode, done.stderr[-2000:])
    assert len(told) == (2 if kind == "map" else 1), told  # map check adds its count of problems
    err = told[0]
    assert str(path) in err and "of at most" in err and ("3 GiB" in err if source == "sparse" else
                                                        "(a device or a pipe)" in err), err
    assert took < 20, took  # refused, not read


def test_a_sweep_is_counted_from_its_axes_before_a_cell_is_made(tmp_path):
    axes = '"rules.rounds" = [{0}]\n"seats.skill" = [{0}]\n"rules.turns_per_round" = [{1}]\n'.format(
        ", ".join(map(str, range(300))), ", ".join(map(str, range(1000))))
    study = tiny_study(tmp_path, games=1, sweep=axes)
    started = time.monotonic()
    done = capped(["study", "run", study, "--quiet"])
    assert done.returncode == 2 and done.stderr.strip() == \
        f"somaliland study: error: {study}: sweep: expected at most 10000 cells, found 90000000", done.stderr[-2000:]
    assert time.monotonic() - started < 20


FIRST_GAME = """
import resource, os, sys
from pathlib import Path
from somaliland.study import load_study
from somaliland.study.executors import local_executors
from somaliland.study.runner import run_study

def first(outcome):  # the memory this process took before (and through) the first game, then stop
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, flush=True)
    os._exit(0)

path = Path(sys.argv[1])
run_study(load_study(path), path.read_text(), path.parent / "out", local_executors(1), 1, progress=False,
          on_game=first)
"""


def test_the_games_of_ten_million_are_made_as_they_are_played(tmp_path):
    study = tiny_study(tmp_path, games=10_000_000)  # the documented maximum of games_per_cell
    done = capped([study], code=FIRST_GAME)
    assert done.returncode == 0, done.stderr[-2000:]
    peak = int(done.stdout.split()[-1])
    assert peak < 500e6, f"{peak / 1e6:.0f} MB before the first game"


def deep_json_line():
    return "[" * DEEP


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_record_line_nested_too_deep_is_one_located_line(tmp_path, capsys, command):
    from replay_fixtures import record_game

    record = record_game(tmp_path / "game.jsonl", rounds=1)
    lines = record.read_text().splitlines()
    lines.insert(2, deep_json_line())
    record.write_text("\n".join(lines) + "\n")
    args = [command, str(record)] + (["--html", str(tmp_path / "x.html")] if command == "replay" else [])
    assert main(args) == 2
    assert capsys.readouterr().err == (f"somaliland {command}: error: {record}, line 3: expected arrays and tables "
                                       f"nested at most {MAX_DEPTH} deep, found more than {MAX_DEPTH} levels\n")


def nested(kind):
    """Return a TOML value nested `DEEP_TOML` levels deep: arrays, or inline tables."""
    return "[" * DEEP_TOML + "]" * DEEP_TOML if kind == "arrays" else "{a = " * DEEP_TOML + "1" + "}" * DEEP_TOML


@pytest.mark.parametrize("value", ["arrays", "tables"])
@pytest.mark.parametrize("kind", ["map", "rules", "study", "tuning"])
def test_toml_nested_too_deep_is_one_located_line(tmp_path, capsys, kind, value):
    sources = {"map": TINY_MAP, "study": tiny_study(tmp_path, games=1), "tuning": toy_tuning(tmp_path)}
    text = sources[kind].read_text() if kind in sources else "players = 2\n"
    path = tmp_path / f"deep-{kind}.toml"
    line = text.count("\n") + 1
    path.write_text(f"{text}deep = {nested(value)}\n")
    args = {"map": ["map", "check", path], "rules": ["play", "--players", "2", "--rules", path],
            "study": ["study", "run", path, "--quiet"], "tuning": ["tune", path, "--quiet"]}[kind]
    assert main([str(a) for a in args]) == 2
    captured = capsys.readouterr()
    told = (captured.out if kind == "map" else captured.err).strip().splitlines()
    where = f"{path}:{line}: (top level): " if kind == "map" else f"{path}: line {line}: "
    assert where in told[0] and f"expected arrays and tables nested at most {MAX_DEPTH} deep" in told[0], told
    assert len(told) == (2 if kind == "map" else 1)  # map check adds its count of problems


def deep_line_in(out, part):
    """Put a line nested `DEEP` deep into a results folder's journal, a chunk mark or its manifest."""
    if part == "journal":
        with open(out / "journal.jsonl", "a") as journal:
            journal.write(deep_json_line() + "\n")
        return out / "journal.jsonl"
    path = out / "chunks" / "000002.json" if part == "mark" else out / "manifest.json"
    path.write_text(deep_json_line())
    return path


@pytest.mark.parametrize("part", ["journal", "mark", "manifest"])
def test_a_results_folder_nested_too_deep_is_repaired_by_run_and_named_by_report(damaged, reference, capsys, part):
    path, out = damaged
    damaged_file = deep_line_in(out, part)
    code = main(["study", "report", str(out)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if part == "journal":  # a line that is no game is left out of what the report reads
        assert code == 0
    else:
        assert code == 2 and err.count("\n") == 1 and f"error: {damaged_file}: " in err, err
        assert f"nested at most {MAX_DEPTH} deep" in err
    said = []
    summary = rerun(path, out, say=said.append)
    assert any(str(damaged_file) in note and f"nested at most {MAX_DEPTH} deep" in note for note in said), said
    assert summary.played == (2 if part == "mark" else 0)
    assert_same_games(out, reference[1])
    assert main(["study", "report", str(out)]) == 0
    json.loads((out / "manifest.json").read_text())
