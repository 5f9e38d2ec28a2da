"""A broken pack stops loading with a ContentError naming the file and the entry."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.karanor.content import ContentError, load_pack


def fails(pack: Any, *fragments: str) -> str:
    with pytest.raises(ContentError) as info:
        load_pack(pack.folder)
    msg = str(info.value)
    for f in fragments:
        assert f in msg, f"{f!r} not in {msg!r}"
    return msg


@pytest.mark.parametrize("name", ["base", "mini"])
def test_a_clean_copy_loads(pack_copy: Any, name: str) -> None:
    pack = pack_copy(name)
    assert load_pack(pack.folder).name == name


def test_unknown_key_in_a_quest(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("quests.yaml", lambda d: pack.entry(d, "quests", "campfire").update(colour="red"))
    fails(pack, "quests.yaml", "entry campfire", "colour", "Extra inputs are not permitted")


def test_unknown_key_in_a_business_bonus(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "business.yaml",
        lambda d: pack.entry(d, "business", "popular_inn")["bonus"].update(stables=True),
    )
    fails(pack, "business.yaml", "entry popular_inn", "stables")


def test_unknown_key_in_a_reward(pack_copy: Any) -> None:
    pack = pack_copy("mini")
    pack.edit(
        "quests.yaml",
        lambda d: pack.entry(d, "quests", "campfire")["complete"][0]["reward"].append({"glory": 1}),
    )
    fails(pack, "quests.yaml", "entry campfire", "glory")


def test_unknown_territory_in_a_condition(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "quests.yaml",
        lambda d: pack.entry(d, "quests", "campfire")["complete"][0].update(
            requires=[{"at": "atlantis"}]
        ),
    )
    fails(pack, "quests.yaml", "entry campfire", "unknown territory atlantis")


def test_unknown_place_of_a_quest(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("quests.yaml", lambda d: pack.entry(d, "quests", "blue_chasm").update(place="oz"))
    fails(pack, "quests.yaml", "entry blue_chasm", "unknown place oz")


def test_unknown_delivery_city(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "deliveries.yaml",
        lambda d: pack.entry(d, "deliveries", "wood_to_unisson").update(city="velmar"),
    )
    fails(pack, "deliveries.yaml", "entry wood_to_unisson", "velmar is not a city")


def test_unknown_badge_in_a_reward(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "business.yaml",
        lambda d: pack.entry(d, "business", "popular_inn")["bonus"].update(
            reward=[{"badge": "unicorn"}]
        ),
    )
    fails(pack, "business.yaml", "entry popular_inn", "unknown badge unicorn")


def test_unknown_badge_in_a_story(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("stories.yaml", lambda d: pack.entry(d, "stories", "exiled_heir").update(badge="x"))
    fails(pack, "stories.yaml", "entry exiled_heir", "unknown badge x")


def test_unknown_sequel(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "quests.yaml",
        lambda d: pack.entry(d, "quests", "the_cemetery_1").update(sequel="the_cemetery_3"),
    )
    fails(pack, "quests.yaml", "entry the_cemetery_1", "unknown sequel the_cemetery_3")


def test_a_sequel_no_quest_leads_to(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("quests.yaml", lambda d: pack.entry(d, "quests", "the_cemetery_1").pop("sequel"))
    fails(pack, "sequels.yaml", "entry the_cemetery_2", "no quest leads to this sequel")


def test_wrong_count_of_a_deck(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("black_market.yaml", lambda d: d["black_market"].pop())
    fails(pack, str(pack.folder), "black_market: 21 found, 22 expected")


def test_wrong_count_of_badge_tiles(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("badges.yaml", lambda d: pack.entry(d, "badges", "mount").update(count=8))
    fails(pack, "badges: 31 found, 30 expected")


def test_wrong_supply(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("game.yaml", lambda d: d["supply"].update(diamond=10))
    fails(pack, "game.yaml", "105")


def test_unreachable_place(pack_copy: Any) -> None:
    """Cut the Gouffre Azur (the diamond chasm of The Blue Chasm) off the map."""
    pack = pack_copy("base")

    def cut(d: Any) -> None:
        d["land"] = [pair for pair in d["land"] if "gouffre_azur" not in pair]
        d["sea_routes"] = [pair for pair in d["sea_routes"] if "gouffre_azur" not in pair]

    pack.edit("map.yaml", cut)
    msg = fails(pack, "map.yaml", "cannot reach", "gouffre_azur")
    assert re.search(r"entry (kien|port_feral|cite_unisson|valbrume|orsenne|hautegarde)", msg)


def test_unknown_territory_in_the_map(pack_copy: Any) -> None:
    pack = pack_copy("mini")
    pack.edit("map.yaml", lambda d: d["land"].append(["hub", "narnia"]))
    fails(pack, "map.yaml", "unknown territory narnia")


def test_duplicate_id_across_files(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit("business.yaml", lambda d: pack.entry(d, "business", "sawmill").update(id="campfire"))
    fails(pack, "entry campfire", "id already used in quests.yaml")


def test_duplicate_id_in_one_file(pack_copy: Any) -> None:
    pack = pack_copy("base")

    def dup(d: Any) -> None:
        d["artifacts"].append(dict(pack.entry(d, "artifacts", "hammer_of_karn")))

    pack.edit("artifacts.yaml", dup)
    fails(pack, "artifacts.yaml", "entry hammer_of_karn", "id already used")


def test_duplicate_inhabitant_territory(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "inhabitants.yaml",
        lambda d: pack.entry(d, "inhabitants", "old_mirren").update(territory="bois_de_lune"),
    )
    fails(pack, "inhabitants.yaml", "entry old_mirren", "second inhabitant on bois_de_lune")


def test_invalid_yaml(pack_copy: Any) -> None:
    pack = pack_copy("base")
    path = pack.folder / "black_market.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n  - id: [unclosed\n", encoding="utf-8")
    fails(pack, "black_market.yaml", "not valid YAML")


def test_missing_file(pack_copy: Any) -> None:
    pack = pack_copy("mini")
    (pack.folder / "sequels.yaml").unlink()
    fails(pack, "sequels.yaml", "file missing")


def test_bad_value_in_an_entry(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "black_market.yaml",
        lambda d: pack.entry(d, "black_market", "pickpocketing").update(target="everyone"),
    )
    fails(pack, "black_market.yaml", "entry pickpocketing", "target")


def test_a_resource_that_does_not_exist(pack_copy: Any) -> None:
    pack = pack_copy("base")
    pack.edit(
        "business.yaml",
        lambda d: pack.entry(d, "business", "sawmill")["cost"]["resources"].update(spice=1),
    )
    fails(pack, "business.yaml", "entry sawmill", "spice")
