"""Companions' abilities (loyal: a quartz once each; stray: its gift, then passed on): one
table entry per ability.

Each entry says which fields of `use_companion` it reads, lists the ways it can be used
(`ways`), says why a way cannot be taken now (`why_not`) and does it (`do`); a field the
ability does not read is refused (`bad_command`). The gift (quartz, horseshoe, potion or
a hero) is the card's, checked and given by `UseCompanion` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any

from .. import actions as A
from ..content import Content
from ..state import PLAY, Player, State
from .caravans import give_gift
from .core import Check, Events, Handler, err
from .gains import (
    DEED_PICKS,
    dark_market_gain,
    dark_market_picks,
    deed_pick_ok,
    deliver_hero,
    gain_commission,
    gain_deed,
    gain_good,
    gain_illuminated,
    gain_lanterns,
    gain_resource,
    gain_upgrade,
    join_hero,
    lose_hero,
    oracle,
    return_piece,
    ruins_gain,
    ruins_goods,
    ruins_result,
    upgrade_ok,
)

Use = A.UseCompanion
Ways = Callable[[State, Content, Player, str, str], Iterator[Use]]  # (..., companion, ability)
Why = Callable[[State, Content, Player, Use], str | None]
Do = Callable[[State, Content, Player, Use, Events], None]
CHOICES = tuple(f.name for f in fields(A.UseCompanion) if f.name not in ("companion", "ability"))
AT_THE_TRAVEL_DIE = ("twin_travel_die", "travel_boost")  # used by `take_travel_die`


@dataclass(frozen=True, slots=True)
class Ability:
    reads: frozenset[str]
    ways: Ways
    why_not: Why
    do: Do


_USES: dict[tuple[Any, ...], Use] = {}  # one command per value: listings build none


def _use(
    cid: str,
    a: str,
    hero: str | None = None,
    town: str | None = None,
    slot: int | None = None,
    good: str | None = None,
    deed: int | None = None,
    upgrade: str | None = None,
    dark_market: bool | None = None,
    gift: str | None = None,
) -> Use:
    """`Use(cid, a, ...)`, interned (companions, abilities and their choices are the
    content's: the table stays small)."""
    key = (cid, a, hero, town, slot, good, deed, upgrade, dark_market, gift)
    cmd = _USES.get(key)
    if cmd is None:
        cmd = _USES[key] = Use(*key)
    return cmd


def _once(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    yield _use(cid, a)


def _fine(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None


def _str(value: str | None) -> str:
    assert value is not None
    return value


def _heroes(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for h in p.heroes:
        yield _use(cid, a, hero=h)


def _own_hero(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if cmd.hero in p.heroes else "a hero on your wagon"


def _towns(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for t in c.towns:
        yield _use(cid, a, town=t)


def _stack(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if s.stacks.get(cmd.town or "") else "that stack is empty"


def _slots(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for i in range(4):
        yield _use(cid, a, slot=i)


def _inn_hero(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    ok = cmd.slot is not None and 0 <= cmd.slot < len(s.inn) and s.inn[cmd.slot]
    return None if ok else "no hero in that slot"


def _take_hero(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    assert cmd.slot is not None
    h = s.inn[cmd.slot]
    s.inn[cmd.slot] = None
    assert h is not None
    join_hero(s, c, p, h, ev)


def _goods_off_wheel(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for g in c.goods:
        if not s.market[g]:
            yield _use(cid, a, good=g)


def _off_wheel(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    ok = cmd.good in c.goods and not s.market[_str(cmd.good)]
    return None if ok else "a good not on the wheel"


def _goods(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for g in c.goods:
        yield _use(cid, a, good=g)


def _a_good(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if cmd.good in c.goods else "a basic good"


def _gain_the_good(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    gain_good(s, c, p, _str(cmd.good), False)


def _ruins_goods(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for g in ruins_goods(c, s, 1):
        yield _use(cid, a, good=g)


def _ruins_good(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if cmd.good in ruins_goods(c, s, 1) else "not offered on the next space"


def _deeds(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    for d in DEED_PICKS:
        yield _use(cid, a, deed=d)


def _deed_ok(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if deed_pick_ok(s, cmd.deed) else "that deed is not available"


def _take_deed(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    assert cmd.deed is not None
    gain_deed(s, c, p, cmd.deed, ev)


def _craft_ok(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if p.locked[0] is not None else "locked slot 1 is empty"


def _craft_upgraded(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    die = p.locked[0]
    assert die is not None
    gain_good(s, c, p, c.board.crafting[die], True)


def _free_shortcut_ok(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    return None if not p.free_shortcut else "already free this turn"


def _free_shortcut(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    p.free_shortcut = True


def _cosimo_ways(s: State, c: Content, p: Player, cid: str, a: str) -> Iterator[Use]:
    """Cosimo: an upgrade, or the dark market's next space (with its pick), for a hero."""
    for h in p.heroes:
        for u in s.upgrades_track:
            yield _use(cid, a, upgrade=u, gift=h)
        for town, deed in dark_market_picks(s, c, 1):
            yield _use(cid, a, dark_market=True, town=town, deed=deed, gift=h)


def _cosimo_ok(s: State, c: Content, p: Player, cmd: Use) -> str | None:
    if cmd.upgrade is not None:
        if cmd.dark_market or cmd.town is not None or cmd.deed is not None:
            return "an upgrade or the dark market, not both"
        return None if upgrade_ok(s, c, p, cmd.upgrade) else "that upgrade cannot be taken"
    if not cmd.dark_market:
        return "pick an upgrade or the dark market"
    if (cmd.town, cmd.deed) not in dark_market_picks(s, c, 1):
        return "that commission or deed is not on the next space"
    return None


def _cosimo(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    if cmd.upgrade is not None:
        gain_upgrade(s, c, p, cmd.upgrade, ev)
    else:
        dark_market_gain(s, c, p, 1, (cmd.town, cmd.deed), ev)


def _ability(reads: str, ways: Ways, why_not: Why, do: Do) -> Ability:
    return Ability(frozenset(reads.split()), ways, why_not, do)


ABILITIES: dict[str, Ability] = {
    "deliver_hero": _ability(
        "hero", _heroes, _own_hero, lambda s, c, p, u, ev: deliver_hero(s, c, p, _str(u.hero), ev)
    ),
    "gain_commission": _ability(
        "town", _towns, _stack, lambda s, c, p, u, ev: gain_commission(s, c, p, _str(u.town), ev)
    ),
    "two_lanterns": _ability(
        "", _once, _fine, lambda s, c, p, u, ev: gain_lanterns(s, c, p, 2, ev)
    ),
    "illuminated_die": _ability(
        "", _once, _fine, lambda s, c, p, u, ev: gain_illuminated(s, c, p, ev)
    ),
    "gain_hero": _ability("slot", _slots, _inn_hero, _take_hero),
    "harbor_good": _ability("good", _goods_off_wheel, _off_wheel, _gain_the_good),
    "basic_good": _ability("good", _goods, _a_good, _gain_the_good),
    "ruins_step": _ability(
        "good",
        _ruins_goods,
        _ruins_good,
        lambda s, c, p, u, ev: ruins_gain(s, c, p, 1, _str(u.good), ev),
    ),
    "oracle": _ability("", _once, _fine, lambda s, c, p, u, ev: oracle(s, c, p, ev)),
    "craft_upgraded": _ability("", _once, _craft_ok, _craft_upgraded),
    "deed": _ability("deed", _deeds, _deed_ok, _take_deed),
    "free_shortcut": _ability("", _once, _free_shortcut_ok, _free_shortcut),
    "upgrade_or_dark_market": _ability(
        "upgrade dark_market town deed gift", _cosimo_ways, _cosimo_ok, _cosimo
    ),
    "ruins_die": _ability("", _once, _fine, lambda s, c, p, u, ev: ruins_result(s, c, p, ev)),
}


def gift_ok(p: Player, gift: str, hero: str | None) -> str | None:
    """Why the companion's gift cannot be given, or None."""
    if gift == "quartz" and p.quartz < 1:
        return "the gift is a blazing quartz"
    if gift == "horseshoe" and p.horseshoes < 1:
        return "the gift is a horseshoe"
    if gift == "potion" and not any(q["good"] == "potion" for q in p.pieces):
        return "the gift is a potion"
    if gift == "hero" and hero not in p.heroes:
        return "the gift is a hero on your wagon"
    return None


def unread(cmd: Use, reads: frozenset[str]) -> list[str]:
    """The choices `cmd` sets that its ability does not read."""
    return [f for f in CHOICES if f not in reads and getattr(cmd, f) is not None]


def _why_not(s: State, c: Content, p: Player, cmd: Use) -> tuple[str, str] | None:
    """(code, reason) refusing this use of a companion, or None."""
    held = next((x for x in p.companions if x["id"] == cmd.companion), None)
    if held is None:
        return "bad_companion", f"{cmd.companion} is not your companion"
    card = c.companion[cmd.companion]
    if cmd.ability not in card.abilities:
        return "bad_companion", f"{card.name} has no ability {cmd.ability!r}"
    if cmd.ability in AT_THE_TRAVEL_DIE:
        return "bad_companion", "this ability is used as you take a travel die"
    extra = unread(cmd, ABILITIES[cmd.ability].reads)
    if extra:
        return "bad_command", f"{cmd.ability} does not read {', '.join(extra)}"
    if cmd.ability in held["used"]:
        return "bad_companion", f"{cmd.ability} was already used"
    why = gift_ok(p, card.gift, cmd.gift) or ABILITIES[cmd.ability].why_not(s, c, p, cmd)
    return ("bad_companion", why) if why else None


def _give(s: State, c: Content, p: Player, cmd: Use, ev: Events) -> None:
    """The gift: a loyal card keeps the quartz on the ability; a stray's goes back (a hero
    under the deck) and the card passes to the left (ruling R20: alone, under the deck)."""
    held = next(x for x in p.companions if x["id"] == cmd.companion)
    card = c.companion[cmd.companion]
    if card.kind == "loyal":
        give_gift(s, p, held, cmd.ability, ev)
        return
    ev.append({"type": "stray", "seat": p.seat, "companion": card.id, "ability": cmd.ability})
    if card.gift == "quartz":
        gain_resource(s, p, "quartz", -1, ev)
    elif card.gift == "horseshoe":
        gain_resource(s, p, "horseshoes", -1, ev)
    elif card.gift == "potion":
        pots = sorted((q for q in p.pieces if q["good"] == "potion"), key=lambda q: q["up"])
        return_piece(s, p, pots[0])
    else:
        lose_hero(s, c, p, _str(cmd.gift))
        s.decks["heroes"].append(_str(cmd.gift))
    p.companions.remove(held)
    if s.n > 1:
        s.players[(p.seat + 1) % s.n].companions.append({"id": card.id, "used": []})
    else:
        s.decks["companions"].append(card.id)


# The ways that read the content alone (never the state or the player): each
# companion's are made once per pack.
FIXED_WAYS = frozenset({_once, _towns, _slots, _goods, _deeds})
# A companion's abilities listed on your turn, each with its table entry and, if they
# read the content alone, its ways: made once per pack and companion.
Listed = tuple[tuple[str, Ability, tuple[Use, ...] | None], ...]
_LISTED: dict[tuple[Any, ...], Listed] = {}


def _listed(s: State, c: Content, p: Player, cid: str) -> Listed:
    key = (c, cid)
    found = _LISTED.get(key)
    if found is None:
        found = _LISTED[key] = tuple(
            (a, ABILITIES[a], _fixed(s, c, p, cid, a))
            for a in c.companion[cid].abilities
            if a not in AT_THE_TRAVEL_DIE
        )
    return found


def _fixed(s: State, c: Content, p: Player, cid: str, a: str) -> tuple[Use, ...] | None:
    entry = ABILITIES[a]
    return tuple(entry.ways(s, c, p, cid, a)) if entry.ways in FIXED_WAYS else None


class UseCompanion(Handler[A.UseCompanion]):
    """A companion's ability on your own turn (ruling R20: between actions)."""

    cmd = A.UseCompanion

    def listing(self, s: State, c: Content, seat: int) -> list[A.UseCompanion]:
        """The ways of each unused ability whose gift can be given and that `why_not`
        lets through (a way sets only its ability's fields: nothing unread)."""
        if seat != s.turn_seat or s.pending or s.travel or s.phase != PLAY:
            return []
        p = s.players[seat]
        out: list[A.UseCompanion] = []
        for x in p.companions:
            cid = x["id"]
            gift = c.companion[cid].gift
            # Only a hero gift reads the way (which hero): any other is tested once.
            per_way = gift == "hero"
            if not per_way and gift_ok(p, gift, None):
                continue
            used = x["used"]
            for a, entry, fixed in _listed(s, c, p, cid):
                if a in used:
                    continue
                ways = entry.ways(s, c, p, cid, a) if fixed is None else fixed
                why_not = entry.why_not
                if why_not is _fine and not per_way:
                    out += ways
                    continue
                for way in ways:
                    if not (per_way and gift_ok(p, gift, way.gift)) and not why_not(s, c, p, way):
                        out.append(way)
        return out

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.UseCompanion]:
        p = s.players[seat]
        for x in p.companions:
            for a in c.companion[x["id"]].abilities:
                if a in x["used"] or a in AT_THE_TRAVEL_DIE:
                    continue
                yield from ABILITIES[a].ways(s, c, p, x["id"], a)

    def check(self, s: State, c: Content, seat: int, cmd: A.UseCompanion) -> Check:
        if s.phase != PLAY:
            return err("wrong_phase", "companions act during the game's turns")
        if seat != s.turn_seat:
            return err("not_your_turn", "companions act only on your own turn")
        if s.pending or s.travel:
            return err("pending_choice", "finish the choice in progress first")
        why = _why_not(s, c, s.players[seat], cmd)
        return err(*why) if why else None

    def do(self, s: State, c: Content, seat: int, cmd: A.UseCompanion, ev: Events) -> None:
        p = s.players[seat]
        _give(s, c, p, cmd, ev)
        ABILITIES[cmd.ability].do(s, c, p, cmd, ev)
