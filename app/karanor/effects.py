"""Interpreter of the effect language (see docs/content-format.md).

Conditions are checked, costs paid, rewards and black-market hits applied, and
the lasting modifiers of badges and artifacts summed. Every primitive that
changes the state emits an event; events with a `to` key are private to that
seat (see view.events_for).
"""

from __future__ import annotations

import functools
from typing import Any

from app.games import rng

from .content import MODIFIER_FIELDS, Bundle, Condition, Content, Hit, Reward
from .state import Player, State

Events = list[dict[str, Any]]


# --- modifiers ---------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _mods(content: Content, badges: tuple[str, ...], artifacts: tuple[str, ...]) -> dict[str, int]:
    """Ints, and two flags (`no_work`, `protect`: bools are ints)."""
    out: dict[str, int] = dict.fromkeys(MODIFIER_FIELDS, 0)
    out["no_work"] = out["protect"] = False
    sources = [content.badge[b].passive for b in badges if b in content.badge]
    sources += [content.artifact[a].passive for a in artifacts if a in content.artifact]
    for m in sources:
        for name in MODIFIER_FIELDS:
            v = getattr(m, name)
            if isinstance(v, bool):
                out[name] = out[name] or v
            else:
                out[name] += v
    return out


def mods(content: Content, p: Player) -> dict[str, int]:
    """The summed lasting modifiers of a player's badges and artifacts."""
    return _mods(content, tuple(p.badges), tuple(p.artifacts))


def move_steps(c: Content, p: Player) -> int:
    """Steps per Move action: 2, +1 per Mount, -1 per curse; never below 1."""
    return max(1, c.rules.move_steps + mods(c, p)["move"])


def sea_cost(c: Content, p: Player) -> int:
    return max(0, c.rules.sea_cost + mods(c, p)["sea_cost"])


def move_and_sea(c: Content, p: Player) -> tuple[int, int]:
    """(`move_steps`, `sea_cost`) from one look at the modifiers."""
    m = mods(c, p)
    return max(1, c.rules.move_steps + m["move"]), max(0, c.rules.sea_cost + m["sea_cost"])


def quest_limit(c: Content, p: Player) -> int:
    return max(1, c.rules.hand_size_quests + mods(c, p)["quest_limit"])


def view_limits(c: Content, p: Player) -> tuple[int, int, int]:
    """(`move_steps`, `sea_cost`, `quest_limit`) from one look at the modifiers."""
    m = mods(c, p)
    r = c.rules
    return (
        max(1, r.move_steps + m["move"]),
        max(0, r.sea_cost + m["sea_cost"]),
        max(1, r.hand_size_quests + m["quest_limit"]),
    )


@functools.lru_cache(maxsize=8)
def quest_limit_floor(c: Content) -> int:
    """No player's `quest_limit` is ever below this (every lowering badge and artifact
    held at once): a hand this small needs no look at the modifiers."""
    low = sum(min(0, b.passive.quest_limit) * b.count for b in c.badges)
    low += sum(min(0, a.passive.quest_limit) for a in c.artifacts)
    return max(1, c.rules.hand_size_quests + low)


# --- conditions and costs ------------------------------------------------------------


def holds(p: Player, bundle: Bundle, *, gold_off: int = 0) -> bool:
    if p.gold < max(0, bundle.gold - gold_off):
        return False
    return all(p.resources.get(r, 0) >= n for r, n in bundle.resources.items())


def unmet(s: State, c: Content, p: Player, conds: tuple[Condition, ...]) -> str | None:
    """The first condition the player fails, in words; None when all hold."""
    for cond in conds:
        if cond.at is not None and p.position != cond.at:
            return f"must be at {c.territory[cond.at].name}"
        if cond.at_any is not None and p.position not in cond.at_any:
            names = ", ".join(c.territory[t].name for t in cond.at_any)
            return f"must be at one of {names}"
        if cond.in_city and p.position not in c.cities:
            return "must be in a city"
        if cond.has is not None and not holds(p, cond.has):
            return f"must hold {bundle_words(cond.has)}"
        if cond.badge is not None and cond.badge not in p.badges:
            return f"needs the {c.badge[cond.badge].name} badge"
        if cond.min_businesses is not None and built(p) < cond.min_businesses:
            return f"needs {cond.min_businesses} businesses built"
        if cond.min_villas is not None and len(p.villas) < cond.min_villas:
            return f"needs {cond.min_villas} villas"
        if cond.min_partners is not None and len(p.partners) < cond.min_partners:
            return f"needs {cond.min_partners} partners"
        if cond.min_artifacts is not None and len(p.artifacts) < cond.min_artifacts:
            return f"needs {cond.min_artifacts} artifacts"
        if cond.min_prestige is not None and p.prestige < cond.min_prestige:
            return f"needs {cond.min_prestige} prestige"
    return None


def built(p: Player) -> int:
    return sum(1 for b in p.businesses if b.card is not None)


def pay(s: State, p: Player, bundle: Bundle, *, gold_off: int = 0) -> int:
    """Pay a cost the player holds (check first); resources return to the supply."""
    gold = max(0, bundle.gold - gold_off)
    p.gold -= gold
    for r, n in bundle.resources.items():
        p.resources[r] -= n
        s.supply[r] += n
    return gold


def bundle_words(b: Bundle, gold: int | None = None) -> str:
    parts = []
    g = b.gold if gold is None else gold
    if g:
        parts.append(f"{g} gold")
    parts += [f"{n} {r}" for r, n in b.resources.items()]
    return ", ".join(parts) or "nothing"


# --- decks -----------------------------------------------------------------------------


def draw(s: State, deck: str, n: int = 1) -> list[str]:
    """Draw up to n cards; an empty deck is refilled by shuffling its discards."""
    out: list[str] = []
    pile = s.decks[deck]
    for _ in range(n):
        if not pile and s.discards.get(deck):
            pile.extend(s.discards[deck])
            s.discards[deck].clear()
            s.rng = rng.shuffle(s.rng, pile)
        if not pile:
            break
        out.append(pile.pop())
    return out


def can_draw(s: State, deck: str) -> bool:
    return bool(s.decks[deck] or s.discards.get(deck))


# --- gains --------------------------------------------------------------------------


def gain_prestige(s: State, c: Content, p: Player, n: int, ev: Events) -> None:
    """Prestige moves, floor 0; first reaching 3 and 6 gives a black-market card;
    reaching the end threshold triggers the end of the game."""
    before = p.prestige
    p.prestige = max(0, p.prestige + n)
    if p.prestige == before:
        return
    ev.append(
        {"type": "prestige", "seat": p.seat, "delta": p.prestige - before, "prestige": p.prestige}
    )
    for threshold in c.rules.ascension:
        if p.prestige >= threshold and threshold not in p.ascended:
            p.ascended.append(threshold)
            ev.append({"type": "ascension", "seat": p.seat, "threshold": threshold})
            give_black_market(s, p, 1, ev)
    if s.end_triggered_by is None and p.prestige >= end_prestige(s, c):
        s.end_triggered_by = p.seat
        ev.append({"type": "end_triggered", "seat": p.seat, "prestige": p.prestige})
        close_offers(s, "closed", ev)


def end_prestige(s: State, c: Content) -> int:
    override = s.options.get("end_prestige")
    if override:
        return int(override)
    return c.rules.end_prestige.get(s.n, 10)


def close_offers(s: State, status: str, ev: Events) -> None:
    for o in s.offers:
        if o["status"] in ("open", "unavailable"):
            o["status"] = status
    if s.offers:
        ev.append({"type": "offers_closed", "status": status})


def take_resources(s: State, p: Player, res: str, n: int) -> int:
    """Take up to n tokens from the supply; returns how many were taken."""
    got = min(n, s.supply.get(res, 0))
    if got:
        s.supply[res] -= got
        p.resources[res] = p.resources.get(res, 0) + got
    return got


def give_badge(s: State, c: Content, p: Player, badge: str, ev: Events) -> bool:
    if s.badge_supply.get(badge, 0) <= 0:
        ev.append({"type": "badge_gone", "seat": p.seat, "badge": badge})
        return False
    s.badge_supply[badge] -= 1
    p.badges.append(badge)
    ev.append({"type": "badge", "seat": p.seat, "badge": badge})
    return True


def give_black_market(s: State, p: Player, n: int, ev: Events) -> None:
    cards = draw(s, "black_market", n)
    p.black_market.extend(cards)
    if cards:
        ev.append({"type": "draw", "seat": p.seat, "deck": "black_market", "count": len(cards)})
        ev.append({"type": "drew", "to": p.seat, "deck": "black_market", "cards": cards})


def give_artifact(s: State, p: Player, ev: Events) -> None:
    """Draw two artifact tiles, keep one: a pending choice (or the only one left)."""
    tiles = draw(s, "artifacts", 2)
    if len(tiles) == 2:
        s.pending.append({"kind": "artifact", "seat": p.seat, "options": tiles})
        ev.append({"type": "artifact_offered", "seat": p.seat})
        ev.append({"type": "artifact_options", "to": p.seat, "options": tiles})
    elif tiles:
        p.artifacts.append(tiles[0])
        ev.append({"type": "artifact", "seat": p.seat, "artifact": tiles[0]})
    else:
        ev.append({"type": "artifact_gone", "seat": p.seat})


def receive_quest(s: State, c: Content, p: Player, card: str, ev: Events) -> None:
    """A quest reaches a player: an immediate choice first, else into the hand."""
    if c.quest[card].immediate:
        s.pending.append({"kind": "quest_choice", "seat": p.seat, "card": card})
        ev.append({"type": "quest_choice_open", "seat": p.seat})
    else:
        p.quests.append(card)


def give_quests(s: State, c: Content, p: Player, n: int, ev: Events) -> None:
    cards = draw(s, "quests", n)
    if cards:
        ev.append({"type": "draw", "seat": p.seat, "deck": "quests", "count": len(cards)})
        ev.append({"type": "drew", "to": p.seat, "deck": "quests", "cards": cards})
    for card in cards:
        receive_quest(s, c, p, card, ev)


def add_actions(s: State, p: Player, n: int) -> None:
    if s.turn_seat == p.seat:
        s.actions_left += n
    else:
        p.bonus_actions += n


def teleport(s: State, c: Content, p: Player, where: str, ev: Events) -> None:
    dest = p.home if where == "home" else where
    if p.position != dest:
        p.position = dest
        ev.append({"type": "teleport", "seat": p.seat, "territory": dest})
    if s.turn_seat == p.seat:
        s.move_left = 0  # being moved ends a Move in progress


def apply_rewards(s: State, c: Content, p: Player, rewards: tuple[Reward, ...], ev: Events) -> None:
    for r in rewards:
        if r.gold is not None:
            p.gold += r.gold
            ev.append({"type": "gold", "seat": p.seat, "delta": r.gold})
        elif r.prestige is not None:
            gain_prestige(s, c, p, r.prestige, ev)
        elif r.revenue is not None:
            before = p.revenue
            p.revenue = max(0, min(c.rules.revenue_max, p.revenue + r.revenue))
            if p.revenue != before:
                ev.append(
                    {
                        "type": "revenue",
                        "seat": p.seat,
                        "delta": p.revenue - before,
                        "revenue": p.revenue,
                    }
                )
        elif r.resources is not None:
            for res, n in r.resources.items():
                got = take_resources(s, p, res, n)
                ev.append({"type": "resources", "seat": p.seat, "resource": res, "delta": got})
        elif r.badge is not None:
            give_badge(s, c, p, r.badge, ev)
        elif r.lose_badge is not None:
            if r.lose_badge in p.badges:
                p.badges.remove(r.lose_badge)
                s.badge_supply[r.lose_badge] = s.badge_supply.get(r.lose_badge, 0) + 1
                ev.append({"type": "badge_lost", "seat": p.seat, "badge": r.lose_badge})
        elif r.artifact is not None:
            for _ in range(r.artifact):
                give_artifact(s, p, ev)
        elif r.black_market is not None:
            give_black_market(s, p, r.black_market, ev)
        elif r.quest is not None:
            give_quests(s, c, p, r.quest, ev)
        elif r.extra_actions is not None:
            add_actions(s, p, r.extra_actions)
            ev.append({"type": "extra_actions", "seat": p.seat, "count": r.extra_actions})
        elif r.teleport is not None:
            teleport(s, c, p, r.teleport, ev)


def apply_hits(
    s: State,
    c: Content,
    p: Player,
    t: Player,
    hits: tuple[Hit, ...],
    resource: str | None,
    ev: Events,
) -> None:
    """Black-market effects of player p on target t (a steal never takes more than t has)."""
    for h in hits:
        if h.steal_gold is not None:
            n = min(h.steal_gold, t.gold)
            t.gold -= n
            p.gold += n
            ev.append({"type": "steal", "seat": p.seat, "target": t.seat, "gold": n})
        elif h.lose_gold is not None:
            n = min(h.lose_gold, t.gold)
            t.gold -= n
            ev.append({"type": "gold", "seat": t.seat, "delta": -n})
        elif h.steal_resource is not None and resource:
            n = min(h.steal_resource, t.resources.get(resource, 0))
            t.resources[resource] -= n
            p.resources[resource] = p.resources.get(resource, 0) + n
            ev.append(
                {
                    "type": "steal",
                    "seat": p.seat,
                    "target": t.seat,
                    "resource": resource,
                    "count": n,
                }
            )
        elif h.lose_resource is not None and resource:
            n = min(h.lose_resource, t.resources.get(resource, 0))
            t.resources[resource] -= n
            s.supply[resource] += n
            ev.append({"type": "resources", "seat": t.seat, "resource": resource, "delta": -n})
        elif h.lose_prestige is not None:
            gain_prestige(s, c, t, -h.lose_prestige, ev)
        elif h.lose_actions is not None:
            t.lost_actions += h.lose_actions
            ev.append({"type": "actions_lost", "seat": t.seat, "count": h.lose_actions})
        elif h.send_home:
            teleport(s, c, t, "home", ev)
        elif h.give_badge is not None:
            give_badge(s, c, t, h.give_badge, ev)
