"""Quests: meeting an inhabitant (Interact), an immediate card's choice, completing a
quest and its sequel, discarding down to the hand limit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.games.kit import Check, Events, Handler, RuleError, err, pending_head

from . import commands as K
from . import effects as fx
from .common import choice_error, choice_ok, spend_action, turn_check
from .content import Content
from .state import Player, State

_INTERACT = (K.Interact(),)


class QuestChoice(Handler[State, Content, K.QuestChoice]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.QuestChoice]:
        if s.pending and s.pending[0]["kind"] == "quest_choice":
            card = s.pending[0]["card"]
            for i in range(len(c.quest[card].immediate)):
                yield K.QuestChoice(card, i)

    def check(self, s: State, c: Content, seat: int, cmd: K.QuestChoice) -> Check:
        pend = pending_head(s.pending, seat, "quest_choice")
        if isinstance(pend, RuleError):
            return pend
        if cmd.card != pend["card"]:
            return err("not_offered", f"the choice to make is on {pend['card']}")
        q = c.quest[cmd.card]
        if not 0 <= cmd.option < len(q.immediate):
            return err("bad_option", f"{q.name} has options 0 to {len(q.immediate) - 1}")
        return choice_error(s, c, s.players[seat], q.immediate[cmd.option])

    def do(self, s: State, c: Content, seat: int, cmd: K.QuestChoice, ev: Events) -> None:
        s.pending.pop(0)
        p = s.players[seat]
        q = c.quest[cmd.card]
        choice = q.immediate[cmd.option]
        fx.pay(s, p, choice.cost)
        # Ruling R12: the card is shown once it leaves play; kept in hand it stays secret.
        shown = not q.complete or s.options.get("public_quests")
        ev.append(
            {
                "type": "quest_choice",
                "seat": seat,
                "option": cmd.option,
                **({"card": cmd.card} if shown else {}),
            }
        )
        fx.apply_rewards(s, c, p, choice.reward, ev)
        after_immediate(s, c, p, cmd.card, ev)


def after_immediate(s: State, c: Content, p: Player, card: str, ev: Events) -> None:
    """Ruling R12: a quest that also has completion choices stays in the hand."""
    if c.quest[card].complete:
        p.quests.append(card)
    else:
        _discard_quest(s, c, card)


def _discard_quest(s: State, c: Content, card: str) -> None:
    """Sequels have a discard pile of their own: they never join the quest deck."""
    s.discards["sequels" if card in c.sequel_ids else "quests"].append(card)


class DiscardQuest(Handler[State, Content, K.DiscardQuest]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.DiscardQuest]:
        if s.pending and s.pending[0]["kind"] == "quest_discard":
            for card in s.players[seat].quests:
                yield K.DiscardQuest(card)

    def check(self, s: State, c: Content, seat: int, cmd: K.DiscardQuest) -> Check:
        pend = pending_head(s.pending, seat, "quest_discard")
        if isinstance(pend, RuleError):
            return pend
        if cmd.card not in s.players[seat].quests:
            return err("not_in_hand", f"{cmd.card} is not one of your quests")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.DiscardQuest, ev: Events) -> None:
        s.pending.pop(0)
        s.players[seat].quests.remove(cmd.card)
        _discard_quest(s, c, cmd.card)
        ev.append({"type": "quest_discarded", "seat": seat})
        ev.append({"type": "quest_discarded_card", "to": seat, "card": cmd.card})


class Interact(Handler[State, Content, K.Interact]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Interact]:
        if s.players[seat].position in s.inhabitants:
            yield K.Interact()

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Interact]:
        if s.players[seat].position in s.inhabitants and fx.can_draw(s, "quests"):
            return _INTERACT
        return ()

    def check(self, s: State, c: Content, seat: int, cmd: K.Interact) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        where = s.players[seat].position
        if where not in s.inhabitants:
            return err("no_inhabitant", f"no inhabitant at {c.territory[where].name}")
        if not fx.can_draw(s, "quests"):
            return err("deck_empty", "the quest deck is empty")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Interact, ev: Events) -> None:
        p = s.players[seat]
        spend_action(s)
        who = s.inhabitants.pop(p.position)
        ev.append({"type": "interact", "seat": seat, "inhabitant": who, "territory": p.position})
        fx.give_quests(s, c, p, 1, ev)


def _completions(c: Content) -> dict[str, tuple[tuple[K.CompleteQuest, str | None, Any], ...]]:
    """Each quest's completion commands, each with the territory its choice requires (a
    quick refusal before the whole check; most completions are tied to one place)."""
    table = c.memo.get("completions")
    if table is None:
        table = c.memo["completions"] = {
            card: tuple(
                (K.CompleteQuest(card, i), next((x.at for x in ch.requires if x.at), None), ch)
                for i, ch in enumerate(q.complete)
            )
            for card, q in c.quest.items()
        }
    return table


class CompleteQuest(Handler[State, Content, K.CompleteQuest]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.CompleteQuest]:
        for card in s.players[seat].quests:
            for i in range(len(c.quest[card].complete)):
                yield K.CompleteQuest(card, i)

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.CompleteQuest]:
        p = s.players[seat]
        if not p.quests:
            return ()
        here = p.position
        table = _completions(c)
        return [
            cmd
            for card in p.quests
            for cmd, at, choice in table[card]
            if (at is None or at == here) and choice_ok(s, c, p, choice)
        ]

    def check(self, s: State, c: Content, seat: int, cmd: K.CompleteQuest) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.card not in p.quests:
            return err("not_in_hand", f"{cmd.card} is not one of your quests")
        q = c.quest[cmd.card]
        if not 0 <= cmd.option < len(q.complete):
            return err("bad_option", f"{q.name} has completion options 0 to {len(q.complete) - 1}")
        return choice_error(s, c, p, q.complete[cmd.option])

    def do(self, s: State, c: Content, seat: int, cmd: K.CompleteQuest, ev: Events) -> None:
        p = s.players[seat]
        q = c.quest[cmd.card]
        choice = q.complete[cmd.option]
        spend_action(s)
        fx.pay(s, p, choice.cost)
        p.quests.remove(cmd.card)
        ev.append({"type": "quest_done", "seat": seat, "card": cmd.card, "option": cmd.option})
        fx.apply_rewards(s, c, p, choice.reward, ev)
        if q.prestige:
            fx.gain_prestige(s, c, p, q.prestige, ev)
        _discard_quest(s, c, cmd.card)
        if q.sequel:
            if _sequel_out(s, q.sequel):
                # Ruling R13c: the sequel card exists once; a first part completed again
                # (back through the reshuffled discards) gives none while it is out.
                ev.append({"type": "sequel_out", "seat": seat, "card": q.sequel})
            else:
                # Ruling R13: the sequel goes straight to the hand, counts toward the limit.
                ev.append({"type": "sequel", "seat": seat, "card": q.sequel})
                fx.receive_quest(s, c, p, q.sequel, ev)


def _sequel_out(s: State, card: str) -> bool:
    """Whether the sequel card `card` is already somewhere: in a hand (shared quests are
    hands shown to all), waiting as a choice, or discarded."""
    return (
        card in s.discards["sequels"]
        or any(card in p.quests for p in s.players)
        or any(x.get("card") == card for x in s.pending)
    )


def settle(s: State, c: Content, ev: Events) -> None:
    """After every command: an immediate choice no option of which can be taken lapses
    (ruling R12b); a hand over its quest limit calls for a discard."""
    while s.pending and s.pending[0]["kind"] == "quest_choice":
        head = s.pending[0]
        p = s.players[head["seat"]]
        q = c.quest[head["card"]]
        if any(choice_ok(s, c, p, ch) for ch in q.immediate):
            break
        s.pending.pop(0)
        ev.append({"type": "quest_choice_lapsed", "seat": p.seat})
        after_immediate(s, c, p, head["card"], ev)
    floor = fx.quest_limit_floor(c)
    for p in s.players:
        if (
            len(p.quests) > floor
            and len(p.quests) > fx.quest_limit(c, p)
            and not any(x["kind"] == "quest_discard" and x["seat"] == p.seat for x in s.pending)
        ):
            s.pending.append({"kind": "quest_discard", "seat": p.seat})
