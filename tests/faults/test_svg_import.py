"""Issue 18 item 11: `map import-svg` checks the map before writing it, and its problems point into the SVG.

A drawing whose map is invalid writes nothing (so a fixed drawing imports without --force); --force writes it
and says it is invalid. Each problem names the SVG element (label, id, layer) and its line in the SVG, not
the key of the TOML file the import would write.
"""

from pathlib import Path

import pytest

from somaliland.cli.main import main
from somaliland.map import problems

SVG = Path("maps/tiny.svg").read_text(encoding="utf-8")
ISLE = 'inkscape:label="Isle"'
CROSSED_ISLE = ('d="M 50,100 H 150 V 300 H 50 Z M 80,180', 'd="M 50,100 L 150,300 L 150,100 L 50,300 Z M 80,180')


def drawing(tmp_path, *edits: tuple[str, str]) -> Path:
    """Write maps/tiny.svg with some edits; return its path."""
    text = SVG
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} is no longer in maps/tiny.svg: update this test"
        text = text.replace(old, new)
    path = tmp_path / "board.svg"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, snippet: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[:text.index(snippet)].count("\n") + 1


def test_an_invalid_map_is_not_written_and_a_fixed_drawing_imports_without_force(tmp_path, capsys):
    svg, out = drawing(tmp_path, CROSSED_ISLE), tmp_path / "board.toml"
    assert main(["map", "import-svg", str(svg), "-o", str(out)]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{svg}:{line_of(svg, ISLE)}: 'Isle' on layer 'land': expected a simple polygon (edges "
        f"that do not cross or touch), found a self-intersection: the edge from point 0 to point 1 crosses the edge "
        f"from point 2 to point 3 at (15.00, 20.00) cm",
        f"{svg}: 1 problem; nothing written (fix the drawing, or add --force to write {out} anyway)"]
    assert not out.exists()
    svg.write_text(SVG, encoding="utf-8")  # the designer fixes the drawing
    assert main(["map", "import-svg", str(svg), "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n" and problems(out) == []


def test_force_writes_an_invalid_map_and_says_so(tmp_path, capsys):
    svg, out = drawing(tmp_path, CROSSED_ISLE), tmp_path / "board.toml"
    out.write_text("an older file")
    assert main(["map", "import-svg", str(svg), "-o", str(out), "--force"]) == 2
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == (f"{svg}: 1 problem; wrote {out} all the same (--force): it is not a valid map; "
                           f"`somaliland map check {out}` lists its problems in the file")
    (problem,) = problems(out)  # the same problem, now located in the file written
    assert problem.path == ("land", 0, "outline", 0) and "crosses the edge from point 2 to point 3" in problem.found


@pytest.mark.parametrize("edits, place, snippet, words", [
    # a pirate port drawn out at sea: the circle, by label and layer
    ([('cx="200" cy="200"', 'cx="260" cy="200"')], "'Cove' on layer 'Pirate ports'", '<circle',
     "out at sea 6.0 cm from the coast"),
    # an element with an id is named by its label and its id
    ([('<circle inkscape:label="Cove" cx="200"', '<circle id="circle42" inkscape:label="Cove" cx="260"')],
     "'Cove' (id circle42) on layer 'Pirate ports'", '<circle', "out at sea"),
    # a start drawn on land: the start's line, not the route's
    ([('d="M 250,310 l 0,-30"', 'd="M 150,250 l 0,-30"')], "'somalia north' on layer 'starts'",
     'inkscape:label="somalia north" d=', "on land"),
    # a destination behind its start: the destination's shape
    ([('inkscape:label="somalia north: North-east"', 'inkscape:label="somalia south: North-east"'),
      ('inkscape:label="somalia south: South-east"', 'inkscape:label="somalia north: South-east"')],
     "'somalia north: South-east' on layer 'destinations'", 'inkscape:label="somalia north: South-east"',
     "zone 'South-east' behind the start"),
    # a hole outside its land: the land's second subpath
    ([("M 80,180 H 120 V 220 H 80 Z", "M 180,180 H 220 V 220 H 180 Z")], "'Isle' on layer 'land', its subpath 2 "
     "(a hole)", 'inkscape:label="Isle"', "a hole reaching"),
    # a page too small for a board: the <svg> element
    ([('width="300mm" height="400mm"', 'width="50mm" height="400mm"')], "the page (the <svg> width and height)",
     "<svg ", "5.0"),
    # a label with a line break (an XML character reference)
    ([('inkscape:label="Cove"', 'inkscape:label="Co&#10;ve"')], "'Co\\nve' on layer 'Pirate ports'", "<circle",
     "a line break, U+000A, at character 3"),
])
def test_each_problem_names_the_svg_element_and_its_line(tmp_path, capsys, edits, place, snippet, words):
    svg, out = drawing(tmp_path, *edits), tmp_path / "board.toml"
    assert main(["map", "import-svg", str(svg), "-o", str(out)]) == 2 and not out.exists()
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{svg}:{line_of(svg, snippet)}: {place}: expected "), first
    assert words in first and "routes." not in first and "pirate_port[" not in first


def test_a_name_given_on_the_command_line_is_located_there(tmp_path, capsys):
    out = tmp_path / "board.toml"
    assert main(["map", "import-svg", "maps/tiny.svg", "-o", str(out), "--name", "x" * 101]) == 2
    assert capsys.readouterr().out.startswith("maps/tiny.svg: --name: expected a string of at most 100 characters")


def test_a_drawing_that_makes_no_map_prints_every_problem_and_writes_nothing(tmp_path, capsys):
    svg = drawing(tmp_path, ('inkscape:label="Pirate ports"', 'inkscape:label="Sea monsters"'),
                  ('inkscape:label="somalia north" d=', 'inkscape:label="somalia upwards" d='))
    out = tmp_path / "board.toml"
    assert main(["map", "import-svg", str(svg), "-o", str(out)]) == 2 and not out.exists()
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == (f"{svg}:{line_of(svg, 'somalia upwards')}: 'somalia upwards' on layer 'starts': expected a "
                          f"label like 'gulf north' or 'cape south: Cape Town', found 'somalia upwards'")
    assert printed[1].startswith(f"{svg}: layer 'pirate ports': expected a layer labelled 'pirate ports'")
    assert printed[-1] == f"{svg}: 2 problems; no map could be made of the drawing, nothing written"
