"""The overlay's words: where we are (round, turn, player, contract, route) and what just happened."""

from __future__ import annotations

from typing import Any

from somaliland.replay.story import Step, Story


def where(story: Story, index: int) -> list[str]:
    """Return the lines saying where step `index` stands in the game and who moves."""
    step = story.steps[index]
    rules = story.header.get("rules", {})
    in_turn = [i for i, s in enumerate(story.steps) if s.round == step.round and s.turn == step.turn]
    lines = [f"Round {step.round}/{rules.get('rounds', '?')}  Turn {step.turn}/{rules.get('turns_per_round', '?')}"
             f"  step {in_turn.index(index) + 1}/{len(in_turn)}  (record line {step.line})"]
    if step.kind == "pirates":
        lines.append("Pirates seize the ship nearest a pirate port")
        return lines
    player = _player(story, step.seat)
    carries = step.carries
    cargo = (f"contract {carries.card}, {route_words(story, carries.route)}, {carries.direction}bound" if carries
             else "no contract")
    lines.append(f"{player} throws {step.ship}: {cargo}")
    return lines


def happened(story: Story, step: Step, done: bool) -> list[str]:
    """Return what came just before the step (ships losing their move) and, once its motion is `done`, what it did."""
    events = step.prelude + step.events if done else step.prelude
    skipped: dict[str, list[str]] = {}
    for e in events:
        if e.get("kind") == "turn_skipped":
            skipped.setdefault(str(e.get("status", "?")).replace("_", " "), []).append(str(e.get("ship", "?")))
    lines = [f"lose this move ({status}): {', '.join(ships)}" for status, ships in skipped.items()]
    return lines + [text for e in events if e.get("kind") != "turn_skipped" and (text := describe(story, e))]


def describe(story: Story, event: dict[str, Any]) -> str | None:
    """Return one event in words, or None for bookkeeping lines not worth showing."""
    kind, ship = event.get("kind"), event.get("ship", "?")
    if kind == "launched":
        return f"{ship} launched ({route_words(story, event.get('route'))}, {event.get('direction', '?')}bound)"
    if kind == "grounded":
        return f"{ship} ran aground: loses a turn"
    if kind == "collision":
        a, b, causer = event.get("a", "?"), event.get("b", "?"), event.get("causer", "?")
        return f"COLLISION: {a} and {b} touched (thrown: {causer})"
    if kind == "tipped":
        return f"{ship} tipped over: {event.get('value_before', '?')} -> {event.get('value_after', '?')} pips up"
    if kind == "sunk":
        return f"{ship} SANK: it tipped {', '.join(event.get('tipped', [])) or 'a ship'} over"
    if kind == "replaced":
        return f"{ship} left the board: put back, loses a turn"
    if kind == "arrived":
        return f"{ship} ARRIVED at its destination"
    if kind == "seized":
        partner = event.get("with_partner_of")
        extra = f", with its collision partner {partner}" if partner else ""
        return (f"PIRATES of {event.get('port', '?')} seized {ship}{extra}: ransom {event.get('ransom', '?')}"
                f" ({_player(story, story.owners.get(ship))} pays)")
    if kind == "fulfilled":
        return (f"{_player(story, event.get('seat'))} FULFILLED {event.get('card', '?')} via "
                f"{route_words(story, event.get('route'))}: +{_num(event.get('points'))} points")
    if kind == "failed":
        return f"{_player(story, event.get('seat'))} failed contract {event.get('card', '?')}"
    if kind == "turn_skipped":
        return f"{ship} loses this move ({str(event.get('status', '?')).replace('_', ' ')})"
    if kind == "round_end":
        sheets = event.get("sheets", [])
        scores = ", ".join(f"{_colour(story, s.get('seat'))} {_num(s.get('points'))}" for s in sheets
                           if isinstance(s, dict))
        return f"Scores after the round: {scores}"
    if kind == "final":
        table = [t for t in event.get("table", []) if isinstance(t, dict)]
        winners = ", ".join(_colour(story, w) for w in event.get("winners", []))
        places = ", ".join(f"{t.get('place', '?')}. {t.get('colour', '?')} {_num(t.get('points'))}" for t in table)
        return f"GAME OVER: {winners or '?'} won ({places})"
    return None


def route_words(story: Story, name: Any) -> str:
    """Return a recorded route as people call it on the story's map, with its value ("the Strait (full value)")."""
    route = next((r for r in story.world.routes if r.name == name), None)
    return route.title if route is not None else f"route {name if name else '?'}"


def _player(story: Story, seat: Any) -> str:
    return f"{_colour(story, seat)} (seat {seat})"


def _colour(story: Story, seat: Any) -> str:
    return story.colours[seat] if isinstance(seat, int) and 0 <= seat < len(story.colours) else "?"


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else "?"
