"""Geometric checks of a schema-valid map document, in the file's units (cm, degrees).

Each check returns (key path, expected, found) triples, so that every problem in a file is reported at
once. Shapely does the geometry; nothing here raises on bad shapes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from shapely import LineString, Point, Polygon, box, is_valid_reason, unary_union
from shapely.geometry.base import BaseGeometry

from somaliland.map.errors import KeyPath
from somaliland.map.rings import fmt, ring_problem

PORT_REACH = 2.0  # cm: a pirate port lies on land within this of the coast, or at sea within it
CENTRE_LINE_LAND_MAX = 0.10  # share of a centre line's length allowed over land ("mostly at sea")
ZONE_SEA_MIN = 0.5  # share of a destination zone's area that must be sea
HEADING_TOLERANCE = 90.0  # degrees between a launch heading and the route's direction at the start
LAUNCH_RUN = 5.0  # cm of open sea a launch needs straight ahead of the start
DIE = 1.6  # cm: the default die's edge (D1, `RulesConfig.die_size`); zones must hold one, starts keep half one clear
ZONE_REACH = 2.0  # cm: a leg's destination zone lies within this of its end of the route's centre line
RADIANS_OFF = 45.0  # degrees: the rules' default launch tolerance (R12); a heading of at most 2π further off the
# route than this, which read as radians would lie within it, is taken for radians

Found = list[tuple[KeyPath, str, str]]


def polygon_of(outline: list, holes: list | None = None) -> Polygon:
    """Return the shapely polygon of a ring (and holes) given as [x, y] lists."""
    return Polygon([tuple(p) for p in outline], [[tuple(p) for p in h] for h in holes or []])


def check_document(doc: dict) -> Found:
    """Return every geometric problem of a schema-valid map document.

    A shape that cannot be read is reported alone: the checks that would rely on it wait until it is fixed,
    so one broken land does not also move every port "out at sea", nor a broken zone leave its legs with
    "no such zone".
    """
    width, depth = doc["board"]["width"], doc["board"]["depth"]
    board = box(0.0, 0.0, width, depth)
    size = f"the {width:g} x {depth:g} cm board"
    found: Found = []
    found += _unique_names(doc)
    lands = [_shape(found, ("land", i), land["outline"], land.get("holes"), board, size)
             for i, land in enumerate(doc["land"])]
    # None: some land is broken, so nothing can be judged against the coast
    land = None if None in lands else unary_union(lands) if lands else Polygon()
    sea = None if land is None else Sea.of(board, land)
    zones: dict[str, Polygon | None] = {}
    for i, zone in enumerate(doc["zone"]):
        poly = _shape(found, ("zone", i), zone["outline"], None, board, size)
        zones.setdefault(zone["name"], poly)
        if poly is None or land is None:
            continue
        share = 1.0 - poly.intersection(land).area / poly.area if poly.area > 0 else 0.0
        if poly.area > 0 and share < ZONE_SEA_MIN:
            found.append((("zone", i, "outline"), f"a zone mostly at sea (at least {ZONE_SEA_MIN:.0%} sea)",
                          f"{share:.0%} sea"))
        elif (room := sea.room(poly)) < DIE ** 2:
            found.append((("zone", i, "outline"), f"a zone with room to arrive: at least a die's face ({DIE:g} x "
                          f"{DIE:g} cm) of it where a die's centre can rest wholly at sea (R9)",
                          f"{room:.2g} cm² of {poly.area:.2g} cm²"))
            if zones[zone["name"]] is poly:
                zones[zone["name"]] = None  # its legs are not judged against it
    for name, route in doc["routes"].items():
        found += _route(name, route, board, size, land, sea, zones)
    for i, port in enumerate(doc["pirate_port"]):
        found += _port(("pirate_port", i, "at"), port["at"], board, size, land)
    return found


def _unique_names(doc: dict) -> Found:
    found: Found = []
    for kind in ("land", "zone", "pirate_port"):
        seen: dict[str, int] = {}
        for i, item in enumerate(doc[kind]):
            if item["name"] in seen:
                found.append(((kind, i, "name"), f"a name not used by another [[{kind}]]",
                              f"{item['name']!r}, already the name of {kind}[{seen[item['name']]}]"))
            seen.setdefault(item["name"], i)
    called: dict[str, str] = {}  # accounts and reports name routes by label: two alike could not be told apart
    for name, route in doc["routes"].items():
        label = route.get("label", name)
        if label in called:
            found.append((("routes", name) + ("label",) * ("label" in route),
                          "a label not used by another route",
                          f"{label!r}, already what routes.{called[label]} is called"))
        called.setdefault(label, name)
    return found


def _shape(found: Found, path: KeyPath, outline: list, holes: list | None, board: Polygon,
           size: str) -> Polygon | None:
    """Return the polygon if it lies on the board, is simple and has area; else record why not."""
    for key, ring in [("outline", outline)] + [(("holes", k), hole) for k, hole in enumerate(holes or [])]:
        keys = (key,) if isinstance(key, str) else key
        outside = _first_outside(ring, board)
        if outside is not None:
            found.append((path + keys + (outside,), f"a point on {size}", fmt(*ring[outside])))
            return None
        problem = ring_problem(ring)
        if problem is not None:
            where, expected, got = problem
            found.append((path + keys + where, expected, got))
            return None
    shell = polygon_of(outline)
    for k, hole in enumerate(holes or []):
        if not shell.contains(polygon_of(hole)):
            found.append((path + ("holes", k), "a hole inside its land's outline",
                          f"a hole reaching {fmt(*_first_outside_of(hole, shell))}"))
            return None
    poly = polygon_of(outline, holes)
    if not poly.is_valid:
        found.append((path + ("holes",), "holes that touch neither each other nor the outline", _reason(poly)))
        return None
    return poly


def _reason(poly: Polygon) -> str:
    """Return shapely's reason a polygon is invalid, with its point in cm."""
    reason = is_valid_reason(poly)
    match = re.match(r"([^\[]*)\[([-\d.e+]+) ([-\d.e+]+)\]", reason)
    if not match:
        return reason.lower()
    return f"{match.group(1).strip().lower()} at {fmt(float(match.group(2)), float(match.group(3)))}"


def _first_outside_of(points: list, area: Polygon) -> list:
    """Return the first point not inside the area (or the first point)."""
    return next((p for p in points if not area.contains(Point(p))), points[0])


def _first_outside(points: list, board: Polygon) -> int | None:
    for k, (x, y) in enumerate(points):
        if not board.covers(Point(x, y)):
            return k
    return None


def _line_crossing(points: list[tuple[float, float]]) -> tuple[KeyPath, str]:
    """Return (path within the line, found) for the first place an open line crosses or touches itself: the two
    segments, named by their points, and where they meet."""
    segments = [LineString(points[k:k + 2]) for k in range(len(points) - 1)]
    for a, first in enumerate(segments):
        for b in range(a + 1, len(segments)):
            meet = first.intersection(segments[b])
            if meet.is_empty or (b == a + 1 and meet.geom_type == "Point"):  # neighbours share their joint
                continue
            x, y = meet.representative_point().coords[0]
            return (a,), (f"a line crossing itself: the segment from point {a} to point {a + 1} meets the segment "
                          f"from point {b} to point {b + 1} at {fmt(x, y)}")
    return (), "a line crossing itself"


def _route(name: str, route: dict, board: Polygon, size: str, land: BaseGeometry | None, sea: Sea | None,
           zones: dict[str, Polygon | None]) -> Found:
    """Return the problems of one route (`land` None: a land is broken, so nothing is judged against it)."""
    found: Found = []
    path: KeyPath = ("routes", name)
    points = [tuple(p) for p in route["centre_line"]]
    outside = _first_outside(points, board)
    if outside is not None:
        return [(path + ("centre_line", outside), f"a point on {size}", fmt(*points[outside]))]
    line = LineString(points)
    if line.length <= 0:
        return [(path + ("centre_line",), "a line of some length", "all its points in one place")]
    if not line.is_simple:
        at, crossing = _line_crossing(points)
        found.append((path + ("centre_line",) + at, "a line that does not cross itself", crossing))
    if points[0][1] > points[-1][1]:
        found.append((path + ("centre_line",), "the south end first (first point south of the last)",
                      f"first point {fmt(*points[0])} north of last {fmt(*points[-1])}"))
    on_land = line.intersection(land).length / line.length if land is not None else 0.0
    if on_land > CENTRE_LINE_LAND_MAX:
        found.append((path + ("centre_line",),
                      f"a centre line mostly at sea (at most {CENTRE_LINE_LAND_MAX:.0%} of it over land)",
                      f"{on_land:.0%} of it over land"))
    for direction in ("north", "south"):
        found += _leg(path + (direction,), direction, route[direction], line, board, size, land, sea, zones)
    return found


def _leg(path: KeyPath, direction: str, leg: dict, line: LineString, board: Polygon, size: str,
         land: BaseGeometry | None, sea: Sea | None, zones: dict[str, Polygon | None]) -> Found:
    """Return the problems of one leg; a broken land or destination zone leaves the checks that need it."""
    found: Found = []
    x, y = leg["start"]
    start = Point(x, y)
    if not board.covers(start):
        return [(path + ("start",), f"a point on {size}", fmt(x, y))]
    if land is not None and land.covers(start):
        found.append((path + ("start",), "a start at sea", f"{fmt(x, y)}, on land"))
    elif land is not None and land.distance(start) < DIE / 2:
        found.append((path + ("start",), f"a start at least half a die ({DIE / 2:g} cm) from land (a ship waits there, "
                      f"centred on it)", f"{fmt(x, y)}, {land.distance(start):.1f} cm from land"))
    edge = board.exterior.distance(start)
    if edge < DIE / 2:
        found.append((path + ("start",), f"a start at least half a die ({DIE / 2:g} cm) inside the board's edge",
                      f"{fmt(x, y)}, {edge:.1f} cm from it"))

    def progress(p: Point) -> float:
        along = line.project(p)
        return along if direction == "north" else line.length - along

    here = line.project(start)
    ahead = line.interpolate(min(line.length, here + 1.0)) if direction == "north" else \
        line.interpolate(max(0.0, here - 1.0))
    behind = line.interpolate(here)
    if ahead.distance(behind) > 0:
        along = math.degrees(math.atan2(ahead.y - behind.y, ahead.x - behind.x))
        off = abs((leg["heading"] - along + 180.0) % 360.0 - 180.0)
        as_radians = abs((math.degrees(leg["heading"]) - along + 180.0) % 360.0 - 180.0)
        radians = abs(leg["heading"]) <= 2 * math.pi and off > RADIANS_OFF >= as_radians  # fits only as radians
        if radians:
            found.append((path + ("heading",),
                          f"a heading in degrees within {RADIANS_OFF:g} degrees (the launch tolerance) of the "
                          f"{direction}bound route's direction at the start ({along:.0f}): one of at most 2π "
                          f"({2 * math.pi:.2f}) further off that would fit read as radians is taken for radians",
                          f"{leg['heading']:g}, {off:.0f} degrees off; as radians, {leg['heading']:g} rad is "
                          f"{math.degrees(leg['heading']):.0f} degrees, {as_radians:.0f} off"))
        elif off > HEADING_TOLERANCE:
            found.append((path + ("heading",),
                          f"a heading within {HEADING_TOLERANCE:g} degrees of the {direction}bound route's "
                          f"direction at the start ({along:.0f})", f"{leg['heading']:g}"))
    if land is not None and not land.covers(start):
        run = _open_run(leg["start"], leg["heading"], land, board)
        if run < LAUNCH_RUN:
            found.append((path + ("heading",), f"a launch heading with at least {LAUNCH_RUN:g} cm of open sea ahead",
                          f"{leg['heading']:g}, with land or the board's edge {run:.1f} cm ahead"))
    if leg["destination"] not in zones:
        found.append((path + ("destination",), f"the name of a [[zone]] (one of {sorted(zones)})",
                      repr(leg["destination"])))
        return found
    zone = zones[leg["destination"]]
    if zone is None:  # the zone itself is reported broken
        return found
    if zone.covers(start):
        found.append((path + ("start",), "a start outside its own destination zone",
                      f"{fmt(x, y)}, inside zone {leg['destination']!r}"))
        return found
    end = Point(line.coords[-1] if direction == "north" else line.coords[0])
    if progress(zone.centroid) <= progress(start):
        found.append((path + ("destination",),
                      f"a zone further {direction} along the route than the start",
                      f"zone {leg['destination']!r} behind the start"))
    elif zone.distance(end) > ZONE_REACH:  # e.g. another route's zone, pasted
        found.append((path + ("destination",),
                      f"the zone at the {direction} end of the route's centre line (within {ZONE_REACH:g} cm of its "
                      f"{'last' if direction == 'north' else 'first'} point, {fmt(end.x, end.y)})",
                      f"zone {leg['destination']!r}, {zone.distance(end):.1f} cm from it"))
    elif sea is not None and not land.covers(start) and sea.room(zone, start) < DIE ** 2:
        found.append((path + ("destination",), "a zone a ship can reach by sea from the start",
                      f"zone {leg['destination']!r}, cut off from the start's water by land"))
    return found


@dataclass(frozen=True)
class Sea:
    """The board's water (the board less its land) and where on it a die's centre can rest with the whole die on
    water (R9: a ship arrives when its die's centre rests in the zone; D11: not aground), made once per map."""

    water: BaseGeometry
    berths: BaseGeometry

    @classmethod
    def of(cls, board: Polygon, land: BaseGeometry) -> "Sea":
        """Return the sea of a board with its land."""
        water = board.difference(land)
        return cls(water, water.buffer(-DIE / 2))

    def room(self, zone: Polygon, start: Point | None = None) -> float:
        """Return the area (cm²) of the zone where a die's centre can rest wholly at sea: anywhere, or (with
        `start`) in the body of water the start lies in (0 if it lies in none)."""
        room = zone.intersection(self.berths)
        if start is not None:
            body = next((b for b in getattr(self.water, "geoms", [self.water]) if b.covers(start)), None)
            room = room.intersection(body) if body is not None else Polygon()
        return room.area


def _open_run(start: list, heading: float, land: BaseGeometry, board: Polygon) -> float:
    """Return how far (cm, up to LAUNCH_RUN) a straight line from the start along the heading stays at sea."""
    x, y = start
    ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    steps = 20
    for k in range(1, steps + 1):
        d = LAUNCH_RUN * k / steps
        p = Point(x + d * ux, y + d * uy)
        if land.covers(p) or not board.covers(p):
            return LAUNCH_RUN * (k - 1) / steps
    return LAUNCH_RUN


def _port(path: KeyPath, at: list, board: Polygon, size: str, land: BaseGeometry | None) -> Found:
    """Return the problems of one pirate port (`land` None: a land is broken, so the coast is unknown)."""
    x, y = at
    point = Point(x, y)
    if not board.covers(point):
        return [(path, f"a point on {size}", fmt(x, y))]
    if land is None:
        return []
    if land.is_empty:
        return [(path, "a port on a coast", "a map without land")]
    coast = land.boundary.difference(board.exterior.buffer(1e-6)).distance(point)
    if coast > PORT_REACH:
        where = "inland" if land.covers(point) else "out at sea"
        return [(path, f"a port on or within {PORT_REACH:g} cm of a coast", f"{fmt(x, y)}, {where} "
                                                                            f"{coast:.1f} cm from the coast")]
    return []
