"""What an agent sees: the public game as a dict of arrays, or the same flattened into one vector.

Everything in Somaliland is public (the cards on offer, who holds which contract, every die on the
board) except the other seats' plans while the seats plan at once (R8): an observation shows the state
the pending decision sees, so a seat planning does not see the plans made before it in seat order.

The dict (`observation["observation"]`):

| key | space | what |
|---|---|---|
| `phase` | Discrete(5) | `PHASES`: draft, plan, launch, throw, over |
| `seat` | Discrete(players) | the observing agent's seat |
| `to_move` | Discrete(players + 1) | the seat whose decision is pending (`players`: nobody, the game is over) |
| `round`, `turn`, `first_player` | Discrete | the round (1-based), the turn on the track (0 before the launching turn, D10), round's first player (R7) |
| `scores` | Box(players, 5) | per seat: full-route values, half-route values, ransom, contracts fulfilled, points (R21) |
| `dice/position`, `dice/yaw` | Box(n, 3), Box(n) | every die (seat by seat, fleet order): centre (m) and heading of a flat body axis (rad); 0 off the board |
| `dice/face_up` | MultiDiscrete(n) | pips on the top face (R13's ransom) |
| `dice/on_board`, `dice/status` | MultiBinary(n), MultiDiscrete(n) | lies on the board; `Status` in its order (in_port, at_sea, arrived, aground, held, lost_turn, off_board, sunk) |
| `dice/route`, `dice/direction`, `dice/contract` | MultiDiscrete(n) | route (1 + index in the map; 0 none), direction (1 north, 2 south), card carried (1 + deck index) |
| `dice/owner`, `dice/moves`, `dice/skip` | MultiDiscrete(n) | seat; moves made this round (R15); turns to lose (at most 3 shown) |
| `dice/progress` | Box(n) | how far along its leg, as a fraction of the leg's length (0 at the start, about 1 at the destination) |
| `contracts/offer`, `contracts/in_deck` | MultiBinary(deck) | on offer in the draft now (R5); still in the game's deck (R4, R11) |
| `contracts/holder`, `contracts/route` | MultiDiscrete(deck) | who holds each card this round (1 + seat; 0 nobody); its declared route (1 + index) |
| `request/ship`, `request/contract`, `request/used` | Discrete, Discrete, MultiBinary(ships) | the die to throw (1 + index), the contract being planned (1 + deck index), the seat's ships already given to earlier contracts of this plan |

The vector (`observation="vector"`) is `gymnasium.spaces.flatten` of that dict (Discrete and
MultiDiscrete entries one-hot, keys in sorted order), as float32; `Observer.dict_space` gives its layout.
"""

from __future__ import annotations

import math

import numpy as np
from gymnasium import spaces

from somaliland.engine.decisions import DraftRequest, PlanRequest, Request, ThrowRequest
from somaliland.env.actions import Layout
from somaliland.map.model import Direction, Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.state import GameState, Status

PHASES = ("draft", "plan", "launch", "throw", "over")
STATUSES = tuple(Status)
MAX_SKIP = 3
SCORE_BOUND = 1e4
MARGIN = 0.5  # m beyond the board's edges a die's position may be reported at (clipped there)


class Observer:
    """Builds observations of one game's states for one map, rules and action layout."""

    def __init__(self, layout: Layout, world: Map, config: RulesConfig, vector: bool) -> None:
        self.layout, self.world, self.config, self.vector = layout, world, config, vector
        players, n, deck, routes = config.players, config.players * len(config.fleet), len(layout.deck), len(world.routes)
        self.route_index = {name: k for k, name in enumerate(layout.routes)}
        self.card_index = {card: k for k, card in enumerate(layout.deck)}
        self.leg_start = {(r.name, d): r.progress(d, *r.leg(d).start) for r in world.routes for d in Direction}
        low = np.array([-MARGIN, -MARGIN, -1.0], np.float32)
        high = np.array([world.width + MARGIN, world.depth + MARGIN, 1.0], np.float32)
        self.low, self.high = np.tile(low, (n, 1)), np.tile(high, (n, 1))
        faces = max(max(s.faces) for s in config.fleet) + 1

        def many(k: int, size: int) -> spaces.MultiDiscrete:
            return spaces.MultiDiscrete(np.full(size, k, np.int64))

        self.dict_space = spaces.Dict({
            "phase": spaces.Discrete(len(PHASES)),
            "seat": spaces.Discrete(players),
            "to_move": spaces.Discrete(players + 1),
            "round": spaces.Discrete(config.rounds + 2),
            "turn": spaces.Discrete(config.turns_per_round + 1),
            "first_player": spaces.Discrete(players),
            "scores": spaces.Box(-SCORE_BOUND, SCORE_BOUND, (players, 5), np.float32),
            "dice": spaces.Dict({
                "position": spaces.Box(self.low, self.high, dtype=np.float32),
                "yaw": spaces.Box(-math.pi, math.pi, (n,), np.float32),
                "face_up": many(faces, n),
                "on_board": spaces.MultiBinary(n),
                "status": many(len(STATUSES), n),
                "route": many(routes + 1, n),
                "direction": many(3, n),
                "contract": many(deck + 1, n),
                "owner": many(players, n),
                "moves": many(config.max_moves + 1, n),
                "skip": many(MAX_SKIP + 1, n),
                "progress": spaces.Box(-1.0, 2.0, (n,), np.float32),
            }),
            "contracts": spaces.Dict({
                "offer": spaces.MultiBinary(deck),
                "in_deck": spaces.MultiBinary(deck),
                "holder": many(players + 1, deck),
                "route": many(routes + 1, deck),
            }),
            "request": spaces.Dict({
                "ship": spaces.Discrete(n + 1),
                "contract": spaces.Discrete(deck + 1),
                "used": spaces.MultiBinary(len(config.fleet)),
            }),
        })
        flat = spaces.flatten_space(self.dict_space)
        inner = spaces.Box(flat.low.astype(np.float32), flat.high.astype(np.float32), dtype=np.float32) \
            if vector else self.dict_space
        self.space = spaces.Dict({"observation": inner,
                                  "action_mask": spaces.Box(0, 1, (layout.size,), np.int8)})

    def observe(self, state: GameState, request: Request | None, seat: int, planning: int | None = None,
                used: int = 0) -> dict:
        """Return what `seat` sees of `state` while `request` is pending (None: the game is over).

        `planning`: the deck index of the contract being planned; `used`: the bit mask of ships given
        to earlier contracts of this plan.
        """
        obs = self.board(state)
        obs.update(phase=_int(PHASES.index(request.kind) if request is not None else len(PHASES) - 1),
                   seat=_int(seat), to_move=_int(request.seat if request is not None else state.players),
                   round=_int(min(state.round, self.config.rounds + 1)), turn=_int(state.turn),
                   first_player=_int(state.first_player))
        offer = np.zeros(len(self.layout.deck), np.int8)
        if isinstance(request, DraftRequest):
            offer[[self.card_index[c] for c in request.draft.offer]] = 1  # type: ignore[union-attr]
        obs["contracts"]["offer"] = offer
        ships = state.ships
        obs["request"] = {
            "ship": _int(1 + [s.id for s in ships].index(request.ship) if isinstance(request, ThrowRequest) else 0),
            "contract": _int(1 + planning if isinstance(request, PlanRequest) and planning is not None else 0),
            "used": np.array([used >> k & 1 for k in range(len(self.config.fleet))], np.int8),
        }
        mask = self.layout.mask(request, used) if request is not None and request.seat == seat \
            else np.zeros(self.layout.size, np.int8)
        inner = spaces.flatten(self.dict_space, obs).astype(np.float32) if self.vector else obs
        return {"observation": inner, "action_mask": mask}

    def board(self, state: GameState) -> dict:
        """Return the parts of an observation that the state alone decides: scores, dice, contracts."""
        n = len(state.ships)
        position = np.zeros((n, 3), np.float32)
        yaw, progress = np.zeros(n, np.float32), np.zeros(n, np.float32)
        face, on_board, status, route, direction, contract, owner, moves, skip = (np.zeros(n, np.int64)
                                                                                    for _ in range(9))
        for k, ship in enumerate(state.ships):
            status[k], owner[k], moves[k], skip[k] = (STATUSES.index(ship.status), ship.owner, ship.moves,
                                                      min(ship.skip, MAX_SKIP))
            if ship.route is not None:
                route[k] = 1 + self.route_index[ship.route]
            if ship.card is not None:
                direction[k] = 1 if ship.card.direction is Direction.NORTH else 2
                contract[k] = 1 + self.card_index[ship.card]
            if ship.pose is not None:
                on_board[k], face[k] = 1, ship.top_value()
                position[k] = ship.pose.position
                yaw[k] = _yaw(ship.pose.orientation)
                if ship.route is not None and ship.direction is not None:
                    length = max(self.world.leg_length(ship.route, ship.direction), 1e-6)
                    along = self.world.route(ship.route).progress(ship.direction, *ship.pose.position[:2])
                    progress[k] = (along - self.leg_start[ship.route, ship.direction]) / length
        holder = np.zeros(len(self.layout.deck), np.int64)
        declared = np.zeros(len(self.layout.deck), np.int64)
        for seat, holdings in enumerate(state.held):
            for h in holdings:
                holder[self.card_index[h.card]] = 1 + seat
                if h.route is not None:
                    declared[self.card_index[h.card]] = 1 + self.route_index[h.route]
        in_deck = np.zeros(len(self.layout.deck), np.int8)
        in_deck[[self.card_index[c] for c in state.deck]] = 1
        scores = np.array([[s.full, s.half, s.ransom, s.fulfilled, s.points] for s in state.sheets], np.float32)
        return {
            "scores": np.clip(scores, -SCORE_BOUND, SCORE_BOUND),
            "dice": {"position": np.clip(position, self.low, self.high), "yaw": yaw, "face_up": face,
                     "on_board": on_board.astype(np.int8), "status": status, "route": route, "direction": direction,
                     "contract": contract, "owner": owner, "moves": moves, "skip": skip,
                     "progress": np.clip(progress, -1.0, 2.0)},
            "contracts": {"in_deck": in_deck, "holder": holder, "route": declared},
        }


def _int(value: int) -> np.int64:
    return np.int64(value)


def _yaw(q: tuple[float, float, float, float]) -> float:
    """Return the heading (rad) of the die's body axis that lies flattest: x, y or z turned into the board."""
    x, y, z, w = q
    axes = ((1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
            (2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
            (2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)))
    flat = min(axes, key=lambda a: abs(a[2]))
    return math.atan2(flat[1], flat[0])
