"""The ladder from hand-built players tables whose ratings are known."""

import math

import pandas as pd
import pytest

from somaliland.study.ladder import aground_rows, aground_table, ladder_rows, ladder_table, rated


def _table(games: int = 100, search_wins: int = 40):
    """One cell: seat 0 plays search, seats 1-3 ev; search wins `search_wins` games, the ev seats the rest in turn.

    Search: 10 throws a game, 1 aground, 2 of 3 contracts fulfilled, 0.5 CPU s of throwing; ev: 10 throws, 2
    aground, 1 of 2 fulfilled, 0.05 CPU s.
    """
    rows = []
    for g in range(games):
        winner = 0 if g < search_wins else 1 + g % 3
        for seat in range(4):
            search = seat == 0
            rows.append({"cell": 0, "cell_label": "seat.0.strategy=search", "game": g, "players": 4, "seat": seat,
                         "strategy": "search" if search else "ev", "win_share": float(seat == winner),
                         "points": 60.0 if search else 40.0 + g % 2, "groundings": 1 if search else 2, "throws": 10,
                         "fulfilled": 2 if search else 1, "taken": 3 if search else 2,
                         "throw_cpu_s": 0.5 if search else 0.05})
    return pd.DataFrame(rows)


def test_the_ladder_rates_each_strategy_at_its_table():
    rows = {r["strategy"]: r for r in ladder_rows(_table())}
    search, ev = rows["search"], rows["ev"]
    assert (search["seats"], ev["seats"], search["games"]) == (1, 3, 100)
    assert search["win"][0] == pytest.approx(0.40) and search["win"][1] < 0.40 < search["win"][2]
    assert ev["win"][0] == pytest.approx(0.20)  # 60 games won among three seats
    assert search["points"][:3] == (60.0, 60.0, 60.0)  # no spread, a zero-width interval
    assert ev["points"][0] == pytest.approx(40.5)
    assert search["aground"][0] == pytest.approx(0.1) and ev["aground"][0] == pytest.approx(0.2)
    assert search["fulfilled"][0] == pytest.approx(2 / 3) and ev["fulfilled"][0] == pytest.approx(0.5)
    assert search["cpu"][0] == pytest.approx(0.05) and ev["cpu"][0] == pytest.approx(0.005)


def test_the_ladder_table_puts_the_best_win_rate_first_and_needs_timed_decisions():
    table = ladder_table(_table())
    assert table[2].startswith("| seat.0.strategy=search | search | 1 | 100 | 40.0 [")
    assert table[3].startswith("| seat.0.strategy=search | ev | 3 | 100 | 20.0 [")
    assert not rated(_table().drop(columns="throw_cpu_s")) and ladder_table(_table().drop(columns="throw_cpu_s")) == []
    assert not rated(_table().assign(strategy="ev"))


def test_groundings_per_move_over_the_fields_as_played_issue_21_bar_R17():
    """Issue 21's bar ("its groundings per move at most half of ev's"): the strategy's groundings per move over its
    table's field's, both as played, with an interval from resampling games."""
    table = _table()
    table.loc[(table.seat == 0) & (table.game % 2 == 0), "groundings"] = 0  # search: 1 in 20 throws; ev: 1 in 5
    rows = {r["strategy"]: r for r in ladder_rows(table)}
    assert rows["ev"]["vs_field"] is None and rows["ev"]["field"] == "ev"
    value, low, high = rows["search"]["vs_field"]["ratio"]
    assert value == pytest.approx(0.25) and low < 0.25 < high and high - low < 0.3
    assert "| 0.25 [" in ladder_table(table)[2] and "| – (the field) |" in ladder_table(table)[3]
    even = table.assign(strategy=table.seat.map({0: "search", 1: "search", 2: "ev", 3: "ev"}))
    assert all(r["vs_field"] is None and r["field"] is None for r in ladder_rows(even))
    lines = ladder_table(even)
    assert "| – (a) |" in lines[2] and "| – (a) |" in lines[3]  # the reason once, under the table
    assert lines[-1] == "(a) no field: no strategy holds more seats than every other."
    assert sum("no field" in line for line in lines) == 1
    clean = _table().assign(groundings=lambda t: t.groundings.where(t.seat == 0, 0))  # the field never ran aground
    search = next(r for r in ladder_rows(clean) if r["strategy"] == "search")
    assert all(math.isnan(x) for x in search["vs_field"]["ratio"])
    assert "| – (a) |" in ladder_table(clean)[2] and ladder_table(clean)[-1] == "(a) the field never ran aground."
    one = next(r for r in ladder_rows(_table(games=1)) if r["strategy"] == "search")["vs_field"]["ratio"]
    assert one[0] == pytest.approx(0.5) and math.isnan(one[1])  # one game: the ratio, no interval
    assert "| 0.50× (too few games for an interval) |" in ladder_table(_table(games=1))[2]


def test_a_strategy_at_every_seat_is_rated_by_its_first_seat_not_pooled_to_the_fair_share():
    """Four ev seats, seat 0 winning 40 of 100 games: pooled over the seats ev would win 25% by definition."""
    table = _table().assign(strategy="ev", throw_cpu_s=0.05)
    table = pd.concat([table, _table().assign(cell=1, cell_label="other")], ignore_index=True)  # rated: two strategies
    (ev,) = [r for r in ladder_rows(table) if r["cell"] == 0]
    assert ev["win"][0] == pytest.approx(0.40) and ev["first_seat"] == 0 and ev["seats"] == 4
    line = next(line for line in ladder_table(table) if line.startswith("| seat.0.strategy=search | ev | 4 |"))
    assert "| 40.0 [" in line and "(25, seat 0) |" in line


def test_a_share_stays_within_0_and_1():
    table = _table(games=3)
    table.loc[table.seat == 0, "fulfilled"] = [3, 3, 1]  # 7 of 9: a normal interval would reach above 100%
    search = next(r for r in ladder_rows(table) if r["strategy"] == "search")
    assert search["fulfilled"][0] == pytest.approx(7 / 9) and search["fulfilled"][2] == 1.0


def _split(table):
    """Add the groundings split. Search: of 10 throws, 5 on the full-value route and 2 launches, its one grounding
    its own launch on that route. ev: 4 on the full-value route and 3 launches; of its 2 groundings one is its
    own throw at launch on that route, one a ship pushed aground by another's throw."""
    search = table.seat == 0
    return table.assign(throws_full=search.map({True: 5, False: 4}), launches=search.map({True: 2, False: 3}),
                        aground_thrown=1, aground_thrown_full=1, aground_launch=1)


def test_groundings_split_by_route_launch_and_cause_R8_R12_R17_R18():
    rows = {r["strategy"]: r for r in aground_rows(_split(_table()))}
    search, ev = rows["search"], rows["ev"]
    assert search["full"][0][0] == pytest.approx(1 / 5) and search["full"][1] == 500
    assert search["half"][0][0] == pytest.approx(0.0) and search["half"][1] == 500
    assert ev["full"][0][0] == pytest.approx(1 / 4) and ev["half"][0][0] == pytest.approx(0.0)
    assert search["launch"][0][0] == pytest.approx(1 / 2) and ev["launch"][0][0] == pytest.approx(1 / 3)
    assert search["other"][0][0] == pytest.approx(0.0) and ev["other"][0][0] == pytest.approx(0.0)
    assert ev["other"][1] == 2100  # 7 throws of each of 3 seats in 100 games
    assert search["pushed"][0][0] == pytest.approx(0.0) and ev["pushed"][0][0] == pytest.approx(0.1)
    assert search["own"][0][0] == pytest.approx(0.1) and ev["own"][0][0] == pytest.approx(0.1)
    assert search["own_vs_field"]["ratio"] == pytest.approx((1.0, 1.0, 1.0)) and ev["own_vs_field"] is None


def test_own_throws_aground_over_the_fields_leave_the_pushes_of_others_out_R17_R18():
    """Issue 21's bar read as "its moves that ran aground": the search's own throws aground per throw over the
    field's, as played; ships pushed aground by others' throws count in neither."""
    table = _split(_table())
    table.loc[(table.seat == 0) & (table.game % 2 == 0), ["aground_thrown", "aground_thrown_full", "aground_launch",
                                                         "groundings"]] = 0  # search: 1 in 20 throws
    rows = {r["strategy"]: r for r in aground_rows(table)}
    value, low, high = rows["search"]["own_vs_field"]["ratio"]
    assert value == pytest.approx(0.5) and low < 0.5 < high  # ev: 1 own in 10 (its other grounding was a push)
    line = next(l for l in aground_table(table) if "| search |" in l)
    assert "| 5.0 [" in line and "(0.50 [" in line


def test_groundings_split_leaves_out_games_without_its_columns():
    columns = ["throws_full", "launches", "aground_thrown", "aground_thrown_full", "aground_launch"]
    table = _split(_table()).astype({c: float for c in columns})
    table.loc[table.game < 40, columns] = float("nan")
    rows = aground_rows(table)
    assert {r["games"] for r in rows} == {60}
    lines = aground_table(table)
    assert "the full-value route" in lines[0]
    assert lines[2].startswith("| seat.0.strategy=search | ev | 60 | 10.0 [8.7, 11.5] | 25.0 [")
    assert aground_table(_table()) == []  # played before the split columns existed


def test_groundings_at_the_fields_route_mix_take_the_route_mix_out_R8_R17():
    """A strategy that throws exactly as well as the field on each kind of route but sails the riskier one more
    runs aground more per move; at the field's route mix its groundings equal the field's (ratio 1)."""
    table = _table(games=50)
    search = table.seat == 0
    # both: 25% aground on the full-value route, 50% on the other, no ship pushed aground; search sails 8 of its
    # 10 throws on the full-value route (2 + 1 aground), each ev seat 4 of its 10 (1 + 3 aground)
    table = table.assign(throws_full=search.map({True: 8, False: 4}), launches=0, aground_launch=0,
                         aground_thrown_full=search.map({True: 2, False: 1}),
                         aground_thrown=search.map({True: 3, False: 4}), groundings=search.map({True: 3, False: 4}))
    rows = {r["strategy"]: r for r in aground_rows(table)}
    assert rows["ev"]["field"] == "ev" and rows["ev"]["at_field_mix"] is None
    mix = rows["search"]["at_field_mix"]
    assert mix["games"] == 50 and mix["rate"][0] == pytest.approx(0.4)  # raw: 0.3 against 0.4
    assert mix["ratio"] == pytest.approx((1.0, 1.0, 1.0))  # every game alike: no spread
    line = next(l for l in aground_table(table) if "| search |" in l)
    assert line.endswith("| 40.0 [40.0, 40.0] (1.00 [1.00, 1.00]×; 50 games) |")


def test_groundings_at_the_fields_route_mix_say_why_they_are_missing():
    table = _split(_table(games=20))
    one_kind = table.copy()
    one_kind.loc[one_kind.seat == 0, "throws_full"] = 10  # the search seat sails only the full-value route
    search = next(r for r in aground_rows(one_kind) if r["strategy"] == "search")
    assert math.isnan(search["at_field_mix"]["rate"][0])
    lines = aground_table(one_kind)
    assert next(l for l in lines if "| search |" in l).endswith("| – (a) |")
    assert lines[-1] == "(a) no throws on a kind of route the field sails."
    both_one_kind = one_kind.assign(throws_full=10, aground_thrown_full=1)  # everybody on the full-value route only
    mix = next(r for r in aground_rows(both_one_kind) if r["strategy"] == "search")["at_field_mix"]
    assert mix["rate"][0] == pytest.approx(0.1) and mix["ratio"][0] == pytest.approx(0.5)  # the mix is moot
    apart = table.assign(game=table.game + 100 * (table.seat == 0))  # search and ev never at one table
    lines = aground_table(apart)
    assert next(l for l in lines if "| search |" in l).endswith("| – (a) |") and lines[-1] == "(a) no game with the field."
    equal = table[table.seat <= 1]  # one search seat and one ev seat: no field
    assert all(r["field"] is None and r["at_field_mix"] is None for r in aground_rows(equal))
    lines = aground_table(equal)
    assert all(l.endswith("| – (a) |") for l in lines[2:-2])  # the reason said once, under the table
    assert lines[-1] == "(a) no field: no strategy holds more seats than every other."
    never = table.assign(groundings=table.groundings.where(table.seat == 0, 0),
                         aground_thrown=table.aground_thrown.where(table.seat == 0, 0),
                         aground_thrown_full=table.aground_thrown_full.where(table.seat == 0, 0),
                         aground_launch=table.aground_launch.where(table.seat == 0, 0))
    assert "no ratio: the field never ran aground" in next(l for l in aground_table(never) if "| search |" in l)


def test_groundings_at_the_fields_route_mix_interval_is_withheld_when_resamples_are_undefined():
    table = _split(_table(games=5))
    search = table.seat == 0
    # the search seat throws on the other kind of route in one game only: most resamples leave that rate undefined
    table.loc[search, "throws_full"] = [10, 10, 10, 10, 5]
    mix = next(r for r in aground_rows(table) if r["strategy"] == "search")["at_field_mix"]
    assert math.isfinite(mix["rate"][0]) and math.isnan(mix["rate"][1]) and math.isnan(mix["ratio"][2])


def test_the_ladder_front_draws_each_strategy_beside_its_field_and_nothing_without_one(tmp_path):
    """Issue 21: win rate against groundings over the field's, one point per cell and strategy other than the field
    (somaliland/study/figures.py, `ladder_front`); a table without a field, or untimed results, draw nothing."""
    from somaliland.study.figures import ladder_front

    two = pd.concat([_table(), _table(search_wins=20).assign(cell=1, cell_label="seat.0.strategy=search, b=1")])
    assert ladder_front(two, tmp_path / "front.png") == 200
    assert (tmp_path / "front.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    even = _table().assign(strategy=_table().seat.map({0: "search", 1: "search", 2: "ev", 3: "ev"}))
    assert ladder_front(even, tmp_path / "even.png") == 0 and not (tmp_path / "even.png").exists()
    assert ladder_front(_table().drop(columns="throw_cpu_s"), tmp_path / "untimed.png") == 0
    assert ladder_front(_table(games=1), tmp_path / "one.png") == 1  # no interval: drawn hollow, not left out


def test_games_played_before_decisions_were_timed_are_left_out_of_cpu_not_counted_as_zero():
    table = _table()
    table.loc[table.game < 50, "throw_cpu_s"] = float("nan")  # an older chunk, without timing
    rows = {r["strategy"]: r for r in ladder_rows(table)}
    assert rows["search"]["cpu"][0] == pytest.approx(0.05) and rows["ev"]["cpu"][0] == pytest.approx(0.005)
