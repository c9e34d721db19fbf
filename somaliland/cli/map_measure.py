"""`somaliland map measure`: sail each map as the players' survey does, measure the firm throw and the pirates'
reach, and compare several maps leg by leg, adding voyages until their differences are told or a cap is sailed."""

from __future__ import annotations

import argparse
import json
import math
import sys

MAX_VOYAGES = 64  # lone voyages a leg at most when comparing maps, unless --max-voyages says otherwise
PORTS_SHOWN = 4  # closest passes printed per leg (nearest first); --json gives every port


def run_measure(args: argparse.Namespace) -> int:
    """Survey each map as a player would, and measure the firm throw, with real physics; compare several."""
    from physics import make_roller
    from somaliland.errors import UsageError
    from somaliland.map import load
    from somaliland.players.comparison import VOYAGES as VOYAGES_UNIT
    from somaliland.players.survey import VOYAGES
    from somaliland.rules import RulesConfig, load_rules

    maps = [load(path) for path in args.file]  # every file checked before any sailing
    rules = load_rules(args.rules) if args.rules else RulesConfig()
    several = len(maps) > 1
    luck = "measure" if several else None  # one map: the players' own draw; several: the same draws for all
    voyages = args.voyages or VOYAGES
    cap = args.max_voyages if args.max_voyages is not None else max(MAX_VOYAGES, voyages)
    if several and cap < voyages:
        raise UsageError(f"--max-voyages {cap} is fewer than --voyages {voyages}")
    roller = make_roller()
    try:
        firm = [_firm(roller, m, args) for m in maps]
        sailed = []
        while True:
            found = [_sail(roller, m, rules, args, luck, voyages) for m in maps]
            sailed.append(voyages)
            differences = _compare(found) if several else []
            following = _next_voyages(differences, voyages, cap) if several else None
            if following is None:
                break
            overlapping = sum(1 for d in _every(differences) if d.needed and d.unit == VOYAGES_UNIT)
            print(f"somaliland map measure: {overlapping} figure{'s' * (overlapping != 1)} not told apart with "
                  f"{voyages} voyages a leg; sailing {following}", file=sys.stderr)
            voyages = following
    finally:
        roller.close()
    data = [_map_data(m, survey, exposures, f, args, rules, voyages, luck)
            for m, (survey, exposures), f in zip(maps, found, firm)]
    if args.json:
        print(json.dumps(data[0] if not several else
                         {"maps": data, "same_luck": True, "voyages_sailed": sailed, "max_voyages": cap,
                          "comparison": _comparison_data(differences, args.file)}))
        return 0
    for one, path in zip(data, args.file):
        _print_measure(one, path)
    if several:
        _print_comparison(data, differences, args.file, sailed, cap)
    if sys.stdout.isatty():
        print("  (aground and off board: shares of lone throws; stride: progress made good a turn, lost turns "
              "included; see somaliland/players/survey.py and exposure.py)")
    return 0


def _firm(roller, m, args: argparse.Namespace) -> dict:
    """Return the firm throw's median roll on the map (`somaliland/map/measure.py`)."""
    import statistics

    from somaliland.map.measure import FIRM_SPEED, roll_distances
    from somaliland.seeding import make_rng
    from somaliland.units import cm

    speed = args.firm_speed or FIRM_SPEED
    distances = roll_distances(roller, m, make_rng(args.seed), args.throws, firm_speed=speed)
    q1, _, q3 = statistics.quantiles(distances, n=4)
    return {"seed": args.seed, "throws": args.throws, "firm_speed_m_s": speed,
            "median_roll_cm": round(cm(statistics.median(distances)), 2),
            "quartiles_cm": [round(cm(q1), 2), round(cm(q3), 2)]}


def _sail(roller, m, rules, args: argparse.Namespace, luck: str | None, voyages: int):
    """Return the map's survey at this many voyages a leg and each leg's pirate exposure."""
    from somaliland.players.exposure import exposure
    from somaliland.players.hand import ThrowSkill
    from somaliland.players.strategies import make_policy
    from somaliland.players.survey import convoy_size

    skill = ThrowSkill.level(args.skill)
    policy = make_policy(args.strategy, roller, heading_sd_deg=skill.heading_sd_deg, speed_sd=skill.speed_sd,
                         voyages=voyages)
    survey = policy.survey(m, rules, luck=luck)  # type: ignore[attr-defined]
    return survey, exposure(m, survey, rules, convoy_size(voyages))


def _compare(found: list) -> list:
    """Return, per map after the first, its survey and, per leg of the first map, the differences from the first
    map's figures (None: the map has no such leg) and whether both maps sailed the leg by the same voyages (its
    seizures: the whole route, whose voyages make the crowd)."""
    from somaliland.players.comparison import compare, same_voyages

    (base, base_exposures), out = found[0], []
    for survey, exposures in found[1:]:
        theirs = {(g.route, g.direction): (g, e) for g, e in zip(survey.legs, exposures)}
        same = {(g.route, g.direction): (g.route, g.direction) in theirs
                and same_voyages(g, theirs[g.route, g.direction][0]) for g in base.legs}
        route_same = {g.route: all(v for (r, _), v in same.items() if r == g.route) for g in base.legs}
        rows = [((g.route, g.direction.value),
                 compare(g, e, *theirs[g.route, g.direction], route_same[g.route]) if (g.route, g.direction) in theirs
                 else None, same[g.route, g.direction]) for g, e in zip(base.legs, base_exposures)]
        out.append((survey, rows))
    return out


def _every(differences: list) -> list:
    """Return every leg's every difference, of every map against the first."""
    return [d for _, rows in differences for _, diffs, _ in rows if diffs for d in diffs]


def _next_voyages(differences: list, voyages: int, cap: int) -> int | None:
    from somaliland.players.comparison import next_voyages

    return next_voyages(_every(differences), voyages, cap)


def _map_data(m, survey, exposures, firm: dict, args: argparse.Namespace, rules, voyages: int,
              luck: str | None) -> dict:
    """Return what `map measure` prints of one map, as its JSON object."""
    from physics.lab import wilson_interval
    from somaliland.players.hand import ThrowSkill
    from somaliland.players.survey import convoy_size
    from somaliland.units import cm

    skill = ThrowSkill.level(args.skill)
    legs = [{"route": g.route, "label": m.route(g.route).display_name, "full_value": g.full_value,
             "direction": g.direction.value, "length_cm": round(cm(g.length), 1),
             "centre_line_cm": round(cm(m.route(g.route).centre_line.length), 1),
             "median_turns": None if math.isinf(g.median_turns) else g.median_turns,
             "within_limit": round(g.within_limit, 4),
             "within_limit_ci95": [round(b, 4) for b in wilson_interval(sum(g.arrivals), g.voyages)],
             "arrivals_by_turn": list(g.arrivals),
             "convoy_within_limit": round(g.convoy_share, 4), "convoy_ships": g.convoy_ships,
             "lost_turns_per_turn_alone": round(g.lost / max(len(g.landed), 1), 4),
             "convoy_lost_turns_per_turn": round(g.convoy_lost / max(g.convoy_turns, 1), 4),
             "convoy_sunk": g.convoy_sunk, "slowing_per_companion": round(g.slowing, 4),
             "aground_per_throw": round(g.aground_rate, 4), "off_board_per_throw": round(g.off_board_rate, 4),
             "aim_expected_aground": round(g.predicted_aground / max(g.throws, 1), 4),
             "aim_expected_off_board": round(g.predicted_off_board / max(g.throws, 1), 4),
             "throws": g.throws, "stride_cm_per_turn": round(cm(g.odds.stride), 1)} for g in survey.legs]
    pirates = [{"route": e.route, "direction": e.direction.value, "targeted": e.targeted,
                "closest_pass": [{"port": p.port, "distance_cm": round(cm(p.distance), 1),
                                  "along_cm": round(cm(p.along), 1)} for p in e.passes],
                "seizures_per_voyage": round(e.seizures, 4), "seizures_ci95": [round(b, 4) for b in e.seizures_ci95],
                "turn_ends_at_sea_per_voyage": round(e.turn_ends_at_sea, 3)} for e in exposures]
    return {"map": m.name, "sha256": m.sha256, "strategy": args.strategy, "skill": args.skill,
            "heading_sd_deg": skill.heading_sd_deg, "speed_sd": skill.speed_sd, "voyages": voyages,
            "convoy_each_way": convoy_size(voyages), "turns": rules.turns_per_round, "max_moves": rules.max_moves,
            "pirate_targets": rules.pirate_targets, "survey_cpu_s": round(survey.cpu_seconds, 2), **firm,
            "luck": luck, "legs": legs, "pirates": pirates}


def _comparison_data(differences: list, paths) -> list[dict]:
    """Return the comparison as JSON: per file after the first, per leg, each figure against the first file's."""
    out = []
    for path, (_, rows) in zip(list(paths)[1:], differences):
        for (route, direction), diffs, same in rows:
            out.append({"file": str(path), "route": route, "direction": direction, "same_voyages": same,
                        "figures": None if diffs is None else [
                            {"measure": d.measure, "first": [d.base.value, d.base.low, d.base.high],
                             "this": [d.other.value, d.other.low, d.other.high], "verdict": d.verdict,
                             "needed": d.needed, "needed_of": d.unit if d.needed else None} for d in diffs]})
    return out


def _leg_name(leg: dict) -> str:
    return f"{leg['label']} ({'full' if leg['full_value'] else 'half'})"


def _print_measure(data: dict, path) -> None:
    """Print one map's survey table, its pirate exposure and what its lengths are."""
    limit = data["turns"]
    draws = ("the map's own draws, the ones its players plan by" if data["luck"] is None
             else "the same draws as the other files (common random numbers)")
    print(f"{data['map']} ({path}): surveyed by {data['strategy']} at skill {data['skill']:g} "
          f"({data['heading_sd_deg']:g} deg, {data['speed_sd']:.0%} speed), {data['voyages']} lone voyages a leg and "
          f"convoys of {data['convoy_each_way']} each way, {limit} turns and {data['max_moves']} moves a round "
          f"(R15, D10), {draws}; {data['survey_cpu_s']:.1f} s of CPU")
    q1, q3 = data["quartiles_cm"]
    print(f"  firm throw ({data['firm_speed_m_s']:g} m/s, {data['throws']} throws, seed {data['seed']}): median roll "
          f"{data['median_roll_cm']:.1f} cm (quartiles {q1:.1f} - {q3:.1f} cm)")
    names = [_leg_name(leg) for leg in data["legs"]]
    width = max(len(n) for n in names) + 2
    print(f"  {'route':<{width}}{'way':<7}{'length':>8}{'median turns':>14}{f'alone <= {limit} (95%)':>22}"
          f"{f'convoy <= {limit}':>13}{'aground':>9}{'off board':>11}{'aim expected':>15}{'stride':>10}")
    for name, leg in zip(names, data["legs"]):
        median = f"> {limit}" if leg["median_turns"] is None else f"{leg['median_turns']:g}"
        lo, hi = leg["within_limit_ci95"]
        alone = f"{leg['within_limit']:.0%} [{100 * lo:.0f}, {100 * hi:.0f}]"
        expected = f"{leg['aim_expected_aground']:.0%}, {leg['aim_expected_off_board']:.0%}"
        print(f"  {name:<{width}}{leg['direction']:<7}{leg['length_cm']:>5.0f} cm{median:>14}{alone:>22}"
              f"{leg['convoy_within_limit']:>13.0%}{leg['aground_per_throw']:>9.0%}{leg['off_board_per_throw']:>11.0%}"
              f"{expected:>15}{leg['stride_cm_per_turn']:>7.1f} cm")
    lines = dict.fromkeys(f"{leg['label']} {leg['centre_line_cm']:.1f} cm" for leg in data["legs"])
    print(f"  length: what a leg sails, along its route's centre line from the leg's start into its destination "
          f"zone; `map check` gives each route's whole centre line, end to end: {', '.join(lines)}")
    _print_pirates(data, names, width)


def _print_pirates(data: dict, names: list[str], width: int) -> None:
    """Print each leg's closest pass to the pirate ports and the seizures a voyage expects in a crowd."""
    reach = ("full-value routes only (D15)" if data["pirate_targets"] == "full_route"
             else "ships on any route (R13 as written)")
    print(f"  pirates (R13: after every turn they take the one ship nearest any pirate port; {reach}):")
    print(f"  {'route':<{width}}{'way':<7}{'seizures a voyage (95%)':<26}{'turns ended at sea':<20}closest pass "
          f"(cm from the port, at cm along the leg)")
    for name, leg in zip(names, data["pirates"]):
        shown = [f"{p['port']} {p['distance_cm']:.1f} at {p['along_cm']:.0f}" for p in leg["closest_pass"]]
        more = len(shown) - PORTS_SHOWN
        passes = ", ".join(shown[:PORTS_SHOWN]) + (f", {more} more (--json)" if more > 0 else "") or "no pirate ports"
        lo, hi = leg["seizures_ci95"]
        seized = f"{leg['seizures_per_voyage']:.2f} [{lo:.2f}, {hi:.2f}]" if leg["targeted"] else (
            "none: not taken (D15)" if leg["closest_pass"] else "none: no ports")
        print(f"  {name:<{width}}{leg['direction']:<7}{seized:<26}{leg['turn_ends_at_sea_per_voyage']:<20.1f}"
              f"{passes}")
    print(f"  seizures a voyage: expected in a crowd of {data['convoy_each_way']} ships each way on its route (the "
          f"survey's convoy), each ending a turn where the lone voyages did, on the centre line; ships of other "
          f"routes, and a seized ship's hold and lost turn, are left out (somaliland/players/exposure.py)")


CROWD = ("; this leg's voyages are the same, but a voyage's seizures depend on its crowd, which holds the route's "
         "other leg's voyages too, and those differ")
MEASURE_WORDS = {"alone": "alone <= {limit}", "aground": "aground a throw", "off board": "off board a throw",
                 "convoy": "convoy <= {limit}", "seizures": "seizures a voyage"}


def _print_comparison(data: list[dict], differences: list, paths, sailed: list[int], cap: int) -> None:
    """Print each leg's figures in every file against the first file's, and what the voyages could tell."""
    from somaliland.players.comparison import SAME, SAME_VOYAGES

    limit, voyages = data[0]["turns"], sailed[-1]
    how = (f"{voyages} voyages a leg" if len(sailed) == 1 else
           f"{' then '.join(map(str, sailed))} voyages a leg, added while figures' intervals overlapped")
    print(f"\nCompared with {paths[0]}, leg by leg (each file sailed with the same draws of the hands' scatter; 95% "
          f"intervals; {how}, at most {cap}: --max-voyages):")
    names = [str(p) for p in paths]
    width = max(len(n) for n in names) + 2
    for k, base in enumerate(data[0]["legs"]):
        print(f"  {_leg_name(base)} {base['direction']}: {base['length_cm']:.1f} cm")
        for name, (_, rows), one in zip(names[1:], differences, data[1:]):
            _, diffs, same_voyages = rows[k]
            if diffs is None:
                print(f"    {name:<{width}}no such leg")
                continue
            leg = next(g for g in one["legs"] if (g["route"], g["direction"]) == (base["route"], base["direction"]))
            if leg["length_cm"] != base["length_cm"]:
                print(f"    {name:<{width}}length {leg['length_cm']:.1f} cm")
            same = [f"{MEASURE_WORDS[d.measure].format(limit=limit)} {_figure(d.measure, d.base)}" for d in diffs
                    if d.verdict == SAME]
            if same:
                how = "the same voyages" if same_voyages else "other voyages, the same figures"
                print(f"    {name:<{width}}{how}: {', '.join(same)}")
            for d in diffs:
                if d.verdict != SAME:
                    label = MEASURE_WORDS[d.measure].format(limit=limit)
                    values = f"{_figure(d.measure, d.base)}  ->  {_figure(d.measure, d.other)}"
                    crowd = (CROWD if same_voyages and d.measure == "seizures" and d.verdict != SAME_VOYAGES
                             else "")
                    print(f"    {name:<{width}}{label:<20}{values:<44}{_verdict(d, cap)}{crowd}")


def _verdict(d, cap: int) -> str:
    """Return what a difference tells, in words."""
    from somaliland.players.comparison import APART, CONVOY_SHIPS, SAME_VOYAGES
    from somaliland.players.survey import CONVOY_RUNS_MAX

    change = _change(d.measure, d.other.value - d.base.value)
    if d.verdict == SAME_VOYAGES:
        return f"{change}: the map's alone (the same voyages in both)"
    if d.verdict == APART:
        return f"{change}, told apart (intervals apart)"
    if d.unit == CONVOY_SHIPS:
        return (f"{change}, not told apart: about {d.needed:,} convoy ships a leg would tell it (the survey sails "
                f"at most {CONVOY_RUNS_MAX} convoys a route, whatever the voyages)")
    beyond = " (beyond --max-voyages)" if d.needed > cap else ""
    return f"{change}, not told apart: about {d.needed:,} voyages a leg would tell it{beyond}"


def _figure(measure: str, f) -> str:
    if measure == "seizures":
        return f"{f.value:.2f} [{f.low:.2f}, {f.high:.2f}]"
    return f"{f.value:.0%} [{100 * f.low:.0f}, {100 * f.high:.0f}]"


def _change(measure: str, change: float) -> str:
    return f"{change:+.2f}" if measure == "seizures" else f"{100 * change:+.0f} percentage points"
