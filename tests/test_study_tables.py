"""Result rows from a hand-built game record (engine/RECORD.md): exact values for each table."""

import json
from types import SimpleNamespace

import pytest

from somaliland.map.model import Direction
from somaliland.study.tables import game_tables


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


def rest(name, x, y):
    return {"name": name, "position": [x, y, 0.008]}


def record():
    """Two rounds, two players; red fulfils 30N through Aden in round 1, green's 40S round Africa fails."""
    return [
        {"kind": "game", "round": 1, "turn": 0, "first_player": 1, "rules": {"fleet": FLEET}, "map": {"routes": ROUTES},
         "seats": [{"seat": 0, "colour": "red", "strategy": "bold"}, {"seat": 1, "colour": "green", "strategy": "cautious"}]},
        {"kind": "deal", "round": 1, "turn": 0, "first_player": 1},
        {"kind": "draft_pick", "round": 1, "turn": 0, "seat": 1, "card": "40S"},
        {"kind": "draft_pick", "round": 1, "turn": 0, "seat": 0, "card": "30N"},
        {"kind": "draft_pick", "round": 1, "turn": 0, "seat": 1, "card": None},
        {"kind": "plan", "round": 1, "turn": 0, "seat": 0, "plans": [{"card": "30N", "route": "somalia", "ships": ["red-6a", "red-24"]}]},
        {"kind": "plan", "round": 1, "turn": 0, "seat": 1, "plans": [{"card": "40S", "route": "africa", "ships": ["green-24"]}]},
        {"kind": "throw", "round": 1, "turn": 1, "seat": 0, "result": {"thrown": rest("red-24", 0.0, 0.25), "moved": []}},
        {"kind": "launched", "round": 1, "turn": 1, "ship": "red-24", "route": "somalia", "direction": "north"},
        {"kind": "throw", "round": 1, "turn": 1, "seat": 1,
         "result": {"thrown": rest("green-24", 0.5, 0.9), "moved": [rest("red-24", 0.0, 0.4)]}},
        {"kind": "launched", "round": 1, "turn": 1, "ship": "green-24", "route": "africa", "direction": "south"},
        {"kind": "collision", "round": 1, "turn": 1, "causer": "green-24", "a": "red-24", "b": "green-24"},
        {"kind": "grounded", "round": 1, "turn": 1, "ship": "green-24", "at": [0.5, 0.9]},
        {"kind": "seized", "round": 1, "turn": 1, "ship": "red-24", "port": "Bosaso", "distance": 0.1, "ransom": 4,
         "with_partner_of": ""},
        {"kind": "fulfilled", "round": 2, "turn": 0, "seat": 0, "card": "30N", "route": "somalia",
         "ships": ["red-6a", "red-24"], "full_value": True, "points": 30},
        {"kind": "failed", "round": 2, "turn": 0, "seat": 1, "card": "40S"},
        {"kind": "round_end", "round": 2, "turn": 0, "sheets": [{"seat": 0, "points": 26.0}, {"seat": 1, "points": 0.0}]},
        {"kind": "deal", "round": 2, "turn": 0, "first_player": 0},
        {"kind": "round_end", "round": 3, "turn": 0, "sheets": [{"seat": 0, "points": 26.0}, {"seat": 1, "points": 30.0}]},
        {"kind": "final", "round": 3, "turn": 0, "winners": [1], "table": [
            {"seat": 1, "place": 1, "points": 30.0, "full": 0, "half": 60, "fulfilled": 1, "ransom": 0},
            {"seat": 0, "place": 2, "points": 26.0, "full": 30, "half": 0, "fulfilled": 1, "ransom": 4}]},
    ]


def test_player_rows():
    red, green = game_tables(record(), WORLD)["players"]
    assert red == {"seat": 0, "colour": "red", "order": 1, "strategy": "bold", "points": 26.0, "full": 30.0,
                   "half": 0.0, "ransom": 4.0, "place": 2, "winner": False, "win_share": 0.0, "taken": 1,
                   "taken_full": 1, "taken_half": 0, "fulfilled": 1, "captures": 1, "sunk": 0, "groundings": 0,
                   "collisions_caused": 0, "throws": 1}
    assert (green["order"], green["winner"], green["win_share"], green["taken"], green["groundings"],
            green["collisions_caused"], green["taken_half"]) == (0, True, 1.0, 1, 1, 1, 1)


def relabelled():
    """The same record with scoring lines labelled with the round they end (the engine's labelling since d32713a)."""
    events = record()
    for e in events:
        if e["kind"] in ("fulfilled", "failed", "round_end"):
            e["round"] -= 1
    return events


@pytest.mark.parametrize("events", [record(), relabelled()], ids=["next-round-labels", "own-round-labels"])
def test_contract_rows_take_their_round_from_the_deal_not_the_scoring_line(events):
    aden, africa = game_tables(events, WORLD)["contracts"]
    assert aden == {"round": 1, "seat": 0, "card": "30N", "value": 30, "direction": "north", "route": "somalia",
                    "full_route": True, "ships": 2, "displacement": 30, "fulfilled": True, "points": 30.0,
                    "captures": 1, "ransom": 4.0, "strategy": "bold"}
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
