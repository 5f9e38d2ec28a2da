"""The market wheel and every gain and cost: coins, prestige, lanterns, quartz,
horseshoes, illuminated dice, goods, heroes, commissions, deeds, upgrades, the dark market,
the ruins, deliveries."""

from __future__ import annotations

from typing import Any

from .. import storage as st
from ..content import Content, Effect
from ..state import Player, State
from .core import (
    COMMISSION_SLOTS,
    HERO_SLOTS,
    INVENTORY_SLOTS,
    LANTERN_SLOTS,
    MAX_ILLUMINATED,
    Events,
    draw_deed,
    roll,
    rules,
)

# --- the market wheel ----------------------------------------------------------------------


def good_at(c: Content, s: State, pos: int) -> str:
    """The good whose section sits at wheel position `pos` (0 is the $5 position)."""
    return c.goods[(pos - s.wheel_rot) % 6]


def value(c: Content, s: State, good: str) -> int:
    """A good's current value on the market wheel (ruling R10)."""
    return c.board.wheel_values[(c.good_index[good] + s.wheel_rot) % 6]


def good_valued(c: Content, s: State, v: int) -> str:
    return next(g for g in c.goods if value(c, s, g) == v)


def cheap_goods(c: Content, s: State) -> list[str]:
    """The goods currently worth $1 (two sections)."""
    return [g for g in c.goods if value(c, s, g) == 1]


def rotate(s: State) -> None:
    s.wheel_rot = (s.wheel_rot + 1) % 6


# --- gains and costs ---------------------------------------------------------------------


def ask(s: State, pend: dict[str, Any]) -> None:
    """Raise a choice that comes before the choices already waiting."""
    s.asks.append(pend)


def gain_coins(s: State, p: Player, delta: int, ev: Events, why: str) -> None:
    if delta < 0:
        delta = -min(p.coins, -delta)
    if delta:
        p.coins += delta
        ev.append({"type": "coins", "seat": p.seat, "delta": delta, "why": why, "to": p.seat})


def gain_prestige(s: State, p: Player, delta: int, ev: Events) -> None:
    if delta < 0:
        delta = -min(p.prestige, -delta)
    if delta:
        p.prestige += delta
        ev.append({"type": "prestige", "seat": p.seat, "delta": delta})


def lantern_slots(c: Content, p: Player) -> int:
    if not p.upgrades:
        return LANTERN_SLOTS
    return LANTERN_SLOTS - sum(1 for u in p.upgrades if c.upgrade[u].kind == "lantern")


def inventory_slots(c: Content, p: Player) -> int:
    if not p.upgrades:
        return INVENTORY_SLOTS
    return INVENTORY_SLOTS - sum(1 for u in p.upgrades if c.upgrade[u].kind == "inventory")


def gain_lanterns(s: State, c: Content, p: Player, delta: int, ev: Events) -> None:
    if delta > 0:
        delta = min(delta, s.supply["lanterns"], lantern_slots(c, p) - p.lanterns)
    else:
        delta = -min(p.lanterns, -delta)
    if delta:
        p.lanterns += delta
        s.supply["lanterns"] -= delta
        ev.append({"type": "lanterns", "seat": p.seat, "delta": delta})


def gain_resource(s: State, p: Player, kind: str, delta: int, ev: Events) -> None:
    """Quartz or horseshoes; over the inventory limit, `settle` asks what to discard."""
    held = p.quartz if kind == "quartz" else p.horseshoes
    delta = min(delta, s.supply[kind]) if delta > 0 else -min(held, -delta)
    if not delta:
        return
    if kind == "quartz":
        p.quartz += delta
    else:
        p.horseshoes += delta
    s.supply[kind] -= delta
    ev.append({"type": kind, "seat": p.seat, "delta": delta})


def illuminated_held(s: State, p: Player) -> int:
    """The illuminated dice `p` has: the special reserve's, and (rules 2) the one in the
    action pool until it returns to the supply at Rest ("up to a maximum of 2 illuminated
    dice at one time")."""
    pooled = p.pool_illuminated is not None and rules(s) >= 2
    return len(p.special) + pooled


def gain_illuminated(s: State, c: Content, p: Player, ev: Events) -> None:
    """Ruling R5: a third illuminated die is not taken (it stays in the supply)."""
    if s.supply["illuminated"] <= 0 or illuminated_held(s, p) >= MAX_ILLUMINATED:
        ev.append({"type": "illuminated_lost", "seat": p.seat})
        return
    v = roll(s, c.board.illuminated_faces)
    s.supply["illuminated"] -= 1
    p.special.append(v)
    ev.append({"type": "illuminated", "seat": p.seat, "value": v})


def gain_good(s: State, c: Content, p: Player, good: str, up: bool) -> None:
    """A good from the supply joins the seat's incoming goods: a `store` choice follows."""
    if s.goods_supply[good] <= 0:
        return  # ruling R30: the supply of each good is 14 tiles
    s.goods_supply[good] -= 1
    p.incoming.append({"good": good, "up": up})


def return_piece(s: State, p: Player, piece: dict[str, Any]) -> None:
    p.pieces.remove(piece)
    if piece["good"] != "upgrade":
        s.goods_supply[piece["good"]] += 1


def apply_effect(s: State, c: Content, p: Player, e: Effect, ev: Events) -> None:
    if e.coins is not None:
        gain_coins(s, p, e.coins, ev, "effect")
    elif e.prestige is not None:
        gain_prestige(s, p, e.prestige, ev)
    elif e.lanterns is not None:
        gain_lanterns(s, c, p, e.lanterns, ev)
    elif e.quartz is not None:
        gain_resource(s, p, "quartz", e.quartz, ev)
    elif e.horseshoes is not None:
        gain_resource(s, p, "horseshoes", e.horseshoes, ev)
    elif e.good is not None:
        gain_good(s, c, p, e.good, e.upgraded)
    elif e.any_good:
        ask(s, {"kind": "choose_good", "seat": p.seat, "options": list(c.goods), "up": e.upgraded})
    elif e.cheap_good:
        ask(s, {"kind": "choose_good", "seat": p.seat, "options": cheap_goods(c, s), "up": False})
    elif e.lose_good:
        if st.goods_of(p) or any(g["good"] != "upgrade" for g in p.incoming):
            ask(s, {"kind": "lose_good", "seat": p.seat})
    elif e.illuminated:
        gain_illuminated(s, c, p, ev)


def apply_effects(s: State, c: Content, p: Player, effects: tuple[Effect, ...], ev: Events) -> None:
    for e in effects:
        apply_effect(s, c, p, e, ev)


def join_hero(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    """A hero joins the wagon and gives its bonus; over 3 heroes a discard is asked first
    (the bonus is lost if the new hero is the one discarded)."""
    p.heroes.append(hero)
    ev.append({"type": "hero_joined", "seat": p.seat, "hero": hero})
    if len(p.heroes) > HERO_SLOTS:
        ask(s, {"kind": "hero_overflow", "seat": p.seat, "new": hero})
    else:
        hero_bonus(s, c, p, hero, ev)


def hero_bonus(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    bonus = c.hero[hero].bonus
    if bonus == "lantern":
        gain_lanterns(s, c, p, 1, ev)
    elif bonus == "horseshoe":
        gain_resource(s, p, "horseshoes", 1, ev)


def lose_hero(s: State, c: Content, p: Player, hero: str) -> None:
    """A hero leaves the wagon; the good it stored goes back to the incoming goods."""
    p.heroes.remove(hero)
    area = st.HERO + hero
    for q in [q for q in p.pieces if q["area"] == area]:
        p.pieces.remove(q)
        p.incoming.insert(0, {"good": q["good"], "up": q["up"]})


def gain_commission(s: State, c: Content, p: Player, town: str, ev: Events) -> None:
    k = s.stacks[town].pop(0)
    p.commissions.append(k)
    ev.append({"type": "commission", "seat": p.seat, "commission": k})
    if len(p.commissions) > COMMISSION_SLOTS:
        ask(s, {"kind": "commission_overflow", "seat": p.seat})


TOP = -1  # a deed pick: the deck's (blind) top card, not a courtyard slot
DEED_PICKS = (0, 1, TOP)


def deed_pick_ok(s: State, pick: int | None) -> bool:
    """Whether courtyard slot `pick` (0, 1) holds a deed, or (TOP) the deck has one."""
    if pick == TOP:
        return bool(s.decks["deeds"])
    return pick in (0, 1) and s.courtyard[pick] is not None


def gain_deed(s: State, c: Content, p: Player, pick: int, ev: Events) -> None:
    """A deed from courtyard slot 0/1 with its banner bonus, or the blind top card."""
    if pick == TOP:
        d = draw_deed(s)
        p.deeds.append(d)
        ev.append({"type": "deed", "seat": p.seat, "from": "top"})
        ev.append({"type": "deed_drawn", "seat": p.seat, "deed": d, "to": p.seat})
        return
    i = pick
    taken = s.courtyard[i]
    assert taken is not None
    s.courtyard[i] = None
    p.deeds.append(taken)
    ev.append({"type": "deed", "seat": p.seat, "from": f"slot {i}"})
    ev.append({"type": "deed_taken", "seat": p.seat, "deed": taken, "to": p.seat})
    apply_effect(s, c, p, c.banners[i], ev)


def has_upgrade_room(c: Content, p: Player) -> bool:
    velvet = any(c.steed[x].ability == "many_upgrades" for x in p.steeds)
    return velvet or not p.upgrades


def upgrade_ok(s: State, c: Content, p: Player, pick: str | None) -> bool:
    if pick not in s.upgrades_track or not has_upgrade_room(c, p):
        return False
    kind = c.upgrade[pick].kind
    if kind == "inventory":
        return bool(s.unused_steeds)
    return True


def gain_upgrade(s: State, c: Content, p: Player, pick: str, ev: Events) -> None:
    s.upgrades_track.remove(pick)
    p.upgrades.append(pick)
    ev.append({"type": "upgrade", "seat": p.seat, "upgrade": pick})
    if any(c.steed[x].ability == "many_upgrades" for x in p.steeds):
        gain_prestige(s, p, 2, ev)
    kind = c.upgrade[pick].kind
    if kind == "lantern" and p.lanterns > lantern_slots(c, p):
        gain_lanterns(s, c, p, lantern_slots(c, p) - p.lanterns, ev)
    elif kind == "storage":  # ruling R35: the tile is stored like a good, never discarded
        p.incoming.insert(0, {"good": "upgrade", "up": False})
    elif kind == "inventory":
        ask(s, {"kind": "choose_steed", "seat": p.seat})


# The dark market's pick on its south space: (town, None) a commission, (None, deed) a
# deed (0, 1, TOP); (None, None) on a space of goods.
MarketPick = tuple[str | None, int | None]


def dark_market_gain(
    s: State, c: Content, p: Player, steps: int, pick: MarketPick, ev: Events
) -> None:
    s.dm_pos = (s.dm_pos + steps) % 4
    space = c.board.dark_market[s.dm_pos]
    ev.append({"type": "dark_market", "seat": p.seat, "space": space.space})
    town, deed = pick
    if space.goods:
        for g in space.goods:
            gain_good(s, c, p, g, False)
    elif town is not None:
        gain_commission(s, c, p, town, ev)
    elif deed is not None:
        gain_deed(s, c, p, deed, ev)


def dark_market_picks(s: State, c: Content, steps: int) -> list[MarketPick]:
    pos = (s.dm_pos + steps) % 4
    if c.board.dark_market[pos].goods:
        return [(None, None)]
    out: list[MarketPick] = [(t, None) for t in c.towns if s.stacks[t]]
    out += [(None, d) for d in DEED_PICKS if deed_pick_ok(s, d)]
    return out


def dark_market_pick_ok(s: State, c: Content, steps: int, pick: MarketPick) -> bool:
    return pick in dark_market_picks(s, c, steps)


def ruins_goods(c: Content, s: State, steps: int) -> list[str]:
    goods = c.board.ruins[(s.ruins_pos + steps) % 4].goods
    return list(goods) if goods else list(c.goods)


def ruins_gain(s: State, c: Content, p: Player, steps: int, good: str, ev: Events) -> None:
    s.ruins_pos = (s.ruins_pos + steps) % 4
    ev.append({"type": "ruins", "seat": p.seat, "space": c.board.ruins[s.ruins_pos].space})
    gain_good(s, c, p, good, True)


def ruins_result(s: State, c: Content, p: Player, ev: Events) -> None:
    """Roll the ruins die and gain its result (ruling R15)."""
    face = roll(s, c.board.ruins_die)
    ev.append({"type": "ruins_die", "seat": p.seat, "face": face})
    if face == "illuminated":
        face = roll(s, c.board.ruins_die)
        ev.append({"type": "ruins_die", "seat": p.seat, "face": face, "reroll": True})
        if face == "illuminated":
            gain_illuminated(s, c, p, ev)
            return
    if face == "again":
        ask(s, {"kind": "ruins_again", "seat": p.seat})
    elif face == "cheap_good":
        ask(s, {"kind": "choose_good", "seat": p.seat, "options": cheap_goods(c, s), "up": False})
    elif face == "quartz":
        gain_resource(s, p, "quartz", 1, ev)
    elif face == "two_coins":
        gain_coins(s, p, 2, ev, "ruins")
    elif face == "hero" and (any(s.inn) or s.decks["heroes"]):
        ask(s, {"kind": "take_hero", "seat": p.seat})


def oracle(s: State, c: Content, p: Player, ev: Events) -> None:
    i = roll(s, list(range(6)))
    ev.append({"type": "oracle", "seat": p.seat, "face": i})
    apply_effects(s, c, p, c.board.oracle_die[i], ev)


def region_benefit(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    town = c.hero_town[c.hero[hero].type]
    apply_effects(s, c, p, c.board.region_benefits[c.town[town].region], ev)


def deliver_hero(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    town = c.hero_town[c.hero[hero].type]
    lose_hero(s, c, p, hero)
    p.delivered_heroes.append(hero)
    note_delivery(c, p, town)
    ev.append({"type": "hero_delivered", "seat": p.seat, "hero": hero, "town": town})
    region_benefit(s, c, p, hero, ev)


def note_delivery(c: Content, p: Player, town: str) -> None:
    if town not in p.towns_delivered:
        p.towns_delivered.append(town)
    region = c.town[town].region
    p.region_deliveries[region] = p.region_deliveries.get(region, 0) + 1


def has_steed(c: Content, p: Player, ability: str) -> bool:
    for x in p.steeds:  # noqa: SIM110 - a loop, no generator: asked several times a command
        if c.steed[x].ability == ability:
            return True
    return False


def upgrade_kind(c: Content, p: Player, kind: str) -> bool:
    for u in p.upgrades:  # noqa: SIM110 - as `has_steed`
        if c.upgrade[u].kind == kind:
            return True
    return False
