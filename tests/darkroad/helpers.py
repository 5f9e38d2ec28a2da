"""Positions for the Dark Road rule tests: a game past setup, and ways to arrange a seat."""

from __future__ import annotations

from typing import Any

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.content import load
from app.darkroad.state import State

C = load()


def started(n: int = 2, seed: int = 7, **options: Any) -> State:
    """A game whose setup choices are made (starting goods stored anywhere), seat 0 to plan."""
    return scenario.started(n, seed, **options)


def act(s: State, seat: int, cmd: dict[str, Any] | A.Command) -> list[dict[str, Any]]:
    return E.apply(s, seat, cmd)


def store_all(s: State) -> None:
    """Answer every pending `store` choice with "anywhere it fits"."""
    while s.pending and s.pending[0]["kind"] == "store":
        E.apply(s, s.pending[0]["seat"], A.PlaceGood())


clear_goods = scenario.clear_goods
give = scenario.give_good


def at_activate(s: State, seat: int, position: int, illuminated: bool = False) -> None:
    """Put `seat`'s wagon at `position` in the activate step (as after plan and move)."""
    scenario.at_activate(s, seat, position, 2 if illuminated else None)


def settle(s: State) -> None:
    """Answer every pending choice the plainest way: store anywhere, pass, decline."""
    plain = (A.PlaceGood(), A.DoneDelivering(), A.BazaarBuy(), A.RuinsDie(False), A.Join(False))
    while s.pending and s.phase != "game_over":
        seat = s.pending[0]["seat"]
        legal = E.legal_actions(s, seat)
        E.apply(s, seat, next((a for a in plain if a in legal), legal[0]))


def finish_turn(s: State, seat: int) -> None:
    """End `seat`'s turn in the activate step, first activating one district if the rules
    ask for one (ruling R36): the Bazaar with nothing bought if it is open, else the first
    activation listed, its choices answered by `settle`."""
    legal = E.legal_actions(s, seat)
    if A.EndTurn() not in legal:
        order = ("bazaar", "take_commission", "ruins", "caravan", "inn", "dark_market", "building")
        first = min((a for a in legal if a.type in order), key=lambda a: order.index(a.type))
        E.apply(s, seat, first)
        settle(s)
    E.apply(s, seat, A.EndTurn())


def answer_all(s: State, kind: str, cmd: A.Command) -> None:
    while s.pending and s.pending[0]["kind"] == kind:
        E.apply(s, s.pending[0]["seat"], cmd)


def kinds(s: State, seat: int) -> set[str]:
    return {a.type for a in E.legal_actions(s, seat)}
