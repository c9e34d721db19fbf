"""What a game is made of before it starts: seed, map, rules and the seats with their players."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from somaliland.errors import UsageError
from somaliland.players.hand import ThrowSkill
from somaliland.rules.config import RulesConfig

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "maps" / "horn-of-africa.toml"
DEFAULT_STRATEGY = "ev"


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

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise UsageError(f"{len(self.seats)} seats given for a {self.rules.players}-player game; "
                             f"expected one strategy per player")


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
