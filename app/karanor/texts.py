"""Rules text a player reads, generated from the card data so text and effect agree.

Every phrase goes through a translator (`app.games.i18n.Translator`, English when none
is given): numbers through `ngettext`, lists through "{first}, {second}" / "{first} and
{second}" messages, and a condition has two forms (what you must do, what you are), so
no sentence is built from English grammar ("pay 1 gold more to 1 extra action", "if you
be in a city" were).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.games import i18n
from app.games.kit import marked as _

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

Tr = i18n.Translator
ENGLISH = i18n.Translator("en", {})


def _tr(tr: Tr | None) -> Tr:
    return tr or ENGLISH


def noun(c: Content, entry: Any) -> i18n.Noun:
    """An entry's name with its article in the pack's language ("{place:au}")."""
    return i18n.Noun(entry.name, c.articles.get(entry.id, ""))


def place_of(c: Content, territory: str) -> i18n.Noun:
    return noun(c, c.territory[territory])


def join(tr: Tr, items: Sequence[str], last: str = "and") -> str:
    """ "a, b and c" (or "a, b or c") in the translator's language."""
    if not items:
        return ""
    text = items[0]
    for i, item in enumerate(items[1:], start=1):
        if i < len(items) - 1:
            text = tr.gettext("{first}, {second}", first=text, second=item)
        elif last == "or":
            text = tr.gettext("{first} or {second}", first=text, second=item)
        else:
            text = tr.gettext("{first} and {second}", first=text, second=item)
    return text


def semicolons(tr: Tr, items: Sequence[str]) -> str:
    """ "a; b; c" with the language's spacing ("a ; b" in French)."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = tr.gettext("{first}; {second}", first=text, second=item)
    return text


def good(tr: Tr, name: str, n: int) -> str:
    """ "2 wood", "1 diamond" (gold and the seven resources)."""
    table: dict[str, Callable[[], str]] = {
        "gold": lambda: tr.ngettext("{n} gold", "{n} gold", n),
        "wood": lambda: tr.ngettext("{n} wood", "{n} wood", n),
        "ore": lambda: tr.ngettext("{n} ore", "{n} ore", n),
        "cloth": lambda: tr.ngettext("{n} cloth", "{n} cloth", n),
        "wine": lambda: tr.ngettext("{n} wine", "{n} wine", n),
        "meat": lambda: tr.ngettext("{n} meat", "{n} meat", n),
        "fruit": lambda: tr.ngettext("{n} fruit", "{n} fruit", n),
        "diamond": lambda: tr.ngettext("{n} diamond", "{n} diamonds", n),
        "prestige": lambda: tr.ngettext("{n} prestige", "{n} prestige", n),
    }
    return table[name]() if name in table else f"{n} {name}"


def bundle(b: Bundle, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    parts = [good(tr, "gold", b.gold)] if b.gold else []
    parts += [good(tr, r, n) for r, n in b.resources.items()]
    return " + ".join(parts) or tr.gettext("nothing")


def condition(c: Content, cond: Condition, tr: Tr | None = None, *, you: bool = False) -> str:
    """What a condition asks: "be in a city" (after "Must"), or with `you` the
    statement "you are in a city" (after "if")."""
    tr = _tr(tr)
    gettext = tr.gettext
    if cond.at is not None:
        place = place_of(c, cond.at)
        return (
            gettext("you are at {place}", place=place)
            if you
            else gettext("be at {place}", place=place)
        )
    if cond.at_any is not None:
        places = join(tr, [place_of(c, t) for t in cond.at_any], "or")
        return (
            gettext("you are at one of: {places}", places=places)
            if you
            else gettext("be at one of: {places}", places=places)
        )
    if cond.in_city:
        return gettext("you are in a city") if you else gettext("be in a city")
    if cond.has is not None:
        goods = bundle(cond.has, tr)
        return (
            gettext("you hold {goods}", goods=goods)
            if you
            else gettext("hold {goods}", goods=goods)
        )
    if cond.badge is not None:
        name = c.badge[cond.badge].name
        return (
            gettext("you own a {badge} badge", badge=name)
            if you
            else gettext("own a {badge} badge", badge=name)
        )
    ngettext = tr.ngettext
    if cond.min_businesses is not None:
        v = cond.min_businesses
        if you:
            return ngettext("you own at least {n} business", "you own at least {n} businesses", v)
        return ngettext("own at least {n} business", "own at least {n} businesses", v)
    if cond.min_villas is not None:
        v = cond.min_villas
        if you:
            return ngettext("you own at least {n} villa", "you own at least {n} villas", v)
        return ngettext("own at least {n} villa", "own at least {n} villas", v)
    if cond.min_partners is not None:
        v = cond.min_partners
        if you:
            return ngettext("you own at least {n} partner", "you own at least {n} partners", v)
        return ngettext("own at least {n} partner", "own at least {n} partners", v)
    if cond.min_artifacts is not None:
        v = cond.min_artifacts
        if you:
            return ngettext("you own at least {n} artifact", "you own at least {n} artifacts", v)
        return ngettext("own at least {n} artifact", "own at least {n} artifacts", v)
    if cond.min_prestige is not None:
        v = cond.min_prestige
        if you:
            return ngettext("you have at least {n} prestige", "you have at least {n} prestige", v)
        return ngettext("have at least {n} prestige", "have at least {n} prestige", v)
    return "?"


def reward(c: Content, r: Reward, tr: Tr | None = None) -> str:
    """One reward as an imperative phrase ("gain 2 gold", "revenue +1")."""
    tr = _tr(tr)
    gettext, ngettext = tr.gettext, tr.ngettext
    if r.gold is not None:
        return ngettext("gain {n} gold", "gain {n} gold", r.gold)
    if r.prestige is not None:
        if r.prestige >= 0:
            return ngettext("gain {n} prestige", "gain {n} prestige", r.prestige)
        return ngettext("lose {n} prestige", "lose {n} prestige", -r.prestige)
    if r.revenue is not None:
        if r.revenue >= 0:
            return gettext("revenue +{n}", n=r.revenue)
        return gettext("revenue -{n}", n=-r.revenue)
    if r.resources is not None:
        return gettext(
            "take {goods}", goods=" + ".join(good(tr, res, k) for res, k in r.resources.items())
        )
    if r.badge is not None:
        return gettext("take a {badge} badge", badge=c.badge[r.badge].name)
    if r.lose_badge is not None:
        return gettext("return a {badge} badge", badge=c.badge[r.lose_badge].name)
    if r.artifact is not None:
        if r.artifact == 1:
            return gettext("receive an artifact (draw 2, keep 1)")
        return gettext("receive {n} artifacts (each: draw 2, keep 1)", n=r.artifact)
    if r.black_market is not None:
        return ngettext("draw {n} black-market card", "draw {n} black-market cards", r.black_market)
    if r.quest is not None:
        return ngettext("draw {n} quest", "draw {n} quests", r.quest)
    if r.extra_actions is not None:
        return ngettext(
            "gain {n} extra action this turn", "gain {n} extra actions this turn", r.extra_actions
        )
    if r.teleport is not None:
        if r.teleport == "home":
            return gettext("go at once to your home city")
        return gettext("go at once to {place}", place=place_of(c, r.teleport))
    return "?"


def rewards(c: Content, rs: tuple[Reward, ...], tr: Tr | None = None) -> str:
    tr = _tr(tr)
    return join(tr, [reward(c, r, tr) for r in rs]) or tr.gettext("nothing")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def choice(c: Content, ch: Choice, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    parts = []
    if ch.requires:
        conditions = join(tr, [condition(c, x, tr) for x in ch.requires])
        parts.append(tr.gettext("Must {conditions}.", conditions=conditions))
    if not ch.cost.empty:
        parts.append(tr.gettext("Pay {goods}.", goods=bundle(ch.cost, tr)))
    parts.append(_sentence(rewards(c, ch.reward, tr)) + ".")
    return tr.gettext("{label}: {text}", label=ch.label, text=" ".join(parts))


def hit(c: Content, h: Hit, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    gettext, ngettext = tr.gettext, tr.ngettext
    if h.steal_gold is not None:
        return ngettext(
            "take up to {n} gold from them", "take up to {n} gold from them", h.steal_gold
        )
    if h.steal_resource is not None:
        return ngettext(
            "take up to {n} of one resource they hold",
            "take up to {n} of one resource they hold",
            h.steal_resource,
        )
    if h.lose_gold is not None:
        return ngettext("they lose up to {n} gold", "they lose up to {n} gold", h.lose_gold)
    if h.lose_resource is not None:
        return ngettext(
            "they return up to {n} of one resource to the supply",
            "they return up to {n} of one resource to the supply",
            h.lose_resource,
        )
    if h.lose_prestige is not None:
        return ngettext("they lose {n} prestige", "they lose {n} prestige", h.lose_prestige)
    if h.lose_actions is not None:
        return ngettext(
            "their next turn has {n} action fewer",
            "their next turn has {n} actions fewer",
            h.lose_actions,
        )
    if h.send_home:
        return gettext("they go back to their home city")
    if h.give_badge is not None:
        return gettext("they take a {badge} badge", badge=c.badge[h.give_badge].name)
    return "?"


WHEN = {
    "any_time": _("Play at any time"),
    "own_turn": _("Play on your turn"),
    "off_turn": _("Play during another player's turn"),
}
# The effect (`engine.bm_targets`) only ever targets another player: the words say so
# (a test checks every card's text against what the engine lets it target).
TARGET = {
    "any": _("target another player"),
    "same_territory": _("target another player on your territory"),
    "same_city": _("target another player in the same city as you"),
    "leader": _("target the other player with the most prestige (your choice if tied)"),
}


def _mods(tr: Tr, m: Modifiers) -> list[str]:
    gettext, ngettext = tr.gettext, tr.ngettext

    def signed(v: int) -> str:
        return f"{v:+d}"

    out: list[str] = []
    if m.move:
        out.append(
            ngettext("Move {v} territory", "Move {v} territories", abs(m.move), v=signed(m.move))
        )
    if m.sea_cost:
        out.append(gettext("sea crossings cost {v} gold", v=signed(m.sea_cost)))
    if m.work:
        out.append(gettext("Work gives {v} gold", v=signed(m.work)))
    if m.harvest:
        v = signed(m.harvest)
        out.append(
            ngettext("Harvest gives {v} token", "Harvest gives {v} tokens", abs(m.harvest), v=v)
        )
    if m.revenue:
        out.append(gettext("revenue {v} gold each turn", v=signed(m.revenue)))
    if m.build_discount:
        out.append(gettext("businesses cost {n} gold less", n=m.build_discount))
    if m.villa_discount:
        out.append(gettext("villas cost {n} gold less", n=m.villa_discount))
    if m.partner_discount:
        out.append(gettext("partners cost {n} gold less", n=m.partner_discount))
    if m.quest_limit:
        v = signed(m.quest_limit)
        out.append(ngettext("hold {v} quest", "hold {v} quests", abs(m.quest_limit), v=v))
    if m.actions:
        v = signed(m.actions)
        out.append(ngettext("{v} action each turn", "{v} actions each turn", abs(m.actions), v=v))
    if m.delivery_gold:
        out.append(gettext("deliveries pay {v} gold", v=signed(m.delivery_gold)))
    if m.no_work:
        out.append(gettext("you can no longer Work"))
    if m.protect:
        out.append(gettext("black-market cards cannot target you"))
    return out


def modifiers(m: Modifiers, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    return semicolons(tr, _mods(tr, m))


def black_market(c: Content, b: BlackMarket, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    head = tr.gettext(WHEN[b.when])
    if b.target != "none":
        head = tr.gettext("{when}: {target}", when=head, target=tr.gettext(TARGET[b.target]))
    parts = [head + "."]
    if b.requires:
        conditions = join(tr, [condition(c, x, tr) for x in b.requires])
        parts.append(tr.gettext("You must {conditions}.", conditions=conditions))
    if b.action:
        parts.append(tr.gettext("Costs 1 action."))
    if not b.cost.empty:
        parts.append(tr.gettext("Pay {goods}.", goods=bundle(b.cost, tr)))
    effects = [hit(c, h, tr) for h in b.hit] + [reward(c, r, tr) for r in b.reward]
    parts.append(_sentence(semicolons(tr, effects)) + ".")
    return " ".join(parts)


def quest(c: Content, q: Quest, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    parts = []
    if q.immediate:
        now = " / ".join(choice(c, x, tr) for x in q.immediate)
        parts.append(tr.gettext("Immediate choice (no action): {options}", options=now))
    if q.complete:
        options = [choice(c, x, tr) for x in q.complete]
        if len(options) > 1:
            parts.append(tr.gettext("Either {options}", options=tr.gettext(" OR ").join(options)))
        else:
            parts.append(options[0])
    if q.prestige:
        parts.append(tr.gettext("On completion: {n} prestige.", n=q.prestige))
    if q.sequel:
        parts.append(tr.gettext("Then take {quest}.", quest=noun(c, c.quest[q.sequel])))
    return " ".join(parts)


def business_effect(c: Content, b: Business, tr: Tr | None = None) -> str:
    """A business card's text without its cost (the card shows the cost as icons)."""
    tr = _tr(tr)
    text = tr.gettext("On opening: {rewards}.", rewards=rewards(c, b.opening, tr))
    if b.bonus:
        text += " " + tr.gettext(
            "Bonus, {name}: for {cost} more, {gain}.",
            name=b.bonus.name,
            cost=bundle(b.bonus.cost, tr),
            gain=rewards(c, b.bonus.reward, tr),
        )
    return text


def business(c: Content, b: Business, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    return tr.gettext("Cost: {goods}.", goods=bundle(b.cost, tr)) + " " + business_effect(c, b, tr)


def artifact(c: Content, a: Artifact, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    parts = []
    if modifiers(a.passive, tr):
        parts.append(_sentence(modifiers(a.passive, tr)) + ".")
    if a.activate:
        p = a.activate
        terms = [
            tr.gettext("Once per turn") if p.once_per == "turn" else tr.gettext("Once per game"),
            tr.gettext("1 action") if p.action else tr.gettext("no action"),
        ]
        if p.requires:
            conditions = join(tr, [condition(c, x, tr, you=True) for x in p.requires])
            terms.append(tr.gettext("if {conditions}", conditions=conditions))
        if not p.cost.empty:
            terms.append(tr.gettext("pay {goods}", goods=bundle(p.cost, tr)))
        parts.append(
            tr.gettext(
                "{terms}: {rewards}.", terms=", ".join(terms), rewards=rewards(c, p.reward, tr)
            )
        )
    return " ".join(parts)


def badge(b: Badge, tr: Tr | None = None) -> str:
    m = modifiers(b.passive, tr)
    return (_sentence(m) + ".") if m else ""


def delivery(c: Content, d: Delivery, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    return tr.gettext(
        "Bring {goods} to {city}: {gold} and {prestige}.",
        goods=" + ".join(good(tr, r, n) for r, n in d.resources.items()),
        city=place_of(c, d.city),
        gold=good(tr, "gold", d.gold),
        prestige=good(tr, "prestige", d.prestige),
    )


def story(c: Content, s: Story, tr: Tr | None = None) -> str:
    tr = _tr(tr)
    parts = [good(tr, "gold", s.gold)] + [good(tr, r, n) for r, n in s.resources.items()]
    if s.badge:
        parts.append(tr.gettext("a {badge} badge", badge=c.badge[s.badge].name))
    return tr.gettext("Start with {things}; revenue {n}.", things=join(tr, parts), n=s.revenue)


def catalogue(c: Content, tr: Tr | None = None) -> dict[str, Any]:
    """Every card and tile with its generated rules text (in the translator's language):
    the client's card catalogue."""
    tr = _tr(tr)

    def card(x: Any, text: str, **extra: Any) -> dict[str, Any]:
        d = {"id": x.id, "name": x.name, "flavour": getattr(x, "flavour", ""), "text": text}
        if c.articles.get(x.id):
            d["article"] = c.articles[x.id]
        if getattr(x, "four_plus", False):
            d["four_plus"] = True
        return {**d, **extra}

    return {
        "quests": {
            q.id: card(
                q,
                quest(c, q, tr),
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
            b.id: card(b, black_market(c, b, tr), when=b.when, target=b.target, action=b.action)
            for b in c.black_market
        },
        "business": {
            b.id: card(
                b,
                business(c, b, tr),
                effect=business_effect(c, b, tr),
                cost=b.cost.model_dump(),
                bonus=b.bonus.model_dump() if b.bonus else None,
                opening=[r.model_dump(exclude_none=True) for r in b.opening],
            )
            for b in c.business
        },
        "badges": {
            b.id: card(b, badge(b, tr), count=b.count, passive=b.passive.model_dump())
            for b in c.badges
        },
        "artifacts": {
            a.id: card(
                a,
                artifact(c, a, tr),
                power=a.activate is not None,
                passive=a.passive.model_dump(),
            )
            for a in c.artifacts
        },
        "stories": {
            s.id: {"id": s.id, "name": s.name, "story": s.story, "text": story(c, s, tr)}
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
                "text": delivery(c, d, tr),
                "article": c.articles.get(d.id, ""),
            }
            for d in c.deliveries
        },
        "inhabitants": {
            i.id: {**i.model_dump(), "article": c.articles.get(i.id, "")} for i in c.inhabitants
        },
        "homes": {h.id: h.model_dump() for h in c.homes},
    }
