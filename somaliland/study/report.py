"""A study's Markdown report: the code that played it, the answer and conclusions first (with their confidence),
the sections on the routes' economics (`sections`), the ladder, the balance measures, the other figures.

Everything is computed from the results folder; the figures go in a `figures/` folder beside the report.
Intervals are 95% over games; "significant" means p < 0.05 two-sided, with no correction across cells (said so).
"""

from __future__ import annotations

import math
from pathlib import Path

from somaliland.study import economics_figures, figures, sections
from somaliland.study.answers import answers, by_seat, identical_seats, skill_columns, too_few_for_chi2
from somaliland.study.answers import pct as _pct
from somaliland.study.ladder import aground_table, ladder_table
from somaliland.study.stats import Balance, balance, fair_balance, holm
from somaliland.study.store import journal_games, read_table, study_of, write_whole


def write_report(results: str | Path, output: str | Path, title: str | None = None) -> list[Path]:
    """Write the report of a results folder and return the figure files it wrote.

    Raises:
        StudyError: the folder is not a study's results folder.
    """
    results, output = Path(results), Path(output)
    study, manifest = study_of(results, maps=False)  # a report opens no map: a copied folder reads too
    t = {name: read_table(results, name) for name in ("players", "contracts", "captures", "raids", "games", "errors")}
    games, players = t["games"], t["players"]
    figdir = output.parent / "figures"
    drawn: dict[str, tuple[str, Path, int, str]] = {}  # file stem -> (title, path, games, note)

    def draw(title_: str, name: str, fn, *args, note: str = "") -> None:
        path = figdir / f"{name}.png"
        n = fn(*args, path)
        if n:
            drawn[name] = (title_, path, n, note)

    cells = _balances(players, games)
    draw("Win rate by turn order (first-player advantage)", "win_rate_by_order", figures.win_rate_by, players,
         "order", "turn order (P1 = first player of round 1)")
    draw("Win rate by seat", "win_rate_by_seat", figures.win_rate_by, players, "seat", "seat",
         note="Seats are fixed colours (seat 0 red); turn order is drawn per game (D4), so between identical "
              "players every seat should win its fair share.")
    for column, seat in skill_columns(players):
        draw(f"Win rate against seat {seat}'s throw skill", f"skill_seat{seat}", figures.win_rate_by_skill,
             players, column, seat)
    draw("Score distributions by strategy", "scores_by_strategy", figures.scores_by_strategy, players)
    draw("Win rate against groundings (the ladder)", "ladder_front", figures.ladder_front, players,
         note="Each strategy other than its table's field (the strategy with the most seats there): the win rate of "
              "its first seat against its groundings per move over the field's, both as played (the Ladder "
              "section's columns). Left of 1 it runs aground less often than the field, above the fair share it "
              "wins more.")
    draw(figures.routes_title(games), "routes_by_value", figures.routes_by_value, t["contracts"], games,
         note="Net points = points scored by the contract minus the ransoms its ships paid; a contract that fails "
              "scores 0. Routes are named by the map the games were played on.")
    draw(figures.route_gap_title(games), "route_gap_by_value", figures.route_gap_by_value, t["contracts"], games,
         note="The difference of the routes' net points per sailed contract (a contract one of whose ships was "
              "sent), full-value route minus half-value route, in each contract value band (R8): above zero the "
              "full-value route pays more net of ransoms.")
    draw("Risk and reward by route and contract value", "route_risk", economics_figures.route_risk_figure,
         t["contracts"], players, games)
    draw("The pirates against traffic", "traffic", economics_figures.traffic_figure, t["raids"], games)
    draw("Spare displacement by route and contract value", "spare_displacement", economics_figures.spare_figure,
         t["contracts"], games)
    draw("Why contracts fail", "failures", economics_figures.failures_figure, t["contracts"], games)
    draw("Capture and ransom economics by route position", "captures_by_position", figures.captures_by_position,
         t["captures"], games)
    draw("Sinkings and groundings", "accidents", figures.accidents, players)
    draw("Game length in throws", "game_length", figures.game_length, games)
    shown: set[str] = set()

    def figure(name: str, title_: str) -> str:
        """Return the Markdown of a drawn figure, told where a section shows it (and no more under Figures)."""
        if name not in drawn:
            return ""
        shown.add(name)
        _, path, n, note = drawn[name]
        return (f"![{title_}]({path.relative_to(output.parent).as_posix()})\n\n*Rests on {n} games.*"
                + (f" {note}" if note else "") + "\n")

    lines = [f"# {title or f'Study {study.name}: report'}", ""]
    lines += _coverage(study, results, games, t["errors"])
    lines += _code(games, manifest)
    if study.question:
        lines += [f"**Question.** {study.question}", ""]
    answer = answers(t)
    if answer:
        lines += ["## Answer", "", *[f"- {a}" for a in answer], ""]
    lines += ["## Conclusions", ""]
    lines += [f"- {c}" for c in _conclusions(study, t, cells)]
    lines += ["", "Confidence: intervals are 95% over games (Wilson for win rates, normal for means, a bootstrap "
              "over games for the route sections); *significant* means p < 0.05, two-sided, uncorrected for the "
              "number of cells compared; a difference of two rates is given in percentage points. An interval "
              "that holds a value is *consistent with* it, no more. R and D numbers (R13, D19) are the items of "
              "the rules text, docs/rules/somaliland-rules.md.", ""]
    for section in (sections.risk_section, sections.gaps_section, sections.traffic_section, sections.spare_section,
                    sections.failure_section):
        lines += section(t, figure)
    ladder = ladder_table(players)
    if ladder:
        lines += ["## Ladder", "", "Each strategy at each table (cell), rated with 95% intervals over games "
                  "(somaliland/study/ladder.py). The win rate is that of the strategy's first seat (a strategy "
                  "holding every seat would win its fair share by definition); \"× the field's\" is its groundings "
                  "per move over those of its table's field (the strategy with the most seats there), both as "
                  "played, the interval from resampling games; the CPU per throw decision is the seat's own "
                  "deciding.", "",
                  *ladder, ""]
        split = aground_table(players, games)
        if split:
            lines += ["Where each strategy ran aground (R17): its own throws that ran their ship aground, per throw "
                      "(all of them, with their ratio to the field's as played: its moves that ran aground, without "
                      "the pushes of others; 95% interval from resampling games), on each kind of route (R8) and at "
                      "launching throws (R12) against all others, and its ships pushed aground by any throw (R18), "
                      "95% intervals over games. A strategy that sails the "
                      "riskier route more runs aground more per move without throwing worse; these rates tell "
                      "the two apart, and the last column sums them at one route mix: a strategy's groundings per "
                      "move had it sailed as its table's field (the strategy with the most seats there) did, its "
                      "own rate on each kind of route weighted by the field's share of throws there, plus its "
                      "pushed groundings, and the ratio to the field's groundings per move (95% interval from "
                      "resampling games). Games recorded before these columns are left out.",
                      "",
                      *split, ""]
    lines += ["## Balance measures", "", *_balance_table(cells), ""]
    rest = [name for name in drawn if name not in shown]
    if rest:
        lines += ["## Figures", ""]
    for name in rest:
        title_, path, n, note = drawn[name]
        rel = path.relative_to(output.parent)
        lines += [f"### {title_}", "", f"![{title_}]({rel.as_posix()})", "",
                  f"*Rests on {n} games.*{' ' + note if note else ''}", ""]
    lines += _run_section(study, results, manifest, games, t["errors"])
    output.parent.mkdir(parents=True, exist_ok=True)
    write_whole(output, "\n".join(lines) + "\n")
    return [p for _, p, _, _ in drawn.values()]


def _code(games, manifest: dict) -> list[str]:
    """Name the code version(s) that played the games: the source hash of somaliland/ and physics/ each game
    records, with its games, or what the manifest recorded for results whose games did not."""
    if "code" in games and games.code.notna().any():
        counts = games.code.dropna().value_counts()
        said = ", ".join(f"`{code}` ({n} games)" for code, n in counts.items())
        missing = int(games.code.isna().sum())
        more = f"; {missing} games recorded none" if missing else ""
    elif manifest.get("code"):
        said, more = ", ".join(f"`{code}` ({n} games)" for code, n in manifest["code"].items()), ""
    else:
        return ["Played by a code version these results did not record.", ""]
    word = "version" if "," not in said else "versions"
    kept = "; the results folder's manifest.json records it too" if manifest.get("code") else ""
    return [f"Played by code {word} {said}{more} (a hash of the simulator's source, somaliland/ and physics/, "
            f"that each game recorded{kept}).", ""]


def _coverage(study, results: Path, games, errors) -> list[str]:
    """Say how the games recorded compare with the plan: a partial run, games beyond it, games in the journal."""
    numbers = [t.game for t in (games, errors) if not t.empty]
    recorded = sum(len(n) for n in numbers)
    in_plan = sum(int((n < study.games_per_cell).sum()) for n in numbers)
    out = []
    if in_plan < study.total_games:
        out += [f"> **Partial run**: {in_plan} of the {study.total_games} games this study plans "
                f"({study.games_per_cell} per cell). Every interval below is that of the games played; running "
                f"the same `somaliland study run` command again plays the rest and keeps these.", ""]
    if recorded > in_plan:
        out += [f"> These results hold {recorded - in_plan} games beyond the {study.games_per_cell} per cell this "
                f"study plans now (an earlier run planned more); everything below uses all {recorded} games.", ""]
    waiting = journal_games(results)
    if waiting:
        out += [f"> {waiting} of these games are still in the journal of an interrupted run (`journal.jsonl`): they "
                f"count here, and the next `somaliland study run` files them into the Parquet tables.", ""]
    return out


def _balances(players, games) -> list[tuple[str, Balance]]:
    if games.empty:
        return []
    out = []
    for cell, label in games[["cell", "cell_label"]].drop_duplicates().sort_values("cell").itertuples(index=False):
        out.append((label, balance(players[players.cell == cell], games[games.cell == cell])))
    return out


def _conclusions(study, t, cells: list[tuple[str, Balance]]) -> list[str]:
    games, players, errors = t["games"], t["players"], t["errors"]
    if games.empty:
        return [f"No finished games yet ({len(errors)} errors): nothing to conclude."]
    out = [f"Rests on {len(games)} games in {len(cells)} cells "
           f"({', '.join(str(b.games) for _, b in cells)} per cell)"
           + (f"; {len(errors)} more {'game' if len(errors) == 1 else 'games'} raised an error "
              f"(listed under The run, with seeds)." if len(errors) else "; no game raised an error.")]
    if "code" in games and games.code.nunique() > 1:
        counts = ", ".join(f"{code} ({n} games)" for code, n in games.code.value_counts().items())
        first = games.groupby("code", sort=False).first()
        checks = "; ".join(f"`--cell {int(row.cell)} --game {int(row.game)}` ({code})" for code, row in first.iterrows())
        out.append(f"**Mixed code versions**: these games were played by {games.code.nunique()} versions of the "
                   f"simulator's source ({counts}); differences between cells may be differences between versions. "
                   f"Whether the versions play alike can be checked: `somaliland study replay` replays a game with "
                   f"the code installed and compares it with the stored result; a game of each version: {checks}.")
    if "machine" in games and games.machine.nunique() > 1:
        kinds = games.machine.value_counts()
        counts = "; ".join(f"{n} {'game' if n == 1 else 'games'} on {kind}" for kind, n in kinds.items())
        out.append(f"**Mixed machines**: these games were played on {len(kinds)} kinds of machine ({counts}). Each "
                   f"game is a fair sample of the game, but physics results differ in the last bits between kinds "
                   f"(README, Determinism): a seed plays another game on another kind, and `somaliland study "
                   f"replay` matches a stored game only on a machine of the kind that played it.")
    adjusted = holm([b.advantage_p1_p for _, b in cells])
    unfair = [(label, b, p_adj) for (label, b), p_adj in zip(cells, adjusted) if b.advantage_p1_p < 0.05]
    if unfair:
        out += [f"First-player advantage is significant in {label}: P1 wins {_pct(b.advantage_p1)} "
                f"[{_pct(b.advantage_p1_ci[0])}, {_pct(b.advantage_p1_ci[1])}] against a fair "
                f"{_pct(1 / b.players)} (p = {b.advantage_p1_p:.3f}"
                + (f"; Holm-corrected over {len(cells)} cells p = {p_adj:.3f}"
                   f"{', still significant' if p_adj < 0.05 else ', not significant'}" if len(cells) > 1 else "")
                + ")." for label, b, p_adj in unfair]
    else:
        worst = max(cells, key=lambda c: abs(c[1].advantage_p1 - 1 / c[1].players))
        out.append(f"No cell shows a first-player advantage significant at 5%; the largest deviation is "
                   f"{worst[0]}: P1 wins {_pct(worst[1].advantage_p1)} [{_pct(worst[1].advantage_p1_ci[0])}, "
                   f"{_pct(worst[1].advantage_p1_ci[1])}] against a fair {_pct(1 / worst[1].players)}.")
    if len({round(b.balance, 3) for _, b in cells}) == 1:
        b = cells[0][1]
        out.append(f"Balance (1 = every turn position wins equally often) is {b.balance:.2f}"
                   f"{' in every cell' if len(cells) > 1 else ''} (a perfectly fair game would show about "
                   f"{fair_balance(b.games, b.players):.2f} at this sample size).")
    else:
        best, worst = max(cells, key=lambda c: c[1].balance), min(cells, key=lambda c: c[1].balance)
        out.append(f"Balance (1 = every turn position wins equally often) is highest in {best[0]} "
                   f"({best[1].balance:.2f}; a perfectly fair game would show about "
                   f"{fair_balance(best[1].games, best[1].players):.2f} at this sample size) and lowest in {worst[0]} "
                   f"({worst[1].balance:.2f}; fair: about {fair_balance(worst[1].games, worst[1].players):.2f}).")
    if len(cells) > 1:
        short, long_ = min(cells, key=lambda c: c[1].duration), max(cells, key=lambda c: c[1].duration)
        out.append(f"Games last from {short[1].duration:.0f} throws on average ({short[0]}) to "
                   f"{long_[1].duration:.0f} ({long_[0]}).")
    else:
        out.append(f"Games last {cells[0][1].duration:.0f} ± {cells[0][1].duration_sd:.0f} throws.")
    out += _seat_conclusions(players)
    return out


def _seat_conclusions(players) -> list[str]:
    """Say, per cell of identical players, whether the seat (not the turn order) decides who wins.

    Seats are fixed colours and turn order is drawn per game, so between identical players every seat
    should win equally often. Each cell gets a χ² test; the p-values are Holm-corrected across the cells
    tested, so that one cell in twenty is not flagged by chance alone. Cells where the seats are even say so
    too, with their rates, so a report answers "does a colour win more?" either way.
    """
    tested, out = [], []
    for (cell, label), rows in players.groupby(["cell", "cell_label"]):
        if not identical_seats(rows):
            continue
        rates, p = by_seat(rows)
        if math.isnan(p):
            out.append(f"Seats (colours) in {label}: {rates}; not tested: "
                       f"{too_few_for_chi2(rows.game.nunique(), int(rows.players.iloc[0]))}.")
        else:
            tested.append((label, rates, p))
    adjusted = holm([t[2] for t in tested])
    for (label, rates, p), p_adj in zip(tested, adjusted):
        if p_adj < 0.05:
            out.append(f"**The seat decides, though the players are identical**, in {label}: {rates} (χ² test of "
                       f"equal rates, p = {p:.2g}; {p_adj:.2g} after Holm's correction over {len(tested)} cells). "
                       f"Turn order is random, so an asymmetry this large points to a strategy or rules bug tied "
                       f"to the seat, not to a balance property.")
        elif p < 0.05:
            out.append(f"Seats differ in {label} ({rates}; χ² p = {p:.2g}), but not after Holm's correction over the "
                       f"{len(tested)} cells tested (p = {p_adj:.2g}): as likely chance as a seat effect; more games "
                       f"would tell.")
        else:
            out.append(f"Seats (colours) win alike in {label}: {rates} (χ² test of equal rates, p = {p:.2g}).")
    return out


def _balance_table(cells: list[tuple[str, Balance]]) -> list[str]:
    if not cells:
        return ["No finished games."]
    rows = ["| cell | games | Balance | AdvantageP1 [95% CI] (fair) | p | win rate by turn position | LeadChange | "
            "Duration (throws) mean ± sd | final spread (points) | shared wins |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for label, b in cells:
        rows.append(f"| {label} | {b.games} | {b.balance:.3f} | {_pct(b.advantage_p1)} [{_pct(b.advantage_p1_ci[0])}, "
                    f"{_pct(b.advantage_p1_ci[1])}] ({_pct(1 / b.players)}) | {b.advantage_p1_p:.3f} | "
                    f"{' / '.join(_pct(r) for r in b.win_rates)} | "
                    f"{'n/a' if math.isnan(b.lead_change) else f'{b.lead_change:.2f}'} | "
                    f"{b.duration:.1f} ± {b.duration_sd:.1f} | {b.spread:.1f} | {_pct(b.shared)} |")
    rows += ["", "Balance = 1 − (largest − smallest win rate across turn positions); AdvantageP1 = win rate of the "
             "first player of round 1; LeadChange = share of round ends at which the leader changed (n/a for "
             "one-round games); Duration = throws per game (Ludii's metric definitions)."]
    return rows


def _run_section(study, results: Path, manifest: dict, games, errors) -> list[str]:
    lines = ["## The run", "",
             f"Study file: `{manifest['source']}` (copy in `{results}/study.toml`); master seed {study.master_seed}; "
             f"{len(study.cells)} cells.", "",
             f"Seeds: {manifest['seed_scheme']}", "",
             f"Replay any game (full record, checked against the stored result): "
             f"`somaliland study replay {results} --cell C --game G --record game.jsonl`.", "",
             "Open the results in pandas: `somaliland.study.read_table(\"" + str(results) + "\", \"players\")` "
             "(also `contracts`, `captures`, `raids`, `games`, `errors`; it reads every chunk, journal included, and keeps "
             "columns that only later chunks have).", ""]
    if not games.empty:
        lines += [f"CPU per game: median {games.cpu_s.median():.2f} s, mean {games.cpu_s.mean():.2f} s (a worker's first "
                  "game sails the map's survey for a player only when the runner could not make it before the games, or "
                  "keep it on disk, so the mean of a short run may be high).", ""]
    if len(errors):
        lines += ["Games that raised (replay them with the command above):", "",
                  "| cell | game | seed | error | message |", "|---|---|---|---|---|"]
        for row in errors.head(20).itertuples():
            lines.append(f"| {row.cell} | {row.game} | {row.game_seed} | {row.error} | "
                         f"{str(row.message)[:120].replace('|', '/')} |")
        lines.append("")
    return lines
