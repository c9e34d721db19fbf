"""Arrival: a ship whose die rests in its leg's destination zone has reached its destination (R8, R9)."""

from __future__ import annotations

from shapely import Point

from physics import Pose
from somaliland.map.model import Map
from somaliland.rules.state import ShipState


def in_destination(ship: ShipState, pose: Pose, world: Map) -> bool:
    """Return True if the die's centre, resting in `pose`, lies in the destination of the ship's leg (R9)."""
    if ship.route is None or ship.card is None:
        return False
    zone = world.route(ship.route).leg(ship.card.direction).destination
    return bool(zone.covers(Point(pose.position[0], pose.position[1])))
