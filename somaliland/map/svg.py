"""Import a board drawn in Inkscape: named layers become a map document (conventions: maps/README.md).

The SVG page is the board (its width and height give the board's size); every transform is applied by
svgelements; curves are flattened to points about 2 mm apart. SVG's y axis points down, the board's up.
"""

from __future__ import annotations

import math
import re
from pathlib import Path as FilePath

from somaliland.map.document import DEFAULT_THICKNESS, FORMAT
from somaliland.map.errors import MapError, Problem

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
                    re.IGNORECASE)
_LEG = re.compile(r"^\s*([a-z][a-z0-9_]*)\s+(north|south)(?:bound)?\s*(?::\s*(.+?))?\s*$", re.IGNORECASE)


def import_svg(path: str | FilePath, name: str = "", author: str = "") -> dict:
    """Return the map document of an SVG board drawing.

    Args:
        path: the SVG file; layers named land, routes, starts, destinations, pirate ports (maps/README.md
            gives the labels: a route 'NAME (full value): its label', a leg 'NAME north', a zone 'NAME south: Zone').
        name: the map's name (default: the file's name).
        author: the map's author.

    Raises:
        MapError: the file cannot be parsed, or a layer or element is missing or cannot be understood.
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
    layers = _layers(svg)
    problems: list[Problem] = []

    def need(kind: str) -> list[tuple[str, list[list[list[float]]], object]]:
        if kind not in layers:
            problems.append(Problem(source, (f"layer {kind!r}",), f"a layer labelled {kind!r}",
                                    f"layers {sorted(layers) or 'none'}"))
            return []
        return [(label, _rings(shape, depth), shape) for label, shape in layers[kind]]

    doc: dict = {"format": FORMAT, "name": name or FilePath(source).stem, "version": "1.0", "author": author,
                 "board": {"width": _r(width), "depth": _r(depth), "thickness": DEFAULT_THICKNESS},
                 "land": [], "zone": [], "routes": {}, "pirate_port": []}
    for label, rings, _ in need("land"):
        match = _RELIEF.match(label)
        land: dict = {"name": match.group(1) if match else label, "outline": rings[0]}
        if rings[1:]:
            land["holes"] = rings[1:]
        if match:
            land["relief"] = float(match.group(2))
        doc["land"].append(land)
    legs: dict[tuple[str, str], dict] = {}
    for label, rings, _ in need("destinations"):
        leg = _leg_label(source, "destinations", label, problems)
        if leg:
            zone = _LEG.match(label).group(3) or f"{leg[0]} {leg[1]}"
            if zone not in [z["name"] for z in doc["zone"]]:
                doc["zone"].append({"name": zone, "outline": rings[0]})
            legs.setdefault(leg, {})["destination"] = zone
    for label, rings, _ in need("starts"):
        leg = _leg_label(source, "starts", label, problems)
        if leg and (len(rings[0]) < 2 or rings[0][0] == rings[0][-1]):
            problems.append(Problem(source, ("starts", label), "a line from the start in the launch direction",
                                    f"{len(rings[0])} distinct point{'s' * (len(rings[0]) != 1)}"))
        elif leg:
            (x0, y0), (x1, y1) = rings[0][0], rings[0][-1]
            legs.setdefault(leg, {}).update(start=[x0, y0], heading=_r(math.degrees(math.atan2(y1 - y0, x1 - x0))))
    drawn = set()  # route names drawn, labelled well or not
    for label, rings, _ in need("routes"):
        match = _ROUTE.match(label)
        drawn.add(match.group(1).lower() if match else label)
        if not match or not match.group(2):
            problems.append(Problem(source, ("routes", label), "a route labelled with its name and value, like "
                                    "'gulf (full value)' or 'cape (half value): round the Cape'", repr(label)))
            continue
        key = match.group(1).lower()
        line = rings[0]
        if key in doc["routes"]:
            problems.append(Problem(source, ("routes", label), f"one line for route {key!r}", "a second one"))
            continue
        if len(line) < 2:
            problems.append(Problem(source, ("routes", label), "a line of at least 2 points", f"{len(line)}"))
            continue
        doc["routes"][key] = {"full_value": match.group(2).lower() == "full",
                              **({"label": match.group(3)} if match.group(3) else {}),
                              "centre_line": line if line[0][1] <= line[-1][1] else line[::-1]}
    for label, _, shape in need("pirate ports"):
        box = shape.bbox()
        if box is None:
            problems.append(Problem(source, ("pirate ports", label), "a shape marking the port", "an empty shape"))
            continue
        x0, y0, x1, y1 = box
        doc["pirate_port"].append({"name": label, "at": [_r((x0 + x1) / 2 / PX_PER_CM),
                                                         _r(depth - (y0 + y1) / 2 / PX_PER_CM)]})
    for (route, direction), leg in sorted(legs.items()):
        if route in doc["routes"]:
            doc["routes"][route][direction] = leg
    for route in sorted({route for route, _ in legs} - drawn):
        if "routes" in layers:
            problems.append(Problem(source, ("routes",), f"a line labelled '{route} (full value)' or "
                                    f"'{route} (half value)' (its legs are drawn)", "none"))
    for route in doc["routes"]:
        for direction in ("north", "south"):
            for part, layer in (("start", "starts"), ("destination", "destinations")):
                if part not in doc["routes"][route].get(direction, {}) and layer in layers:
                    problems.append(Problem(source, (layer,), f"a shape labelled '{route} {direction}'", "none"))
    if problems:
        raise MapError(problems)
    return doc


def _layers(svg) -> dict[str, list]:
    """Return each known layer's (label, shape) pairs; a shape's label is its Inkscape label, else its id."""
    from svgelements import Group, Shape

    found: dict[str, list] = {}
    for group in svg.elements():
        if not isinstance(group, Group):
            continue
        own = group.values.get("attributes", {})
        if own.get(f"{INKSCAPE}groupmode") != "layer":
            continue
        kind = LAYERS.get(re.sub(r"[\s_\-]", "", str(own.get(f"{INKSCAPE}label", group.id or "")).lower()))
        if kind is None:
            continue
        shapes = found.setdefault(kind, [])
        for element in group.select():
            if isinstance(element, Shape):
                attrs = element.values.get("attributes", {})
                shapes.append((str(attrs.get(f"{INKSCAPE}label") or element.id or f"{kind} {len(shapes) + 1}"),
                               element))
    return found


def _leg_label(source: str, layer: str, label: str, problems: list[Problem]) -> tuple[str, str] | None:
    match = _LEG.match(label)
    if not match:
        problems.append(Problem(source, (layer, label), "a label like 'gulf north' or 'cape south: Cape Town'",
                                repr(label)))
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
