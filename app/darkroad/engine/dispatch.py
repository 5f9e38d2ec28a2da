"""The dispatcher: every handler by command type, which answers a pending choice
takes, the gate common to every command, and the loop (`legal_actions`, `check`,
`apply`) the kit runs."""

from __future__ import annotations

from typing import Any

from app.games import kit

from .. import actions as A
from ..content import Content
from ..state import ACTIVATE, MOVE, OVER, PLAN, PLAY, Player, State
from .buildings import BuildingH
from .caravans import (
    Caravan,
    ChooseSteed,
    DeliverCommission,
    DeliverHero,
    DoneDelivering,
    Fortune,
    Join,
    RerollTravel,
    TakeTravelDie,
    Visit,
)
from .companions import UseCompanion
from .core import HANDLERS, PACKS, TARGET_KINDS, Check, err
from .districts import (
    Bazaar,
    BazaarBuy,
    BazaarChange,
    BazaarRotate,
    DarkMarket,
    Inn,
    Ruins,
    RuinsDie,
    TakeCommission,
    TakeHero,
)
from .flow import settle
from .setup import Draft, KeepDeed
from .turn import EndTurn, Move, Plan, ResetDice
from .wagon import (
    ChooseGood,
    DiscardCommission,
    DiscardGood,
    DiscardHero,
    DiscardResource,
    LoseGood,
    PlaceGood,
    Rearrange,
)

# --- dispatch ---------------------------------------------------------------------------------

HANDLERS.update({
    h.cmd.type: h
    for h in (
        Draft(), KeepDeed(), ResetDice(), Plan(), Move(), Bazaar(), BazaarRotate(),
        BazaarChange(), BazaarBuy(), TakeCommission(), DarkMarket(), Inn(), Ruins(), Caravan(),
        BuildingH(), UseCompanion(), EndTurn(), PlaceGood(), DiscardGood(), Rearrange(),
        DiscardHero(), DiscardCommission(), DiscardResource(), ChooseGood(), LoseGood(),
        RuinsDie(), TakeHero(), ChooseSteed(), Join(), RerollTravel(), TakeTravelDie(), Visit(),
        DeliverCommission(), DeliverHero(), DoneDelivering(), Fortune(),
    )
})  # fmt: skip
ANSWERS: dict[str, tuple[str, ...]] = {
    "draft": ("draft",),
    "keep_deed": ("keep_deed",),
    "store": ("place_good", "discard_good", "rearrange"),
    "bazaar": ("bazaar_rotate", "bazaar_change", "bazaar_buy"),
    "hero_overflow": ("discard_hero",),
    "commission_overflow": ("discard_commission",),
    "inventory_overflow": ("discard_resource",),
    "choose_good": ("choose_good",),
    "lose_good": ("lose_good",),
    "ruins_die": ("ruins_die",),
    "ruins_again": ("ruins",),
    "take_hero": ("take_hero",),
    "choose_steed": ("choose_steed",),
    "join": ("join",),
    "travel_die": ("reroll_travel", "take_travel_die"),
    "visit": ("visit",),
    "deliver": ("deliver_commission", "deliver_hero", "done_delivering"),
    "fortune": ("fortune",),
}
ANSWER_ONLY = frozenset(k for v in ANSWERS.values() for k in v) - {"ruins", "rearrange"}
STEP_KINDS: dict[str, tuple[str, ...]] = {
    PLAN: ("reset_dice", "plan", "use_companion"),
    MOVE: ("move", "use_companion"),
    ACTIVATE: (
        "bazaar", "take_commission", "dark_market", "inn", "ruins", "caravan", "building",
        "use_companion", "end_turn",
    ),
}  # fmt: skip


def gate(s: State, seat: int, kind: str) -> Check:
    """Checks common to every command, in order: unknown, game over, seat, pending choice."""
    if kind not in HANDLERS:
        return err("unknown_command", f"unknown command type {kind!r}")
    if s.phase == OVER:
        return err("game_over", "the game is over")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(s.players):
        return err("not_a_player", f"seat {seat!r} is not in this game")
    if s.pending:
        head = s.pending[0]
        if kind not in ANSWERS[head["kind"]]:
            who = "you" if head["seat"] == seat else f"seat {head['seat']}"
            return err(
                "pending_choice", f"{who} must first choose ({head['kind'].replace('_', ' ')})"
            )
        if head["seat"] != seat:
            return err("not_your_choice", f"seat {head['seat']} is choosing, not you")
    elif kind in ANSWER_ONLY:
        return err("no_such_choice", "there is no choice to make now")
    return None


def to_act(s: State) -> list[int]:
    """The seats the game waits for: the head of the pending choices, else the turn seat."""
    if s.phase == OVER:
        return []
    if s.pending:
        return [s.pending[0]["seat"]]
    return [s.turn_seat]


def turn_kinds(s: State, c: Content, p: Player) -> tuple[str, ...]:
    """A shortcut for listing only (check still decides): the kinds worth trying now."""
    comp = bool(p.companions)
    if s.step == PLAN:
        return _PLAN_KINDS[comp]
    if s.step == MOVE:
        return _MOVE_KINDS[comp]
    key = (comp, *s.acts)
    found = _ACTIVATE_KINDS.get(key)
    if found is None:
        out: list[str] = []
        for t in s.acts:
            out.extend(TARGET_KINDS.get(t, ("building",)))
        extra = ("use_companion",) if comp else ()
        found = _ACTIVATE_KINDS[key] = (*dict.fromkeys(out), *extra, "end_turn")
    return found


# `turn_kinds`' answers: by whether the seat has companions (and the open targets)
_PLAN_KINDS = {False: ("reset_dice", "plan"), True: ("reset_dice", "plan", "use_companion")}
_MOVE_KINDS = {False: ("move",), True: ("move", "use_companion")}
_ACTIVATE_KINDS: dict[tuple[Any, ...], tuple[str, ...]] = {}


class DarkRoadRules(kit.Rules[State, Content]):
    """The kit's check -> list -> apply loop, with the Dark Road's gate, kinds and settle."""

    # The module's functions themselves (no method in between: called once a command)
    gate = staticmethod(gate)

    def kinds(self, s: State, c: Content, seat: int) -> tuple[str, ...]:
        """The answers to the pending choice if it is `seat`'s, else on `seat`'s turn the
        step's kinds (explicit `rearrange` layouts are never listed: `place_good` without
        an area is the listed way to repack)."""
        if s.phase == OVER or not 0 <= seat < len(s.players):
            return ()
        if s.pending:
            head = s.pending[0]
            return ANSWERS[head["kind"]] if head["seat"] == seat else ()
        if s.phase != PLAY or seat != s.turn_seat:
            return ()
        return turn_kinds(s, c, s.players[seat])

    settle = staticmethod(settle)
    to_act = staticmethod(to_act)

    def is_over(self, s: State) -> bool:
        return s.phase == OVER

    def outcome(self, s: State) -> kit.Outcome | None:
        r = outcome(s)
        if r is None:
            return None
        return kit.Outcome(tuple(r["winners"]), tuple(r["scores"]))


def outcome(s: State) -> dict[str, Any] | None:
    """None while the game runs; else the winners (shared when the tie-breaks still tie)
    and every seat's score (the view's form; `RULES_LOOP.outcome` gives the kit's)."""
    return s.result if s.phase == OVER else None


RULES_LOOP = DarkRoadRules(HANDLERS.values(), A.TABLE, PACKS)
legal_actions = RULES_LOOP.legal_actions
check = RULES_LOOP.check
apply = RULES_LOOP.apply
