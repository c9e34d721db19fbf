"""Map files: the board a game is played on (land, routes, starts, destinations, pirate ports).

`load(path)` is the one way in: it checks a TOML map file and returns a frozen `Map`, or raises
`MapError` naming every problem. A shipped map may be named from any folder (`tiny`, `maps/tiny.toml`:
`resolve`). The format is documented in maps/README.md.
"""

from somaliland.map.errors import MapError, Problem
from somaliland.map.loader import default_map, load, loads, problems, resolve, shipped_maps
from somaliland.map.model import Direction, Land, Leg, Map, PiratePort, Route

__all__ = ["Direction", "Land", "Leg", "Map", "MapError", "PiratePort", "Problem", "Route", "default_map",
           "load", "loads", "problems", "resolve", "shipped_maps"]
