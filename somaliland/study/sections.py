"""A report's sections on route economics, in Markdown: risk and reward by route, the pirates against traffic,
spare displacement, why contracts fail, and the route gaps at each player count (`economics` computes them).

Each section is a heading, what its numbers are, one table per study (a row per map, player count, route and
value band) and its figure (`economics_figures`); a section whose numbers the results do not hold says why in
one line. Intervals are 95%, a bootstrap over games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from somaliland.study.answers import pct
from somaliland.study.economics import (MIN_PER_SIDE, band_gaps, failures, panels, route_risk, spare_displacement,
                                        traffic, traffic_label)
from somaliland.study.frames import route_table
from somaliland.study.routenames import kind_name, kind_title
from somaliland.study.tables import FAILURE_CAUSES

TOO_FEW = "[too few games]"  # an interval the bootstrap cannot bound: too many resamples hold no such contract
Figure = Callable[[str, str], str]  # (figure file stem, its title) -> the Markdown that shows it, or ""


def _num(e: tuple[float, float, float], digits: int = 1, sign: bool = False) -> str:
    """Return 'value [low, high]', n/a where unknown."""
    value, low, high = e
    if not math.isfinite(value):
        return "n/a"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    bounds = f" [{f.format(low)}, {f.format(high)}]" if math.isfinite(low) and math.isfinite(high) else \
        f" {TOO_FEW}" if math.isinf(low) or math.isinf(high) else ""
    return f.format(value) + bounds


def _share(e: tuple[float, float, float]) -> str:
    """Return a share as 'x% [low%, high%]'."""
    value, low, high = e
    if not math.isfinite(value):
        return "n/a"
    if math.isfinite(low) and math.isfinite(high):
        return f"{pct(value)} [{pct(low)}, {pct(high)}]"
    return f"{pct(value)} {TOO_FEW}" if math.isinf(low) or math.isinf(high) else pct(value)


def _where(name: str | None, k: int) -> str:
    return f"{name}, {k}" if name else f"{k}"


def risk_section(t: dict[str, Any], figure: Figure) -> list[str]:
    """Net points per sailed contract (mean, SD) and the chance its owner won, by route and value (R8, R21)."""
    rows = route_risk(t["contracts"], t["players"], t["games"])
    if not rows:
        return []
    games = t["games"]
    lines = ["## Risk and reward by route", "",
             "Each sailed contract (at least one ship sent for it), by kind of route (R8) and contract value: its net "
             "points (points scored minus the ransoms its ships paid, R21), their standard deviation (SD: how far "
             "single contracts spread about the mean, the risk a player runs), and how often its owner won the "
             "game (shared wins split; a fair share is 1 / players). A player chooses a route to win, not only for "
             "the mean: a route with the same mean and a wider spread wins more often for a player who must "
             "catch up. Intervals are 95%, a bootstrap over games; *few* marks fewer than "
             f"{MIN_PER_SIDE} contracts.", "",
             "| players | contract value | route | contracts | net points [95%] | SD [95%] | its owner won [95%] |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        few = " (few)" if r["contracts"] < MIN_PER_SIDE else ""
        lines.append(f"| {_where(r['map'], r['players'])} | {r['band']} | {kind_name(games, r['full_route'])} | "
                     f"{r['contracts']}{few} | {_num(r['net'], sign=True)} | {_num(r['sd'])} | {_share(r['win'])} |")
    return lines + [""] + [figure("route_risk", "Risk and reward by route and contract value")]


def traffic_section(t: dict[str, Any], figure: Figure) -> list[str]:
    """Seizures and ransom per full-value ship at sea per raid, against the full-value ships at sea (R13)."""
    raids = t.get("raids")
    if raids is None or raids.empty:
        return ["## The pirates against traffic", "", "Not measured: these results were recorded before the "
                "pirates' raids were (a re-run of the study records them).", ""]
    rows = traffic(raids, t["games"])
    if not rows:
        return []
    full = kind_name(t["games"], True)
    lines = ["## The pirates against traffic", "",
             f"Each turn ends with the pirates' raid (R13). By the ships at sea on {full} when they raid (launched, "
             "neither arrived nor held): how many raids met that traffic, and per such ship and raid the seizures "
             "of ships on it, the ransom they paid, and that ransom per point of displacement at sea. When pirates "
             "take one ship a raid, each ship's chance of being taken falls as more sail with it: the route's price "
             "depends on who else sails it. Intervals are 95%, a bootstrap over games.", "",
             "| players | ships at sea | raids | seizures per ship [95%] | ransom per ship (points) [95%] | "
             "ransom per point of displacement [95%] |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {_where(r['map'], r['players'])} | {traffic_label(r['low'], r['high'])} | {r['raids']} | "
                     f"{_num(r['seized'], 3)} | {_num(r['ransom'], 2)} | {_share(r['per_point'])} |")
    return lines + [""] + [figure("traffic", "The pirates against traffic")]


def spare_section(t: dict[str, Any], figure: Figure) -> list[str]:
    """Displacement sailed beyond a contract's value, by route and value (R6, R9)."""
    rows = spare_displacement(t["contracts"], t["games"])
    if not rows:
        return []
    games = t["games"]
    lines = ["## Spare displacement", "",
             "The pips a sailed contract's ships carry beyond its value (R9: the contract is fulfilled when that "
             "much displacement arrives): insurance against a ship that does not arrive, paid for with ships the "
             "R6 cap (the fleet's 74) could have sent for another contract. Intervals are 95%, a bootstrap over "
             "games.", "",
             "| players | contract value | route | contracts | spare displacement [95%] | SD | ships per contract "
             "[95%] |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        few = " (few)" if r["contracts"] < MIN_PER_SIDE else ""
        lines.append(f"| {_where(r['map'], r['players'])} | {r['band']} | {kind_name(games, r['full_route'])} | "
                     f"{r['contracts']}{few} | {_num(r['spare'])} | {_num((r['sd'][0], math.nan, math.nan))} | "
                     f"{_num(r['ships'], 2)} |")
    return lines + [""] + [figure("spare_displacement", "Spare displacement by route and contract value")]


REASONS = {"not sailed": "no ship was sent for it", "sunk": "a ship of it sank (R18)",
           "seized": "pirates seized a ship of it (R13)", "aground": "a ship of it ran aground (R17)",
           "collision": "a ship of it lost a turn in a collision (R18)",
           "off board": "a ship of it left the board (R19)",
           "not launched": "a ship of it was never launched (R12)",
           "out of moves": "a ship of it was still at sea when its moves or the round's turns ran out (R15), "
                           "with no accident",
           "pooled away": "all its ships arrived, but counted for another contract of its owner (D6)"}


def failure_section(t: dict[str, Any], figure: Figure) -> list[str]:
    """Why each failed contract failed (R11), one reason each by a stated precedence, with every cause counted."""
    contracts = t["contracts"]
    if contracts.empty:
        return []
    if "failure" not in contracts:
        return ["## Why contracts fail", "", "Not measured: these results were recorded before the reasons a contract "
                "failed were (a re-run of the study records them).", ""]
    rows = failures(contracts, t["games"])
    if not rows:
        return []
    games = t["games"]
    order = "; ".join(f"*{c}*: {REASONS[c]}" for c in FAILURE_CAUSES)
    lines = ["## Why contracts fail", "",
             "Each failed contract (R11) is given one reason: the first of these, in this order, that befell a ship "
             f"of it that did not arrive — {order}. Each cell gives the contracts that failed for that reason, "
             "their share of the contracts taken on that route with its 95% interval (a bootstrap over games), and "
             "after \"any\" how many failed contracts the cause touched at all (a contract can meet several).", ""]
    for name, k in dict.fromkeys((r["map"], r["players"]) for r in rows):
        mine = [r for r in rows if (r["map"], r["players"]) == (name, k)]
        head = " | ".join(f"{kind_name(games, r['full_route'])}: {r['failed']} of {r['taken']} taken failed"
                          for r in mine)
        lines += [f"**{_where(name, k)} players.**", "", f"| reason | {head} |", "|---|" + "---|" * len(mine)]
        for i, reason in enumerate(FAILURE_CAUSES):
            cells = [r["reasons"][i] for r in mine]
            if not any(c["failed"] or c["touched"] for c in cells):
                continue
            lines.append(f"| {reason} | " + " | ".join(f"{c['failed']}, {_share(c['share'])} of taken; any "
                                                        f"{c['touched']}" for c in cells) + " |")
        lines.append("")
    return lines + [figure("failures", "Why contracts fail")]


def gaps_section(t: dict[str, Any], figure: Figure) -> list[str]:
    """The route gap (full-value minus half-value net points per sailed contract) by value, at each player count."""
    frame = route_table(t["contracts"])
    if frame.empty or frame.full_route.nunique() < 2:
        return []
    games = t["games"]
    bands = list(frame.band.cat.categories)
    lines = ["## Route gaps by player count", "",
             f"Net points per sailed contract on {kind_name(games, True)} minus on {kind_name(games, False)}, by "
             "contract value, at each player count, with the games behind each and 95% intervals (a bootstrap "
             f"over games). A band with fewer than {MIN_PER_SIDE} sailed contracts on either route is not compared "
             "(its counts are given): more games would tell.", "",
             "| players | games | " + " | ".join(str(b) for b in bands) + " |", "|---|---|" + "---|" * len(bands)]
    thin = False
    for name, k, rows, keys in panels(frame, games):
        cells = []
        for _band, n_full, n_half, gap in band_gaps(rows, keys):
            if gap is None:
                thin = True
                cells.append(f"too few ({n_full} + {n_half})")
            else:
                cells.append(f"{_num(gap, sign=True)} ({n_full} + {n_half})")
        lines.append(f"| {_where(name, k)} | {len(keys)} | " + " | ".join(cells) + " |")
    note = (" Where a cell says *too few*, the gap rests on too few contracts to be told from chance." if thin else "")
    lines += ["", f"In brackets: sailed contracts on {kind_title(games, True)} + on {kind_title(games, False)}.{note}",
              ""]
    return lines + [figure("route_gap_by_value", "Route gaps by contract value")]
