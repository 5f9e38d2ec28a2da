"""Step 3, the five districts: the Great Bazaar, the Queen's Commissions, the Dark
Market, the Ringway Inn and the Ruins of Yin (with the ruins die)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import Any

from .. import actions as A
from ..content import Content
from ..errors import RuleError
from ..state import Player, State
from .core import (
    Check,
    Events,
    Handler,
    OneCommand,
    activation_check,
    err,
    intern,
    pending_choice,
    rules,
    use_target,
)
from .gains import (
    dark_market_gain,
    dark_market_pick_ok,
    dark_market_picks,
    gain_coins,
    gain_commission,
    gain_good,
    gain_lanterns,
    gain_resource,
    has_steed,
    join_hero,
    lantern_slots,
    return_piece,
    rotate,
    ruins_gain,
    ruins_goods,
    ruins_result,
    upgrade_kind,
    value,
)

# --- step 3: the districts ----------------------------------------------------------------------


class Bazaar(OneCommand[A.Bazaar]):
    """The Great Bazaar: opens the visit (rotate, change a die, then buy)."""

    cmd = A.Bazaar

    def check(self, s: State, c: Content, seat: int, cmd: A.Bazaar) -> Check:
        return activation_check(s, seat, "bazaar")

    def do(self, s: State, c: Content, seat: int, cmd: A.Bazaar, ev: Events) -> None:
        use_target(s, c, "bazaar")
        s.pending.insert(0, {"kind": "bazaar", "seat": seat, "rotated": False, "changed": False})
        ev.append({"type": "activated", "seat": seat, "target": "bazaar"})


class BazaarRotate(OneCommand[A.BazaarRotate]):
    """The Great Bazaar: rotate the wheel one space, once per visit."""

    cmd = A.BazaarRotate

    def check(self, s: State, c: Content, seat: int, cmd: A.BazaarRotate) -> Check:
        pend = pending_choice(s, seat, "bazaar")
        if isinstance(pend, RuleError):
            return pend
        if pend["rotated"]:
            return err("already_done", "the wheel was already rotated on this visit")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.BazaarRotate, ev: Events) -> None:
        s.pending[0]["rotated"] = True
        rotate(s)
        ev.append({"type": "wheel_rotated", "seat": seat})


class BazaarChange(Handler[A.BazaarChange]):
    """The Great Bazaar: set one market die to another face (at most 2 per section)."""

    cmd = A.BazaarChange

    def listing(self, s: State, c: Content, seat: int) -> list[A.BazaarChange]:
        if s.pending[0]["changed"]:
            return []
        return [
            intern(A.BazaarChange, src, g)
            for src in c.goods
            if s.market[src]
            for g in c.goods
            if g != src and s.market[g] < 2
        ]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.BazaarChange]:
        for src in c.goods:
            if s.market[src]:
                for g in c.goods:
                    yield intern(A.BazaarChange, src, g)

    def check(self, s: State, c: Content, seat: int, cmd: A.BazaarChange) -> Check:
        pend = pending_choice(s, seat, "bazaar")
        if isinstance(pend, RuleError):
            return pend
        if pend["changed"]:
            return err("already_done", "a market die was already changed on this visit")
        if cmd.source not in s.market or not s.market[cmd.source]:
            return err("no_such_die", f"no market die on the {cmd.source} section")
        if cmd.good not in s.market or cmd.good == cmd.source:
            return err("bad_face", f"{cmd.good!r}: choose another good's face")
        if s.market[cmd.good] >= 2:
            return err("section_full", f"the {cmd.good} section already holds 2 dice")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.BazaarChange, ev: Events) -> None:
        s.pending[0]["changed"] = True
        s.market[cmd.source] -= 1
        s.market[cmd.good] += 1
        ev.append(
            {"type": "market_die_changed", "seat": seat, "from": cmd.source, "good": cmd.good}
        )


def bazaar_cost(s: State, c: Content, p: Player, goods: tuple[str, ...]) -> int:
    """Each section's price counted once (the second good of a section is free);
    Brembizánt takes $2 off, never below zero."""
    cost = sum(value(c, s, g) for g in set(goods))
    if has_steed(c, p, "bazaar_discount"):
        cost = max(0, cost - 2)
    return cost


@functools.lru_cache(maxsize=4096)
def _buy_cmd(goods: tuple[str, ...]) -> A.BazaarBuy:
    return A.BazaarBuy(goods)


_BUYS: dict[tuple[Any, ...], tuple[tuple[A.BazaarBuy, int], ...]] = {}  # by `BazaarBuy.listing`
_BUYS_MAX = 4096  # emptied past this


class BazaarBuy(Handler[A.BazaarBuy]):
    """The Great Bazaar: buy goods, each section's price paid once; ends the visit."""

    cmd = A.BazaarBuy

    def listing(self, s: State, c: Content, seat: int) -> list[A.BazaarBuy]:
        """Every purchase within the budget (from the purchases of these dice at these
        prices, remembered by the dice on the wheel and its rotation)."""
        p = s.players[seat]
        budget = p.coins + (2 if has_steed(c, p, "bazaar_discount") else 0)
        key = (c, s.wheel_rot, *map(s.market.__getitem__, c.goods))
        found = _BUYS.get(key)
        if found is None:
            if len(_BUYS) >= _BUYS_MAX:
                _BUYS.clear()
            found = _BUYS[key] = self._buys(s, c)
        return [cmd for cmd, cost in found if cost <= budget]

    def _buys(self, s: State, c: Content) -> tuple[tuple[A.BazaarBuy, int], ...]:
        """Every purchase of the dice on the wheel with its price (each section's once)."""
        combos: list[tuple[tuple[str, ...], int]] = [((), 0)]
        for g in c.goods:
            k = s.market[g]
            if not k:
                continue
            v = value(c, s, g)
            grown = []
            for goods, cost in combos:
                grown.append((goods, cost))
                grown.append(((*goods, g), cost + v))
                if k == 2:
                    grown.append(((*goods, g, g), cost + v))
            combos = grown
        return tuple((_buy_cmd(goods), cost) for goods, cost in combos)

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.BazaarBuy]:
        avail = [g for g in c.goods for _ in range(s.market[g])]
        seen: set[tuple[str, ...]] = set()
        for k in range(len(avail) + 1):
            for combo in combinations(avail, k):
                if combo not in seen:
                    seen.add(combo)
                    yield intern(A.BazaarBuy, combo)

    def check(self, s: State, c: Content, seat: int, cmd: A.BazaarBuy) -> Check:
        pend = pending_choice(s, seat, "bazaar")
        if isinstance(pend, RuleError):
            return pend
        for g in set(cmd.goods):
            if g not in s.market or cmd.goods.count(g) > s.market[g]:
                return err("not_available", f"not enough {g} dice on the wheel")
        cost = bazaar_cost(s, c, s.players[seat], cmd.goods)
        if cost > s.players[seat].coins:
            return err("cannot_afford", f"{list(cmd.goods)} cost {cost} coins")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.BazaarBuy, ev: Events) -> None:
        s.pending.pop(0)
        p = s.players[seat]
        gain_coins(s, p, -bazaar_cost(s, c, p, cmd.goods), ev, "bazaar")
        for g in cmd.goods:
            s.market[g] -= 1
            s.market_aside += 1
            gain_good(s, c, p, g, False)
        ev.append({"type": "bought", "seat": seat, "goods": list(cmd.goods)})


class TakeCommission(Handler[A.TakeCommission]):
    """The Queen's Commissions: the top commission of a stack of your choice."""

    cmd = A.TakeCommission

    def listing(self, s: State, c: Content, seat: int) -> list[A.TakeCommission]:
        return [intern(A.TakeCommission, t) for t in c.towns if s.stacks[t]]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.TakeCommission]:
        for t in c.towns:
            yield intern(A.TakeCommission, t)

    def check(self, s: State, c: Content, seat: int, cmd: A.TakeCommission) -> Check:
        refused = activation_check(s, seat, "commissions")
        if refused:
            return refused
        if cmd.town not in s.stacks or not s.stacks[cmd.town]:
            return err("empty_stack", f"no commission left for {cmd.town}")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.TakeCommission, ev: Events) -> None:
        use_target(s, c, "commissions")
        gain_commission(s, c, s.players[seat], cmd.town, ev)


class DarkMarket(Handler[A.DarkMarket]):
    """The Dark Market: move the marker 1-4 spaces at a coin each, gain that space."""

    cmd = A.DarkMarket

    def listing(self, s: State, c: Content, seat: int) -> list[A.DarkMarket]:
        coins = s.players[seat].coins
        return [
            intern(A.DarkMarket, k, town, deed)
            for k in range(1, min(4, coins) + 1)
            for town, deed in dark_market_picks(s, c, k)
        ]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DarkMarket]:
        for steps in range(1, 5):
            for town, deed in dark_market_picks(s, c, steps):
                yield intern(A.DarkMarket, steps, town, deed)

    def check(self, s: State, c: Content, seat: int, cmd: A.DarkMarket) -> Check:
        refused = activation_check(s, seat, "dark_market")
        if refused:
            return refused
        if not 1 <= cmd.steps <= 4:
            return err("bad_steps", "move the marker 1 to 4 spaces")
        if cmd.steps > s.players[seat].coins:
            return err("cannot_afford", f"{cmd.steps} spaces cost {cmd.steps} coins")
        if not dark_market_pick_ok(s, c, cmd.steps, (cmd.town, cmd.deed)):
            return err("bad_pick", "that commission or deed is not offered on that space")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DarkMarket, ev: Events) -> None:
        use_target(s, c, "dark_market")
        p = s.players[seat]
        gain_coins(s, p, -cmd.steps, ev, "dark_market")
        dark_market_gain(s, c, p, cmd.steps, (cmd.town, cmd.deed), ev)


def match_requests(
    c: Content, p: Player, requests: tuple[str, ...], pieces: tuple[int, ...]
) -> list[dict[str, Any]] | None:
    """The pieces if each meets a distinct request (one good per request), else None."""
    left = list(requests)
    out = []
    by_id = {q["id"]: q for q in p.pieces}
    if len(set(pieces)) != len(pieces):
        return None
    for i in pieces:
        q = by_id.get(i)
        if q is None or q["good"] not in left:
            return None
        left.remove(q["good"])
        out.append(q)
    return out


def request_candidates(p: Player, requests: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Ways to meet some requests, one per distinct (good, side) choice; remembered by
    the pieces each request may take (the first stored of each side of its good)."""
    opts: list[tuple[int | None, ...]] = []
    for g in requests:
        kinds: dict[bool, int] = {}
        for q in p.pieces:
            if q["good"] == g and q["up"] not in kinds:
                kinds[q["up"]] = q["id"]
        opts.append((None, *kinds.values()))
    key = tuple(opts)
    found = _WAYS.get(key)
    if found is None:
        if len(_WAYS) >= _WAYS_MAX:
            _WAYS.clear()
        found = _WAYS[key] = tuple(_combos(opts))
    return found


_WAYS: dict[tuple[tuple[int | None, ...], ...], tuple[tuple[int, ...], ...]] = {}
_WAYS_MAX = 4096  # emptied past this


def _combos(opts: list[tuple[int | None, ...]]) -> Iterator[tuple[int, ...]]:
    """One piece or none per request, each set of distinct pieces once (sorted ids)."""
    seen: set[tuple[int, ...]] = set()
    for combo in product(*opts):
        ids = tuple(sorted(x for x in combo if x is not None))
        if ids and len(set(ids)) == len(ids) and ids not in seen:
            seen.add(ids)
            yield ids


class Inn(Handler[A.Inn]):
    """The Ringway Inn: sell requested goods to a hero, who joins the wagon."""

    cmd = A.Inn

    def listing(self, s: State, c: Content, seat: int) -> list[A.Inn]:
        p = s.players[seat]
        return [
            intern(A.Inn, i, ids)
            for i, h in enumerate(s.inn)
            if h
            for ids in request_candidates(p, c.hero[h].requests)
        ]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Inn]:
        p = s.players[seat]
        for i, h in enumerate(s.inn):
            if h:
                for ids in request_candidates(p, c.hero[h].requests):
                    yield intern(A.Inn, i, ids)

    def check(self, s: State, c: Content, seat: int, cmd: A.Inn) -> Check:
        refused = activation_check(s, seat, "inn")
        if refused:
            return refused
        if not 0 <= cmd.slot < len(s.inn) or s.inn[cmd.slot] is None:
            return err("no_such_hero", f"no hero in inn slot {cmd.slot}")
        if not cmd.goods:
            return err("sell_one", "sell at least one good")
        h = s.inn[cmd.slot]
        assert h is not None
        if match_requests(c, s.players[seat], c.hero[h].requests, cmd.goods) is None:
            return err("not_requested", f"goods {list(cmd.goods)} do not meet {h}'s requests")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Inn, ev: Events) -> None:
        use_target(s, c, "inn")
        p = s.players[seat]
        h = s.inn[cmd.slot]
        assert h is not None
        sold = match_requests(c, p, c.hero[h].requests, cmd.goods) or []
        earned = 0
        for q in sold:
            earned += value(c, s, q["good"]) + (1 if q["up"] else 0)
            return_piece(s, p, q)
        ups = sum(1 for q in sold if q["up"])
        ev.append({"type": "sold", "seat": seat, "hero": h, "goods": [q["good"] for q in sold]})
        gain_coins(s, p, earned, ev, "inn")
        gain_resource(s, p, "quartz", ups, ev)
        s.inn[cmd.slot] = None
        join_hero(s, c, p, h, ev)


def shortcut_lanterns(s: State, c: Content, p: Player) -> int:
    """The lanterns `p` can spend on a shortcut: those held, plus (rules 2) the one Lovebug
    gives on the visit that leads the caravan, if the supply and the slots allow it."""
    extra = (
        rules(s) >= 2
        and has_steed(c, p, "excursion_lantern")
        and s.supply["lanterns"] > 0
        and p.lanterns < lantern_slots(c, p)
    )
    return p.lanterns + extra


def visit_excursions(s: State, c: Content, p: Player, ev: Events) -> None:
    if has_steed(c, p, "excursion_lantern"):
        gain_lanterns(s, c, p, 1, ev)


def _ruins_refused(s: State, seat: int) -> Check:
    """Why `seat` may not go to the ruins now: the ruins die's "again" if it is pending,
    else an activation of the Excursions."""
    if s.pending and s.pending[0]["kind"] == "ruins_again":
        pend = pending_choice(s, seat, "ruins_again")
        return pend if isinstance(pend, RuleError) else None
    return activation_check(s, seat, "excursions")


_RUINS: dict[tuple[Any, ...], tuple[A.Ruins, ...]] = {}  # `Ruins.listing`'s, by its question


class Ruins(Handler[A.Ruins]):
    """The Ruins of Yin, and the ruins die's "again" (answering a `ruins_again` choice)."""

    cmd = A.Ruins

    def listing(self, s: State, c: Content, seat: int) -> Sequence[A.Ruins]:
        """Every candidate once the seat may go (each passes the rest of `check` by its
        making), remembered by what they read: the pack, the marker, the hero count."""
        if _ruins_refused(s, seat):
            return ()
        key = (c, s.ruins_pos, len(s.players[seat].heroes))
        found = _RUINS.get(key)
        if found is None:
            found = _RUINS[key] = tuple(self.candidates(s, c, seat))
        return found

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Ruins]:
        p = s.players[seat]
        for steps in range(1, 2 + len(p.heroes)):
            for g in ruins_goods(c, s, steps):
                yield intern(A.Ruins, steps, g)

    def check(self, s: State, c: Content, seat: int, cmd: A.Ruins) -> Check:
        refused = _ruins_refused(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        if not 1 <= cmd.steps <= 1 + len(p.heroes):
            return err("bad_steps", f"move the marker 1 to {1 + len(p.heroes)} spaces")
        if cmd.good not in ruins_goods(c, s, cmd.steps):
            return err("bad_good", f"{cmd.good!r} is not offered on that space")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Ruins, ev: Events) -> None:
        p = s.players[seat]
        if s.pending and s.pending[0]["kind"] == "ruins_again":
            s.pending.pop(0)
            ruins_gain(s, c, p, cmd.steps, cmd.good, ev)
            return
        use_target(s, c, "excursions")
        visit_excursions(s, c, p, ev)
        ruins_gain(s, c, p, cmd.steps, cmd.good, ev)
        s.pending.insert(0, {"kind": "ruins_die", "seat": seat})


class RuinsDie(Handler[A.RuinsDie]):
    """Ruins of Yin: return a lantern to roll the ruins die, or not."""

    cmd = A.RuinsDie

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.RuinsDie]:
        yield intern(A.RuinsDie, True)
        yield intern(A.RuinsDie, False)

    def check(self, s: State, c: Content, seat: int, cmd: A.RuinsDie) -> Check:
        pend = pending_choice(s, seat, "ruins_die")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.roll and not p.lanterns and not upgrade_kind(c, p, "lantern"):
            return err("no_lantern", "rolling the ruins die costs a lantern")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.RuinsDie, ev: Events) -> None:
        s.pending.pop(0)
        if not cmd.roll:
            return
        p = s.players[seat]
        if not upgrade_kind(c, p, "lantern"):
            gain_lanterns(s, c, p, -1, ev)
        ruins_result(s, c, p, ev)


class TakeHero(Handler[A.TakeHero]):
    """Ruins die: a face-up hero or the deck top joins without a sale."""

    cmd = A.TakeHero

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.TakeHero]:
        for i in (-1, 0, 1, 2, 3):
            yield intern(A.TakeHero, i)

    def check(self, s: State, c: Content, seat: int, cmd: A.TakeHero) -> Check:
        pend = pending_choice(s, seat, "take_hero")
        if isinstance(pend, RuleError):
            return pend
        if cmd.slot == -1:
            return None if s.decks["heroes"] else err("empty_deck", "the hero deck is empty")
        if not 0 <= cmd.slot < len(s.inn) or s.inn[cmd.slot] is None:
            return err("no_such_hero", f"no hero in inn slot {cmd.slot}")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.TakeHero, ev: Events) -> None:
        s.pending.pop(0)
        if cmd.slot == -1:
            h = s.decks["heroes"].pop(0)
        else:
            inn = s.inn[cmd.slot]
            assert inn is not None
            h = inn
            s.inn[cmd.slot] = None
        assert h is not None
        join_hero(s, c, s.players[seat], h, ev)
