"""Karanor's searching bot (level "hard") and its easy one, over the kit's search.

The hard bot plays the greedy bot's valuation on its own weights (`TunedPlan`, found by
`bench/karanor_tune.py`: a greedy bot on them wins about 35% of 4-player games against
three on the defaults, an equal share being 25%), and searches where that valuation is
unsure: the close calls, the commands within `CLOSE` gold of its best
(`Search.candidates`). `HardBot.decide` searches them (`app.games.kit.search`): each
world deals the cards the seat cannot see again (other seats' business, quest unless
shared, black-market and draft cards, with the decks they come from; every deck's order;
the RNG), tries a candidate, lets the tuned greedy player finish the seat's turn, and
scores the position by the seat's chance to win (`win_chance`: a conditional logit over
the seats, fitted to the results of greedy games by `bench/karanor_fit.py`). In its last
turn (the end triggered), and in a turn in which it can end the game, it searches its own
commands to the turn's end instead, for the most prestige, then gold, the game's
tie-break (`final_turn`). Trades are
the greedy bot's, on the tuned valuation: it proposes offers it values, and accepts an
offer made to it when the offer gains it something, declines otherwise (never a
counter: it answers on value alone). docs/balance.md has the measurements.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

import orjson

from app.games.base import RuleError
from app.games.kit import marked as _
from app.games.kit import search as ks
from app.games.kit.bots import easy_choice, levels

from . import commands as A
from . import effects as fx
from . import engine, trades
from .bots import BOTS, GreedyBot, _reactions, offer_gain
from .common import content_of
from .state import ACTION, DRAFT, State
from .valuation import TRADE_MARGIN, Plan

HAND = 0.4  # what a card in hand counts for, of what the valuation says it may bring
MARGIN = 0.0  # what a searched choice must gain over the valuation's (ties: the valuation's)
TOP = 6  # candidates kept by the greedy valuation, besides ending the turn
CLOSE = 1.0  # gold: the candidates searched are within this much of the valuation's best
DEFAULT_ITERATIONS = 120  # ~0.3 s a decision on one core of the development machine
HORIZON = "turn"  # where a rollout stops (kit.search.rollout): "turn", "next", "end"
MAX_PLIES = 400
WIN = 50.0  # a won game's worth in the evaluation, in prestige


class TunedPlan(Plan):
    """The valuation's weights the hard bot plays (`bench/karanor_tune.py`: two rounds from
    the defaults at 0.7/1.4 on seed 3, then one at 0.8/1.25 on seed 7; docs/balance.md)."""

    p_base = 7.84
    p_slope = 9.8
    rev = 0.504
    build_bonus = 3.2
    quest_bonus = 1.4
    purse = 17.92
    step = 1.875
    artifact = 11.25


class TunedBot(GreedyBot):
    """The greedy bot on the hard bot's weights: the search's prior and its rollouts."""

    valuation = TunedPlan


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
        """The close calls: the valuation's best and those within `close` gold of it
        (ending the turn among them when it is that close), at most `TOP` and the end."""
        score = TunedPlan(s, seat).score
        values = {id(a): score(a) for a in legal}
        best = max(values.values())
        near = [a for a in legal if values[id(a)] >= best - self.close]
        return ks.best_and_end(near, lambda a: values[id(a)], TOP)

    close = CLOSE

    def policy(self, rng: random.Random) -> ks.Policy:
        return TunedBot(rng.getrandbits(32)).decide

    def rollout_done(self, s: State, seat: int, plies: int) -> bool:
        return s.phase == ACTION and not s.pending and s.turn_seat != seat or plies >= 40

    def evaluate(self, s: State, seat: int) -> float:
        if self.fitted:
            return win_chance(s, seat)
        if s.result is not None:
            won = seat in s.result.get("winners", ())
            best = max(q.prestige for q in s.players if q.seat != seat)
            return (self.win if won else -self.win) + s.players[seat].prestige - best
        mine = worth(s, seat)
        return mine - max(worth(s, q.seat) for q in s.players if q.seat != seat)

    fitted = True  # the evaluation fitted to game results (`win_chance`), not `worth`

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


FEATURES = (
    "prestige", "gold", "tokens", "revenue", "revenue_left", "partners", "badges",
    "artifacts", "here", "quests", "business", "black_market", "order",
)  # fmt: skip


def features(s: State, seat: int) -> list[float]:
    """What the fitted evaluation (`WEIGHTS`, `bench/karanor_fit.py`) reads of `seat`:
    its prestige, what it holds, its revenue (raw and times the rounds left), the best
    goal its position offers and its cards in hand (by its own `valuation.Plan`, in
    gold), and how soon it plays (0 for the seat whose turn begins, up to 1)."""
    plan = Plan(s, seat)
    p = s.players[seat]
    quests, business = hand(plan)
    n = len(s.players)
    return [
        float(p.prestige),
        float(p.gold),
        float(sum(p.resources.values())),
        float(p.revenue),
        p.revenue * plan.left,
        float(len(p.partners)),
        float(len(p.badges)),
        float(len(p.artifacts)),
        plan.here,
        quests,
        business,
        float(len(p.black_market)),
        ((seat - s.turn_seat) % n) / n,
    ]


# `bench/karanor_fit.py 2500 7` (greedy games, 4 players): the conditional logit's
# weights, one per `FEATURES`; held-out log-loss 1.153 against 1.386 for equal chances.
WEIGHTS = (
    0.7943, 0.039, 0.0388, 0.0863, 0.0116, 0.1563, 0.0509,
    0.0773, 0.0639, 0.0084, 0.0417, -0.0599, -0.8157,
)  # fmt: skip


def win_chance(s: State, seat: int) -> float:
    """The chance `seat` wins from `s`, by the fitted evaluation (a won game: 1, shared
    among its winners; a lost one: 0)."""
    if s.result is not None:
        winners = s.result.get("winners", ())
        return 1.0 / len(winners) if seat in winners else 0.0
    z = [
        sum(w * x for w, x in zip(WEIGHTS, features(s, q), strict=True))
        for q in range(len(s.players))
    ]
    top = max(z)
    e = [math.exp(v - top) for v in z]
    return e[seat] / sum(e)


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
    v = held + plan.revenue(p.revenue) + 0.5 * plan.here + HAND * sum(hand(plan))
    return p.prestige + v / plan.prestige


def hand(plan: Plan) -> tuple[float, float]:
    """What the plan's seat's quest cards and business cards in hand may bring, in gold
    (each card at least nothing)."""
    p, c = plan.p, plan.c
    quests = sum(max(0.0, plan.keep_value(q)) for q in p.quests if q in c.quest)
    business = sum(max(0.0, plan.card_value(c.business_card[b])) for b in p.business_hand)
    return quests, business


# The last turn's search: the valuation's best commands tried at each step (by depth: the
# first command, the second...; the last width for the rest), at most FINAL_DEPTH deep.
FINAL_TOP = (4, 3, 3, 2)
FINAL_DEPTH = 8
NEAR = 4  # prestige: from this far from the end, a turn that may reach it is searched so


class _Late(Exception):
    """The last turn's search ran past its deadline."""


def final_turn(
    w: State, seat: int, legal: Sequence[A.Command], deadline: float | None = None
) -> tuple[A.Command, tuple[int, int]] | None:
    """The seat's last turn: once the end is triggered the round ends before the seat
    plays again (rulebook, "End of the Game": play continues until the start of the turn
    of the player who began), and the winner is whoever has the most prestige, then the
    most gold (rule 23). What the seat holds after this turn is worth nothing else: not
    the goods, revenue or position the valuation weighs for later turns. So the seat's own
    commands are searched to the end of its turn in the world `w` (the valuation's best
    `FINAL_TOP` at each step, and ending the turn; a position reached by two orders of the
    same commands searched once), for the line that ends with the most prestige, then
    gold: its first command and that (prestige, gold). None when `deadline`
    (`time.perf_counter`) passes first, or no command is accepted.

    The greedy line (the valuation's best at every step) is among those searched, so the
    line found ends with at least its prestige in `w`."""
    seen: dict[bytes, tuple[int, int]] = {}
    try:
        best, best_key = None, None
        for cmd in _final_candidates(w, seat, legal, 0):
            key = _final_line(w, seat, cmd, 1, deadline, seen)
            if key is not None and (best_key is None or key > best_key):
                best, best_key = cmd, key
    except _Late:
        return None
    return None if best is None or best_key is None else (best, best_key)


def _final_candidates(w: State, seat: int, legal: Sequence[A.Command], ply: int) -> list[A.Command]:
    score = TunedPlan(w, seat).score
    ranked = sorted(legal, key=score, reverse=True)[: FINAL_TOP[min(ply, len(FINAL_TOP) - 1)]]
    ranked += [a for a in legal if a.type == "end_turn" and a not in ranked]
    return ranked


def _final_line(
    w: State,
    seat: int,
    cmd: A.Command,
    ply: int,
    deadline: float | None,
    seen: dict[bytes, tuple[int, int]],
) -> tuple[int, int] | None:
    """The best (prestige, gold) the seat ends its turn with after `cmd`, its `ply`-th
    command of the line (from 1), in `w`; None if the rules refuse `cmd` there. `seen`:
    the positions already searched, by their bytes."""
    if deadline is not None and time.perf_counter() > deadline:
        raise _Late
    x = w.copy()
    try:
        engine.apply(x, seat, cmd)
    except RuleError:
        return None
    p = x.players[seat]
    here = (p.prestige, p.gold)
    if ply >= FINAL_DEPTH or x.result is not None or engine.to_act(x) != [seat]:
        return here
    if x.turn_seat != seat and not (x.pending and x.pending[0]["seat"] == seat):
        return here
    mark = orjson.dumps(x)
    known = seen.get(mark)
    if known is not None:
        return known
    best = None
    for nxt in _final_candidates(x, seat, engine.legal_actions(x, seat), ply):
        key = _final_line(x, seat, nxt, ply + 1, deadline, seen)
        if key is not None and (best is None or key > best):
            best = key
    seen[mark] = found = here if best is None else best
    return found


class HardBot(ks.SearchingBot, TunedBot):
    """Searches its own turn's commands; trades like the greedy bot, answering an offer
    on value alone (never a counter; see the module)."""

    counter_chance = 0.0

    def __init__(self, seed: int = 0, budget: ks.Budget | None = None) -> None:
        super().__init__(seed)
        self.start_search(budget, DEFAULT_ITERATIONS)

    def gain(self, s: State, seat: int, cmd: A.Command) -> float:
        """What `cmd` brings `seat` by the hard bot's valuation, in gold (the coach's line)."""
        return TunedPlan(s, seat).score(cmd)

    def decide(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command:
        if len(actions) == 1:
            return actions[0]
        if s.phase == DRAFT:
            return super().decide(s, seat, actions)
        if s.phase == ACTION:
            wall, cpu = time.perf_counter(), time.process_time()
            last = self.closing(s, seat, actions)
            if last is not None:
                self.times.append(time.perf_counter() - wall)
                self.cpu_times.append(time.process_time() - cpu)
                return last
            spent = (time.perf_counter() - wall, time.process_time() - cpu)
            cmd = self.searched(SEARCH, s, seat, actions)
            # One decision, one figure: a last turn's search that found no line to the
            # end counts with the search that followed it.
            self.times[-1] += spent[0]
            self.cpu_times[-1] += spent[1]
            return cmd  # type: ignore[no-any-return]
        return self.searched(SEARCH, s, seat, actions)  # type: ignore[no-any-return]

    def closing(self, s: State, seat: int, actions: Sequence[A.Command]) -> A.Command | None:
        """The seat's command in its last turn (the end triggered), or in a turn that can
        trigger it (within `NEAR` prestige of the end, and a line of this turn reaches
        it: the round then ends before the seat plays again, so this turn is its last
        too): `final_turn`'s, in one world dealt from what the seat may know, within the
        bot's time budget (past it: the valuation's choice, no other search). None: not
        such a turn."""
        end = fx.end_prestige(s, content_of(s))
        triggered = s.end_triggered_by is not None
        if not triggered and (
            s.pending or s.turn_seat != seat or s.players[seat].prestige < end - NEAR
        ):
            return None
        world = SEARCH.determinise(s, seat, random.Random(self.rng.getrandbits(63)))
        seconds = self.budget.seconds
        start = time.perf_counter()
        found = final_turn(world, seat, actions, None if seconds is None else start + seconds)
        if found is None:  # past the budget (or nothing accepted): no time for more
            return TunedBot.decide(self, s, seat, actions)
        cmd, (prestige, _gold) = found
        return cmd if triggered or prestige >= end else None


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
        amount, loss = tr.decimal(gain), tr.decimal(max(0.0, -gain))
        text = tr.gettext(GOOD_OFFER, gain=amount) if good else tr.gettext(BAD_OFFER, loss=loss)
        out.append({"offer": o["id"], "good": good, "reason": str(text)})
    return out
