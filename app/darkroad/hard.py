"""The Dark Road's searching bot (level "hard") and its easy one, over the kit's search.

`HardBot.decide` searches (`app.games.kit.search`): each world deals again what the seat
cannot see (the other seats' deeds with the deed deck, every deck's order, each
commission stack below its top card, the RNG: the dice to come) and puts an estimate
behind the other seats' screens (their coins, which no one else may count: ruling R28);
it tries a candidate, lets the greedy player play every seat up to the seat's next turn
(horizon "next": the others' replies included), and scores the position by
`bots.worth`, the seat's against the best other seat's. Every command kind is played:
caravans and companions searched like the rest; where a new good goes in storage and whether
to join a caravan by the greedy bot's rules (`GreedyBot._quick`), which
the search's prior alone lost to (measured: docs/balance-darkroad.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.games.kit import search as ks
from app.games.kit.bots import easy_choice, levels

from . import actions as A
from . import engine as E
from .bots import BOTS, GreedyBot, worth
from .state import State

TOP = 3  # candidates kept by the greedy valuation, besides ending the turn
MARGIN = 0.0  # points a searched choice must gain over the greedy one (ties: greedy's)
DEFAULT_ITERATIONS = 24  # 6 worlds of 4 candidates (3+ seats: one reply played each)
TWO_SEATS_ITERATIONS = 48  # 12 worlds at 2 seats: 26 of 40 games against 35 of 60 at 24
DEPTH = 4  # greedy plies after the candidate, at most, before the position is scored
COINS_GUESS = 6  # what another seat is taken to hold behind its screen
HORIZON = "next"  # rollouts run to the seat's next turn (kit.search.rollout)
REPLIES = 1  # at 3+ seats, only the next seat's turn is played before the position is scored
MAX_PLIES = 400


class Search(ks.RulesSearch):
    """The Dark Road's side of `kit.search.SearchGame`."""

    margin = MARGIN

    def determinise(self, s: State, seat: int, rng: random.Random) -> State:
        w = s.copy()
        others = [q for q in w.players if q.seat != seat]
        for q in others:
            q.coins = COINS_GUESS
            q.deeds = list(q.deeds)
        ks.redeal([w.decks["deeds"], *(q.deeds for q in others)], rng)
        for name in sorted(w.decks):
            if name != "deeds":
                ks.redeal([w.decks[name]], rng)
        for town in sorted(w.stacks):
            stack = w.stacks[town]
            if len(stack) > 2:
                stack[1:] = ks.shuffled(stack[1:], rng)
        w.rng = rng.getrandbits(63) | 1
        w.seed = 0
        return w

    def candidates(self, s: State, seat: int, legal: Sequence[A.Command]) -> list[A.Command]:
        scorer = GreedyBot(0)
        return ks.best_and_end(legal, lambda a: scorer._value(s, seat, a), TOP)

    def policy(self, rng: random.Random) -> ks.Policy:
        return GreedyBot(rng.getrandbits(32)).decide

    def rollout_done(self, s: State, seat: int, plies: int) -> bool:
        return s.turn_seat != seat and not s.pending or plies >= DEPTH

    def evaluate(self, s: State, seat: int) -> float:
        mine = worth(s, seat)
        if len(s.players) == 1:
            return mine
        return mine - max(worth(s, q.seat) for q in s.players if q.seat != seat)

    def replies(self, s: State) -> int | None:
        """Other seats' turns a rollout plays: all of them at two seats, `REPLIES` beyond
        (four seats' greedy turns are four times a decision's budget)."""
        return None if len(s.players) <= 2 else REPLIES

    horizon = HORIZON
    max_plies = MAX_PLIES
    rules = E.RULES_LOOP


SEARCH = Search()


class HardBot(ks.SearchingBot, GreedyBot):
    """Searches every decision with more than one choice (see the module)."""

    def __init__(self, seed: int = 0, budget: ks.Budget | None = None) -> None:
        super().__init__(seed)
        self.start_search(budget, DEFAULT_ITERATIONS)

    def designed(self, s: State) -> int:
        """Twice the tries at two seats: a try plays one other seat's turn there, as it
        does at more seats with `REPLIES`, and 48 still decide in 0.16 s at the median."""
        return TWO_SEATS_ITERATIONS if len(s.players) <= 2 else DEFAULT_ITERATIONS

    def decide(self, s: State, seat: int, actions: Sequence[A.Command] | None = None) -> A.Command:
        acts = list(actions) if actions is not None else E.legal_actions(s, seat)
        if len(acts) == 1:
            return acts[0]
        quick = self._quick(s, seat, acts)  # storage's first free place, joining: greedy's rules
        if quick is not None:
            return quick
        return self.searched(SEARCH, s, seat, acts)  # type: ignore[no-any-return]


class EasyBot(GreedyBot):
    """The "easy" level (kit.bots.easy_choice) over the greedy bot."""

    def decide(self, s: State, seat: int, actions: Sequence[A.Command] | None = None) -> A.Command:
        acts = list(actions) if actions is not None else E.legal_actions(s, seat)
        return easy_choice(self.rng, acts, lambda: super(EasyBot, self).decide(s, seat, acts))


LEVELS = levels(BOTS, EasyBot, GreedyBot, HardBot)
