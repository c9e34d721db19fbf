"""SVG import: maps/tiny.svg, drawn with transforms, imports to the same board as maps/tiny.toml."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from somaliland.map import MapError, load, loads
from somaliland.map.svg import import_svg
from somaliland.map.write import dumps

TINY_SVG = "maps/tiny.svg"


def test_drawn_tiny_board_round_trips_to_the_tiny_map():
    drawn = loads(dumps(import_svg(TINY_SVG, name="Tiny", author="Somaliland project").doc), "imported")
    tiny = load("maps/tiny.toml")
    assert (drawn.width, drawn.depth) == pytest.approx((tiny.width, tiny.depth))
    assert [land.name for land in drawn.lands] == [land.name for land in tiny.lands]
    for a, b in zip(drawn.lands, tiny.lands):
        assert a.polygon.symmetric_difference(b.polygon).area < 1e-9, a.name  # holes and transforms applied
        assert a.relief == pytest.approx(b.relief)
    assert [(r.name, r.label, r.full_value) for r in drawn.routes] == [(r.name, r.label, r.full_value)
                                                                        for r in tiny.routes]  # from the labels
    for name in ("somalia", "africa"):
        a, b = drawn.route(name), tiny.route(name)
        assert a.centre_line.hausdorff_distance(b.centre_line) < 1e-6  # drawn north-to-south, reversed
        assert a.centre_line.coords[0][1] < a.centre_line.coords[-1][1]
        for leg_a, leg_b in ((a.north, b.north), (a.south, b.south)):
            assert leg_a.start == pytest.approx(leg_b.start, abs=1e-6)
            assert math.cos(leg_a.heading - leg_b.heading) == pytest.approx(1.0)
            assert leg_a.destination.symmetric_difference(leg_b.destination).area < 1e-9  # rotated, scaled
            assert leg_a.zone == leg_b.zone
    assert [p.name for p in drawn.pirate_ports] == [p.name for p in tiny.pirate_ports]
    for a, b in zip(drawn.pirate_ports, tiny.pirate_ports):
        assert a.point == pytest.approx(b.point, abs=1e-6)  # the centre of the drawn circle


def test_curves_are_flattened_into_points():
    doc = import_svg(TINY_SVG).doc
    africa = doc["routes"]["africa"]["centre_line"]
    assert len(africa) > 10  # the africa route is drawn as a Bezier curve
    assert all(x == pytest.approx(5.0) for x, _ in africa)


def test_missing_layer_and_bad_labels_are_all_reported(tmp_path):
    svg = (open(TINY_SVG, encoding="utf-8").read()
           .replace('inkscape:label="Pirate ports"', 'inkscape:label="Sea monsters"')
           .replace('inkscape:label="somalia north"', 'inkscape:label="somalia upwards"'))
    path = tmp_path / "broken.svg"
    path.write_text(svg, encoding="utf-8")
    with pytest.raises(MapError) as err:
        import_svg(path)
    messages = [str(p) for p in err.value.problems]
    assert any("layer 'pirate ports'" in m and "a layer labelled 'pirate ports'" in m for m in messages), messages
    assert any("'somalia upwards'" in m for m in messages), messages
    assert all(m.startswith(str(path)) for m in messages)


def test_routes_take_any_name_and_their_value_from_the_label(tmp_path):
    svg = open(TINY_SVG, encoding="utf-8").read()
    for old, new in (("somalia", "strait"), ("africa", "ocean")):
        svg = svg.replace(f'inkscape:label="{old} ', f'inkscape:label="{new} ')
    svg = svg.replace("(half value): west passage", "(half)")  # the short form; no label: called by its name
    path = tmp_path / "straits.svg"
    path.write_text(svg, encoding="utf-8")
    doc = import_svg(path).doc
    assert {name: (r["full_value"], r.get("label")) for name, r in doc["routes"].items()} == {
        "strait": (True, "east passage"), "ocean": (False, None)}
    assert loads(dumps(doc), "imported").route("ocean").title == "ocean (half value)"


def problems_importing(tmp_path, old: str, new: str) -> list:
    """Return the problems of importing maps/tiny.svg with one edit (the import must fail)."""
    path = tmp_path / "edited.svg"
    path.write_text(open(TINY_SVG, encoding="utf-8").read().replace(old, new), encoding="utf-8")
    with pytest.raises(MapError) as err:
        import_svg(path)
    return list(err.value.problems)


def test_a_route_drawn_without_its_value_is_reported(tmp_path):
    (problem,) = problems_importing(tmp_path, '"africa (half value): west passage"', '"africa"')
    assert problem.path == ("'africa' on layer 'routes'",) and "'gulf (full value)'" in problem.expected
    assert problem.line == 22  # of maps/tiny.svg


def test_legs_of_a_route_never_drawn_are_reported(tmp_path):
    found = problems_importing(tmp_path, 'inkscape:label="africa north"', 'inkscape:label="cape north"')
    assert any(p.path == ("layer 'routes'",) and "'cape (full value)'" in p.expected for p in found), found


def test_a_start_that_is_a_single_point_is_reported(tmp_path):
    (problem,) = problems_importing(tmp_path, 'd="M 250,310 l 0,-30"', 'd="M 250,310"')
    assert problem.path == ("'somalia north' on layer 'starts'",) and "launch direction" in problem.expected
    assert problem.line == 25


def test_not_an_svg_is_a_map_error(tmp_path):
    path = tmp_path / "nonsense.svg"
    path.write_text("this is not xml <", encoding="utf-8")
    with pytest.raises(MapError) as err:
        import_svg(path)
    assert (err.value.expected, err.value.line) == ("an SVG file (well-formed XML)", 1)
    assert err.value.found == "syntax error at column 1"


JUNK = ['"', "<", ">", "z", "M", "C", "-", "e9", "nan", "inf", " ", "1e400", "rotate(", "scale(0)", "scale(1e300)",
        "A 1 1 0 0 1", "translate(1e308,1e308)", "&", ""]


@settings(max_examples=150, deadline=None)
@given(position=st.integers(0, len(open(TINY_SVG, encoding="utf-8").read()) - 1), junk=st.sampled_from(JUNK))
def test_damaged_drawing_imports_or_raises_map_error(tmp_path_factory, position, junk):
    text = open(TINY_SVG, encoding="utf-8").read()
    path = tmp_path_factory.mktemp("svg") / "damaged.svg"
    path.write_text(text[:position] + junk + text[position + 1:], encoding="utf-8")
    try:
        doc = import_svg(path).doc
    except MapError as exc:
        assert str(exc).startswith(str(path))
    else:
        try:
            loads(dumps(doc), "imported")
        except MapError:
            pass
