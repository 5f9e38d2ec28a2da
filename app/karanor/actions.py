"""The simple actions: Harvest, Work, Deliver, recruiting a partner, buying a villa; and
promoting a partner (free, ruling R18)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from app.games.kit import Check, Events, Handler, err, intern

from . import commands as K
from . import effects as fx
from .common import free_check, spend_action, turn_check
from .content import Content, Resource
from .state import State

_HARVEST = (K.Harvest(),)
_WORK = (K.Work(),)
_DELIVER = (K.Deliver(),)


class Harvest(Handler[State, Content, K.Harvest]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Harvest]:
        if c.territory[s.players[seat].position].resource:
            yield K.Harvest()

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Harvest]:
        res = c.territory[s.players[seat].position].resource
        return _HARVEST if res and s.supply[res] > 0 else ()

    def check(self, s: State, c: Content, seat: int, cmd: K.Harvest) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        t = c.territory[s.players[seat].position]
        if t.resource is None:
            return err("no_resource_here", f"nothing to harvest at {t.name}")
        if s.supply[t.resource] <= 0:
            return err("supply_empty", f"the {t.resource} supply is exhausted")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Harvest, ev: Events) -> None:
        p = s.players[seat]
        spend_action(s)
        res = c.territory[p.position].resource
        assert res is not None
        n = c.rules.harvest + fx.mods(c, p)["harvest"]
        got = fx.take_resources(s, p, res, max(1, n))
        ev.append(
            {
                "type": "harvest",
                "seat": seat,
                "resource": res,
                "count": got,
                "territory": p.position,
            }
        )


class Work(Handler[State, Content, K.Work]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Work]:
        yield K.Work()

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Work]:
        return () if fx.mods(c, s.players[seat])["no_work"] else _WORK

    def check(self, s: State, c: Content, seat: int, cmd: K.Work) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        if fx.mods(c, s.players[seat])["no_work"]:
            return err("cannot_work", "a badge forbids you to work")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Work, ev: Events) -> None:
        p = s.players[seat]
        spend_action(s)
        gold = max(0, 1 + fx.mods(c, p)["work"])
        p.gold += gold
        ev.append({"type": "work", "seat": seat, "gold": gold})


class Deliver(Handler[State, Content, K.Deliver]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Deliver]:
        if s.delivery and c.delivery[s.delivery].city == s.players[seat].position:
            yield K.Deliver()

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Deliver]:
        if not s.delivery:
            return ()
        d = c.delivery[s.delivery]
        p = s.players[seat]
        if d.city != p.position or any(p.resources.get(r, 0) < k for r, k in d.resources.items()):
            return ()
        return _DELIVER

    def check(self, s: State, c: Content, seat: int, cmd: K.Deliver) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        if s.delivery is None:
            return err("no_delivery", "every delivery has been made")
        d = c.delivery[s.delivery]
        p = s.players[seat]
        if p.position != d.city:
            return err("wrong_city", f"the delivery goes to {c.territory[d.city].name}")
        if any(p.resources.get(r, 0) < k for r, k in d.resources.items()):
            need = ", ".join(f"{k} {r}" for r, k in d.resources.items())
            return err("cannot_afford", f"the delivery needs {need}")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Deliver, ev: Events) -> None:
        p = s.players[seat]
        assert s.delivery is not None
        d = c.delivery[s.delivery]
        spend_action(s)
        for r, k in d.resources.items():
            p.resources[r] -= k
            s.supply[r] += k
        gold = d.gold + fx.mods(c, p)["delivery_gold"]
        p.gold += gold
        ev.append({"type": "deliver", "seat": seat, "card": d.id, "gold": gold})
        fx.gain_prestige(s, c, p, d.prestige, ev)
        s.delivery = s.decks["deliveries"].pop() if s.decks["deliveries"] else None
        ev.append({"type": "delivery_revealed", "card": s.delivery})


class RecruitPartner(Handler[State, Content, K.RecruitPartner]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.RecruitPartner]:
        for res in s.partners_free:
            yield K.RecruitPartner(cast(Resource, res))

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.RecruitPartner]:
        if not s.partners_free:
            return ()
        p = s.players[seat]
        if p.gold < max(0, c.rules.partner_cost - fx.mods(c, p)["partner_discount"]):
            return ()
        return [intern(K.RecruitPartner, res) for res in s.partners_free]

    def check(self, s: State, c: Content, seat: int, cmd: K.RecruitPartner) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        if cmd.resource not in s.partners_free:
            return err("partner_taken", f"no {cmd.resource} partner is free")
        p = s.players[seat]
        cost = max(0, c.rules.partner_cost - fx.mods(c, p)["partner_discount"])
        if p.gold < cost:
            return err("not_enough_gold", f"a partner costs {cost} gold")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.RecruitPartner, ev: Events) -> None:
        p = s.players[seat]
        spend_action(s)
        cost = max(0, c.rules.partner_cost - fx.mods(c, p)["partner_discount"])
        p.gold -= cost
        s.partners_free.remove(cmd.resource)
        p.partners[cmd.resource] = False
        ev.append({"type": "partner", "seat": seat, "resource": cmd.resource, "gold": cost})


class BuyVilla(Handler[State, Content, K.BuyVilla]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.BuyVilla]:
        v = c.territory[s.players[seat].position].villa
        if v:
            yield K.BuyVilla(v.id)

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.BuyVilla]:
        p = s.players[seat]
        v = c.territory[p.position].villa
        if (
            not v
            or v.id in s.villa_owner
            or c.villas.get(v.id) != p.position
            or p.pawns() >= c.rules.pawns_per_player
            or p.gold < max(0, c.rules.villa_cost - fx.mods(c, p)["villa_discount"])
        ):
            return ()
        return (intern(K.BuyVilla, v.id),)

    def check(self, s: State, c: Content, seat: int, cmd: K.BuyVilla) -> Check:
        refused = turn_check(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        where = c.villas.get(cmd.villa)
        if where is None:
            return err("unknown_villa", f"no villa {cmd.villa!r}")
        if p.position != where:
            return err("not_here", f"that villa stands at {c.territory[where].name}")
        if cmd.villa in s.villa_owner:
            return err("villa_owned", "that villa already belongs to a merchant")
        if p.pawns() >= c.rules.pawns_per_player:
            return err("no_pawns_left", f"all {c.rules.pawns_per_player} of your pawns are placed")
        cost = max(0, c.rules.villa_cost - fx.mods(c, p)["villa_discount"])
        if p.gold < cost:
            return err("not_enough_gold", f"the villa costs {cost} gold")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.BuyVilla, ev: Events) -> None:
        p = s.players[seat]
        spend_action(s)
        cost = max(0, c.rules.villa_cost - fx.mods(c, p)["villa_discount"])
        p.gold -= cost
        p.villas.append(cmd.villa)
        s.villa_owner[cmd.villa] = seat
        ev.append({"type": "villa", "seat": seat, "villa": cmd.villa, "gold": cost})
        fx.gain_prestige(s, c, p, 1, ev)


class PromotePartner(Handler[State, Content, K.PromotePartner]):
    """Ruling R18: each partner may be promoted once, at any time, at no action."""

    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.PromotePartner]:
        for res, promoted in s.players[seat].partners.items():
            if not promoted:
                yield K.PromotePartner(cast(Resource, res))

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.PromotePartner]:
        partners = s.players[seat].partners
        return [intern(K.PromotePartner, r) for r, promoted in partners.items() if not promoted]

    def check(self, s: State, c: Content, seat: int, cmd: K.PromotePartner) -> Check:
        refused = free_check(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.resource not in p.partners:
            return err("not_your_partner", f"you have no {cmd.resource} partner")
        if p.partners[cmd.resource]:
            return err("already_promoted", f"your {cmd.resource} partner is already promoted")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.PromotePartner, ev: Events) -> None:
        s.players[seat].partners[cmd.resource] = True
        ev.append({"type": "promote", "seat": seat, "resource": cmd.resource})
