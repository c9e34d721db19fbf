"""Measure a map with real physics: how far a firm throw rolls on it (`somaliland map measure`).

A firm throw is a brisk roll: FIRM_SPEED m/s (+-10%), random spin, released 2 cm up. How many turns the
routes take is measured by the players' own survey (`somaliland/players/survey.py`): the command sails
the map with a named strategy's aim, hand model and the rules' move limit.
"""

from __future__ import annotations

import math

import numpy as np

from physics import DieSpec, PlacedDie, Pose, Roller, Scene, Throw
from somaliland.map.model import Map

FIRM_SPEED = 1.8  # m/s at release
SPEED_SPREAD = 0.10  # a throw's speed varies by up to this share
SPIN = 20.0  # rad/s: each spin component uniform in +-SPIN
RELEASE = 0.02  # m
SHIP = DieSpec(faces=(4, 4, 4, 4, 4, 4))  # the 24-pip ship (D1); the size is the default 16 mm


def firm_throw(rng: np.random.Generator, origin: tuple[float, float], heading: float, strength: float = 1.0,
               firm_speed: float = FIRM_SPEED) -> Throw:
    """Return a throw of the ship at `strength` times a firm throw's speed, aimed along `heading`."""
    return Throw("ship", origin, heading, speed=firm_speed * strength * float(rng.uniform(1 - SPEED_SPREAD,
                                                                                           1 + SPEED_SPREAD)),
                 spin=tuple(float(w) for w in rng.uniform(-SPIN, SPIN, 3)), release_height=RELEASE)


def roll_distances(roller: Roller, m: Map, rng: np.random.Generator, throws: int, strength: float = 1.0,
                   firm_speed: float = FIRM_SPEED) -> list[float]:
    """Return how far (m) each of `throws` throws rolled, thrown north from the board's south middle."""
    origin = (m.width / 2, min(0.1, m.depth / 4))
    out = []
    for _ in range(throws):
        scene = Scene(board=m.board(), dice=(PlacedDie("ship", SHIP, Pose.resting(SHIP, *origin)),))
        x, y, _ = roller.roll(scene, firm_throw(rng, origin, math.pi / 2, strength, firm_speed)).thrown.position
        out.append(math.hypot(x - origin[0], y - origin[1]))
    return out
