"""The HTML replay page: one self-contained file (nothing fetched), whose data give back the recorded paths
and boards to a tenth of a millimetre and carry the captions of the account, and a real browser that plays
it: no console error, every step reached, the final table shown."""

import json
import re
import shutil

import numpy as np
import pytest
from replay_fixtures import lines, record_game, write_lines

from somaliland.cli.main import main
from somaliland.engine.events import decode
from somaliland.engine.phrases import Names, sentence
from somaliland.replay.html import game_data
from somaliland.replay.story import load_story

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return record_game(tmp_path_factory.mktemp("html") / "game.jsonl")


@pytest.fixture(scope="module")
def page(record, tmp_path_factory):
    out = tmp_path_factory.mktemp("page") / "game.html"
    assert main(["replay", str(record), "--html", str(out)]) == 0
    return out


def embedded(page):
    """Return the game data written into the page."""
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S)
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_the_page_is_one_file_that_fetches_nothing(page, capsys):
    text = page.read_text(encoding="utf-8")
    assert "/*SCRIPT*/" not in text and "/*DATA*/" not in text and "/*STYLE*/" not in text
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", text)  # no script, style or image from elsewhere
    assert not re.search(r"\b(fetch|XMLHttpRequest|import\s*\()", text)
    assert page.stat().st_size < 2_000_000


def test_paths_and_boards_come_back_to_a_tenth_of_a_millimetre(record, page):
    story = load_story(record)
    data = embedded(page)
    assert len(data["steps"]) == len(story.steps)
    for step, raw in zip(story.steps, data["steps"]):
        for track, packed in zip(step.tracks, raw["tracks"]):
            xyz = np.cumsum(np.array(packed["d"][:3]), axis=1).T / 1e4
            assert np.abs(xyz - track.positions).max() <= 0.5e-4 + 1e-12
            times = packed["t0"] + packed["dt"] * np.arange(len(xyz)) if "times" not in packed else packed["times"]
            assert np.abs(np.asarray(times) - track.times).max() < 1e-5
        for name, pose in step.after.items():
            assert np.abs(np.array(raw["after"][name][:3]) / 1e4 - pose[:3]).max() <= 0.5e-4 + 1e-12


def test_the_captions_are_the_accounts_sentences(record, page):
    events = lines(record)
    names = Names.from_header(events[0])
    told = {sentence(decode(e), names) for e in events[1:]} - {None}
    data = embedded(page)
    shown = {text for step in data["steps"] for _, text in step["pre"] + step["post"]}
    assert shown <= told and len(shown) > 10
    assert data["final"]["rows"][0]["place"] == 1 and len(data["final"]["rows"]) == 2


def test_route_names_and_values_come_from_the_header(record, tmp_path):
    events = lines(record)
    events[0]["map"]["routes"] = [dict(r, label=f"the {r['name']} lane") for r in events[0]["map"]["routes"]]
    data = game_data(load_story(write_lines(tmp_path / "renamed.jsonl", events)))
    titles = {r["key"]: r["title"] for r in data["board"]["routes"]}
    assert titles == {r["name"]: f"the {r['name']} lane ({'full' if r['full_value'] else 'half'} value)"
                      for r in events[0]["map"]["routes"]}


def test_a_record_without_paths_says_so_and_moves_from_rest_to_rest(record, tmp_path):
    events = lines(record)
    for event in events:
        if event["kind"] == "throw":
            event["result"].pop("paths")
    data = game_data(load_story(write_lines(tmp_path / "bare.jsonl", events)))
    assert data["paths"] is False and not any(step["tracks"] for step in data["steps"])
    launched = [s for s in data["steps"] if "launch" in s]
    assert launched and all(len(s["launch"]) == 2 for s in launched)  # a ship thrown from port starts at its start


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (make setup installs Debian's chromium as root: "
                                              "apt-get install chromium)")
def test_a_browser_plays_every_step_without_error_and_shows_the_final_table(page):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                                                                 "(pip install -e '.[test]')")
    steps = len(embedded(page)["steps"])
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_page(viewport={"width": 1200, "height": 800})
        errors = []
        tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(page.as_uri())
        assert tab.evaluate("window.replay.steps") == steps
        assert tab.locator("#final").is_hidden()
        for k in range(1, steps):
            tab.click("#next")
            assert tab.evaluate("window.replay.state().index") == k
            assert tab.locator("#counter").inner_text().startswith(f"step {k + 1} of {steps}")
        tab.wait_for_function("window.replay.state().done", timeout=20_000)  # the last throw plays to its rest
        tab.locator("#final").wait_for(state="visible", timeout=5_000)
        rows = tab.locator("#final tbody tr")
        assert rows.count() == 2 and tab.locator("#winner").inner_text().startswith("Winner: ")
        tab.click("#first")
        tab.click("#play")  # plays on by itself
        tab.wait_for_function("window.replay.state().index >= 1", timeout=20_000)
        browser.close()
    assert errors == []
