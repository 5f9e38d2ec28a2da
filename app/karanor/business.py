"""Businesses: building one in a city (the Build action) and picking the business card
its opening gives (from the display or blind from the deck)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.games.kit import Check, Events, Handler, RuleError, err, pending_head

from . import commands as K
from . import effects as fx
from .common import spend_action, turn_check
from .content import Content
from .state import Business, State

DECK = "deck"  # `pick_business` of this card: a blind draw (docs/api.md)


class PickBusiness(Handler[State, Content, K.PickBusiness]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.PickBusiness]:
        if s.pending and s.pending[0]["kind"] == "business_pick":
            for card in s.business_display:
                yield K.PickBusiness(card)
            if fx.can_draw(s, "business"):
                yield K.PickBusiness(DECK)

    def check(self, s: State, c: Content, seat: int, cmd: K.PickBusiness) -> Check:
        pend = pending_head(s.pending, seat, "business_pick")
        if isinstance(pend, RuleError):
            return pend
        if cmd.card == DECK:
            if not fx.can_draw(s, "business"):
                return err("deck_empty", "the business deck is empty: pick a displayed card")
        elif cmd.card not in s.business_display:
            return err("not_displayed", f"{cmd.card} is not on display")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.PickBusiness, ev: Events) -> None:
        s.pending.pop(0)
        p = s.players[seat]
        if cmd.card == DECK:
            got = fx.draw(s, "business")
            p.business_hand.extend(got)
            ev.append({"type": "business_blind", "seat": seat})
            ev.append({"type": "drew", "to": seat, "deck": "business", "cards": got})
        else:
            i = s.business_display.index(cmd.card)
            p.business_hand.append(cmd.card)
            refill = fx.draw(s, "business")
            if refill:
                s.business_display[i] = refill[0]
            else:
                s.business_display.pop(i)
            ev.append(
                {
                    "type": "business_taken",
                    "seat": seat,
                    "card": cmd.card,
                    "display": list(s.business_display),
                }
            )


def _build_costs(
    c: Content,
) -> dict[str, tuple[tuple[K.Build, int, int, tuple[tuple[str, int], ...]], ...]]:
    """Each business card's Build commands (plain, then with the bonus) with what they
    cost: (command, gold, gold the build discount lowers, resources)."""
    table = c.memo.get("build_costs")
    if table is None:
        table = c.memo["build_costs"] = {}
        for card_id, card in c.business_card.items():
            need = dict(card.cost.resources)
            costs = [(K.Build(card_id, False), 0, card.cost.gold, tuple(need.items()))]
            if card.bonus:
                for r, k in card.bonus.cost.resources.items():
                    need[r] = need.get(r, 0) + k
                bonus = (K.Build(card_id, True), card.bonus.cost.gold, card.cost.gold)
                costs.append((*bonus, tuple(need.items())))
            table[card_id] = tuple(costs)
    return table


class Build(Handler[State, Content, K.Build]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Build]:
        p = s.players[seat]
        if p.position in c.cities:
            for card in p.business_hand:
                yield K.Build(card, False)
                if c.business_card[card].bonus:
                    yield K.Build(card, True)

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Build]:
        p = s.players[seat]
        if (
            not p.business_hand
            or p.position not in c.cities
            or p.has_business_in(p.position)
            or p.pawns() >= c.rules.pawns_per_player
        ):
            return ()
        off = fx.mods(c, p)["build_discount"]
        held = p.resources
        out = []
        table = _build_costs(c)
        for card_id in p.business_hand:
            for cmd, gold, discounted, need in table[card_id]:
                if p.gold >= gold + max(0, discounted - off) and all(
                    held.get(r, 0) >= k for r, k in need
                ):
                    out.append(cmd)
        return out

    def check(self, s: State, c: Content, seat: int, cmd: K.Build) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.card not in p.business_hand:
            return err("not_in_hand", f"{cmd.card} is not one of your business cards")
        card = c.business_card[cmd.card]
        if p.position not in c.cities:
            return err("not_in_city", "a business is built in one of the 7 cities")
        if p.has_business_in(p.position):
            return err(
                "already_built_here",
                f"you already have a business in "
                f"{c.territory[p.position].name} (one per player per city)",
            )
        if p.pawns() >= c.rules.pawns_per_player:
            return err("no_pawns_left", f"all {c.rules.pawns_per_player} of your pawns are placed")
        if cmd.bonus and not card.bonus:
            return err("no_bonus", f"{card.name} has no optional bonus")
        off = fx.mods(c, p)["build_discount"]
        total_gold = max(0, card.cost.gold - off) + (
            card.bonus.cost.gold if cmd.bonus and card.bonus else 0
        )
        need = dict(card.cost.resources)
        if cmd.bonus and card.bonus:
            for r, k in card.bonus.cost.resources.items():
                need[r] = need.get(r, 0) + k
        if p.gold < total_gold or any(p.resources.get(r, 0) < k for r, k in need.items()):
            return err(
                "cannot_afford",
                f"{card.name} costs {fx.bundle_words(card.cost)}"
                + (
                    f" plus {fx.bundle_words(card.bonus.cost)} for the bonus"
                    if cmd.bonus and card.bonus
                    else ""
                ),
            )
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Build, ev: Events) -> None:
        p = s.players[seat]
        card = c.business_card[cmd.card]
        spend_action(s)
        paid = fx.pay(s, p, card.cost, gold_off=fx.mods(c, p)["build_discount"])
        p.business_hand.remove(cmd.card)
        p.businesses.append(Business(city=p.position, card=cmd.card))
        ev.append(
            {
                "type": "build",
                "seat": seat,
                "card": cmd.card,
                "city": p.position,
                "bonus": cmd.bonus,
                "gold": paid,
            }
        )
        fx.apply_rewards(s, c, p, card.opening, ev)
        if cmd.bonus and card.bonus:
            fx.pay(s, p, card.bonus.cost)
            fx.apply_rewards(s, c, p, card.bonus.reward, ev)
        if s.business_display or fx.can_draw(s, "business"):
            s.pending.append({"kind": "business_pick", "seat": seat})
