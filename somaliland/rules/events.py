"""What the rules report happened: frozen events, each with a `kind` name (the record line that tells it:
`somaliland/engine/events.py` is the one codec between them and the game record)."""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Launched:
    """A ship left its route's start (R12)."""

    ship: str
    route: str
    direction: str
    kind: str = field(default="launched", init=False)


@dataclass(frozen=True, slots=True)
class Grounded:
    """A ship ran aground and loses a turn (R17, D11, D19).

    It came to rest on land at `at` (D11), or it rolled over land on its way (D19), first crossing the coast at
    `crossed`, `time` seconds after the throw's release, and was set down at `at`, clear of every die.
    """

    ship: str
    at: Point
    crossed: Point | None = None
    time: float | None = None
    kind: str = field(default="grounded", init=False)


@dataclass(frozen=True, slots=True)
class Collision:
    """Two ships touched during a roll; `causer` is the thrown ship (R18, D12)."""

    causer: str
    a: str
    b: str
    kind: str = field(default="collision", init=False)


@dataclass(frozen=True, slots=True)
class Tipped:
    """A ship that was not thrown was knocked onto another face (R18, D12)."""

    ship: str
    value_before: int
    value_after: int
    kind: str = field(default="tipped", init=False)


@dataclass(frozen=True, slots=True)
class Sunk:
    """The thrown ship made another die tip over and sank (R18)."""

    ship: str
    tipped: tuple[str, ...]
    kind: str = field(default="sunk", init=False)


@dataclass(frozen=True, slots=True)
class LostTurn:
    """A ship was given a turn to lose (R13, R17, R18, R19); `reason` names the accident."""

    ship: str
    reason: str
    kind: str = field(default="lost_turn", init=False)


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """A ship's move came and it lost it instead (R13, R17, R18, R19)."""

    ship: str
    status: str
    kind: str = field(default="turn_skipped", init=False)


@dataclass(frozen=True, slots=True)
class Replaced:
    """A ship that left the board was put back on it (R19, D13)."""

    ship: str
    rest: tuple[float, float, float]
    at: Point
    kind: str = field(default="replaced", init=False)


@dataclass(frozen=True, slots=True)
class Released:
    """A held ship served its lost turn and was set down at `at`, clear of every die, to sail on (D8, D17)."""

    ship: str
    port: str
    at: Point
    kind: str = field(default="released", init=False)


@dataclass(frozen=True, slots=True)
class Arrived:
    """A ship reached its destination zone (R9)."""

    ship: str
    route: str
    direction: str
    kind: str = field(default="arrived", init=False)


@dataclass(frozen=True, slots=True)
class Seized:
    """Pirates took a ship into their port; its owner pays its ransom (R13: the top face, or L1's lever) (R13, R20)."""

    ship: str
    port: str
    distance: float
    ransom: int
    with_partner_of: str = ""  # set when taken as the touching partner of a collision (R20)
    kind: str = field(default="seized", init=False)


@dataclass(frozen=True, slots=True)
class Fulfilled:
    """A contract was fulfilled by these ships (R9, R10, D6); `points` as scored (half on a safe route)."""

    seat: int
    card: str
    route: str
    ships: tuple[str, ...]
    full_value: bool
    points: float
    kind: str = field(default="fulfilled", init=False)


@dataclass(frozen=True, slots=True)
class Failed:
    """A contract was not fulfilled and leaves the game (R11)."""

    seat: int
    card: str
    kind: str = field(default="failed", init=False)


Event = (Launched | Grounded | Collision | Tipped | Sunk | LostTurn | TurnSkipped | Replaced | Released | Arrived
         | Seized | Fulfilled | Failed)

