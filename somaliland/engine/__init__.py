"""Whole games: the loop over rules, players and physics; game records; verification."""
