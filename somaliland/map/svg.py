"""Import a board drawn in Inkscape: named layers become a map document (conventions: maps/README.md).

The SVG page is the board (its width and height give the board's size); every transform is applied by
svgelements; curves are flattened to points about 2 mm apart. SVG's y axis points down, the board's up.
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path as FilePath

from somaliland.map.document import DEFAULT_THICKNESS, FORMAT
from somaliland.map.errors import KeyPath, MapError, Problem
from somaliland.map.svgplaces import INKSCAPE, Drawing, Lines, Origin, element_lines, unreadable

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
    with warnings.catch_warnings():  # NaN and huge numbers in a drawing are reported as problems, not warned of
        warnings.simplefilter("ignore", RuntimeWarning)
        return _import(str(path), name, author)


def _import(source: str, name: str, author: str) -> Drawing:
    """Return the drawing's map (see `import_svg`)."""
    from svgelements import SVG

    lines = element_lines(source)  # first: it locates XML errors by line, which svgelements cannot
    try:
        svg = SVG.parse(source, reify=True)
    except Exception as exc:  # svgelements raises many kinds on malformed files  # noqa: BLE001
        raise MapError([unreadable(source, lines, exc)]) from None
    size = (getattr(svg, "width", None), getattr(svg, "height", None))
    if not isinstance(svg, SVG) or not all(isinstance(v, (int, float)) and 0 < v < math.inf for v in size):
        raise MapError([Problem(source, (), "an SVG file whose page has a width and a height",
                                f"a {type(svg).__name__} of size {size}")])
    width, depth = size[0] / PX_PER_CM, size[1] / PX_PER_CM
    layers = _layers(svg, lines)
    problems: list[Problem] = []
    origins: dict[KeyPath, Origin] = {
        (): Origin("the drawing"),
        ("board",): Origin("the page (the <svg> width and height)", (lines.root or [None])[0]),
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
        land: dict = {"name": (match.group(1) if match else label) or f"land {len(doc['land']) + 1}",
                      "outline": rings[0]}
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
                                                   "or 'cape (half value): round the Cape'", _said(label)))
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
        doc["pirate_port"].append({"name": label or f"pirate port {len(doc['pirate_port']) + 1}",
                                   "at": [_r((x0 + x1) / 2 / PX_PER_CM), _r(depth - (y0 + y1) / 2 / PX_PER_CM)]})
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


def _layers(svg, lines: Lines) -> dict[str, list]:
    """Return each known layer's (label, shape, origin); a shape's label is its Inkscape label, else its id,
    else empty."""
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
        members = [e for e in group.select() if isinstance(e, Shape)]
        for k, element in enumerate(members):
            label = str(element.values.get("attributes", {}).get(f"{INKSCAPE}label") or "")
            ident = element.id
            line = lines.of(layer, k, len(members), label, ident)
            if label:
                place = f"{label!r}{f' (id {ident})' if ident else ''} on layer {layer!r}"
            elif ident:
                place = f"id {ident} (no label) on layer {layer!r}"
            else:
                place = f"shape {k + 1} (no label or id) on layer {layer!r}"
            shapes.append((label or ident or "", element, Origin(place, line)))
    return found


def _said(label: str) -> str:
    """Return a label as found, in messages."""
    return repr(label) if label else "no label"


def _leg_label(source: str, label: str, origin: Origin, problems: list[Problem]) -> tuple[str, str] | None:
    match = _LEG.match(label)
    if not match:
        problems.append(origin.problem(source, "a label like 'gulf north' or 'cape south: Cape Town'", _said(label)))
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
