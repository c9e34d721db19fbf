"""Hand-built positions for the rules tests: a small map, ships placed by hand, scripted roll results.

The map (metres): a 75 x 90 cm board with one block of land in the middle (x 0.25-0.50, y 0.20-0.70);
the full-value route "somalia" runs north-south at x = 0.62 east of it, the safe route "africa" at
x = 0.12 west of it. Destinations are boxes at the far ends. Pirate ports: "eyl" just off the land's
east coast, "bosaso" in the north-east.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely import LineString, box

from physics import Contact, DiePath, DieRest, OffBoard, Pose, RollResult, TipOver
from physics.dice import resting_orientation
from somaliland.map.model import Direction, Land, Leg, Map, PiratePort, Route
from somaliland.rules import Card, GameState, Holding, RulesConfig, Status, new_game
from somaliland.seeding import make_rng

N, S = Direction.NORTH, Direction.SOUTH
HALF = 0.008  # half the default 16 mm die


def _route(name: str, x: float, full_value: bool) -> Route:
    return Route(
        name=name,
        centre_line=LineString([(x, 0.05), (x, 0.85)]),
        north=Leg(N, (x, 0.10), math.pi / 2, box(x - 0.07, 0.75, x + 0.08, 0.88)),
        south=Leg(S, (x, 0.80), -math.pi / 2, box(x - 0.07, 0.02, x + 0.08, 0.15)),
        full_value=full_value,
    )


def world() -> Map:
    """Return the small test map."""
    return Map(name="test", version="1", author="tests", width=0.75, depth=0.90, thickness=0.003,
               lands=(Land("africa", box(0.25, 0.20, 0.50, 0.70)),),
               routes=(_route("somalia", 0.62, True), _route("africa", 0.12, False)),
               pirate_ports=(PiratePort("eyl", (0.52, 0.45)), PiratePort("bosaso", (0.72, 0.70))))


def config(**changes: object) -> RulesConfig:
    """Return the default rules for two players, seat 0 first, with changes."""
    return RulesConfig(**{"players": 2, "first_player": "seat0", **changes})  # type: ignore[arg-type]


def game(cfg: RulesConfig | None = None, held: tuple[tuple[Card, ...], ...] = ()) -> GameState:
    """Return a new game in its first turn, holding these contracts by seat (routes declared per ship)."""
    cfg = cfg or config()
    state = new_game(cfg, make_rng(0))
    held = held or tuple(() for _ in range(cfg.players))
    return replace(state, turn=1, held=tuple(tuple(Holding(c) for c in cards) for cards in held))


def pose(x: float, y: float, face: int = 4) -> Pose:
    """Return a die lying flat at (x, y) with the given face up."""
    return Pose((x, y, HALF), resting_orientation(face))


def place(state: GameState, ship_id: str, x: float | None = None, y: float | None = None, *,
          status: Status = Status.AT_SEA, card: Card | None = None, route: str | None = None, face: int = 4,
          **changes: object) -> GameState:
    """Return the state with a ship set as given (at sea at (x, y) unless told otherwise)."""
    ship = state.ship(ship_id)
    new = replace(ship, status=status, pose=None if x is None else pose(x, y, face), card=card,  # type: ignore[arg-type]
                  route=route, **changes)
    if card is not None:
        seat = ship.owner
        held = list(state.held)
        if card not in [h.card for h in held[seat]]:
            held[seat] = held[seat] + (Holding(card, route),)
        else:
            held[seat] = tuple(Holding(h.card, route) if h.card == card else h for h in held[seat])
        state = replace(state, held=tuple(held))
    return replace(state, ships=tuple(new if s.id == ship_id else s for s in state.ships))


def rest(name: str, x: float, y: float, face: int = 4, value: int = 1, yaw: float = 0.0) -> DieRest:
    """Return a die's scripted rest, flat at (x, y) with `face` up showing `value`."""
    return DieRest(name, (x, y, HALF), resting_orientation(face, yaw), face, value, 0.0, False)


def still_path(r: DieRest) -> DiePath:
    """Return a path of one sample: the die lying at its rest (a scripted roll says nothing of its way there)."""
    return DiePath(r.name, (1.0,), (r.position,), (r.orientation,))


def slide(name: str, *points: tuple[float, float], height: float = HALF, dt: float = 1 / 60) -> DiePath:
    """Return a die's path sliding flat (+z up) through these points, one sample at each, `height` its centre's."""
    return DiePath(name, tuple(k * dt for k in range(len(points))), tuple((x, y, height) for x, y in points),
                   tuple(resting_orientation(4) for _ in points))


def roll(thrown: DieRest, *others: DieRest, contacts: tuple[tuple[str, str], ...] = (),
         tipovers: tuple[TipOver, ...] = (), off_board: tuple[OffBoard, ...] = (),
         paths: tuple[DiePath, ...] = ()) -> RollResult:
    """Return a scripted roll result; a moved die without a given path has one sample where it rests."""
    given = {p.name: p for p in paths}
    moved = (thrown,) + others
    return RollResult(thrown=thrown, moved=moved, paths=tuple(given.get(r.name) or still_path(r) for r in moved),
                      contacts=tuple(Contact(a, b, 0.1, 0.2) for a, b in contacts), tipovers=tipovers,
                      off_board=off_board, settle_time=1.0, steps=240, cap_hit=False)
