"""Measure offscreen replay export: frames written per second of wall time and the process's peak memory.

    PYTHONPATH=TREE python experiments/perf/export_bench.py RECORD --round 2 --turn 3 -o /tmp/x.gif [--size 960x720]

Run from /tmp with PYTHONPATH naming the tree to measure (this one, or an older commit's worktree), so the
same script times old and new code alike. Prints one line: frames, wall and CPU seconds, frames per second
(of wall time, and per CPU second of this process: the machine is shared), peak resident memory of this
process and of its children (ffmpeg, for an MP4), the file's size and the load average.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path


def main() -> None:
    """Export the chosen steps once and print what it cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", type=Path)
    parser.add_argument("--round", type=int, default=None)
    parser.add_argument("--turn", type=int, default=None)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--size", default="960x720")
    parser.add_argument("--fps", type=float, default=30.0)
    args = parser.parse_args()
    from somaliland.replay.export import export
    from somaliland.replay.story import load_story

    story = load_story(args.record)
    steps = story.select(args.round, args.turn)
    width, height = (int(v) for v in args.size.split("x"))
    wall, cpu = time.perf_counter(), time.process_time()
    frames = export(story, args.output, steps, fps=args.fps, size=(width, height))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{args.output.name}: {frames} frames of {width}x{height} in {wall:.1f} s wall, {cpu:.1f} s CPU: "
          f"{frames / wall:.1f} frames/s ({frames / cpu:.1f} per CPU second); peak memory {own:.0f} MB (children "
          f"{children:.0f} MB); file {args.output.stat().st_size / 1e6:.1f} MB; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
