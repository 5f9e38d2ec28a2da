"""The end of a turn: revenue, the next seat's turn, the end of the game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.games.kit import Check, Events, Handler, Outcome

from . import commands as K
from . import effects as fx
from .common import turn_check
from .content import Content
from .state import GAME_OVER, Player, State

_END_TURN = (K.EndTurn(),)


class EndTurn(Handler[State, Content, K.EndTurn]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.EndTurn]:
        yield K.EndTurn()

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.EndTurn]:
        return _END_TURN

    def check(self, s: State, c: Content, seat: int, cmd: K.EndTurn) -> Check:
        return turn_check(s, seat, action=False)

    def do(self, s: State, c: Content, seat: int, cmd: K.EndTurn, ev: Events) -> None:
        _revenue(s, c, s.players[seat], ev)
        nxt = (seat + 1) % s.n
        if nxt == s.start_seat:
            s.prestige_history.append([p.prestige for p in s.players])
            if s.end_triggered_by is not None:
                _finish(s, c, ev)
                return
            s.round += 1
        begin_turn(s, c, nxt, ev)


def _revenue(s: State, c: Content, p: Player, ev: Events) -> None:
    """Revenue phase: the revenue track plus each partner (a resource, or 1 gold once
    promoted). Ruling R5: a partner's resource is lost if the supply is empty."""
    gold = max(0, p.revenue + fx.mods(c, p)["revenue"])
    got: dict[str, int] = {}
    for res, promoted in p.partners.items():
        if promoted:
            gold += 1
        elif fx.take_resources(s, p, res, 1):
            got[res] = 1
    p.gold += gold
    ev.append({"type": "revenue_phase", "seat": p.seat, "gold": gold, "resources": got})


def begin_turn(s: State, c: Content, seat: int, ev: Events) -> None:
    p = s.players[seat]
    s.turn_seat = seat
    s.actions_left = max(
        0, c.rules.actions_per_turn + fx.mods(c, p)["actions"] + p.bonus_actions - p.lost_actions
    )
    p.bonus_actions = p.lost_actions = 0
    s.move_left = 0
    for q in s.players:
        q.powers_used.clear()
    ev.append({"type": "turn", "seat": seat, "round": s.round, "actions": s.actions_left})


def _finish(s: State, c: Content, ev: Events) -> None:
    s.phase = GAME_OVER
    s.pending.clear()
    fx.close_offers(s, "closed", ev)
    o = _outcome(s)
    s.result = {"winners": list(o.winners), "scores": list(o.scores)}
    ev.append({"type": "game_over", "winners": list(o.winners)})


def outcome(s: State) -> Outcome | None:
    """None while the game runs; else the winners (most prestige, then most gold; a
    remaining tie is shared) and every seat's score."""
    if s.phase != GAME_OVER:
        return None
    return _outcome(s)


def _outcome(s: State) -> Outcome:
    scores = tuple({"seat": p.seat, "prestige": p.prestige, "gold": p.gold} for p in s.players)
    best = max((p.prestige, p.gold) for p in s.players)
    winners = tuple(p.seat for p in s.players if (p.prestige, p.gold) == best)
    return Outcome(winners, scores)
