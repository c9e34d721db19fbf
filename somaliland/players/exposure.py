"""What the pirates threaten on each leg of a map: how close the leg passes to each pirate port, and the
seizures a voyage can expect in a crowd (R13, D8, D15), read off the players' survey (`survey.py`).

The survey sails without pirates, so neither its voyages nor the players' outlook (`outlook.py`, which
shares one seizure a turn evenly among the ships at sea) see where the ports lie. This module does, for
`somaliland map measure`:

- **Closest pass**: the nearest the leg's centre line comes to each port between the leg's start and its
  destination (what a ship sails), and how far along the leg that is. Exact geometry.
- **Seizures a voyage expects in a crowd**: after every turn the pirates take the one ship nearest any
  port among those they may take (R13; D15: by default ships on a full-value route only). The crowd is
  the survey's convoy: `company` ships each way on the leg's route, each at sea after turn t with the
  share of the leg's lone voyages still at sea then, and at a place drawn from where those voyages ended
  turn t. A voyage's expected seizures are the sum, over the turns it ended at sea, of the chance that
  no other ship of the crowd lay nearer the ports (shared evenly among ships as near). Its 95% interval
  is a bootstrap over the lone voyages (resampled on every leg of the route at once).

Simplifications, stated where the figures are printed: a ship's place at a turn's end is taken on the
centre line at the progress its lone voyage had made (the survey keeps progress, not the place off the
line); ships of other routes are not in the crowd; a taken ship is not held (D8) and loses no turn here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import Point
from shapely.ops import nearest_points, substring

from somaliland.map.model import Direction, Map, Route
from somaliland.players.survey import LegSurvey, Survey
from somaliland.rules.config import RulesConfig
from somaliland.rules.pirates import targets_route
from somaliland.seeding import make_rng

RESAMPLES = 400  # bootstrap resamples of the lone voyages for a seizure figure's interval
BOOTSTRAP_SEED = 0  # the resamples' seed: the same survey gives the same interval


@dataclass(frozen=True, slots=True)
class PortPass:
    """The nearest a leg's centre line comes to one pirate port, between the leg's start and destination."""

    port: str
    distance: float  # metres
    along: float  # metres along the leg from its start to where it comes nearest


@dataclass(frozen=True, slots=True)
class Exposure:
    """One leg's pirate exposure: its closest passes (nearest port first) and the seizures a voyage expects in a
    crowd with their 95% interval (0 where the pirates may not take ships of this route, D15)."""

    route: str
    direction: Direction
    passes: tuple[PortPass, ...]
    targeted: bool
    seizures: float
    seizures_ci95: tuple[float, float]
    turn_ends_at_sea: float  # per voyage, on average: the turns a voyage ended at sea, each a chance of seizure


def passes(world: Map, route: Route, direction: Direction) -> tuple[PortPass, ...]:
    """Return the leg's closest pass to each pirate port, nearest first."""
    line, length = route.centre_line, route.centre_line.length
    start = route.progress(direction, *route.leg(direction).start)
    end = start + world.leg_length(route.name, direction)
    low, high = (start, end) if direction is Direction.NORTH else (length - end, length - start)
    sailed = substring(line, low, high) if high > low else Point(line.interpolate(low))
    found = []
    for port in world.pirate_ports:
        at = Point(port.point)
        nearest = nearest_points(sailed, at)[0]
        found.append(PortPass(port.name, float(sailed.distance(at)),
                              route.progress(direction, nearest.x, nearest.y) - start))
    return tuple(sorted(found, key=lambda p: p.distance))


def turn_ends(leg: LegSurvey, start: float) -> list[list[float]]:
    """Return, for each lone voyage of the leg, its progress along the leg at the end of every turn it ended at sea
    (not arrived), from the survey's log of turns (`LegSurvey.made_good`, `landed`); `start` is the start's."""
    voyages: list[list[float]] = []
    ends: list[float] = []
    done = start
    for made, landed in zip(leg.made_good, leg.landed):
        if not landed:
            done += made
            ends.append(done)
        if landed or len(ends) == leg.turns:
            voyages.append(ends)
            ends, done = [], start
    return voyages


def distances(world: Map, route: Route, direction: Direction, voyages: list[list[float]], turns: int) -> np.ndarray:
    """Return (voyages x turns) distances from the nearest pirate port of each voyage's place at each turn's end,
    taken on the centre line at its progress; inf where it did not end that turn at sea."""
    out = np.full((len(voyages), turns), math.inf)
    if not world.pirate_ports:
        return out
    ports = np.array([p.point for p in world.pirate_ports], dtype=float)
    length = route.centre_line.length
    for v, ends in enumerate(voyages):
        if not ends:
            continue
        along = np.clip(np.asarray(ends), 0.0, length)
        along = along if direction is Direction.NORTH else length - along
        places = shapely.get_coordinates(shapely.line_interpolate_point(route.centre_line, along))
        out[v, :len(ends)] = np.linalg.norm(places[:, None, :] - ports[None, :, :], axis=-1).min(axis=1)
    return out


def crowd_seizures(own: np.ndarray, other: np.ndarray, company: int, own_weights: np.ndarray,
                   other_weights: np.ndarray) -> np.ndarray:
    """Return the seizures a voyage of one leg expects in a crowd, for each row of weights (R13).

    `own` and `other` are (voyages x turns) distances from the nearest port (inf: not at sea) of the leg's lone
    voyages and its route's other leg's; the crowd is `company - 1` more ships of the leg and `company` of the
    other leg, each drawn from its leg's voyages by the weights (resamples x voyages: how often each voyage
    counts). A ship is taken at a turn's end when no other ship of the crowd lies nearer the ports, shared
    evenly among the ships at the same distance (the rules break a tie by the order ships are listed in, which
    favours no leg). The chance 1 / (1 + ships tied) is the integral of x^(ships tied) over 0..1, so for each
    distance it is the integral of a polynomial of degree below `2 * company`: Gauss-Legendre quadrature of
    `company` + 1 nodes is exact.
    """
    nodes, node_weights = np.polynomial.legendre.leggauss(company + 1)
    x, dx = (nodes + 1) / 2, node_weights / 2  # on 0..1
    total = np.zeros(own_weights.shape[0])
    for t in range(own.shape[1]):
        d = own[:, t]
        at_sea = np.isfinite(d)
        if not at_sea.any():
            continue
        clear = np.ones((own_weights.shape[0], int(at_sea.sum()), len(x)))
        for ds, weights, ships in ((own[:, t], own_weights, company - 1), (other[:, t], other_weights, company)):
            nearer, level = _shares(ds, weights, d[at_sea])
            clear *= (1.0 - nearer[..., None] - level[..., None] * (1.0 - x)) ** ships
        total += (own_weights[:, at_sea] * (clear @ dx)).sum(axis=1)
    return total / own_weights.sum(axis=1)


def _shares(ds: np.ndarray, weights: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (resamples x len(at)) weighted shares of the voyages that end nearer the ports than each distance, and
    at the same distance (those not at sea, inf, are neither)."""
    total = weights.sum(axis=1, keepdims=True)
    return (weights @ (ds[None, :] < at[:, None]).T / total, weights @ (ds[None, :] == at[:, None]).T / total)


def exposure(world: Map, survey: Survey, config: RulesConfig, company: int) -> tuple[Exposure, ...]:
    """Return every surveyed leg's pirate exposure, in the survey's order (see the module docstring)."""
    rng = make_rng(BOOTSTRAP_SEED)
    found = []
    for leg in survey.legs:
        route = world.route(leg.route)
        targeted = bool(world.pirate_ports) and targets_route(leg.full_value, config)
        own = _voyage_distances(world, route, leg)
        turns_at_sea = float(np.isfinite(own).sum(axis=1).mean()) if len(own) else 0.0
        if not targeted or not len(own):
            found.append(Exposure(leg.route, leg.direction, passes(world, route, leg.direction), targeted, 0.0,
                                  (0.0, 0.0), turns_at_sea))
            continue
        back = survey.leg(leg.route, Direction.SOUTH if leg.direction is Direction.NORTH else Direction.NORTH)
        other = _voyage_distances(world, route, back)
        weights = [np.vstack([np.ones(len(v)), rng.multinomial(len(v), [1 / len(v)] * len(v), RESAMPLES)])
                   for v in (own, other)]
        draws = crowd_seizures(own, other, company, *weights)
        low, high = np.percentile(draws[1:], [2.5, 97.5])
        found.append(Exposure(leg.route, leg.direction, passes(world, route, leg.direction), True, float(draws[0]),
                              (float(low), float(high)), turns_at_sea))
    return tuple(found)


def _voyage_distances(world: Map, route: Route, leg: LegSurvey) -> np.ndarray:
    start = route.progress(leg.direction, *route.leg(leg.direction).start)
    return distances(world, route, leg.direction, turn_ends(leg, start), leg.turns)
