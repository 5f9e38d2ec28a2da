"""The ten buildings, activated with an illuminated die: one table entry each.

Each entry says which fields of the `building` command it reads, lists the ways it can
be used (`ways`), says why a way cannot be used now (`why_not`) and does it (`do`). A
field the building does not read is refused (`bad_command`), so "Icebreaker Harbor,
paying coins" is an error, not a free good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from .. import actions as A
from .. import storage as st
from ..content import Content
from ..state import Player, State
from .core import Check, Events, Handler, activation_check, err, use_target
from .gains import (
    cheap_goods,
    gain_coins,
    gain_commission,
    gain_good,
    gain_lanterns,
    gain_prestige,
    gain_resource,
    join_hero,
    oracle,
    return_piece,
)

Ways = Callable[[State, Content, Player, str], Iterator[A.Building]]  # (..., building)
Why = Callable[[State, Content, Player, A.Building], str | None]
Do = Callable[[State, Content, Player, A.Building, Events], None]
MANSION_ITEMS = ("lantern", "quartz", "coins")
OPTIONAL = tuple(f.name for f in fields(A.Building) if f.name != "building")


@dataclass(frozen=True, slots=True)
class Entry:
    reads: frozenset[str]
    ways: Ways
    why_not: Why
    do: Do


def cheap_pieces(c: Content, s: State, p: Player) -> list[dict[str, Any]]:
    """The basic stored goods worth $1 now (the Candle & Quartz Co.'s payment)."""
    cheap = cheap_goods(c, s)
    return [q for q in st.goods_of(p) if not q["up"] and q["good"] in cheap]


def piece_of(p: Player, piece: int | None) -> dict[str, Any] | None:
    """The stored good with id `piece` (never the storage upgrade tile)."""
    if piece is None:
        return None
    return next((q for q in p.pieces if q["id"] == piece and q["good"] != "upgrade"), None)


def _pay_two_coins_or_piece(s: State, p: Player, cmd: A.Building, ev: Events) -> None:
    if cmd.pay == "coins":
        gain_coins(s, p, -2, ev, cmd.building)
    else:
        q = piece_of(p, cmd.piece)
        assert q is not None
        return_piece(s, p, q)


def _coins_or_piece_ok(p: Player, cmd: A.Building, pieces: list[dict[str, Any]]) -> str | None:
    """2 coins (`pay` coins, no piece) or one of `pieces` (`piece`, no pay)."""
    if cmd.pay == "coins" and cmd.piece is None:
        return None if p.coins >= 2 else "needs 2 coins"
    if cmd.pay is None and any(q["id"] == cmd.piece for q in pieces):
        return None
    return "pay 2 coins or a good"


def _good(cmd: A.Building) -> str:
    assert cmd.good is not None
    return cmd.good


# --- the entries --------------------------------------------------------------------------------


def _nothing(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    yield A.Building(b)


def _always(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    return None


def _quartz_mine(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    gain_resource(s, p, "quartz", 1, ev)


def _oracle(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    oracle(s, c, p, ev)


def _surveyor_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    yield A.Building(b, pay="coins")
    yield A.Building(b, pay="quartz")


def _surveyor_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    if cmd.pay == "coins":
        return None if p.coins >= 2 else "needs 2 coins"
    if cmd.pay == "quartz":
        return None if p.quartz >= 1 else "needs a blazing quartz"
    return "pay coins or quartz"


def _surveyor(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    if cmd.pay == "coins":
        gain_coins(s, p, -2, ev, cmd.building)
    else:
        gain_resource(s, p, "quartz", -1, ev)
    gain_prestige(s, p, 3, ev)


def _harbor_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    for g in c.goods:
        yield A.Building(b, good=g)


def _harbor_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    return None if cmd.good in c.goods and not s.market[_good(cmd)] else "a good not on the wheel"


def _gain_the_good(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    gain_good(s, c, p, _good(cmd), False)


def _guildhall_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    cheap = cheap_goods(c, s)
    for pay in ("coins", "lantern"):
        for g in c.goods:
            for g2 in cheap:
                yield A.Building(b, pay=pay, good=g, good2=g2)


def _guildhall_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    if cmd.pay == "coins" and p.coins < 2 or cmd.pay == "lantern" and p.lanterns < 1:
        return "cannot pay"
    if cmd.pay not in ("coins", "lantern"):
        return "pay coins or lantern"
    ok = cmd.good in c.goods and cmd.good2 in cheap_goods(c, s)
    return None if ok else "a good and a $1 good"


def _guildhall(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    if cmd.pay == "coins":
        gain_coins(s, p, -2, ev, cmd.building)
    else:
        gain_lanterns(s, c, p, -1, ev)
    assert cmd.good2 is not None
    gain_good(s, c, p, _good(cmd), False)
    gain_good(s, c, p, cmd.good2, False)


def _candle_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    pays: list[dict[str, Any]] = [{"pay": "coins"}]
    pays += [{"piece": q["id"]} for q in cheap_pieces(c, s, p)]
    picks: list[dict[str, Any]] = [{"hero": i} for i in range(4)]
    picks += [{"town": t} for t in c.towns]
    for pay in pays:
        for pick in picks:
            yield A.Building(b, **pay, **pick)


def _candle_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    why = _coins_or_piece_ok(p, cmd, cheap_pieces(c, s, p))
    if why:
        return "pay 2 coins or a basic $1 good" if why.startswith("pay") else why
    if (cmd.hero is None) == (cmd.town is None):
        return "pick a hero (inn slot) or a commission (town)"
    if cmd.hero is not None:
        return None if 0 <= cmd.hero < len(s.inn) and s.inn[cmd.hero] else "no such hero"
    return None if s.stacks.get(cmd.town or "") else "no such commission"


def _candle(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    _pay_two_coins_or_piece(s, p, cmd, ev)
    if cmd.hero is not None:
        h = s.inn[cmd.hero]
        s.inn[cmd.hero] = None
        assert h is not None
        join_hero(s, c, p, h, ev)
    else:
        assert cmd.town is not None
        gain_commission(s, c, p, cmd.town, ev)


def _lanternworks_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    for g in cheap_goods(c, s):
        yield A.Building(b, good=g)


def _cheap_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    return None if cmd.good in cheap_goods(c, s) else "a good worth $1"


def _lanternworks(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    gain_good(s, c, p, _good(cmd), False)
    gain_lanterns(s, c, p, 1, ev)
    gain_prestige(s, p, 1, ev)


def _mansion_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    yield A.Building(b)
    for give in MANSION_ITEMS:
        for get in MANSION_ITEMS:
            if give != get:
                yield A.Building(b, gives=(give,), gets=(get,))


def _mansion_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    """Ruling R38: any number of one-for-one trades, in order (`gives[i]` for `gets[i]`)."""
    gives, gets = cmd.gives or (), cmd.gets or ()
    trades = list(zip(gives, gets, strict=False))
    if len(gives) != len(gets) or len(trades) > 8:
        return "trade lantern, quartz or coins for another, one for one"
    if any(a not in MANSION_ITEMS or b not in MANSION_ITEMS or a == b for a, b in trades):
        return "trade lantern, quartz or coins for another, one for one"
    have = {"lantern": p.lanterns, "quartz": p.quartz, "coins": p.coins // 2}
    for give, get in trades:
        if have[give] < 1:
            return f"no {give} left to trade"
        have[give] -= 1
        have[get] += 1
    return None


def _mansion(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    for give, get in zip(cmd.gives or (), cmd.gets or (), strict=True):
        for item, sign in ((give, -1), (get, 1)):
            if item == "lantern":
                gain_lanterns(s, c, p, sign, ev)
            elif item == "quartz":
                gain_resource(s, p, "quartz", sign, ev)
            else:
                gain_coins(s, p, 2 * sign, ev, cmd.building)


def _workshop_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    for q in st.goods_of(p):
        if not q["up"]:
            yield A.Building(b, piece=q["id"])
    yield A.Building(b)


def _workshop_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    if cmd.piece is None:
        return None
    q = piece_of(p, cmd.piece)
    return None if q and not q["up"] else "a basic good in your storage"


def _workshop(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    q = piece_of(p, cmd.piece)
    if q is not None:
        q["up"] = True
        ev.append({"type": "upgraded", "seat": p.seat, "good": q["good"]})
    gain_lanterns(s, c, p, 1, ev)


def _filigree_ways(s: State, c: Content, p: Player, b: str) -> Iterator[A.Building]:
    pays: list[dict[str, Any]] = [{"pay": "coins"}]
    pays += [{"piece": q["id"]} for q in st.goods_of(p)]
    for pay in pays:
        for g in cheap_goods(c, s):
            yield A.Building(b, good=g, **pay)


def _filigree_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    return _coins_or_piece_ok(p, cmd, st.goods_of(p)) or _cheap_ok(s, c, p, cmd)


def _filigree(s: State, c: Content, p: Player, cmd: A.Building, ev: Events) -> None:
    _pay_two_coins_or_piece(s, p, cmd, ev)
    gain_good(s, c, p, _good(cmd), True)


def _entry(reads: str, ways: Ways, why_not: Why, do: Do) -> Entry:
    return Entry(frozenset(reads.split()), ways, why_not, do)


BUILDINGS: dict[str, Entry] = {
    "quartz_mine": _entry("", _nothing, _always, _quartz_mine),
    "oracle": _entry("", _nothing, _always, _oracle),
    "surveyor": _entry("pay", _surveyor_ways, _surveyor_ok, _surveyor),
    "icebreaker_harbor": _entry("good", _harbor_ways, _harbor_ok, _gain_the_good),
    "guildhall": _entry("pay good good2", _guildhall_ways, _guildhall_ok, _guildhall),
    "candle_quartz": _entry("pay piece hero town", _candle_ways, _candle_ok, _candle),
    "lanternworks": _entry("good", _lanternworks_ways, _cheap_ok, _lanternworks),
    "mansion": _entry("gives gets", _mansion_ways, _mansion_ok, _mansion),
    "workshop": _entry("piece", _workshop_ways, _workshop_ok, _workshop),
    "filigree": _entry("pay piece good", _filigree_ways, _filigree_ok, _filigree),
}


def unread(cmd: A.Building, reads: frozenset[str]) -> list[str]:
    """The fields `cmd` sets that its building does not read."""
    return [f for f in OPTIONAL if f not in reads and getattr(cmd, f) is not None]


class BuildingH(Handler[A.Building]):
    """The connected building (any building with Longshadow), with an illuminated die."""

    cmd = A.Building

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Building]:
        p = s.players[seat]
        for b in s.acts:
            entry = BUILDINGS.get(b)
            if entry is not None:
                yield from entry.ways(s, c, p, b)

    def check(self, s: State, c: Content, seat: int, cmd: A.Building) -> Check:
        entry = BUILDINGS.get(cmd.building)
        if entry is None:
            return err("not_a_building", f"{cmd.building!r} is not a building")
        extra = unread(cmd, entry.reads)
        if extra:
            return err("bad_command", f"{cmd.building} does not read {', '.join(extra)}")
        refused = activation_check(s, seat, cmd.building)
        if refused:
            return refused
        why = entry.why_not(s, c, s.players[seat], cmd)
        return err("bad_choice", f"{cmd.building}: {why}") if why else None

    def do(self, s: State, c: Content, seat: int, cmd: A.Building, ev: Events) -> None:
        use_target(s, c, cmd.building)
        ev.append({"type": "activated", "seat": seat, "target": cmd.building})
        BUILDINGS[cmd.building].do(s, c, s.players[seat], cmd, ev)
