"""A round seen from above (matplotlib), for reports: the board as the map preview draws it, every
ship's recorded paths in its player's colour, where each throw came to rest, and the accidents."""

from __future__ import annotations

from pathlib import Path

from somaliland.replay.story import Story
from somaliland.replay.textures import player_rgb

MARKS = {  # event kind -> (marker, size, label)
    "grounded": ("^", 7, "aground"),
    "collision": ("*", 11, "collision"),
    "replaced": ("s", 6, "put back on the board"),
    "seized": ("X", 9, "seized by pirates"),
    "sunk": ("P", 10, "sunk"),
    "arrived": ("o", 9, "arrived"),
}


def draw_round(story: Story, round_: int, path: Path, turn: int | None = None, dpi: int = 150) -> None:
    """Draw round `round_` (or one turn of it) from above with every ship's paths to an image file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from somaliland.map.render import ROUTE_DASH, draw_board, route_colours
    from somaliland.units import cm

    steps = [story.steps[i] for i in story.select(round_, turn)]
    width, depth = cm(story.world.width), cm(story.world.depth)
    x0, y0, x1, y1 = _extent(steps, width, depth)
    fig, ax = plt.subplots(figsize=(8.0, 8.0 * (y1 - y0 + 14) / (x1 - x0 + 8)), dpi=dpi)
    halo = draw_board(ax, story.world)
    for step in steps:
        for k, track in enumerate(step.tracks):
            rgb = _rgb(story, track.name)
            xy = track.positions[:, :2] * 100
            ax.plot(xy[:, 0], xy[:, 1], color=rgb, lw=1.8 if k == 0 else 1.0, ls="-" if k == 0 else ":",
                    alpha=0.95, zorder=10, path_effects=halo if k == 0 else None)
            if k == 0:
                ax.plot(*xy[0], marker=".", ms=5, color=rgb, zorder=11)
        if step.ship and step.ship in step.after:
            x, y = step.after[step.ship][:2]
            ax.plot(cm(x), cm(y), marker="s", ms=4.5, color=_rgb(story, step.ship), mec="black", mew=0.6, zorder=12)
        for event in step.events:
            _mark(ax, story, step, event)
    for seat, colour in enumerate(story.colours):
        ax.plot([], [], color=_rgb(story, f"{colour}-"), lw=2, label=f"{colour} (seat {seat})")
    colours = route_colours(story.world)
    for route in story.world.routes:
        ax.plot([], [], color=colours[route.name], lw=1.4, ls=ROUTE_DASH, label=f"route: {route.title}")
    ax.plot([], [], color="grey", lw=1, ls=":", label="pushed by a collision")
    ax.plot([], [], ls="", marker="s", ms=5, color="grey", mec="black", label="rest after its throw")
    for kind in MARKS:
        marker, size, label = MARKS[kind]
        ax.plot([], [], ls="", marker=marker, ms=size * 0.8, color="white", mec="black", label=label)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06), ncol=4, fontsize=7, frameon=False)
    ax.set_xlim(x0 - 1, x1 + 1)
    ax.set_ylim(y0 - 1, y1 + 1)
    ax.set_aspect("equal")
    ax.set_xlabel("x (cm, east)")
    ax.set_ylabel("y (cm, north)")
    where = f"round {round_}" + (f", turn {turn}" if turn is not None else "")
    throws = sum(1 for s in steps if s.kind == "throw")
    ax.set_title(f"{Path(story.path).name}: {where} from above ({throws} throws)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _extent(steps, width: float, depth: float) -> tuple[float, float, float, float]:
    """Return the bounds (cm) of the board and of every path drawn: dice thrown off the board stay in the picture."""
    points = [track.positions[:, :2] * 100 for step in steps for track in step.tracks]
    if not points:
        return 0.0, 0.0, width, depth
    import numpy as np

    xy = np.vstack(points)
    return (min(0.0, float(xy[:, 0].min())), min(0.0, float(xy[:, 1].min())),
            max(width, float(xy[:, 0].max())), max(depth, float(xy[:, 1].max())))


def _rgb(story: Story, ship: str) -> tuple[float, float, float]:
    colour = ship.split("-")[0]
    return tuple(c / 255 for c in player_rgb(colour))  # type: ignore[return-value]


def _mark(ax, story: Story, step, event: dict) -> None:
    """Mark an accident where the ship it names lies after the step."""
    kind = event.get("kind")
    if kind not in MARKS:
        return
    ship = event.get("ship") or event.get("b")
    pose = step.after.get(ship) or step.before.get(ship)
    if pose is None and kind == "sunk" and step.tracks:
        pose = tuple(step.tracks[0].positions[-1])
    if pose is None:
        return
    marker, size, _ = MARKS[kind]
    was = step.before.get(ship)
    if kind == "seized" and was is not None:  # the pirates' haul: from where it lay to their port
        ax.plot([was[0] * 100, pose[0] * 100], [was[1] * 100, pose[1] * 100], color=_rgb(story, str(ship)), lw=0.9,
                ls="--", alpha=0.8, zorder=9)
    ax.plot(pose[0] * 100, pose[1] * 100, marker=marker, ms=size, mfc="white" if kind != "sunk" else "black",
            mec=_rgb(story, str(ship)), mew=1.4, zorder=13, alpha=0.9)
