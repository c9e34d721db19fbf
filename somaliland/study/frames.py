"""Columns a report derives from the results tables: contract value bands, net points, sailed contracts, and what
played a seat. Pure functions of pandas DataFrames, shared by the answers, the sections and the figures.
"""

from __future__ import annotations

VALUE_BINS = (30, 40, 48, 56, 65)  # contract values (R3: 30..64) in four bands of about equal width


def route_value(contracts):
    """Return contracts with their value band (`band`) and net points (`net`: points minus the ransoms its ships
    paid, R13, R21)."""
    import pandas as pd

    frame = contracts.copy()
    frame["band"] = pd.cut(frame.value, VALUE_BINS, right=False,
                           labels=[f"{a}-{b - 1 if b < 65 else 64}" for a, b in zip(VALUE_BINS, VALUE_BINS[1:])])
    frame["net"] = frame.points - frame.ransom
    return frame


def route_table(contracts):
    """Return sailed contracts (at least one ship sent) with value band and net points (points − ransoms)."""
    if contracts.empty:
        return contracts
    frame = route_value(contracts)
    return frame[frame.ships > 0]


def seat_kind(rows, seat: int):
    """Return, for each row of one seat, what played it: its strategy, with that seat's swept parameters
    (e.g. "search (search_samples=64)"), so that a sweep of strategies and skills reads per strategy."""
    if "strategy" not in rows.columns:
        return rows.index.to_series().map(lambda _: "")
    params = [c for c in rows.columns if c.startswith((f"seat{seat}_params_", "seats_params_"))]

    def kind(row) -> str:
        swept = [f"{c.split('_params_', 1)[1]}={row[c]:g}" if isinstance(row[c], (int, float)) else
                 f"{c.split('_params_', 1)[1]}={row[c]}" for c in params if row[c] == row[c] and row[c] is not None]
        return f"{row['strategy']} ({', '.join(swept)})" if swept else str(row["strategy"])

    return rows.apply(kind, axis=1) if len(rows) else rows.strategy.astype(str)


def game_keys(frame):
    """Return the (cell, game) pairs of a table's rows, each once, in order: the games a figure or section rests on."""
    import pandas as pd

    if frame is None or len(frame) == 0:
        return pd.MultiIndex.from_tuples([], names=["cell", "game"])
    return pd.MultiIndex.from_frame(frame[["cell", "game"]].drop_duplicates().sort_values(["cell", "game"]))
