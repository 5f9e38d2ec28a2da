"""The one error the engine raises."""

from __future__ import annotations

from app.games.base import RuleError as _GameRuleError


class RuleError(_GameRuleError):
    """A command the rules refuse. `code` is stable and machine-readable; the
    message is for a person and names the input and the situation."""
