"""AI players: decision policies behind one small interface, and the hand that executes their throws."""

from somaliland.players.hand import ThrowSkill, execute
from somaliland.players.policy import Policy, Table

__all__ = ["Policy", "Table", "ThrowSkill", "execute"]
