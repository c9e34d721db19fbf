"""Replays of recorded games: the 3-D PyBullet viewer, offscreen video export, a top-down round view and a
self-contained HTML page.

`story.load_story(path)` turns a game record into steps (throws and pirate raids) with the board before
and after each, read off `engine.fold.replay_state` (record line -> typed event -> the rules' state ->
steps); everything else displays those steps: `motion` (poses at a moment), `captions` (the
overlay's words, `engine.phrases`' sentences), `textures` and `table` (the 3-D scene, drawn through
`physics.view`), `camera`, `gui` (the interactive viewer), `export` with `raster` (the board warped once,
the dice projected), `overlay` (the caption panel) and `writers` (streaming GIF, MP4, PNG), `topdown`
(matplotlib), `html` with `web/` (the browser page), `resim` (re-simulate and check), and `cursor` (moving
through the steps); a damaged or edited line is refused by the fold, naming the line. Display libraries
(matplotlib, imageio, PIL) are imported inside the functions that draw; none of these modules imports
pybullet.
"""
