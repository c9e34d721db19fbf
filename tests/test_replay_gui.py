"""The GUI replay under Xvfb: a screenshot of PyBullet's window shows the board, and each die in its player's
colour where the record left it (rest positions projected with the GUI's own camera matrices)."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from replay_fixtures import record_game

from somaliland.replay.camera import project
from somaliland.replay.story import load_story
from somaliland.replay.textures import player_rgb

pytestmark = pytest.mark.skipif(shutil.which("xvfb-run") is None,
                                reason="xvfb-run is not installed (make setup installs it as root: apt-get install xvfb)")

SEA_RGB, LAND_RGB = (0x8D, 0xBB, 0xDC), (0xEC, 0xDC, 0xB0)  # somaliland/map/render.py, lit and shaded by the GUI


@pytest.fixture(scope="module")
def shot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gui")
    record = record_game(folder / "game.jsonl")
    path = folder / "shot.png"
    run = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, "-m", "somaliland.cli.main",
                          "replay", str(record), "--round", "1", "--screenshot", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    import imageio.v3 as iio

    return load_story(record), iio.imread(path), json.loads(path.with_suffix(".png.json").read_text())


def pixels(camera, points):
    return project(np.asarray(points, dtype=float), camera["view"], camera["projection"], camera["width"],
                   camera["height"])


def near(image, col, row, rgb, radius=3, tolerance=70.0):
    r, c = int(round(row)), int(round(col))
    window = image[max(r - radius, 0):r + radius + 1, max(c - radius, 0):c + radius + 1, :3].reshape(-1, 3)
    return bool(np.any(np.linalg.norm(window.astype(float) - np.array(rgb), axis=1) < tolerance))


def test_the_screenshot_shows_the_end_of_the_chosen_round(shot):
    story, image, camera = shot
    assert image.shape[:2] == (camera["height"], camera["width"])
    assert camera["step"] == story.select(1)[-1]


def test_the_board_is_visible_with_its_sea_and_land(shot):
    story, image, camera = shot
    sea = [(x, y) for x, y in ((0.65, 0.15), (0.6, 0.3), (0.7, 0.25)) if not story.world.is_land(x, y)]
    land = [(x, y) for x, y in ((0.2, 0.45), (0.25, 0.5), (0.5, 0.65)) if story.world.is_land(x, y)]
    assert len(sea) >= 2 and len(land) >= 2
    for (x, y), (col, row) in zip(sea, pixels(camera, [(x, y, 0) for x, y in sea])):
        assert near(image, col, row, SEA_RGB, tolerance=90), f"no sea at {x}, {y}"
        assert not near(image, col, row, LAND_RGB, radius=0, tolerance=40)
    for (x, y), (col, row) in zip(land, pixels(camera, [(x, y, 0) for x, y in land])):
        assert near(image, col, row, LAND_RGB, tolerance=90), f"no land at {x}, {y}"


def test_each_die_shows_in_its_colour_where_the_record_left_it(shot):
    story, image, camera = shot
    board = story.steps[camera["step"]].after
    tops = [(x, y, z + story.die_size / 2) for x, y, z, *_ in board.values()]
    found = [near(image, col, row, player_rgb(name.split("-")[0]))
             for name, (col, row) in zip(board, pixels(camera, tops))]
    assert len(found) >= 4 and all(found), dict(zip(board, found))
    away = pixels(camera, [(0.6, 0.2, 0.0)])[0]  # open sea where no die lies
    assert not any(near(image, *away, player_rgb(colour)) for colour in story.colours)
