"""Between a map document (the file's tables: cm, degrees, mm) and the Map object (metres, radians)."""

from __future__ import annotations

import math

from shapely import LineString, Polygon

from somaliland.map.geometry import polygon_of
from somaliland.map.model import Direction, Land, Leg, Map, PiratePort, Route
from somaliland.units import CM, MM

FORMAT = 2  # what this code writes; it reads format 1 too
DEFAULT_THICKNESS = 0.3  # cm
FORMAT1_FULL_VALUE = {"somalia": True, "africa": False}  # format 1's R8 default; format 2 says it per route


def build(doc: dict, source: str = "", sha256: str = "") -> Map:
    """Return the Map of a checked document."""

    def poly(outline: list, holes: list | None = None) -> Polygon:
        return polygon_of([(x * CM, y * CM) for x, y in outline],
                          [[(x * CM, y * CM) for x, y in h] for h in holes or []])

    zones = {}
    for zone in doc["zone"]:
        zones.setdefault(zone["name"], poly(zone["outline"]))

    def leg(direction: Direction, data: dict) -> Leg:
        x, y = data["start"]
        return Leg(direction, (x * CM, y * CM), math.radians(data["heading"]), zones[data["destination"]],
                   data["destination"])

    routes = tuple(
        Route(name=name, centre_line=LineString([(x * CM, y * CM) for x, y in r["centre_line"]]),
              north=leg(Direction.NORTH, r["north"]), south=leg(Direction.SOUTH, r["south"]),
              full_value=r["full_value"] if "full_value" in r else FORMAT1_FULL_VALUE[name],
              label=r.get("label", name))
        for name, r in doc["routes"].items()  # in file order: R14 moves several routes of a kind in this order
    )
    return Map(
        name=doc["name"], version=doc["version"], author=doc["author"],
        width=doc["board"]["width"] * CM, depth=doc["board"]["depth"] * CM,
        thickness=doc["board"].get("thickness", DEFAULT_THICKNESS) * CM,
        lands=tuple(Land(land["name"], poly(land["outline"], land.get("holes")), land.get("relief", 0.0) * MM)
                    for land in doc["land"]),
        routes=routes,
        pirate_ports=tuple(PiratePort(p["name"], (p["at"][0] * CM, p["at"][1] * CM)) for p in doc["pirate_port"]),
        source=source, sha256=sha256,
    )


def to_document(m: Map) -> dict:
    """Return the document of a Map (file units; zones named after their route and direction)."""

    def pts(coords) -> list[list[float]]:
        return [[_r(x / CM), _r(y / CM)] for x, y in coords]

    def ring(r) -> list[list[float]]:
        return pts(list(r.coords)[:-1])

    zones: list[dict] = []

    def zone_name(route: Route, leg: Leg) -> str:
        for z in zones:
            if z["_poly"].equals(leg.destination):
                return z["name"]
        zones.append({"name": leg.zone or f"{route.name}-{leg.direction.value}", "_poly": leg.destination,
                      "outline": ring(leg.destination.exterior)})
        return zones[-1]["name"]

    routes = {}
    for route in m.routes:
        routes[route.name] = {
            "full_value": route.full_value,
            **({"label": route.label} if route.label not in ("", route.name) else {}),
            "centre_line": pts(route.centre_line.coords),
            **{leg.direction.value: {"start": pts([leg.start])[0], "heading": _r(math.degrees(leg.heading)),
                                     "destination": zone_name(route, leg)}
               for leg in (route.north, route.south)},
        }
    lands = []
    for land in m.lands:
        item = {"name": land.name, "outline": ring(land.polygon.exterior)}
        if land.polygon.interiors:
            item["holes"] = [ring(h) for h in land.polygon.interiors]
        if land.relief:
            item["relief"] = _r(land.relief / MM)
        lands.append(item)
    return {
        "format": FORMAT, "name": m.name, "version": m.version, "author": m.author,
        "board": {"width": _r(m.width / CM), "depth": _r(m.depth / CM), "thickness": _r(m.thickness / CM)},
        "land": lands,
        "zone": [{"name": z["name"], "outline": z["outline"]} for z in zones],
        "routes": routes,
        "pirate_port": [{"name": p.name, "at": pts([p.point])[0]} for p in m.pirate_ports],
    }


def _r(v: float) -> float:
    """Round to the file's precision (a hundredth of a cm or degree) and drop float noise."""
    return round(float(v), 2) + 0.0
