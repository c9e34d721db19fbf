"""The error types the rules layer raises for bad input; the CLI turns each into a message and exit 2."""


class SomalilandError(Exception):
    """Base of every error caused by a user's input (a map, a rules file, a move, a record)."""


class UsageError(SomalilandError):
    """A command-line value that cannot be used."""


def undecodable(raw: bytes, error: UnicodeDecodeError) -> tuple[int, str]:
    """Return where a file's bytes stop being UTF-8, as messages name it: the line (from 1) and the byte."""
    return raw[:error.start].count(b"\n") + 1, f"byte {raw[error.start]:#04x}"
