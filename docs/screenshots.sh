#!/usr/bin/env bash
# Remake the README's screenshots under docs/ from one game on the default board (after the map or the
# replay changes). Needs the set-up of `make setup` (Xvfb and Chromium for the GUI and the HTML page).
# BIN=other/venv/bin docs/screenshots.sh runs another environment's tools (this checkout's code must be the one
# they import: e.g. PYTHONPATH=$PWD for a git worktree sharing another checkout's editable install).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
work=$(mktemp -d)
$BIN/somaliland play --players 4 --seed 3 --strategies ev,bold,ev,cautious --record "$work/game.jsonl" > /dev/null
$BIN/somaliland replay "$work/game.jsonl" --round 2 --turn 3 -o docs/replay-frame.png
$BIN/somaliland replay "$work/game.jsonl" --round 2 --top-down docs/replay-top-down.png
$BIN/somaliland replay "$work/game.jsonl" --html "$work/game.html"
xvfb-run -a $BIN/somaliland replay "$work/game.jsonl" --round 2 --screenshot docs/gui.png
rm -f docs/gui.png.json
$BIN/python - "$work/game.html" docs/replay-html.png docs/replay-html-final.png <<'PY'
import shutil, sys
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=shutil.which("chromium"))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"file://{sys.argv[1]}")
    page.wait_for_timeout(1500)
    page.screenshot(path=sys.argv[2])
    page.keyboard.press("End")  # the end of the game: its last throw at rest, and the final table
    page.locator("#final").wait_for(state="visible", timeout=5000)
    page.wait_for_timeout(500)
    page.screenshot(path=sys.argv[3])
    browser.close()
PY
$BIN/somaliland dice --faces 1,2,3,4,5,6 --throws 2000 --seed 1 --plot docs/dice.png > /dev/null
echo "docs/*.png remade from play --players 4 --seed 3 --strategies ev,bold,ev,cautious"
