"""Import a board drawn in Inkscape: named layers become a map document (conventions: maps/README.md).

The SVG page is the board (its width and height give the board's size); every transform is applied by
svgelements; curves are flattened to points about 2 mm apart. SVG's y axis points down, the board's up.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path as FilePath

from somaliland.map.document import DEFAULT_THICKNESS, FORMAT
from somaliland.map.errors import KeyPath, MapError, Problem

INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
PX_PER_CM = 96 / 2.54  # svgelements works in CSS pixels, 96 per inch
CURVE_STEP = 0.2  # cm between points on a flattened curve
MAX_CURVE_POINTS = 500  # per curve segment, whatever its size
LAYERS = {  # layer label (lower case, spaces/underscores/hyphens ignored) -> what it holds
    "land": "land", "zones": "destinations", "destinations": "destinations", "destination": "destinations",
    "routes": "routes", "route": "routes", "starts": "starts", "start": "starts",
    "pirateports": "pirate ports", "pirates": "pirate ports", "pirateport": "pirate ports",
}
_RELIEF = re.compile(r"^(.*?)\s*\(\+\s*([0-9]+(?:\.[0-9]+)?)\s*mm\)\s*$")
_ROUTE = re.compile(r"^\s*([a-z][a-z0-9_]*)\s*(?:\(\s*(full|half)(?:\s+value)?\s*\))?\s*(?::\s*(.+?))?\s*$",
                    re.IGNORECASE | re.ASCII)
_LEG = re.compile(r"^\s*([a-z][a-z0-9_]*)\s+(north|south)(?:bound)?\s*(?::\s*(.+?))?\s*$", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a part of the map was drawn: the place in words ("'Isle' on layer 'land'") and its SVG line."""

    place: str
    line: int | None = None

    def problem(self, source: str, expected: str, found: str, detail: str = "") -> Problem:
        """Return a problem located here (`detail`: a part of the element, e.g. its second subpath)."""
        return Problem(source, (self.place + detail,), expected, found, self.line)


@dataclass(frozen=True)
class Drawing:
    """The map document an SVG drawing makes, with where in the drawing each part of it came from."""

    source: str
    doc: dict
    origins: dict[KeyPath, Origin]  # a key path of the document (and everything under it) -> where it was drawn

    def problems(self) -> list[Problem]:
        """Return every problem of the map (schema and geometry, as `map check`), each located in the SVG."""
        from somaliland.map.loader import check

        return [self.locate(path, expected, found) for path, expected, found in check(self.doc)]

    def locate(self, path: KeyPath, expected: str, found: str) -> Problem:
        """Return the problem of this document key path placed on the SVG element it was drawn from."""
        n = next(n for n in range(len(path), -1, -1) if path[:n] in self.origins)
        rest = path[n:]
        detail = f", its subpath {rest[1] + 2} (a hole)" if rest[:1] == ("holes",) and len(rest) > 1 else ""
        return self.origins[path[:n]].problem(self.source, expected, found, detail)


def import_svg(path: str | FilePath, name: str = "", author: str = "") -> Drawing:
    """Return the map an SVG board drawing makes, with where each part of it was drawn.

    Args:
        path: the SVG file; layers named land, routes, starts, destinations, pirate ports (maps/README.md
            gives the labels: a route 'NAME (full value): its label', a leg 'NAME north', a zone 'NAME south: Zone').
        name: the map's name (default: the file's name).
        author: the map's author.

    Raises:
        MapError: the file cannot be parsed, or a layer or element is missing or cannot be understood; each
            problem names the SVG element (label, id, layer) and its line.
    """
    from svgelements import SVG

    source = str(path)
    try:
        svg = SVG.parse(source, reify=True)
    except Exception as exc:  # svgelements raises many kinds on malformed files  # noqa: BLE001
        raise MapError([Problem(source, (), "an SVG file", f"{type(exc).__name__}: {exc}")]) from None
    size = (getattr(svg, "width", None), getattr(svg, "height", None))
    if not isinstance(svg, SVG) or not all(isinstance(v, (int, float)) and 0 < v < math.inf for v in size):
        raise MapError([Problem(source, (), "an SVG file whose page has a width and a height",
                                f"a {type(svg).__name__} of size {size}")])
    width, depth = size[0] / PX_PER_CM, size[1] / PX_PER_CM
    lines = _element_lines(source)
    layers = _layers(svg, lines)
    problems: list[Problem] = []
    origins: dict[KeyPath, Origin] = {
        (): Origin("the drawing"), ("board",): Origin("the page (the <svg> width and height)", lines.get("<svg>")),
        ("name",): Origin("--name" if name else "--name (default: the SVG file's name)"),
        ("author",): Origin("--author")}

    def need(kind: str) -> list[tuple[str, list[list[list[float]]], object, Origin]]:
        if kind not in layers:
            problems.append(Problem(source, (f"layer {kind!r}",), f"a layer labelled {kind!r}",
                                    f"layers {sorted(layers) or 'none'}"))
            return []
        return [(label, _rings(shape, depth), shape, origin) for label, shape, origin in layers[kind]]

    doc: dict = {"format": FORMAT, "name": name or FilePath(source).stem, "version": "1.0", "author": author,
                 "board": {"width": _r(width), "depth": _r(depth), "thickness": DEFAULT_THICKNESS},
                 "land": [], "zone": [], "routes": {}, "pirate_port": []}
    for label, rings, _, origin in need("land"):
        match = _RELIEF.match(label)
        land: dict = {"name": match.group(1) if match else label, "outline": rings[0]}
        if rings[1:]:
            land["holes"] = rings[1:]
        if match:
            land["relief"] = float(match.group(2))
        origins[("land", len(doc["land"]))] = origin
        doc["land"].append(land)
    legs: dict[tuple[str, str], dict] = {}
    labelled: set[tuple[str, str, str]] = set()  # (layer, route, direction) of every leg shape drawn, usable or not
    for label, rings, _, origin in need("destinations"):
        leg = _leg_label(source, label, origin, problems)
        labelled.add(("destinations", *(leg or ("?", "?"))))
        if leg:
            zone = _LEG.match(label).group(3) or f"{leg[0]} {leg[1]}"
            if zone not in [z["name"] for z in doc["zone"]]:
                origins[("zone", len(doc["zone"]))] = origin
                doc["zone"].append({"name": zone, "outline": rings[0]})
            legs.setdefault(leg, {})["destination"] = zone
            origins.setdefault(("routes", *leg), origin)
            origins[("routes", *leg, "destination")] = origin
    for label, rings, _, origin in need("starts"):
        leg = _leg_label(source, label, origin, problems)
        labelled.add(("starts", *(leg or ("?", "?"))))
        if leg and (len(rings[0]) < 2 or rings[0][0] == rings[0][-1]):
            problems.append(origin.problem(source, "a line from the start in the launch direction",
                                           f"{len(rings[0])} distinct point{'s' * (len(rings[0]) != 1)}"))
        elif leg:
            (x0, y0), (x1, y1) = rings[0][0], rings[0][-1]
            legs.setdefault(leg, {}).update(start=[x0, y0], heading=_r(math.degrees(math.atan2(y1 - y0, x1 - x0))))
            origins[("routes", *leg)] = origins[("routes", *leg, "start")] = origin
    drawn = set()  # route names drawn, labelled well or not
    for label, rings, _, origin in need("routes"):
        match = _ROUTE.match(label)
        drawn.add(match.group(1).lower() if match else label)
        if not match or not match.group(2):
            problems.append(origin.problem(source, "a route labelled with its name and value, like 'gulf (full value)' "
                                                   "or 'cape (half value): round the Cape'", repr(label)))
            continue
        key = match.group(1).lower()
        line = rings[0]
        if key in doc["routes"]:
            problems.append(origin.problem(source, f"one line for route {key!r}", "a second one"))
            continue
        if len(line) < 2:
            problems.append(origin.problem(source, "a line of at least 2 points", f"{len(line)}"))
            continue
        origins[("routes", key)] = origin
        doc["routes"][key] = {"full_value": match.group(2).lower() == "full",
                              **({"label": match.group(3)} if match.group(3) else {}),
                              "centre_line": line if line[0][1] <= line[-1][1] else line[::-1]}
    for label, _, shape, origin in need("pirate ports"):
        box = shape.bbox()
        if box is None:
            problems.append(origin.problem(source, "a shape marking the port", "an empty shape"))
            continue
        x0, y0, x1, y1 = box
        origins[("pirate_port", len(doc["pirate_port"]))] = origin
        doc["pirate_port"].append({"name": label, "at": [_r((x0 + x1) / 2 / PX_PER_CM),
                                                         _r(depth - (y0 + y1) / 2 / PX_PER_CM)]})
    for (route, direction), leg in sorted(legs.items()):
        if route in doc["routes"]:
            doc["routes"][route][direction] = leg
    for route in sorted({route for route, _ in legs} - drawn):
        if "routes" in layers:
            problems.append(Problem(source, ("layer 'routes'",), f"a line labelled '{route} (full value)' or "
                                    f"'{route} (half value)' (its legs are drawn)", "none"))
    for route in doc["routes"]:
        for direction in ("north", "south"):
            for part, layer in (("start", "starts"), ("destination", "destinations")):
                # a shape whose label cannot be read ("?") is reported; it is likely the one missing
                if not labelled & {(layer, route, direction), (layer, "?", "?")} and layer in layers:
                    problems.append(Problem(source, (f"layer {layer!r}",), f"a shape labelled '{route} {direction}'",
                                            "none"))
    if problems:
        raise MapError(problems)
    return Drawing(source, doc, origins)


def _layers(svg, lines: dict[str, int]) -> dict[str, list]:
    """Return each known layer's (label, shape, origin); a shape's label is its Inkscape label, else its id."""
    from svgelements import Group, Shape

    found: dict[str, list] = {}
    for group in svg.elements():
        if not isinstance(group, Group):
            continue
        own = group.values.get("attributes", {})
        if own.get(f"{INKSCAPE}groupmode") != "layer":
            continue
        layer = str(own.get(f"{INKSCAPE}label", group.id or ""))
        kind = LAYERS.get(re.sub(r"[\s_\-]", "", layer.lower()))
        if kind is None:
            continue
        shapes = found.setdefault(kind, [])
        for element in group.select():
            if isinstance(element, Shape):
                attrs = element.values.get("attributes", {})
                label = str(attrs.get(f"{INKSCAPE}label") or element.id or f"{kind} {len(shapes) + 1}")
                ident = f" (id {element.id})" if element.id and element.id != label else ""
                line = lines.get(f"#{element.id}") if element.id else lines.get(label)
                shapes.append((label, element, Origin(f"{label!r}{ident} on layer {layer!r}", line)))
    return found


def _element_lines(source: str) -> dict[str, int]:
    """Return the line of each element of the SVG by "#id" and by Inkscape label (the first), and of "<svg>"."""
    from xml.parsers import expat

    lines: dict[str, int] = {}
    parser = expat.ParserCreate(namespace_separator=" ")

    def start(tag: str, attrs: dict[str, str]) -> None:
        here = parser.CurrentLineNumber
        if tag.endswith(" svg") or tag == "svg":
            lines.setdefault("<svg>", here)
        if "id" in attrs:
            lines.setdefault(f"#{attrs['id']}", here)
        if f"{INKSCAPE[1:-1]} label" in attrs:
            lines.setdefault(attrs[f"{INKSCAPE[1:-1]} label"], here)

    parser.StartElementHandler = start
    try:
        parser.Parse(FilePath(source).read_bytes(), True)
    except (expat.ExpatError, OSError, ValueError):  # the lines found so far still help
        pass
    return lines


def _leg_label(source: str, label: str, origin: Origin, problems: list[Problem]) -> tuple[str, str] | None:
    match = _LEG.match(label)
    if not match:
        problems.append(origin.problem(source, "a label like 'gulf north' or 'cape south: Cape Town'", repr(label)))
        return None
    return match.group(1).lower(), match.group(2).lower()


def _rings(shape, depth: float) -> list[list[list[float]]]:
    """Return the shape's subpaths as point lists in board cm (transforms applied, curves flattened)."""
    from svgelements import Close, Line, Move, Path

    path = abs(Path(shape))  # abs() applies the element's full transform
    rings: list[list[list[float]]] = []
    for seg in path.segments():
        if isinstance(seg, Move):
            rings.append([])
            points = [seg.end]
        elif isinstance(seg, (Line, Close)):
            points = [seg.end]
        else:
            n = _curve_points(seg)
            points = [seg.point(k / n) for k in range(1, n + 1)]
        if not rings:
            rings.append([])
        for p in points:
            xy = [_r(p.x / PX_PER_CM), _r(depth - p.y / PX_PER_CM)]
            if not rings[-1] or rings[-1][-1] != xy:
                rings[-1].append(xy)
    rings = [r[:-1] if len(r) > 2 and r[0] == r[-1] else r for r in rings if r]
    return rings or [[]]


def _curve_points(seg) -> int:
    """Return how many points flatten a curve segment about CURVE_STEP apart (at most MAX_CURVE_POINTS),
    judging its length from a few samples (svgelements' exact length integrates, slowly)."""
    probe = [seg.point(k / 16) for k in range(17)]
    length = sum(math.hypot(b.x - a.x, b.y - a.y) for a, b in zip(probe, probe[1:])) / PX_PER_CM
    if not math.isfinite(length):
        return 2
    return int(min(MAX_CURVE_POINTS, max(2, length / CURVE_STEP)))


def _r(v: float) -> float:
    return round(float(v), 2) + 0.0
