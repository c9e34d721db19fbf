"""Hostile text in the HTML replay: nothing a record or a map says runs as code or breaks the page.

A record whose seat colour or strategy is markup is refused by `replay` (every output) with the very line
`verify` refuses it with. A valid map's names and labels (`<!--<script>`, `</script>`, `<img onerror>`) reach
the page as text: its data block cannot end or comment out its script, and a real browser runs the viewer
without an error, shows the labels as written and runs none of the markup, even when a story's seats carry it.
"""

import dataclasses
import json
import re
import shutil

import pytest
from replay_fixtures import lines, write_lines

from physics import make_roller
from scripted import scripted_factory
from somaliland.cli.main import main
from somaliland.engine.loop import play_game
from somaliland.engine.record import RecordWriter
from somaliland.engine.setup import GameSetup, Seat
from somaliland.map import load
from somaliland.replay.html import write_html
from somaliland.replay.story import load_story
from somaliland.rules import RulesConfig
from test_study_support import TINY_MAP

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PAYLOAD = '<img src=x onerror="window.pwned=1">'
LABELS = {'label = "east passage"': 'label = "east <!--<script> passage"',  # the viewer never ran: issue case 1
          'label = "west passage"': f"label = {json.dumps(f'west {PAYLOAD} passage')}",
          'name = "Isle"': 'name = "Isle </script><script>pwned=1</script>"',
          'name = "Cove"': 'name = "Cove <b>bold</b> &amp;"'}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Return a record of a game played on a valid map whose names and labels are markup (map check passes)."""
    folder = tmp_path_factory.mktemp("hostile")
    board = folder / "marked.toml"
    text = TINY_MAP.read_text()
    for plain, marked in LABELS.items():
        assert plain in text
        text = text.replace(plain, marked)
    board.write_text(text)
    assert main(["map", "check", str(board)]) == 0
    setup = GameSetup(seed=3, seats=(Seat("africa"), Seat("somalia")), rules=RulesConfig(players=2, rounds=1),
                      map_path=board)
    record = folder / "game.jsonl"
    with RecordWriter(record) as writer, make_roller() as roller:
        play_game(setup, load(board), roller, scripted_factory, sink=writer)
    return record


def marked_seats(record, tmp_path, key):
    """Return a copy of a record whose seat 0 has markup for its `key` (colour or strategy)."""
    events = lines(record)
    events[0]["seats"][0][key] = PAYLOAD
    return write_lines(tmp_path / f"marked-{key}.jsonl", events)


@pytest.mark.parametrize("key", ["colour", "strategy"])
def test_a_record_verify_refuses_is_refused_by_every_replay_output_with_the_same_line(hostile, tmp_path, capsys,
                                                                                         monkeypatch, key):
    import somaliland.replay.gui as gui

    record = marked_seats(hostile, tmp_path, key)
    opened = []
    monkeypatch.setattr(gui, "replay", lambda *a, **k: opened.append(a))  # the GUI, were it reached
    assert main(["verify", str(record)]) == 2
    refused = capsys.readouterr().err.strip()
    assert re.fullmatch(rf"somaliland verify: error: {re.escape(str(record))}, line 1: seats\[0\]\.{key}: "
                        rf"expected .*, found '<img src=x .*'", refused), refused
    outputs = {"--html": tmp_path / "page.html", "-o": tmp_path / "turn.png", "--top-down": tmp_path / "top.png"}
    for option, path in [*outputs.items(), (None, None)]:
        args = ["replay", str(record)] + ([option, str(path)] if option else []) + \
            (["--round", "1"] if option == "--top-down" else [])
        assert main(args) == 2, option
        err = capsys.readouterr().err.strip()
        assert err == refused.replace("somaliland verify", "somaliland replay"), (option, err)
    assert not any(path.exists() for path in outputs.values()) and opened == []


def test_the_data_block_holds_no_markup_and_reads_back_whole(hostile, tmp_path):
    page = tmp_path / "page.html"
    assert main(["replay", str(hostile), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1)
    assert not re.search(r"[<>&\u2028\u2029]", block)  # nothing that could end, comment out or split the script
    data = json.loads(block)
    routes = {r["key"]: r["label"] for r in data["board"]["routes"]}
    assert routes == {"somalia": "east <!--<script> passage", "africa": f"west {PAYLOAD} passage"}
    assert {land["name"] for land in data["board"]["lands"]} >= {"Isle </script><script>pwned=1</script>"}
    assert text.count("<script") == 2  # the data block and the viewer: no more


def marked_story(record):
    """Return the story of a record with markup for seat 0's colour and strategy (past the record's checks, as
    a record made by other code might carry them): the viewer must still show them as text."""
    story = load_story(record)
    seats = [dict(seat) for seat in story.header["seats"]]
    seats[0]["strategy"] = PAYLOAD
    return dataclasses.replace(story, header={**story.header, "seats": seats},
                               colours=(PAYLOAD, *story.colours[1:]))


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (make setup installs Debian's chromium as root: "
                                              "apt-get install chromium)")
def test_in_a_browser_no_markup_runs_and_the_viewer_works(hostile, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                                                                 "(pip install -e '.[test]')")
    pages = [tmp_path / "labels.html", tmp_path / "seats.html"]
    assert main(["replay", str(hostile), "--html", str(pages[0])]) == 0
    write_html(marked_story(hostile), pages[1])
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_FLAGS)
        for page in pages:
            tab = browser.new_page(viewport={"width": 1200, "height": 800})
            errors = []
            tab.on("pageerror", lambda error: errors.append(str(error)))
            tab.goto(page.as_uri())
            tab.wait_for_function("window.replay !== undefined", timeout=10_000)  # the viewer ran
            tab.click("#last")
            tab.wait_for_timeout(500)  # time for an injected image to fail to load and fire its onerror
            legend = tab.locator("#legend").inner_text()
            assert tab.evaluate("window.pwned") is None, page
            assert tab.locator("img, b").count() == 0, page  # markup stayed text: no element was made of it
            assert "east <!--<script> passage" in legend and f"west {PAYLOAD} passage" in legend, legend
            if page == pages[1]:
                assert f"{PAYLOAD} (seat 0, {PAYLOAD})" in legend, legend
                assert PAYLOAD in tab.locator("#final").inner_text()
            assert errors == [], page
        browser.close()
