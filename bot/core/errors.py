"""The one error an engine raises for an action the rules do not allow.

Its message is shown to the player as is (ephemerally), so it must read well on its own.
"""


class IllegalAction(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
