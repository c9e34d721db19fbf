"""Map files: the board a game is played on (land, routes, starts, destinations, pirate ports)."""

from somaliland.map.model import Direction, Land, Leg, Map, PiratePort, Route

__all__ = ["Direction", "Land", "Leg", "Map", "PiratePort", "Route"]
