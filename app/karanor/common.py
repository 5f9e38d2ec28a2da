"""What every part of Karanor's rules shares: the content packs, the checks of every
turn action, and the handler type of this game (`app.games.kit.Handler` over Karanor's
state and content)."""

from __future__ import annotations

from typing import Any

from app.games.kit import Check, Packs, err

from . import effects as fx
from .content import Content, load
from .state import ACTION, Player, State

PACKS: Packs[Content] = Packs(load, lambda c: c.name)


def register(content: Content) -> None:
    """Make a content pack loaded from elsewhere (tests) known by its name."""
    PACKS.register(content)


def content_of(s: State) -> Content:
    return PACKS.of(s.content)


def turn_check(s: State, seat: int, *, action: bool = True) -> Check:
    """The checks of every turn action, in order: phase, turn, actions left."""
    if s.phase != ACTION:
        return err("wrong_phase", f"not in the action phase (phase: {s.phase})")
    if seat != s.turn_seat:
        return err("not_your_turn", f"it is seat {s.turn_seat}'s turn, not seat {seat}'s")
    if action and s.actions_left <= 0:
        return err("no_actions_left", "no actions left this turn: end the turn")
    return None


def free_check(s: State, seat: int) -> Check:
    """A free play (no action unless its card says so): only in the action phase."""
    if s.phase != ACTION:
        return err("wrong_phase", f"not in the action phase (phase: {s.phase})")
    return None


def spend_action(s: State) -> None:
    s.actions_left -= 1
    s.move_left = 0  # starting another action ends a Move in progress


def choice_error(s: State, c: Content, p: Player, choice: Any) -> Check:
    """Why `p` cannot take a quest's option `choice` (its conditions, its cost)."""
    why = fx.unmet(s, c, p, choice.requires)
    if why:
        return err("conditions_not_met", f"{choice.label}: {why}")
    if not fx.holds(p, choice.cost):
        return err("cannot_afford", f"{choice.label}: costs {fx.bundle_words(choice.cost)}")
    return None


def choice_ok(s: State, c: Content, p: Player, choice: Any) -> bool:
    """`choice_error(...) is None` without building the refusal."""
    return fx.unmet(s, c, p, choice.requires) is None and fx.holds(p, choice.cost)
