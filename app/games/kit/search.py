"""A searching bot's engine, for any game on the kit: determinised Monte Carlo search.

The seat never reads the true hidden state. Each iteration deals a *world*: a copy of
the state whose hidden parts (others' cards, deck order, future dice) the game has
resampled from what the seat knows (`SearchGame.determinise`, drawing only on the
search's own RNG); one candidate command is tried in that world, the game played on by a
fast policy for every seat up to a cut-off (`rollout_done`), and the result scored by the
game's evaluation (`evaluate`, the seat's standing against the best other seat). Every
candidate is tried in every world (a flat information-set search: the
root's statistics are shared by every world, so the choice cannot depend on one world's
secrets); the command with the best mean wins, if it beats the game's own first choice
by a margin, and (a game's `confidence`, z) if that gain, measured world by world against
the first choice on the same cards and dice, stays above the margin by z standard errors:
a deviation from the prior that only the worlds' noise favours is not taken.

Deterministic for a seed: the candidates, the worlds and the rollouts all draw on
`random.Random(seed)`. `Budget.iterations` is the designed stop; `Budget.seconds` is
only a safety cap (when it stops a search first, the decision depends on the machine's
speed, and `Stats.capped` says so).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.games.base import RuleError

Policy = Callable[[Any, int, Sequence[Any]], Any]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one decision may search: `iterations` tries (worlds times candidates), at
    most `seconds`. No `iterations`: the bot's designed count (`SearchingBot.designed`), so
    that a room's time setting caps a bot that plays as `simulate` measured it."""

    iterations: int | None = None
    seconds: float | None = 1.0


@dataclass(slots=True)
class Stats:
    """What one search did (for `simulate`'s figures and the coach's reason)."""

    iterations: int = 0
    seconds: float = 0.0  # wall clock
    cpu: float = 0.0  # this process's CPU time (steadier on a shared machine)
    capped: bool = False
    means: tuple[float, ...] = ()
    visits: tuple[int, ...] = ()
    base: float = 0.0  # the seat's evaluation before it acts, in the first world


class SearchGame(Protocol):
    """What a game gives the search (its rules, its evaluation, how it hides things)."""

    def determinise(self, s: Any, seat: int, rng: random.Random) -> Any:
        """A copy of `s` whose hidden parts (for `seat`) are drawn from `rng`, consistent
        with what `seat` sees; two states that differ only in what `seat` cannot see
        must give the same copy for the same `rng` state."""
        ...

    def candidates(self, s: Any, seat: int, legal: Sequence[Any]) -> list[Any]:
        """The commands worth searching among `legal` (the game may prune)."""
        ...

    def policy(self, rng: random.Random) -> Policy:
        """The fast player that plays every seat in a rollout."""
        ...

    def rollout_done(self, s: Any, seat: int, plies: int) -> bool:
        """Stop the rollout here (the seat's turn is over, a depth reached...)."""
        ...

    def evaluate(self, s: Any, seat: int) -> float:
        """How good `s` is for `seat` (higher is better)."""
        ...

    def turn_of(self, s: Any) -> int:
        """Whose turn it is (for the horizon "next": the seat's next turn)."""
        ...

    margin: float  # how much better than the prior's choice another must be
    # (optional) confidence: float, z standard errors of the paired gain over the prior

    def copy(self, s: Any) -> Any: ...

    def apply(self, s: Any, seat: int, cmd: Any) -> Any: ...

    def to_act(self, s: Any) -> list[int]: ...

    def legal(self, s: Any, seat: int) -> Sequence[Any]: ...

    def is_over(self, s: Any) -> bool: ...


TRIES_UNSET = 200  # a bare `search` given no count (a bot gives its own: `designed`)
LOST = -1e6  # a candidate the world refuses (it cannot be: the seat's own commands)


def rollout(game: SearchGame, w: Any, seat: int, play: Policy, max_plies: int = 400) -> int:
    """Play `w` on with `play` for every seat until the game's horizon: `rollout_done`
    (horizon "turn", the default), the seat's next turn (`turn_of`, horizon "next") or
    the game's end (horizon "end"), at most `max_plies`; the plies played.

    With horizon "next", a game's `replies(w)` (when it has one) bounds how many other
    seats' turns are played before the seat's next turn: at many seats, the next seat's
    reply may be all a decision can afford to look at."""
    plies = 0
    horizon = getattr(game, "horizon", "turn")
    replies = game.replies(w) if horizon == "next" and hasattr(game, "replies") else None
    last, changes = seat, 0  # the turn seen last, and how often it changed (horizon "next")
    while plies < max_plies and not game.is_over(w):
        if horizon == "next":
            turn = game.turn_of(w)
            if turn != last:
                last, changes = turn, changes + 1
                if turn == seat or (replies is not None and changes > replies):
                    break  # the seat's next turn, or the replies' turns are over
        elif horizon != "end" and game.rollout_done(w, seat, plies):
            break
        actors = game.to_act(w)
        if not actors:
            break
        who = actors[0]
        legal = game.legal(w, who)
        if not legal:
            break
        try:
            game.apply(w, who, play(w, who, legal))
        except RuleError:
            break
        plies += 1
    return plies


def search(
    game: SearchGame, s: Any, seat: int, legal: Sequence[Any], seed: int, budget: Budget
) -> tuple[Any, Stats]:
    """The command the search prefers among `legal` for `seat`, and what it did.

    Worlds are dealt one after the other; in each, every candidate is tried (on its own
    copy, its rollout played by a policy seeded alike), so candidates are compared on
    the same hidden cards and dice (common random numbers: far less noise than one
    world per try). The first candidate is the game's prior choice: another must beat
    its mean by `game.margin` to be preferred."""
    start, cpu_start = time.perf_counter(), time.process_time()
    rng = random.Random(seed)
    first = game.determinise(s, seat, rng)
    cands = game.candidates(first, seat, legal) or list(legal)
    stats = Stats(base=game.evaluate(first, seat))
    k = len(cands)
    if k == 1:
        stats.means, stats.visits = (stats.base,), (0,)
        return cands[0], stats
    totals = [0.0] * k
    diffs: list[list[float]] = [[] for _ in range(k)]  # each world: v_i - v_0 (paired)
    plies_cap = getattr(game, "max_plies", 400)
    worlds = 0
    deadline = None if budget.seconds is None else start + budget.seconds
    tries = budget.iterations if budget.iterations is not None else TRIES_UNSET
    while worlds == 0 or worlds * k < tries:
        if worlds and deadline is not None and time.perf_counter() > deadline:
            stats.capped = True
            break
        world = first if worlds == 0 else game.determinise(s, seat, rng)
        policy_seed = rng.getrandbits(32)
        values = [0.0] * k
        for i, cmd in enumerate(cands):
            w = game.copy(world)
            try:
                game.apply(w, seat, cmd)
                rollout(game, w, seat, game.policy(random.Random(policy_seed)), plies_cap)
                v = game.evaluate(w, seat)
            except RuleError:
                v = LOST
            totals[i] += v
            values[i] = v
        for i in range(k):
            diffs[i].append(values[i] - values[0])
        worlds += 1
    means = tuple(t / worlds for t in totals)
    z = getattr(game, "confidence", 0.0)
    sure = [j for j in range(k) if j == 0 or _lower_bound(diffs[j], z) >= game.margin]
    best = max(sure, key=lambda j: (means[j], -j))
    stats.iterations, stats.means, stats.visits = worlds * k, means, (worlds,) * k
    stats.seconds = time.perf_counter() - start
    stats.cpu = time.process_time() - cpu_start
    return cands[best], stats


def best_and_end(legal: Sequence[Any], score: Callable[[Any], float], top: int) -> list[Any]:
    """A search's candidates: the `top` commands by `score` (ties: the listing's order),
    then ending the turn when it is legal and not among them."""
    values = [score(a) for a in legal]
    ranked = sorted(range(len(legal)), key=lambda i: (-values[i], i))
    keep = [legal[i] for i in ranked[:top]]
    end = next((a for a in legal if a.type == "end_turn"), None)
    if end is not None and end not in keep:
        keep.append(end)
    return keep


class RulesSearch:
    """The rules' side of a `SearchGame` over a kit `Rules` (`rules`): a game's search
    class derives this and writes the rest (worlds, candidates, policy, evaluation)."""

    rules: Any
    margin = 0.0

    @staticmethod
    def turn_of(s: Any) -> int:
        return int(s.turn_seat)

    @staticmethod
    def copy(s: Any) -> Any:
        return s.copy()

    def apply(self, s: Any, seat: int, cmd: Any) -> Any:
        return self.rules.apply(s, seat, cmd)

    def to_act(self, s: Any) -> list[int]:
        return list(self.rules.to_act(s))

    def legal(self, s: Any, seat: int) -> Sequence[Any]:
        return self.rules.legal_actions(s, seat)  # type: ignore[no-any-return]

    def is_over(self, s: Any) -> bool:
        return bool(self.rules.is_over(s))


class SearchingBot:
    """What a searching bot keeps, mixed into a game's bot class (which has `rng`): its
    budget and, for `simulate`'s figures and the coach, what each search did."""

    rng: random.Random

    def start_search(self, budget: Budget | None, default_iterations: int) -> None:
        self.budget = budget or Budget(None, 1.0)
        self.default_iterations = default_iterations
        self.times: list[float] = []  # wall seconds per searched decision
        self.cpu_times: list[float] = []  # CPU seconds per searched decision
        self.last: Stats | None = None

    def gain(self, s: Any, seat: int, cmd: Any) -> float:
        """What the choice `cmd` brings `seat`, for the coach's line: by default, the best
        mean of the last search less the position's evaluation before it (a game's bot
        may say it in its own units instead)."""
        last = self.last
        return max(last.means) - last.base if last is not None and last.means else 0.0

    def designed(self, s: Any) -> int:
        """The tries a decision in `s` makes when the budget names none (a game may make
        it depend on the position, e.g. on the number of seats)."""
        return self.default_iterations

    def searched(self, game: SearchGame, s: Any, seat: int, legal: Sequence[Any]) -> Any:
        """`search` with a seed from the bot's RNG; its figures kept."""
        budget = self.budget
        if budget.iterations is None:
            budget = Budget(self.designed(s), budget.seconds)
        cmd, stats = search(game, s, seat, legal, self.rng.getrandbits(63), budget)
        self.times.append(stats.seconds)
        self.cpu_times.append(stats.cpu)
        self.last = stats
        return cmd


def coach_reason(tr: Any, gain: float, gain_text: str, hold_text: str) -> str:
    """The coach's line on its choice: `gain_text` (with `{gain}`, one decimal) when it
    gains something, else `hold_text`; both in the game's own words, through `tr`."""
    if gain >= 0.05:
        return str(tr.gettext(gain_text, gain=tr.decimal(gain)))
    return str(tr.gettext(hold_text))


def _lower_bound(diffs: Sequence[float], z: float) -> float:
    """The mean of paired differences less `z` standard errors (z = 0: the mean)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if z <= 0 or n < 2:
        return mean if z <= 0 else float("-inf")
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return float(mean - z * math.sqrt(var / n))


def shuffled(cards: Sequence[str], rng: random.Random) -> list[str]:
    """`cards` in an order drawn from `rng` alone: sorted first, so that the order they
    came in (a secret) cannot leak into the result."""
    out = sorted(cards)
    rng.shuffle(out)
    return out


def redeal(piles: list[list[str]], rng: random.Random) -> None:
    """The cards of `piles` (a deck and the hands the seat cannot see) dealt again in
    place, at random, each pile keeping its size."""
    pool = shuffled([c for pile in piles for c in pile], rng)
    at = 0
    for pile in piles:
        n = len(pile)
        pile[:] = pool[at : at + n]
        at += n
