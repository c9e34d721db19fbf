"""Broken maps, one defect each: each gets one located MapError naming file, key path, line, expected
and found. The defects are made by editing one line of maps/tiny.toml."""

import math
from pathlib import Path

import pytest

from somaliland.map import MapError, load, problems

TINY = Path("maps/tiny.toml").read_text(encoding="utf-8")
TINY_FORMAT1 = Path("tests/data/tiny-format1.toml").read_text(encoding="utf-8")  # tiny.toml before format 2

# (id, text to replace, replacement, key path, words in "expected", words in "found")
DEFECTS = [
    ("not-toml", 'name = "Tiny"', 'name = "Tiny', "(top level)", "valid TOML", "illegal character"),
    ("duplicate-key", 'name = "Tiny"', 'name = "Tiny"\nname = "Again"', "(top level)", "valid TOML", "overwrite"),
    ("missing-name", 'name = "Tiny"\n', "", "(top level)", "key 'name'", "no such key"),
    ("unknown-key", 'author = "Somaliland project"', 'author = "x"\ncolour = "blue"', "colour",
     "only the keys", "'colour'"),
    ("self-crossing-centre-line", "centre_line = [[25.0, 3.0], [25.0, 37.0]]",
     "centre_line = [[25.0, 3.0], [25.0, 20.0], [28.0, 15.0], [22.0, 15.0], [25.0, 37.0]]",
     "routes.somalia.centre_line[0]", "a line that does not cross itself",
     "the segment from point 0 to point 1 meets the segment from point 2 to point 3 at (25.00, 15.00) cm"),
    ("typo-key", "[board]\nwidth = 30.0", "[board]\nwidht = 30.0", "board.widht", "only the keys",
     "'widht' (did you mean 'width'?)"),
    ("wrong-format", "format = 2", "format = 3", "format", "one of [1, 2]", "3"),
    ("width-a-string", "width = 30.0", 'width = "30"', "board.width", "a number", "'30'"),
    ("width-too-small", "width = 30.0", "width = 1.0", "board.width", ">= 10", "1.0"),
    ("nan-depth", "depth = 40.0", "depth = nan", "board.depth", "finite", "nan"),
    ("negative-relief", "relief = 2.0", "relief = -2.0", "land[1].relief", ">= 0", "-2.0"),
    ("two-point-outline", "  [13.0, 35.0], [17.0, 35.0], [17.0, 38.0], [13.0, 38.0],",
     "  [13.0, 35.0], [17.0, 35.0],", "land[1].outline", "at least 3 items", "2 items"),
    ("three-coordinates", "at = [20.0, 20.0]", "at = [20.0, 20.0, 1.0]", "pirate_port[0].at", "at most 2", "3 items"),
    ("self-crossing-land", "  [10.0, 10.0], [20.0, 10.0], [20.0, 30.0], [10.0, 30.0],",
     "  [10.0, 10.0], [20.0, 30.0], [20.0, 10.0], [10.0, 30.0],", "land[0].outline[0]", "simple polygon",
     "the edge from point 0 to point 1 crosses the edge from point 2 to point 3 at (15.00, 20.00) cm"),
    ("hole-outside-land", "[[13.0, 18.0], [17.0, 18.0], [17.0, 22.0], [13.0, 22.0]]",
     "[[23.0, 18.0], [27.0, 18.0], [27.0, 22.0], [23.0, 22.0]]", "land[0].holes[0]", "a hole inside its land",
     "reaching (23.00, 18.00)"),
    ("self-crossing-hole", "[[13.0, 18.0], [17.0, 18.0], [17.0, 22.0], [13.0, 22.0]]",
     "[[13.0, 18.0], [17.0, 22.0], [17.0, 18.0], [13.0, 22.0]]", "land[0].holes[0][0]", "simple polygon",
     "self-intersection"),
    ("land-off-board", "[17.0, 38.0], [13.0, 38.0],", "[17.0, 41.0], [13.0, 38.0],", "land[1].outline[2]",
     "on the 30 x 40 cm board", "(17.00, 41.00)"),
    ("duplicate-land-name", 'name = "Rock"', 'name = "Isle"', "land[1].name", "not used by another",
     "already the name of land[0]"),
    ("start-on-land", "start = [25.0, 9.0]", "start = [15.0, 12.0]", "routes.somalia.north.start",
     "a start at sea", "on land"),
    ("start-off-board", "start = [5.0, 31.0]", "start = [5.0, 45.0]", "routes.africa.south.start",
     "on the 30 x 40 cm board", "(5.00, 45.00)"),
    ("heading-backwards", "heading = 90.0", "heading = -90.0", "routes.somalia.north.heading",
     "within 90 degrees", "-90"),
    ("launch-into-land", "start = [25.0, 9.0]\nheading = 90.0", "start = [22.0, 9.0]\nheading = 150.0",
     "routes.somalia.north.heading", "at least 5 cm of open sea ahead", "150, with land or the board's edge 2.2 cm"),
    ("unknown-zone", 'destination = "South-west"', 'destination = "Atlantis"', "routes.africa.south.destination",
     "the name of a [[zone]]", "'Atlantis'"),
    ("zone-behind-start", 'destination = "North-east"', 'destination = "South-east"',
     "routes.somalia.north.destination", "further north", "behind the start"),
    ("start-in-own-zone", "start = [5.0, 9.0]", "start = [5.0, 35.0]", "routes.africa.north.start",
     "outside its own destination zone", "inside zone 'North-west'"),
    ("zone-on-land", "  [20.0, 33.0], [29.0, 33.0], [29.0, 39.0], [20.0, 39.0],",
     "  [11.0, 11.0], [19.0, 11.0], [19.0, 17.0], [11.0, 17.0],", "zone[0].outline", "mostly at sea", "0% sea"),
    ("centre-line-over-land", "centre_line = [[25.0, 3.0], [25.0, 37.0]]",
     "centre_line = [[25.0, 3.0], [15.0, 12.0], [15.0, 28.0], [25.0, 37.0]]", "routes.somalia.centre_line",
     "mostly at sea", "over land"),
    ("centre-line-north-first", "centre_line = [[5.0, 3.0], [5.0, 37.0]]",
     "centre_line = [[5.0, 37.0], [5.0, 3.0]]", "routes.africa.centre_line", "south end first", "north of last"),
    ("port-out-at-sea", "at = [20.0, 20.0]", "at = [26.0, 20.0]", "pirate_port[0].at", "within 2 cm of a coast",
     "out at sea 6.0 cm"),
    ("port-inland", "at = [20.0, 20.0]", "at = [15.0, 26.5]", "pirate_port[0].at", "within 2 cm of a coast",
     "inland"),
    ("route-name-upper-case", "[routes.africa]\n", "[routes.West]\n", "routes.West",
     "a route name of lowercase letters, digits and underscores", "'West'"),
    ("R8-full-value-missing", "full_value = false\n", "", "routes.africa", "key 'full_value'", "no such key"),
    ("full-value-not-boolean", "full_value = false", 'full_value = "no"', "routes.africa.full_value",
     "true or false", "'no'"),
    ("empty-label", 'label = "west passage"', 'label = ""', "routes.africa.label", "at least 1 character", "''"),
    ("D1-zone-smaller-than-a-die", "  [20.0, 33.0], [29.0, 33.0], [29.0, 39.0], [20.0, 39.0],",
     "  [24.0, 36.0], [25.0, 36.0], [25.0, 37.0], [24.0, 37.0],", "zone[0].outline",
     "a zone with room to arrive: at least a die's face (1.6 x 1.6 cm)", "1 cm² of 1 cm²"),
    ("heading-in-radians", "heading = 90.0", "heading = 1.5708", "routes.somalia.north.heading",
     "a heading in degrees within 45 degrees (the launch tolerance) of the northbound route's direction at the start "
     "(90): one of at most 2π (6.28) further off that would fit read as radians is taken for radians",
     "1.5708, 88 degrees off; as radians, 1.5708 rad is 90 degrees, 0 off"),
    ("start-on-the-board-edge", "start = [5.0, 31.0]", "start = [0.2, 31.0]", "routes.africa.south.start",
     "at least half a die (0.8 cm) inside the board's edge", "(0.20, 31.00) cm, 0.2 cm from it"),
    ("start-against-land", "start = [25.0, 9.0]", "start = [20.5, 12.0]", "routes.somalia.north.start",
     "at least half a die (0.8 cm) from land", "(20.50, 12.00) cm, 0.5 cm from land"),
    ("another-routes-zone", 'destination = "North-east"', 'destination = "North-west"',
     "routes.somalia.north.destination", "the zone at the north end of the route's centre line (within 2 cm of its "
     "last point, (25.00, 37.00) cm)", "zone 'North-west', 15.0 cm from it"),
    ("zone-cut-off-by-land", "  [13.0, 35.0], [17.0, 35.0], [17.0, 38.0], [13.0, 38.0],",
     "  [0.0, 31.8], [30.0, 31.8], [30.0, 32.4], [0.0, 32.4],", "routes.somalia.north.destination",
     "a zone a ship can reach by sea from the start", "zone 'North-east', cut off from the start's water by land"),
    ("label-taken", 'label = "west passage"', 'label = "east passage"', "routes.africa.label",
     "a label not used by another route", "'east passage', already what routes.somalia is called"),
]

# format 1 (the first format) reads as it always did: exactly the routes somalia and africa
FORMAT1_DEFECTS = [
    ("format1-other-route", "[routes.africa]\n", "[routes.other]\n", "routes.other", "only the keys", "'other'"),
    ("format1-empty-label", "full_value = false", 'full_value = false\nlabel = ""', "routes.africa.label",
     "at least 1 character", "''"),
]


def line_of(text: str, snippet: str) -> int:
    return text[:text.index(snippet)].count("\n") + 1


@pytest.mark.parametrize("base, case", [(TINY, d) for d in DEFECTS] + [(TINY_FORMAT1, d) for d in FORMAT1_DEFECTS],
                         ids=[d[0] for d in DEFECTS + FORMAT1_DEFECTS])
def test_each_defect_gets_its_located_error(base, case, tmp_path):
    name, old, new, key_path, expected, found = case
    assert base.count(old) >= 1, f"the defect {name} no longer applies to its map"
    text = base.replace(old, new, 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as err:
        load(path)
    e = err.value
    assert e.file == str(path)
    assert e.key_path == key_path, str(e)
    assert expected in e.expected, str(e)
    assert found.lower() in e.found.lower(), str(e)
    if found != "no such key":  # a missing key has no line to name
        keys = [k for k in e.path if isinstance(k, str)]
        written = text.splitlines()[e.line - 1]
        assert (keys and keys[-1] in written) or new.splitlines()[-1].strip() in written, str(e)
    message = str(e)
    where = f"{path}:{e.line}" if e.line else f"{path}"
    assert message.startswith(f"{where}: {key_path}: expected ") and "Traceback" not in message


def test_every_problem_is_reported_not_just_the_first(tmp_path):
    text = TINY.replace("at = [20.0, 20.0]", "at = [26.0, 20.0]").replace(
        'destination = "South-west"', 'destination = "Atlantis"').replace("start = [25.0, 9.0]", "start = [15.0, 12.0]")
    path = tmp_path / "three.toml"
    path.write_text(text, encoding="utf-8")
    found = problems(path)
    assert [p.path for p in found] == [("routes", "somalia", "north", "start"),
                                       ("routes", "africa", "south", "destination"), ("pirate_port", 0, "at")]
    with pytest.raises(MapError) as err:
        load(path)
    assert len(err.value.problems) == 3 and "and 2 more problems" in str(err.value)


def test_schema_problems_are_all_reported_with_their_lines(tmp_path):
    text = TINY.replace("width = 30.0", 'width = "wide"').replace("heading = 90.0", "heading = 900.0", 1)
    path = tmp_path / "two.toml"
    path.write_text(text, encoding="utf-8")
    found = {p.path: p.line for p in problems(path)}
    assert found == {("board", "width"): line_of(text, 'width = "wide"'),
                     ("routes", "somalia", "north", "heading"): line_of(text, "heading = 900.0")}


def test_bad_point_inside_a_multiline_array_names_its_line(tmp_path):
    text = TINY.replace("[17.0, 38.0], [13.0, 38.0],", '[17.0, 38.0], [13.0, "y"],')
    path = tmp_path / "point.toml"
    path.write_text(text, encoding="utf-8")
    (problem,) = problems(path)
    assert problem.path == ("land", 1, "outline", 3, 1)
    assert problem.line == line_of(text, '[13.0, "y"]')


def test_not_utf8_is_a_located_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(TINY.replace("Tiny", "Tíny").encode("latin-1"))
    with pytest.raises(MapError) as err:
        load(path)
    assert "UTF-8" in err.value.expected and "0xed" in err.value.found


def test_a_route_name_with_a_space_is_located_on_its_table(tmp_path):
    text = TINY.replace("[routes.africa", '[routes."west passage"')
    path = tmp_path / "space.toml"
    path.write_text(text, encoding="utf-8")
    (problem,) = problems(path)
    assert problem.path == ("routes", "west passage")
    assert problem.expected.startswith("a route name of lowercase letters, digits and underscores")
    assert problem.line == line_of(text, '[routes."west passage"]\n')


def test_a_small_heading_within_90_degrees_is_told_the_radians_rule_it_broke(tmp_path):
    """0.9 is within the 90 degrees any heading may lie off its route (48 here), so the message names the rule
    that refused it: at most 2π, further off than the launch tolerance, and within it read as radians."""
    horn = Path("maps/horn-of-africa.toml").read_text(encoding="utf-8")
    path = tmp_path / "horn.toml"
    path.write_text(horn.replace("heading = 55.0", "heading = 0.9", 1), encoding="utf-8")
    with pytest.raises(MapError) as err:
        load(path)
    message = str(err.value)
    assert "within 90 degrees" not in message
    assert ("routes.somalia.north.heading: expected a heading in degrees within 45 degrees (the launch tolerance) "
            "of the northbound route's direction at the start (48)") in message
    assert message.endswith("found 0.9, 47 degrees off; as radians, 0.9 rad is 52 degrees, 3 off")


def test_the_radians_bar_is_the_rules_default_launch_tolerance():
    from somaliland.map.geometry import RADIANS_OFF
    from somaliland.rules.config import RulesConfig

    assert RADIANS_OFF == pytest.approx(math.degrees(RulesConfig().launch_heading_tolerance))


def test_D1_the_map_checks_die_is_the_rules_default_die():
    from somaliland.map.geometry import DIE
    from somaliland.rules.config import RulesConfig

    assert DIE == pytest.approx(RulesConfig().die_size * 100)  # cm


@pytest.mark.parametrize("old, new", [
    # a heading in degrees that does not fit better as radians, within the 90 degrees allowed (5 rad: 286 degrees)
    ('start = [5.0, 9.0]\nheading = 90.0', 'start = [5.0, 9.0]\nheading = 5.0'),
    # R9: a ship arrives when its die's centre rests in the zone, so a strip narrower than a die will do
    ("  [20.0, 33.0], [29.0, 33.0], [29.0, 39.0], [20.0, 39.0],", "  [21.0, 35.0], [29.0, 35.0], [29.0, 36.2], [21.0, 36.2],"),
    ('label = "west passage"', 'label = "Bab-el-Mandeb \u200e2"'),  # a mark a script needs is no invisible junk
    ('name = "Rock"', 'name = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"'),  # Persian, with a ZWNJ
])
def test_good_edits_that_look_odd_are_accepted(old, new, tmp_path):
    assert TINY.count(old) >= 1
    path = tmp_path / "good.toml"
    path.write_text(TINY.replace(old, new, 1), encoding="utf-8")
    assert problems(path) == []


def test_a_zone_in_a_lagoon_is_cut_off_from_a_start_at_sea_but_not_from_one_in_the_lagoon(tmp_path):
    lagoon = "  [13.5, 18.5], [16.5, 18.5], [16.5, 21.5], [13.5, 21.5],"
    text = TINY.replace("  [20.0, 33.0], [29.0, 33.0], [29.0, 39.0], [20.0, 39.0],", lagoon, 1).replace(
        'centre_line = [[25.0, 3.0], [25.0, 37.0]]', 'centre_line = [[25.0, 3.0], [25.0, 12.0], [15.0, 20.0]]', 1)
    path = tmp_path / "lagoon.toml"
    path.write_text(text, encoding="utf-8")
    found = {(p.path, p.found) for p in problems(path)}
    assert (("routes", "somalia", "north", "destination"),
            "zone 'North-east', cut off from the start's water by land") in found
