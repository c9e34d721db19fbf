"""A game replay as one self-contained HTML file: the board drawn from the map, the dice moving along their
recorded paths, the captions, controls, a timeline and the final table, with no server and nothing fetched.

The page is `web/viewer.html` with `web/viewer.css`, `web/viewer.js` and the game's data (JSON) written
into it. The data are what the story holds, made compact: lengths in tenths of a millimetre and
quaternions in ten-thousandths as integers, each recorded path's samples as differences from the sample
before. Captions are the `captions` module's lines, so the page tells each throw in the very words of
`play`'s account and of the exported videos.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from shapely import Polygon

from somaliland.engine.events import Final
from somaliland.replay import captions
from somaliland.replay.story import Pose7, Step, Story, Track
from somaliland.replay.textures import player_rgb

LENGTH = 1e4  # integers per metre: tenths of a millimetre
TURN = 1e4  # integers per unit of a quaternion component
CM = 100.0
# What JSON may hold but a <script> block may not: `</script>` would end it, `<!--` would start an escaped run
# that swallows its end; line separators end a JavaScript line. As \uXXXX escapes they read back the same.
SCRIPT_SAFE = str.maketrans({c: f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"})


def write_html(story: Story, out: Path) -> int:
    """Write the replay page of a story to `out`; return its size in bytes."""
    web = resources.files("somaliland.replay") / "web"
    data = json.dumps(game_data(story), separators=(",", ":")).translate(SCRIPT_SAFE)
    page = (web / "viewer.html").read_text(encoding="utf-8")
    page = (page.replace("/*STYLE*/", (web / "viewer.css").read_text(encoding="utf-8"))
                .replace("/*SCRIPT*/", (web / "viewer.js").read_text(encoding="utf-8"))
                .replace("/*DATA*/", data)
                .replace("<!--TITLE-->", _escape(f"Somaliland replay: {Path(story.path).name}")))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return out.stat().st_size


def game_data(story: Story) -> dict[str, Any]:
    """Return everything the page shows, as plain JSON data."""
    head = story.header
    steps, previous = [], None
    for index, step in enumerate(story.steps):
        steps.append(_step(story, index, step, previous))
        previous = step.after
    final = next((m.event for m in reversed(story.steps[-1].events) if isinstance(m.event, Final)), None) \
        if story.steps else None
    seats = [{"colour": c, "rgb": player_rgb(c), "strategy": s.get("strategy", "?")}
             for c, s in zip(story.colours, head.get("seats", []))]
    return {
        "title": Path(story.path).name,
        "seed": head.get("seed"),
        "version": head.get("version"),
        "rounds": head.get("rules", {}).get("rounds"),
        "paths": any(s.tracks for s in story.steps) or not any(s.kind == "throw" for s in story.steps),
        "warnings": list(story.warnings),
        "die": round(story.die_size * LENGTH),
        "seats": seats,
        "ships": {name: {"seat": story.owners[name], "faces": list(story.faces[name])} for name in story.faces},
        "board": board_data(story),
        "steps": steps,
        "final": _final(final),
    }


def board_data(story: Story) -> dict[str, Any]:
    """Return the map as the page draws it (cm): land, routes with their names, values and zones, pirate ports."""
    from somaliland.map.render import route_colours

    world = story.world
    colours = route_colours(world)
    return {
        "width": world.width * CM, "depth": world.depth * CM,
        "lands": [{"name": land.name, "relief": land.relief * 1000, "rings": _rings(land.polygon),
                   "area": round(land.polygon.area * CM * CM, 1),
                   "label": _points(land.polygon.representative_point().coords)[0]}
                  for land in world.lands],
        "routes": [{"key": r.name, "label": story.names.route(r.name), "title": story.names.route_title(r.name),
                    "full": r.full_value, "colour": colours[r.name], "line": _points(r.centre_line.coords),
                    "legs": [{"direction": leg.direction.value, "start": _points([leg.start])[0],
                              "heading": leg.heading, "zone": leg.zone, "area": _rings(leg.destination),
                              "label": _points(leg.destination.representative_point().coords)[0]}
                             for leg in (r.north, r.south)]}
                   for r in world.routes],
        "ports": [{"name": p.name, "at": _points([p.point])[0],  # its name goes on the side of the open sea
                   "left": world.is_land(p.point[0] - 0.03, p.point[1]) or not world.is_land(p.point[0] + 0.03, p.point[1])}
                  for p in world.pirate_ports],
    }


def _step(story: Story, index: int, step: Step, previous: dict[str, Pose7] | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": step.kind, "line": step.line, "round": step.round, "turn": step.turn,
        "where": captions.where(story, index),
        "pre": captions.news(story, step, False),
        "post": captions.outcome(story, step),
        "after": _board(step.after),
        "tracks": [_track(t) for t in step.tracks],
    }
    if step.ship:
        data["ship"] = step.ship
    if step.ship and step.ship not in step.before and step.carries is not None:  # thrown from port: its route's start
        from somaliland.map.model import Direction

        start = story.world.route(step.carries.route).leg(Direction(step.carries.direction)).start
        data["launch"] = [round(c * LENGTH) for c in start]
    if step.before != previous:  # a new round, a release between steps: the page cannot carry the board on
        data["before"] = _board(step.before)
    return data


def _board(poses: dict[str, Pose7]) -> dict[str, list[int]]:
    return {name: _pose(pose) for name, pose in poses.items()}


def _pose(pose: Pose7 | np.ndarray) -> list[int]:
    return [round(float(c) * LENGTH) for c in pose[:3]] + [round(float(c) * TURN) for c in pose[3:]]


def _track(track: Track) -> dict[str, Any]:
    """Return a recorded path: its first time, the sample interval, and each component's differences."""
    samples = np.rint(np.hstack([track.positions * LENGTH, track.orientations * TURN])).astype(np.int64)
    deltas = np.vstack([samples[:1], np.diff(samples, axis=0)])
    times = track.times
    step = float(np.median(np.diff(times))) if len(times) > 1 else 0.0
    even = len(times) < 2 or bool(np.allclose(np.diff(times), step, atol=1e-6))
    data: dict[str, Any] = {"name": track.name, "t0": round(float(times[0]), 6), "dt": round(step, 6),
                            "d": deltas.T.tolist()}
    if not even:
        data["times"] = [round(float(t), 6) for t in times]
    if track.aground is not None and track.crossed is not None:  # D19: ran aground on its way
        data["aground"] = round(float(track.aground), 6)
        data["crossed"] = [round(c * LENGTH) for c in track.crossed]
    return data


def _final(event: Final | None) -> dict[str, Any] | None:
    if event is None:
        return None
    keys = ("place", "colour", "points", "full", "half", "ransom", "fulfilled", "reason")
    return {"winners": list(event.winners), "rows": [{k: getattr(row, k) for k in keys} for row in event.table]}


def _rings(geometry: Polygon) -> list[list[list[float]]]:
    polygons = list(getattr(geometry, "geoms", [geometry]))
    return [_points(ring.coords) for poly in polygons for ring in (poly.exterior, *poly.interiors)]


def _points(coords) -> list[list[float]]:
    return [[round(x * CM, 2), round(y * CM, 2)] for x, y in coords]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
