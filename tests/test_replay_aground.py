"""Replays show D19: a ship that ran aground on its way is held where it crossed the coast, its path drawn up to
there and the rest faded, the crossing marked; the die a step threw is marked; the page's labels stand clear of
one another."""

from dataclasses import replace

import numpy as np
import pytest
from replay_fixtures import record_game

from somaliland.replay.html import _track, game_data
from somaliland.replay.motion import sample
from somaliland.replay.story import Track, load_story
from somaliland.replay.topdown import _counted
from test_replay_html import BROWSER_FLAGS, CHROMIUM


def _track_east() -> Track:
    """Return a die's path rolling east 1 cm a sample for 10 samples, from x = 0.10 m."""
    times = np.arange(11) / 60
    positions = np.array([[0.10 + 0.01 * k, 0.40, 0.008] for k in range(11)])
    return Track("red-6a", times, positions, np.tile([0.0, 0.0, 0.0, 1.0], (11, 1)))


def test_D19_the_animation_holds_a_die_that_ran_aground_where_it_crossed_the_coast() -> None:
    track = replace(_track_east(), aground=4.5 / 60, crossed=(0.145, 0.40))
    assert sample(track, 8 / 60) == sample(track, 4.5 / 60)
    assert sample(track, 4.5 / 60)[0] == pytest.approx(0.145)
    assert sample(_track_east(), 8 / 60)[0] == pytest.approx(0.18)  # a path that did not run aground rolls on


def test_D19_the_top_down_view_draws_the_path_up_to_the_crossing_and_the_rest_apart() -> None:
    counted, rest = _counted(replace(_track_east(), aground=4.5 / 60, crossed=(0.145, 0.40)))
    assert counted[-1].tolist() == pytest.approx([14.5, 40.0]) and counted[:, 0].max() == pytest.approx(14.5)
    assert rest[0].tolist() == pytest.approx([14.5, 40.0]) and rest[-1].tolist() == pytest.approx([20.0, 40.0])
    whole, none = _counted(_track_east())
    assert len(whole) == 11 and len(none) == 0


def test_D19_the_page_carries_where_and_when_a_die_ran_aground() -> None:
    packed = _track(replace(_track_east(), aground=4.5 / 60, crossed=(0.145, 0.40)))
    assert packed["aground"] == pytest.approx(0.075) and packed["crossed"] == [1450, 4000]
    assert "aground" not in _track(_track_east())


def test_the_exported_frame_rings_the_die_the_step_threw(tmp_path) -> None:
    from somaliland.replay.export import board_camera
    from somaliland.replay.raster import RING_RGB, Painter

    story = load_story(record_game(tmp_path / "game.jsonl", rounds=1))
    step = next(s for s in story.steps if s.kind == "throw" and s.ship in s.after)
    painter = Painter(story, (480, 480), 4.0)
    camera = board_camera(story, (640, 480))
    plain = np.asarray(painter.draw(step.after, camera))
    ringed = np.asarray(painter.draw(step.after, camera, step.ship))
    changed = np.any(plain != ringed, axis=-1)
    assert changed.sum() > 50  # a ring of a few hundred pixels
    assert np.all(ringed[changed] == RING_RGB, axis=-1).sum() > 20


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (make setup installs Debian's chromium)")
def test_the_pages_labels_stand_clear_of_each_other_and_of_the_starts(tmp_path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from somaliland.cli.main import main

    out = tmp_path / "game.html"
    assert main(["replay", str(record_game(tmp_path / "game.jsonl", rounds=1)), "--html", str(out)]) == 0
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        tab.goto(out.as_uri())
        labels = tab.evaluate("window.replay.labels()")
        browser.close()
    written = [b for b in labels if b["what"].startswith(("zone ", "route "))]
    assert len(written) == 6  # two zones a route and each route's name, on the default board's two routes
    overlaps = [(a["what"], b["what"]) for i, a in enumerate(written) for b in labels[:]
                if b is not a and b["what"] != a["what"] and _overlap(a["box"], b["box"])
                and not (b in written and labels.index(b) < labels.index(a))]
    assert overlaps == []


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
