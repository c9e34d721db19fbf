"""What a contract is worth before the round starts: the chance to arrive and the captures to expect.

A ship's own voyage is what the survey of the map in play measured on its leg (`legs.LegSurvey`):
the chance a lone ship arrives in each turn, its throws and the turns it lost included. Pirates seize
one ship a turn (R13) among the ships they may take that are at sea. A ship at sea on a full-value
route after a turn's moves is taken with chance 1 / (1 + the other such ships expected at sea then):
its own convoy on its leg and the rivals' full-route ships, each still at sea with the chance the
survey measured; under L2's "per_traffic" that chance is multiplied by the ships a raid takes (`takes`),
at most 1. On the safe route pirates take a ship only under R13 as written (`pirate_targets =
"any_route"`), and only when no full-route ship is at sea; under D15 (`"full_route"`) never. A
seizure costs the ship's ransom (its top face, about its mean face, or L1's lever: `planner.ransoms`)
and one skipped turn (modelled so under D16 and its variant alike); a held ship is not taken again
while held (D8). The chance to arrive within the round follows exactly from these, by a dynamic
programme over the turns.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from somaliland.players.legs import LegSurvey, Survey
from somaliland.rules.config import RulesConfig
from somaliland.rules.pirates import targets_route


@dataclass(frozen=True, slots=True)
class Outlook:
    """A strategy's beliefs and costs in valuing contracts (the board's facts come from the survey)."""

    rival_ships_per_route: float = 2.0  # ships each rival is expected to send on each route before it plans
    ship_cost: float = 2.0  # points a ship at sea costs: it crowds the lanes and invites collisions (R18)


@dataclass(frozen=True, slots=True)
class Voyage:
    """One ship's prospects on a leg: its chance to arrive within the round and the captures it should expect."""

    arrive: float
    captures: float


Traffic = tuple[tuple[str, float], ...]  # (route, rival ships expected on it), every route of the map


def companions(leg: LegSurvey, convoy: int, traffic: Traffic) -> float:
    """Return the other ships on the leg's route in the round: its convoy's others and the rivals' ships there.

    Counted whether at sea or arrived (arrived ships stay on the board as obstacles), as the survey's
    convoys count their company.
    """
    return convoy - 1 + dict(traffic).get(leg.route, 0.0)


def seizure_chances(leg: LegSurvey, survey: Survey, convoy: int, traffic: Traffic,
                    config: RulesConfig) -> tuple[float, ...]:
    """Return, for each turn of the round, the chance pirates take a ship of this leg that is at sea (R13, D15).

    The ship shares the pirates' one seizure a turn with the others they may take that are still at
    sea: its convoy and the rivals' ships on its route, and on any full-value route (R13).
    """
    if not targets_route(leg.full_value, config):
        return (0.0,) * leg.turns
    rivals = dict(traffic)
    full = [(route, ships) for route, ships in traffic if survey.leg(route, leg.direction).full_value]
    chances = []
    for turn in range(1, leg.turns + 1):
        here = (convoy - 1) * leg.at_sea(turn) + rivals.get(leg.route, 0.0) * survey.at_sea(leg.route, turn)
        full_at_sea = sum(ships * survey.at_sea(route, turn) for route, ships in full if route != leg.route)
        if leg.full_value:
            chances.append(min(1.0, takes(1.0 + here + full_at_sea, config) / (1.0 + here + full_at_sea)))
        else:  # the nearest ship is taken: a full-value ship at sea is nearer the pirates
            clear = math.prod((1.0 - survey.at_sea(route, turn)) ** ships for route, ships in full)
            chances.append(clear / (1.0 + here))
    return tuple(chances)


def takes(full_at_sea: float, config: RulesConfig) -> float:
    """Return the ships a raid is expected to take among this many full-value ships at sea: one (R13), or under
    L2's "per_traffic" one for every `pirate_take_every` of them, at least one (the rounding down left out)."""
    if config.pirate_take == "one":
        return 1.0
    return max(1.0, full_at_sea / config.pirate_take_every)


def voyage(leg: LegSurvey, seized: tuple[float, ...], company: float) -> Voyage:
    """Return a ship's chance to arrive within the round and its expected captures (R9, R13, R15, R18).

    An exact programme over the turns. A free ship sails the next turn of the survey's lone voyage and
    arrives with the survey's chance for that turn, slowed by the `company` of other ships on its route
    (each taking `leg.slowing` of that chance, as the survey's convoys measured); a ship still at sea
    is then taken with `seized[turn]`; a taken ship skips its next turn, held and not taken again (D8),
    and owes nothing else (D16: lost turns do not add up).
    """
    pace = max(0.0, 1.0 - leg.slowing * company)
    free: dict[int, float] = {0: 1.0}  # turns of its own voyage sailed -> chance it is at sea and free
    held: dict[int, float] = {}  # ... -> chance it is held by pirates and skips this turn
    arrive = captures = 0.0
    for chance in seized:
        after_free: dict[int, float] = defaultdict(float)
        after_held: dict[int, float] = defaultdict(float)
        for sailed, p in held.items():
            after_free[sailed] += p
        for sailed, p in free.items():
            landed = pace * leg.hazard(sailed + 1)
            arrive += p * landed
            at_sea = p * (1.0 - landed)
            captures += at_sea * chance
            after_held[sailed + 1] += at_sea * chance
            after_free[sailed + 1] += at_sea * (1.0 - chance)
        free, held = after_free, after_held
    return Voyage(arrive, captures)


@cache
def fulfil_chance(displacements: tuple[int, ...], value: int, arrive: float) -> float:
    """Return the chance that ships arriving independently (each with `arrive`) carry at least `value` (R9)."""
    n = len(displacements)
    arrived = [arrive ** k for k in range(n + 1)]
    lost = [(1 - arrive) ** k for k in range(n + 1)]
    total = 0.0
    for k in _carrying(displacements, value):  # the subsets in order of their masks, each term as it always was
        total += arrived[k] * lost[n - k]
    return total


@cache
def _carrying(displacements: tuple[int, ...], value: int) -> tuple[int, ...]:
    """Return, for every subset of the ships (bit i of a mask: ship i, masks ascending) whose displacements add up to
    at least `value`, its number of ships."""
    n = len(displacements)
    return tuple(bin(mask).count("1") for mask in range(1 << n)
                 if sum(d for i, d in enumerate(displacements) if mask >> i & 1) >= value)
