"""Shipped maps load and check clean; the default board matches the geography it was drawn from."""

import math
from pathlib import Path

import pytest
from shapely import Point

from somaliland.boards import default_board
from somaliland.map import Direction, Map, MapError, default_map, load, loads, problems, resolve, shipped_maps
from somaliland.map.document import to_document
from somaliland.map.locate import find_line, line_index
from somaliland.map.write import dumps


def lonlat(lon: float, lat: float) -> tuple[float, float]:
    """The default board's projection (board 2.0, maps/tools/board.py), in metres."""
    return (lon - 22) * 0.75 / 40, (lat + 8) * 0.90 / 41


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.name)
def test_every_shipped_map_loads_and_checks_clean(path):
    assert problems(path) == []
    m = load(path)
    assert isinstance(m, Map)
    assert {r.name for r in m.routes} == {"somalia", "africa"}  # the keys game records use, kept in format 2
    assert m.route("somalia").full_value and not m.route("africa").full_value
    assert len(m.sha256) == 64
    assert "format = 2" in path.read_text(encoding="utf-8")
    assert all(r.label not in ("", r.name) for r in m.routes)  # every shipped route is labelled for people


EXPERIMENT_BOARDS = sorted((Path(__file__).resolve().parents[1] / "experiments" / "boards").glob("*.toml"))


@pytest.mark.parametrize("path", EXPERIMENT_BOARDS, ids=lambda p: p.name)
def test_every_board_kept_for_the_experiments_checks_clean(path):
    """Board 1.0 and board 2.0 detuned are the tunings' starts: they must stay playable maps."""
    assert problems(path) == []
    assert load(path).route("somalia").full_value


def test_both_boards_are_shipped():
    assert {p.name for p in shipped_maps()} >= {"horn-of-africa.toml", "tiny.toml"}


def test_default_map_is_the_horn_of_africa_in_si_units():
    m = default_map()
    assert m.name == "Horn of Africa"
    assert (m.width, m.depth) == pytest.approx((0.75, 0.90))
    assert m.thickness == pytest.approx(0.003)
    assert default_map() is m  # loaded once


def test_pirate_ports_sit_at_their_historical_bases():
    m = default_map()
    ports = {p.name: p.point for p in m.pirate_ports}
    expected = {"Eyl": (49.82, 7.98), "Hobyo": (48.52, 5.35), "Harardhere": (47.86, 4.65)}
    assert set(ports) == set(expected) | {"Bosaso"}
    for name, (lon, lat) in expected.items():
        assert ports[name] == pytest.approx(lonlat(lon, lat), abs=1e-4), name
    # Bosaso's coast gave way to the Red Sea channel (board 3.0): the port moved onto the coast left, 2.7 cm off
    bosaso = Point(ports["Bosaso"])
    assert m.land.distance(bosaso) < 1e-4 and bosaso.distance(Point(lonlat(49.18, 11.28))) < 0.03


def test_somalia_route_runs_suez_to_mombasa_past_the_straits_and_the_cape():
    m = default_map()
    somalia = m.route("somalia")
    line = somalia.centre_line
    assert Point(line.coords[0]).distance(Point(lonlat(39.7, -4.0))) < 0.05  # south end off Mombasa
    assert Point(line.coords[-1]).distance(Point(lonlat(32.55, 29.97))) < 0.02  # north end at Suez
    assert line.distance(Point(lonlat(43.4, 12.6))) < 0.01  # through Bab-el-Mandeb
    assert line.distance(Point(lonlat(51.3, 11.8))) < 0.04  # round Cape Guardafui ...
    cape = line.project(Point(lonlat(51.3, 11.8)))
    assert max(x for x, _ in line.coords) > lonlat(51.3, 11.8)[0]  # ... on its seaward side
    assert line.project(Point(lonlat(43.4, 12.6))) > cape  # Mombasa, the cape, then the straits
    assert somalia.north.destination.covers(Point(lonlat(32.6, 29.8)))
    assert somalia.south.destination.distance(Point(lonlat(39.7, -4.0))) < 0.03


def test_africa_route_is_out_of_pirate_reach_and_the_long_way_round_D18():
    m = default_map()
    africa, somalia = m.route("africa"), m.route("somalia")
    nearest = min(africa.centre_line.distance(Point(p.point)) for p in m.pirate_ports)
    assert nearest > 0.20
    assert min(somalia.centre_line.distance(Point(p.point)) for p in m.pirate_ports) < 0.03
    assert africa.centre_line.length >= somalia.centre_line.length  # D18: the safe way is the long way round
    assert africa.north.destination.covers(Point(lonlat(26.0, 30.5)))  # the Mediterranean off Alexandria
    assert africa.south.destination.distance(Point(lonlat(39.3, -6.8))) < 0.03  # off Dar es Salaam


def test_legs_start_at_sea_and_progress_grows_the_way_they_sail():
    m = default_map()
    for route in m.routes:
        for direction in Direction:
            leg = route.leg(direction)
            assert not m.is_land(*leg.start)
            assert not leg.destination.covers(Point(leg.start))
            ahead = (leg.start[0] + 0.02 * math.cos(leg.heading), leg.start[1] + 0.02 * math.sin(leg.heading))
            assert route.progress(direction, *ahead) > route.progress(direction, *leg.start)


def test_land_and_sea_where_the_map_says():
    m = default_map()
    assert m.is_land(*lonlat(44.0, 5.0))  # the Ogaden (its north gave way to the Red Sea channel, board 3.0)
    assert m.is_land(*lonlat(45.0, 22.0))  # Arabia
    assert not m.is_land(*lonlat(55.0, 5.0))  # the Indian Ocean
    assert not m.is_land(*lonlat(47.0, 12.3))  # the Gulf of Aden
    assert not m.is_land(*lonlat(38.5, 20.0))  # the Red Sea


def test_default_board_is_the_default_maps_board():
    assert default_board() == default_map().board()


def test_tiny_map_has_a_lagoon_and_raised_rock():
    m = load("maps/tiny.toml")
    isle = next(land for land in m.lands if land.name == "Isle")
    assert not m.is_land(0.15, 0.20)  # the lagoon is water
    assert m.is_land(0.11, 0.20)
    assert len(isle.polygon.interiors) == 1
    board = m.board()
    assert len(board.relief) == 1 and board.relief[0].height == pytest.approx(0.002)
    assert board.relief_height(0.15, 0.36) == pytest.approx(0.002)


def test_map_written_back_to_toml_loads_as_the_same_map():
    m = default_map()
    again = loads(dumps(to_document(m)), "round-trip")
    assert [land.name for land in again.lands] == [land.name for land in m.lands]
    for a, b in zip(again.lands, m.lands):
        assert a.polygon.symmetric_difference(b.polygon).area < 1e-8
    for a, b in zip(again.routes, m.routes, strict=True):
        assert (a.name, a.label, a.full_value) == (b.name, b.label, b.full_value)
        assert a.centre_line.equals_exact(b.centre_line, 1e-6)
        assert a.north.heading == pytest.approx(b.north.heading, abs=1e-3)
        assert a.south.destination.equals(b.south.destination) and a.south.zone == b.south.zone
    assert again.pirate_ports == m.pirate_ports


def test_windows_line_ends_and_byte_order_mark_are_fine():
    text = open("maps/tiny.toml", encoding="utf-8").read()
    m = loads(("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8"), "windows.toml")
    assert m.name == "Tiny"


def test_missing_file_is_a_map_error_naming_the_shipped_maps():
    with pytest.raises(MapError) as err:
        load("maps/no-such-map.toml")
    assert err.value.file == "maps/no-such-map.toml"
    assert err.value.expected == "a map file, or a shipped map's name (horn-of-africa, tiny)"


SHIPPED = Path(__file__).resolve().parents[1] / "maps"


@pytest.mark.parametrize("name, shipped", [("tiny", "tiny.toml"), ("tiny.toml", "tiny.toml"),
                                           ("maps/tiny.toml", "tiny.toml"), ("horn-of-africa", "horn-of-africa.toml")])
def test_a_shipped_map_is_found_by_its_name_from_any_folder(tmp_path, monkeypatch, name, shipped):
    monkeypatch.chdir(tmp_path)
    assert resolve(name) == SHIPPED / shipped
    assert load(name).sha256 == load(SHIPPED / shipped).sha256 and problems(name) == []


def test_a_users_own_file_comes_before_a_shipped_map_of_its_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    own = (SHIPPED / "tiny.toml").read_text(encoding="utf-8").replace('name = "Tiny"', 'name = "Mine"', 1)
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tiny.toml").write_text(own, encoding="utf-8")
    assert resolve("maps/tiny.toml") == Path("maps/tiny.toml") and load("maps/tiny.toml").name == "Mine"


@pytest.mark.parametrize("name", ["../maps/tiny", "other/tiny.toml", "tiny.svg", "tiny.json", "map.schema"])
def test_only_a_shipped_map_s_bare_name_or_maps_path_is_looked_up(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    assert resolve(name) == Path(name)
    with pytest.raises(MapError, match="shipped map's name"):
        load(name)


def test_line_index_finds_keys_headers_and_array_elements():
    text = 'a = 1\n[t]\nb = [\n  [1, 2], [3, 4],\n  [5, 6],\n]\n[[arr]]\nc = "x"\n[[arr]]\nc = { d = [1, 2] }\n'
    index = line_index(text)
    assert index[("a",)] == 1 and index[("t",)] == 2 and index[("t", "b")] == 3
    assert index[("t", "b", 1)] == 4 and index[("t", "b", 2)] == 5 and index[("t", "b", 2, 1)] == 5
    assert index[("arr", 0, "c")] == 8 and index[("arr", 1, "c")] == 10 and index[("arr", 1, "c", "d")] == 10
    assert find_line(index, ("arr", 1, "c", "d", 7)) == 10
    assert find_line(index, ("nothing",)) is None


TINY_FORMAT1 = "tests/data/tiny-format1.toml"  # maps/tiny.toml as it was in format 1


def test_a_format1_file_reads_as_it_always_did():
    old, new = load(TINY_FORMAT1), load("maps/tiny.toml")
    assert [(r.name, r.label, r.full_value) for r in old.routes] == [("somalia", "somalia", True),
                                                                      ("africa", "africa", False)]
    for a, b in zip(old.routes, new.routes, strict=True):
        assert a.centre_line.equals(b.centre_line) and a.north == b.north and a.south == b.south
    assert [land.name for land in old.lands] == [land.name for land in new.lands]


def test_R8_format1_full_value_defaults_by_route_name():
    text = open(TINY_FORMAT1, encoding="utf-8").read()
    m = loads(text.replace("full_value = true\n", "").replace("full_value = false\n", ""), "defaults.toml")
    assert m.route("somalia").full_value and not m.route("africa").full_value


STRAITS = "tests/data/straits.toml"  # routes `ocean` (half value, listed first) and `strait` (full value)


def test_format2_routes_take_any_name_in_file_order_with_labels():
    m = load(STRAITS)
    assert [(r.name, r.label, r.full_value) for r in m.routes] == [("ocean", "open ocean", False),
                                                                    ("strait", "the Strait", True)]
    assert m.route("strait").title == "the Strait (full value)" and m.route("ocean").title == "open ocean (half value)"


def test_a_route_without_a_label_is_called_by_its_name():
    text = open(STRAITS, encoding="utf-8").read().replace('label = "open ocean"\n', "")
    route = loads(text, "unlabelled.toml").route("ocean")
    assert (route.label, route.display_name, route.title) == ("ocean", "ocean", "ocean (half value)")


def without_route(text: str, name: str) -> str:
    """Return a map file's text without the route `name` (its table and its two legs)."""
    start = text.index(f"[routes.{name}]")
    ends = [i for i in (text.find("[routes.", text.index(f"[routes.{name}.south]") + 1), text.find("[[pirate_port]]"))
            if i > start]
    return text[:start] + text[min(ends):]


def test_a_map_may_have_routes_of_one_kind_only():
    m = loads(without_route(open(STRAITS, encoding="utf-8").read(), "ocean"), "one-route.toml")
    assert [(r.name, r.full_value) for r in m.routes] == [("strait", True)]


def test_a_map_with_no_route_is_refused():
    text = open(STRAITS, encoding="utf-8").read()
    found = problems_of(without_route(without_route(text, "ocean"), "strait").replace("format = 2\n",
                                                                                    "format = 2\nroutes = {}\n"))
    assert [(p.path, p.expected, p.found) for p in found] == [(("routes",), "at least 1 entry", "an empty table")]


def problems_of(text: str) -> list:
    with pytest.raises(MapError) as err:
        loads(text, "bad.toml")
    return list(err.value.problems)


def test_a_map_is_hashed_once_and_its_hash_is_not_pickled(monkeypatch):
    """Maps key the rules' and players' geometry caches: hashing one must not hash every land's polygon again."""
    import pickle
    from dataclasses import fields

    from somaliland.map.model import Land

    board = load(shipped_maps()[0])
    hashed = []
    monkeypatch.setattr(Land, "__hash__", lambda land: hashed.append(land) or hash(land.name))
    first = hash(board)
    assert hashed and hash(board) == first and len(hashed) == len(board.lands)  # the second time: none
    assert first == hash(tuple(getattr(board, f.name) for f in fields(board)))
    again = pickle.loads(pickle.dumps(board))
    assert "_hash" not in again.__dict__ and again == board and hash(again) == first
