"""Aiming on hand-built positions: along the route, a push near the goal, off land, clear of ships and pirates.

The small map of `rules_fixtures`: the full-value route "somalia" runs north along x = 0.62, its
northern destination a box from y = 0.75. Most tests aim with a hand-made throw model (rolls of 4 to
10 cm, no physics scatter) and no hand spread, so the chosen landing is exactly predictable.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely
from shapely import LineString, Point, box

from physics import Style
from rules_fixtures import N, config, game, place, world
from somaliland.map import Direction, default_map
from somaliland.map.model import Land
from somaliland.players.aim import Spread, aim
from somaliland.players.hazards import AimWeights
from somaliland.players.calibration import ThrowModel, calibrate
from somaliland.players.policy import Table
from somaliland.rules import Card, check_throw
from somaliland.rules.state import Status

SIZE = 0.016
SHORT = ThrowModel(size=SIZE, tumble=0.0, speeds=(0.5, 1.0), reach=(0.04, 0.10), along_sd=(0.0, 0.0),
                   across_sd=(0.0, 0.0), quarter=0.0187, half=0.0373, rolls=0)
STILL = Spread(0.0, 0.0)
CARD = Card(40, N)


def landing(throw, model: ThrowModel = SHORT) -> tuple[float, float]:
    """Return where the throw should come to rest by the model (no scatter)."""
    reach = {Style.QUARTER: model.quarter, Style.HALF: model.half}.get(throw.style)
    if reach is None:
        reach = float(model.reach_at(throw.speed))
    return (throw.origin[0] + reach * math.cos(throw.heading), throw.origin[1] + reach * math.sin(throw.heading))


def at_sea(x: float, y: float, ship: str = "red-24", state=None):
    """Return a state with the ship at sea at (x, y) carrying 40 North on the full-value route."""
    return place(state or game(), ship, x, y, card=CARD, route="somalia")


def test_aim_follows_the_route_north():
    state = at_sea(0.62, 0.30)
    throw = aim(Table(state, world(), config(), 0), "red-24", SHORT, STILL)
    assert throw.style is Style.ROLL
    assert throw.heading == pytest.approx(math.pi / 2, abs=math.radians(1))
    assert landing(throw)[1] == pytest.approx(0.40, abs=1e-3)  # the longest roll: all progress, no hazard
    check_throw(state, "red-24", throw.origin, throw.heading, world(), config())


def test_a_launch_starts_at_the_route_start_within_the_heading_tolerance():
    cfg = config(launch_heading_tolerance=math.radians(5))
    state = place(game(cfg), "red-24", status=Status.IN_PORT, card=CARD, route="somalia")
    throw = aim(Table(state, world(), cfg, 0), "red-24", SHORT, STILL)
    assert throw.origin == pytest.approx((0.62, 0.10))
    check_throw(state, "red-24", throw.origin, throw.heading, world(), cfg)  # R12


def test_a_ship_just_short_of_a_small_goal_pushes():
    small = box(0.60, 0.75, 0.64, 0.78)  # 4 x 3 cm: the shortest roll (4 cm) could overshoot it
    route = world().route("somalia")
    tiny = replace(world(), routes=(replace(route, north=replace(route.north, destination=small)),
                                    world().route("africa")))
    state = at_sea(0.62, 0.735)
    throw = aim(Table(state, tiny, config(), 0), "red-24", SHORT, Spread())
    assert throw.style in (Style.QUARTER, Style.HALF)
    assert small.covers(Point(landing(throw)))


def test_a_push_is_chosen_with_the_calibrated_model(roller):
    model = calibrate(roller, SIZE, 0.004, tumble=0.05)
    small = box(0.60, 0.75, 0.64, 0.78)
    route = world().route("somalia")
    tiny = replace(world(), routes=(replace(route, north=replace(route.north, destination=small)),
                                    world().route("africa")))
    throw = aim(Table(at_sea(0.62, 0.735), tiny, config(), 0), "red-24", model, Spread())
    assert throw.style in (Style.QUARTER, Style.HALF)


def test_aim_keeps_off_an_island_on_the_route():
    island = box(0.60, 0.43, 0.64, 0.47)
    islet = replace(world(), lands=world().lands + (Land("islet", island),))
    state = at_sea(0.62, 0.36)
    throw = aim(Table(state, islet, config(), 0), "red-24", SHORT, STILL)
    end = landing(throw)
    assert not islet.is_land(*end)
    assert island.distance(Point(end)) > 0.0


def test_aim_steers_clear_of_a_ship_ahead():
    state = at_sea(0.62, 0.42, "green-24", at_sea(0.62, 0.36))
    throw = aim(Table(state, world(), config(), 0), "red-24", SHORT, STILL)
    path = LineString([throw.origin, landing(throw)])
    assert path.distance(Point(0.62, 0.42)) >= 1.5 * SIZE  # no touch, so no sinking (R18)


def test_aim_does_not_end_nearest_a_pirate_port():
    # green's ship lies 0.11 from Eyl (0.52, 0.45), out of red's way; the longest roll along the centre
    # line would end 0.1005 from Eyl, nearer than green, so red would be seized (R13): it must end farther out
    green = (0.52 + 0.11 * math.cos(math.pi / 3), 0.45 + 0.11 * math.sin(math.pi / 3))
    state = at_sea(*green, "green-24", at_sea(0.62, 0.36))
    throw = aim(Table(state, world(), config(), 0), "red-24", SHORT, STILL)
    end = landing(throw)
    assert math.dist(end, (0.52, 0.45)) > 0.11
    assert end[1] > 0.40  # still made good progress


def test_aim_is_deterministic():
    state = at_sea(0.62, 0.42, "green-24", at_sea(0.62, 0.36))
    table = Table(state, world(), config(), 0)
    assert aim(table, "red-24", SHORT, Spread()) == aim(table, "red-24", SHORT, Spread())


@pytest.mark.parametrize("route", ["somalia", "africa"])
@pytest.mark.parametrize("direction", ["north", "south"])
def test_launches_on_the_default_map_are_legal_and_head_up_the_leg(roller, route, direction):
    board, cfg = default_map(), config()
    card = Card(40, Direction(direction))
    state = place(game(), "red-24", status=Status.IN_PORT, card=card, route=route)
    model = calibrate(roller, cfg.die_size, cfg.die_mass, tumble=0.05)
    throw = aim(Table(state, board, cfg, 0), "red-24", model)
    check_throw(state, "red-24", throw.origin, throw.heading, board, cfg)  # R12, R16
    leg = board.route(route)
    ahead = leg.progress_along(card.direction, np.array([landing(throw, model)]))[0]
    assert ahead - leg.progress(card.direction, *throw.origin) > 0.1  # the throw makes way along the leg


def test_vector_helpers_give_the_scalar_results_bit_for_bit():
    """The aim's vectorised helpers are speed-ups: each must equal the scalar computation it replaces."""
    from somaliland.players.hazards import _paths_touch, points_at

    board = default_map()
    route = board.routes[0]
    rng = np.random.default_rng(3)
    pts = rng.uniform([0.0, 0.0], [board.width, board.depth], size=(40, 2))
    for direction in Direction:
        assert route.progress_along(direction, pts).tolist() == [route.progress(direction, x, y) for x, y in pts]
        along = np.linspace(-0.1, route.centre_line.length + 0.1, 25)
        length = route.centre_line.length
        scalar = [route.centre_line.interpolate(min(max(d, 0.0), length) if direction is Direction.NORTH
                                                else length - min(max(d, 0.0), length)) for d in along]
        assert points_at(route, direction, along).tolist() == [[p.x, p.y] for p in scalar]
    origin, ends, centres = pts[0], pts[1:30], pts[30:]
    d = ends - origin
    c = centres[None, :, :] - origin
    t = np.clip((c * d[:, None, :]).sum(-1) / np.maximum((d * d).sum(-1), 1e-12)[:, None], 0.0, 1.0)
    distance = np.linalg.norm(t[..., None] * d[:, None, :] - c, axis=-1).min(axis=1)  # the (n, k, 2) form
    for clearance in (0.01, 0.05, float(np.median(distance))):
        assert _paths_touch(origin, ends, centres, clearance).tolist() == (distance < clearance).tolist()
    assert not _paths_touch(origin, ends, centres[:0], 0.05).any()


@pytest.mark.parametrize("rule", ["nearest_sea", "nearest_board", "move_start"])
def test_a_ship_off_the_board_is_priced_where_the_rules_put_it_back(rule):  # R19, D13
    from somaliland.players.aim import prior_odds, sizing_up
    from somaliland.players.hazards import put_back
    from somaliland.rules import replacement_point

    cfg = config(off_board=rule)
    state = at_sea(0.62, 0.30)
    s = sizing_up(Table(state, world(), cfg, 0), "red-24", SHORT, prior_odds(SHORT))
    rests = np.array([[0.80, 0.45], [0.62, -0.05], [-0.02, 0.93], [0.40, 0.95]])
    expected = [replacement_point(tuple(p), s.origin, world(), cfg) for p in rests.tolist()]
    assert put_back(s, rests) == pytest.approx(np.array(expected), abs=1e-9)


def test_leaving_the_board_keeps_no_progress_when_the_ship_goes_back_where_it_started():  # R19, D13
    from somaliland.players.aim import prior_odds, sizing_up
    from somaliland.players.hazards import score_landings

    ahead = np.array([[0.80, 0.40]])  # 10 cm up the leg, beyond the east edge
    worth = {}
    for rule in ("nearest_sea", "move_start"):
        cfg = config(off_board=rule)
        s = sizing_up(Table(at_sea(0.62, 0.30), world(), cfg, 0), "red-24", SHORT, prior_odds(SHORT))
        worth[rule] = float(score_landings(s, ahead, AimWeights())[0])
    assert worth["nearest_sea"] > worth["move_start"]  # put back beside the lane 10 cm on, or where it began


@pytest.mark.parametrize("lever, expected", [({}, 4.0), ({"ransom": "fixed", "ransom_fixed": 7}, 7.0),
                                             ({"ransom": "share", "ransom_share_percent": 25}, 10.0)])
def test_L1_the_aim_prices_a_capture_at_the_ransom_in_force(lever, expected):
    from somaliland.players.aim import prior_odds, sizing_up

    table = Table(at_sea(0.62, 0.30), world(), config(**lever), 0)  # red-24 (4 pips a face) carrying 40 North
    assert sizing_up(table, "red-24", SHORT, prior_odds(SHORT)).ransom_pips == expected


def test_D19_the_aim_prices_a_throw_across_land_as_aground_where_it_meets_the_coast():
    from somaliland.players.aim import prior_odds, sizing_up
    from somaliland.players.rays import run_aground

    cfg = config()  # grounding_on = "path"
    s = sizing_up(Table(at_sea(0.20, 0.45), world(), cfg, 0), "red-24", SHORT, prior_odds(SHORT))
    ends = np.array([[0.55, 0.45], [0.20, 0.60]])  # east across the land block (x 0.25-0.50); north along the sea
    aground, rests = run_aground(s, ends)
    assert aground.tolist() == [True, False]
    assert rests[0][0] < 0.25 and rests[1].tolist() == [0.20, 0.60]  # set down back on the sea side of the coast
    rest_only = sizing_up(Table(at_sea(0.20, 0.45), world(), config(grounding_on="rest"), 0), "red-24", SHORT,
                          prior_odds(SHORT))
    assert rest_only.coast is None  # D11 alone: only the rest counts


def _first_land_at_every_step(s, rays):
    """Return first_land by its definition: every RAY_STEP of each ray from its flight to its reach, asked of shapely
    against the coast grown by the ray's wander."""
    from somaliland.players.rays import MARGINS, RAY_STEP

    found = np.full(len(rays.reach), np.inf)
    steps = np.arange(1, int(math.ceil(float(rays.reach.max()) / RAY_STEP)) + 1) * RAY_STEP
    for r in range(len(rays.reach)):
        level = 0 if rays.wander is None else int(np.searchsorted(MARGINS, rays.wander[r], side="right")) - 1
        flown = 0.0 if rays.flight is None else rays.flight[r]
        x, y = s.origin[0] + rays.direction[r, 0] * steps, s.origin[1] + rays.direction[r, 1] * steps
        over = shapely.contains_xy(s.coast[level], x, y) & (steps <= rays.reach[r]) & (steps >= flown)
        if over.any():
            found[r] = steps[over.argmax()]
    return found


def test_D19_the_first_land_on_each_ray_is_the_first_step_shapely_finds_on_land():
    """first_land skips steps and asks a raster first: a speed-up, so every ray's answer is the definition's."""
    from dataclasses import replace as changed

    from somaliland.players.aim import prior_odds, sizing_up
    from somaliland.players.rays import MARGINS, RAY_STEP, Rays, first_land, run_aground

    board = default_map()
    state = place(game(), "red-24", 0.30, 0.20, card=CARD, route="somalia")
    s = sizing_up(Table(state, board, config(), 0), "red-24", SHORT, prior_odds(SHORT))
    rng = np.random.default_rng(7)
    origins = np.vstack([rng.uniform((-0.05, -0.05), (0.8, 0.95), (40, 2)),
                         shapely.get_coordinates(s.coast[0])[::10][:15] + rng.normal(0, 0.01, (15, 2))])
    for origin in origins.tolist():
        here = changed(s, origin=(origin[0], origin[1]))
        n = 50
        heading = rng.uniform(-math.pi, math.pi, n)
        direction = np.stack([np.cos(heading), np.sin(heading)], axis=1)
        on_step = rng.random((2, n)) < 0.5  # some flights and reaches exactly on a step
        reach = np.where(on_step[0], rng.integers(0, 90, n) * RAY_STEP, rng.uniform(0.0, 0.45, n))
        flight = np.where(on_step[1], rng.integers(0, 16, n) * RAY_STEP, rng.uniform(0.0, 0.08, n))
        wander = np.where(on_step[0], rng.choice(MARGINS, n), rng.uniform(0.0, 1.2 * MARGINS[-1], n))
        rays = Rays(np.arange(n), direction, reach, flight, wander)
        assert np.array_equal(first_land(here, rays), _first_land_at_every_step(here, rays))
        ends = np.asarray(origin) + direction * reach[:, None]
        straight = Rays.each(np.asarray(origin), ends)
        assert np.array_equal(first_land(here, straight), _first_land_at_every_step(here, straight))
        land_at = _first_land_at_every_step(here, straight)
        aground, rests = run_aground(here, ends)
        assert aground.tolist() == (land_at + here.coast_tolerance <= np.hypot(*(ends - origin).T)).tolist()
        back = np.where(aground, np.maximum(land_at - RAY_STEP - here.die_size, 0.0), 0.0)[:, None]
        assert np.array_equal(rests, np.where(aground[:, None], np.asarray(origin) + straight.direction * back, ends))


def test_a_zone_within_reach_is_what_geos_says():
    """targets' bounding-box shortcut decides exactly as GEOS's distance does, at the reach itself too."""
    from somaliland.players.aim import _within

    rng = np.random.default_rng(10)
    for route in default_map().routes:
        for zone in (route.north.destination, route.south.destination):
            x0, y0, x1, y1 = zone.bounds
            for origin in rng.uniform((x0 - 0.5, y0 - 0.5), (x1 + 0.5, y1 + 0.5), (300, 2)).tolist():
                d = zone.distance(Point(origin))
                for reach in (0.3, d, np.nextafter(d, 0.0), rng.uniform(0.0, 0.8)):
                    assert _within(zone, (origin[0], origin[1]), reach) == (d <= reach)
