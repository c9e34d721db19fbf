"""The error types the rules layer raises for bad input; the CLI turns each into a message and exit 2."""


class SomalilandError(Exception):
    """Base of every error caused by a user's input (a map, a rules file, a move, a record)."""


class UsageError(SomalilandError):
    """A command-line value that cannot be used."""
