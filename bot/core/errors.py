"""The one error an engine raises for an action the rules do not allow.

Its message is shown to the player as is (ephemerally), so it must read well on its own.
"""


class IllegalAction(Exception):
    """`secret`: the words name what only the one refused may see (a private choice's
    cards): shown to them alone, and kept out of the log every interaction writes
    (cogs/common.py's `handling`), which whoever reads the host's logs reads too."""

    def __init__(self, message: str, *, secret: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.secret = secret
