"""The game state as frozen data: score sheets, ships with their poses and statuses, the round and turn.

The ships' poses on the board are part of the state; the physics scene is built from them, never the
other way round. Change a state with `dataclasses.replace` (or the helpers here), never in place.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from physics import Pose
from physics.dice import face_up
from somaliland.map.model import Direction
from somaliland.rules.contracts import Card
from somaliland.rules.fleet import COLOURS, ShipSpec


class Status(enum.Enum):
    """Where a ship stands in the round."""

    IN_PORT = "in_port"  # not launched this round (R12)
    AT_SEA = "at_sea"
    ARRIVED = "arrived"  # in its destination zone (R9)
    AGROUND = "aground"  # on land, loses a turn (R17)
    HELD = "held"  # held by pirates in their port (R13, D8)
    LOST_TURN = "lost_turn"  # immobilised after a collision (R18)
    OFF_BOARD = "off_board"  # lost for a turn, re-placed on the board (R19)
    SUNK = "sunk"  # removed from the game (R18)


# a tuple, not a set: membership compares by identity, where a set would call Enum's hash (in Python) for every
# ship the rules and players ask about, tens of thousands of times a game
SAILING = (Status.AT_SEA, Status.AGROUND, Status.HELD, Status.LOST_TURN, Status.OFF_BOARD)


@dataclass(frozen=True, slots=True)
class ShipState:
    """One ship: its die, owner, status, pose on the board and what it carries this round."""

    id: str  # also the die's name in the physics scene
    owner: int  # seat
    spec: ShipSpec
    status: Status = Status.IN_PORT
    pose: Pose | None = None  # None while in port or sunk
    card: Card | None = None  # the contract it was assigned this round (R8, R10)
    route: str | None = None  # the route it sails this round (R8, D5)
    moves: int = 0  # moves made this round (R15, D10)
    skip: int = 0  # turns it still has to lose (R13, R17, R18, R19; D16: at most 1 unless they add up)
    sailed_turn: int = 0  # the last turn in which it had its move (D9 bookkeeping)
    partners: tuple[str, ...] = ()  # ships it collided with, while immobilised by that (R20)
    seized_from: Pose | None = None  # where pirates took it (D8 release option)
    held_in: str = ""  # the pirate port that took it, until it sails again (R13, D17)
    just_released: bool = False  # set down by pirates this turn: its lost turn lasts to the turn's end (D8, D20)

    @property
    def direction(self) -> Direction | None:
        """Return the direction it sails this round, if it carries a contract."""
        return self.card.direction if self.card else None

    @property
    def displacement(self) -> int:
        """Return the ship's displacement (R2)."""
        return self.spec.displacement

    @property
    def on_board(self) -> bool:
        """Return True if the ship's die lies on the board."""
        return self.pose is not None

    def top_value(self) -> int:
        """Return the pips on the die's top face (R13 ransom)."""
        if self.pose is None:
            raise ValueError(f"{self.id} is not on the board")
        return self.spec.faces[face_up(self.pose.orientation)]


@dataclass(frozen=True, slots=True)
class Holding:
    """A contract a player holds this round and the route declared for it (R8; None until planned, or D5 "ship")."""

    card: Card
    route: str | None = None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A player's score sheet: full-route and half-route contract values kept apart, ransoms (R21)."""

    seat: int
    full: int = 0  # values of fulfilled full-route contracts
    half: int = 0  # values of fulfilled safe-route contracts, before halving
    ransom: int = 0
    fulfilled: int = 0  # number of fulfilled contracts (R22)

    @property
    def colour(self) -> str:
        """Return the player's colour (R1)."""
        return COLOURS[self.seat]

    @property
    def points(self) -> float:
        """Return the points: full values plus half the safe-route values minus ransoms (R21)."""
        return self.full + self.half / 2 - self.ransom


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game between two actions."""

    sheets: tuple[Sheet, ...]  # by seat
    ships: tuple[ShipState, ...]  # every ship of every player, seat by seat, sunk ones included
    deck: tuple[Card, ...]  # the cards still in the game (R4, R11)
    first_player: int  # the seat that starts the current round (R7)
    round: int = 1  # 1-based; greater than the configured rounds when the game is over
    turn: int = 0  # turn on the track (D10); 0 before the round's first launching turn
    held: tuple[tuple[Holding, ...], ...] = ()  # contracts held this round, by seat

    @property
    def players(self) -> int:
        """Return the number of players."""
        return len(self.sheets)

    def ship(self, ship_id: str) -> ShipState:
        """Return the ship of that id."""
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(f"no ship {ship_id!r}; ships: {[s.id for s in self.ships]}")

    def fleet(self, seat: int) -> tuple[ShipState, ...]:
        """Return a player's ships, sunk ones included."""
        return tuple(s for s in self.ships if s.owner == seat)


def with_ships(state: GameState, *ships: ShipState) -> GameState:
    """Return the state with these ships replaced (matched by id)."""
    new = {s.id: s for s in ships}
    return replace(state, ships=tuple(new.get(s.id, s) for s in state.ships))


def with_sheet(state: GameState, sheet: Sheet) -> GameState:
    """Return the state with this score sheet replaced."""
    return replace(state, sheets=tuple(sheet if s.seat == sheet.seat else s for s in state.sheets))
