"""The cards, tiles and places the rulebook describes exist as it describes them."""

from __future__ import annotations

from collections import deque

from app.karanor.content import Content, Reward


def rewards(rs: tuple[Reward, ...]) -> list[dict[str, object]]:
    return [r.model_dump(exclude_none=True) for r in rs]


def test_campfire_sells_two_diamonds_for_8_gold_or_buys_an_artifact_for_10(
    base: Content,
) -> None:
    q = base.quest["campfire"]
    assert q.name == "Campfire"
    assert q.prestige >= 1  # "Prestige gained on completing the quest"
    assert q.place is not None  # "Card that helps you find the location in question"
    assert len(q.complete) == 2 and not q.immediate  # "choose between option 1 and option 2"
    sell, buy = q.complete
    assert dict(sell.cost.resources) == {"diamond": 2} and sell.cost.gold == 0
    assert rewards(sell.reward) == [{"gold": 8}]
    assert buy.cost.gold == 10 and not buy.cost.resources
    assert rewards(buy.reward) == [{"artifact": 1}]


def test_the_cemetery_in_two_parts(base: Content) -> None:
    first = base.quest["the_cemetery_1"]
    assert first.name == "The Cemetery 1/2"
    assert first.sequel == "the_cemetery_2"
    second = base.quest["the_cemetery_2"]
    assert second.name == "The Cemetery 2/2"
    assert second in base.sequels
    # "Immediate choice 1: Flee. Immediate choice 2: Push open the vault door. Take the
    # Salanche Curse badge (Movement -1, can no longer work) and receive an artifact."
    assert not second.complete
    flee, push = second.immediate
    assert flee.label == "Flee" and flee.reward == () and flee.cost.empty
    assert push.label == "Push open the vault door" and push.cost.empty
    assert rewards(push.reward) == [{"badge": "salanche_curse"}, {"artifact": 1}]
    curse = base.badge["salanche_curse"]
    assert curse.name == "Salanche Curse"
    assert curse.passive.move == -1 and curse.passive.no_work


def test_pickpocketing_takes_3_gold_from_a_player_on_your_territory(base: Content) -> None:
    card = base.black_market_card["pickpocketing"]
    assert card.name == "Pickpocketing"
    assert card.target == "same_territory"
    assert card.action == 0  # "Using a Black Market card costs no actions"
    assert card.when == "any_time"  # "even when it is not your turn"
    assert card.cost.empty and not card.requires and not card.reward
    assert [h.model_dump(exclude_none=True) for h in card.hit] == [{"steal_gold": 3}]


def test_popular_inn_with_stables(base: Content) -> None:
    card = base.business_card["popular_inn"]
    assert card.name == "Popular Inn"
    assert card.cost.gold == 6
    assert dict(card.cost.resources) == {"fruit": 1, "meat": 1, "cloth": 1}
    assert card.bonus is not None and card.bonus.name == "Stables"
    assert card.bonus.cost.gold == 3 and not card.bonus.cost.resources
    assert rewards(card.bonus.reward) == [{"badge": "mount"}]
    assert base.badge["mount"].passive.move == 1  # "Movement +1"
    assert rewards(card.opening) == [{"revenue": 1}, {"prestige": 1}]


def test_three_wood_to_the_cite_de_l_unisson(base: Content) -> None:
    matches = [
        d for d in base.deliveries if d.city == "cite_unisson" and dict(d.resources) == {"wood": 3}
    ]
    assert len(matches) == 1
    d = matches[0]
    assert (d.prestige, d.gold) == (1, 4)


def test_the_villa_of_the_tour_des_mages_costs_8_gold(base: Content) -> None:
    tour = base.territory["tour_des_mages"]
    assert tour.name == "Tour des Mages"
    assert tour.villa is not None
    assert base.villas[tour.villa.id] == "tour_des_mages"
    assert base.rules.villa_cost == 8


def test_the_cities_of_the_rulebook(base: Content) -> None:
    t = base.territory
    homes = {h.city for h in base.homes}
    for city, name in (
        ("kien", "Kien"),
        ("port_feral", "Port-Féral"),
        ("cite_unisson", "Cité de l'Unisson"),
    ):
        assert t[city].name == name
        assert t[city].kind == "city" and t[city].home
        assert city in homes
    # "the 6 home cities and the Perlance trading post"
    assert t["perlance"].name == "Perlance"
    assert t["perlance"].kind == "city" and not t["perlance"].home
    assert set(base.cities) == homes | {"perlance"}
    assert len(homes) == 6
    # Port-Féral and Perlance are ports: white dotted sea routes leave from them.
    sea = {x for pair in base.map.sea_routes for x in pair}
    assert {"port_feral", "perlance"} <= sea


def test_the_kien_example_story(base: Content) -> None:
    """Rulebook: "They receive a Wine resource token and a Wood resource token, plus 3 gold coins.
    They receive the Captain badge ... They place their revenue marker at 2"."""
    matches = [
        s
        for s in base.stories
        if s.gold == 3
        and dict(s.resources) == {"wine": 1, "wood": 1}
        and s.badge == "captain"
        and s.revenue == 2
    ]
    assert matches


def test_the_seven_resources_each_have_a_harvest_site(base: Content) -> None:
    sites = {t.resource for t in base.map.territories if t.resource}
    assert sites == {"wood", "ore", "cloth", "wine", "meat", "fruit", "diamond"}


def named_places(c: Content) -> dict[str, set[str]]:
    """Every territory a card or tile names, with who names it."""
    named: dict[str, set[str]] = {}

    def add(t: str | None, who: str) -> None:
        if t is not None and t != "home":
            named.setdefault(t, set()).add(who)

    def conditions(conds: tuple, who: str) -> None:  # type: ignore[type-arg]
        for cond in conds:
            add(cond.at, who)
            for t in cond.at_any or ():
                add(t, who)

    def teleports(rs: tuple[Reward, ...], who: str) -> None:
        for r in rs:
            add(r.teleport, who)

    for q in c.quest.values():
        add(q.place, q.id)
        for ch in (*q.immediate, *q.complete):
            conditions(ch.requires, q.id)
            teleports(ch.reward, q.id)
    for bm in c.black_market:
        conditions(bm.requires, bm.id)
        teleports(bm.reward, bm.id)
    for a in c.artifacts:
        if a.activate:
            conditions(a.activate.requires, a.id)
            teleports(a.activate.reward, a.id)
    for d in c.deliveries:
        add(d.city, d.id)
    for i in c.inhabitants:
        add(i.territory, i.id)
    for villa, t in c.villas.items():
        add(t, villa)
    for h in c.homes:
        add(h.city, h.id)
    return named


def test_every_named_place_exists_and_is_reachable_from_every_home(base: Content) -> None:
    named = named_places(base)
    assert set(named) <= set(base.territory), set(named) - set(base.territory)
    for home in base.homes:
        seen = {home.city}
        todo = deque([home.city])
        while todo:
            for n, _sea in base.neighbours[todo.popleft()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        missing = {t: sorted(named[t]) for t in named if t not in seen}
        assert not missing, f"from {home.city}: {missing}"
