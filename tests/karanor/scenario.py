"""Helpers that build positions directly and play commands on them.

A scenario is a real game of the `mini` pack, built with the engine's public scenario
builder (`app.karanor.scenario`: `position`, `put`, `give_turn`, `on_top`...); tests
then send commands through `engine.apply`, as a client would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.karanor import commands as K
from app.karanor import engine
from app.karanor.content import Content, load_pack
from app.karanor.errors import RuleError
from app.karanor.scenario import blank, deal, give_turn, on_top, position, put
from app.karanor.scenario import draft_first as draft
from app.karanor.state import State

ROOT = Path(__file__).resolve().parents[2]
MINI: Content = load_pack(ROOT / "app" / "karanor" / "content" / "mini")
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")
RESOURCES: tuple[str, ...] = tuple(MINI.rules.supply)
PARTNERS: tuple[str, ...] = tuple(MINI.rules.partners)

Command = K.Command | dict[str, Any]
# The public scenario builder (app.karanor.scenario), as the tests name it.
__all__ = ["blank", "draft", "give_turn", "on_top", "put"]


def new(n: int = 2, seed: int = 1, **options: Any) -> State:
    """A freshly dealt game of the mini pack (draft not played)."""
    return deal(n, seed, MINI, **options)


def after_draft(n: int = 2, seed: int = 1, **options: Any) -> State:
    """A game in its first turn (seat 0 starts unless `start_seat` says otherwise)."""
    options.setdefault("start_seat", 0)
    return draft(new(n, seed, **options))


def scenario(n: int = 2, seed: int = 1, **options: Any) -> State:
    """`after_draft`, then `blank`: seat 0 to play with 4 actions, everyone at home."""
    return position(n, seed, MINI, **options)


def play(s: State, seat: int, cmd: Command) -> list[dict[str, Any]]:
    """Apply a command that must be accepted; return its events."""
    return engine.apply(s, seat, cmd)


def refuse(s: State, seat: int, cmd: Command, code: str) -> RuleError:
    """The command is refused with `code`, the state is untouched, and (for a
    non-trade command) it is not among the seat's legal actions."""
    before = s.to_dict()
    with pytest.raises(RuleError) as info:
        engine.apply(s, seat, cmd)
    assert info.value.code == code, f"{info.value.code}: {info.value.message}"
    assert s.to_dict() == before, "a refused command changed the state"
    if code in ("bad_command", "unknown_command"):
        return info.value
    parsed = K.parse(cmd) if isinstance(cmd, dict) else cmd
    if parsed.type not in ("offer", "accept", "decline", "withdraw", "counter"):
        assert K.to_json(parsed) not in legal(s, seat), "a refused command is listed as legal"
    return info.value


def legal(s: State, seat: int) -> list[dict[str, Any]]:
    return [K.to_json(c) for c in engine.legal_actions(s, seat)]


def offered(s: State, seat: int, cmd: dict[str, Any]) -> bool:
    """Whether this exact command (JSON form) is among the seat's legal actions."""
    return K.to_json(K.parse(cmd)) in legal(s, seat)


def legal_types(s: State, seat: int) -> set[str]:
    return {c["type"] for c in legal(s, seat)}


def destinations(s: State, seat: int) -> set[str]:
    return {c["to"] for c in legal(s, seat) if c["type"] == "move"}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)
