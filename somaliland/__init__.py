"""Somaliland: the rules of the dexterity board game, AI players and the command line, over dice physics."""

__version__ = "0.1.0"
