# Build glue: one virtual environment in .venv, created from the system's python3.11.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup surveys clean xvfb chromium

# constraints.txt pins every package to the versions the results were pinned with (README, Determinism).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

# The GUI replay tests need an X server: install Xvfb when it is missing and we may (root with apt-get);
# otherwise (not root, offline) say so and go on: those tests then skip themselves.
xvfb:
	@command -v xvfb-run >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    { apt-get update -qq && apt-get install -y -qq xvfb xauth libgl1-mesa-dri >/dev/null; } \
	      || echo "make: could not install xvfb (offline?): the GUI replay tests will be skipped"; \
	  else echo "make: xvfb-run is missing and we are not root: the GUI replay tests will be skipped"; fi; }

# The HTML replay's browser test drives Debian's Chromium with Playwright (no `playwright install`: it would
# download a browser of its own): install chromium when it is missing and we may (root with apt-get);
# otherwise say so and go on: that test then skips itself.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } \
	      || echo "make: could not install chromium (offline?): the HTML replay's browser test will be skipped"; \
	  else echo "make: chromium is missing and we are not root: the HTML replay's browser test will be skipped"; fi; }

# The players' surveys of the default map (ev, bold and cautious at the default skill), sailed once and kept in
# $$SOMALILAND_CACHE/surveys (default ~/.cache/somaliland/surveys): the first game of every later process starts
# at once. Any other survey (another map, strategy or skill) is sailed on first use and kept the same way.
surveys: $(STAMP)
	$(BIN)/somaliland map survey

setup: $(STAMP) xvfb chromium surveys

## Quick start 1: set up and play a whole 4-player game on the default board, keeping its record.
run: $(STAMP)
	mkdir -p out
	$(BIN)/somaliland play --players 4 --seed 7 --record out/game.jsonl

## Quick start 2: set up and run the whole test suite, one worker process per CPU (pytest-xdist); a test file's tests
## run in one worker, so the fixtures a file shares are made once.
test: $(STAMP) xvfb chromium
	$(BIN)/python -m pytest -q -n auto --dist loadfile

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
