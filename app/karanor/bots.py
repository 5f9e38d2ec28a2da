"""Players the server can seat: a random bot and a greedy one.

A bot implements `decide(state, seat, actions) -> command`, choosing among the
commands `legal_actions` listed; it never builds a command of its own.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from collections.abc import Sequence
from typing import Any

from . import actions as A
from . import effects as fx
from .content import Bundle, Content
from .engine import content_of
from .state import DRAFT, State


def to_act(s: State) -> list[int]:
    """The seats the game waits for now (several during the simultaneous draft)."""
    if s.phase == "game_over":
        return []
    if s.pending:
        return [s.pending[0]["seat"]]
    if s.phase == DRAFT:
        return [p.seat for p in s.players if not p.draft_done]
    return [s.turn_seat]


class RandomBot:
    """Uniform over command types first, then over commands of that type, so that
    a hundred move destinations don't drown the other actions; ends its turn
    early only now and then."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command:
        by_type: dict[str, list[A.Command]] = {}
        for a in actions:
            by_type.setdefault(a.type, []).append(a)
        kinds = sorted(by_type)
        if "end_turn" in by_type and len(kinds) > 1 and self.rng.random() < 0.8:
            kinds.remove("end_turn")
        return self.rng.choice(by_type[self.rng.choice(kinds)])


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


class GreedyBot:
    """Scores each legal command with a simple valuation and takes the best:
    finish what scores prestige, then walk toward the nearest useful place."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command:
        c = content_of(s)
        p = s.players[seat]
        goals = self._goals(s, c, seat)
        best, best_score = actions[0], float("-inf")
        for a in actions:
            score = self._score(s, c, seat, p, a, goals) + self.rng.random() * 0.5
            if score > best_score:
                best, best_score = a, score
        return best

    # --- what the bot wants -----------------------------------------------------

    def _needs(self, s: State, c: Content, seat: int) -> dict[str, int]:
        """Resources wanted for the quests, businesses and delivery in reach."""
        p = s.players[seat]
        need: dict[str, int] = {}

        def add(b: Bundle) -> None:
            for r, n in b.resources.items():
                need[r] = max(need.get(r, 0), n)

        for q in p.quests:
            for ch in c.quest[q].complete:
                add(ch.cost)
                for cond in ch.requires:
                    if cond.has:
                        add(cond.has)
        for b in p.business_hand:
            add(c.business_card[b].cost)
        if s.delivery:
            for r, n in c.delivery[s.delivery].resources.items():
                need[r] = max(need.get(r, 0), n)
        return {r: n - p.resources.get(r, 0) for r, n in need.items() if n > p.resources.get(r, 0)}

    def _goals(self, s: State, c: Content, seat: int) -> dict[str, float]:
        """Territories worth walking to, with a value."""
        p = s.players[seat]
        goals: dict[str, float] = {}

        def want(t: str, v: float) -> None:
            goals[t] = max(goals.get(t, 0.0), v)

        for q in p.quests:
            for ch in c.quest[q].complete:
                places = [x.at for x in ch.requires if x.at] + [
                    t for x in ch.requires if x.at_any for t in x.at_any
                ]
                if fx.holds(p, ch.cost) and places:
                    for t in places:
                        want(t, 30 + 10 * c.quest[q].prestige)
        if s.delivery:
            d = c.delivery[s.delivery]
            if all(p.resources.get(r, 0) >= n for r, n in d.resources.items()):
                want(d.city, 35)
        affordable = [
            b
            for b in p.business_hand
            if fx.holds(p, c.business_card[b].cost, gold_off=fx.mods(c, p)["build_discount"])
        ]
        if affordable and p.pawns() < c.rules.pawns_per_player:
            for city in c.cities:
                if not p.has_business_in(city):
                    want(city, 32)
        if p.gold >= c.rules.villa_cost:
            for villa, t in c.villas.items():
                if villa not in s.villa_owner:
                    want(t, 26)
        if len(p.quests) < fx.quest_limit(c, p):
            for t in s.inhabitants:
                want(t, 18)
        for r in self._needs(s, c, seat):
            for t in c.territory.values():
                if t.resource == r and s.supply[r] > 0:
                    want(t.id, 16 if r != "diamond" else 12)
        return goals

    def _toward(self, c: Content, here: str, goals: dict[str, float]) -> float:
        dist = distances(c)[here]
        return max((v - 6 * dist.get(t, 99) for t, v in goals.items()), default=0.0)

    # --- scoring ------------------------------------------------------------------

    def _score(
        self, s: State, c: Content, seat: int, p: Any, a: A.Command, goals: dict[str, float]
    ) -> float:
        t = a.type
        if t == "complete_quest":
            return 100 + 20 * c.quest[a.card].prestige  # type: ignore[attr-defined]
        if t == "deliver":
            return 95
        if t == "build":
            card = c.business_card[a.card]  # type: ignore[attr-defined]
            value = 80 + sum(8 * (r.prestige or 0) + 5 * (r.revenue or 0) for r in card.opening)
            if a.bonus:  # type: ignore[attr-defined]
                value += (
                    6 if card.bonus and p.gold - card.cost.gold - card.bonus.cost.gold > 3 else -20
                )
            return value
        if t == "buy_villa":
            return 75
        if t == "interact":
            return 45 if len(p.quests) < fx.quest_limit(c, p) else 5
        if t == "harvest":
            res = c.territory[p.position].resource
            return 40 if res in self._needs(s, c, seat) else 12
        if t == "recruit_partner":
            return 30 if len(p.partners) < 2 and s.round < 10 and p.gold >= 8 else -5
        if t == "promote_partner":
            return 3 if s.supply.get(a.resource, 0) == 0 else -1  # type: ignore[attr-defined]
        if t == "move":
            after = self._toward(c, a.to, goals)  # type: ignore[attr-defined]
            now = self._toward(c, p.position, goals)
            return 20 + (after - now) if after > now else -1
        if t == "work":
            return 8
        if t == "market":
            need = self._needs(s, c, seat)
            buy = sum(k for r, k in a.buy if r in need)  # type: ignore[attr-defined]
            sell = sum(k for r, k in a.sell if r not in need)  # type: ignore[attr-defined]
            return 10 + 8 * buy + 2 * sell if p.gold > 6 or not a.buy else 0  # type: ignore[attr-defined]
        if t == "play_black_market":
            target = a.target  # type: ignore[attr-defined]
            if target is None:
                return 20
            return 15 + 2 * s.players[target].prestige
        if t == "use_artifact":
            return 18
        if t == "end_turn":
            return 0
        if t == "draft_pick":
            card = c.business_card[a.card]  # type: ignore[attr-defined]
            return (
                50
                - card.cost.gold
                - 2 * sum(card.cost.resources.values())
                + 6 * sum((r.prestige or 0) + (r.revenue or 0) for r in card.opening)
            )
        if t == "pick_business":
            if a.card == "deck":  # type: ignore[attr-defined]
                return 30
            card = c.business_card[a.card]  # type: ignore[attr-defined]
            return 50 - card.cost.gold - 2 * sum(card.cost.resources.values())
        if t == "choose_artifact":
            art = c.artifact[a.artifact]  # type: ignore[attr-defined]
            m = art.passive
            return 10 + 5 * m.actions + 3 * m.revenue + 2 * m.move + (4 if art.activate else 0)
        if t == "quest_choice":
            q = c.quest[a.card]  # type: ignore[attr-defined]
            ch = q.immediate[a.option]  # type: ignore[attr-defined]
            bad = sum(1 for r in ch.reward if r.badge and c.badge[r.badge].passive.no_work)
            good = sum(3 for r in ch.reward if r.artifact or r.prestige or r.gold)
            return 10 + good - 8 * bad - ch.cost.gold
        if t == "discard_quest":
            q = c.quest[a.card]  # type: ignore[attr-defined]
            hardest = max(ch.cost.gold + 3 * sum(ch.cost.resources.values()) for ch in q.complete)
            return hardest - 5 * q.prestige
        return 0


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make(kind: str, seed: int = 0) -> RandomBot | GreedyBot:
    return BOTS[kind](seed)


def play(
    s: State,
    players: Sequence[RandomBot | GreedyBot],
    *,
    max_rounds: int = 80,
    on_command: Any = None,
) -> int:
    """Play the game to its end (or `max_rounds`) with one bot per seat; returns commands."""
    from .engine import apply, legal_actions

    n = 0
    while s.phase != "game_over" and s.round <= max_rounds:
        for seat in to_act(s):
            acts = list(legal_actions(s, seat))
            cmd = players[seat].decide(s, seat, acts)
            _, events = apply(s, seat, cmd)
            n += 1
            if on_command is not None:
                on_command(s, seat, cmd, events)
            break
    return n
