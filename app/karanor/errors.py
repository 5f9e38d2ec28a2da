"""The one error the rules raise: the game kit's (`app.games.base.RuleError`)."""

from __future__ import annotations

from app.games.base import RuleError

__all__ = ["RuleError"]
