"""Karanor's searching bot (level "hard") and its easy one, over the kit's search.

`HardBot.decide` searches (`app.games.kit.search`): each world deals the cards the seat
cannot see again (other seats' business, quest unless shared, black-market and draft
cards, with the decks they come from; every deck's order; the RNG), tries a candidate,
lets the greedy player finish the seat's turn, and scores the position: the seat's worth
(prestige, gold, revenue, tokens, badges, artifacts, partners, what its position offers,
by its own `valuation.Plan`, in prestige points) less the best other seat's. Trades are
the greedy bot's, on the same valuation: it proposes offers it values, and accepts an
offer made to it when the offer gains it something, declines otherwise (never a
counter: it answers on value alone).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.games.kit import marked as _
from app.games.kit import search as ks
from app.games.kit.bots import easy_choice, levels

from . import commands as A
from . import engine, trades
from .bots import BOTS, GreedyBot, _reactions, offer_gain
from .state import ACTION, DRAFT, State
from .valuation import TRADE_MARGIN, Plan

HAND = 0.4  # what a card in hand counts for, of what the valuation says it may bring
MARGIN = 0.25  # prestige points a searched choice must gain over the greedy one
TOP = 6  # candidates kept by the greedy valuation, besides ending the turn
DEFAULT_ITERATIONS = 120  # ~0.3 s a decision on one core of the development machine
HORIZON = "turn"  # where a rollout stops (kit.search.rollout): "turn", "next", "end"
MAX_PLIES = 400
WIN = 50.0  # a won game's worth in the evaluation, in prestige


class Search(ks.RulesSearch):
    """Karanor's side of `kit.search.SearchGame`."""

    def determinise(self, s: State, seat: int, rng: random.Random) -> State:
        w = s.copy()
        others = [q for q in w.players if q.seat != seat]
        ks.redeal([w.decks["business"], *(q.business_hand for q in others)], rng)
        ks.redeal([w.decks["business"], *(q.draft_hand for q in others)], rng)
        if not w.options.get("public_quests"):
            ks.redeal([w.decks["quests"], *(q.quests for q in others)], rng)
        ks.redeal([w.decks["black_market"], *(q.black_market for q in others)], rng)
        for name in ("artifacts", "deliveries"):
            ks.redeal([w.decks[name]], rng)
        w.rng = rng.getrandbits(64)
        w.seed = 0
        return w

    def candidates(self, s: State, seat: int, legal: Sequence[A.Command]) -> list[A.Command]:
        return ks.best_and_end(legal, Plan(s, seat).score, TOP)

    def policy(self, rng: random.Random) -> ks.Policy:
        return GreedyBot(rng.getrandbits(32)).decide

    def rollout_done(self, s: State, seat: int, plies: int) -> bool:
        return s.phase == ACTION and not s.pending and s.turn_seat != seat or plies >= 40

    def evaluate(self, s: State, seat: int) -> float:
        if s.result is not None:
            won = seat in s.result.get("winners", ())
            best = max(q.prestige for q in s.players if q.seat != seat)
            return (self.win if won else -self.win) + s.players[seat].prestige - best
        mine = worth(s, seat)
        return mine - max(worth(s, q.seat) for q in s.players if q.seat != seat)

    margin = MARGIN
    win = WIN

    horizon = HORIZON
    max_plies = MAX_PLIES
    rules = engine.RULES

    reactions = False  # rollouts let the other seats react off-turn, as `bots.play` does

    def apply(self, s: State, seat: int, cmd: A.Command) -> Any:
        events = engine.apply(s, seat, cmd)
        if self.reactions:
            _reactions(s, [REACTOR] * len(s.players), None)
        return events

    @staticmethod
    def is_over(s: State) -> bool:
        return s.result is not None


SEARCH = Search()
REACTOR = GreedyBot(0)  # its react draws on no RNG


def worth(s: State, seat: int) -> float:
    """What `seat` holds, in prestige points, by its own valuation."""
    plan = Plan(s, seat)
    p = s.players[seat]
    held = plan.bundle(
        {
            "gold": p.gold,
            "resources": p.resources,
            "partners": list(p.partners),
            "badges": p.badges,
            "artifacts": p.artifacts,
        }
    )
    v = held + plan.revenue(p.revenue) + 0.5 * plan.here
    c = plan.c
    v += HAND * sum(max(0.0, plan.keep_value(q)) for q in p.quests if q in c.quest)
    v += HAND * sum(max(0.0, plan.card_value(c.business_card[b])) for b in p.business_hand)
    return p.prestige + v / plan.prestige


class HardBot(ks.SearchingBot, GreedyBot):
    """Searches its own turn's commands; trades like the greedy bot, answering an offer
    on value alone (never a counter; see the module)."""

    counter_chance = 0.0

    def __init__(self, seed: int = 0, budget: ks.Budget | None = None) -> None:
        super().__init__(seed)
        self.start_search(budget, DEFAULT_ITERATIONS)

    def decide(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command:
        if len(actions) == 1:
            return actions[0]
        if s.phase == DRAFT:
            return super().decide(s, seat, actions)
        return self.searched(SEARCH, s, seat, actions)  # type: ignore[no-any-return]


class EasyBot(GreedyBot):
    """The "easy" level (kit.bots.easy_choice) over the greedy bot."""

    def decide(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command:
        return easy_choice(self.rng, actions, lambda: super(EasyBot, self).decide(s, seat, actions))


LEVELS = levels(BOTS, EasyBot, GreedyBot, HardBot)


GOOD_OFFER = _("Good for you: you get about {gain} gold more than you give, by your plans.")
BAD_OFFER = _("Not good for you: you give about {loss} gold more than you get, by your plans.")


def coach_offers(s: State, seat: int, tr: Any) -> list[dict[str, Any]]:
    """Whether each open offer `seat` may accept is good for it (the hard bot's answer)."""
    out = []
    p = s.players[seat]
    for o in trades.open_to(s, seat):
        if not trades.holds(p, o["want"]):
            continue
        gain = offer_gain(Plan(s, seat), o)
        good = gain > TRADE_MARGIN
        amount, loss = f"{gain:.1f}", f"{max(0.0, -gain):.1f}"
        text = tr.gettext(GOOD_OFFER, gain=amount) if good else tr.gettext(BAD_OFFER, loss=loss)
        out.append({"offer": o["id"], "good": good, "reason": str(text)})
    return out
