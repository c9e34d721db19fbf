"""The answer a study report opens with: the designers' question, answered from the results, with confidence.

Which answers apply is read off the results, not declared in the study file:

- rounds: a player count played with more than one number of rounds (R23) -> which number to play;
- skill: a `seatN_skill` sweep -> how far a player's throw skill moves their win rate;
- routes: contracts sailed on both kinds of route -> per map, by player count and contract value, which kind
  nets more (R8), the routes named by the map (`routenames`); a value band with fewer than MIN_PER_SIDE
  contracts on a side says so, with the counts; a map with both kinds whose contracts all went one way too;
- variants: a swept rules option or map -> what each value changes against the first (points, ransom,
  contracts fulfilled, routes, length, balance), per player count;
- strategies: different strategies at one table -> how often each wins, per cell;
- seats: identical players at every seat, and none of the above -> the first-player advantage (R7).

Every report also says who played the games (`players_context`): the answers describe the game *as the
built-in AI players play it*, and how well they play (contracts fulfilled, throws aground, routes sailed)
is part of what a designer must know before trusting an answer.

Games on different maps are never pooled: in a study that sweeps the map, every answer but the map's own
(which compares the maps) is given per map ("2 players, on tiny: ..."). A test that the games are too few
for is not left out silently: the answer says so, with the count and what it needs.

All functions are pure: pandas tables in, Markdown bullet texts out. Intervals are 95%, with games as the units:
Wilson for win rates, Welch normal for differences of per-game means, a bootstrap over games for the routes'
net points (`economics`), the normal interval of a least-squares slope.
"""

from __future__ import annotations

import math
import re

from somaliland.map.model import route_title, value_words
from somaliland.study.economics import MIN_PER_SIDE, band_gaps, crossing, panels
from somaliland.study.frames import route_table, seat_kind
from somaliland.study.routenames import kind_label, kind_name, kind_title, offered, per_map
from somaliland.study.stats import balance, difference_ci, fair_balance, holm, slope_ci, wilson

ALPHA = 0.05


def pct(x: float | None) -> str:
    """Return a share as a percentage with one decimal, or n/a."""
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _ci(lo: float, hi: float) -> str:
    return f"[{pct(lo)}, {pct(hi)}]"


def _equal_wins_p(wins) -> float:
    """Return the χ² p-value of 'these groups win equally often' (wins per group), or NaN when there are fewer
    than 5 wins a group to test."""
    from scipy.stats import chisquare

    if wins.sum() < 5 * len(wins):
        return math.nan
    return float(chisquare(wins).pvalue)


def _positions_p(rows, k: int) -> float:
    """Return the χ² p-value of 'every turn position of round 1 wins equally often' in one cell."""
    return _equal_wins_p(rows.groupby("order").win_share.sum().reindex(range(k), fill_value=0.0).to_numpy())


def by_seat(rows) -> tuple[str, float]:
    """Return each seat's win rate in one cell, named by colour when known ("red 25.1% / ..."), and the χ² p-value
    of 'every seat wins equally often' (NaN when too few wins to test).

    Seats are fixed colours and turn order is drawn per game (D4), so between identical players a seat that wins
    more than its share points to something tied to the seat itself, not to the turn order.
    """
    games = rows.game.nunique()
    wins = rows.groupby("seat").win_share.sum()
    names = rows.groupby("seat").colour.first() if "colour" in rows else wins.index.map(lambda s: f"seat {s}")
    rates = " / ".join(f"{name} {pct(w / games)}" for name, w in zip(names, wins))
    return rates, _equal_wins_p(wins.to_numpy())


def skill_columns(players) -> list[tuple[str, int]]:
    """Return the swept seat-skill columns of a players table, as (column, seat)."""
    return [(c, int(m.group(1))) for c in players.columns if (m := re.fullmatch(r"seat(\d)_skill", c))]


def identical_seats(players) -> bool:
    """Return True when, in every game, all seats play the same strategy with the same skill."""
    if players.empty:
        return False
    per_game = players.groupby(["cell", "game"])
    return not bool((per_game.strategy.nunique() > 1).any() or (per_game.skill.nunique() > 1).any())


def answers(tables: dict) -> list[str]:
    """Return the answer bullets that apply to these results (see the module docstring), context last."""
    players, games, contracts = tables["players"], tables["games"], tables["contracts"]
    if games.empty:
        return []
    out = rounds_answer(players, games)
    for column in swept_variants(games):
        out += variant_answer(players, games, contracts, column)
    for column, seat in skill_columns(players):
        out += skill_answer(players, column, seat)
    routes = routes_answer(contracts, games)
    strategies = [] if skill_columns(players) else strategies_answer(players)
    if any(c.endswith("strategy") for c in games.columns):  # a study that sweeps strategies asks about them first
        out += strategies + routes
    else:
        out += routes + strategies
    if not out and identical_seats(players):
        out += seats_answer(players, games)
    if not routes:
        out += routes_not_compared(contracts, games)
    return out + players_context(players, contracts, games)


def on_each_map(games, *tables):
    """Yield (", on MAP", games, *tables) for each map the games were played on; ("", games, *tables) for one.

    Rows of the other tables go with their map (by their `map` column, else by their cell)."""
    maps = sorted(games["map"].unique()) if "map" in games and games["map"].nunique() > 1 else []
    if not maps:
        yield "", games, *tables
        return
    for name in maps:
        g = games[games["map"] == name]
        yield f", on {name}", g, *(_rows_on(t, name, set(g.cell)) for t in tables)


def _rows_on(table, name: str, cells: set):
    """Return a table's rows played on one map."""
    if "map" in table:
        return table[table["map"] == name]
    return table[table.cell.isin(cells)] if "cell" in table else table


def _chi2(p: float, too_few: str) -> str:
    """Return a χ² test's p-value as written in an answer, or why it was not made."""
    return too_few if math.isnan(p) else f"χ² p = {p:.2g}"


def too_few_for_chi2(games: int, k: int) -> str:
    """Return why a χ² test over k turn positions or seats was not made: too few games (it needs 5 wins each)."""
    return f"too few games for a χ² test ({games}; at least {5 * k})"


def rounds_answer(players, games) -> list[str]:
    """R23: for a player count played with several numbers of rounds, recommend one.

    A number of rounds is a candidate when its turn positions win equally often: neither the χ² test of
    equal win rates by turn position nor the binomial test of the first player's (who starts the most
    rounds when the rounds do not divide among the players, R7) finds a difference at p < 0.05. Among the
    candidates the recommendation is the one whose throws per player come closest to those of the other
    player counts in the study (the games as designed), so that a game is as long for each player.
    """
    out = []
    for where, on_map, on_map_players in on_each_map(games, players):
        out += _rounds_on_one_map(on_map_players, on_map, where)
    return out


def _rounds_on_one_map(players, games, where: str) -> list[str]:
    """Return `rounds_answer` for the games of one map (`where`: ", on MAP" or "")."""
    out = []
    for k, kgames in games.groupby("players"):
        if kgames.rounds.nunique() < 2:
            continue
        refs = games[games.players != k]
        ref_pp = (refs.throws / refs.players).mean() if len(refs) else math.nan
        rows = []
        for r, g in kgames.groupby("rounds"):
            p = players[(players.players == k) & (players.rounds == r)]
            b = balance(p, g)
            positions = _positions_p(p, int(k))
            tests = [b.advantage_p1_p] + ([] if math.isnan(positions) else [positions])
            # one or two tests per cell: Bonferroni within the cell, then Holm across the cells below
            rows.append({"rounds": int(r), "b": b, "p": min(1.0, len(tests) * min(tests)),
                         "per_player": b.duration / k, "untested": math.isnan(positions),
                         "fair": fair_balance(b.games, int(k))})
        for row, adjusted in zip(rows, holm([row["p"] for row in rows])):
            row["p_adj"] = adjusted
        fair = [row for row in rows if not (row["p_adj"] < ALPHA)]
        pool = fair or rows
        if math.isnan(ref_pp):
            best = max(pool, key=lambda row: row["b"].balance)
            why = "the highest Balance (there are no other player counts to compare lengths with)"
        else:
            best = min(pool, key=lambda row: abs(row["per_player"] - ref_pp))
            why = (f"its {best['per_player']:.1f} throws per player come closest to the "
                   f"{ref_pp:.1f} of the {', '.join(str(int(n)) for n in sorted(refs.players.unique()))}-player "
                   f"games as designed")
        unfair = [row for row in rows if row["p_adj"] < ALPHA]
        hints = [row for row in rows if row["p"] < ALPHA and row["p_adj"] >= ALPHA]
        verdict = ("no number of rounds shows a turn-order effect (χ² of equal win rates by turn position and "
                   "binomial test of P1's, Holm-corrected across the numbers of rounds, p ≥ 0.05)" if not unfair else
                   "turn order matters with " + ", ".join(f"{row['rounds']} rounds (p = {row['p_adj']:.2g}, "
                                                          f"Holm-corrected)" for row in unfair))
        if hints:
            verdict += ("; " + ", ".join(f"{row['rounds']} rounds" for row in hints)
                        + " differ before correction (p = " + ", ".join(f"{row['p']:.2g}" for row in hints)
                        + "): more games would tell")
        detail = "; ".join(
            f"{row['rounds']} rounds: P1 {pct(row['b'].advantage_p1)} {_ci(*row['b'].advantage_p1_ci)}, "
            f"Balance {row['b'].balance:.2f} (fair game ≈ {row['fair']:.2f}), {row['b'].duration:.0f} throws, "
            f"LeadChange {row['b'].lead_change:.2f}, spread {row['b'].spread:.0f} points, {row['b'].games} games"
            + (f" (turn positions: {too_few_for_chi2(row['b'].games, int(k))}; P1's binomial test only)"
               if row["untested"] else "")
            for row in rows)
        out.append(f"**{k} players{where}: play {best['rounds']} rounds.** Balance: {verdict}. Chosen because {why}. "
                   f"Per number of rounds — {detail}.")
        equal_starts = [row["rounds"] for row in rows if row["rounds"] % k == 0]
        if equal_starts:
            out.append(f"With {' or '.join(str(r) for r in equal_starts)} rounds every one of the {k} players starts "
                       f"the same number of rounds (R7); the turn-position rates above measure whether starting "
                       f"more often matters at all.")
    return out


def swept_variants(games) -> list[str]:
    """Return the swept columns that are a rules option (other than players and rounds), the map or a physics
    setting (`physics_rate_hz`: does the simulation's fidelity move the answers?)."""
    from somaliland.rules.config import field_names

    names = set(field_names()) - {"players", "rounds"} | {"map"}
    return [c for c in games.columns if (c in names or c.startswith("physics_")) and games[c].nunique() > 1
            and games.groupby("cell")[c].nunique().max() == 1]  # a cell's setting, not a game's outcome


def variant_answer(players, games, contracts, column: str) -> list[str]:
    """What each value of a swept rules option, map or physics setting changes against the first value, per player
    count: points per player (the verdict), ransom, contracts fulfilled, routes, and, with 95% intervals, game
    length and throws aground (the measures a physics setting moves first)."""
    if column == "map":
        return _variant_on_one_map(players, games, contracts, column, "")
    out = []
    for where, on_map, on_map_players, on_map_contracts in on_each_map(games, players, contracts):
        out += _variant_on_one_map(on_map_players, on_map, on_map_contracts, column, where)
    return out


def _variant_on_one_map(players, games, contracts, column: str, where: str) -> list[str]:
    """Return `variant_answer` for the games of one map (`where`: ", on MAP" or ""), or across maps for the map."""
    out = []
    first = games.sort_values("cell")[column].iloc[0]
    for k, kgames in games.groupby("players"):
        values = list(dict.fromkeys(kgames.sort_values("cell")[column]))
        if len(values) < 2:
            continue
        rows = {}
        for v in values:
            g = kgames[kgames[column] == v]
            p, c = players[players.cell.isin(set(g.cell))], contracts[contracts.cell.isin(set(g.cell))]
            sailed = c[c.ships > 0]
            per_game = p.groupby(["cell", "game"])  # games are the units: a game's seats are not independent
            rows[v] = {"points": per_game.points.mean(), "ransom": p.ransom.mean(),
                       "fulfilled": p.fulfilled.sum() / max(p.taken.sum(), 1),
                       "full": sailed.full_route.mean() if len(sailed) else math.nan, "throws": g.throws,
                       "full_label": kind_label(g, True),
                       "aground": per_game.groundings.mean(),
                       "balance": balance(p, g).balance, "games": len(g)}
        base = first if first in rows else values[0]
        b = rows[base]
        for v in values:
            if v == base:
                continue
            r = rows[v]
            d, lo, hi = difference_ci(r["points"], b["points"])
            verdict = ("more points" if lo > 0 else "fewer points" if hi < 0 else
                       "points consistent with no change")
            length, aground = (_change(r[key], b[key]) for key in ("throws", "aground"))
            out.append(f"**{k} players{where}, {column} = {v} against {base}: {verdict}** — points per player "
                       f"{r['points'].mean():+.1f} vs {b['points'].mean():+.1f} ({d:+.1f} [{lo:+.1f}, {hi:+.1f}]); "
                       f"ransom per player {r['ransom']:.1f} vs {b['ransom']:.1f}; contracts fulfilled "
                       f"{pct(r['fulfilled'])} vs {pct(b['fulfilled'])}; {_full_share(r, b)}; {length} throws a game; "
                       f"{aground} throws aground per player; Balance "
                       f"{r['balance']:.2f} vs {b['balance']:.2f} ({r['games']} and {b['games']} games).")
    return out


def _full_share(r: dict, b: dict) -> str:
    """Return the share of sailed contracts on the full-value route in two sets of games, the route named by its
    map in each ("sailed the Strait (full value) 40.0% vs 30.0%"; on two maps, each with its own name)."""
    if r["full_label"] and r["full_label"] == b["full_label"]:
        return f"sailed {route_title(r['full_label'], True)} {pct(r['full'])} vs {pct(b['full'])}"
    named = (f" ({label})" if label else "" for label in (r["full_label"], b["full_label"]))
    return f"sailed the full-value route {pct(r['full'])}{next(named)} vs {pct(b['full'])}{next(named)}"


def _change(values, base) -> str:
    """Return 'mean vs base mean (difference [95% CI])' of one measure in two sets of games."""
    d, lo, hi = difference_ci(values, base)
    return f"{values.mean():.1f} vs {base.mean():.1f} ({d:+.1f} [{lo:+.1f}, {hi:+.1f}])"


def skill_answer(players, column: str, seat: int) -> list[str]:
    """How much dexterity decides: seat `seat`'s win rate against its throw skill, per player count."""
    out = []
    for where, on_map in on_each_map(players):
        out += _skill_on_one_map(on_map, column, seat, where)
    return out


def _skill_on_one_map(players, column: str, seat: int, where: str) -> list[str]:
    """Return `skill_answer` for the games of one map (`where`: ", on MAP" or "")."""
    out = []
    rows_all = players[players.seat == seat]
    kinds = seat_kind(rows_all, seat)
    several = kinds.nunique() > 1  # a sweep of strategies too: one answer per strategy
    for (k, kind), rows in rows_all.groupby(["players", kinds]):
        who = f", seat {seat} playing {kind}" if several else ""
        b, lo, hi = slope_ci(rows[column], rows.win_share)
        if math.isnan(b):
            levels = sorted(rows[column].unique())
            out.append(f"**{k} players{where}{who}: dexterity not measured** — a slope needs at least 3 games over at "
                       f"least 2 skill levels of seat {seat}; found {len(rows)} game{'s' * (len(rows) != 1)} at "
                       f"{'level' if len(levels) == 1 else 'levels'} {', '.join(f'{v:g}' for v in levels)}.")
            continue
        levels = []
        for level, g in rows.groupby(column):
            n = len(g)
            levels.append(f"{level:g}: {pct(g.win_share.mean())} {_ci(*wilson(g.win_share.sum(), n))} ({n} games)")
        fair = 1 / k
        lowest, highest = rows[column].min(), rows[column].max()
        low_rate = rows[rows[column] == lowest].win_share.mean()
        high_rate = rows[rows[column] == highest].win_share.mean()
        strength = ("decides strongly" if high_rate - low_rate >= 0.5 else
                    "matters" if lo > 0 else "is not shown to matter")
        others = players[(players.seat != seat) & (players.players == k)].skill
        against = f" against opponents of skill {others.iloc[0]:g}" if others.nunique() == 1 else ""
        out.append(f"**{k} players{where}{who}: dexterity {strength}.** Seat {seat}'s win rate{against} goes from "
                   f"{pct(low_rate)} at skill {lowest:g} to {pct(high_rate)} at {highest:g} (fair share "
                   f"{pct(fair)}); each +0.1 of skill adds {100 * b / 10:+.1f} percentage points of win rate "
                   f"[{100 * lo / 10:+.1f}, {100 * hi / 10:+.1f}]. By skill — {'; '.join(levels)}.")
    return out


def routes_answer(contracts, games=None) -> list[str]:
    """R8: per map, player count and contract value band, how many more net points does a contract sailed on the
    full-value route make than one on the half-value route (full minus half, as the route-gap figure draws it), and
    where does that curve cross zero (`crossing`)? Routes are named by the map the games were played on
    (`routenames`); a band with fewer than MIN_PER_SIDE sailed contracts on either kind says so, with both counts.
    Each player count names the games behind it; the intervals are a bootstrap over those games."""
    frame = route_table(contracts)
    if frame.empty or frame.full_route.nunique() < 2:
        return []
    out = []
    for name, on_map, g_map in per_map(frame, games):
        half, full = kind_name(g_map, False), kind_name(g_map, True)
        where = f", on {name}" if name else ""
        if len(offered(g_map)) == 1:  # a map with one kind of route: nothing to compare on it
            kind = offered(g_map).pop()
            out.append(f"**Routes{where}: not compared** — this map has only {value_words(kind)} routes "
                       f"({kind_name(g_map, kind)}).")
            continue
        for _, k, sel, keys in panels(on_map, g_map):
            verdicts = []
            gaps = band_gaps(sel, keys)
            for band, n_full, n_half, gap in gaps:
                if gap is None:
                    verdicts.append(f"{band}: too few contracts to compare ({full} {n_full}, {half} {n_half}; "
                                    f"at least {MIN_PER_SIDE} each)")
                    continue
                d, lo, hi = gap
                if lo > 0 or hi < 0:
                    verdicts.append(f"{band}: {full if lo > 0 else half}, {d:+.1f} [{lo:+.1f}, {hi:+.1f}]")
                else:
                    verdicts.append(f"{band}: neither shown to net more, {d:+.1f} [{lo:+.1f}, {hi:+.1f}] "
                                    f"(consistent with no difference)")
            routes = "; ".join(
                f"{kind_title(g_map, bool(kind))}: {len(g)} contracts, {pct(g.fulfilled.mean())} fulfilled, "
                f"{g.ransom.mean():.1f} ransom each, {g.net.mean():+.1f} net each" for kind, g in sel.groupby("full_route"))
            compared = sum(gap is not None for *_, gap in gaps)  # bands with enough contracts on both routes
            head = (f"{k} players{where} ({len(keys)} games), net points of {full} minus {half} per sailed "
                    f"contract, by value" if compared else
                    f"{k} players{where} ({len(keys)} games): {half} and {full} not compared, too few sailed contracts")
            verdict = crossing(gaps, full, half)
            cross = f" {verdict}." if compared >= 2 else ""
            out.append(f"**{head}** — {'; '.join(verdicts)}.{cross} Behind it: {routes}.")
        who = on_map.groupby("full_route").strategy.agg(lambda s: ", ".join(sorted(set(s))))
        if len(who) == 2 and who[True] != who[False]:
            out.append(f"{f'On {name}, the' if name else 'The'} routes were sailed by different strategies ({half}: "
                       f"{who[False]}; {full}: "
                       f"{who[True]}), which also aim differently, so each difference is route and strategy together.")
    return out


def routes_not_compared(contracts, games) -> list[str]:
    """Say why there is no routes answer (R8) when the maps offer both kinds of route but every sailed contract
    went one way."""
    frame = route_table(contracts)
    if frame.empty or frame.full_route.nunique() != 1 or offered(games) != {True, False}:
        return []
    kind = bool(frame.full_route.iloc[0])
    return [f"**Routes: not compared** — all {len(frame)} sailed contracts went via {kind_title(games, kind)}; "
            f"comparing the routes needs at least {MIN_PER_SIDE} sailed contracts on each kind per value band."]


def strategies_answer(players) -> list[str]:
    """Per cell with more than one strategy at the table: each strategy's win rate (per seat) and points."""
    out = []
    for (cell, label), rows in players.groupby(["cell", "cell_label"]):
        if rows.strategy.nunique() < 2:
            continue
        games = rows.game.nunique()
        k = int(rows.players.iloc[0])
        stats = []
        for name, g in rows.groupby("strategy"):
            seats = len(g) / games  # seats this strategy holds at each table
            share = g.win_share.sum() / games  # the share of games it won (any of its seats)
            stats.append((share, name, seats, g))
        stats.sort(key=lambda t: -t[0] / t[2])
        parts = [f"{name} wins {pct(share)} {_ci(*wilson(share * games, games))} of games with {seats:g} of {k} "
                 f"seats (fair {pct(seats / k)}), {g.points.mean():+.1f} points a seat"
                 for share, name, seats, g in stats]
        best_share, best, best_seats, _ = stats[0]
        lo, _ = wilson(best_share * games, games)
        verdict = (f"{best} plays best" if lo > best_seats / k else "no strategy is shown to play better")
        out.append(f"**{label}: {verdict}** ({games} games). " + "; ".join(parts) + ".")
    return out


def seats_answer(players, games) -> list[str]:
    """R7: between identical players, the first player's win rate per cell, with the largest plausible edge.

    The verdict is Holm-corrected over the cells (each cell is one more chance of a false alarm).
    """
    out = []
    cells = [(g, players[players.cell == cell]) for cell, g in games.groupby("cell")]
    found = [balance(p, g) for g, p in cells]
    adjusted = holm([b.advantage_p1_p for b in found])
    for (g, p), b, p_adj in zip(cells, found, adjusted):
        k = int(g.players.iloc[0])
        lo, hi = b.advantage_p1_ci
        fair = 1 / k
        bound = max(abs(lo - fair), abs(hi - fair))
        pos_p = _positions_p(p, k)
        seat_rates, seat_p = by_seat(p)
        too_few = too_few_for_chi2(b.games, k)
        if p_adj < ALPHA:
            head = f"the first player wins {'more' if b.advantage_p1 > fair else 'less'} than a fair share"
        else:
            head = (f"no first-player advantage detected; any edge is under {100 * bound:.1f} percentage points "
                    f"of win rate")
        corrected = f", {p_adj:.2g} Holm-corrected over {len(cells)} cells" if len(cells) > 1 else ""
        out.append(f"**{g.cell_label.iloc[0]}: {head}.** P1 (first in round 1) wins {pct(b.advantage_p1)} "
                   f"{_ci(lo, hi)} of {b.games} games against a fair {pct(fair)} (binomial p = "
                   f"{b.advantage_p1_p:.2g}{corrected}); win rate by turn position "
                   f"{' / '.join(pct(r) for r in b.win_rates)} ({_chi2(pos_p, too_few)}); by seat (colour) "
                   f"{seat_rates} ({_chi2(seat_p, too_few)}); Balance {b.balance:.3f} (a fair game shows about "
                   f"{fair_balance(b.games, k):.3f} at this sample size).")
    return out


def players_context(players, contracts, games=None) -> list[str]:
    """Who played: per map and strategy, contracts fulfilled, routes sailed, throws aground, points and ransom per
    game."""
    if players.empty:
        return []
    if games is None:
        return [_context(players, contracts, None, "")]
    return [_context(p, c, g, where) for where, g, p, c in on_each_map(games, players, contracts)]


def _context(players, contracts, games, where: str) -> str:
    """Return `players_context` for the games of one map (`where`: ", on MAP" or "").

    The route share is of the contracts sailed (at least one ship sent for them, as `route_table` counts): a
    contract taken for the full route and never sailed goes no way at all.
    """
    parts = []
    full = kind_title(games, True)
    sailed = contracts[contracts.ships > 0] if not contracts.empty else contracts
    for name, rows in players.groupby("strategy"):
        taken, done = rows.taken.sum(), rows.fulfilled.sum()
        mine = sailed[sailed.strategy == name] if len(sailed) else sailed
        on_full = mine.full_route.mean() if len(mine) else math.nan
        aground = rows.groundings.sum() / rows.throws.sum() if rows.throws.sum() else math.nan
        parts.append(f"{name} fulfils {pct(done / taken if taken else math.nan)} of {int(taken)} contracts taken, "
                     f"sails {len(mine)} of them, {pct(on_full)} via {full}, "
                     f"runs aground on {pct(aground)} of throws, and "
                     f"scores {rows.points.mean():+.1f} points a game after {rows.ransom.mean():.1f} ransom")
    return (f"**Who played{where}**: these answers describe the game as the built-in AI players play it. "
            + "; ".join(parts) + ".")
