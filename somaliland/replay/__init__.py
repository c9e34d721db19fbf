"""Replays of recorded games: the 3-D PyBullet viewer, offscreen video export and a top-down round view.

`story.load_story(path)` turns a game record into steps (throws and pirate raids) with the board before
and after each; everything else displays those steps: `motion` (poses at a moment), `captions` (the
overlay's words), `textures` and `table` (the 3-D scene), `camera`, `gui` (the interactive viewer),
`export` and `overlay` (GIF, MP4, PNG), `topdown` (matplotlib), `resim` (re-simulate and check), `cursor`
(moving through the steps) and `checks` (record fields read with the line named on any fault). Display
libraries (pybullet, matplotlib, imageio, PIL) are imported inside the functions that draw.
"""
