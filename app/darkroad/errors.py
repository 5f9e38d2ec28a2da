"""The one error the engine raises (`game.py` maps it onto the platform's RuleError)."""

from __future__ import annotations


class RuleError(ValueError):
    """A command the rules refuse. `code` is stable and machine-readable; the
    message is for a person and names the input and the situation."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
