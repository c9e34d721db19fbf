"""The design levers L1-L4: each defaults to the rulebook and changes exactly what it says (somaliland-rules.md).

Hand-built positions on the small test map (rules_fixtures): the full-value route "somalia" runs north-south at
x = 0.62, pirate ports eyl (0.52, 0.45) and bosaso (0.72, 0.70).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_fixtures import N, S, config, game, place, rest, roll, world
from somaliland.rules import Card, RulesConfigError, Status, apply_roll, contract_cap, seize, start_draft, throwable
from somaliland.rules.config import rules_from_dict
from somaliland.rules.pirates import raid_size, ransom_for, share_of
from somaliland.seeding import make_rng


def at_sea(state, ship: str, x: float, y: float, card: Card = Card(30, N), route: str = "somalia", **extra):
    return place(state, ship, x, y, card=card, route=route, **{"sailed_turn": 1, **extra})


# -- L1: the ransom ---------------------------------------------------------------------------------------------

def test_L1_top_face_default_charges_the_pips_on_top() -> None:
    state = at_sea(replace(game(), turn=1), "red-24", 0.72, 0.66, card=Card(50, N))  # the 24 shows 4 on top
    state, events = seize(state, world(), config())
    assert config().ransom == "top_face" and events[0].ransom == 4 and state.sheets[0].ransom == 4


def test_L1_fixed_charges_the_same_sum_whatever_the_ship() -> None:
    cfg = config(ransom="fixed", ransom_fixed=3)
    state = at_sea(replace(game(cfg), turn=1), "red-24", 0.72, 0.66, card=Card(50, N))
    state, events = seize(state, world(), cfg)
    assert events[0].ransom == 3 and state.sheets[0].ransom == 3
    state = at_sea(state, "red-6a", 0.55, 0.45, card=Card(50, N))
    state, events = seize(state, world(), cfg)
    assert events[0].ship == "red-6a" and events[0].ransom == 3 and state.sheets[0].ransom == 6


@pytest.mark.parametrize("value, percent, ransom", [(44, 10, 4), (45, 10, 5), (35, 10, 4), (30, 25, 8),
                                                    (64, 0, 0), (64, 100, 64)])
def test_L1_a_share_of_the_contract_value_rounds_to_the_nearest_point_halves_up(value, percent, ransom) -> None:
    assert share_of(value, percent) == ransom
    cfg = config(ransom="share", ransom_share_percent=percent)
    state = at_sea(replace(game(cfg), turn=1), "red-8", 0.72, 0.66, card=Card(value, N))
    _, events = seize(state, world(), cfg)
    assert events[0].ransom == ransom


def test_L1_a_pooled_ship_pays_on_the_cheapest_contract_of_its_pool() -> None:
    cfg = config(ransom="share", ransom_share_percent=10)
    state = replace(game(cfg), turn=1)
    state = at_sea(state, "red-8", 0.72, 0.66, card=Card(50, N))
    state = place(state, "red-12", status=Status.IN_PORT, card=Card(36, N), route="somalia")  # pooled: 36N
    state = place(state, "red-18", status=Status.IN_PORT, card=Card(30, N), route="africa")  # other route
    state = place(state, "red-24", status=Status.IN_PORT, card=Card(32, S), route="somalia")  # other direction
    assert ransom_for(state.ship("red-8"), state, cfg) == 4  # 10% of 36 = 3.6
    _, events = seize(state, world(), cfg)
    assert events[0].ransom == 4
    unpooled = replace(cfg, pooled_allotment=False)
    assert ransom_for(state.ship("red-8"), state, unpooled) == 5  # its own 50


def test_L1_options_are_checked() -> None:
    with pytest.raises(RulesConfigError, match="ransom"):
        rules_from_dict({"ransom": "pips"})
    with pytest.raises(RulesConfigError, match="ransom_share_percent"):
        rules_from_dict({"ransom_share_percent": 150})


# -- L2: the pirates' take ---------------------------------------------------------------------------------------

def _traffic(cfg):
    """Five full-value ships at sea, nearest a port first: red-8 (4 cm from bosaso), red-6a (10 cm from eyl),
    green-6a (14.1 cm from bosaso), red-6b (18 cm from eyl), green-8 (31.6 cm from eyl); and one held ship and one
    half-value ship, which do not count."""
    state = replace(game(cfg), turn=1)
    for ship, x, y in (("red-8", 0.72, 0.66), ("red-6a", 0.62, 0.45), ("green-6a", 0.62, 0.60),
                       ("red-6b", 0.62, 0.30), ("green-8", 0.62, 0.15)):
        state = at_sea(state, ship, x, y)
    state = at_sea(state, "green-12", 0.62, 0.80, status=Status.HELD, skip=1)
    return at_sea(state, "green-6b", 0.12, 0.45, card=Card(40, N), route="africa")


def test_L2_one_ship_a_raid_by_default_however_many_are_at_sea() -> None:
    state, events = seize(_traffic(config()), world(), config())
    assert config().pirate_take == "one" and [e.ship for e in events] == ["red-8"]


@pytest.mark.parametrize("every, taken", [(2, ["red-8", "red-6a"]), (4, ["red-8"]), (6, ["red-8"]),
                                          (1, ["red-8", "red-6a", "green-6a", "red-6b", "green-8"])])
def test_L2_per_traffic_takes_one_for_every_so_many_full_value_ships_at_sea_nearest_first(every, taken) -> None:
    cfg = config(pirate_take="per_traffic", pirate_take_every=every)
    state = _traffic(cfg)
    assert raid_size(state, world(), cfg) == max(1, 5 // every)  # 5 at sea: held and half-value ships not counted
    state, events = seize(state, world(), cfg)
    assert [e.ship for e in events] == taken
    assert all(state.ship(s).status is Status.HELD for s in taken)
    assert state.sheets[0].ransom == sum(e.ransom for e in events if e.ship.startswith("red"))


def test_L2_a_raid_stops_when_no_ship_is_left_to_take() -> None:
    cfg = config(pirate_take="per_traffic", pirate_take_every=1, pirates_ignore=())  # held ships are takeable
    state = at_sea(replace(game(cfg), turn=1), "red-8", 0.72, 0.66)
    state = at_sea(state, "red-6a", 0.62, 0.45)
    state, events = seize(state, world(), cfg)
    assert [e.ship for e in events] == ["red-8", "red-6a"]  # each once, though held ships are not ignored


def test_L2_R20_a_collision_partner_comes_along_without_counting_towards_the_take() -> None:
    cfg = config(pirate_take="per_traffic", pirate_take_every=3)
    state = replace(at_sea(replace(game(cfg), turn=1), "red-6a", 0.62, 0.30), turn=2)
    state = at_sea(state, "green-6a", 0.60, 0.45)
    state = at_sea(state, "green-8", 0.72, 0.60)  # 10 cm from bosaso
    state = at_sea(state, "red-6b", 0.62, 0.15)  # the farthest
    r = roll(rest("red-6a", 0.54, 0.45), rest("green-6a", 0.54 + 0.016 + 0.0005, 0.45),
             contacts=(("red-6a", "green-6a"),))
    state, _ = apply_roll(state, "red-6a", r, world(), cfg)  # red-6a and green-6a touch by eyl, both lose a turn
    assert raid_size(state, world(), cfg) == 1  # 4 at sea, one for every 3
    state, events = seize(state, world(), cfg)
    assert [(e.ship, e.with_partner_of) for e in events] == [("red-6a", ""), ("green-6a", "red-6a")]
    cfg2 = replace(cfg, pirate_take_every=2)
    state2 = replace(at_sea(replace(game(cfg2), turn=1), "red-6a", 0.62, 0.30), turn=2)
    state2 = at_sea(at_sea(at_sea(state2, "green-6a", 0.60, 0.45), "green-8", 0.72, 0.60), "red-6b", 0.62, 0.15)
    state2, _ = apply_roll(state2, "red-6a", r, world(), cfg2)
    _, events = seize(state2, world(), cfg2)  # two taken, the partner besides
    assert [e.ship for e in events] == ["red-6a", "green-6a", "green-8"]


# -- L3: the move limit ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("limit, movable", [(6, ("red-8",)), (5, ()), (4, ())])
def test_L3_the_move_limit_bounds_a_ships_moves(limit, movable) -> None:
    cfg = config(max_moves=limit)
    state = replace(game(cfg), turn=6)
    state = at_sea(state, "red-8", 0.62, 0.4, moves=5, sailed_turn=5)
    assert throwable(state, cfg) == movable


def test_L3_a_limit_above_the_turns_gives_no_more_moves_unless_the_round_is_longer() -> None:
    longer = config(max_moves=8)
    state = at_sea(replace(game(longer), turn=6), "red-8", 0.62, 0.4, moves=5, sailed_turn=5)
    assert throwable(state, longer) == ("red-8",)
    from somaliland.rules import moves_left

    assert moves_left(state.ship("red-8"), 6, longer) == 1  # turn 6 is the round's last
    assert moves_left(state.ship("red-8"), 6, config(max_moves=8, turns_per_round=8)) == 3


# -- L4: the contract cap ----------------------------------------------------------------------------------------

def test_L4_the_default_total_is_the_fleets_displacement() -> None:
    state = place(game(), "red-8", status=Status.SUNK)
    assert config().contract_cap_total == "fleet"
    assert contract_cap(state, 0, config()) == 66 and contract_cap(state, 1, config()) == 74


@pytest.mark.parametrize("total, cap_rule, red, green", [(60, "afloat", 54, 60), (60, "fleet", 60, 60),
                                                         (90, "afloat", 84, 90), (4, "afloat", 0, 4)])
def test_L4_a_number_replaces_the_total_and_D3_takes_sunk_ships_off_it(total, cap_rule, red, green) -> None:
    cfg = config(contract_cap_total=total, contract_cap=cap_rule)
    state = place(game(cfg), "red-6a", status=Status.SUNK)
    assert (contract_cap(state, 0, cfg), contract_cap(state, 1, cfg)) == (red, green)
    assert start_draft(state, cfg, make_rng(1)).caps == (red, green)


def test_L4_the_total_is_fleet_or_a_whole_number() -> None:
    assert rules_from_dict({"contract_cap_total": 60}).contract_cap_total == 60
    for bad in ("all", 60.5, True, -1):
        with pytest.raises(RulesConfigError, match="contract_cap_total"):
            rules_from_dict({"contract_cap_total": bad})
