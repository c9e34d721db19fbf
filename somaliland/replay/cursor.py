"""Moving through a story: the step after or before, the first step of the next or previous turn, the
first step of a round. Pure functions of step indices, shared by the GUI's keys."""

from __future__ import annotations

from somaliland.replay.story import Story


def _turn(story: Story, index: int) -> tuple[int, int]:
    step = story.steps[index]
    return step.round, step.turn


def next_step(story: Story, index: int) -> int:
    """Return the step after `index` (the last step stays)."""
    return min(index + 1, len(story.steps) - 1)


def previous_step(story: Story, index: int) -> int:
    """Return the step before `index` (the first step stays)."""
    return max(index - 1, 0)


def turn_start(story: Story, index: int) -> int:
    """Return the first step of the turn that step `index` belongs to."""
    key = _turn(story, index)
    while index > 0 and _turn(story, index - 1) == key:
        index -= 1
    return index


def next_turn(story: Story, index: int) -> int:
    """Return the first step of the next turn that has steps (the last turn's first step stays put)."""
    key = _turn(story, index)
    for k in range(index + 1, len(story.steps)):
        if _turn(story, k) != key:
            return k
    return turn_start(story, index)


def previous_turn(story: Story, index: int) -> int:
    """Return the first step of the turn before the one step `index` belongs to."""
    start = turn_start(story, index)
    return turn_start(story, start - 1) if start > 0 else 0


def round_start(story: Story, round_: int) -> int:
    """Return the first step of the round, or of the first later round with steps (the last step if none)."""
    for k, step in enumerate(story.steps):
        if step.round >= round_:
            return k
    return len(story.steps) - 1
