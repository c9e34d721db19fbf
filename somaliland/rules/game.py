"""A game's and a round's life-cycle: new game, deal and draft, turns, end of round, game over (R4–R7, R11, R15).

The game loop drives these in order; see `somaliland/rules/README.md` for the sequence.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from physics import PlacedDie, Scene
from somaliland.map.model import Map
from somaliland.rules.config import RulesConfig
from somaliland.rules.contracts import Card, Draft, deal, full_deck, open_draft
from somaliland.rules.errors import IllegalActionError
from somaliland.rules.events import Failed, Fulfilled
from somaliland.rules.fleet import die_spec, fleet_displacement, ship_id
from somaliland.rules.order import draw_first_player, next_first_player
from somaliland.rules.scoring import score_round
from somaliland.rules.state import GameState, Holding, Sheet, ShipState, Status


def new_game(config: RulesConfig, rng: np.random.Generator) -> GameState:
    """Return a game before round 1: empty score sheets, every fleet in port, the first player drawn (R2, R7, D4)."""
    return start_game(config, draw_first_player(config, rng))


def start_game(config: RulesConfig, first_player: int) -> GameState:
    """Return a game before round 1 whose first player is known (drawn already, or read from a record) (R2, R7)."""
    ships = tuple(ShipState(ship_id(seat, spec), seat, spec) for seat in range(config.players) for spec in config.fleet)
    return GameState(sheets=tuple(Sheet(seat) for seat in range(config.players)), ships=ships,
                     deck=full_deck(config), first_player=first_player)


def contract_cap(state: GameState, seat: int, config: RulesConfig) -> int:
    """Return the most contract value a player may hold (R6, D3, L4).

    R6's total is the fleet's displacement (74), or L4's number (`contract_cap_total`). Under D3 ("afloat")
    the displacement of the player's sunk ships is taken off that total (never below 0); under "fleet" it is
    the total itself. With the default total the afloat cap is the afloat ships' displacement.
    """
    total = config.contract_cap_total
    total = fleet_displacement(config.fleet) if total == "fleet" else int(total)
    if config.contract_cap == "fleet":
        return total
    return max(0, total - sum(s.displacement for s in state.fleet(seat) if s.status is Status.SUNK))


def start_draft(state: GameState, config: RulesConfig, rng: np.random.Generator) -> Draft:
    """Return this round's draft: nine cards dealt from the deck, the round's first player to pick (R4, R5, R6)."""
    return draft_of(state, deal(state.deck, config, rng), config)


def draft_of(state: GameState, offer: tuple[Card, ...], config: RulesConfig) -> Draft:
    """Return the draft of cards already dealt (by `start_draft`, or read from a record): the first player picks (R5, R6)."""
    caps = tuple(contract_cap(state, seat, config) for seat in range(state.players))
    return open_draft(offer, caps, state.first_player)


def take_contracts(state: GameState, draft: Draft) -> GameState:
    """Return the state holding the contracts each player took in the draft, routes not yet chosen (R5, R8)."""
    return replace(state, held=tuple(tuple(Holding(c) for c in cards) for cards in draft.held))


def begin_turn(state: GameState, config: RulesConfig) -> GameState:
    """Return the state with the turn marker moved one space (R14, D10); a ship released last turn may now be taken (D20).

    Raises:
        IllegalActionError: the round's turns are used up.
    """
    if state.turn >= config.turns_per_round:
        raise IllegalActionError("turn", f"turn {state.turn} was the round's last (D10)", "end_round")
    ships = tuple(replace(s, just_released=False) if s.just_released else s for s in state.ships)  # D8, D20
    return replace(state, turn=state.turn + 1, ships=ships)


def end_round(state: GameState, world: Map, config: RulesConfig) -> tuple[GameState, tuple[Fulfilled | Failed, ...]]:
    """Return the state after scoring the round, ships home, taken cards out, next first player (R7, R9–R11, R15)."""
    state, events = score_round(state, world, config)
    taken = {h.card for hs in state.held for h in hs}
    deck: tuple[Card, ...] = tuple(c for c in state.deck if c not in taken) if config.taken_cards_leave_deck \
        else state.deck
    home = tuple(s if s.status is Status.SUNK else ShipState(s.id, s.owner, s.spec) for s in state.ships)
    return replace(state, ships=home, deck=deck, held=(), turn=0, round=state.round + 1,
                   first_player=next_first_player(state.first_player, state.players)), events


def game_over(state: GameState, config: RulesConfig) -> bool:
    """Return True when every round has been played (R4, R23)."""
    return state.round > config.rounds


def throw_scene(state: GameState, ship_id: str, world: Map, config: RulesConfig) -> Scene:
    """Return the physics scene mirroring the state, the ship to throw on the board (at its start if in port)."""
    from somaliland.rules.moves import launch_pose

    dice = placed_dice(state, config)
    ship = state.ship(ship_id)
    if ship.pose is None:
        spec = die_spec(ship.spec, config.die_size, config.die_mass)
        dice = dice + (PlacedDie(ship.id, spec, launch_pose(ship, world, config)),)
    return Scene(board=world.board(), dice=dice)


def placed_dice(state: GameState, config: RulesConfig) -> tuple[PlacedDie, ...]:
    """Return every ship on the board as a physics die, for the scene that mirrors the state."""
    return tuple(PlacedDie(s.id, die_spec(s.spec, config.die_size, config.die_mass), s.pose)
                 for s in state.ships if s.pose is not None)
