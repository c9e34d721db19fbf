"""A round seen from above (matplotlib), for reports: the board as the map preview draws it, every ship's
path as its die rolled (the record's 60 Hz samples; rest to rest, dash-dotted, for a record without paths),
where each throw came to rest, the accidents, and the pirates' seizures and releases as marks of their own.
A ship that ran aground on its way (D19) has its path drawn up to where it crossed the coast, marked there and
dashed to where the rules set it down; the rest of its roll is drawn faded, so no drawn path crosses land
unremarked.

A seized ship is marked where the pirates took it, labelled with the port it was taken to: a line from
there to the port would cross land the ship never sailed. Labels the round adds are moved clear of the paths
(adjustText); the board's own port and zone labels are drawn above the paths on a light ground.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from somaliland.engine.fold import Moment
from somaliland.replay.story import Step, Story, Track
from somaliland.rules.events import Arrived, Collision, Grounded, Released, Replaced, Seized, Sunk
from somaliland.replay.textures import player_rgb

FADED = 0.3  # the alpha of a path after its die ran aground on its way (D19)
MARKS = {  # event -> (marker, size, label)
    Grounded: ("^", 7, "aground (on its way: where it crossed the coast, dashed to where it was set down)"),
    Collision: ("*", 11, "collision"),
    Replaced: ("s", 6, "put back on the board"),
    Sunk: ("P", 10, "sunk"),
    Arrived: ("o", 9, "arrived"),
}
SEIZED = ("X", 10, "seized by pirates here (label: their port)")
RELEASED = ("D", 7, "released by pirates, set down here (D17)")
LABEL_Z = 20  # above every path and mark


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
    fig, ax = plt.subplots(figsize=(8.0, 8.0 * (y1 - y0 + 16) / (x1 - x0 + 8)), dpi=dpi)
    halo = draw_board(ax, story.world)
    for text in ax.texts:  # the board's labels stay readable above the paths
        text.set_zorder(LABEL_Z)
        if text.get_style() != "italic":  # land names keep their own look
            text.set_bbox(dict(boxstyle="round,pad=0.12", fc="white", ec="none", alpha=0.7))
    labels, bare = [], False
    for step in steps:
        bare |= _paths(ax, story, step)
        if step.ship and step.ship in step.after:
            x, y = step.after[step.ship][:2]
            ax.plot(cm(x), cm(y), marker="s", ms=4.5, color=_rgb(step.ship), mec="black", mew=0.6, zorder=12)
        for event in step.prelude + step.events:
            labels += _mark(ax, step, event, halo)
    _legend(ax, story, bare, route_colours(story.world), ROUTE_DASH)
    ax.set_xlim(x0 - 1, x1 + 1)
    ax.set_ylim(y0 - 1, y1 + 1)
    ax.set_aspect("equal")
    ax.set_xlabel("x (cm, east)")
    ax.set_ylabel("y (cm, north)")
    where = f"round {round_}" + (f", turn {turn}" if turn is not None else "")
    throws = sum(1 for s in steps if s.kind == "throw")
    ax.set_title(f"{Path(story.path).name}: {where} from above ({throws} throws)", fontsize=10)
    fig.tight_layout()
    if labels:
        _place(ax, labels, steps)
    fig.savefig(path, bbox_inches="tight")  # the legend below the board is part of the picture
    plt.close(fig)


def _paths(ax, story: Story, step: Step) -> bool:
    """Draw a step's paths (the thrown die's solid, pushed dice dotted; a path that ran aground on its way, D19, up to
    where it crossed the coast, its rest faded); return True if it had none recorded."""
    for k, track in enumerate(step.tracks):
        xy, rest = _counted(track)
        ax.plot(xy[:, 0], xy[:, 1], color=_rgb(track.name), lw=1.5 if k == 0 else 1.0, ls="-" if k == 0 else ":",
                alpha=0.85, zorder=10)
        if len(rest):
            ax.plot(rest[:, 0], rest[:, 1], color=_rgb(track.name), lw=0.8, ls=(0, (1, 2)), alpha=FADED, zorder=9)
        if k == 0:
            ax.plot(*xy[0], marker=".", ms=5, color=_rgb(track.name), zorder=11)
    if step.kind != "throw" or step.tracks:
        return False
    for name, after in step.after.items():  # no path recorded: rest to rest
        before = step.before.get(name) or (_launch(story, step) if name == step.ship else None)
        if before is not None and tuple(before[:2]) != tuple(after[:2]):
            ax.plot([before[0] * 100, after[0] * 100], [before[1] * 100, after[1] * 100], color=_rgb(name), lw=1.2,
                    ls="-." if name == step.ship else ":", alpha=0.85, zorder=10)
    return True


def _counted(track: Track) -> tuple[np.ndarray, np.ndarray]:
    """Return a track's path in cm as the rules counted it, and what followed after it ran aground (D19), if it did."""
    xy = track.positions[:, :2] * 100
    if track.aground is None or track.crossed is None:
        return xy, xy[:0]
    k = int(np.searchsorted(track.times, track.aground, side="right"))
    crossed = np.array(track.crossed) * 100
    return np.vstack([xy[:k], crossed]), np.vstack([crossed, xy[k:]])


def _launch(story: Story, step: Step) -> tuple[float, float] | None:
    """Return where a ship thrown from port started: its route's start (R12)."""
    from somaliland.map.model import Direction

    carries = step.carries
    return story.world.route(carries.route).leg(Direction(carries.direction)).start if carries else None


def _mark(ax, step: Step, moment: Moment, halo) -> list:
    """Mark an event where it happened; return the labels it added (a seizure's port)."""
    event = moment.event
    match event:
        case Seized(ship=ship, port=port):
            taken = step.before.get(ship)
            if taken is None:
                return []
            marker, size, _ = SEIZED
            x, y = taken[0] * 100, taken[1] * 100
            ax.plot(x, y, marker=marker, ms=size, mfc=_rgb(ship), mec="black", mew=1.0, zorder=14)
            return [(ax.text(x, y, f"to {port}", fontsize=7, fontweight="bold", color="#222222", zorder=LABEL_Z,
                             path_effects=halo), x, y)]
        case Released(ship=ship, at=at):
            marker, size, _ = RELEASED
            ax.plot(at[0] * 100, at[1] * 100, marker=marker, ms=size, mfc="white", mec=_rgb(ship), mew=1.6, zorder=14)
            return []
        case Grounded(ship=ship, at=at, crossed=crossed) if crossed is not None:  # D19: where it crossed the coast
            marker, size, _ = MARKS[Grounded]
            (x, y), (ax_, ay) = np.array(crossed) * 100, np.array(at) * 100
            ax.plot([x, ax_], [y, ay], color="#444444", lw=0.8, ls="--", alpha=0.8, zorder=12)
            ax.plot(x, y, marker=marker, ms=size, mfc="white", mec=_rgb(ship), mew=1.4, zorder=13, alpha=0.9)
        case Collision(b=ship) | Grounded(ship=ship) | Replaced(ship=ship) | Sunk(ship=ship) | Arrived(ship=ship):
            pose = step.after.get(ship) or step.before.get(ship)
            if pose is None and isinstance(event, Sunk) and step.tracks:
                pose = tuple(step.tracks[0].positions[-1])
            if pose is None:
                return []
            marker, size, _ = MARKS[type(event)]
            ax.plot(pose[0] * 100, pose[1] * 100, marker=marker, ms=size, mfc="white" if not isinstance(event, Sunk)
                    else "black", mec=_rgb(ship), mew=1.4, zorder=13, alpha=0.9)
    return []


def _legend(ax, story: Story, bare: bool, colours: dict[str, str], dash) -> None:
    for seat, colour in enumerate(story.colours):
        ax.plot([], [], color=_rgb(f"{colour}-"), lw=2, label=f"{colour} (seat {seat})")
    for route in story.world.routes:
        ax.plot([], [], color=colours[route.name], lw=1.4, ls=dash, label=f"route: {story.names.route_title(route.name)}")
    ax.plot([], [], color="grey", lw=1, ls=":", label="pushed by a collision")
    ax.plot([], [], color="grey", lw=0.8, ls=(0, (1, 2)), alpha=FADED, label="rolled on after running aground: not counted")
    if bare:
        ax.plot([], [], color="grey", lw=1.2, ls="-.", label="no recorded path: rest to rest")
    ax.plot([], [], ls="", marker="s", ms=5, color="grey", mec="black", label="rest after its throw")
    for marker, size, label in [*MARKS.values(), SEIZED, RELEASED]:
        ax.plot([], [], ls="", marker=marker, ms=size * 0.8, color="white", mec="black", label=label)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=3, fontsize=7, frameon=False)


def _place(ax, labels: list, steps: list[Step]) -> None:
    """Move the labels the round added clear of one another, of the paths and of the board's labels."""
    from adjustText import adjust_text

    points = [track.positions[::3, :2] * 100 for step in steps for track in step.tracks]
    avoid = np.vstack(points) if points else np.empty((0, 2))
    texts = [text for text, _, _ in labels]
    adjust_text(texts, x=avoid[:, 0], y=avoid[:, 1], target_x=[x for _, x, _ in labels],
                target_y=[y for _, _, y in labels], objects=[t for t in ax.texts if t not in texts], ax=ax,
                arrowprops=dict(arrowstyle="-", color="#222222", lw=0.6), time_lim=3)


def _extent(steps, width: float, depth: float) -> tuple[float, float, float, float]:
    """Return the bounds (cm) of the board and of every path drawn: dice thrown off the board stay in the picture."""
    points = [track.positions[:, :2] * 100 for step in steps for track in step.tracks]
    if not points:
        return 0.0, 0.0, width, depth
    xy = np.vstack(points)
    return (min(0.0, float(xy[:, 0].min())), min(0.0, float(xy[:, 1].min())),
            max(width, float(xy[:, 0].max())), max(depth, float(xy[:, 1].max())))


def _rgb(ship: str) -> tuple[float, float, float]:
    return tuple(c / 255 for c in player_rgb(ship.split("-")[0]))  # type: ignore[return-value]
