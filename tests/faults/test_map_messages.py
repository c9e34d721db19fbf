"""Issue 18 item 9: a bad map file gets one message per root problem, saying what the problem is.

An empty file is one problem, not one per missing key; a land or zone that cannot be read is reported
alone, without the follow-on problems of the legs and ports that rely on it; a degenerate outline is
called what it is (no area, a repeated point, edges that cross); names with control characters or line
breaks are refused where they are written.
"""

from pathlib import Path

import pytest

from somaliland.cli.main import main
from somaliland.map import MapError, load, problems

TINY = Path("maps/tiny.toml").read_text(encoding="utf-8")
ISLE = "[10.0, 10.0], [20.0, 10.0], [20.0, 30.0], [10.0, 30.0],"
ROCK = "[13.0, 35.0], [17.0, 35.0], [17.0, 38.0], [13.0, 38.0],"
NORTH_EAST = "[20.0, 33.0], [29.0, 33.0], [29.0, 39.0], [20.0, 39.0],"


def edited(tmp_path, old: str, new: str, name: str = "edited.toml") -> Path:
    """Write maps/tiny.toml with one edit; return its path."""
    assert TINY.count(old) == 1, f"{old!r} is no longer in maps/tiny.toml: update this test"
    path = tmp_path / name
    path.write_text(TINY.replace(old, new), encoding="utf-8")
    return path


def line_of(path: Path, snippet: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[:text.index(snippet)].count("\n") + 1


@pytest.mark.parametrize("text, found", [("", "an empty file"), ("\n  \n", "an empty file"),
                                         ("# a map, one day\n\n", "a file of comments and blank lines only")])
def test_an_empty_map_file_is_one_problem(tmp_path, capsys, text, found):
    path = tmp_path / "empty.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["map", "check", str(path)]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: (top level): expected a map file with the keys format, name, version, author, board, land, zone, "
        f"routes, pirate_port (maps/README.md), found {found}", f"{path}: 1 problem"]


def test_a_file_missing_several_keys_names_them_once(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text('format = 2\nname = "x"\n', encoding="utf-8")
    (problem,) = problems(path)
    assert (problem.expected, problem.found) == (
        "keys ['version', 'author', 'board', 'land', 'zone', 'routes', 'pirate_port']", "no such keys")


def test_a_broken_zone_is_reported_alone_not_as_a_missing_zone_of_its_legs(tmp_path):
    path = edited(tmp_path, NORTH_EAST, "[20.0, 33.0], [29.0, 39.0], [29.0, 33.0], [20.0, 39.0],")
    (problem,) = problems(path)  # routes.somalia.north.destination names it: no "no such zone"
    assert problem.path == ("zone", 0, "outline", 0) and problem.line == line_of(path, "[20.0, 33.0], [29.0, 39.0]")
    assert problem.found == ("a self-intersection: the edge from point 0 to point 1 crosses the edge from point 2 "
                             "to point 3 at (24.50, 36.00) cm")


def test_a_broken_land_is_reported_alone_not_as_ports_and_starts_off_the_coast(tmp_path):
    # the isle's outline crosses itself: without it the pirate port on its coast would be "out at sea"
    path = edited(tmp_path, ISLE, "[10.0, 10.0], [20.0, 30.0], [20.0, 10.0], [10.0, 30.0],")
    assert [p.path for p in problems(path)] == [("land", 0, "outline", 0)]


def test_a_leg_naming_no_zone_at_all_is_still_reported(tmp_path):
    path = edited(tmp_path, 'destination = "South-west"', 'destination = "Atlantis"')
    (problem,) = problems(path)
    assert problem.path == ("routes", "africa", "south", "destination") and problem.found == "'Atlantis'"


@pytest.mark.parametrize("outline, path, expected, found", [
    ("[13.0, 35.0], [15.0, 35.0], [17.0, 35.0], [14.0, 35.0],", ("land", 1, "outline"), "a polygon with an area",
     "an outline with no area: its points lie on one line"),
    ("[13.0, 35.0], [17.0, 35.0], [17.0, 35.0], [13.0, 35.0],", ("land", 1, "outline", 2),
     "an outline of at least 3 different points",
     "2 different points: point 2 (17.00, 35.00) cm repeats point 1 (a consecutive repeated point)"),
    ("[13.0, 35.0], [17.0, 35.0], [15.0, 36.0], [17.0, 38.0], [13.0, 38.0], [15.0, 36.0],",
     ("land", 1, "outline", 5), "a simple polygon",
     "point 5 (15.00, 36.00) cm repeats point 2: the outline touches itself there"),
    ("[13.0, 35.0], [17.0, 35.0], [17.0, 38.0], [15.0, 35.0], [13.0, 38.0],", ("land", 1, "outline", 3),
     "a simple polygon", "point 3 (15.00, 35.00) cm lies on the edge from point 0 to point 1: the outline touches "
                         "itself there"),
    ("[13.0, 35.0], [17.0, 38.0], [17.0, 35.0], [13.0, 38.0],", ("land", 1, "outline", 0), "a simple polygon",
     "a self-intersection: the edge from point 0 to point 1 crosses the edge from point 2 to point 3 at "
     "(15.00, 36.50) cm"),
])
def test_a_degenerate_outline_is_called_what_it_is(tmp_path, outline, path, expected, found):
    (problem,) = problems(edited(tmp_path, ROCK, outline))
    assert problem.path == path and problem.expected.startswith(expected) and problem.found == found


def test_a_closing_point_and_a_harmless_repeated_point_are_accepted(tmp_path):
    closed = "[13.0, 35.0], [17.0, 35.0], [17.0, 35.0], [17.0, 38.0], [13.0, 38.0], [13.0, 35.0],"
    assert problems(edited(tmp_path, ROCK, closed)) == []


@pytest.mark.parametrize("old, new, path, found", [
    ('name = "Rock"', 'name = "Ro\\nck"', ("land", 1, "name"), "'Ro\\nck' (a line break, U+000A, at character 3)"),
    ('label = "west passage"', 'label = "west\\u0007passage"', ("routes", "africa", "label"),
     "'west\\x07passage' (a control character, U+0007, at character 5)"),
    ('author = "Somaliland project"', 'author = "\\u202eSomaliland"', ("author",),
     "'\\u202eSomaliland' (a bidirectional control, U+202E, at character 1)"),
    ('name = "North-east"', 'name = "North-east\\u200b"', ("zone", 0, "name"),  # a look-alike of another name
     "'North-east\\u200b' (an invisible formatting character, U+200B, at character 11)"),
    ('name = "Tiny"', 'name = """Ti\nny"""', ("name",), "'Ti\\nny' (a line break, U+000A, at character 3)"),
    ('name = "Cove"', 'name = "Co\\u2028ve"', ("pirate_port", 0, "name"),
     "'Co\\u2028ve' (a line break, U+2028, at character 3)"),
    ('destination = "South-west"', 'destination = "South\\rwest"', ("routes", "africa", "south", "destination"),
     "'South\\rwest' (a line break, U+000D, at character 6)"),
])
def test_control_characters_and_line_breaks_in_names_are_refused_where_written(tmp_path, old, new, path, found):
    file = edited(tmp_path, old, new)
    with pytest.raises(MapError) as err:
        load(file)
    problem = err.value.problems[0]
    assert (problem.path, problem.expected, problem.found) == (
        path, "text without control characters, line breaks, bidirectional overrides or invisible characters no script "
              "needs", found)
    assert problem.line == line_of(file, new.split("\n")[0]) and "\n" not in str(err.value)


@pytest.mark.parametrize("old, new, path, expected, found", [
    ('name = "North-east"', 'name = "North-east "', ("zone", 0, "name"),
     "a name (unique among its kind) with no space at its start or end", "'North-east '"),
    ('name = "Cove"', 'name = " "', ("pirate_port", 0, "name"),
     "a name (unique among its kind) with no space at its start or end", "' '"),
    ('version = "1.0"', "version = 1.0", ("version",), "a string", "1.0"),  # one problem, not also the text rule's
    ('label = "west passage"', "label = true", ("routes", "africa", "label"), "a string", "true"),
])
def test_a_blank_padded_or_non_text_name_is_one_problem(tmp_path, old, new, path, expected, found):
    (problem,) = problems(edited(tmp_path, old, new))
    assert (problem.path, problem.expected, problem.found) == (path, expected, found)


def test_names_in_any_script_are_accepted(tmp_path):
    assert problems(edited(tmp_path, 'name = "Rock"', 'name = "Jasiiradda Sacaada Diin — سعد الدين"')) == []


def test_a_number_too_large_for_a_float_is_a_located_problem(tmp_path):
    path = edited(tmp_path, "at = [20.0, 20.0]", "at = [20.0, 1" + "0" * 400 + "]")
    (problem,) = problems(path)
    assert problem.path == ("pirate_port", 0, "at", 1) and problem.found == "a whole number of 401 digits"
    assert problem.line == line_of(path, "at = [20.0, 1")
