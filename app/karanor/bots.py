"""Players the server can seat: a random bot and a greedy one.

A bot implements `decide(state, seat, actions) -> command`, choosing among the
commands `legal_actions` listed. Trades are free-form: the greedy bot also
`answer`s offers made to it and `propose`s offers for what it needs. What the greedy
bot values is in `valuation`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from app.games import kit
from app.games.kit import RandomBot, pick

from . import commands as A
from . import trades
from .common import content_of
from .content import Content
from .engine import RULES
from .state import ACTION, GAME_OVER, State
from .valuation import COUNTER_CHANCE, REACT_THRESHOLD, TRADE_MARGIN, Plan

__all__ = ["BOTS", "GreedyBot", "RandomBot", "make", "pick", "play"]


class GreedyBot:
    """Scores each legal command with a simple valuation and takes the best.

    Everything is counted in gold: a prestige point is worth what it costs to buy
    (about a villa's price, more as the end nears), a revenue step is worth the
    turns left, a resource token more when a card in hand asks for it. The map is
    a landscape of goals (a quest ready to hand in, a city to build in, a villa,
    an inhabitant, a resource site for what is missing); a Move scores the value
    it gains on that landscape. What the valuation needs is computed once per
    decision (`valuation.Plan`), not once per candidate.
    """

    counter_chance = COUNTER_CHANCE  # how often a declined offer made to it by name is countered
    valuation: type[Plan] = Plan  # its weights (the hard bot's are tuned)

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command:
        plan = self.valuation(s, seat)
        best, best_score = actions[0], float("-inf")
        for a in actions:
            score = plan.score(a) + self.rng.random() * 0.3
            if score > best_score:
                best, best_score = a, score
        return best

    def react(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command | None:
        """Off-turn: play a black-market card or an artifact power if it is worth it."""
        free = [a for a in actions if a.type in ("play_black_market", "use_artifact")]
        if not free:
            return None
        plan = self.valuation(s, seat)
        best = max(free, key=plan.score)
        return best if plan.score(best) > REACT_THRESHOLD else None

    # --- trading ------------------------------------------------------------------

    def answer(self, s: State, seat: int) -> A.Command | None:
        """Reply to the oldest open offer addressed to this seat and not yet answered:
        accept when it improves its position by its valuation, otherwise decline, and
        now and then counter with a price it would take."""
        if trades.closed_reason(s) is not None:
            return None
        p = s.players[seat]
        for o in trades.open_to(s, seat):
            if seat in o["declined_by"]:
                continue
            gain = offer_gain(self.valuation(s, seat), o)
            if gain > TRADE_MARGIN and trades.holds(p, o["want"]):
                return A.Accept(o["id"])
            short = math.ceil(TRADE_MARGIN - gain + 1)
            offerer = s.players[o["from"]]
            # The counter: the offer turned round, `short` gold better for this seat, with
            # no gold on both sides (R29: it would trade only the difference): an offer
            # asking for gold is countered with less of it, one giving gold with more.
            give = {k: v for k, v in o["want"].items() if v}
            want = {k: v for k, v in o["give"].items() if v}
            net = give.pop("gold", 0) - want.pop("gold", 0) - short
            if net > 0:
                give["gold"] = net
            elif net < 0:
                want["gold"] = -net
            if (
                o["to"] is not None and self.counter_chance
                and self.rng.random() < self.counter_chance
                and trades.holds(p, o["want"]) and offerer.gold >= want.get("gold", 0)
            ):  # fmt: skip
                return A.Counter(o["id"], give=give, want=want, note="A little more?")
            return A.Decline(o["id"])
        return None

    def propose(self, s: State, seat: int) -> A.Command | None:
        """Ask for a token it needs from a merchant who holds one, paying what the
        token is worth to it; at most one open offer of its own at a time."""
        if trades.closed_reason(s) is not None:
            return None
        if any(o["from"] == seat and o["status"] in trades.LIVE for o in s.offers):
            return None
        plan = self.valuation(s, seat)
        p = s.players[seat]
        for res in sorted(plan.need, key=lambda r: -plan.token(r)):
            holders = [q.seat for q in s.players if q.seat != seat and q.resources.get(res, 0)]
            price = min(p.gold, max(1, math.floor(plan.token(res) / max(plan.gold, 0.1))))
            if holders and price >= 1 and p.gold - price >= plan.reserve // 2:
                target = self.rng.choice(holders)
                return A.Offer(give={"gold": price}, want={"resources": {res: 1}}, to=(target,))
        return None


def offer_gain(plan: Plan, offer: dict[str, Any]) -> float:
    """What accepting `offer` gains the plan's seat, in gold, by its valuation (what it
    gets less what it gives)."""
    return plan.bundle(offer["give"]) - plan.bundle(offer["want"])


BOTS: dict[str, Callable[[int], RandomBot | GreedyBot]] = {
    "greedy": GreedyBot,
    "random": RandomBot,
}


def make(kind: str, seed: int = 0) -> RandomBot | GreedyBot:
    return kit.make(BOTS, kind, seed)


def play(
    s: State,
    players: Sequence[RandomBot | GreedyBot],
    *,
    max_rounds: int = 80,
    on_command: kit.bots.OnCommand | None = None,
) -> int:
    """Play the game to its end (or `max_rounds`) with one bot per seat; returns commands.

    After each command, a bot that can `react` (GreedyBot) may play a black-market
    card or an artifact power out of turn, as a player at the table would."""
    reacting = any(hasattr(b, "react") for b in players)  # RandomBot never reacts
    return kit.play(
        RULES, s, players, max_commands=1_000_000,
        over=lambda s: s.phase == GAME_OVER or s.round > max_rounds,
        on_command=on_command, after=_reactions if reacting else None,
    )  # fmt: skip


def _reactions(s: State, players: Sequence[Any], on_command: kit.bots.OnCommand | None) -> int:
    """Off-turn plays: each other seat holding something playable may use it once."""
    if s.phase != ACTION or s.pending:
        return 0
    c = content_of(s)
    n = 0
    for q in s.players:
        if q.seat == s.turn_seat or s.phase != ACTION or s.pending:
            continue
        react = getattr(players[q.seat], "react", None)
        if react is None or not _may_react(c, q):
            continue
        acts = [a for a in RULES.legal_actions(s, q.seat) if a.type != "promote_partner"]
        cmd = react(s, q.seat, acts) if acts else None
        if cmd is None:
            continue
        events = RULES.apply(s, q.seat, cmd)
        n += 1
        if on_command is not None:
            on_command(s, q.seat, cmd, events)
    return n


def _may_react(c: Content, q: Any) -> bool:
    if any(c.black_market_card[b].when != "own_turn" for b in q.black_market):
        return True
    return any(
        (power := c.artifact[a].activate) is not None and not power.action for a in q.artifacts
    )
