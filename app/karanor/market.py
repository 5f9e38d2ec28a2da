"""The two-player market: buy 1-2, sell 1-2, or buy 1 and sell 1 (rulebook, Market)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import cast

from app.games.kit import Check, Events, Handler, err

from . import commands as K
from .common import spend_action, turn_check
from .content import Content, Resource
from .state import State


def market_prices(
    market: dict[str, int],
    maximum: int,
    buy: K.Pairs,
    sell: K.Pairs,
    price_buy: int,
    price_sell: int,
) -> tuple[int, int] | str:
    """(gold paid, gold earned) for a market visit, or why it is refused.

    The first token bought from a full pile costs 2; the first sold to an empty
    pile earns 2 (rulebook, Market, "Price variance")."""
    pay = earn = 0
    for res, k in buy:
        pile = market.get(res)
        if pile is None:
            return f"the market does not trade {res}"
        if pile < k:
            return f"the market holds {pile} {res}"
        for i in range(k):
            pay += 2 if (i == 0 and pile == maximum) else price_buy
    for res, k in sell:
        pile = market.get(res)
        if pile is None:
            return f"the market does not trade {res}"
        if pile + k > maximum:
            return f"the market holds at most {maximum} {res}"
        for i in range(k):
            earn += 2 if (i == 0 and pile == 0) else price_sell
    return pay, earn


def _market_visits(c: Content, traded: tuple[Resource, ...]) -> tuple[K.Market, ...]:
    """Every well-formed visit to a market trading `traded`: buy 1-2, sell 1-2, or buy 1
    and sell 1 of another resource. Built once; listings only price them."""
    memo = c.memo.setdefault("market_visits", {})
    found = memo.get(traded)
    if found is None:
        singles: list[tuple[tuple[Resource, int], ...]] = [((r, 1),) for r in traded]
        doubles: list[tuple[tuple[Resource, int], ...]] = [((r, 2),) for r in traded] + [
            ((a, 1), (b, 1)) for a, b in itertools.combinations(traded, 2)
        ]
        found = memo[traded] = (
            *(K.Market(buy=b) for b in singles + doubles),
            *(K.Market(sell=sl) for sl in singles + doubles),
            *(
                K.Market(buy=b, sell=sl)
                for b, sl in itertools.product(singles, singles)
                if b[0][0] != sl[0][0]
            ),
        )
    return found


def _traded(market: dict[str, int]) -> tuple[Resource, ...]:
    return cast(tuple[Resource, ...], tuple(market))


class Market(Handler[State, Content, K.Market]):
    """Two players only: buy 1-2, sell 1-2, or buy 1 and sell 1 (rulebook, Market)."""

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Market]:
        if s.market is None:
            return ()
        p = s.players[seat]
        r = c.rules
        out = []
        for cmd in _market_visits(c, _traded(s.market)):
            prices = market_prices(
                s.market, r.market_max, cmd.buy, cmd.sell, r.market_buy, r.market_sell
            )
            if (
                not isinstance(prices, str)
                and all(p.resources.get(res, 0) >= k for res, k in cmd.sell)
                and p.gold + prices[1] >= prices[0]
            ):
                out.append(cmd)
        return out

    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Market]:
        if s.market is not None:
            yield from _market_visits(c, _traded(s.market))

    def check(self, s: State, c: Content, seat: int, cmd: K.Market) -> Check:
        if s.market is None:
            return err("no_market", "the market is used only in two-player games with the option")
        refused = turn_check(s, seat)
        if refused:
            return refused
        nb, ns = sum(k for _, k in cmd.buy), sum(k for _, k in cmd.sell)
        if (nb, ns) not in ((1, 0), (2, 0), (0, 1), (0, 2), (1, 1)):
            return err("bad_market", "buy 1 or 2, sell 1 or 2, or buy 1 and sell 1")
        if nb and ns and cmd.buy[0][0] == cmd.sell[0][0]:
            return err("bad_market", "buying and selling the same resource in one visit")
        prices = market_prices(
            s.market, c.rules.market_max, cmd.buy, cmd.sell, c.rules.market_buy, c.rules.market_sell
        )
        if isinstance(prices, str):
            return err("bad_market", prices)
        p = s.players[seat]
        if any(p.resources.get(r, 0) < k for r, k in cmd.sell):
            return err("cannot_afford", "you do not hold what you want to sell")
        if p.gold + prices[1] < prices[0]:
            return err("not_enough_gold", f"buying costs {prices[0]} gold")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Market, ev: Events) -> None:
        p = s.players[seat]
        assert s.market is not None
        prices = market_prices(
            s.market,
            c.rules.market_max,
            cmd.buy,
            cmd.sell,
            c.rules.market_buy,
            c.rules.market_sell,
        )
        assert not isinstance(prices, str)
        pay, earn = prices
        spend_action(s)
        for r, k in cmd.sell:
            p.resources[r] -= k
            s.market[r] += k
        for r, k in cmd.buy:
            p.resources[r] = p.resources.get(r, 0) + k
            s.market[r] -= k
        p.gold += earn - pay
        ev.append(
            {
                "type": "market",
                "seat": seat,
                "buy": dict(cmd.buy),
                "sell": dict(cmd.sell),
                "paid": pay,
                "earned": earn,
            }
        )
