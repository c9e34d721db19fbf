"""Result rows from a hand-built game's typed events (engine/events.py): exact values for each table."""

import json
from dataclasses import replace
from types import SimpleNamespace

import pytest

from physics import DieRest, RollResult, Throw
from somaliland.engine.events import (Deal, DraftPick, Final, Header, Placing, Planned, RoundEnd, Score, Stamped, Thrown,
                                      TurnBegun)
from somaliland.map.model import Direction
from somaliland.rules.contracts import Card
from somaliland.rules.events import (Arrived, Collision, Failed, Fulfilled, Grounded, Launched, LostTurn, Released,
                                     Seized, Sunk)
from somaliland.rules.planning import Plan
from somaliland.study.tables import FAILURE_CAUSES, game_tables


class Route:
    """A straight 1 m route along y: progress is y going north."""

    def __init__(self, full_value):
        self.full_value = full_value
        self.centre_line = SimpleNamespace(length=1.0)

    def progress(self, direction, x, y):
        return y if direction is Direction.NORTH else 1.0 - y


WORLD = SimpleNamespace(route={"somalia": Route(True), "africa": Route(False)}.__getitem__)
FLEET = [{"name": "6a", "faces": [1] * 6}, {"name": "24", "faces": [4] * 6}]
ROUTES = [{"name": "somalia", "label": "Gulf of Aden", "full_value": True},
          {"name": "africa", "label": "round Africa", "full_value": False}]
N, S = Direction.NORTH, Direction.SOUTH
N30, S40 = Card(30, N), Card(40, S)


def rest(name, x, y):
    return DieRest(name, (x, y, 0.008), (0.0, 0.0, 0.0, 1.0), 4, 4, 0.0, False)


def throw(seat, thrown, *moved):
    aim = Throw(thrown.name, (0.0, 0.0))
    return Thrown(seat, thrown.name, aim, aim, RollResult(thrown, (thrown, *moved), (), (), (), (), 1.0, 240, False),
                  with_paths=False)


def sheets(*points):
    return RoundEnd(tuple(Score(seat, 0, 0, 0, 0, p) for seat, p in enumerate(points)))


def at(round_, turn, *events):
    return [Stamped(round_, turn, e) for e in events]


def record():
    """Two rounds, two players; red fulfils 30N through Aden in round 1, green's 40S round Africa fails."""
    header = Header(schema=1, version="test", seed=0, map={"routes": ROUTES}, rules={"fleet": FLEET}, physics={},
                    seats=({"seat": 0, "colour": "red", "strategy": "bold"},
                           {"seat": 1, "colour": "green", "strategy": "cautious"}), first_player=1)
    return [
        *at(1, 0, header, Deal(1, ()), DraftPick(1, S40), DraftPick(0, N30), DraftPick(1, None),
            Planned(0, (Plan(N30, "somalia", ("red-6a", "red-24")),)), Planned(1, (Plan(S40, "africa", ("green-24",)),))),
        *at(1, 1, throw(0, rest("red-24", 0.0, 0.25)), Launched("red-24", "somalia", "north"),
            throw(1, rest("green-24", 0.5, 0.9), rest("red-24", 0.0, 0.4)), Launched("green-24", "africa", "south"),
            Collision("green-24", "red-24", "green-24"), Grounded("green-24", (0.5, 0.9)),
            Seized("red-24", "Bosaso", 0.1, 4)),
        *at(2, 0, Fulfilled(0, "30N", "somalia", ("red-6a", "red-24"), True, 30), Failed(1, "40S"), sheets(26.0, 0.0),
            Deal(0, ())),
        *at(3, 0, sheets(26.0, 30.0),
            Final((1,), (Placing(1, "green", 1, 30.0, 0, 60, 1, 0, ""), Placing(0, "red", 2, 26.0, 30, 0, 1, 4, "")))),
    ]


def test_player_rows():
    red, green = game_tables(record(), WORLD)["players"]
    assert red == {"seat": 0, "colour": "red", "order": 1, "strategy": "bold", "points": 26.0, "full": 30.0,
                   "half": 0.0, "ransom": 4.0, "place": 2, "winner": False, "win_share": 0.0, "taken": 1,
                   "taken_full": 1, "taken_half": 0, "fulfilled": 1, "captures": 1, "sunk": 0, "groundings": 0,
                   "collisions_caused": 0, "throws": 1, "throws_full": 1, "launches": 1, "aground_thrown": 0,
                   "aground_thrown_full": 0, "aground_launch": 0}
    assert (green["order"], green["winner"], green["win_share"], green["taken"], green["groundings"],
            green["collisions_caused"], green["taken_half"]) == (0, True, 1.0, 1, 1, 1, 1)


def test_groundings_are_split_by_route_kind_R8_launching_throws_R12_and_cause_R17_R18():
    """Green's launching throw (round Africa, half value) runs aground; a later throw of red's Gulf ship at sea
    runs it aground (on the full-value route, not launching); then red's throw pushes green's ship aground (a
    grounding of green's, but not by green's own throw)."""
    events = record()
    later = at(1, 2, throw(0, rest("red-24", 0.0, 0.5)), Grounded("red-24", (0.0, 0.5)),
               throw(0, rest("red-6a", 0.0, 0.1), rest("green-24", 0.5, 0.95)), Launched("red-6a", "somalia", "north"),
               Grounded("green-24", (0.5, 0.95)))
    events = events[:14] + later + events[14:]  # after turn 1, before the scoring
    red, green = game_tables(events, WORLD)["players"]
    assert (red["throws"], red["throws_full"], red["launches"]) == (3, 3, 2)
    assert (red["groundings"], red["aground_thrown"], red["aground_thrown_full"], red["aground_launch"]) == (1, 1, 1, 0)
    assert (green["throws"], green["throws_full"], green["launches"]) == (1, 0, 1)
    assert (green["groundings"], green["aground_thrown"], green["aground_thrown_full"], green["aground_launch"]) == (
        2, 1, 0, 1)  # one by its own launch, one pushed by red's launch


def relabelled():
    """The same record with scoring lines labelled with the round they end (the engine's labelling since d32713a)."""
    return [replace(s, round=s.round - 1) if isinstance(s.event, (Fulfilled, Failed, RoundEnd)) else s
            for s in record()]


@pytest.mark.parametrize("events", [record(), relabelled()], ids=["next-round-labels", "own-round-labels"])
def test_contract_rows_take_their_round_from_the_deal_not_the_scoring_line(events):
    aden, africa = game_tables(events, WORLD)["contracts"]
    assert aden == {"round": 1, "seat": 0, "card": "30N", "value": 30, "direction": "north", "route": "somalia",
                    "full_route": True, "ships": 2, "displacement": 30, "fulfilled": True, "points": 30.0,
                    "captures": 1, "ransom": 4.0, "strategy": "bold", "launched": 1, "arrived": 0,
                    "arrived_displacement": 0, "failure": "", "failure_causes": ""}
    assert (africa["fulfilled"], africa["points"], africa["displacement"], africa["full_route"]) == (False, 0.0, 24, False)


def test_capture_rows_place_the_ship_where_it_last_rested():
    (capture,) = game_tables(record(), WORLD)["captures"]
    assert capture["progress"] == pytest.approx(0.4)  # pushed to y = 0.4 by green's throw, going north
    assert (capture["seat"], capture["card"], capture["value"], capture["route"], capture["ransom"],
            capture["with_partner"]) == (0, "30N", 30.0, "somalia", 4.0, False)


def test_game_row_counts_lead_changes_at_round_ends():
    (game,) = game_tables(record(), WORLD)["games"]
    assert game == {"players": 2, "throws": 2, "first_player": 1, "winners": "1", "n_winners": 1,
                    "lead_changes": 1, "lead_change": 1.0, "spread": 4.0, "margin": 4.0,
                    "routes": json.dumps(ROUTES),  # the header's, so reports can name the routes
                    "turns": 0, "turns_full_at_sea": 0, "turns_full_at_sea_seized": 0}  # no turn markers here


def fates():
    """Two rounds of two players whose contracts fail each for its own reason, and the raids of round 1's turns.

    Round 1: red's 30N (red-24, Gulf) is seized and never arrives; red's 32N (red-6a) is never launched; green's 40S
    (green-24, Africa) runs aground and is hit; green's 34S (green-6a) sails with no accident and runs out of moves.
    Round 2: red's 36N has no ship; red's 38N's red-24 sinks; green's 42S (green-24) and 44S (green-6a) are pooled,
    both arrive, and 44S takes both ships.
    """
    header = Header(schema=1, version="test", seed=0, map={"routes": ROUTES}, rules={"fleet": FLEET}, physics={},
                    seats=({"seat": 0, "colour": "red", "strategy": "bold"},
                           {"seat": 1, "colour": "green", "strategy": "cautious"}), first_player=0)
    n30, n32, s40, s34 = Card(30, N), Card(32, N), Card(40, S), Card(34, S)
    n36, n38, s42, s44 = Card(36, N), Card(38, N), Card(42, S), Card(44, S)
    return [
        *at(1, 0, header, Deal(0, ()),
            Planned(0, (Plan(n30, "somalia", ("red-24",)), Plan(n32, "somalia", ("red-6a",)))),
            Planned(1, (Plan(s40, "africa", ("green-24",)), Plan(s34, "africa", ("green-6a",))))),
        *at(1, 1, TurnBegun(), throw(0, rest("red-24", 0.0, 0.2)), Launched("red-24", "somalia", "north"),
            throw(1, rest("green-24", 0.5, 0.9)), Launched("green-24", "africa", "south"),
            throw(1, rest("green-6a", 0.6, 0.9)), Launched("green-6a", "africa", "south"),
            Seized("red-24", "Eyl", 0.1, 4)),
        *at(1, 2, TurnBegun(), throw(1, rest("green-24", 0.5, 0.8)), Grounded("green-24", (0.5, 0.8)),
            LostTurn("green-24", "aground")),
        *at(1, 3, TurnBegun(), Released("red-24", "Eyl", (0.1, 0.3)), throw(1, rest("green-6a", 0.6, 0.7)),
            Collision("green-6a", "green-6a", "green-24"), LostTurn("green-24", "lost_turn")),
        *at(2, 0, Failed(0, "30N"), Failed(0, "32N"), Failed(1, "40S"), Failed(1, "34S"), sheets(0.0, 0.0),
            Deal(1, ())),
        *at(2, 0, Planned(0, (Plan(n36, "somalia", ()), Plan(n38, "somalia", ("red-24",)))),
            Planned(1, (Plan(s42, "africa", ("green-24",)), Plan(s44, "africa", ("green-6a",))))),
        *at(2, 1, TurnBegun(), throw(0, rest("red-24", 0.0, 0.2)), Launched("red-24", "somalia", "north"),
            Sunk("red-24", ("green-6a",)), throw(1, rest("green-24", 0.5, 0.1)), Launched("green-24", "africa", "south"),
            Arrived("green-24", "africa", "south"), throw(1, rest("green-6a", 0.5, 0.1)),
            Launched("green-6a", "africa", "south"), Arrived("green-6a", "africa", "south")),
        *at(3, 0, Failed(0, "36N"), Failed(0, "38N"), Failed(1, "42S"),
            Fulfilled(1, "44S", "africa", ("green-24", "green-6a"), False, 22.0), sheets(0.0, 22.0),
            Final((1,), (Placing(1, "green", 1, 22.0, 0, 44, 1, 0, ""), Placing(0, "red", 2, 0.0, 0, 0, 0, 4, "")))),
    ]


def test_each_failed_contract_is_given_one_reason_the_first_of_its_causes_R11():
    rows = {row["card"]: row for row in game_tables(fates(), WORLD)["contracts"]}
    assert {card: (r["failure"], r["failure_causes"]) for card, r in rows.items()} == {
        "30N": ("seized", "seized"), "32N": ("not launched", "not launched"),
        "40S": ("aground", "aground,collision"), "34S": ("out of moves", "out of moves"),
        "36N": ("not sailed", "not sailed"), "38N": ("sunk", "sunk"),
        "42S": ("pooled away", "pooled away"), "44S": ("", "")}
    assert {card: (r["launched"], r["arrived"], r["arrived_displacement"]) for card, r in rows.items()} == {
        "30N": (1, 0, 0), "32N": (0, 0, 0), "40S": (1, 0, 0), "34S": (1, 0, 0),
        "36N": (0, 0, 0), "38N": (1, 0, 0), "42S": (1, 1, 24), "44S": (1, 1, 6)}
    assert set(FAILURE_CAUSES) >= {r["failure"] for r in rows.values() if r["failure"]}


def test_a_raid_row_per_turn_counts_the_full_value_ships_at_sea_and_what_the_pirates_took_R13():
    tables = game_tables(fates(), WORLD)
    raids = [(r["round"], r["turn"], r["full_at_sea"], r["full_displacement_at_sea"], r["seized"], r["seized_full"],
              r["ransom"], r["ransom_full"]) for r in tables["raids"]]
    assert raids == [(1, 1, 1, 24, 1, 1, 4.0, 4.0),  # red-24 at sea, seized
                     (1, 2, 0, 0, 0, 0, 0.0, 0.0),  # red-24 held; Africa ships do not count
                     (1, 3, 0, 0, 0, 0, 0.0, 0.0),  # red-24 released: held to the turn's end, raid included (D8)
                     (2, 1, 0, 0, 0, 0, 0.0, 0.0)]  # red-24 sank
    (game,) = tables["games"]
    assert (game["turns"], game["turns_full_at_sea"], game["turns_full_at_sea_seized"]) == (4, 1, 1)
