"""Building a position of Karanor on purpose: for tests, and handy for a bug report.

A scenario starts from a real deal (`deal`), plays the draft (`draft_first`), and is
then shaped by documented calls, never by poking the engine's internals:

    s = position(3, content=my_pack)            # after the draft, blank merchants
    put(s, 1, gold=5, resources={"wood": 2}, quests=["q_bridge"])
    give_turn(s, 1, actions=2)
    on_top(s, "quests", ["q_ruins"])            # the next quest drawn
    events = engine.apply(s, 1, {"type": "interact"})

Cards put in a hand or on top of a deck are taken from wherever they were (deck,
discards, display), so every card stays in exactly one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import engine
from .content import Content
from .state import Player, State

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")
HANDS = {  # player field -> the deck its cards come from
    "business_hand": "business",
    "quests": "quests",
    "black_market": "black_market",
    "artifacts": "artifacts",
}


def deal(n: int = 2, seed: int = 1, content: Content | str = "base", **options: Any) -> State:
    """A freshly dealt game of `n` merchants (named Ana, Bo...), the draft not played."""
    return engine.new_game(options, seed, list(NAMES[:n]), content)


def draft_first(s: State) -> State:
    """Play both draft rounds, every seat keeping the first card it is offered."""
    for _ in range(2):
        for seat in range(s.n):
            card = s.players[seat].draft_hand[0]
            engine.apply(s, seat, {"type": "draft_pick", "card": card})
    return s


def blank(s: State) -> State:
    """Strip every merchant to a blank slate: no gold, resources, badges nor revenue.
    What the story tiles gave returns to the supplies, so token counts stay true."""
    for p in s.players:
        for b in p.badges:
            s.badge_supply[b] += 1
        p.badges = []
        for r, k in p.resources.items():
            s.supply[r] += k
        p.resources = dict.fromkeys(p.resources, 0)
        p.gold = 0
        p.revenue = 0
    return s


def position(n: int = 2, seed: int = 1, content: Content | str = "base", **options: Any) -> State:
    """The first turn after the draft, every merchant blank and at home: seat 0 to play
    (unless `start_seat` says otherwise) with its actions."""
    options.setdefault("start_seat", 0)
    return blank(draft_first(deal(n, seed, content, **options)))


def put(s: State, seat: int, resources: dict[str, int] | None = None, **fields: Any) -> Player:
    """Set fields of a merchant (`gold`, `position`, `quests`, `partners`...);
    `resources` is merged into what it holds; cards put in a hand leave the decks."""
    p = s.players[seat]
    for k, v in fields.items():
        if not hasattr(p, k):
            raise AttributeError(f"a merchant has no {k!r}")
        if k in HANDS:
            _withdraw(s, HANDS[k], v)
        setattr(p, k, v)
    for r, count in (resources or {}).items():
        p.resources[r] = count
    return p


def on_top(s: State, deck: str, cards: Sequence[str]) -> None:
    """Put `cards` on top of `deck` in the order given (the first is drawn first)."""
    _withdraw(s, deck, cards)
    s.decks[deck].extend(reversed(cards))


def give_turn(s: State, seat: int, actions: int = 4) -> None:
    """Make it `seat`'s turn, with `actions` actions and no Move in progress."""
    s.turn_seat = seat
    s.actions_left = actions
    s.move_left = 0


def _withdraw(s: State, deck: str, cards: Iterable[str]) -> None:
    for card in cards:
        for pile in (s.decks.get(deck, []), s.discards.get(deck, [])):
            if card in pile:
                pile.remove(card)
        if deck == "business" and card in s.business_display:
            i = s.business_display.index(card)
            s.business_display[i] = s.decks["business"].pop()
