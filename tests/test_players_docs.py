"""The players' documentation says what the code does: every strategy parameter is in the README's table, with
its default (somaliland/players/README.md, Parameters)."""

import re
from pathlib import Path

from somaliland.players.strategies import OWN_PARAMS, PARAMS

README = Path(__file__).parents[1] / "somaliland" / "players" / "README.md"


def parameter_rows() -> dict[str, str]:
    """Return each parameter named in the Parameters table with its default as written there."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("## Parameters"):].split("\n## ", 1)[0]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([a-z_]+)`", cells[0])
        defaults = [d.strip() for d in re.sub(r"\([^)]*\)", "", cells[1]).split(",")]
        assert len(defaults) == len(names), f"README Parameters row {line!r}: one default per parameter"
        rows.update(zip(names, defaults))
    return rows


def test_every_strategy_parameter_is_documented_with_its_default():
    rows = parameter_rows()
    every = {**PARAMS, **{k: v for own in OWN_PARAMS.values() for k, v in own.items()}}
    for name, (kind, low, high, default) in every.items():
        assert name in rows, f"strategy parameter {name!r} missing from somaliland/players/README.md, Parameters"
        assert float(rows[name]) == float(default), (
            f"somaliland/players/README.md, Parameters: {name} default {rows[name]}, the code's is {default}")
    assert set(rows) <= set(every), f"README documents parameters the code lacks: {set(rows) - set(every)}"
