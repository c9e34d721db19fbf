"""somaliland/map/queries.py answers exactly what shapely answers, bit for bit, on the maps and on odd geometry."""

import numpy as np
import pytest
import shapely
from shapely import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import substring

from somaliland.map import load, queries, shipped_maps


def _probes(geometry, rng, n=20000):
    """Return points spread over and around the geometry, its vertices, points on its edges and just off them."""
    x0, y0, x1, y1 = geometry.bounds
    pad = 0.1 * max(x1 - x0, y1 - y0, 1e-3)
    spread = rng.uniform((x0 - pad, y0 - pad), (x1 + pad, y1 + pad), (n, 2))
    coords = shapely.get_coordinates(geometry)
    k = rng.integers(0, len(coords) - 1, 2000)
    f = rng.random((2000, 1))
    on_edges = coords[k] + f * (coords[k + 1] - coords[k])
    return np.vstack([spread, coords, on_edges, coords + rng.normal(0, 1e-10, coords.shape),
                      on_edges + rng.normal(0, 1e-12, on_edges.shape)])


def _geometries():
    lands = [m.land for m in (load(path) for path in shipped_maps())]
    holed = Polygon([(0, 0), (0.3, 0), (0.3, 0.2), (0, 0.2)], [[(0.1, 0.05), (0.2, 0.05), (0.15, 0.15)]])
    two = MultiPolygon([box(0.0, 0.0, 0.1, 0.1), box(0.1, 0.0, 0.2, 0.05)])  # sharing an edge
    thin = Polygon([(0, 0), (0.5, 0.001), (0.5, 0.0011)])
    return lands + [holed, two, thin, Point(0.3, 0.3).buffer(0.2)]


@pytest.mark.parametrize("geometry", _geometries(), ids=lambda g: f"{g.geom_type}-{shapely.get_num_coordinates(g)}")
def test_contains_xy_answers_as_shapely(geometry):
    pts = _probes(geometry, np.random.default_rng(1))
    found = queries.contains_xy(geometry, pts[:, 0], pts[:, 1])
    assert np.array_equal(found, shapely.contains_xy(geometry, pts[:, 0], pts[:, 1]))
    assert found.any() and not found.all()


def test_contains_xy_keeps_the_shape_and_refuses_nothing():
    land = load(shipped_maps()[0]).land
    grid = np.random.default_rng(2).uniform(0.0, 0.9, (7, 5, 2))
    assert np.array_equal(queries.contains_xy(land, grid[..., 0], grid[..., 1]),
                          shapely.contains_xy(land, grid[..., 0], grid[..., 1]))
    odd = np.array([np.nan, np.inf, -np.inf, 1e300, -1e300])
    assert not queries.contains_xy(land, odd, odd[::-1]).any()
    assert not queries.contains_xy(Polygon(), np.array([0.0]), np.array([0.0])).any()


@pytest.mark.parametrize("geometry", _geometries(), ids=lambda g: f"{g.geom_type}-{shapely.get_num_coordinates(g)}")
def test_codes_along_rays_are_true_to_the_points(geometry):
    """A ray's steps are placed in their cells from the ray's start and step: an INSIDE cell holds only contained
    points, an OUTSIDE cell none, as shapely says of the points worked out in full."""
    rng = np.random.default_rng(6)
    x0, y0, x1, y1 = geometry.bounds
    size = max(x1 - x0, y1 - y0)
    origins = np.vstack([rng.uniform((x0 - size / 4, y0 - size / 4), (x1 + size / 4, y1 + size / 4), (30, 2)),
                         shapely.get_coordinates(geometry)[:5]])
    mask = queries.cell_mask(geometry)
    seen = set()
    for origin in origins.tolist():
        heading = rng.uniform(-np.pi, np.pi, 40)
        direction = np.stack([np.cos(heading), np.sin(heading)], axis=1)
        ray = np.repeat(np.arange(40), 50)
        t = np.tile(np.arange(1, 51) * size / 40, 40)
        code = mask.codes_along((origin[0], origin[1]), direction, ray, t)
        x, y = origin[0] + direction[ray, 0] * t, origin[1] + direction[ray, 1] * t
        assert (code == mask.codes_at(x, y)).mean() > 0.999  # the same cells, but for a point on a cells' border
        inside = shapely.contains_xy(geometry, x, y)
        assert inside[code == queries.INSIDE].all() and not inside[code == queries.OUTSIDE].any()
        seen.update(code.tolist())
    assert seen == {queries.OUTSIDE, queries.EDGE} | ({queries.INSIDE} & set(mask.codes.tolist()))


def _beyond(geometry, rng, n=4000):
    """Return points around and beyond a geometry's bounding box: scattered, facing each of its vertices and level with
    the box's sides and corners, a hair off them, and some not finite."""
    x0, y0, x1, y1 = geometry.bounds
    pad = 0.5 * max(x1 - x0, y1 - y0)
    spread = rng.uniform((x0 - pad, y0 - pad), (x1 + pad, y1 + pad), (n, 2))
    coords = shapely.get_coordinates(geometry)
    off = rng.uniform(1e-9, pad, len(coords))
    facing = np.vstack([np.stack([np.full(len(coords), x0) - off, coords[:, 1]], axis=1),
                        np.stack([np.full(len(coords), x1) + off, coords[:, 1]], axis=1),
                        np.stack([coords[:, 0], np.full(len(coords), y0) - off], axis=1),
                        np.stack([coords[:, 0], np.full(len(coords), y1) + off], axis=1)])
    hair = facing + rng.choice([-1.0, 1.0], facing.shape) * rng.uniform(0, 2e-6, facing.shape)
    corners = np.array([(x0, y0), (x0, y1), (x1, y0), (x1, y1)]) + rng.normal(0, 1e-7, (4, 2))
    odd = np.array([(np.nan, 0.1), (-np.inf, 0.2 * y0 + 0.8 * y1), (x0 - 1.0, np.inf)])
    return np.vstack([spread, facing, hair, corners, odd])


@pytest.mark.parametrize("geometry", _geometries()[len(shipped_maps()):] + [
    box(0.0, 0.0, 0.2, 0.1), MultiPolygon([box(0.0, 0.0, 0.1, 0.1), box(0.1, 0.0, 0.3, 0.1)]),  # two sides in one
    Polygon([(0, 0), (0.3, 0), (0.3, 0.2), (0.1, 0.2), (0.1, 0.2000001), (0, 0.2)]),  # a dent a hair deep
    MultiPolygon([box(0.0, 0.0, 0.1, 0.23), box(0.0, 0.1, 0.13, 0.37)]),  # overlapping: two segments on one side
    Polygon([(0, 0), (0.3, 0), (0.3, 0.2), (0.29999999999, 0.1), (0.3, 0.05)])],  # a spike grazing a side
    ids=lambda g: f"{g.geom_type}-{shapely.get_num_coordinates(g)}")
def test_nearest_points_answer_as_shapely(geometry):
    pts = _beyond(geometry, np.random.default_rng(8))
    finite = np.isfinite(pts).all(axis=1)
    expected = shapely.get_coordinates(shapely.shortest_line(geometry, shapely.points(pts[finite])))
    found = queries.nearest_points(geometry, pts)
    assert np.array_equal(found[finite], expected.reshape(-1, 2, 2)[:, 0, :])
    assert np.isnan(found[~finite]).all()


def test_nearest_points_of_the_sea_answer_as_shapely():
    from somaliland.rules import RulesConfig
    from somaliland.rules.accidents import replacement_area

    for path in shipped_maps():
        sea = replacement_area(load(path), RulesConfig())
        pts = _beyond(sea, np.random.default_rng(9), 20000)[:-3]
        expected = shapely.get_coordinates(shapely.shortest_line(sea, shapely.points(pts))).reshape(-1, 2, 2)[:, 0, :]
        assert np.array_equal(queries.nearest_points(sea, pts), expected), path
        assert len(queries.Sides(sea).key_from) >= 2  # open sea along two sides at least: points there projected


def test_a_mask_is_built_once_per_geometry():
    land = load(shipped_maps()[0]).land
    assert queries.cell_mask(land) is queries.cell_mask(land)


def _lines(rng):
    yield LineString([(0, 0), (1, 0)])
    yield LineString([(0, 0), (0.3, 0.1), (0.3, 0.1000001), (0.2, 0.5), (0.7, 0.4)])
    yield LineString([(0, 0), (0.2, 0), (0.2, 0), (0.4, 0.1)])  # a segment of zero length: left to shapely
    yield LineString([(0, 0), (0.5, 0), (0, 0)])  # doubling back: ties between segments
    for m in load(shipped_maps()[0]).routes:
        yield m.centre_line
    for _ in range(20):
        yield LineString(np.cumsum(rng.normal(0, 0.05, (int(rng.integers(2, 30)), 2)), axis=0))


def test_locate_and_distance_answer_as_shapely():
    rng = np.random.default_rng(3)
    for line in _lines(rng):
        pts = _probes(line, rng, 3000)
        at = shapely.points(pts)
        along, off = queries.locate_and_distance(shapely.get_coordinates(line), pts)
        assert np.array_equal(along, shapely.line_locate_point(line, at)), line.wkt
        assert np.array_equal(off, shapely.distance(line, at)), line.wkt


@pytest.mark.parametrize("bad", [(np.inf, 0.2), (-np.inf, np.inf), (np.nan, 0.2)])
def test_locate_and_distance_refuse_a_point_that_is_not_finite_as_shapely_does(bad):
    coords = np.array([(0, 0), (0.3, 0.1), (0.2, 0.5)], dtype=float)
    with pytest.raises(shapely.errors.GEOSException):
        queries.locate_and_distance(coords, np.array([(0.1, 0.1), bad]))


def test_stretch_is_substring():
    rng = np.random.default_rng(4)
    for line in _lines(rng):
        length = line.length
        cuts = [(0.0, length), (0.0, length / 3), (length / 3, length), (length, length), (0.2 * length, 0.2 * length),
                (-0.1, 0.5 * length), (0.6 * length, 0.2 * length), (0.5 * length, 2 * length), (length, 2 * length)]
        starts = np.concatenate([[0.0], np.cumsum(np.sqrt((np.diff(shapely.get_coordinates(line), axis=0) ** 2)
                                                          .sum(axis=1)))])  # at vertices, near enough
        cuts += [(float(s), float(min(length, s + 0.1))) for s in starts[:-1]]
        cuts += [tuple(sorted(rng.uniform(0, length, 2).tolist())) for _ in range(200)]
        for start, end in cuts:
            assert queries.stretch(line, start, end).wkb == substring(line, start, end).wkb, (line.wkt, start, end)
    line = LineString([(0, 0), (0.5, 0.1), (0.9, 0.4)])
    assert queries.reversed_line(line) is queries.reversed_line(line)
    assert queries.reversed_line(line).wkb == shapely.reverse(line).wkb
