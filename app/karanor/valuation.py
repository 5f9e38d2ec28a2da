"""What the greedy bot values: distances on the map, and a seat's goals and the worth of
each legal command, counted in gold (`Plan`, computed once per decision)."""

from __future__ import annotations

import functools
import math
from collections import deque
from typing import Any

from . import commands as A
from . import effects as fx
from .common import content_of
from .content import Bundle, Content
from .market import market_prices
from .state import State


@functools.lru_cache(maxsize=8)
def distances(c: Content) -> dict[str, dict[str, int]]:
    """Steps between every pair of territories (sea routes count as one step)."""
    out: dict[str, dict[str, int]] = {}
    for start in c.territory:
        d = {start: 0}
        todo = deque([start])
        while todo:
            u = todo.popleft()
            for v, _sea in c.neighbours[u]:
                if v not in d:
                    d[v] = d[u] + 1
                    todo.append(v)
        out[start] = d
    return out


@functools.lru_cache(maxsize=64)
def travel(c: Content, sea_weight: float) -> dict[str, dict[str, float]]:
    """Cheapest travel between every pair of territories, in steps, a sea crossing
    counting `sea_weight` steps (its step plus its gold)."""
    names = list(c.territory)
    d = {a: dict.fromkeys(names, 99.0) for a in names}
    for a in names:
        d[a][a] = 0.0
        for b, sea in c.neighbours[a]:
            d[a][b] = min(d[a][b], sea_weight if sea else 1.0)
    for k in names:
        dk = d[k]
        for a in names:
            da = d[a]
            via = da[k]
            if via >= 99.0:
                continue
            for b in names:
                if via + dk[b] < da[b]:
                    da[b] = via + dk[b]
    return d


@functools.lru_cache(maxsize=64)
def moves_needed(c: Content, sea_weight: float, steps: int) -> dict[str, dict[str, int]]:
    """Move actions between every pair of territories (see `travel`)."""
    return {
        a: {b: math.ceil(x / steps - 1e-9) for b, x in row.items()}
        for a, row in travel(c, sea_weight).items()
    }


@functools.lru_cache(maxsize=8)
def sea_pairs(c: Content) -> frozenset[tuple[str, str]]:
    return frozenset((*c.map.sea_routes, *((b, a) for a, b in c.map.sea_routes)))


ACT = 2.5  # what one action is worth, in gold
STEP = 1.5  # what one territory of travel costs, in gold (a Move covers 2)
REACT_THRESHOLD = 1.0
TRADE_MARGIN = 0.5  # a trade must gain a bot at least this much, in gold
COUNTER_CHANCE = 0.25
ARTIFACT = 9.0  # the better of two artifact tiles


class Plan:
    """What one seat wants now, computed once per decision.

    The class attributes are the valuation's weights: the greedy bot plays these; the
    hard bot plays a subclass's (`hard.TunedPlan`, fitted by `bench/karanor_tune.py`)."""

    p_base = 7.0  # a prestige point, in gold: p_base + p_slope / rounds left
    p_slope = 10.0
    rev = 0.9  # a revenue step, in gold per round left
    interact = 5.0  # meeting an inhabitant with room for a quest
    build_bonus = 4.0  # building, besides what the business gives
    quest_bonus = 1.0  # completing a quest, besides what it gives
    deliver_bonus = 2.0  # delivering, besides what it gives
    recruit = 0.8  # a partner's token each turn, of the token's worth
    purse = 16.0  # gold is worth less above this purse
    act = ACT  # an action, in gold
    step = STEP  # a territory of travel, in gold
    artifact = ARTIFACT  # an artifact gained

    def __init__(self, s: State, seat: int) -> None:
        c = content_of(s)
        p = s.players[seat]
        self.s, self.c, self.p, self.seat = s, c, p, seat
        self.mods = fx.mods(c, p)
        self.dist = distances(c)
        self.steps = fx.move_steps(c, p)
        self.per_step = self.step * 2 / self.steps
        end = fx.end_prestige(s, c)
        leader = max(q.prestige for q in s.players)
        rate = max(0.7, leader / max(1, s.round - 1)) if s.round > 1 else 0.8
        self.left = max(1.0, min(14.0, (end - leader) / rate))  # rounds left, roughly
        self.prestige = self.p_base + self.p_slope / self.left  # a prestige point, in gold
        # Gold is worth less late in the game, and when there is plenty of it.
        full = max(0.3, min(1.0, self.purse / max(1, p.gold)))
        self.gold = (1.0 if self.left > 1.5 else 0.5) * full
        # What a Move action costs: at least what Working would have paid.
        self.per_move = max(2 * self.step, (1.0 + self.mods["work"]) * self.gold + 0.5)
        sea_weight = 1.0 + fx.sea_cost(c, p) * self.gold / self.per_step
        self.moves = moves_needed(c, round(sea_weight * 4) / 4, self.steps)
        self.quest_room = len(p.quests) < fx.quest_limit(c, p)
        off = self.mods["build_discount"]
        self.reserve = 0  # gold kept for the cheapest business in hand
        if p.pawns() < c.rules.pawns_per_player and p.business_hand:
            self.reserve = min(max(0, c.business_card[b].cost.gold - off) for b in p.business_hand)
        self.goals: dict[str, float] = {}
        self.goals_set = False
        self._potential: dict[str, float] = {}
        self.here = 0.0  # (teleports count as nothing while the goals are being set)
        self.need: dict[str, int] = {}
        self.worth: dict[str, float] = {}
        self.need = self._needs()
        self.goals = self._goals()
        self.goals_set = True
        self.here = self.potential(p.position)

    # --- values ------------------------------------------------------------------

    def token(self, res: str) -> float:
        if self.need.get(res, 0) > 0:
            return self.worth.get(res, 2.0)
        return 1.5 if res == "diamond" else 0.6

    def paid(self, b: Bundle, gold_off: int = 0, *, saving: bool = True) -> float:
        """What paying a bundle costs us (tokens held are worth a little less)."""
        cost = self.spend(max(0, b.gold - gold_off)) if saving else max(0, b.gold - gold_off)
        for r, n in b.resources.items():
            cost += n * (2.0 if r == "diamond" else 1.0)
        return cost

    def spend(self, gold: int) -> float:
        """Gold spent, dearer when it eats into the savings for the next business."""
        below = max(0, min(gold, self.reserve - (self.p.gold - gold)))
        return (gold + 0.8 * below) * self.gold

    def revenue(self, n: int) -> float:
        return n * self.rev * self.left

    def badge(self, b: str) -> float:
        m = self.c.badge[b].passive
        return self.modifiers(m) if b in self.c.badge else 0.0

    def modifiers(self, m: Any) -> float:
        v = 1.2 * m.move * self.left  # a Move goes further: fewer actions on the road
        v -= 1.0 * m.sea_cost
        v -= (1.0 + 0.2 * self.left) if m.no_work else 0.0
        v += 0.15 * m.work * self.left
        v += 0.4 * m.harvest * self.left
        v += self.revenue(m.revenue)
        v += 1.5 * m.build_discount * min(3, len(self.p.business_hand) + 1)
        v += 0.4 * m.villa_discount * max(0, len(self.c.villas) - len(self.s.villa_owner))
        v += 0.3 * m.partner_discount
        v += 2.0 * m.quest_limit
        v += 3.0 if m.protect else 0.0
        v += self.act * m.actions * self.left
        v += 0.5 * m.delivery_gold
        return float(v)

    def rewards(self, rs: Any) -> float:
        v = 0.0
        for r in rs:
            if r.gold is not None:
                v += r.gold * self.gold
            elif r.prestige is not None:
                v += r.prestige * self.prestige
            elif r.revenue is not None:
                v += self.revenue(r.revenue)
            elif r.resources is not None:
                v += sum(n * self.token(res) for res, n in r.resources.items())
            elif r.badge is not None:
                v += self.badge(r.badge) if self.s.badge_supply.get(r.badge, 0) > 0 else 0.0
            elif r.lose_badge is not None:
                v -= self.badge(r.lose_badge) if r.lose_badge in self.p.badges else 0.0
            elif r.artifact is not None:
                v += self.artifact * r.artifact
            elif r.black_market is not None:
                v += 2.5 * r.black_market
            elif r.quest is not None:
                v += (4.0 if self.quest_room else 1.0) * r.quest
            elif r.extra_actions is not None:
                v += self.act * r.extra_actions
            elif r.teleport is not None:
                dest = self.p.home if r.teleport == "home" else r.teleport
                v += self.potential(dest) - self.here
        return v

    def bundle(self, b: dict[str, Any]) -> float:
        """A trade bundle (trades.normalise form), in gold, to this seat."""
        v = b["gold"] * self.gold
        v += sum(n * self.token(r) for r, n in b["resources"].items())
        v += len(b["partners"]) * self.revenue(1) * 0.8
        v += sum(self.badge(k) for k in b["badges"])
        for a in b["artifacts"]:
            art = self.c.artifact[a]
            v += self.modifiers(art.passive) + (3.0 if art.activate else 0.0)
        return float(v)

    # --- wants -------------------------------------------------------------------

    def _needs(self) -> dict[str, int]:
        """Resources missing for the cards in hand and the face-up delivery; and
        `self.worth`, what one missing token is worth: a share of the best card
        it would help to play."""
        c, p = self.c, self.p
        need: dict[str, int] = {}
        worth: dict[str, float] = {}

        def add(resources: dict[str, int], value: float) -> None:
            missing = {r: n - p.resources.get(r, 0) for r, n in resources.items()}
            missing = {r: n for r, n in missing.items() if n > 0}
            share = max(2.0, min(6.0, value / (sum(missing.values()) + 1)))
            for r, n in resources.items():
                need[r] = max(need.get(r, 0), n)
                if r in missing:
                    worth[r] = max(worth.get(r, 0.0), share)

        for q in p.quests:
            quest = c.quest[q]
            for ch in quest.complete:
                if self._blocked(ch.requires):
                    continue
                wanted = dict(ch.cost.resources)
                for cond in ch.requires:
                    if cond.has:
                        for r, n in cond.has.resources.items():
                            wanted[r] = max(wanted.get(r, 0), n)
                add(wanted, self.quest_value(quest, ch, paying=False))
        if p.pawns() < c.rules.pawns_per_player:
            for b in p.business_hand:
                card = c.business_card[b]
                add(dict(card.cost.resources), self.build_value(card, paying=False))
        if self.s.delivery:
            d = c.delivery[self.s.delivery]
            add(dict(d.resources), d.prestige * self.prestige + d.gold)
        self.worth = worth
        return {r: n - p.resources.get(r, 0) for r, n in need.items() if n > p.resources.get(r, 0)}

    def _blocked(self, conds: Any) -> bool:
        """A condition that no walking or harvesting will soon meet."""
        p = self.p
        for cond in conds:
            if cond.badge is not None and cond.badge not in p.badges:
                return True
            if cond.min_businesses is not None and fx.built(p) < cond.min_businesses:
                return True
            if cond.min_villas is not None and len(p.villas) < cond.min_villas:
                return True
            if cond.min_partners is not None and len(p.partners) < cond.min_partners:
                return True
            if cond.min_artifacts is not None and len(p.artifacts) < cond.min_artifacts:
                return True
            if cond.min_prestige is not None and p.prestige < cond.min_prestige:
                return True
            if cond.has is not None and p.gold < cond.has.gold:
                return True
        return False

    def quest_value(self, q: Any, ch: Any, *, paying: bool = True) -> float:
        v = q.prestige * self.prestige + self.rewards(ch.reward)
        if paying:
            v -= self.paid(ch.cost)
        else:
            v -= self.spend(ch.cost.gold)
        if q.sequel:
            v += 0.5 * self.c.quest[q.sequel].prestige * self.prestige
        return float(v)

    def build_value(self, card: Any, *, paying: bool = True) -> float:
        v = self.rewards(card.opening)
        off = self.mods["build_discount"]
        if paying:
            v -= self.paid(card.cost, off, saving=False)
        else:
            v -= max(0, card.cost.gold - off) * self.gold
        return v + 3.0  # and a new business card

    def _goals(self) -> dict[str, float]:
        """Territories worth walking to, with the value of what waits there."""
        s, c, p = self.s, self.c, self.p
        goals: dict[str, float] = {}

        def want(t: str, v: float) -> None:
            if v > goals.get(t, 0.0):
                goals[t] = v

        for q_id in p.quests:
            q = c.quest[q_id]
            for ch in q.complete:
                places = [x.at for x in ch.requires if x.at]
                places += [t for x in ch.requires if x.at_any for t in x.at_any]
                if any(x.in_city for x in ch.requires):
                    places += list(c.cities)
                if not places or self._blocked(ch.requires):
                    continue
                has = [x.has for x in ch.requires if x.has]
                if fx.holds(p, ch.cost) and all(fx.holds(p, h) for h in has):
                    v = self.quest_value(q, ch)
                    for t in places:
                        want(t, v)
        if s.delivery:
            d = c.delivery[s.delivery]
            if all(p.resources.get(r, 0) >= n for r, n in d.resources.items()):
                want(d.city, d.prestige * self.prestige + d.gold + self.mods["delivery_gold"])
        if p.pawns() < c.rules.pawns_per_player:
            off = self.mods["build_discount"]
            ready = [
                self.build_value(c.business_card[b])
                for b in p.business_hand
                if fx.holds(p, c.business_card[b].cost, gold_off=off)
            ]
            if ready:
                for city in c.cities:
                    if not p.has_business_in(city):
                        want(city, max(ready))
            price = max(0, c.rules.villa_cost - self.mods["villa_discount"])
            if p.gold >= price:
                for villa, t in c.villas.items():
                    if villa not in s.villa_owner:
                        want(t, self.villa_value(price))
        if self.quest_room and (s.decks["quests"] or s.discards["quests"]):
            for t in s.inhabitants:
                want(t, 5.0)
        for r, n in self.need.items():
            if s.supply.get(r, 0) <= 0:
                continue
            got = min(n, c.rules.harvest + self.mods["harvest"])
            for t in c.territory.values():
                if t.resource == r:
                    want(t.id, got * self.token(r))
        return goals

    def villa_value(self, price: int) -> float:
        return self.prestige - self.spend(price) + 1.0

    def potential(self, t: str) -> float:
        """The best goal seen from `t`, less the travel to reach it."""
        known = self._potential.get(t)
        if known is not None:
            return known
        d = self.moves[t]
        per_move = self.per_move
        found = max((v - per_move * d[g] for g, v in self.goals.items()), default=0.0)
        if self.goals_set:
            self._potential[t] = found
        return found

    # --- scoring -------------------------------------------------------------------

    def score(self, cmd: A.Command) -> float:  # noqa: C901 - one branch per command type
        s, c, p = self.s, self.c, self.p
        a: Any = cmd
        t = a.type
        if t == "move":
            gold = 0
            if a.path:
                sea, here = sea_pairs(c), p.position
                for step in a.path:
                    if (here, step) in sea:
                        gold += fx.sea_cost(c, p)
                    here = step
            return self.potential(a.to) - self.here - gold * self.gold - 0.2
        if t == "complete_quest":
            q = c.quest[a.card]
            return self.quest_value(q, q.complete[a.option]) + self.quest_bonus
        if t == "deliver":
            d = c.delivery[s.delivery]
            gain = d.prestige * self.prestige + d.gold + self.mods["delivery_gold"]
            paid = sum(n * self.token(r) for r, n in d.resources.items())
            return float(gain - paid + self.deliver_bonus)
        if t == "build":
            card = c.business_card[a.card]
            v = self.build_value(card) + self.build_bonus
            if a.bonus and card.bonus:
                extra = self.rewards(card.bonus.reward) - self.paid(card.bonus.cost)
                spare = p.gold - card.cost.gold - card.bonus.cost.gold
                v += extra - (2.0 if spare < 3 else 0.0)
            return v
        if t == "buy_villa":
            price = max(0, c.rules.villa_cost - self.mods["villa_discount"])
            return self.villa_value(price)
        if t == "interact":
            return self.interact if self.quest_room else -2.0
        if t == "harvest":
            res = c.territory[p.position].resource
            assert res is not None
            n = min(s.supply[res], c.rules.harvest + self.mods["harvest"])
            return n * self.token(res)
        if t == "work":
            return (1.0 + self.mods["work"]) * self.gold
        if t == "recruit_partner":
            res = a.resource
            cost = max(0, c.rules.partner_cost - self.mods["partner_discount"])
            per_turn = max(self.token(res) * self.recruit, 1.0)
            return per_turn * (self.left - 1) - self.spend(cost)
        if t == "promote_partner":
            res = a.resource
            if s.supply.get(res, 0) == 0 or (res not in self.need and self.left < 5):
                return 0.5
            return -1.0
        if t == "market":
            buy = sum(k * self.token(r) for r, k in a.buy)
            sell = sum(k * self.token(r) for r, k in a.sell)
            # A token costs at least 2 and sells for at most 2: skip hopeless visits.
            n_buy, n_sell = sum(k for _, k in a.buy), sum(k for _, k in a.sell)
            if buy - sell + 2 * (n_sell - n_buy) * self.gold < 0.5:
                return -1.0
            assert s.market is not None
            prices = market_prices(
                s.market,
                c.rules.market_max,
                a.buy,
                a.sell,
                c.rules.market_buy,
                c.rules.market_sell,
            )
            if isinstance(prices, str):
                return -9.0
            return float(buy - sell + (prices[1] - prices[0]) * self.gold - 0.5)
        if t == "play_black_market":
            return self.black_market(a)
        if t == "use_artifact":
            art = c.artifact[a.artifact]
            power = art.activate
            assert power is not None
            v = self.rewards(power.reward) - self.paid(power.cost)
            return v  # (one costing an action competes with the other actions)
        if t == "end_turn":
            return 0.0
        if t in ("draft_pick", "pick_business"):
            if a.card == "deck":
                return 2.0
            return self.card_value(c.business_card[a.card])
        if t == "choose_artifact":
            art = c.artifact[a.artifact]
            v = self.modifiers(art.passive)
            if art.activate:
                per = art.activate
                gain = self.rewards(per.reward) - self.paid(per.cost) - self.act * per.action
                v += max(0.0, gain) * (min(4.0, self.left / 2) if per.once_per == "turn" else 1)
            return v
        if t == "quest_choice":
            q = c.quest[a.card]
            ch = q.immediate[a.option]
            return self.rewards(ch.reward) - self.paid(ch.cost)
        if t == "discard_quest":
            return -self.keep_value(a.card)
        return 0.0

    def card_value(self, card: Any) -> float:
        """A business card to keep in hand: what it gives for what it costs."""
        v = self.rewards(card.opening) - 1.2 * card.cost.gold
        v -= sum(n * (3.0 if r == "diamond" else 1.8) for r, n in card.cost.resources.items())
        return float(v)

    def keep_value(self, card: str) -> float:
        q = self.c.quest[card]
        best = -99.0
        for ch in q.complete:
            if self._blocked(ch.requires):
                continue
            missing = sum(
                max(0, n - self.p.resources.get(r, 0)) for r, n in ch.cost.resources.items()
            )
            places = [x.at for x in ch.requires if x.at]
            far = min((self.dist[self.p.position].get(t, 99) for t in places), default=0)
            best = max(best, self.quest_value(q, ch) - 2.0 * missing - far)
        return best

    def black_market(self, a: Any) -> float:
        s, c, p = self.s, self.c, self.p
        card = c.black_market_card[a.card]
        v = self.rewards(card.reward) - self.paid(card.cost)
        if a.target is not None:
            t = s.players[a.target]
            threat = max(0.3, min(1.5, 0.7 + 0.15 * (t.prestige - p.prestige)))
            for h in card.hit:
                if h.steal_gold is not None:
                    n = min(h.steal_gold, t.gold)
                    v += n * self.gold + n * 0.5 * threat
                elif h.lose_gold is not None:
                    v += min(h.lose_gold, t.gold) * 0.7 * threat
                elif h.steal_resource is not None and a.resource:
                    n = min(h.steal_resource, t.resources.get(a.resource, 0))
                    v += n * self.token(a.resource) + n * 0.5 * threat
                elif h.lose_resource is not None and a.resource:
                    v += min(h.lose_resource, t.resources.get(a.resource, 0)) * 1.2 * threat
                elif h.lose_prestige is not None:
                    v += h.lose_prestige * self.prestige * 0.8 * threat
                elif h.lose_actions is not None:
                    v += h.lose_actions * self.act * 1.5 * threat
                elif h.send_home:
                    away = self.dist[t.position].get(t.home, 0)
                    v += min(6.0, away * self.step) * threat
                elif h.give_badge is not None:
                    b = c.badge[h.give_badge].passive
                    harm = 12.0 if b.no_work else 2.0
                    v += harm * threat if s.badge_supply.get(h.give_badge, 0) > 0 else -5.0
        return v
