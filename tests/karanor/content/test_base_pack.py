"""The base pack loads, with the rulebook's component counts, and `karanor content` says so."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from app import cli
from app.karanor.content import BASE_COUNTS, Content, load_pack

# "Components" in shared/rules/merchants-of-karanor-rulebook.txt
RULEBOOK_COMPONENTS = {
    "quests": 50,
    "quest_sequels": 8,
    "black_market": 22,
    "business": 34,
    "badges": 30,
    "artifacts": 14,
    "story": 10,
    "home_cities": 6,
    "deliveries": 7,
    "inhabitants": 21,
}


def test_base_pack_has_the_rulebook_component_counts(base: Content) -> None:
    """Components: the rulebook's counts of every deck and tile (R5: the 105 resource tokens
    are 16 of each common resource and 9 diamonds; R8: 48 business pawns, 8 a colour)."""
    counts = base.counts()
    for key, want in RULEBOOK_COMPONENTS.items():
        assert counts[key] == want, key
    assert counts["cities"] == 7  # the 6 home cities and the Perlance trading post
    assert {k: counts[k] for k in BASE_COUNTS} == BASE_COUNTS
    assert sum(base.rules.supply.values()) == 105  # 105 resource tokens
    assert base.rules.supply == {**dict.fromkeys(base.rules.partners, 16), "diamond": 9}
    assert len(base.rules.partners) == 6  # 6 partner tiles, one per resource but diamond
    assert "diamond" not in base.rules.partners
    assert base.rules.pawns_per_player * 6 == 48  # 48 business pawns


def test_content_cli_prints_the_counts_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["content"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    counts = json.loads(last)
    for key, want in RULEBOOK_COMPONENTS.items():
        assert counts[key] == want, key
    assert counts["cities"] == 7


def test_content_cli_reports_a_broken_pack(
    capsys: pytest.CaptureFixture[str], pack_copy: Any
) -> None:
    pack = pack_copy("base")
    pack.edit("quests.yaml", lambda d: d["quests"].pop())
    assert cli.main(["content", str(pack.folder)]) == 1
    err = capsys.readouterr().err
    assert "quests: 49 found, 50 expected" in err


def test_mini_pack_loads_without_the_base_counts() -> None:
    mini = load_pack("mini")
    assert mini.counts()["quests"] < 50


def test_ids_are_unique_across_the_pack(base: Content) -> None:
    ids = Counter(
        x.id
        for deck in (
            base.quests,
            base.sequels,
            base.black_market,
            base.business,
            base.badges,
            base.artifacts,
            base.stories,
            base.homes,
            base.deliveries,
            base.inhabitants,
        )
        for x in deck
    )
    assert [i for i, n in ids.items() if n > 1] == []


def test_sequels_are_named_one_of_two_and_two_of_two(base: Content) -> None:
    seq = {s.id: s for s in base.sequels}
    firsts = [q for q in base.quests if q.sequel]
    assert len(firsts) == len(base.sequels) == 8
    for q in firsts:
        assert q.name.endswith(" 1/2"), q.name
        second = seq[q.sequel]  # type: ignore[index]
        assert second.name == q.name.removesuffix(" 1/2") + " 2/2"
        assert second.sequel_of == q.id
    for q in base.quests:
        if not q.sequel:
            assert not q.name.endswith(("1/2", "2/2")), q.name


def _badges_awarded(c: Content) -> Counter[str]:
    """How many cards and tiles can hand out each badge (each counted once)."""
    awards: Counter[str] = Counter()

    def from_rewards(rewards: Any) -> set[str]:
        return {r.badge for r in rewards if r.badge}

    for q in c.quest.values():
        got: set[str] = set()
        for ch in (*q.immediate, *q.complete):
            got |= from_rewards(ch.reward)
        awards.update(got)
    for b in c.business:
        got = from_rewards(b.opening) | (from_rewards(b.bonus.reward) if b.bonus else set())
        awards.update(got)
    for bm in c.black_market:
        awards.update(from_rewards(bm.reward) | {h.give_badge for h in bm.hit if h.give_badge})
    for a in c.artifacts:
        if a.activate:
            awards.update(from_rewards(a.activate.reward))
    return awards


def test_badge_tiles_cover_every_card_that_awards_them(base: Content) -> None:
    awarded = _badges_awarded(base)
    awarded.update(s.badge for s in base.stories if s.badge)  # story tiles hand them out too
    tiles = {b.id: b.count for b in base.badges}
    for badge, cards in awarded.items():
        assert tiles[badge] >= cards, (
            f"{badge}: {tiles[badge]} tiles, {cards} cards and stories award it"
        )
    assert sum(tiles.values()) == 30


@pytest.mark.parametrize("deck", ["quests", "black_market", "artifacts"])
def test_some_cards_are_for_four_players_or_more(base: Content, deck: str) -> None:
    """Rulebook: "Some Quest, Black Market or Artifact cards bear the mention 4+"."""
    cards = getattr(base, deck)
    assert any(x.four_plus for x in cards)
    assert not all(x.four_plus for x in cards)
