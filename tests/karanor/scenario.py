"""Helpers that build positions directly and play commands on them.

A scenario is a real game of the `mini` pack, dealt by `engine.new_game` and
drafted by `after_draft`; tests then set fields of the state to build the
situation they need and send commands through `engine.apply`, as a client would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.karanor import actions as A
from app.karanor import engine
from app.karanor.content import Content, load_pack
from app.karanor.errors import RuleError
from app.karanor.state import State

ROOT = Path(__file__).resolve().parents[2]
MINI: Content = load_pack(ROOT / "app" / "karanor" / "content" / "mini")
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")
RESOURCES: tuple[str, ...] = tuple(MINI.rules.supply)
PARTNERS: tuple[str, ...] = tuple(MINI.rules.partners)

Command = A.Command | dict[str, Any]


def new(n: int = 2, seed: int = 1, **options: Any) -> State:
    """A freshly dealt game of the mini pack (draft not played)."""
    return engine.new_game(MINI, options, seed, list(NAMES[:n]))


def draft(s: State) -> State:
    """Play both draft rounds, every seat keeping the first card it is offered."""
    for _ in range(2):
        for seat in range(s.n):
            engine.apply(s, seat, {"type": "draft_pick", "card": s.players[seat].draft_hand[0]})
    return s


def after_draft(n: int = 2, seed: int = 1, **options: Any) -> State:
    """A game in its first turn (seat 0 starts unless `start_seat` says otherwise)."""
    options.setdefault("start_seat", 0)
    return draft(new(n, seed, **options))


def blank(s: State) -> State:
    """Strip every merchant to a blank slate: no gold, resources, badges nor revenue.

    What the story tiles gave returns to the supplies, so token counts stay true.
    """
    for p in s.players:
        for b in p.badges:
            s.badge_supply[b] += 1
        p.badges = []
        for r, k in p.resources.items():
            s.supply[r] += k
        p.resources = dict.fromkeys(RESOURCES, 0)
        p.gold = 0
        p.revenue = 0
    return s


def scenario(n: int = 2, seed: int = 1, **options: Any) -> State:
    """`after_draft`, then `blank`: seat 0 to play with 4 actions, everyone at home."""
    return blank(after_draft(n, seed, **options))


HANDS = {  # hand field -> the deck its cards come from
    "business_hand": "business",
    "quests": "quests",
    "black_market": "black_market",
    "artifacts": "artifacts",
}


def put(s: State, seat: int, resources: dict[str, int] | None = None, **fields: Any) -> Any:
    """Set fields of a player; `resources` is merged into what the player holds; cards put
    in a hand are taken out of the decks (see `_withdraw`)."""
    p = s.players[seat]
    for k, v in fields.items():
        if k in HANDS:
            _withdraw(s, HANDS[k], v)
        setattr(p, k, v)
    for r, k in (resources or {}).items():
        p.resources[r] = k
    return p


def _withdraw(s: State, deck: str, cards: list[str]) -> None:
    """Cards put in a hand leave the deck, the discards and the display (a displayed card
    is replaced from the deck), so every card stays in one place."""
    for card in cards:
        for pile in (s.decks.get(deck, []), s.discards.get(deck, [])):
            if card in pile:
                pile.remove(card)
        if deck == "business" and card in s.business_display:
            i = s.business_display.index(card)
            s.business_display[i] = s.decks["business"].pop()


def give_turn(s: State, seat: int, actions: int = 4) -> None:
    """Make it `seat`'s turn, with `actions` actions and no Move in progress."""
    s.turn_seat = seat
    s.actions_left = actions
    s.move_left = 0


def play(s: State, seat: int, cmd: Command) -> list[dict[str, Any]]:
    """Apply a command that must be accepted; return its events."""
    _, events = engine.apply(s, seat, cmd)
    return events


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
    parsed = A.parse(cmd) if isinstance(cmd, dict) else cmd
    if parsed.type not in ("offer", "accept", "decline", "withdraw", "counter"):
        assert A.to_json(parsed) not in legal(s, seat), "a refused command is listed as legal"
    return info.value


def legal(s: State, seat: int) -> list[dict[str, Any]]:
    return [A.to_json(c) for c in engine.legal_actions(s, seat)]


def offered(s: State, seat: int, cmd: dict[str, Any]) -> bool:
    """Whether this exact command (JSON form) is among the seat's legal actions."""
    return A.to_json(A.parse(cmd)) in legal(s, seat)


def legal_types(s: State, seat: int) -> set[str]:
    return {c["type"] for c in legal(s, seat)}


def destinations(s: State, seat: int) -> set[str]:
    return {c["to"] for c in legal(s, seat) if c["type"] == "move"}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)
