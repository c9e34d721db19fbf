"""Re-simulate recorded throws and check them: each throw is rolled again by the physics from the board the
story had before it, and must come to rest where the record says. A record without paths gets the
re-simulated paths, so its throws can be watched too."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from somaliland.replay.story import Step, Story, Track

REST_TOLERANCE = 1e-6  # m: a re-run on the same software lands bit for bit; allow the record's rounding


def resimulate(story: Story, indices: list[int]) -> tuple[Story, list[str]]:
    """Roll the chosen throws again; return the story with re-simulated paths where the record had none, and
    one message per throw that came to rest elsewhere than recorded (naming its line).

    A game played with `world = "per_game"` shared one Bullet world across its rolls, so a throw depends on the
    throws before it: they are all rolled again, in order, from the game's first. Its players' lookahead rolls
    (strategy parameter `rolls`) were part of that history but are not in the record: such a game can only be
    re-simulated whole (`somaliland verify`), and the one message says so.
    """
    from physics import make_roller
    from somaliland.engine.record import decode_at
    from somaliland.engine.setup import setup_from_header

    setup = setup_from_header(decode_at(story.header, 1, story.path).event, story.path)  # the header's physics too
    steps, problems = list(story.steps), []
    chosen, order = set(indices), list(indices)
    if setup.physics.shares_world:
        seers = [i for i, seat in enumerate(setup.seats) if dict(seat.params).get("rolls")]
        if seers:
            return story, [f"{story.path}: played in one world per game with lookahead rolls (seat "
                           f"{', '.join(map(str, seers))}), which the record does not hold, so its throws cannot be "
                           f"re-simulated one by one: use `somaliland verify {story.path}` to re-play it whole"]
        order = list(range(max(indices, default=-1) + 1))
    with make_roller(setup.physics) as roller:
        roller.new_game(story.world.board())  # per roll: does nothing
        for index in order:
            step = story.steps[index]
            if step.kind != "throw":
                continue
            result = roller.roll(_scene(story, step), step.throw)
            if index not in chosen:
                continue
            problem = _compare(story, step, result)
            if problem:
                problems.append(problem)
            if not step.tracks:
                steps[index] = replace(step, tracks=tuple(
                    Track(p.name, np.array(p.times), np.array(p.positions), np.array(p.orientations))
                    for p in result.paths))
    return replace(story, steps=tuple(steps)), problems


def _scene(story: Story, step: Step):
    """Return the physics scene the game had when the step's ship was thrown (loop.scene's order)."""
    from physics import PlacedDie, Pose, Scene
    from somaliland.map.model import Direction
    from somaliland.rules.fleet import ShipSpec, die_spec
    from somaliland.rules.moves import UP

    mass = story.header["rules"]["die_mass"]

    def spec(name: str):
        return die_spec(ShipSpec(name, story.faces[name]), story.die_size, mass)

    dice = [PlacedDie(name, spec(name), Pose(pose[:3], pose[3:])) for name in story.faces
            if (pose := step.before.get(name)) is not None]
    if step.ship not in step.before:  # in port: it waits flat on its route's start (moves.launch_pose)
        carries = step.carries
        if carries is None:
            from somaliland.engine.record import RecordError

            raise RecordError(story.path, step.line, f"throw line: {step.ship} is thrown from port, but no plan line "
                                                     f"gives it a contract and route")
        leg = story.world.route(carries.route).leg(Direction(carries.direction))
        dice.append(PlacedDie(step.ship, spec(step.ship), Pose.resting(spec(step.ship), *leg.start, face_up=UP)))
    return Scene(board=story.world.board(), dice=tuple(dice))


def _compare(story: Story, step: Step, result) -> str | None:
    """Return what differs between a re-simulated roll and the record, or None."""
    recorded = {r.name: r.position for r in step.moved}
    again = {r.name: r.position for r in result.moved}
    if set(recorded) != set(again):
        return (f"{story.path}, line {step.line}: re-simulated, the throw moves {sorted(again)}, "
                f"the record says {sorted(recorded)}")
    worst = max(math.dist(recorded[n], again[n]) for n in recorded)
    if worst > REST_TOLERANCE:
        name = max(recorded, key=lambda n: math.dist(recorded[n], again[n]))
        return (f"{story.path}, line {step.line}: re-simulated, {name} comes to rest {worst * 1000:.3g} mm from "
                f"where the record has it")
    return None
