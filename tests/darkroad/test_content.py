"""The Dark Road content pack: the rulebook's component counts, validation, broken packs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from app.darkroad.content import PACKS_DIR, ContentError, counts, load, load_dir, orientations


def test_counts_match_the_component_list() -> None:
    """Rulebook "Game Components": 48 hero cards, 22 companion cards, 7 steed cards, 19 deed
    cards, 26 event cards, 30 commission tiles, 5 double-sided building tiles (10 buildings),
    6 wagon upgrade tiles."""
    assert counts(load()) == {
        "heroes": 48,
        "companions": 22,
        "steeds": 7,
        "deeds": 19,
        "events": 26,
        "commissions": 30,
        "buildings": 10,
        "upgrades": 6,
    }


def test_decks_are_split_as_the_setup_describes() -> None:
    """Setup 5: "Separate the commissions into 6 stacks, based on the names of the outlying
    towns"; 7: "Separate the event cards into 2 decks"; 11: starting and normal heroes."""
    c = load()
    for t in c.towns:
        assert sum(1 for k in c.commissions if k.town == t) == 5
    assert sum(1 for e in c.events if e.deck == "dark_road") == 13
    assert sum(1 for e in c.events if e.deck == "shortcut") == 13
    assert 4 <= sum(1 for h in c.heroes if h.starting) < 48
    assert {k.kind for k in c.upgrades} == {
        "slot1",
        "slot2",
        "slot3",
        "storage",
        "lantern",
        "inventory",
    }


def test_named_components_keep_the_rulebook_effects() -> None:
    """Component Explanations: the ten buildings, the seven steeds and the named companions
    (Cave Dragon ... Threy Cat; Grace, Flicker, Cosimo, Li'l Dumplin')."""
    c = load()
    assert {b.name for b in c.buildings} >= {"Blazing Quartz Mine", "Yedl's Workshop"}
    assert {s.name for s in c.steeds} == {
        "Brembizánt",
        "Longshadow",
        "Lovebug",
        "Sugarfoot",
        "Velvet",
        "Whisper",
        "Woolsworth",
    }
    strays = {x.name: x for x in c.companions if x.kind == "stray"}
    assert set(strays) == {"Grace", "Flicker", "Cosimo", "Li'l Dumplin'"}
    assert strays["Grace"].gift == "potion" and strays["Cosimo"].gift == "hero"
    assert strays["Li'l Dumplin'"].gift == "horseshoe" and strays["Flicker"].gift == "quartz"
    species = {x.species for x in c.companions if x.kind == "loyal"}
    assert species == {"cave_dragon", "ice_mouse", "phoenix", "raven", "snow_bee", "threy_cat"}
    assert c.first_game == ("quartz_mine", "oracle", "lanternworks", "workshop")


def test_shapes_have_all_their_orientations() -> None:
    """Wagon Overview: "You may store your goods in any orientation" (ruling R6)."""
    assert len(orientations(((0, 0), (1, 0)))) == 2
    assert len(orientations(((0, 0), (1, 0), (0, 1), (1, 1)))) == 1
    assert len(orientations(((0, 0), (1, 0), (2, 0), (2, 1)))) == 8


def _broken(tmp_path: Path, file: str, edit) -> Path:  # type: ignore[no-untyped-def]
    pack = tmp_path / "broken"
    shutil.copytree(PACKS_DIR / "base", pack)
    data = yaml.safe_load((pack / file).read_text())
    edit(data)
    (pack / file).write_text(yaml.safe_dump(data))
    return pack


def test_a_broken_entry_names_its_file_and_entry(tmp_path: Path) -> None:
    """A broken pack fails at load naming the file and the entry (issue: "A broken pack
    names the file and entry at load")."""

    def edit(d):  # type: ignore[no-untyped-def]
        d["heroes"][3]["bonus"] = "dragon"

    with pytest.raises(ContentError) as e:
        load_dir(_broken(tmp_path, "heroes.yaml", edit))
    msg = str(e.value)
    assert "heroes.yaml" in msg and "heroes[3]" in msg


def test_an_unknown_good_is_refused(tmp_path: Path) -> None:
    def edit(d):  # type: ignore[no-untyped-def]
        d["commissions"][0]["requests"] = ["weapon", "armor", "cheese"]

    with pytest.raises(ContentError, match=r"commissions.yaml: commissions \(id northbreak_1\)"):
        load_dir(_broken(tmp_path, "commissions.yaml", edit))


def test_the_base_pack_must_keep_its_counts(tmp_path: Path) -> None:
    def edit(d):  # type: ignore[no-untyped-def]
        d["deeds"].pop()

    pack = _broken(tmp_path, "deeds.yaml", edit)
    with pytest.raises(ContentError, match="deeds.yaml: deeds: 18 entries"):
        load_dir(pack, "base")


def test_an_event_maps_every_face(tmp_path: Path) -> None:
    def edit(d):  # type: ignore[no-untyped-def]
        del d["events"][5]["faces"]["6"]

    with pytest.raises(ContentError, match=r"events.yaml: events\[5\]"):
        load_dir(_broken(tmp_path, "events.yaml", edit))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    shutil.copytree(PACKS_DIR / "base", pack)
    (pack / "steeds.yaml").unlink()
    with pytest.raises(ContentError, match="steeds.yaml"):
        load_dir(pack)
