"""The HTML replay page: one self-contained file (nothing fetched), whose data give back the recorded paths
and boards to a tenth of a millimetre and carry the captions of the account, and a real browser that plays
it: no console error, every step reached, the final table shown clear of the captions and not cut."""

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


# Where the side panel's parts stand once the final table shows: the table's box, what shows of each caption
# (cut to the captions' box when that box scrolls by itself), and each box from the table up to the page with
# its width and the width of what it holds.
LAYOUT = """() => {
  const rect = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const news = document.getElementById("news"), table = document.querySelector("#final table");
  const own = getComputedStyle(news).overflowY !== "visible";
  const cut = (r, c) => [Math.max(r[0], c[0]), Math.max(r[1], c[1]), Math.min(r[2], c[2]), Math.min(r[3], c[3])];
  const boxes = [];
  for (let el = table; el && el !== document.documentElement; el = el.parentElement)
    boxes.push({id: el.id || el.tagName, scroll: el.scrollWidth, client: el.clientWidth});
  return {final: rect(document.getElementById("final")), side: rect(document.getElementById("side")),
          captions: [...news.children].map((li) => own ? cut(rect(li), rect(news)) : rect(li)),
          newsScrolls: news.scrollHeight > news.clientHeight, newsOverflow: getComputedStyle(news).overflowY,
          boxes, heads: [...document.querySelectorAll("#final thead th")].map(rect)};
}"""


def overlap(a, b):
    """Return whether two boxes [left, top, right, bottom] share more than half a pixel both ways."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def assert_final_table_readable(tab):
    """The final table is clear of the captions and every column of it can be read without scrolling."""
    at = tab.evaluate(LAYOUT)
    shown = [box for box in at["captions"] if box[2] > box[0] and box[3] > box[1]]
    assert shown and not any(overlap(box, at["final"]) for box in shown), at  # no caption drawn over the table
    if at["newsScrolls"]:
        assert at["newsOverflow"] in ("auto", "scroll"), at  # captions that do not fit scroll in their own box
    assert all(box["scroll"] <= box["client"] for box in at["boxes"]), at["boxes"]  # nothing cut on the right
    assert all(head[2] <= at["side"][2] + 0.5 and head[3] <= at["side"][3] for head in at["heads"]), at


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (make setup installs Debian's chromium as root: "
                                              "apt-get install chromium)")
def test_a_browser_plays_every_step_without_error_and_shows_the_final_table(page):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                                                                 "(pip install -e '.[test]')")
    data = embedded(page)["steps"]
    steps = len(data)
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
        rows = tab.locator("#final tbody tr.standing")
        assert rows.count() == 2 and tab.locator("#winner").inner_text().startswith("Winner: ")
        assert tab.locator("#final tbody tr.why").count() == 2  # each place says why (tie-breaks)
        assert_final_table_readable(tab)
        tab.set_viewport_size({"width": 1280, "height": 800})
        assert_final_table_readable(tab)
        tab.click("#first")
        assert tab.locator("#news li.after").count() == 0  # a step's outcome is told once it has played
        tab.evaluate("""() => { window.rebuilt = 0; window.clocks = new Set();
          const rebuilt = new MutationObserver(() => { window.rebuilt++; });
          for (const id of ["where", "news"]) rebuilt.observe(document.getElementById(id), {childList: true});
          new MutationObserver(() => window.clocks.add(document.getElementById("counter").textContent))
            .observe(document.getElementById("counter"), {childList: true, characterData: true, subtree: true}); }""")
        tab.click("#next")  # step 2 plays once from its start, then waits
        tab.wait_for_function("window.replay.state().index === 1 && window.replay.state().done", timeout=20_000)
        assert tab.locator("#news li.after").count() == len(data[1]["post"]) > 0  # the outcome, told when it came
        assert tab.evaluate("window.rebuilt") <= 2  # built at the step's start and at its outcome, not per frame
        assert tab.evaluate("window.clocks.size") >= 3  # while the clock ran on
        tab.click("#play")  # plays on by itself
        tab.wait_for_function("window.replay.state().index >= 2", timeout=20_000)
        browser.close()
    assert errors == []
