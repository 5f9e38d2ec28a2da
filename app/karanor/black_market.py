"""Black-market cards: who they may target, and playing one (free unless the card
costs an action; some only on your own turn, some only on another's)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from app.games.kit import Check, Events, Handler, err, intern

from . import commands as K
from . import effects as fx
from .common import free_check, spend_action, turn_check
from .content import Content, Resource
from .state import State


def bm_targets(s: State, c: Content, seat: int, kind: str) -> list[int]:
    """Who a black-market card may target ('protect' shields a player)."""
    p = s.players[seat]
    others = [q for q in s.players if q.seat != seat and not fx.mods(c, q)["protect"]]
    if kind == "any":
        return [q.seat for q in others]
    if kind == "same_territory":
        return [q.seat for q in others if q.position == p.position]
    if kind == "same_city":
        return [q.seat for q in others if q.position == p.position and p.position in c.cities]
    if kind == "leader":
        top = max((q.prestige for q in s.players if q.seat != seat), default=0)
        return [q.seat for q in others if q.prestige == top]
    return []


class PlayBlackMarket(Handler[State, Content, K.PlayBlackMarket]):
    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.PlayBlackMarket]:
        p = s.players[seat]
        if not p.black_market:
            return ()
        on_turn = seat == s.turn_seat
        out = []
        for card_id in dict.fromkeys(p.black_market):
            card = c.black_market_card[card_id]
            if (
                (card.when == "own_turn" and not on_turn)
                or (card.when == "off_turn" and on_turn)
                or (card.action and not (on_turn and s.actions_left > 0))
                or fx.unmet(s, c, p, card.requires) is not None
                or not fx.holds(p, card.cost)
            ):
                continue
            if card.target == "none":
                out.append(intern(K.PlayBlackMarket, card_id, None, None))
                continue
            for t in bm_targets(s, c, seat, card.target):
                if card.names_resource:
                    for res, k in s.players[t].resources.items():
                        if k > 0:
                            out.append(intern(K.PlayBlackMarket, card_id, t, res))
                else:
                    out.append(intern(K.PlayBlackMarket, card_id, t, None))
        return out

    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.PlayBlackMarket]:
        p = s.players[seat]
        for card_id in dict.fromkeys(p.black_market):
            card = c.black_market_card[card_id]
            if card.target == "none":
                yield K.PlayBlackMarket(card_id)
                continue
            for t in bm_targets(s, c, seat, card.target):
                if card.names_resource:
                    for res, k in s.players[t].resources.items():
                        if k > 0:
                            yield K.PlayBlackMarket(card_id, t, cast(Resource, res))
                else:
                    yield K.PlayBlackMarket(card_id, t)

    def check(self, s: State, c: Content, seat: int, cmd: K.PlayBlackMarket) -> Check:
        refused = free_check(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.card not in p.black_market:
            return err("not_in_hand", f"{cmd.card} is not one of your black-market cards")
        card = c.black_market_card[cmd.card]
        if card.when == "own_turn" and seat != s.turn_seat:
            return err("not_your_turn", f"{card.name} is played on your own turn")
        if card.when == "off_turn" and seat == s.turn_seat:
            return err("card_timing", f"{card.name} is played during another player's turn")
        if card.action:
            refused = turn_check(s, seat)
            if refused:
                return refused
        why = fx.unmet(s, c, p, card.requires)
        if why:
            return err("conditions_not_met", f"{card.name}: {why}")
        if not fx.holds(p, card.cost):
            return err("cannot_afford", f"{card.name} costs {fx.bundle_words(card.cost)}")
        if card.target == "none":
            if cmd.target is not None or cmd.resource is not None:
                return err("bad_target", f"{card.name} has no target")
            return None
        if cmd.target is None:
            return err("bad_target", f"{card.name} needs a target")
        if cmd.target not in bm_targets(s, c, seat, card.target):
            return err(
                "bad_target",
                f"seat {cmd.target} cannot be targeted by {card.name} now "
                f"(target: {card.target.replace('_', ' ')})",
            )
        if card.names_resource:
            if cmd.resource is None or s.players[cmd.target].resources.get(cmd.resource, 0) <= 0:
                return err("bad_target", f"{card.name}: name a resource the target holds")
        elif cmd.resource is not None:
            return err("bad_target", f"{card.name} names no resource")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.PlayBlackMarket, ev: Events) -> None:
        p = s.players[seat]
        card = c.black_market_card[cmd.card]
        if card.action:
            spend_action(s)
        if seat == s.turn_seat:
            s.move_left = 0  # playing a card ends your Move in progress
        fx.pay(s, p, card.cost)
        p.black_market.remove(cmd.card)
        s.discards["black_market"].append(cmd.card)
        ev.append(
            {
                "type": "black_market",
                "seat": seat,
                "card": cmd.card,
                "target": cmd.target,
                "resource": cmd.resource,
            }
        )
        fx.apply_rewards(s, c, p, card.reward, ev)
        if cmd.target is not None:
            fx.apply_hits(s, c, p, s.players[cmd.target], card.hit, cmd.resource, ev)
