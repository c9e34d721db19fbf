"""`somaliland map`: check, preview, mesh, import, measure and survey map files."""

from __future__ import annotations

import argparse
from pathlib import Path

from somaliland.cli import args as types
from somaliland.cli.map_measure import MAX_VOYAGES, run_measure


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command and its subcommands to the parser."""
    p = commands.add_parser("map", help="check, preview, mesh, import, measure and survey map files",
                            description="Work with map files (TOML, documented in maps/README.md).")
    sub = p.add_subparsers(dest="map_command", metavar="SUBCOMMAND", required=True)

    c = sub.add_parser("check", help="check map files; print OK or every problem (exit 2 on problems)",
                       description="Check each map file against the schema and the geometry rules. Prints "
                                   "OK and a summary, or every problem found; exits 2 if any file has one.")
    c.add_argument("files", nargs="+", metavar="FILE", help="map files (.toml), or shipped maps' names (tiny, horn-of-africa)")
    c.set_defaults(run=run_check)

    s = sub.add_parser("show", help="draw the board to an image (png, svg or pdf)",
                       description="Draw the board: land and sea, routes with direction arrows, starts, "
                                   "destination zones, pirate ports, a cm grid and a scale bar.")
    s.add_argument("file", metavar="FILE", help="map file (.toml), or a shipped map's name (tiny, horn-of-africa)")
    s.add_argument("-o", "--output", required=True, metavar="OUT.png", help="image to write")
    s.add_argument("--dpi", type=types.positive_int, default=150, help="resolution of a PNG (default 150)")
    s.set_defaults(run=run_show)

    m = sub.add_parser("mesh", help="write the board (slab plus relief) as a Wavefront OBJ mesh",
                       description="Write the board as physics sees it: the slab plus any raised land.")
    m.add_argument("file", metavar="FILE", help="map file (.toml), or a shipped map's name (tiny, horn-of-africa)")
    m.add_argument("-o", "--output", required=True, metavar="OUT.obj", help="mesh to write")
    m.add_argument("--units", choices=("m", "cm", "mm"), default="m", help="units of the mesh (default m)")
    m.set_defaults(run=run_mesh)

    i = sub.add_parser("import-svg", help="turn an Inkscape drawing with named layers into a map file",
                       description="Read an SVG whose layers are labelled land, routes, starts, destinations "
                                   "and pirate ports (see maps/README.md), check the map it makes and write the "
                                   "map file if it is valid; problems name the SVG element and line (exit 2).")
    i.add_argument("svg", metavar="BOARD.svg", help="the drawing")
    i.add_argument("-o", "--output", required=True, metavar="OUT.toml", help="map file to write")
    i.add_argument("--name", default="", help="the map's name (default: the SVG file's name)")
    i.add_argument("--author", default="", help="the map's author")
    i.add_argument("--force", action="store_true",
                   help="overwrite OUT.toml if it exists, and write it even if the map has problems")
    i.set_defaults(run=run_import)

    r = sub.add_parser("measure", help="sail the map with a player's survey: turns, groundings, off-board and "
                                       "pirate exposure per leg; compare maps",
                       description="Sail every leg of every route as the players' own survey does (somaliland/"
                                   "players/survey.py): lone voyages and convoys thrown with a strategy's aim and "
                                   "hand model, under the rules' turn and move limits (R15, D10), through real "
                                   "physics; say how close each leg passes to each pirate port and the seizures a "
                                   "voyage can expect in a crowd (R13, D15); and throw a firm throw many times for "
                                   "its median roll distance. Given several maps, sail them with the same luck and "
                                   "compare each leg's figures with the first map's, adding voyages while their "
                                   "95% intervals overlap, up to --max-voyages.")
    r.add_argument("file", metavar="FILE", nargs="+",
                   help="map file (.toml) or a shipped map's name; two or more to compare them side by side, sailed with the same draws "
                        "of the hands' scatter (common random numbers), so they differ by the maps more than by luck")
    r.add_argument("--strategy", default="ev", help="the strategy whose aim sails the voyages (default ev)")
    r.add_argument("--skill", type=float, default=0.75,
                   help="throw skill the aim and hand model plan for, 0 (clumsy) to 1 (perfect) (default 0.75)")
    r.add_argument("--rules", type=Path, default=None, help="rules options file (TOML; default: the rulings' defaults)")
    r.add_argument("--voyages", type=types.positive_int, default=None,
                   help="lone voyages per leg (default: the players' own, 16, as in a game); comparing maps, the "
                        "first count: more are sailed while the maps' figures are not told apart")
    r.add_argument("--max-voyages", type=types.positive_int, default=None,
                   help="comparing maps, the most lone voyages per leg to sail before giving up on telling a "
                        f"difference (default {MAX_VOYAGES}; then it says how many would tell it)")
    r.add_argument("--throws", type=types.positive_int, default=200,
                   help="firm throws for the median roll distance (default 200)")
    r.add_argument("--seed", type=types.seed, default=2026, help="random seed of the firm throws (default 2026)")
    r.add_argument("--firm-speed", type=_speed, default=None, metavar="M/S",
                   help="release speed of a firm throw in m/s (default 1.8)")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.set_defaults(run=run_measure)

    v = sub.add_parser("survey", help="sail the players' surveys of maps now and keep them for later games",
                       description="Sail each strategy's survey of each map (what a player measures on the board "
                                   "before its first decision: somaliland/players/README.md) and keep it in "
                                   "$SOMALILAND_CACHE/surveys (default ~/.cache/somaliland/surveys), so later "
                                   "games, studies and verifications start at once. A survey already kept is read "
                                   "back, not sailed; any other is sailed on first use anyway.")
    v.add_argument("files", metavar="FILE", nargs="*", type=Path,
                   help="map files (.toml; default maps/horn-of-africa.toml)")
    v.add_argument("--strategies", default="ev,bold,cautious",
                   help="comma-separated strategies to survey for (default ev,bold,cautious; search takes "
                        "about 20 CPU s more on the default map)")
    v.add_argument("--skill", type=float, default=0.75,
                   help="throw skill the players aim for, 0 (clumsy) to 1 (perfect) (default 0.75, as play's)")
    v.add_argument("--rules", type=Path, default=None, help="rules options file (TOML; default: the rulings' defaults)")
    v.set_defaults(run=run_survey)


def run_check(args: argparse.Namespace) -> int:
    """Check each file; print OK with a summary, or every problem."""
    from somaliland.map import load, problems

    bad = 0
    for name in args.files:
        found = problems(name)
        if found:
            bad += 1
            for problem in found:
                print(problem)
            print(f"{name}: {len(found)} problem{'s' * (len(found) > 1)}")
        else:
            print(f"{name}: OK")
            print(_summary(load(name)))
    return 2 if bad else 0


def _summary(m) -> str:
    from somaliland.map.model import value_words
    from somaliland.units import cm

    lands, ports = len(m.lands), len(m.pirate_ports)
    lines = [f"  {m.name} {m.version}: {cm(m.width):g} x {cm(m.depth):g} cm, {lands} land area{'s' * (lands != 1)}, "
             f"{ports} pirate port{'s' * (ports != 1)}"]
    for route in m.routes:
        called = f" ({route.label})" if route.label not in ("", route.name) else ""
        if m.pirate_ports:
            near = min(route.centre_line.distance(_point(p.point)) for p in m.pirate_ports)
            pirates = f"nearest pirate port {cm(near):.1f} cm away"
        else:  # a map may have none (R13 then seizes nobody): no distance to give
            pirates = "no pirate ports on this map"
        lines.append(f"  route {route.name}{called}: {cm(route.centre_line.length):.1f} cm, "
                     f"{value_words(route.full_value)}, {pirates}")
    return "\n".join(lines)


def _speed(text: str) -> float:
    """Read a firm throw's speed in m/s."""
    import math

    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a speed in m/s, got {text!r}") from None
    if not math.isfinite(v) or not 0.2 <= v <= 5.0:
        raise argparse.ArgumentTypeError(f"expected a speed between 0.2 and 5 m/s, got {text}")
    return v


def _point(xy):
    from shapely import Point

    return Point(xy)


def run_show(args: argparse.Namespace) -> int:
    """Draw the board."""
    from somaliland.map import load
    from somaliland.map.render import render

    types.figure_file("-o", args.output)
    render(load(args.file), args.output, dpi=args.dpi)
    print(f"wrote {args.output}")
    return 0


def run_mesh(args: argparse.Namespace) -> int:
    """Write the board mesh physics rolls on."""
    from physics.board import board_mesh, write_obj
    from somaliland.map import load

    verts, tris = board_mesh(load(args.file).board())
    write_obj(args.output, verts, tris, scale={"m": 1.0, "cm": 100.0, "mm": 1000.0}[args.units])
    print(f"wrote {args.output}: {len(verts)} vertices, {len(tris)} triangles, in {args.units}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Import an SVG drawing, check the map it makes, and write the map file only if it is valid (or --force)."""
    import os

    from somaliland.errors import UsageError
    from somaliland.map import MapError
    from somaliland.map.schema import SCHEMA_PATH
    from somaliland.map.svg import import_svg
    from somaliland.map.write import dumps

    out = Path(args.output)
    if out.exists() and not args.force:
        raise UsageError(f"-o {out}: the file exists; add --force to overwrite it")
    try:
        drawing = import_svg(args.svg, name=args.name, author=args.author)
    except MapError as exc:
        return _refuse(args.svg, exc.problems, "no map could be made of the drawing, nothing written")
    found = drawing.problems()
    if found and not args.force:
        return _refuse(args.svg, found, f"nothing written (fix the drawing, or add --force to write {out} anyway)")
    schema = Path(os.path.relpath(SCHEMA_PATH, out.resolve().parent)).as_posix()
    text = dumps(drawing.doc, comment=f"Imported from {Path(args.svg).name} by `somaliland map import-svg`.",
                 schema=schema if schema.startswith(".") else f"./{schema}")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"-o {out}: expected a map file that can be written, found {exc.strerror or exc}") from None
    if found:
        return _refuse(args.svg, found, f"wrote {out} all the same (--force): it is not a valid map; "
                                        f"`somaliland map check {out}` lists its problems in the file")
    print(f"wrote {out}")
    return 0


def _refuse(svg: str, found, outcome: str) -> int:
    """Print every problem of a drawing and what became of the map file; return the exit status (2)."""
    for problem in found:
        print(problem)
    print(f"{svg}: {len(found)} problem{'s' * (len(found) > 1)}; {outcome}")
    return 2


def run_survey(args: argparse.Namespace) -> int:
    """Sail (or read back) each strategy's survey of each map and say where it is kept."""
    import time

    from physics import make_roller
    from somaliland.engine.setup import DEFAULT_MAP
    from somaliland.map import load
    from somaliland.players.hand import ThrowSkill
    from somaliland.players.strategies import make_policy
    from somaliland.players.survey_file import survey_folder
    from somaliland.rules import RulesConfig, load_rules

    paths = args.files or [DEFAULT_MAP]
    maps = [load(path) for path in paths]  # every file checked before any sailing
    rules = load_rules(args.rules) if args.rules else RulesConfig()
    skill = ThrowSkill.level(args.skill)
    names = [name.strip() for name in args.strategies.split(",")]
    with make_roller() as roller:
        policies = [make_policy(name, roller, heading_sd_deg=skill.heading_sd_deg, speed_sd=skill.speed_sd)
                    for name in names]  # every name checked before any sailing
        for path, m in zip(paths, maps):
            for name, policy in zip(names, policies):
                started = time.process_time()
                found = policy.survey(m, rules)  # type: ignore[attr-defined]
                spent = time.process_time() - started
                how = (f"sailed in {spent:.1f} CPU s" if spent >= 0.5 * found.cpu_seconds else
                       f"kept already (sailed in {found.cpu_seconds:.1f} CPU s)")
                print(f"{path}: {name} at skill {args.skill:g}: {how}")
    print(f"Surveys kept in {survey_folder()}")
    return 0
