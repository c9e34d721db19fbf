"""Which arrived ships fulfil which contracts: the best allotment, found exactly (R9, R10, D5, D6).

Points are counted in half-points (a full-route contract scores twice its value, a safe-route one its
value) so every comparison is exact integer arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from somaliland.map.model import Direction


@dataclass(frozen=True, slots=True)
class Cargo:
    """A contract to fulfil: value, direction and declared route (None when each ship picks its own, D5)."""

    value: int
    direction: Direction
    route: str | None


@dataclass(frozen=True, slots=True)
class Hull:
    """An arrived ship that may count towards contracts: displacement, route, direction, assigned contract."""

    displacement: int
    route: str
    direction: Direction
    cargo: int  # index of the contract it was assigned (R10)
    full_value: bool  # its route is the full-value one (R8)


@dataclass(frozen=True, slots=True)
class Allotment:
    """The chosen allotment: for each contract the hulls carrying it (empty: not fulfilled)."""

    ships: tuple[tuple[int, ...], ...]  # by contract, indices into the hulls
    half_points: tuple[int, ...]  # by contract: 2 x value on a full route, value on a safe one, 0 if failed

    @property
    def fulfilled(self) -> tuple[int, ...]:
        """Return the indices of fulfilled contracts."""
        return tuple(i for i, s in enumerate(self.ships) if s)


def may_carry(hull: Hull, cargo_index: int, cargo: Cargo, pooled: bool) -> bool:
    """Return True if the hull may count for this contract (R10; D6 pools same route and direction)."""
    if not pooled:
        return hull.cargo == cargo_index
    return hull.direction is cargo.direction and cargo.route in (None, hull.route)


def value_of(cargo: Cargo, hulls: tuple[Hull, ...], chosen: tuple[int, ...]) -> int:
    """Return the half-points a contract scores with these hulls: full only if all sailed full routes (R8, R21)."""
    if not chosen or sum(hulls[i].displacement for i in chosen) < cargo.value:
        return 0
    return 2 * cargo.value if all(hulls[i].full_value for i in chosen) else cargo.value


def best_allotment(cargoes: tuple[Cargo, ...], hulls: tuple[Hull, ...], pooled: bool) -> Allotment:
    """Return the allotment scoring the most, then fulfilling fewest contracts, then using fewest ships (R9, R10, D6).

    Exhaustive over ship subsets with memoisation: contracts in turn take a subset of the ships still
    free (or none). Fleets are small (six ships), so this is exact and fast.
    """
    n = len(hulls)
    full = (1 << n) - 1
    allowed = tuple(sum(1 << h for h in range(n) if may_carry(hulls[h], c, cargoes[c], pooled))
                    for c in range(len(cargoes)))

    @lru_cache(maxsize=None)
    def best(c: int, free: int) -> tuple[tuple[int, int, int], tuple[int, ...]]:
        if c == len(cargoes):
            return (0, 0, 0), ()
        key, rest = best(c + 1, free)
        top = (key, (0,) + rest)
        avail = free & allowed[c]
        sub = avail
        while sub:
            chosen = tuple(h for h in range(n) if sub >> h & 1)
            gained = value_of(cargoes[c], hulls, chosen)
            if gained:
                (s2, f2, u2), r2 = best(c + 1, free & ~sub)
                key = (s2 + gained, f2 - 1, u2 - len(chosen))
                if key > top[0]:
                    top = (key, (sub,) + r2)
            sub = (sub - 1) & avail
        return top

    _, masks = best(0, full)
    ships = tuple(tuple(h for h in range(n) if m >> h & 1) for m in masks)
    return Allotment(ships, tuple(value_of(cargoes[c], hulls, ships[c]) for c in range(len(cargoes))))
