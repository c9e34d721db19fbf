"""The environment's actions: one flat list of discrete choices for every decision, and a throw's parameters.

Every seat has the same action space all game long (AEC requires it), a parameterised action as in
Masson et al. (2016): `{"choice": Discrete(n), "throw": Box(-1, 1, (3,))}`. The choice names what to do;
the observation's `action_mask` says which choices are legal now (PettingZoo's classic games do the same:
chess, go and Hanabi put every kind of move in one flat Discrete, the legal ones in the observation's
`action_mask`). Only a throw choice reads `throw`. The choices, in order:

| range | choice | phase |
|---|---|---|
| `draft + k` | take card k of the full deck (`Layout.deck`: values low to high, North before South) | draft (R5) |
| `draft_pass` | pass | draft (R5, D2) |
| `plan + r * 2**s + m` | the contract being planned sails route r with the seat's ships in bit mask m (bit k: ship k of the fleet) | plan (R8, R10) |
| `launch + k` | launch ship k of the seat's fleet | launch (R12) |
| `launch_pass` | pass | launch (R12, D7) |
| `roll`, `quarter`, `half` | throw the ship: a roll, or a quarter or half push (`physics.Style`) | throw |

A plan takes one step per held contract (in the order held) and reaches the game when every contract
has its route and ships. Limits of this encoding: one route for all ships of a contract (under D5
`route_choice = "ship"` a plan cannot give ships their own routes), at most `MAX_SHIPS` ships a seat.

A throw's parameters (each in [-1, 1]): `aim` x 180 degrees is the heading relative to the route's
direction at the ship (a launch's aim is clamped to the launch tolerance, R12); `speed` maps to
`SPEED_MID + speed * SPEED_HALF` m/s; `spin` is the forward tumble as a fraction of the rolling rate
(`calibration.tumble_spin`, which holds it within the physics layer's limit of `physics.throw.MAX_SPIN` rad/s
on each axis). A push reads the aim only. The seat's hand then scatters the throw
(`hand.execute`) before physics rolls it, as for any player.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from physics import Style, Throw
from somaliland.engine.decisions import DraftRequest, LaunchRequest, PlanRequest, Request, ThrowRequest
from somaliland.errors import UsageError
from somaliland.map.model import Direction, Map
from somaliland.players.calibration import RELEASE_HEIGHT, push_throw, tumble_spin
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card, full_deck, legal_picks
from somaliland.rules.moves import start_pose
from somaliland.rules.order import launchable
from somaliland.rules.planning import Plan
from somaliland.rules.state import GameState, ShipState, Status

MAX_SHIPS = 10  # a plan choice per route and subset of ships: 2**ships choices a route
SPEED_MID, SPEED_HALF = 1.25, 1.25  # m/s: the throw's speed parameter spans 0 to 2.5 m/s
AHEAD = 0.15  # m along the leg beyond the ship: the point an aim of 0 heads for
STYLES = (Style.ROLL, Style.QUARTER, Style.HALF)


class ParameterisedAction(spaces.Dict):
    """A choice and a throw's parameters; `sample(mask)` takes the observation's flat int8 action mask."""

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        """Return a random action; a flat mask (the observation's `action_mask`) restricts the choice."""
        if isinstance(mask, np.ndarray):
            mask = {"choice": mask, "throw": None}
        return super().sample(mask=mask, probability=probability)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each kind of choice lies in the flat Discrete (see the module docstring)."""

    deck: tuple[Card, ...]
    routes: tuple[str, ...]
    ships: int

    @classmethod
    def of(cls, world: Map, config: RulesConfig) -> "Layout":
        """Return the layout of a game on this map under these rules.

        Raises:
            UsageError: a fleet too big to encode its plans (more than MAX_SHIPS ships).
        """
        if len(config.fleet) > MAX_SHIPS:
            raise UsageError(f"the environment encodes plans as subsets of a fleet of at most {MAX_SHIPS} ships; "
                             f"the rules' fleet has {len(config.fleet)}")
        return cls(full_deck(config), tuple(r.name for r in world.routes), len(config.fleet))

    @property
    def draft_pass(self) -> int:
        """Return the draft's pass."""
        return len(self.deck)

    @property
    def plan(self) -> int:
        """Return the first plan choice."""
        return self.draft_pass + 1

    @property
    def launch(self) -> int:
        """Return the first launch choice."""
        return self.plan + len(self.routes) * 2 ** self.ships

    @property
    def launch_pass(self) -> int:
        """Return the launching phase's pass."""
        return self.launch + self.ships

    @property
    def roll(self) -> int:
        """Return the first throw choice (a roll; a quarter and a half push follow)."""
        return self.launch_pass + 1

    @property
    def size(self) -> int:
        """Return the number of choices."""
        return self.roll + len(STYLES)

    def space(self) -> ParameterisedAction:
        """Return the action space."""
        return ParameterisedAction({"choice": spaces.Discrete(self.size),
                                    "throw": spaces.Box(-1.0, 1.0, (3,), np.float32)})

    def card_index(self, card: Card) -> int:
        """Return a card's place in the deck."""
        return self.deck.index(card)

    # -- masks ---------------------------------------------------------------------------------------
    def mask(self, request: Request | None, used: int = 0) -> np.ndarray:
        """Return the legal choices (int8, 1 = legal) for a request; `used`: ships given to earlier contracts."""
        mask = np.zeros(self.size, np.int8)
        if isinstance(request, DraftRequest):
            for card in legal_picks(request.draft, request.seat):
                mask[self.card_index(card)] = 1
            mask[self.draft_pass] = 1
        elif isinstance(request, PlanRequest):
            free = self.afloat(request.table.state, request.seat) & ~used
            subsets = np.arange(2 ** self.ships)
            legal = (subsets & ~free) == 0
            for r in range(len(self.routes)):
                mask[self.plan + r * 2 ** self.ships + subsets[legal]] = 1
        elif isinstance(request, LaunchRequest):
            fleet = request.table.state.fleet(request.seat)
            for ship in launchable(request.table.state, request.seat):
                mask[self.launch + fleet.index(ship)] = 1
            mask[self.launch_pass] = 1
        elif isinstance(request, ThrowRequest):
            mask[self.roll:self.size] = 1
        return mask

    def afloat(self, state: GameState, seat: int) -> int:
        """Return the bit mask of the seat's ships not sunk (the ships a plan may use, R10, D3)."""
        return sum(1 << k for k, s in enumerate(state.fleet(seat)) if s.status is not Status.SUNK)

    # -- choices to answers --------------------------------------------------------------------------
    def draft_answer(self, choice: int) -> Card | None:
        """Return the card a draft choice takes, or None for the pass."""
        return None if choice == self.draft_pass else self.deck[choice]

    def plan_answer(self, request: PlanRequest, card: Card, choice: int) -> Plan:
        """Return the plan a plan choice makes for one contract."""
        route, subset = divmod(choice - self.plan, 2 ** self.ships)
        fleet = request.table.state.fleet(request.seat)
        return Plan(card, self.routes[route], tuple(fleet[k].id for k in range(self.ships) if subset >> k & 1))

    def launch_answer(self, request: LaunchRequest, choice: int) -> str | None:
        """Return the ship a launch choice launches, or None for the pass."""
        return None if choice == self.launch_pass else request.table.state.fleet(request.seat)[choice - self.launch].id

    def throw_answer(self, request: ThrowRequest, choice: int, params: np.ndarray) -> Throw:
        """Return the intended throw of a throw choice with its parameters (aim, speed, spin in [-1, 1])."""
        t = request.table
        ship = t.state.ship(request.ship)
        aim, speed, spin = (float(v) for v in np.clip(np.asarray(params, dtype=float), -1.0, 1.0))
        origin = tuple(float(c) for c in start_pose(ship, t.world, t.config).position[:2])
        offset = aim * math.pi
        if ship.status is Status.IN_PORT:  # R12: a launch heads within the tolerance of its route's direction
            limit = max(0.0, t.config.launch_heading_tolerance - 1e-3)
            offset = min(max(offset, -limit), limit)
        heading = route_heading(ship, t.world, t.config) + offset
        style = STYLES[choice - self.roll]
        if style is not Style.ROLL:
            return push_throw(ship.id, origin, heading, style)
        v = SPEED_MID + speed * SPEED_HALF
        return Throw(ship.id, origin, heading, v, tumble_spin(t.config.die_size, spin, heading, v), RELEASE_HEIGHT)

    # -- answers to choices (what a policy's answer is as an action) ---------------------------------
    def draft_choice(self, card: Card | None) -> int:
        """Return the choice of a draft answer."""
        return self.draft_pass if card is None else self.card_index(card)

    def plan_choice(self, request: PlanRequest, plan: Plan) -> int:
        """Return the choice of one contract's plan."""
        ids = [s.id for s in request.table.state.fleet(request.seat)]
        return self.plan + self.routes.index(plan.route) * 2 ** self.ships + sum(1 << ids.index(i) for i in plan.ships)

    def launch_choice(self, request: LaunchRequest, ship_id: str | None) -> int:
        """Return the choice of a launch answer."""
        ids = [s.id for s in request.table.state.fleet(request.seat)]
        return self.launch_pass if ship_id is None else self.launch + ids.index(ship_id)

    def throw_action(self, request: ThrowRequest, throw: Throw) -> dict[str, Any]:
        """Return the action nearest an intended throw (its speed and spin clipped to the parameters' range)."""
        t = request.table
        ship = t.state.ship(request.ship)
        offset = (throw.heading - route_heading(ship, t.world, t.config) + math.pi) % (2 * math.pi) - math.pi
        forward = -math.sin(throw.heading) * throw.spin[0] + math.cos(throw.heading) * throw.spin[1]
        tumble = forward * (t.config.die_size / 2) / throw.speed if throw.speed > 0 else 0.0
        params = np.clip([offset / math.pi, (throw.speed - SPEED_MID) / SPEED_HALF, tumble], -1.0, 1.0)
        return {"choice": self.roll + STYLES.index(throw.style), "throw": params.astype(np.float32)}


def route_heading(ship: ShipState, world: Map, config: RulesConfig) -> float:
    """Return the direction an aim of 0 takes: a launch's route direction, else towards the leg just ahead.

    At sea, the point `AHEAD` metres further along the leg's centre line than the ship (the leg's end at
    most); a ship standing on that point heads the leg's launch direction.
    """
    leg = world.route(ship.route).leg(ship.direction)  # type: ignore[arg-type]
    if ship.status is Status.IN_PORT:
        return leg.heading
    route = world.route(ship.route)  # type: ignore[arg-type]
    x, y = start_pose(ship, world, config).position[:2]
    length = route.centre_line.length
    along = min(route.progress(ship.direction, x, y) + AHEAD, length)  # type: ignore[arg-type]
    point = route.centre_line.interpolate(along if ship.direction is Direction.NORTH else length - along)
    dx, dy = point.x - x, point.y - y
    return math.atan2(dy, dx) if math.hypot(dx, dy) > 1e-3 else leg.heading
