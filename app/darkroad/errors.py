"""The one error the engine raises: the platform's `RuleError` (through the game kit).

A command the rules refuse: `code` is stable and machine-readable; the message is for a
person and names the input and the situation."""

from app.games.kit import RuleError

__all__ = ["RuleError"]
