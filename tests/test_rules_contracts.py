"""Fleets, the deck, the deal, the draft and the cap: R1–R6, R11, D1–D3."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_fixtures import N, S, config, game, place, world
from somaliland.rules import Card, IllegalActionError, Status, contract_cap, drafter, legal_picks, pick
from somaliland.rules.contracts import deal, full_deck, open_draft
from somaliland.rules.fleet import DEFAULT_FLEET, die_spec, fleet_displacement
from somaliland.rules.game import end_round, new_game, start_draft
from somaliland.seeding import make_rng


def test_R1_players_have_the_four_colours_and_ships_are_named_by_colour() -> None:
    state = new_game(config(players=4), make_rng(0))
    assert [s.colour for s in state.sheets] == ["red", "green", "yellow", "blue"]
    assert [s.id for s in state.fleet(3)] == ["blue-6a", "blue-6b", "blue-8", "blue-12", "blue-18", "blue-24"]


def test_R2_D1_the_fleet_displacements_are_6_6_8_12_18_24_total_74() -> None:
    assert [s.displacement for s in DEFAULT_FLEET] == [6, 6, 8, 12, 18, 24]
    assert fleet_displacement(DEFAULT_FLEET) == 74
    die = die_spec(DEFAULT_FLEET[2], 0.016, 0.004)
    assert die.faces == (1, 1, 1, 1, 2, 2) and die.size == (0.016, 0.016, 0.016) and die.pips == 8


def test_R3_the_deck_has_36_cards_each_value_once_north_once_south() -> None:
    deck = full_deck(config())
    assert len(deck) == 36 and len(set(deck)) == 36
    assert sorted(c.value for c in deck if c.direction is N) == list(range(30, 65, 2))
    assert sorted(c.value for c in deck if c.direction is S) == list(range(30, 65, 2))


def test_R4_nine_cards_are_dealt_from_the_shuffled_deck_with_the_passed_generator() -> None:
    deck = full_deck(config())
    a, b = deal(deck, config(), make_rng(7)), deal(deck, config(), make_rng(7))
    assert len(a) == 9 and len(set(a)) == 9 and set(a) <= set(deck)
    assert a == b  # one generator, passed in: same seed, same deal
    assert a != deal(deck, config(), make_rng(8))


def test_R5_players_pick_in_turn_until_all_have_passed() -> None:
    offer = (Card(30, N), Card(40, S), Card(50, N))
    draft = open_draft(offer, (74, 74), first=1)
    assert drafter(draft) == 1
    draft = pick(draft, 1, Card(40, S), config())
    assert drafter(draft) == 0
    draft = pick(draft, 0, None, config())
    draft = pick(draft, 1, Card(30, N), config())
    assert draft.held == ((), (Card(40, S), Card(30, N)))
    assert drafter(draft) is None  # seat 0 passed; seat 1's 70 leaves no card within 74


def test_R5_the_draft_ends_when_no_contracts_are_left() -> None:
    draft = open_draft((Card(30, N),), (74, 74), first=0)
    draft = pick(draft, 0, Card(30, N), config())
    assert drafter(draft) is None and draft.offer == ()


def test_R5_picking_out_of_turn_is_illegal() -> None:
    draft = open_draft((Card(30, N),), (74, 74), first=0)
    with pytest.raises(IllegalActionError, match="seat 0's turn"):
        pick(draft, 1, Card(30, N), config())


def test_D2_a_player_who_passes_is_out_of_the_draft() -> None:
    draft = open_draft((Card(30, N), Card(32, N), Card(34, N)), (74, 74), first=0)
    draft = pick(draft, 0, None, config())
    draft = pick(draft, 1, Card(30, N), config())
    assert drafter(draft) == 1  # seat 0 does not come back


def test_D2_off_a_player_who_passed_may_pick_again_after_someone_picks() -> None:
    cfg = config(draft_pass_is_final=False)
    draft = open_draft((Card(30, N), Card(32, N), Card(34, N)), (74, 74), first=0)
    draft = pick(draft, 0, None, cfg)
    draft = pick(draft, 1, Card(30, N), cfg)
    assert drafter(draft) == 0
    draft = pick(draft, 0, None, cfg)
    draft = pick(draft, 1, None, cfg)
    assert drafter(draft) is None  # everyone passed since the last pick


def test_R6_nobody_may_hold_more_than_their_fleet_displacement() -> None:
    draft = open_draft((Card(30, N), Card(44, S), Card(46, S)), (74, 74), first=0)
    draft = pick(draft, 0, Card(30, N), config())
    draft = pick(draft, 1, None, config())
    assert legal_picks(draft, 0) == (Card(44, S),)  # 30 + 44 = 74 is allowed, 30 + 46 = 76 is not
    with pytest.raises(IllegalActionError) as caught:
        pick(draft, 0, Card(46, S), config())
    assert caught.value.legal == ["44S", "pass"]


def test_D3_the_cap_counts_only_ships_still_afloat() -> None:
    state = game()
    state = place(state, "red-24", status=Status.SUNK)
    assert contract_cap(state, 0, config()) == 50
    assert contract_cap(state, 1, config()) == 74
    assert contract_cap(state, 0, config(contract_cap="fleet")) == 74
    draft = start_draft(state, config(), make_rng(1))
    assert draft.caps == (50, 74)


def test_R11_R4_taken_contracts_leave_the_deck_untaken_ones_stay() -> None:
    state = game(held=((Card(30, N),), (Card(64, S),)))
    state, events = end_round(state, world(), config())
    assert [e.kind for e in events] == ["failed", "failed"]
    assert Card(30, N) not in state.deck and Card(64, S) not in state.deck and len(state.deck) == 34
    kept, _ = end_round(game(config(taken_cards_leave_deck=False), held=((Card(30, N),), ())), world(),
                        config(taken_cards_leave_deck=False))
    assert len(kept.deck) == 36


def test_R4_a_round_deals_from_what_is_left_of_the_deck() -> None:
    state = replace(game(), deck=(Card(30, N), Card(32, S)))
    assert sorted(start_draft(state, config(), make_rng(3)).offer) == [Card(30, N), Card(32, S)]
