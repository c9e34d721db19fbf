"""The replays' captions: where a step stands (round, turn, player, contract, route) and what happened, each
event in the words of `engine.phrases`, the very sentences `play`'s account prints."""

from __future__ import annotations

from somaliland.engine.phrases import sentence
from somaliland.rules.events import Launched
from somaliland.replay.story import Step, Story


def where(story: Story, index: int) -> list[str]:
    """Return the lines saying where step `index` stands in the game and who moves."""
    step = story.steps[index]
    rules = story.header.get("rules", {})
    in_turn = [i for i, s in enumerate(story.steps) if s.round == step.round and s.turn == step.turn]
    lines = [f"Round {step.round}/{rules.get('rounds', '?')} - turn {step.turn}/{rules.get('turns_per_round', '?')}"
             f" - step {in_turn.index(index) + 1}/{len(in_turn)} (record line {step.line})"]
    if step.kind == "pirates":
        lines.append("Pirates seize the ship nearest a pirate port (R13)")
        return lines
    carries = step.carries
    cargo = (f"contract {carries.card}, {story.names.route_title(carries.route)}, {carries.direction}bound"
             if carries else "no contract")
    lines.append(f"{story.names.seat(step.seat)} (seat {step.seat}) throws {step.ship}: {cargo}")
    return lines


def news(story: Story, step: Step, done: bool) -> list[tuple[str, str]]:
    """Return (event kind, sentence) for what came just before the step and, once its motion is `done`, what
    followed it (`outcome`), in record order."""
    return _told(story, step.prelude) + (outcome(story, step) if done else [])


def outcome(story: Story, step: Step) -> list[tuple[str, str]]:
    """Return (event kind, sentence) for how a step ended: the launch, where its die came to rest, what followed."""
    launch = tuple(m for m in step.events if isinstance(m.event, Launched))
    rest = (step.thrown,) if step.thrown is not None else ()
    return _told(story, launch + rest + tuple(m for m in step.events if not isinstance(m.event, Launched)))


def happened(story: Story, step: Step, done: bool) -> list[str]:
    """Return the sentences of `news`: what came just before the step and, once `done`, what it did."""
    return [text for _, text in news(story, step, done)]


def _told(story: Story, moments) -> list[tuple[str, str]]:
    # each sentence with its event's record name: a label for the panel's and the HTML page's colours (TONES)
    return [(m.event.kind, text) for m in moments if (text := sentence(m, story.names))]
