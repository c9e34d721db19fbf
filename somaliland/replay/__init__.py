"""Replays of recorded games: the 3-D PyBullet viewer, offscreen video export and a top-down round view.

`story.load_story(path)` turns a game record into steps (throws and pirate seizures) with the board as
it stood before and after each; everything else displays those steps. Display libraries (pybullet,
matplotlib, imageio, PIL) are imported inside the functions that draw.
"""
