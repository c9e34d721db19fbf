"""Write a map document as a commented TOML map file, laid out for people and for diffs."""

from __future__ import annotations

import json

POINTS_PER_LINE = 4


def dumps(doc: dict, comment: str = "", schema: str = "./map.schema.json") -> str:
    """Return the TOML text of a map document (as `to_document` or the SVG import makes it); `schema`
    is the schema's path relative to where the file will live, for editors."""
    out = [f"#:schema {schema}"]
    out += [f"# {line}".rstrip() for line in comment.splitlines()]
    out += ["# Lengths in cm from the board's south-west corner (x east, y north); headings in degrees",
            "# counter-clockwise from east; relief in mm. Format: maps/README.md.", ""]
    out += [f"format = {doc['format']}", f"name = {_str(doc['name'])}", f"version = {_str(doc['version'])}",
            f"author = {_str(doc['author'])}"]
    # an empty array of tables has no [[...]] header to stand for it: say it before the tables
    out += [f"{key} = []" for key in ("land", "zone", "pirate_port") if not doc[key]]
    out += ["", "[board]"]
    out += [f"{k} = {_num(v)}" for k, v in doc["board"].items()]
    for land in doc["land"]:
        out += ["", "[[land]]", f"name = {_str(land['name'])}"]
        if "relief" in land:
            out.append(f"relief = {_num(land['relief'])}")
        out += _points("outline", land["outline"])
        if land.get("holes"):
            out.append("holes = [")
            for hole in land["holes"]:
                out += ["  " + line for line in _points("", hole)]
            out.append("]")
    for zone in doc["zone"]:
        out += ["", "[[zone]]", f"name = {_str(zone['name'])}"] + _points("outline", zone["outline"])
    for name, route in doc["routes"].items():
        out += ["", f"[routes.{name}]"]
        if "full_value" in route:
            out.append(f"full_value = {'true' if route['full_value'] else 'false'}")
        if "label" in route:
            out.append(f"label = {_str(route['label'])}")
        out += _points("centre_line", route["centre_line"])
        for direction in ("north", "south"):
            leg = route[direction]
            out += ["", f"[routes.{name}.{direction}]", f"start = {_point(leg['start'])}",
                    f"heading = {_num(leg['heading'])}", f"destination = {_str(leg['destination'])}"]
    for port in doc["pirate_port"]:
        out += ["", "[[pirate_port]]", f"name = {_str(port['name'])}", f"at = {_point(port['at'])}"]
    return "\n".join(out) + "\n"


def _str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def _num(v: float) -> str:
    return repr(float(v)) if isinstance(v, float) else repr(v)


def _point(p: list) -> str:
    return f"[{_num(p[0])}, {_num(p[1])}]"


def _points(key: str, points: list) -> list[str]:
    """Return the lines of an array of points, a few per line; a hole's array when `key` is empty."""
    rows = [", ".join(_point(p) for p in points[i:i + POINTS_PER_LINE]) + ","
            for i in range(0, len(points), POINTS_PER_LINE)]
    head = f"{key} = [" if key else "["
    return [head] + ["  " + r for r in rows] + ["]" + ("," if not key else "")]
