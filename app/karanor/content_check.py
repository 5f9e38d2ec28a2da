"""The checks of a whole Karanor content pack once its files are parsed: ids unique,
references known, the map connected, and the base pack's component counts. The pack is
an `app.karanor.content.Content`, which imports this module (typed `Any` here: no cycle)."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from app.games.kit import ContentError


def base_counts(content: Any, folder: Path, want: dict[str, int], files: dict[str, str]) -> None:
    """The base pack's component list (`want`, each count read from `files[key]`)."""
    counts = content.counts()
    for key, n in want.items():
        if counts[key] != n:
            raise ContentError(f"{folder / files[key]}: {key}: {counts[key]} found, {n} expected")
    if sum(content.rules.supply.values()) != 105:
        raise ContentError(f"{folder / 'game.yaml'}: supply must hold 105 tokens")
    if not 30 <= counts["territories"] <= 45:
        raise ContentError(f"{folder / 'map.yaml'}: 30 to 45 territories expected")


def references(c: Any, folder: Path, files: dict[str, str], resources: tuple[str, ...]) -> None:  # noqa: C901 - one list of checks
    """Every id unique across the pack, every reference to a known id, the map connected."""

    def fail(file: str, entry: str, msg: str) -> None:
        raise ContentError(f"{folder / file}: entry {entry}: {msg}")

    ids: dict[str, str] = {}
    for part, file in files.items():
        if part in ("rules", "map"):
            continue
        for item in getattr(c, part):
            if item.id in ids:
                fail(file, item.id, f"id already used in {ids[item.id]}")
            ids[item.id] = file
    terr = c.territory
    if len(terr) != len(c.map.territories):
        fail("map.yaml", "territories", "duplicate territory id")
    for a, b in (*c.map.land, *c.map.sea_routes):
        for t in (a, b):
            if t not in terr:
                fail("map.yaml", f"{a}-{b}", f"unknown territory {t}")
    homes = {t for t in terr.values() if t.home}
    if any(t.kind != "city" for t in homes):
        fail("map.yaml", "home", "a home must be a city")

    def check_conditions(file: str, entry: str, conds: tuple[Any, ...]) -> None:
        for cond in conds:
            for t in (cond.at, *(cond.at_any or ())):
                if t is not None and t not in terr:
                    fail(file, entry, f"unknown territory {t}")
            if cond.badge and cond.badge not in c.badge:
                fail(file, entry, f"unknown badge {cond.badge}")

    def check_rewards(file: str, entry: str, rewards: tuple[Any, ...]) -> None:
        for r in rewards:
            for b in (r.badge, r.lose_badge):
                if b is not None and b not in c.badge:
                    fail(file, entry, f"unknown badge {b}")
            if r.teleport is not None and r.teleport != "home" and r.teleport not in terr:
                fail(file, entry, f"unknown territory {r.teleport}")

    def check_choice(file: str, entry: str, ch: Any) -> None:
        check_conditions(file, entry, ch.requires)
        check_rewards(file, entry, ch.reward)

    sequel_refs: dict[str, str] = {}
    for file, deck in (("quests.yaml", c.quests), ("sequels.yaml", c.sequels)):
        for q in deck:
            for ch in (*q.immediate, *q.complete):
                check_choice(file, q.id, ch)
            if q.place is not None and q.place not in terr:
                fail(file, q.id, f"unknown place {q.place}")
            if q.sequel:
                if q.sequel not in {s.id for s in c.sequels}:
                    fail(file, q.id, f"unknown sequel {q.sequel}")
                if q.sequel in sequel_refs:
                    fail(file, q.id, f"sequel {q.sequel} already follows {sequel_refs[q.sequel]}")
                sequel_refs[q.sequel] = q.id
    for s in c.sequels:
        if sequel_refs.get(s.id) is None:
            fail("sequels.yaml", s.id, "no quest leads to this sequel")
        if s.sequel_of is not None and s.sequel_of != sequel_refs[s.id]:
            fail(
                "sequels.yaml",
                s.id,
                f"sequel_of says {s.sequel_of}, {sequel_refs[s.id]} leads here",
            )
    for bm in c.black_market:
        check_conditions("black_market.yaml", bm.id, bm.requires)
        check_rewards("black_market.yaml", bm.id, bm.reward)
        for h in bm.hit:
            if h.give_badge is not None and h.give_badge not in c.badge:
                fail("black_market.yaml", bm.id, f"unknown badge {h.give_badge}")
    for biz in c.business:
        check_rewards("business.yaml", biz.id, biz.opening)
        if biz.bonus:
            check_rewards("business.yaml", biz.id, biz.bonus.reward)
    for art in c.artifacts:
        if art.activate:
            check_conditions("artifacts.yaml", art.id, art.activate.requires)
            check_rewards("artifacts.yaml", art.id, art.activate.reward)
    for story in c.stories:
        if story.badge is not None and story.badge not in c.badge:
            fail("stories.yaml", story.id, f"unknown badge {story.badge}")
    for home in c.homes:
        if home.city not in terr or not terr[home.city].home:
            fail("homes.yaml", home.id, f"{home.city} is not a home city of the map")
    for d in c.deliveries:
        if d.city not in c.cities:
            fail("deliveries.yaml", d.id, f"{d.city} is not a city")
    seen: set[str] = set()
    for i in c.inhabitants:
        if i.territory not in terr:
            fail("inhabitants.yaml", i.id, f"unknown territory {i.territory}")
        if i.territory in seen:
            fail("inhabitants.yaml", i.id, f"a second inhabitant on {i.territory}")
        seen.add(i.territory)
    if set(c.rules.supply) != set(resources):
        fail("game.yaml", "supply", "every resource needs a supply")
    if len(c.stories) < 6 or len(c.homes) < 6:
        fail("stories.yaml", "-", "at least 6 stories and 6 homes are needed for 6 players")
    # Every place a card names can be reached from every home city.
    named = {q.place for q in c.quest.values() if q.place}
    named |= {
        t
        for q in c.quest.values()
        for ch in (*q.immediate, *q.complete)
        for cond in ch.requires
        for t in (cond.at, *(cond.at_any or ()))
        if t
    }
    named |= {d.city for d in c.deliveries} | {i.territory for i in c.inhabitants}
    for home in c.homes:
        reach = _reachable(c, home.city)
        missing = sorted(named - reach)
        if missing:
            fail("map.yaml", home.city, f"cannot reach {', '.join(missing)}")


def _reachable(c: Any, start: str) -> set[str]:
    seen = {start}
    todo = deque([start])
    while todo:
        for n, _sea in c.neighbours[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen
