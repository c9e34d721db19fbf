"""`somaliland scan`: check game records against D19 (the path counts) and D20 (once released, at sea) from
their own lines, independently of the rules code that played them."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    """Add the command to the parser."""
    p = commands.add_parser(
        "scan", help="check game records for D19 groundings and D20 releases from their paths and lines",
        description="Re-score game records from the rules text and their own lines. D19: every die's recorded "
                    "path is measured; a die that rolled 5 mm or more over land while on the board (the rules' "
                    "3 mm coast tolerance, or the record's own, plus 2 mm for this scan's sampling of the path), "
                    "with no grounded line after that throw, is flagged (a ship that sank in that throw or had arrived "
                    "before it is listed as excused), and the dice that did ground are listed with how "
                    "far they rolled over land. D20: a ship released more than once for one seizure, or a "
                    "released ship pushed into its destination without an arrived line, is flagged. Exit status "
                    "0 when nothing is flagged, 1 when something is, 2 when a record or map cannot be read (the "
                    "other records are still scanned).",
    )
    p.add_argument("records", type=Path, nargs="+", metavar="RECORD", help="game records (JSON Lines) to scan")
    p.add_argument("--map", type=Path, default=None,
                   help="map file to judge them on (default: the map each record names, found by its sha256)")
    p.add_argument("--json", action="store_true", help="print every record's scan and the totals as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Scan each record; print a summary per record and the totals."""
    import json
    import sys

    from somaliland.cli.main import USER_ERRORS
    from somaliland.engine.scan import format_scan, scan_json, scan_record

    scans, errors = [], []
    for record in args.records:
        try:
            scan = scan_record(record, args.map)
        except USER_ERRORS as error:
            errors.append(str(error))
            print(f"somaliland scan: error: {error}", file=sys.stderr)
            continue
        scans.append(scan)
        for warning in scan.warnings:
            print(f"somaliland scan: warning: {record}: {warning}", file=sys.stderr)
        if not args.json:
            print("\n".join(format_scan(scan)))
    totals = _totals(scans)
    if args.json:
        print(json.dumps({"records": [scan_json(s) for s in scans], "totals": totals, "errors": errors},
                         allow_nan=False))
    elif scans:
        print(f"Totals over {totals['records']} record{'s' * (totals['records'] != 1)}: D19 judged in "
              f"{totals['d19_judged']}: {totals['paths']} dice paths, {totals['groundings']} grounded, "
              f"{totals['d19_flags']} rolled {_bars(scans)} or more over land without grounding "
              f"({totals['excused']} more excused: sunk or arrived); D20 judged in "
              f"{totals['d20_judged']}: {totals['seizures']} seizures, {totals['releases']} releases, "
              f"{totals['pushed_home']} released ships pushed into their destination, {totals['d20_flags']} "
              f"flagged.")
    if errors:
        return 2
    return 1 if totals["d19_flags"] + totals["d20_flags"] else 0


def _bars(scans: list) -> str:
    """Return the records' D19 bar in mm, or how it is set when their coast tolerances differ."""
    from somaliland.engine.scan import SAMPLING_ALLOWANCE

    bars = {round(s.bar * 1000, 3) for s in scans}
    return (f"{bars.pop():g} mm" if len(bars) == 1
            else f"their record's coast tolerance + {SAMPLING_ALLOWANCE * 1000:g} mm")


def _totals(scans: list) -> dict[str, int]:
    """Return the sums over the records' scans."""
    return {
        "records": len(scans),
        "d19_judged": sum(s.d19 == "judged" for s in scans),
        "d20_judged": sum(s.d20 == "judged" for s in scans),
        "paths": sum(s.paths for s in scans),
        "groundings": sum(len(s.groundings) for s in scans),
        "excused": sum(len(s.excused) for s in scans),
        "d19_flags": sum(f.ruling == "D19" for s in scans for f in s.flags),
        "seizures": sum(s.seizures for s in scans),
        "releases": sum(s.releases for s in scans),
        "pushed_released": sum(s.pushed_released for s in scans),
        "pushed_home": sum(s.pushed_home for s in scans),
        "d20_flags": sum(f.ruling == "D20" for s in scans for f in s.flags),
    }
