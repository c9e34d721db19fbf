"""A tuning's report (Markdown), its figure, and the header of the chosen files."""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from pathlib import Path

from somaliland.study.figures import OKABE_ITO, legend_outside, pyplot, save_figure  # the study figures' helpers
from somaliland.study.store import write_whole
from somaliland.tune.candidate import describe
from somaliland.tune.measures import MEASURES, Estimate
from somaliland.tune.racing import Scored
from somaliland.tune.search import SearchResult
from somaliland.tune.spec import Target, Tuning

FIGURE = "front.png"
HEADER_WIDTH = 110


def fmt(target: Target, e: Estimate) -> str:
    """Return an estimate with its 95% interval, in percent for shares: `53.1% [49.0, 57.2]`."""
    if not math.isfinite(e.value):
        return "n/a"
    share = MEASURES[target.measure].share
    scale, unit = (100, "%") if share else (1, "")

    def num(v: float) -> str:
        return "∞" if v == math.inf else "−∞" if v == -math.inf else "?" if math.isnan(v) else \
            f"{v * scale:.1f}" if share else f"{v:.3g}"

    return f"{num(e.value)}{unit} [{num(e.low)}, {num(e.high)}]"


WATCHED = " (watched: measured and reported, not steering)"


def label(target: Target) -> str:
    """Return a target's name, marked if it is only watched (weight 0)."""
    return target.name if target.steers else f"{target.name} (watched)"


def goal_text(target: Target) -> str:
    """Return a target's goal as read, in percent for shares."""
    return target.goal.text(100, "%") if MEASURES[target.measure].share else target.goal.text()


def header(tuning: Tuning, result: SearchResult, number: int, validation) -> list[str]:
    """Return the lines (without '#') that head the chosen files: how they were tuned, and what held."""
    trial = result.trial(number)
    lines = [f"Tuned by `somaliland tune {tuning.source}` (tuning {tuning.name!r}, {_sampler(tuning)}, master seed "
             f"{tuning.master_seed}): trial {number} of {len(result.trials)}, the least weighted loss at the worse "
             f"end of its 95% intervals of the {len(result.front(tuning))} on the Pareto front of the candidates played {tuning.top} games each.",
             f"Knobs: {describe(trial.values)}."]
    lines.append(f"On {validation.games} fresh games (seed {validation.seed}): " + "; ".join(
        f"{label(t)} {fmt(t, e)}, goal {goal_text(t)}" + (f": {v}" if (v := t.goal.verdict(e.value, e.low, e.high))
                                                        else "") for t, e in zip(tuning.targets, validation.chosen))
                 + ".")
    return [wrapped for line in lines for wrapped in textwrap.wrap(line, HEADER_WIDTH, subsequent_indent="  ")]


def _sampler(tuning: Tuning) -> str:
    return "NSGA-II" if tuning.sampler == "nsga2" else "TPE"


def write_report(tuning: Tuning, out: Path, result: SearchResult, chosen: int | None, validation,
                 seconds: float) -> Path:
    """Write `out/report.md` and its figure; return the report's path."""
    targets = tuning.targets
    stopped = Counter(s.games for s in result.played if s.games < tuning.top)
    rejected = [t for t in result.trials if t.rejected]
    front = result.front(tuning)
    lines = [f"# Tuning `{tuning.name}`", ""]
    if tuning.question:
        lines += [f"> {tuning.question}", ""]
    if chosen is None and result.complete:
        lines += [f"**No answer.** The games of none of the {len(result.complete)} candidates played on the full "
                  f"number of games estimate every steering target ({', '.join(label(t) for t in targets if t.steers)}"
                  "; e.g. a share of contracts on a route none sailed): widen the knobs' ranges or choose targets these "
                  "games can measure.", ""]
    elif chosen is None:
        lines += ["**No answer.** No candidate was played on the full number of games "
                  f"({len(rejected)} of {len(result.trials)} were rejected); see below.", ""]
    else:
        trial = result.trial(chosen)
        held = [t.goal.verdict(e.value, e.low, e.high) for t, e in zip(targets, validation.chosen)]
        lines += [f"**Answer: trial {chosen}** — {describe(trial.values)}. On {validation.games} fresh games "
                  f"(seeds never used in the search): " + "; ".join(
                      f"{label(t)} {fmt(t, e)}" + (f" (goal {goal_text(t)}: **{v}**)" if v else "")
                      for t, e, v in zip(targets, validation.chosen, held)) + ".", ""]
    spent, saved = result.games_spent, result.games_saved
    every = spent + saved
    lines += ["## Games", "",
              f"- **Search:** {spent} games over {len(result.trials)} candidates ({len(rejected)} rejected by the "
              f"map check, the rules loader or games that raised; {sum(stopped.values())} stopped early"
              + (": " + ", ".join(f"{n} after {g} games" for g, n in sorted(stopped.items())) if stopped else "")
              + f"; {len(result.complete)} played the full {tuning.top}).",
              f"- **Early stopping saved {saved} games**: playing every candidate the full {tuning.top} games "
              f"would have taken {every} ({100 * saved / every:.0f}% saved)." if every else
              "- No candidate was played.",
              f"- **Validation:** {validation.games + validation.base_games} games, {validation.base_games} for the "
              f"base and {validation.games} for the chosen candidate, on seed {validation.seed}" + (f" ({validation.errors} raised)" if validation.errors
                                                         else "") + "." if validation else "- No validation.",
              f"- **Wall time:** {seconds / 60:.1f} minutes in all (every run of this folder).", ""]
    if validation is not None:
        lines += ["## Before and after, on fresh seeds", "",
                  "| target | measure | goal | base | chosen | base → chosen |", "|---|---|---|---|---|---|"]
        for t, b, c in zip(targets, validation.base, validation.chosen):
            verdicts = [t.goal.verdict(e.value, e.low, e.high) or "—" for e in (b, c)]
            lines.append(f"| {label(t)} | {MEASURES[t.measure].means} | {goal_text(t)} | {fmt(t, b)} | {fmt(t, c)} | "
                         f"{verdicts[0]} → {verdicts[1]} |")
        lines += ["", "95% intervals over games. *met*: the whole interval within the goal; *probably*: the "
                  "estimate within, the interval not; *consistent*: a goal value inside the interval (the games "
                  "cannot tell the measure from it; the narrower the interval, the more that says); *missed*: the "
                  "estimate outside (for a goal value, the interval).", ""]
    if front:
        names = [p.name for p in tuning.params]
        lines += [f"## The Pareto front (search seeds, {tuning.top} games each)", "",
                  "Weighted loss: the sum of each target's weight times its distance from the goal; the chosen "
                  "candidate has the least at the worse end of its 95% intervals (the estimates of the best of "
                  "many candidates flatter it).", "",
                  "| trial | " + " | ".join(names) + " | " + " | ".join(label(t) for t in targets) + " | weighted loss | at the worse end |",
                  "|---" * (3 + len(names) + len(targets)) + "|"]
        for s in front:
            values = result.trial(s.number).values
            lines.append(f"| {s.number}{' (chosen)' if s.number == chosen else ''} | "
                         + " | ".join(_value(values.get(n)) for n in names) + " | "
                         + " | ".join(fmt(t, e) for t, e in zip(targets, s.estimates))
                         + f" | {s.weighted(targets):.4g} | {s.weighted_worst(targets):.4g} |")
        lines += ["", f"![the candidates and the front]({FIGURE})", ""]
        plot_front(tuning, result, chosen, out / FIGURE)
    if rejected:
        lines += ["## Rejected candidates", "", "| trial | knobs | why |", "|---|---|---|"]
        lines += [f"| {t.number} | {describe(t.values)} | {t.rejected.replace('|', '/')} |" for t in rejected]
        lines.append("")
    if chosen is not None:
        lines += ["## Files", "", f"- `chosen/map.toml` and `chosen/rules.toml`: trial {chosen}'s files (they pass "
                  "`somaliland map check` and the rules loader), headed by how they were tuned.",
                  f"- Every candidate: `trials/NNNN/` (its files, and its games as a study results folder: "
                  f"`somaliland study report` and `study replay` work on it).", ""]
    lines += ["## How it was tuned", "",
              f"- Knobs: " + "; ".join(f"`{k.name}` ({k.action} `{k.path}`)" for k in tuning.knobs) + ".",
              f"- Targets: " + "; ".join(f"`{t.name}`: {MEASURES[t.measure].means}, goal {goal_text(t)}, weight "
                                         f"{t.weight:g}{'' if t.steers else WATCHED}"
                                         for t in targets) + ".",
              f"- Search: {_sampler(tuning)}, {tuning.batches * tuning.batch} trials in batches of {tuning.batch}; "
              f"rungs of {', '.join(map(str, tuning.rungs))} games; a candidate stops when another's 95% intervals "
              f"show it cannot reach the front. Every candidate plays the same seeds (master seed "
              f"{tuning.master_seed}).",
              f"- Base: `{tuning.map_path.name}` and `{tuning.rules_path.name}`"
              + (f" with {describe(tuning.rules_overrides)}" if tuning.rules_overrides else "") + ".", ""]
    path = out / "report.md"
    write_whole(path, "\n".join(lines))
    return path


def _value(v) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def plot_front(tuning: Tuning, result: SearchResult, chosen: int | None, path: Path) -> None:
    """Draw the candidates (`draw_front`) into a PNG."""
    save_figure(draw_front(tuning, result, chosen), path)


# The study figures' standard (somaliland/study/figures.py): Okabe-Ito colours, a marker for each series,
# legends beside the data, axes that say what and in what unit, shares and counts from zero.
PLAYED, CHOSEN, GOALS = OKABE_ITO[3], OKABE_ITO[4], (OKABE_ITO[2], OKABE_ITO[5])  # goals: the x's, the y's
FRONT = "k"
STOPPED = "0.6"
FILTER_WORDS = {"route": {"full": "full-value route", "half": "half-value route"},
                "values": {"cheap": "cheapest third of the contract values", "middle": "middle third of the contract "
                           "values", "dear": "dearest third of the contract values", "all": "all contract values"}}
LABEL_WIDTH = 60


def target_axis(target: Target) -> tuple[str, float, bool]:
    """Return how a figure draws a target: its axis label (what, its filters, the unit; the target's name),
    the scale of its values (100 for a share, drawn in percent) and whether its axis starts at 0."""
    m = MEASURES[target.measure]
    said = [FILTER_WORDS.get(key, {}).get(value, f"{value} players" if key == "strategy" else value)
            for key, value in target.filters]
    what = textwrap.fill(", ".join([m.axis, *said]) + f" ({m.unit})", LABEL_WIDTH)
    return f"{what}\ntarget {label(target)}", 100.0 if m.share else 1.0, not m.signed


def knob_axis(tuning: Tuning, name: str) -> str:
    """Return the axis label of a parameter: its name and unit, and what its knob does to which file."""
    knob, axis = next((k, a) for k in tuning.knobs for a, p in k.params if p.name == name)
    last = next((s for s in reversed(knob.path.steps) if isinstance(s, str)), "")
    if knob.action == "choose":
        unit = ""
    elif knob.action in ("factor", "scale"):
        unit = "times"
    elif knob.action == "rotate" or (knob.path.file == "map" and last == "heading"):
        unit = "degrees"
    elif knob.path.file == "map":  # the map's lengths are in cm (its relief in mm)
        unit = "mm" if last == "relief" else "cm"
    else:
        unit = "points" if last == "contract_values" else ""
    verb = {"set": "sets", "add": "adds to", "factor": "scales", "choose": "chooses", "move": "moves",
            "buffer": "grows (+) or shrinks (-)", "scale": "scales", "rotate": "turns"}.get(knob.action, knob.action)
    way = {"dx": ", + east", "dy": ", + north"}.get(axis, "")
    return f"{name}" + (f" ({unit})" if unit else "") + f"\n{verb} {knob.path}{way}"


def draw_front(tuning: Tuning, result: SearchResult, chosen: int | None):
    """Return the figure of the candidates: two steering targets against each other (the front joined), or
    one target against each knob; each estimate with its 95% interval, the goals shaded."""
    plt = pyplot()
    targets = tuning.targets
    steer = [i for i, t in enumerate(targets) if t.steers]  # the plot shows targets that steer
    a, b = (steer + [None])[:2]
    full = result.complete
    stopped = [s for s in result.played if s.games < tuning.top]
    looks = ((stopped, dict(color=STOPPED, fmt="o", mfc="none", label="stopped early")),
             (full, dict(color=PLAYED, fmt="o", label=f"played {tuning.top} games")))
    ya, ys, yzero = target_axis(targets[a])
    if b is not None:
        xa, xs, xzero = ya, ys, yzero
        ya, ys, yzero = target_axis(targets[b])
        fig, ax = plt.subplots(figsize=(7.2, 5.4))
        for group, style in looks:
            _scatter(ax, group, a, b, xs, ys, style)
        front = sorted(result.front(tuning), key=lambda s: s.estimates[a].value)
        ax.plot([s.estimates[a].value * xs for s in front], [s.estimates[b].value * ys for s in front], "-",
                color=FRONT, lw=1, alpha=0.7, zorder=3, label="Pareto front (of every steering target)")
        _floor(ax, xzero, xs, vertical=True)
        _floor(ax, yzero, ys, vertical=False)
        _goal_span(ax, targets[a], xs, vertical=True, colour=GOALS[0])
        _goal_span(ax, targets[b], ys, vertical=False, colour=GOALS[1])
        ax.set_xlabel(xa)
        ax.set_ylabel(ya)
        if chosen is not None:
            s = result.trial(chosen).scored
            _star(ax, s.estimates[a].value * xs, s.estimates[b].value * ys, chosen)
        axes = [ax]
    else:
        params = tuning.params
        fig, grid = plt.subplots(1, len(params), figsize=(4.2 * len(params), 4.2), squeeze=False, sharey=True)
        axes = list(grid[0])
        for ax, p in zip(axes, params):
            for group, style in looks:
                if not group:
                    continue
                at = [_x(result.trial(s.number).values[p.name], p) for s in group]
                es = [s.estimates[a] for s in group]
                ax.errorbar(at, [e.value * ys for e in es], yerr=_yerr(es, ys), capsize=2, ms=4, ls="none", **style)
            if chosen is not None:
                s = next(s for s in full if s.number == chosen)
                _star(ax, _x(result.trial(chosen).values[p.name], p), s.estimates[a].value * ys, chosen)
            ax.set_xlabel(knob_axis(tuning, p.name), fontsize=9)
            if p.choices:
                ax.set_xticks(range(len(p.choices)), [str(c) for c in p.choices])
        _floor(axes[0], yzero, ys, vertical=False)
        for ax in axes:
            _goal_span(ax, targets[a], ys, vertical=False, colour=GOALS[0])
        axes[0].set_ylabel(ya)
    legend_outside(axes[-1])
    fig.suptitle(f"{tuning.name}: each candidate's estimates on the search seeds\nwhiskers: 95% intervals "
                 f"over games; shaded or dashed: the goal", fontsize=10)
    fig.tight_layout()
    return fig


def _floor(ax, zero: bool, scale: float, vertical: bool) -> None:
    """Start a share's or a count's axis at 0 (a share's ends at 100%), lower only where a whisker reaches below 0
    (a normal interval of a rate near 0): the axis holds every whisker it was drawn with."""
    if not zero:
        return
    low, high = ax.get_xlim() if vertical else ax.get_ylim()
    high = min(high, 104.0) if scale == 100.0 else high
    lowest = ax.dataLim.x0 if vertical else ax.dataLim.y0  # the data's own lowest point, whiskers included
    (ax.set_xlim if vertical else ax.set_ylim)(low if lowest < 0 else 0.0, max(high, 1e-9))


def _star(ax, x: float, y: float, chosen: int) -> None:
    ax.plot([x], [y], "*", color=CHOSEN, mec="k", mew=0.6, ms=15, zorder=5, label=f"chosen (#{chosen})")


def _goal_span(ax, target: Target, scale: float, vertical: bool, colour: str) -> None:
    """Shade a target's goal range (clipped to the axes, so an open end does not stretch them)."""
    goal = target.goal
    if goal.kind not in ("range", "value"):
        return
    low, high = ax.get_xlim() if vertical else ax.get_ylim()
    said = goal_text(target)
    text = f"goal of {label(target)}" + (f" {said}" if said.startswith("=") else f": {said}")
    if goal.kind == "value":
        (ax.axvline if vertical else ax.axhline)(goal.low * scale, color=colour, ls="--", lw=1.2, label=text)
    else:
        span = ax.axvspan if vertical else ax.axhspan
        span(max(goal.low * scale, low), min(goal.high * scale, high), color=colour, alpha=0.2, lw=0, label=text)
    (ax.set_xlim if vertical else ax.set_ylim)(low, high)


def _x(value, p) -> float:
    return float(p.choices.index(value)) if p.choices else float(value)


def _yerr(es: list[Estimate], scale: float = 1.0) -> list[list[float]]:
    def gap(a: float, b: float) -> float:
        return abs(a - b) * scale if math.isfinite(a - b) else 0.0

    return [[gap(e.value, e.low) for e in es], [gap(e.high, e.value) for e in es]]


def _scatter(ax, group: list[Scored], i: int, j: int, xs: float, ys: float, style: dict) -> None:
    if not group:
        return
    xe, ye = [s.estimates[i] for s in group], [s.estimates[j] for s in group]
    ax.errorbar([e.value * xs for e in xe], [e.value * ys for e in ye], xerr=_yerr(xe, xs), yerr=_yerr(ye, ys),
                capsize=2, ms=4, ls="none", **style)
