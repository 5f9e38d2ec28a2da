"""Positions for the Dark Road rule tests: a game past setup, and ways to arrange a seat."""

from __future__ import annotations

from typing import Any

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import storage as st
from app.darkroad.content import load
from app.darkroad.state import PLAY, State

C = load()


def started(n: int = 2, seed: int = 7, **options: Any) -> State:
    """A game whose setup choices are made (starting goods stored anywhere), seat 0 to plan."""
    s = E.new_game(options, seed, [f"P{i}" for i in range(n)])
    while s.phase != PLAY:
        seat = E.to_act(s)[0]
        acts = E.legal_actions(s, seat)
        auto = [a for a in acts if isinstance(a, A.PlaceGood) and a.area is None]
        E.apply(s, seat, auto[0] if auto else acts[0])
    return s


def act(s: State, seat: int, cmd: dict[str, Any] | A.Command) -> list[dict[str, Any]]:
    return E.apply(s, seat, cmd)


def store_all(s: State) -> None:
    """Answer every pending `store` choice with "anywhere it fits"."""
    while s.pending and s.pending[0]["kind"] == "store":
        E.apply(s, s.pending[0]["seat"], A.PlaceGood())


def clear_goods(s: State, seat: int) -> None:
    p = s.players[seat]
    for q in list(p.pieces):
        E._return_piece(s, p, q)


def give(s: State, seat: int, good: str, up: bool = False) -> int:
    """Put a good into the seat's storage (first fit); returns its piece id."""
    p = s.players[seat]
    where = st.first_fit(C, p, good)
    assert where is not None, f"no room for {good}"
    s.goods_supply[good] -= 1
    pid = p.next_piece
    p.next_piece += 1
    area, x, y, o = where
    p.pieces.append({"id": pid, "good": good, "up": up, "area": area, "x": x, "y": y, "o": o})
    return pid


def at_activate(s: State, seat: int, position: int, illuminated: bool = False) -> None:
    """Put `seat`'s wagon at `position` in the activate step (as after plan and move)."""
    s.turn_seat = seat
    p = s.players[seat]
    p.pool_night = 1
    p.pool_illuminated = 2 if illuminated else None
    p.position = (position - 1) % 5
    s.step = E.MOVE
    E.apply(s, seat, A.Move("night", 0))


def answer_all(s: State, kind: str, cmd: A.Command) -> None:
    while s.pending and s.pending[0]["kind"] == kind:
        E.apply(s, s.pending[0]["seat"], cmd)


def kinds(s: State, seat: int) -> set[str]:
    return {a.type for a in E.legal_actions(s, seat)}
