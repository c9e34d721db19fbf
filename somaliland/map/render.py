"""Draw a map as a board preview with matplotlib: sea, land, routes and their directions, starts,
destination zones, pirate ports, a centimetre grid and a scale bar. Display code: imports lazily."""

from __future__ import annotations

import math

from shapely import LineString, Polygon

from somaliland.map.model import Direction, Map, value_words
from somaliland.units import cm

SEA = "#8dbbdc"
SEA_EDGE = "#2d5f8a"
LAND = "#ecdcb0"
RELIEF = "#d2b77c"
COAST = "#7a5a2e"
FULL_ROUTE_COLOURS = ("#c0392b", "#d35400", "#922b21", "#af601a")  # warm: the full-value routes, in map order
HALF_ROUTE_COLOURS = ("#1e7b45", "#1f618d", "#117a65", "#5b2c6f")  # cool: the half-value ones (R8)
ROUTE_DASH = (0, (6, 3))  # a route's centre line
PIRATE = "#111111"
ARROW = {Direction.NORTH: "\u2191", Direction.SOUTH: "\u2193"}
ARROW_EVERY = 12.0  # cm between direction arrows along a route


def render(m: Map, path: str, dpi: int = 150) -> None:
    """Draw the map's board to an image file (format from the file's suffix: png, svg, pdf)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    width, depth = cm(m.width), cm(m.depth)
    fig_w = 8.0
    fig, ax = plt.subplots(figsize=(fig_w, fig_w * (depth + 14) / (width + 8)), dpi=dpi)
    halo = draw_board(ax, m)
    _scale_bar(ax, width, depth, halo)
    ax.set_xlim(-1, width + 1)
    ax.set_ylim(-1, depth + 3.5)
    ax.set_aspect("equal")
    ax.set_xlabel("x (cm, east)")
    ax.set_ylabel("y (cm, north)")
    ax.set_title(f"{m.name} (version {m.version})\n{width:g} x {depth:g} cm"
                 + (f", by {m.author}" if m.author else ""), fontsize=11)
    colours = route_colours(m)
    handles = [plt.Line2D([], [], color=colours[r.name], lw=2.5,
                          label=f"{r.display_name}: {value_words(r.full_value)}, {cm(r.centre_line.length):.0f} cm")
               for r in m.routes]
    handles.append(plt.Line2D([], [], ls="", marker="X", color=PIRATE, ms=8, label="pirate port"))
    handles.append(plt.Line2D([], [], ls="", marker="o", ms=8, mfc="white", mec="#444444", mew=2,
                              label="start (N/S) with launch heading"))
    handles.append(Patch(facecolor="#cccccc", edgecolor="#444444", hatch="////", label="destination zone"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.05), ncol=3, fontsize=7, frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def draw_board(ax, m: Map) -> list:
    """Draw the board itself (sea, grid, land, routes, pirate ports) on axes in cm; return the text halo effect."""
    from matplotlib import patheffects
    from matplotlib.patches import Rectangle

    width, depth = cm(m.width), cm(m.depth)
    halo = [patheffects.withStroke(linewidth=2.5, foreground="white")]
    ax.add_patch(Rectangle((0, 0), width, depth, facecolor=SEA, edgecolor=SEA_EDGE, lw=1.5, zorder=0))
    _grid(ax, width, depth)
    for land in m.lands:
        _polygon(ax, _cm(land.polygon), RELIEF if land.relief > 0 else LAND, COAST, zorder=2,
                 hatch="..." if land.relief > 0 else None)
    for land in m.lands:
        poly = _cm(land.polygon)
        if poly.area >= 1.0:
            p = poly.representative_point()
            size = 11 if poly.area > 200 else 7
            label = land.name + (f"\n(+{land.relief * 1000:g} mm)" if land.relief > 0 else "")
            ax.text(p.x, p.y, label, ha="center", va="center", fontsize=size, style="italic",
                    color="#6b4f25", zorder=3, path_effects=[patheffects.withStroke(linewidth=2, foreground=LAND)])
    colours = route_colours(m)
    for route in m.routes:
        _route(ax, m, route, colours[route.name], halo)
    for port in m.pirate_ports:
        x, y = cm(port.point[0]), cm(port.point[1])
        ax.plot(x, y, marker="X", ms=9, color=PIRATE, mec="white", mew=1.0, zorder=8)
        left = m.is_land(port.point[0] - 0.03, port.point[1]) or not m.is_land(port.point[0] + 0.03, port.point[1])
        ax.annotate(port.name, (x, y), xytext=(-7 if left else 7, -3), textcoords="offset points", fontsize=8,
                    ha="right" if left else "left", fontweight="bold", color=PIRATE, path_effects=halo, zorder=9)
    return halo


def route_colours(m: Map) -> dict[str, str]:
    """Return each route's colour: warm for full-value routes, cool for half-value ones (R8), in map order."""
    colours, count = {}, {True: 0, False: 0}
    for r in m.routes:
        palette = FULL_ROUTE_COLOURS if r.full_value else HALF_ROUTE_COLOURS
        colours[r.name] = palette[count[r.full_value] % len(palette)]
        count[r.full_value] += 1
    return colours


def _cm(poly: Polygon) -> Polygon:
    from shapely.affinity import scale

    return scale(poly, 100.0, 100.0, origin=(0, 0))


def _polygon(ax, poly: Polygon, face: str, edge: str, zorder: int, hatch: str | None = None, alpha: float = 1.0,
             lw: float = 0.8) -> None:
    """Draw a polygon with its holes."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    from shapely.geometry.polygon import orient

    poly = orient(poly, 1.0)  # holes wound against the outline, so the fill rule leaves them empty
    rings = [poly.exterior, *poly.interiors]
    vertices, codes = [], []
    for ring in rings:
        coords = list(ring.coords)
        vertices += coords
        codes += [Path.MOVETO] + [Path.LINETO] * (len(coords) - 2) + [Path.CLOSEPOLY]
    ax.add_patch(PathPatch(Path(vertices, codes), facecolor=face, edgecolor=edge, lw=lw, zorder=zorder,
                           hatch=hatch, alpha=alpha))


def _grid(ax, width: float, depth: float) -> None:
    """Draw a 5 cm grid, heavier every 10 cm, labelled on the axes."""
    for x in range(0, int(width) + 1, 5):
        ax.plot([x, x], [0, depth], color="white", lw=0.7 if x % 10 == 0 else 0.3, alpha=0.6, zorder=1)
    for y in range(0, int(depth) + 1, 5):
        ax.plot([0, width], [y, y], color="white", lw=0.7 if y % 10 == 0 else 0.3, alpha=0.6, zorder=1)
    ax.set_xticks(range(0, int(width) + 1, 10))
    ax.set_yticks(range(0, int(depth) + 1, 10))
    ax.tick_params(labelsize=7, length=2)


def _route(ax, m: Map, route, colour: str, halo) -> None:
    """Draw a route: centre line, a lane of arrows each way, destination zones and starts."""
    line = LineString([(cm(x), cm(y)) for x, y in route.centre_line.coords])
    ax.plot(*line.xy, color=colour, lw=1.4, ls=ROUTE_DASH, alpha=0.9, zorder=4)
    for direction in Direction:
        _arrows(ax, line, direction, colour)
    for leg in (route.north, route.south):
        zone = _cm(leg.destination)
        _polygon(ax, zone, colour, colour, zorder=3, hatch="////", alpha=0.25, lw=1.2)
        _polygon(ax, zone, "none", colour, zorder=5, lw=1.4)
        c = _label_point(zone, [(cm(g.start[0]), cm(g.start[1])) for r in m.routes for g in (r.north, r.south)])
        ax.text(c.x, c.y, _zone_label(m, leg.destination), ha="center", va="center", fontsize=7, color=colour,
                fontweight="bold", path_effects=halo, zorder=9)
        x, y = cm(leg.start[0]), cm(leg.start[1])
        dx, dy = 3.5 * math.cos(leg.heading), 3.5 * math.sin(leg.heading)
        ax.annotate("", xy=(x + dx, y + dy), xytext=(x, y), zorder=7,
                    arrowprops=dict(arrowstyle="-|>", color=colour, lw=2, mutation_scale=12))
        ax.plot(x, y, marker="o", ms=10, mfc="white", mec=colour, mew=2, zorder=7)
        ax.text(x, y, leg.direction.value[0].upper(), ha="center", va="center", fontsize=6, fontweight="bold",
                color=colour, zorder=8)


def _zone_label(m: Map, zone: Polygon) -> str:
    """Return the label of a destination zone: which legs end there."""
    legs = [(leg.zone, f"{r.display_name} {ARROW[leg.direction]}") for r in m.routes
            for leg in (r.north, r.south) if leg.destination.equals(zone)]
    return "\n".join([legs[0][0]] * bool(legs[0][0]) + [text for _, text in legs])


def _label_point(zone: Polygon, avoid: list[tuple[float, float]]):
    """Return a point inside the zone as far as possible from the starts (whose markers it would hide)."""
    from shapely import Point

    x0, y0, x1, y1 = zone.bounds
    candidates = [Point(x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)) for fx in (0.3, 0.5, 0.7) for fy in (0.3, 0.5, 0.7)]
    inside = [p for p in candidates if zone.covers(p)] or [zone.representative_point()]
    return max(inside, key=lambda p: min((p.distance(Point(a)) for a in avoid), default=0.0))


def _arrows(ax, line: LineString, direction: Direction, colour: str, side: float = -0.9) -> None:
    """Draw arrowheads beside the line (to the right of travel) pointing the way ships sail."""
    n = max(1, int(line.length // ARROW_EVERY))
    for k in range(n):
        s = (k + 0.5) * line.length / n
        a, b = line.interpolate(max(0.0, s - 0.5)), line.interpolate(min(line.length, s + 0.5))
        if direction is Direction.SOUTH:
            a, b = b, a
        ux, uy = b.x - a.x, b.y - a.y
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        ox, oy = -uy * side, ux * side  # each direction keeps to its own side of the line
        px, py = a.x + ox, a.y + oy
        ax.annotate("", xy=(px + 1.6 * ux, py + 1.6 * uy), xytext=(px - 1.6 * ux, py - 1.6 * uy), zorder=6,
                    arrowprops=dict(arrowstyle="-|>", color=colour, lw=1.2, mutation_scale=9, alpha=0.9))


def _scale_bar(ax, width: float, depth: float, halo) -> None:
    """Draw a 10 cm scale bar just above the board's north-east corner."""
    x0, y0 = width - 10.5, depth + 0.8
    from matplotlib.patches import Rectangle

    for k in range(2):
        ax.add_patch(Rectangle((x0 + 5 * k, y0), 5, 0.6, facecolor="black" if k == 0 else "white",
                               edgecolor="black", lw=0.8, zorder=9))
    for k, label in enumerate(("0", "5", "10 cm")):
        ax.text(x0 + 5 * k, y0 + 0.9, label, ha="center", va="bottom", fontsize=7, zorder=9)
