"""Every card's generated rules text names its key numbers, so text and data agree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.karanor import texts
from app.karanor.content import Bundle, Content, Reward, load


def bundle_phrases(b: Bundle) -> Iterator[str]:
    if b.gold:
        yield f"{b.gold} gold"
    for r, n in b.resources.items():
        yield f"{n} {r}"


def reward_phrases(rs: tuple[Reward, ...]) -> Iterator[str]:
    for r in rs:
        if r.gold is not None:
            yield f"gain {r.gold} gold"
        elif r.prestige is not None:
            yield f"{abs(r.prestige)} prestige"
        elif r.revenue is not None:
            yield f"revenue {r.revenue:+d}"
        elif r.resources is not None:
            for res, n in r.resources.items():
                yield f"{n} {res}"
        elif r.extra_actions is not None:
            yield f"{r.extra_actions} extra action"
        elif r.artifact is not None:
            yield "artifact"
        elif r.quest is not None:
            yield f"draw {r.quest} quest"
        elif r.black_market is not None:
            yield f"draw {r.black_market} black-market card"


def choice_phrases(ch: Any) -> Iterator[str]:
    yield from bundle_phrases(ch.cost)
    yield from reward_phrases(ch.reward)
    for cond in ch.requires:
        if cond.has is not None:
            yield from bundle_phrases(cond.has)
        for key in ("min_businesses", "min_villas", "min_partners", "min_artifacts"):
            if getattr(cond, key) is not None:
                yield f"at least {getattr(cond, key)} "


CASES: list[tuple[str, str, list[str]]] = []


def _cases(c: Content) -> list[tuple[str, str, list[str]]]:
    out = []
    for q in c.quest.values():
        want = [p for ch in (*q.immediate, *q.complete) for p in choice_phrases(ch)]
        if q.prestige:
            want.append(f"On completion: {q.prestige} prestige")
        out.append(("quests", q.id, want))
    for bm in c.black_market:
        want = list(bundle_phrases(bm.cost)) + list(reward_phrases(bm.reward))
        for h in bm.hit:
            n = next(v for v in h.model_dump(exclude_none=True).values())
            if not isinstance(n, bool) and isinstance(n, int):
                want.append(str(n))
        if bm.action:
            want.append("1 action")
        out.append(("black_market", bm.id, want))
    for b in c.business:
        want = list(bundle_phrases(b.cost)) + list(reward_phrases(b.opening))
        if b.bonus:
            want += [b.bonus.name, *bundle_phrases(b.bonus.cost), *reward_phrases(b.bonus.reward)]
        out.append(("business", b.id, want))
    for a in c.artifacts:
        want = []
        if a.activate:
            want += list(bundle_phrases(a.activate.cost)) + list(reward_phrases(a.activate.reward))
            want.append(f"Once per {a.activate.once_per}")
        for v in a.passive.model_dump().values():
            if v and not isinstance(v, bool):
                want.append(str(abs(v)))
        out.append(("artifacts", a.id, want))
    for d in c.deliveries:
        want = [f"{d.gold} gold", f"{d.prestige} prestige", c.territory[d.city].name]
        want += [f"{n} {r}" for r, n in d.resources.items()]
        out.append(("deliveries", d.id, want))
    for s in c.stories:
        want = [f"{s.gold} gold", f"revenue {s.revenue}"]
        want += [f"{n} {r}" for r, n in s.resources.items()]
        out.append(("stories", s.id, want))
    return out


BASE = load("base")


@pytest.mark.parametrize(
    ("deck", "card", "phrases"), _cases(BASE), ids=[f"{d}:{i}" for d, i, _ in _cases(BASE)]
)
def test_text_mentions_the_numbers(deck: str, card: str, phrases: list[str]) -> None:
    text = texts.catalogue(BASE)[deck][card]["text"]
    for phrase in phrases:
        assert phrase.lower() in text.lower(), f"{deck} {card}: {phrase!r} missing from {text!r}"


def test_catalogue_numbers_match_the_data(base: Content) -> None:
    cat = texts.catalogue(base)
    for q in base.quest.values():
        assert cat["quests"][q.id]["prestige"] == q.prestige
        assert cat["quests"][q.id]["name"] == q.name
    for b in base.business:
        assert cat["business"][b.id]["cost"] == b.cost.model_dump()
    for d in base.deliveries:
        entry = cat["deliveries"][d.id]
        assert (entry["gold"], entry["prestige"]) == (d.gold, d.prestige)
    for b in base.badges:
        assert cat["badges"][b.id]["count"] == b.count
    for deck in ("quests", "black_market", "business", "artifacts", "badges"):
        assert all(entry["text"] for entry in cat[deck].values()) or deck == "badges"


def test_every_card_has_flavour(base: Content) -> None:
    for deck in (base.quests, base.sequels, base.black_market, base.business, base.artifacts):
        for x in deck:
            assert x.flavour.strip(), x.id
