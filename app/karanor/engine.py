"""The rules of Merchants of Karanor: the dispatcher over the parts of the turn.

Each command type has one handler (`app.games.kit.Handler`: candidates, check, do) in
the module of its part of the game: `draft`, `moves` and `actions` (the turn's
actions), `business`, `quests`, `market`, `black_market`, `artifacts`, `trades`,
`turns` (revenue, the next turn, the end). `KaranorRules` adds what is common to every
command (`gate`), which kinds are worth listing now (`kinds`), what follows every
command by itself (`settle`) and whose turn it is (`to_act`); the kit's loop does the
rest (`legal_actions`, `check`, `apply`).

This module is also the engine's public entry point for outside tools: `new_game`,
`apply`, `legal_actions`, `check`, `outcome`, `to_act`, the state classes and the
content loader are importable from here.
"""

from __future__ import annotations

from typing import Any

from app.games.kit import Check, Events, Handler, Outcome, Rules, err

from . import (
    actions,
    artifacts,
    black_market,
    business,
    draft,
    market,
    moves,
    quests,
    trades,
    turns,
)  # fmt: skip
from . import commands as K
from .common import PACKS, content_of, register
from .content import Content, load
from .setup import Options, new_game, normalise_options
from .state import ACTION, DRAFT, GAME_OVER, Business, Player, State

__all__ = [
    "ACTION", "DRAFT", "GAME_OVER", "RULES", "Business", "Content", "Options", "Outcome",
    "Player", "State", "apply", "check", "content_of", "legal_actions", "listed_kinds", "load",
    "new_game", "normalise_options", "outcome", "register", "to_act",
]  # fmt: skip

HANDLERS: tuple[Handler[State, Content, Any], ...] = (
    draft.DraftPick(), artifacts.ChooseArtifact(), quests.QuestChoice(),
    quests.DiscardQuest(), business.PickBusiness(), moves.Move(), actions.Harvest(),
    actions.Work(), business.Build(), quests.Interact(), quests.CompleteQuest(),
    actions.Deliver(), actions.RecruitPartner(), actions.BuyVilla(), market.Market(),
    turns.EndTurn(),
    actions.PromotePartner(), black_market.PlayBlackMarket(), artifacts.UseArtifact(),
    *trades.TRADES,
)  # fmt: skip

ANSWERS = {
    "artifact": "choose_artifact",
    "quest_choice": "quest_choice",
    "quest_discard": "discard_quest",
    "business_pick": "pick_business",
}
TURN_ORDER = (
    "move", "harvest", "work", "build", "interact", "complete_quest", "deliver",
    "recruit_partner", "buy_villa", "market", "play_black_market", "use_artifact",
    "promote_partner", "end_turn",
)  # fmt: skip
# A shortcut for listing only (check() still decides): which kinds can be legal off-turn,
# and which on your turn once no action is left.
OFF_TURN = ("play_black_market", "use_artifact", "promote_partner")
NO_ACTION_LEFT = ("move", *OFF_TURN, "end_turn")


def listed_kinds(s: State, seat: int) -> tuple[str, ...]:
    """The command kinds that can be legal for `seat` now, in listing order (a shortcut
    for listing only: `check` still decides)."""
    return RULES.kinds(s, content_of(s), seat)


def _kinds_here(
    c: Content,
    acting: bool | None,
    position: str,
    market: bool,
    quests: bool,
    black_market: bool,
    artifacts: bool,
    partners: bool,
) -> tuple[str, ...]:
    """The kinds worth listing for a seat (`acting`: on its turn with an action left,
    False without one, None off-turn) at `position`: `TURN_ORDER`, `NO_ACTION_LEFT` or
    `OFF_TURN` without those whose listing is empty whatever else holds: nothing to
    harvest on a territory without a resource, to build outside a city, to deliver
    outside a delivery's city, a villa to buy where none stands, a market outside a
    two-player game, a quest to complete, a card to play, an artifact to use or a
    partner to promote when the seat holds none. Each listing makes the same test
    first; `tests/karanor/test_listing.py` lists every kind at every state to prove
    nothing legal is left out."""
    base = OFF_TURN if acting is None else TURN_ORDER if acting else NO_ACTION_LEFT
    here = c.territory[position]
    dropped = {
        "harvest": here.resource is None,
        "build": position not in c.cities,
        "deliver": all(d.city != position for d in c.deliveries),
        "buy_villa": here.villa is None or c.villas.get(here.villa.id) != position,
        "market": not market,
        "complete_quest": not quests,
        "play_black_market": not black_market,
        "use_artifact": not artifacts,
        "promote_partner": not partners,
    }
    return tuple(k for k in base if not dropped.get(k, False))


class KaranorRules(Rules[State, Content]):
    """What is Karanor's own in the kit's check -> list -> apply loop."""

    def gate(self, s: State, seat: int, kind: str) -> Check:
        """Checks common to every command, in a fixed order: game over, seat, pending
        choice, the draft first."""
        if s.phase == GAME_OVER:
            return err("game_over", "the game is over")
        if not isinstance(seat, int) or not 0 <= seat < len(s.players):
            return err("not_a_player", f"seat {seat!r} is not in this game")
        if s.pending:
            head = s.pending[0]
            if ANSWERS[head["kind"]] != kind:
                who = "you" if head["seat"] == seat else f"seat {head['seat']}"
                return err(
                    "pending_choice",
                    f"{who} must first make a choice ({head['kind'].replace('_', ' ')})",
                )
        elif kind in ANSWERS.values():
            return err("no_such_choice", "there is no choice to make now")
        if s.phase == DRAFT and kind != "draft_pick":
            return err("wrong_phase", "the draft comes first: pick a business card")
        return None

    def kinds(self, s: State, c: Content, seat: int) -> tuple[str, ...]:
        """The command kinds that can be legal for `seat` now, in listing order."""
        if s.phase == GAME_OVER or not 0 <= seat < s.n:
            return ()
        if s.pending:
            if s.pending[0]["seat"] != seat:
                return ()
            return (ANSWERS[s.pending[0]["kind"]],)
        if s.phase == DRAFT:
            return ("draft_pick",)
        p = s.players[seat]
        key = (
            s.actions_left > 0 if seat == s.turn_seat else None,
            p.position,
            s.market is not None,
            bool(p.quests),
            bool(p.black_market),
            bool(p.artifacts),
            bool(p.partners),
        )
        memo = c.memo.get("kinds")
        if memo is None:
            memo = c.memo["kinds"] = {}
        found = memo.get(key)
        if found is None:
            found = memo[key] = _kinds_here(c, *key)
        return found

    def settle(self, s: State, c: Content, ev: Events) -> None:
        """After every command: impossible immediate choices resolve by themselves, hand
        limits call for discards, offers that can't be honoured show as unavailable."""
        quests.settle(s, c, ev)
        if s.offers:
            trades.refresh(s, c, ev)

    def to_act(self, s: State) -> list[int]:
        """The seats the game waits for now (several during the simultaneous draft)."""
        if s.phase == GAME_OVER:
            return []
        if s.pending:
            return [s.pending[0]["seat"]]
        if s.phase == DRAFT:
            return [p.seat for p in s.players if not p.draft_done]
        return [s.turn_seat]

    def is_over(self, s: State) -> bool:
        return s.phase == GAME_OVER

    def outcome(self, s: State) -> Outcome | None:
        return turns.outcome(s)


RULES = KaranorRules(HANDLERS, K.COMMANDS, PACKS)
legal_actions = RULES.legal_actions
check = RULES.check
apply = RULES.apply
to_act = RULES.to_act
outcome = turns.outcome
