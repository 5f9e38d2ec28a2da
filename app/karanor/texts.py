"""Rules text a player reads, generated from the card data so text and effect agree."""

from __future__ import annotations

from typing import Any

from .content import (
    Artifact,
    Badge,
    BlackMarket,
    Bundle,
    Business,
    Choice,
    Condition,
    Content,
    Delivery,
    Hit,
    Modifiers,
    Quest,
    Reward,
    Story,
)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s" if word != "gold" else f"{n} gold"


def bundle(b: Bundle) -> str:
    parts = [f"{b.gold} gold"] if b.gold else []
    parts += [f"{n} {r}" for r, n in b.resources.items()]
    return " + ".join(parts) or "nothing"


def condition(c: Content, cond: Condition) -> str:
    if cond.at is not None:
        return f"be at {c.territory[cond.at].name}"
    if cond.at_any is not None:
        return "be at " + " or ".join(c.territory[t].name for t in cond.at_any)
    if cond.in_city:
        return "be in a city"
    if cond.has is not None:
        return f"hold {bundle(cond.has)}"
    if cond.badge is not None:
        return f"own a {c.badge[cond.badge].name} badge"
    for key, word in (
        ("min_businesses", "business"),
        ("min_villas", "villa"),
        ("min_partners", "partner"),
        ("min_artifacts", "artifact"),
    ):
        v = getattr(cond, key)
        if v is not None:
            return f"own at least {_plural(v, word)}".replace("businesss", "businesses")
    if cond.min_prestige is not None:
        return f"have at least {cond.min_prestige} prestige"
    return "?"


def reward(c: Content, r: Reward) -> str:
    if r.gold is not None:
        return f"gain {r.gold} gold"
    if r.prestige is not None:
        return f"gain {r.prestige} prestige" if r.prestige >= 0 else f"lose {-r.prestige} prestige"
    if r.revenue is not None:
        return f"revenue +{r.revenue}" if r.revenue >= 0 else f"revenue {r.revenue}"
    if r.resources is not None:
        return "take " + " + ".join(f"{n} {res}" for res, n in r.resources.items())
    if r.badge is not None:
        return f"take a {c.badge[r.badge].name} badge"
    if r.lose_badge is not None:
        return f"return a {c.badge[r.lose_badge].name} badge"
    if r.artifact is not None:
        return (
            "receive an artifact (draw 2, keep 1)"
            if r.artifact == 1
            else (f"receive {r.artifact} artifacts (each: draw 2, keep 1)")
        )
    if r.black_market is not None:
        return f"draw {_plural(r.black_market, 'black-market card')}"
    if r.quest is not None:
        return f"draw {_plural(r.quest, 'quest')}"
    if r.extra_actions is not None:
        return f"{_plural(r.extra_actions, 'extra action')} this turn"
    if r.teleport is not None:
        where = "your home city" if r.teleport == "home" else c.territory[r.teleport].name
        return f"go at once to {where}"
    return "?"


def rewards(c: Content, rs: tuple[Reward, ...]) -> str:
    return ", ".join(reward(c, r) for r in rs) or "nothing"


def choice(c: Content, ch: Choice) -> str:
    parts = []
    if ch.requires:
        parts.append("Must " + " and ".join(condition(c, x) for x in ch.requires) + ".")
    if not ch.cost.empty:
        parts.append(f"Pay {bundle(ch.cost)}.")
    parts.append(rewards(c, ch.reward)[:1].upper() + rewards(c, ch.reward)[1:] + ".")
    return f"{ch.label}: " + " ".join(parts)


def hit(c: Content, h: Hit) -> str:
    if h.steal_gold is not None:
        return f"take up to {h.steal_gold} gold from them"
    if h.steal_resource is not None:
        return f"take up to {h.steal_resource} of one resource they hold"
    if h.lose_gold is not None:
        return f"they lose up to {h.lose_gold} gold"
    if h.lose_resource is not None:
        return f"they return up to {h.lose_resource} of one resource to the supply"
    if h.lose_prestige is not None:
        return f"they lose {h.lose_prestige} prestige"
    if h.lose_actions is not None:
        return f"their next turn has {_plural(h.lose_actions, 'action')} fewer"
    if h.send_home:
        return "they go back to their home city"
    if h.give_badge is not None:
        return f"they take a {c.badge[h.give_badge].name} badge"
    return "?"


WHEN = {
    "any_time": "Play at any time",
    "own_turn": "Play on your turn",
    "off_turn": "Play during another player's turn",
}
# The effect (`engine.bm_targets`) only ever targets another player: the words say so
# (a test checks every card's text against what the engine lets it target).
TARGET = {
    "any": "target another player",
    "same_territory": "target another player on your territory",
    "same_city": "target another player in the same city as you",
    "leader": "target the other player with the most prestige (your choice if tied)",
}
MODS = {
    "move": "Move {:+d} territory",
    "sea_cost": "sea crossings cost {:+d} gold",
    "work": "Work gives {:+d} gold",
    "harvest": "Harvest gives {:+d} token",
    "revenue": "revenue {:+d} gold each turn",
    "build_discount": "businesses cost {} gold less",
    "villa_discount": "villas cost {} gold less",
    "partner_discount": "partners cost {} gold less",
    "quest_limit": "hold {:+d} quest",
    "actions": "{:+d} action each turn",
    "delivery_gold": "deliveries pay {:+d} gold",
}


def modifiers(m: Modifiers) -> str:
    parts = []
    for key, fmt in MODS.items():
        v = getattr(m, key)
        if v:
            parts.append(fmt.format(v))
    if m.no_work:
        parts.append("you can no longer Work")
    if m.protect:
        parts.append("black-market cards cannot target you")
    return "; ".join(parts)


def black_market(c: Content, b: BlackMarket) -> str:
    head = WHEN[b.when]
    if b.target != "none":
        head += f": {TARGET[b.target]}"
    parts = [head + "."]
    if b.requires:
        parts.append("You must " + " and ".join(condition(c, x) for x in b.requires) + ".")
    if b.action:
        parts.append("Costs 1 action.")
    if not b.cost.empty:
        parts.append(f"Pay {bundle(b.cost)}.")
    effects = [hit(c, h) for h in b.hit] + [reward(c, r) for r in b.reward]
    parts.append("; ".join(effects)[:1].upper() + "; ".join(effects)[1:] + ".")
    return " ".join(parts)


def quest(c: Content, q: Quest) -> str:
    parts = []
    if q.immediate:
        parts.append(
            "Immediate choice (no action): " + " / ".join(choice(c, x) for x in q.immediate)
        )
    if q.complete:
        lead = "Either " if len(q.complete) > 1 else ""
        parts.append(lead + " OR ".join(choice(c, x) for x in q.complete))
    if q.prestige:
        parts.append(f"On completion: {q.prestige} prestige.")
    if q.sequel:
        parts.append(f"Then take {c.quest[q.sequel].name}.")
    return " ".join(parts)


def business(c: Content, b: Business) -> str:
    text = f"Cost: {bundle(b.cost)}. On opening: {rewards(c, b.opening)}."
    if b.bonus:
        gain = rewards(c, b.bonus.reward)
        text += f" Bonus, {b.bonus.name}: pay {bundle(b.bonus.cost)} more to {gain}."
    return text


def artifact(c: Content, a: Artifact) -> str:
    parts = []
    if modifiers(a.passive):
        parts.append(modifiers(a.passive)[:1].upper() + modifiers(a.passive)[1:] + ".")
    if a.activate:
        p = a.activate
        s = f"Once per {p.once_per}" + (", 1 action" if p.action else ", no action")
        if p.requires:
            s += ", if you " + " and ".join(condition(c, x) for x in p.requires)
        if not p.cost.empty:
            s += f", pay {bundle(p.cost)}"
        parts.append(s + f": {rewards(c, p.reward)}.")
    return " ".join(parts)


def badge(b: Badge) -> str:
    m = modifiers(b.passive)
    return (m[:1].upper() + m[1:] + ".") if m else ""


def delivery(c: Content, d: Delivery) -> str:
    res = " + ".join(f"{n} {r}" for r, n in d.resources.items())
    return f"Bring {res} to {c.territory[d.city].name}: {d.gold} gold and {d.prestige} prestige."


def story(c: Content, s: Story) -> str:
    parts = [f"{s.gold} gold"] + [f"{n} {r}" for r, n in s.resources.items()]
    if s.badge:
        parts.append(f"a {c.badge[s.badge].name} badge")
    return "Start with " + ", ".join(parts) + f"; revenue {s.revenue}."


def catalogue(c: Content) -> dict[str, Any]:
    """Every card and tile with its generated rules text: the client's card catalogue."""

    def card(x: Any, text: str, **extra: Any) -> dict[str, Any]:
        d = {"id": x.id, "name": x.name, "flavour": getattr(x, "flavour", ""), "text": text}
        if getattr(x, "four_plus", False):
            d["four_plus"] = True
        return {**d, **extra}

    return {
        "quests": {
            q.id: card(
                q,
                quest(c, q),
                prestige=q.prestige,
                place=q.place,
                sequel=q.sequel,
                part=2 if q.id in {s.id for s in c.sequels} else (1 if q.sequel else None),
                options=[ch.label for ch in q.complete],
                immediate=[ch.label for ch in q.immediate],
            )
            for q in c.quest.values()
        },
        "black_market": {
            b.id: card(b, black_market(c, b), when=b.when, target=b.target, action=b.action)
            for b in c.black_market
        },
        "business": {
            b.id: card(
                b,
                business(c, b),
                cost=b.cost.model_dump(),
                bonus=b.bonus.model_dump() if b.bonus else None,
                opening=[r.model_dump(exclude_none=True) for r in b.opening],
            )
            for b in c.business
        },
        "badges": {b.id: card(b, badge(b), count=b.count) for b in c.badges},
        "artifacts": {
            a.id: card(a, artifact(c, a), power=a.activate is not None) for a in c.artifacts
        },
        "stories": {
            s.id: {"id": s.id, "name": s.name, "story": s.story, "text": story(c, s)}
            for s in c.stories
        },
        "deliveries": {
            d.id: {
                "id": d.id,
                "name": d.name,
                "flavour": d.flavour,
                "city": d.city,
                "resources": dict(d.resources),
                "gold": d.gold,
                "prestige": d.prestige,
                "text": delivery(c, d),
            }
            for d in c.deliveries
        },
        "inhabitants": {i.id: i.model_dump() for i in c.inhabitants},
        "homes": {h.id: h.model_dump() for h in c.homes},
    }
