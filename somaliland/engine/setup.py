"""What a game is made of before it starts: seed, map, rules, the seats with their players, and how its rolls are
simulated (the physics settings, world policy included): everything that decides the game's results.

A game's roller is made from its setup (`make_roller(setup.physics)`), or checked against it (`check_roller`);
a record's header tells the setup back (`setup_from_header`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from pathlib import Path

from physics import PhysicsInputError, Roller, SimSettings
from physics.settings import recorded_fields
from somaliland.engine.encode import rules_from_json
from somaliland.engine.events import Header
from somaliland.engine.record import RecordError
from somaliland.errors import UsageError
from somaliland.players.hand import ThrowSkill
from somaliland.rules.config import RulesConfig
from somaliland.rules.fleet import COLOURS

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "maps" / "horn-of-africa.toml"
DEFAULT_STRATEGY = "ev"
# What a strategy's name may be (a registry's, a policy factory's, the env's `agent`): a name, never markup or a path
STRATEGY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}")
STRATEGY_NAME_TEXT = "a strategy name (a letter or digit, then up to 63 of letters, digits, _ . : + -)"


@dataclass(frozen=True, slots=True)
class Seat:
    """One player: the strategy's registry name, its parameters and the hand's throw skill."""

    strategy: str = DEFAULT_STRATEGY
    skill: ThrowSkill = field(default_factory=ThrowSkill)
    params: tuple[tuple[str, object], ...] = ()  # extra strategy parameters, as sorted pairs


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything that fixes a game: same setup, same game, bit for bit."""

    seed: int
    seats: tuple[Seat, ...]
    rules: RulesConfig = field(default_factory=RulesConfig)
    map_path: Path = DEFAULT_MAP
    record_paths: bool = True  # keep each throw's sampled path in the record (for replays)
    physics: SimSettings = SimSettings()  # how its rolls are simulated: step rate, world policy, ... (physics/)

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise UsageError(f"{len(self.seats)} seats given for a {self.rules.players}-player game; "
                             f"expected one strategy per player")
        for seat in self.seats:
            if not isinstance(seat.strategy, str) or not STRATEGY_NAME.fullmatch(seat.strategy):
                raise UsageError(f"strategy {seat.strategy!r}: expected {STRATEGY_NAME_TEXT}")


def seats_from(strategies: list[str], players: int, skill: ThrowSkill) -> tuple[Seat, ...]:
    """Return the seats for a list of strategy names: one name for all, or exactly one per player.

    Raises:
        UsageError: the number of names is neither 1 nor the number of players.
    """
    if len(strategies) == 1:
        strategies = strategies * players
    if len(strategies) != players:
        raise UsageError(f"--strategies names {len(strategies)} strategies for {players} players; "
                         f"give one for everybody or exactly {players}")
    return tuple(Seat(name.strip(), skill) for name in strategies)


def check_roller(setup: GameSetup, roller: Roller) -> None:
    """Refuse a roller that simulates otherwise than the setup says: its game would not be the setup's.

    Raises:
        UsageError: the roller's settings differ from `setup.physics` (names each setting that differs).
    """
    if roller.settings == setup.physics:
        return
    differ = [f"{f.name} {getattr(roller.settings, f.name)!r} (the setup's: {getattr(setup.physics, f.name)!r})"
              for f in fields(SimSettings) if getattr(roller.settings, f.name) != getattr(setup.physics, f.name)]
    raise UsageError(f"the roller simulates with {', '.join(differ) or 'other settings'}, not as the game's setup "
                     f"says; a game's rolls follow its setup: make the roller with make_roller(setup.physics)")


def setup_from_header(head: Header, path: str) -> GameSetup:
    """Return the game setup a record's header describes, physics settings included.

    Raises:
        RecordError: a header value that does not make a valid setup, or seats that are not the ones a game's
            setup makes (their numbers, their colours by seat (R1), strategy names): names line 1 and the key.
    """
    _check_seats(head, path)
    try:
        seats = tuple(Seat(s["strategy"], ThrowSkill(**s["skill"]), tuple(sorted(s.get("params", {}).items())))
                      for s in head.seats)
        return GameSetup(seed=head.seed, seats=seats, rules=rules_from_json(head.rules),
                         map_path=Path(head.map["file"]), record_paths=head.record_paths,
                         physics=SimSettings(**recorded_fields(head.physics)))
    except PhysicsInputError as error:  # a value no roll can be simulated at, a retired setting among them
        raise RecordError(path, 1, f"the header's physics.{error}") from None
    except (KeyError, TypeError, ValueError, UsageError) as error:  # UsageError: seats not the rules' players
        raise RecordError(path, 1, f"the header does not describe a game: {error}") from None


def _check_seats(head: Header, path: str) -> None:
    """Refuse a header whose seats no game writes: seat k is number k, has the k-th colour (R1) and a strategy
    name. What is refused here, `verify` and `replay` both refuse with this line."""
    if len(head.seats) > len(COLOURS):
        raise RecordError(path, 1, f"seats: expected at most {len(COLOURS)} seats (R1), found {len(head.seats)}")
    for k, seat in enumerate(head.seats):
        if not isinstance(seat, dict):
            raise RecordError(path, 1, f"seats[{k}]: expected a seat (an object), found {seat!r}")
        if type(seat.get("seat")) is not int or seat["seat"] != k:
            raise RecordError(path, 1, f"seats[{k}].seat: expected {k}, found {seat.get('seat')!r}")
        if seat.get("colour") != COLOURS[k]:
            raise RecordError(path, 1, f"seats[{k}].colour: expected {COLOURS[k]!r} (seat {k}'s colour, R1), "
                                       f"found {seat.get('colour')!r}")
        strategy = seat.get("strategy")
        if not isinstance(strategy, str) or not STRATEGY_NAME.fullmatch(strategy):
            raise RecordError(path, 1, f"seats[{k}].strategy: expected {STRATEGY_NAME_TEXT}, found {strategy!r}")
