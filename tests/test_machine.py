"""The machine fingerprint a record carries, and what a replay says when it parts on another machine."""

import json
import platform

import pytest

from scripted import scripted_factory
from somaliland.engine.verify import verify_record
from somaliland.machine import PACKAGES, describe, fingerprint, parting_note

# another kind of machine than this one, whatever this one is: another CPU and another SIMD level
OTHER = {**fingerprint(), "cpu": "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
         "simd": "AVX512_SKX" if fingerprint()["simd"] == "AVX512_ICL" else "AVX512_ICL"}
NOTE_END = ": physics results can differ in the last bits between these machines"


def test_fingerprint_names_the_cpu_simd_level_c_library_and_package_versions():
    fp = fingerprint()
    assert fp["arch"] == platform.machine() and fp["python"] == platform.python_version()
    assert fp["libc"] == " ".join(platform.libc_ver())
    assert all(fp[name] not in ("", "absent") for name in PACKAGES)
    assert fp["simd"] and fp["cpu"] and fp["libm"]
    assert fingerprint() is not fingerprint()  # callers get their own copy
    line = describe(fp)
    assert line.startswith(fp["cpu"]) and f"numpy {fp['numpy']}" in line and f"pybullet {fp['pybullet']}" in line


def test_no_note_on_the_recording_machines_kind_and_a_note_naming_both_machines_elsewhere():
    assert parting_note(fingerprint()) is None and parting_note(describe(fingerprint())) is None
    assert parting_note(OTHER) == (f"recorded on {describe(OTHER)}, replayed on {describe(fingerprint())}{NOTE_END} "
                                   f"(they differ in cpu, simd)")
    from_table = parting_note(describe(OTHER))  # a games table keeps the one-line form: no field list
    assert from_table == f"recorded on {describe(OTHER)}, replayed on {describe(fingerprint())}{NOTE_END}"
    assert parting_note(None).startswith("recorded on an unnamed machine (the record predates machine fingerprints)")


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    from physics import make_roller
    from somaliland.engine.loop import play_game
    from somaliland.engine.record import RecordWriter
    from somaliland.engine.setup import DEFAULT_MAP, GameSetup, Seat
    from somaliland.map import load
    from somaliland.rules import RulesConfig

    path = tmp_path_factory.mktemp("machine") / "game.jsonl"
    setup = GameSetup(seed=4, seats=(Seat("africa"), Seat("somalia")), rules=RulesConfig(players=2, rounds=1))
    with RecordWriter(path) as writer, make_roller() as roller:
        play_game(setup, load(DEFAULT_MAP), roller, scripted_factory, sink=writer)
    return path.read_text().splitlines()


def rewrite(lines, tmp_path, machine=None, throw_edit=False):
    lines = list(lines)
    head = {key: value for key, value in json.loads(lines[0]).items() if key != "machine"}
    lines[0] = json.dumps(head if machine is None else {**head, "machine": machine})
    if throw_edit:
        k = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == "throw")
        event = json.loads(lines[k])
        event["result"]["thrown"]["position"][0] += 1e-9
        lines[k] = json.dumps(event)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_record_names_the_machine_that_played_it(record):
    assert json.loads(record[0])["machine"] == fingerprint()


@pytest.mark.parametrize("machine", [OTHER, None])
def test_a_record_from_another_or_an_unnamed_machine_verifies_when_it_replays(record, tmp_path, machine):
    verdict = verify_record(rewrite(record, tmp_path, machine), scripted_factory)
    assert verdict.ok, verdict.message


def test_a_record_from_another_machine_that_parts_says_the_machines_differ(record, tmp_path):
    verdict = verify_record(rewrite(record, tmp_path, OTHER, throw_edit=True), scripted_factory)
    assert not verdict.ok and "differs at result.thrown.position[0]" in verdict.message
    assert verdict.message.endswith(f"; recorded on {describe(OTHER)}, replayed on {describe(fingerprint())}{NOTE_END} "
                                    f"(they differ in cpu, simd)")


def test_a_record_from_this_machine_that_parts_makes_no_excuse(record, tmp_path):
    verdict = verify_record(rewrite(record, tmp_path, fingerprint(), throw_edit=True), scripted_factory)
    assert not verdict.ok and "recorded on" not in verdict.message
