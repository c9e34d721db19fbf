"""The rules of Somaliland as frozen data and small pure functions, one concept per module.

A roll is input data here: `apply_roll` takes the physics layer's `RollResult` and decides what it
means. Nothing in this package calls the physics engine or draws random numbers of its own; the few
functions that need chance (the deal, the first player, a drawn tie) take the game's generator.
"""

from somaliland.rules.accidents import crash, is_aground, replacement_point
from somaliland.rules.allotment import Allotment, Cargo, Hull, best_allotment
from somaliland.rules.config import DEFAULT_RULES_FILE, RulesConfig, load_rules, rules_from_dict
from somaliland.rules.contracts import Card, Draft, drafter, legal_picks, pick
from somaliland.rules.errors import IllegalActionError, RollMismatchError, RulesConfigError
from somaliland.rules.events import Event
from somaliland.rules.fleet import COLOURS, DEFAULT_FLEET, ShipSpec
from somaliland.rules.game import (begin_turn, contract_cap, end_round, game_over, new_game, placed_dice,
                                   start_draft, take_contracts)
from somaliland.rules.moves import check_throw, launch_pose, lose_turn, moves_left, throwable
from somaliland.rules.order import (LaunchPhase, after_launch, launchable, launcher, leg_order, next_to_sail,
                                    open_launch)
from somaliland.rules.pirates import nearest, seize
from somaliland.rules.planning import Plan, apply_plans, check_plans
from somaliland.rules.roll import apply_roll
from somaliland.rules.scoring import Standing, Standings, score_round, standings
from somaliland.rules.state import GameState, Holding, Sheet, ShipState, Status

__all__ = [
    "COLOURS", "DEFAULT_FLEET", "DEFAULT_RULES_FILE", "Allotment", "Card", "Cargo", "Draft", "Event", "GameState",
    "Holding", "Hull", "IllegalActionError", "LaunchPhase", "Plan", "RollMismatchError", "RulesConfig",
    "RulesConfigError", "Sheet", "ShipSpec", "ShipState", "Standing", "Standings", "Status", "after_launch",
    "apply_plans", "apply_roll", "begin_turn", "best_allotment", "check_plans", "check_throw", "contract_cap",
    "crash", "drafter", "end_round", "game_over", "is_aground", "launch_pose", "launchable", "launcher",
    "leg_order", "legal_picks", "load_rules", "lose_turn", "moves_left", "nearest", "new_game", "next_to_sail",
    "open_launch", "pick", "placed_dice", "replacement_point", "rules_from_dict", "score_round", "seize",
    "standings", "start_draft", "take_contracts", "throwable",
]
