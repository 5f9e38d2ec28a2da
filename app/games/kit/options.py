"""Room options declared once, as a pydantic model.

A game's `Options(GameOptions)` lists every option with its default, bounds and a
description: the model gives the defaults (`Options()`), the validation and the
normalised form (`normalise`), and the schema `GET /api/games` shows. Cross-field
rules go in the model's validators (raise `ValueError`; the message is shown).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from app.games.base import RuleError


class GameOptions(BaseModel):
    """The base of a game's options: strict types, unknown options refused. A game that
    lets a room choose its seats declares `max_players` (else a room has the game's
    `max_players` seats)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def normalise(model: type[GameOptions], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option filled in and checked together, as plain JSON.

    :raises RuleError: `bad_options`, naming the option at fault.
    """
    try:
        return model.model_validate(dict(options or {})).model_dump(mode="json")
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        if first["type"] == "extra_forbidden":
            raise RuleError("bad_options", f"unknown option {where!r}") from None
        message = str(first["msg"]).removeprefix("Value error, ")
        raise RuleError("bad_options", f"{where}: {message}") from None
