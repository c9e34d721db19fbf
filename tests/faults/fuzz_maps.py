"""Fuzz the map loader and `map check` (issue 18): every mutated map file loads or gets located answers.

Each mutant is a shipped map (maps/*.toml) or a test map (tests/data/*.toml) with one to three random
edits: a line deleted, duplicated, swapped or cut short, a value replaced by one of another type or range
(NaN, inf, huge, negative, a string, a table), a key renamed or added, two points of a ring swapped (a
self-intersection), a point repeated or moved off the board, a name given a control character or a line
break, bytes that are not UTF-8, a value or a key nested 500 deep, the file cut short, emptied, made huge or
larger than a map may be. Each goes through `somaliland map check` (in process) and `somaliland.map.load`; a
loaded map is also built into its physics board. A located answer starts with the file, names the place (a key path or a line; the whole file only
for what concerns the whole file: empty, not UTF-8, top-level keys missing) and the reason
(`expected ..., found ...`), on one line.

Mutated drawings (maps/tiny.svg with numbers, labels, transforms, elements and bytes changed) go through
`somaliland map import-svg`: each imports to a map that checks clean, or gets problems located in the SVG
(an element's label and layer, a layer, the page, --name; never a key of the TOML it would write), writes
nothing, and exits 2.

    python tests/faults/fuzz_maps.py [MUTANTS [SEED]]         # default: 1000 mutants, seed 18
    python tests/faults/fuzz_maps.py --svg [MUTANTS [SEED]]   # mutated drawings; default 300
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]  # the checkout, and the fuzzers' shared edits

from mutations import edit_lines, huge, nest_deep, run_fuzz  # noqa: E402
from somaliland.cli.main import main  # noqa: E402
from somaliland.inputs import LIMITS  # noqa: E402
from somaliland.map import MapError, Problem, load, problems  # noqa: E402

VALUES = ["-1", "0", "1", "2", "3", "1.5", "-0.0", "inf", "-inf", "nan", "1e308", "-1e308", "1e-320",
          "9223372036854775807", "1" + "0" * 400, "true", '""', '"x"', '"North-east"', '"Ro\\nck"', '"\\u0007"',
          '"\\u202e"', '"""a\nb"""', "[]", "[1, 2]", "[1, 2, 3]", '["a", "b"]', "[[1, 2]]", "[[0, 0], [0, 0], [0, 0]]",
          "[[0, 0], [1, 0], [2, 0]]", "{}", "{ x = 1 }", "1979-05-27", "[nan, 1]", "[1e300, 1e300]", "-90.0", "900"]
LINES = ['colour = "blue"', "format = 1", "format = 3", "[[land]]", "[[zone]]", "[[pirate_port]]", "[board]",
         "[routes.extra]", "[routes.extra.north]", "[routes.Bad]", "full_value = true", 'label = "east passage"',
         'name = "Isle"', 'name = "North-east"', 'destination = "Atlantis"', "relief = 60", "holes = []",
         "holes = [[[0, 0], [1, 1], [0, 1]]]", "outline = [[0, 0], [1, 0], [0, 1]]", "heading = 180.0",
         "start = [0.0, 0.0]", "at = [1000.0, 1000.0]", "centre_line = [[1, 1], [1, 1]]", "thickness = 0",
         "[", "= 1", 'name = "a\\tb"', "x.y.z = 1", "[land]", "zone = 3"]
POINT = re.compile(r"\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]")


def bases() -> dict[str, str]:
    """Return the map texts mutated, by name: the shipped maps and the test maps."""
    paths = sorted((ROOT / "maps").glob("*.toml")) + sorted((ROOT / "tests" / "data").glob("*.toml"))
    return {p.name: p.read_text(encoding="utf-8") for p in paths}


def _edit_points(text: str, rng: random.Random) -> str:
    """Return the text with one edit to its points: two swapped, one repeated, one moved far or off the board."""
    points = list(POINT.finditer(text))
    if len(points) < 2:
        return text
    k = rng.randrange(len(points) - 1)
    a, b = points[k], points[k + 1]
    kind = rng.randrange(4)
    if kind == 0:  # neighbours swapped: most rings then cross themselves
        new = b.group(0) + text[a.end():b.start()] + a.group(0)
    elif kind == 1:  # a point repeated: harmless, or a ring of too few different points
        new = a.group(0) + text[a.end():b.start()] + a.group(0)
    elif kind == 2:
        new = f"[{rng.choice(['-5.0', '400.0', '1e300', '0.0'])}, {a.group(2)}]" + text[a.end():b.end()]
    else:  # every point of the ring onto one line
        new = f"[{a.group(1)}, 1.0]" + text[a.end():b.start()] + f"[{b.group(1)}, 1.0]"
    return text[:a.start()] + new + text[b.end():]


def mutate(text: str, rng: random.Random) -> bytes:
    """Return the map text with one to three random edits, as bytes (some edits are not UTF-8)."""
    roll = rng.random()
    if roll < 0.01:
        return b""
    if roll < 0.02:
        return text.encode("utf-8") * 40  # a huge file: every table and key again
    if roll < 0.03:
        return text.encode("utf-8") + b"# " + b"x" * 2_000_000 + b"\n"  # huge, and still a map
    if roll < 0.04:
        return huge(text.encode("utf-8"), LIMITS["map"])
    if roll < 0.1:
        return "\n".join(nest_deep(text.split("\n"), rng)).encode("utf-8")
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.3:
            text = _edit_points(text, rng)
        else:
            text = "\n".join(edit_lines(text.split("\n"), rng, VALUES, LINES, VALUES[:14]))
    data = text.encode("utf-8")
    if rng.random() < 0.05:  # a raw byte: not UTF-8, or a control character outside a string
        k = rng.randrange(len(data) + 1)
        data = data[:k] + bytes([rng.choice([0x00, 0x07, 0x1b, 0xff, 0xc3, 0x80])]) + data[k:]
    return data


def located(problem: Problem, path: Path) -> bool:
    """Return True if the problem names the file, a place and a reason, on one line."""
    text = str(problem)
    whole_file = problem.path == () and (problem.found in ("an empty file", "a file of comments and blank lines only")
                                         or "at offset" in problem.found or problem.expected.startswith("key")
                                         or problem.expected.startswith("a map of at most"))
    return (text.startswith(f"{path}") and ": expected " in text and ", found " in text and "\n" not in text
            and bool(problem.path or problem.line or whole_file))


def answer(path: Path) -> tuple[str, str]:
    """Return ("loaded" | "located" | "unlocated" | "traceback", a message) for one map file."""
    try:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            status = main(["map", "check", str(path)])
            found = problems(path)
        if caught:
            return "unlocated", f"a warning reached the user: {caught[0].message}"
        try:
            world = load(path)
        except MapError as error:
            if not found or list(error.problems) != found or "\n" in str(error):
                return "unlocated", f"load and check disagree: {error} / {found}"
            bad = [p for p in found if not located(p, path)]
            if status != 2 or bad:
                return "unlocated", f"exit {status}; {bad[0] if bad else out.getvalue()}"
            return "located", str(error)
        if found or status != 0:
            return "unlocated", f"loaded, yet map check says {found} (exit {status})"
        world.board()
        for route in world.routes:
            for leg in (route.north, route.south):
                world.leg_length(route.name, leg.direction)
    except Exception as error:  # what the fuzz hunts: any other exception would reach the user as a traceback
        return "traceback", f"{type(error).__name__}: {error}"
    return "loaded", ""


def fuzz(mutants: int, seed: int) -> tuple[Counter, list[tuple[str, str]]]:
    """Return the count of each kind of answer to `mutants` mutated maps, and the bad answers with their text."""
    return run_fuzz(mutants, seed, bases(), mutate, answer)


SVG_VALUES = ["0", "-5", "1e308", "-1e308", "nan", "inf", "1e-300", "3000", "0.001", "", "x", "50%", "2cm", "1e400"]
SVG_LABELS = ["", "somalia", "somalia (full value)", "somalia (quarter value)", "gulf (half): the Gulf", "Isle",
              "Isle (+70 mm)", "Rock (+2 mm)", "somalia north", "somalia north: Nowhere", "africa south: North-east",
              "cape north", "Co&#10;ve", "Co&#7;ve", "&#x202e;evoC", "x" * 80, "SOMALIA (FULL VALUE)", "Äfrica north",
              "somalia north: North-east", "north: x", "   "]
SVG_TRANSFORMS = ["scale(0)", "scale(1e300)", "scale(-1,1)", "rotate(45)", "translate(1e308,0)",
                  "matrix(1,0,0,1,nan,0)",
                  "skewX(89.9999)", "rotate(", "scale(2)"]
SVG_ELEMENTS = ['<rect inkscape:label="Extra" x="0" y="0" width="10" height="10"/>', '<path d="M 1,1 L 2,2"/>',
                '<path inkscape:label="somalia south" d="M 250,90"/>', '<circle r="0"/>', '<path d=""/>',
                '<g inkscape:groupmode="layer" inkscape:label="land"><rect width="1" height="1"/></g>',
                '<use href="#x"/>', '<text>Sea</text>']
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
LABEL = re.compile(r'inkscape:label="[^"]*"')
PLACE = re.compile(r"^(?:(?:'.*' (?:\(id .*\) )?|id .* \(no label\) |shape \d+ \(no label or id\) )on layer '[^']*'"
                   r"(?:, its subpath \d+ \(a hole\))?|layer '[a-z ]+'|the page \(the <svg> width and height\)|"
                   r"--name.*|--author|the drawing|<[a-z]+>(?: '.*')? attribute (?:d|transform))$", re.DOTALL)


def mutate_svg(text: str, rng: random.Random) -> bytes:
    """Return the drawing with one to three random edits, as bytes (some edits are not UTF-8)."""
    roll = rng.random()
    if roll < 0.01:
        return b""
    if roll < 0.02:
        return text.encode("utf-8")[:rng.randrange(len(text))]
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        if kind == 0:
            numbers = list(NUMBER.finditer(text))
            m = rng.choice(numbers)
            text = text[:m.start()] + rng.choice(SVG_VALUES) + text[m.end():]
        elif kind == 1:
            labels = list(LABEL.finditer(text))
            m = rng.choice(labels)
            text = text[:m.start()] + (f'inkscape:label="{rng.choice(SVG_LABELS)}"' if rng.random() < 0.9 else "") \
                + text[m.end():]
        elif kind == 2:
            m = rng.choice(list(re.finditer(r"<(?:path|rect|circle) ", text)))
            text = text[:m.end()] + f'transform="{rng.choice(SVG_TRANSFORMS)}" ' + text[m.end():]
        elif kind == 3:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            choice = rng.randrange(3)
            if choice == 0:
                del lines[i]
            elif choice == 1:
                lines.insert(i, lines[i])
            else:
                lines.insert(i, rng.choice(SVG_ELEMENTS))
            text = "\n".join(lines)
        elif kind == 4:
            k = rng.randrange(len(text))
            text = text[:k] + rng.choice(['"', "<", ">", "&", "z", "M", " ", "-", "e9", "C"]) + text[k + 1:]
        elif kind == 5:
            text = text.replace('id="', 'id="x', 1) if 'id="' in text else text.replace(
                "<circle ", '<circle id="port1" ', 1)
        else:
            text = _edit_points(text.replace(",", ", ").replace("M ", "M [").replace(" L ", "] L ["), rng) \
                .replace("] L [", " L ").replace("M [", "M ").replace(", ", ",") if rng.random() < 0.5 else \
                text.replace("H 150 V 300", "V 300 H 150")
    data = text.encode("utf-8")
    if rng.random() < 0.05:
        k = rng.randrange(len(data) + 1)
        data = data[:k] + bytes([rng.choice([0x00, 0xff, 0xc3])]) + data[k:]
    return data


def svg_answer(svg: Path, out: Path, force: bool) -> tuple[str, str]:
    """Return ("imported" | "located" | "unlocated" | "traceback", a message) for importing one drawing."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            status = main(["map", "import-svg", str(svg), "-o", str(out)] + ["--force"] * force)
        if caught:
            return "unlocated", f"a warning reached the user: {caught[0].message}"
        lines = printed.getvalue().splitlines()
        if status == 0:
            found = problems(out)
            return ("imported", "") if lines == [f"wrote {out}"] and not found else \
                ("unlocated", f"imported, yet {found or lines}")
        if status != 2 or not lines or out.exists() != (force and "all the same" in lines[-1]):
            return "unlocated", f"exit {status}, {out.exists()=}: {lines}"
        if out.exists() and not problems(out):
            return "unlocated", f"written as invalid, yet {out} checks clean"
        for line in lines[:-1]:
            head = re.match(rf"^{re.escape(str(svg))}(?::\d+)?: (.*?): expected (.+), found (.+)$", line, re.DOTALL)
            whole_file = head is not None and head.group(1) == "(top level)" and head.group(2).startswith("an SVG file")
            if head is None or not (PLACE.match(head.group(1)) or whole_file):
                return "unlocated", line
    except Exception as error:  # what the fuzz hunts: any other exception would reach the user as a traceback
        return "traceback", f"{type(error).__name__}: {error}"
    return "located", lines[0]


def fuzz_svgs(mutants: int, seed: int) -> tuple[Counter, list[tuple[str, str]]]:
    """Return the count of each kind of answer to `mutants` mutated drawings, and the bad answers."""
    rng = random.Random(seed)
    text = (ROOT / "maps" / "tiny.svg").read_text(encoding="utf-8")
    counts: Counter = Counter()
    bad = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(mutants):
            data = mutate_svg(text, rng)
            svg, out = Path(folder) / f"{n}.svg", Path(folder) / f"{n}.toml"
            svg.write_bytes(data)
            kind, message = svg_answer(svg, out, force=rng.random() < 0.2)
            counts[kind] += 1
            if kind in ("unlocated", "traceback"):
                bad.append((data[:3000].decode("utf-8", "replace"), message))
    return counts, bad


if __name__ == "__main__":
    drawings = sys.argv[1:2] == ["--svg"]
    args = sys.argv[1 + drawings:]
    n = int(args[0]) if args else (300 if drawings else 1000)
    counts, bad = (fuzz_svgs if drawings else fuzz)(n, int(args[1]) if len(args) > 1 else 18)
    for text, message in bad[:5]:
        print(f"--- {message}\n{text}\n")
    if drawings:
        print(f"{n} mutated drawings: {counts['located']} located errors, {counts['imported']} imported, "
              f"{counts['unlocated']} unlocated errors, {counts['traceback']} tracebacks")
    else:
        print(f"{n} mutated map files: {counts['located']} located errors, {counts['loaded']} loaded, "
              f"{counts['unlocated']} unlocated errors, {counts['traceback']} tracebacks")
    sys.exit(1 if bad else 0)
