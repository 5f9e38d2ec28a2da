"""Players for the Dark Road: a random bot and a greedy bot that plays to score.

Both take `decide(state, seat, actions=None) -> Command` (the legal actions are listed if
not given). The greedy bot tries each listed command on a copy of the state whose RNG is
re-seeded (it cannot see the real dice before they are rolled) and keeps the command whose
result it values most (`worth`): the final score as it would stand now, plus what its
wagon holds toward more (goods a commission asks for, heroes to deliver, lanterns,
quartz, illuminated dice), and for a move or a plan the best activation it reaches.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence

from app.games import kit

from . import actions as A
from . import engine as E
from . import storage as st
from .state import ACTIVATE, MOVE, OVER, Player, State


class RandomBot(kit.RandomBot):
    """The kit's random player (uniform over command types, then over commands), ending
    its turn early now and then; `decide` lists the legal actions if not given."""

    SKIP_END = 0.85

    def decide(self, s: State, seat: int, actions: Sequence[A.Command] | None = None) -> A.Command:
        if actions is None:
            actions = E.legal_actions(s, seat)
        return kit.bots.pick(actions, _TYPE, self.rng, self.SKIP_END)  # the kit's `decide`


_TYPE = operator.attrgetter("type")


def _rounds_left(s: State) -> int:
    return max(0, E.ROUNDS - s.round)


REGION_VALUE = {"north": (2, 0), "west": (0, 2), "east": (1, 1)}  # (coins, prestige) a hero


def potential(s: State, p: Player, town: str | None = None) -> tuple[float, set[int]]:
    """What the seat's commissions and heroes would bring if delivered now (to `town`, or
    anywhere), in points, and the pieces that commissions would use."""
    c = E.content_of(s)
    used: set[int] = set()
    total = 0.0
    pieces = sorted(st.goods_of(p), key=lambda q: not q["up"])
    for k in p.commissions:
        com = c.commission[k]
        if town is not None and com.town != town:
            continue
        left = list(com.requests)
        n = ups = 0
        for q in pieces:
            if q["id"] not in used and q["good"] in left:
                left.remove(q["good"])
                used.add(q["id"])
                n += 1
                ups += q["up"]
        total += (0, 1, 3, 6)[n] + ups
    for h in p.heroes:
        ht = c.hero_town[c.hero[h].type]
        if town is None or ht == town:
            total += sum(REGION_VALUE[c.town[ht].region])
    return total, used


def worth(s: State, seat: int) -> float:
    """How good the position is for `seat`, in points."""
    c = E.content_of(s)
    p = s.players[seat]
    if s.phase == OVER and s.result:
        sc = s.result["scores"][seat]
        return float(sc["total"]) + 0.01 * float(sc["discarded"])
    sc = E.score(s, c, p)
    late = min(1.0, _rounds_left(s) / 5)
    v = sc["base"] + sc["vp"] + 0.3 * (sc["discarded"] - sc["base"])
    if sc["prestige"] < sc["coins"]:
        v += 0.25 * (sc["prestige"] - sc["base"])
    pot, used = potential(s, p)
    v += 0.65 * pot + 0.9 * late * len(p.commissions)
    for q in st.goods_of(p):
        if q["id"] not in used:
            v += late * (0.6 + 0.25 * E.value(c, s, q["good"]) + (0.8 if q["up"] else 0))
    for g in p.incoming:
        if g["good"] == "upgrade":
            continue
        v += 0.6 + 0.25 * E.value(c, s, g["good"]) + (0.8 if g["up"] else 0)
    v += late * (0.6 * p.lanterns + 0.9 * p.quartz + 0.4 * p.horseshoes)
    v += 0.8 * late * len(p.special)
    v += (
        0.5
        * late
        * sum(1 for x in p.companions for a in c.companion[x["id"]].abilities if a not in x["used"])
    )
    return v


def _district_hint(s: State, p: Player, target: str) -> float:
    """A cheap guess of what activating `target` is worth (for plans and moves)."""
    c = E.content_of(s)
    if target == "bazaar":
        return 1.5 if p.coins >= 3 else 0.3
    if target == "commissions":
        return 1.5 if len(p.commissions) < 3 else 0.2
    if target == "dark_market":
        return 1.2 if p.coins >= 2 else 0.0
    if target == "inn":
        sellable = [q["good"] for q in st.goods_of(p)]
        best = 0
        for h in s.inn:
            if h:
                best = max(best, sum(1 for g in c.hero[h].requests if g in sellable))
        return 1.5 * best
    if target == "excursions":
        reach = max((potential(s, p, t)[0] for t in c.towns), default=0.0)
        return 2.0 + 0.4 * reach
    return 1.5  # a building


class GreedyBot:
    """One-ply search on `worth`, with hints for where a plan or a move leads."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def _try(self, s: State, seat: int, cmd: A.Command) -> State:
        t = s.copy()
        t.rng ^= self.rng.getrandbits(63) | 1
        E.apply(t, seat, cmd)
        return t

    def _reach(self, s: State, seat: int) -> float:
        """After a plan: the best activation hint over the moves the pool allows."""
        p = s.players[seat]
        c = E.content_of(s)
        steps = [v for v in (p.pool_night, p.pool_illuminated) if v is not None]
        if E.has_steed(c, p, "move_three"):
            steps.append(3)
        best = 0.0
        for v in steps:
            pos = (p.position + v) % 5
            ring = c.board.ringway
            hints = [_district_hint(s, p, ring[pos]), _district_hint(s, p, ring[(pos + 1) % 5])]
            best = max(best, sum(hints) + 1.0 if p.pool_illuminated is not None else max(hints))
        return best

    def decide(self, s: State, seat: int, actions: Sequence[A.Command] | None = None) -> A.Command:
        acts = list(actions) if actions is not None else E.legal_actions(s, seat)
        if len(acts) == 1:
            return acts[0]
        quick = self._quick(s, seat, acts)
        if quick is not None:
            return quick
        best: list[A.Command] = []
        best_v = float("-inf")
        for cmd in acts:
            v = self._value(s, seat, cmd)
            if v > best_v + 1e-9:
                best, best_v = [cmd], v
            elif abs(v - best_v) <= 1e-9:
                best.append(cmd)
        return self.rng.choice(best)

    def _quick(self, s: State, seat: int, acts: list[A.Command]) -> A.Command | None:
        """Decisions that need no search."""
        kinds = {a.type for a in acts}
        if "place_good" in kinds:
            return next(a for a in acts if isinstance(a, A.PlaceGood) and a.area is None)
        if kinds == {"join"}:
            c = E.content_of(s)
            t = s.travel
            assert t is not None
            p = s.players[seat]
            gain = max(potential(s, p, x)[0] for x in (t["town"], c.twin(t["town"])))
            return A.Join(gain > 0 or self.rng.random() < 0.3)
        return None

    def _value(self, s: State, seat: int, cmd: A.Command) -> float:
        t = self._try(s, seat, cmd)
        v = worth(t, seat)
        if isinstance(cmd, A.Plan):
            v += self._reach(t, seat)
        elif isinstance(cmd, A.Move):
            v += self._best_activation(t, seat)
        elif isinstance(cmd, A.Caravan):
            v += self._caravan_bonus(t, seat, cmd)
        elif isinstance(cmd, A.Visit) and cmd.town:
            v += 0.4 * potential(t, t.players[seat], cmd.town)[0]
        elif isinstance(cmd, A.EndTurn):
            v += 0.0
        elif t.step == ACTIVATE and t.turn_seat == seat and not t.pending and t.acts:
            v += 0.5  # an activation still open
        if s.step == MOVE and isinstance(cmd, A.UseCompanion):
            v -= 0.2
        return v

    def _best_activation(self, t: State, seat: int) -> float:
        p = t.players[seat]
        hints = sorted((_district_hint(t, p, a) for a in t.acts), reverse=True)
        return sum(hints[: t.acts_left])

    def _caravan_bonus(self, t: State, seat: int, cmd: A.Caravan) -> float:
        pot, _ = potential(t, t.players[seat], cmd.town)
        return 0.4 * pot + (3.0 if cmd.route == "shortcut" else 1.5)


BOTS: dict[str, Callable[[int], RandomBot | GreedyBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make(kind: str, seed: int = 0) -> RandomBot | GreedyBot:
    return kit.make(BOTS, kind, seed)


def decide(s: State, seat: int, kind: str = "greedy", seed: int = 0) -> A.Command:
    """The command a fresh bot of `kind` would send for `seat` now."""
    return make(kind, seed).decide(s, seat)


def play(
    s: State,
    players: Sequence[RandomBot | GreedyBot],
    *,
    max_commands: int = 20000,
    on_command: kit.bots.OnCommand | None = None,
) -> int:
    """Play the game to its end with one bot per seat; returns the commands applied."""
    return kit.play(E.RULES_LOOP, s, players, max_commands=max_commands, on_command=on_command)
