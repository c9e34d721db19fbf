"""One fold of a game record through the rules: each line's event with the game state after it.

Who tells a game, and who reads it. The rules functions (`apply_roll`, `lose_turn`, `seize`, `end_round`)
return what happened as typed events; the game loop (`engine/loop.py`) adds its own lines (header, deal,
picks, plans, turn marker, throws, launch passes, round ends, final table) and writes every one through the
one codec (`engine/events.py`). Reading a record, `replay_state` is the only place that rebuilds the game:
the views that show the board (the replays' captions and story, the top-down view) read its (event, state)
stream and keep no board or ship bookkeeping of their own; the account and the study's tables need no state
and read the typed events alone; `verify` re-plays the game with physics and compares typed events.

The fold takes what chance and the players decided from the record and nothing else: the first player
(header), the cards dealt (`deal`), the picks, the plans, each throw's physics outcome (`throw.result`), and
a drawn final tie (D14) from the final line. What follows from them it asks of the pure rules: the draft's
progress (R5, R6), the state after plans (R8, R10), each roll (R12-R19), a lost turn and a release (D8, D16,
D17), a pirate raid (R13, R20), a round's scoring (R9-R11, R21) and the final table (R22). Every line the
rules produce must be the record's next line, stamp and all; where they part the record was edited or made
by other rules, or is read on another map than its own (the header's sha256), and the fold says which line.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from physics import PhysicsInputError
from somaliland.engine.encode import rules_from_json
from somaliland.engine.events import (Deal, DraftPick, Event, Final, Header, LaunchPass, Planned, RoundEnd, Stamped,
                                      Thrown, TurnBegun, final_table, scores)
from somaliland.engine.record import RecordError, decode_at
from somaliland.map.model import Map
from somaliland.rules import (apply_plans, apply_roll, begin_turn, drafter, end_round, lose_turn, pick, seize,
                              standings, take_contracts)
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Draft
from somaliland.rules.errors import IllegalActionError, RollMismatchError
from somaliland.rules.events import (Arrived, Collision, Failed, Fulfilled, Grounded, Launched, LostTurn, Replaced,
                                     Seized, Sunk, Tipped, TurnSkipped)
from somaliland.rules.landfall import Landfall
from somaliland.rules.game import draft_of, start_game
from somaliland.rules.state import GameState


# the kinds of line `apply_roll` tells after a throw
ROLL_KINDS = frozenset(cls.__dataclass_fields__["kind"].default  # type: ignore[attr-defined]
                       for cls in (Launched, Grounded, Collision, Tipped, Sunk, Replaced, LostTurn, Arrived))


@dataclass(frozen=True, slots=True)
class Moment:
    """One record line folded: its number, round and turn, its event, and the game state once it took effect.

    A rules call tells several lines at once (a roll's launch, collisions and arrival; a raid's seizures;
    a round's contracts): each of them comes with the state after the whole call.
    """

    line: int  # 1-based, as the record's lines are counted
    round: int
    turn: int
    event: Event
    state: GameState


def replay_state(lines: list[dict[str, Any]], world: Map, path: str = "record") -> Iterator[Moment]:
    """Yield every line of a game record as a `Moment`: its typed event and the state after it.

    Args:
        lines: the record's lines as read (`engine.record.read_record`), the header first.
        world: the map the game was played on.
        path: the record's name, for messages.

    Raises:
        RecordError: a line that is no event of the vocabulary, a decision the rules refuse, or a line where
            the record and the rules part (names the line and both sides).
    """
    fold = _Fold(lines, world, path)
    for number, line in enumerate(lines, start=1):
        yield fold.feed(number, line)
    fold.finish()


def final_state(lines: list[dict[str, Any]], world: Map, path: str = "record") -> GameState:
    """Return the state at a record's end (scores, fleets), folded through the rules."""
    moment = None
    for moment in replay_state(lines, world, path):
        pass
    assert moment is not None  # read_record refuses an empty record
    return moment.state


class _Fold:
    """The fold's bookkeeping between lines: the state, the draft under way, the lines the rules still owe."""

    def __init__(self, lines: list[dict[str, Any]], world: Map, path: str) -> None:
        self.world, self.path, self.lines = world, path, lines
        self.header = decode_at(lines[0], 1, path).event
        if not isinstance(self.header, Header):
            raise RecordError(path, 1, "the first line should be the game's header")
        try:
            self.config: RulesConfig = rules_from_json(self.header.rules)
            self.state = start_game(self.config, self.header.first_player)
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(path, 1, f"the header's rules do not make a game: {error}") from None
        self.draft: Draft | None = None
        self.owed: deque[Stamped] = deque()  # lines the last rules call told, still to be matched
        self.scored = False  # this round's end_round has been applied

    def feed(self, number: int, line: dict[str, Any]) -> Moment:
        if number == 1:
            return Moment(1, line["round"], line["turn"], self.header, self.state)
        stamped = decode_at(line, number, self.path)
        if self.owed:
            self.expect(number, stamped)
        else:
            try:
                self.cause(number, stamped)
            except (IllegalActionError, RollMismatchError, PhysicsInputError) as refused:  # e.g. a pose no die has
                other = self.other_map()
                problem = (f"{other}, and the rules refuse its {stamped.event.kind} line there: {refused}" if other
                           else f"{stamped.event.kind} line: the rules refuse it: {refused}")
                raise RecordError(self.path, number, problem) from None
        return Moment(number, stamped.round, stamped.turn, stamped.event, self.state)

    def finish(self) -> None:
        if self.owed:
            raise RecordError(self.path, 0, f"the record ends before the rules' {self.owed[0].event.kind} line")

    def told_landfalls(self, number: int) -> dict[str, Landfall]:
        """Return the D19 verdicts a throw without kept paths (`--no-paths`) told in the lines after it: its
        `grounded` lines that say where a ship crossed the coast. The rest of the roll is still the rules'."""
        found = {}
        for index in range(number, len(self.lines)):  # 0-based: the line after line `number`
            line = self.lines[index]
            if not isinstance(line, dict) or line.get("kind") not in ROLL_KINDS:
                break
            event = decode_at(line, index + 1, self.path).event
            if isinstance(event, Grounded) and event.crossed is not None and event.time is not None:
                found[event.ship] = Landfall(event.ship, event.crossed, event.time)
        return found

    def tell(self, number: int, stamped: Stamped, round_: int, turn: int, events: tuple[Event, ...]) -> None:
        """Owe the lines a rules call told; the line at hand must be the first of them."""
        self.owed.extend(Stamped(round_, turn, e) for e in events)
        if not self.owed:
            raise self.parted(number, stamped, "nothing: the rules tell no such line here")
        self.expect(number, stamped)

    def expect(self, number: int, stamped: Stamped) -> None:
        owed = self.owed.popleft()
        if owed != stamped:
            raise self.parted(number, stamped, f"{owed.event} (round {owed.round}, turn {owed.turn})")

    def parted(self, number: int, stamped: Stamped, rules: str) -> RecordError:
        said = (f"the record says {stamped.event} (round {stamped.round}, turn {stamped.turn}), the rules make "
                f"{rules}")
        other = self.other_map()
        if other:
            return RecordError(self.path, number, f"{other}, and the game parts from it at this {stamped.event.kind} "
                                                  f"line: {said}; replay it on the map it was played on")
        return RecordError(self.path, number, f"{stamped.event.kind} line: {said}: edited, or made by other rules "
                                              f"(somaliland {self.header.version})")

    def other_map(self) -> str:
        """Return what differs where the map the record is read on is not the one its game was played on (the
        header's sha256): both maps named, with their sha256; "" where it is that map."""
        played = self.header.map if isinstance(self.header.map, dict) else {}
        sha = played.get("sha256")
        if sha == self.world.sha256:
            return ""
        return (f"the map used, {self.world.source or self.world.name} (\"{self.world.name}\", sha256 "
                f"{self.world.sha256[:12]}), is not the map the game was played on, {played.get('file', '?')} "
                f"(\"{played.get('name', '?')}\", sha256 {str(sha)[:12]})")

    def cause(self, number: int, stamped: Stamped) -> None:  # noqa: C901 - one case per kind of line, in one place
        """Apply a line that is a decision or a chance outcome, or the first line of a rules call."""
        state, config, world = self.state, self.config, self.world
        round_, turn = state.round, state.turn
        match stamped.event:
            case Header():
                raise RecordError(self.path, number, "a second header")
            case Deal(first_player=first, offer=offer):
                if first != state.first_player:
                    raise self.parted(number, stamped, f"a deal with seat {state.first_player} first (R7)")
                self.draft, self.scored = draft_of(state, offer, config), False
            case DraftPick(seat=seat, card=card):
                if self.draft is None or drafter(self.draft) is None:
                    raise self.parted(number, stamped, "no draft under way")
                self.draft = pick(self.draft, seat, card, config)
                if drafter(self.draft) is None:  # the draft is over: the contracts are held (R5)
                    self.state = take_contracts(state, self.draft)
            case Planned(seat=seat, plans=plans):
                self.state = apply_plans(state, seat, plans, world, config)
            case TurnBegun():
                self.state = begin_turn(state, config)
            case Thrown(ship=ship, result=result):
                told = self.told_landfalls(number) if config.grounding_on == "path" and not result.paths else None
                self.state, events = apply_roll(state, ship, result, world, config, told)
                self.owed.extend(Stamped(round_, turn, e) for e in events)
            case LaunchPass():
                pass  # the launching phase's order is the loop's bookkeeping; the state does not change
            case TurnSkipped(ship=ship):
                self.state, events = lose_turn(state, ship, world, config)
                self.tell(number, stamped, round_, turn, events)
            case Seized():
                self.state, events = seize(state, world, config)
                self.tell(number, stamped, round_, turn, events)
            case Fulfilled() | Failed() | RoundEnd() if not self.scored:
                self.state, events = end_round(state, world, config)
                self.scored = True
                self.owed.extend(Stamped(round_, turn, e) for e in events)
                self.owed.append(Stamped(round_, turn, scores(self.state.sheets)))
                self.expect(number, stamped)
            case Final():
                draws = range(state.players) if config.final_tie == "random" else (None,)  # D14: whichever was drawn
                tables = [Stamped(round_, turn, final_table(standings(state.sheets, config, _Drawn(i) if i is not None
                                                                      else None), state.sheets)) for i in draws]
                if stamped not in tables:
                    raise self.parted(number, stamped, f"{tables[0].event}")
            case _:
                raise self.parted(number, stamped, "nothing: no decision or rules call tells it here")


class _Drawn:
    """Stands in for the game's generator where D14 drew a winner among tied seats: draws the i-th of them."""

    def __init__(self, index: int) -> None:
        self.index = index

    def integers(self, n: int) -> int:
        """Return the i-th of n (the last if there are fewer)."""
        return min(self.index, n - 1)
