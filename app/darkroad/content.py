"""The Dark Road's content: board data and every deck, read from a pack of YAML files.

Each file is validated by a pydantic schema (unknown keys are errors), then the pack is
checked as a whole (references between files; for the base pack, the rulebook's component
counts). A broken pack raises `ContentError` naming the file and the entry.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.games.kit.content import articles, read_texts, translate

PACKS_DIR = Path(__file__).parent / "content"
Id = Annotated[str, Field(pattern=r"^[a-z0-9_]+$", max_length=48)]
Cell = tuple[int, int]

COUNTS = {
    "heroes": 48,
    "companions": 22,
    "steeds": 7,
    "deeds": 19,
    "events": 26,
    "commissions": 30,
    "buildings": 10,
    "upgrades": 6,
}
HERO_TYPES = ("knight", "skirmisher", "alchemist", "bard", "wizard", "loremaster")
LOYAL_ABILITIES = (
    "deliver_hero",
    "gain_commission",
    "two_lanterns",
    "illuminated_die",
    "gain_hero",
    "twin_travel_die",
    "harbor_good",
    "basic_good",
    "ruins_step",
    "oracle",
    "craft_upgraded",
    "travel_boost",
)
STRAY_ABILITIES = ("deed", "free_shortcut", "upgrade_or_dark_market", "ruins_die")
BUILDINGS = (
    "quartz_mine",
    "surveyor",
    "icebreaker_harbor",
    "guildhall",
    "oracle",
    "candle_quartz",
    "lanternworks",
    "mansion",
    "workshop",
    "filigree",
)
STEEDS = (
    "bazaar_discount",
    "any_building",
    "excursion_lantern",
    "move_three",
    "many_upgrades",
    "travel_plus_one",
    "commission_quartz",
)
MEASURES = (
    "full_commissions",
    "commissions_delivered",
    "heroes_delivered",
    "region_north",
    "region_west",
    "region_east",
    "towns_delivered",
    "quartz_held",
    "lanterns_held",
    "horseshoes_held",
    "upgraded_stored",
    "goods_stored",
    "loyal_gifts",
    "companions",
    "upgraded_delivered",
    "wagon_upgrades",
    "illuminated_held",
)
RUINS_FACES = ("again", "illuminated", "cheap_good", "quartz", "two_coins", "hero")


class ContentError(ValueError):
    """A content pack is broken: the message names the file and the entry."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Model):
    """One gain or cost; exactly one key (with `upgraded` beside a good)."""

    coins: Annotated[int, Field(ge=-5, le=10)] | None = None
    prestige: Annotated[int, Field(ge=-5, le=10)] | None = None
    lanterns: Annotated[int, Field(ge=-3, le=3)] | None = None
    quartz: Annotated[int, Field(ge=-3, le=3)] | None = None
    horseshoes: Annotated[int, Field(ge=-3, le=3)] | None = None
    good: Id | None = None
    any_good: bool | None = None
    cheap_good: bool | None = None
    lose_good: bool | None = None
    illuminated: bool | None = None
    upgraded: bool = False

    @model_validator(mode="after")
    def _one(self) -> Effect:
        keys = self.model_fields_set - {"upgraded"}
        if len(keys) != 1:
            raise ValueError("an effect has exactly one key (plus `upgraded` for goods)")
        if "upgraded" in self.model_fields_set and not (self.good or self.any_good):
            raise ValueError("`upgraded` goes only with `good` or `any_good`")
        return self


class Good(_Model):
    id: Id
    name: str = Field(min_length=1, max_length=40)
    shape: tuple[Cell, ...] = Field(min_length=1, max_length=6)


class Town(_Model):
    id: Id
    name: str
    region: Literal["north", "west", "east"]
    hero_type: Literal["knight", "skirmisher", "alchemist", "bard", "wizard", "loremaster"]


class Space(_Model):
    space: Id
    goods: tuple[Id, ...] = ()


class Area(_Model):
    width: Annotated[int, Field(ge=1, le=10)]
    height: Annotated[int, Field(ge=1, le=10)]


class Board(_Model):
    goods: tuple[Good, ...] = Field(min_length=6, max_length=6)
    goods_per_type: Annotated[int, Field(ge=1, le=30)]
    grid: Area
    saddle_bag: Area
    storage_tile_shape: tuple[Cell, ...]
    wheel_values: tuple[int, ...] = Field(min_length=6, max_length=6)
    crafting: dict[int, Id]
    night_faces: tuple[int, ...] = Field(min_length=6, max_length=6)
    illuminated_faces: tuple[int, ...] = Field(min_length=6, max_length=6)
    travel_faces: tuple[int, ...] = Field(min_length=6, max_length=6)
    towns: tuple[Town, ...] = Field(min_length=6, max_length=6)
    region_benefits: dict[Literal["north", "west", "east"], tuple[Effect, ...]]
    ringway: tuple[Literal["bazaar", "commissions", "dark_market", "excursions", "inn"], ...]
    dark_market: tuple[Space, ...] = Field(min_length=4, max_length=4)
    ruins: tuple[Space, ...] = Field(min_length=4, max_length=4)
    ruins_die: tuple[Literal[RUINS_FACES], ...] = Field(min_length=6, max_length=6)  # type: ignore[valid-type]
    oracle_die: tuple[tuple[Effect, ...], ...] = Field(min_length=6, max_length=6)
    supply: dict[Literal["lanterns", "quartz", "horseshoes", "illuminated", "travel", "night"], int]
    fortune_coins: int = 5


class Hero(_Model):
    id: Id
    name: str = Field(min_length=1, max_length=60)
    type: Literal["knight", "skirmisher", "alchemist", "bard", "wizard", "loremaster"]
    starting: bool = False
    requests: tuple[Id, ...] = Field(min_length=1, max_length=3)
    bonus: Literal["lantern", "horseshoe", "storage", "none"] = "none"
    flavour: str = Field(default="", max_length=240)


class Companion(_Model):
    id: Id
    name: str = Field(min_length=1, max_length=60)
    species: Id
    kind: Literal["loyal", "stray"]
    abilities: tuple[str, ...] = Field(min_length=1, max_length=3)
    gift: Literal["quartz", "potion", "hero", "horseshoe"] = "quartz"
    flavour: str = Field(default="", max_length=240)

    @model_validator(mode="after")
    def _abilities(self) -> Companion:
        known = LOYAL_ABILITIES if self.kind == "loyal" else STRAY_ABILITIES
        for a in self.abilities:
            if a not in known:
                raise ValueError(f"unknown {self.kind} ability {a!r}")
        if self.kind == "stray" and len(self.abilities) != 1:
            raise ValueError("a stray companion has exactly one ability")
        if self.kind == "loyal" and self.gift != "quartz":
            raise ValueError("a loyal companion's gift is a blazing quartz")
        return self


class Steed(_Model):
    id: Id
    name: str
    ability: Literal[STEEDS]  # type: ignore[valid-type]
    flavour: str = Field(default="", max_length=240)


class Deed(_Model):
    id: Id
    name: str
    measure: Literal[MEASURES]  # type: ignore[valid-type]
    threshold: Annotated[int, Field(ge=0, le=20)] = 0
    reward: Literal["coins", "prestige", "vp"]
    amount: Annotated[int, Field(ge=1, le=20)]
    per: bool = False
    text: str = ""


class Event(_Model):
    id: Id
    deck: Literal["dark_road", "shortcut"]
    name: str
    flavour: str = Field(default="", max_length=300)
    faces: dict[int, tuple[Effect, ...]]

    @model_validator(mode="after")
    def _faces(self) -> Event:
        if sorted(self.faces) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("an event maps each travel-die face 1 to 6")
        return self


class Commission(_Model):
    id: Id
    town: Id
    name: str = ""
    requests: tuple[Id, ...] = Field(min_length=3, max_length=3)


class Building(_Model):
    id: Literal[BUILDINGS]  # type: ignore[valid-type]
    name: str
    text: str = ""


class Upgrade(_Model):
    id: Id
    name: str
    kind: Literal["slot1", "slot2", "slot3", "storage", "lantern", "inventory"]
    text: str = ""


# --- files -------------------------------------------------------------------------


class HeroesFile(_Model):
    heroes: tuple[Hero, ...]


class CompanionsFile(_Model):
    companions: tuple[Companion, ...]


class SteedsFile(_Model):
    steeds: tuple[Steed, ...]


class DeedsFile(_Model):
    deeds: tuple[Deed, ...]
    banners: tuple[Effect, Effect]


class EventsFile(_Model):
    events: tuple[Event, ...]


class CommissionsFile(_Model):
    commissions: tuple[Commission, ...]


class BuildingsFile(_Model):
    buildings: tuple[Building, ...]
    first_game: tuple[Id, Id, Id, Id]


class UpgradesFile(_Model):
    upgrades: tuple[Upgrade, ...]


FILES: dict[str, type[_Model]] = {
    "game.yaml": Board,
    "heroes.yaml": HeroesFile,
    "companions.yaml": CompanionsFile,
    "steeds.yaml": SteedsFile,
    "deeds.yaml": DeedsFile,
    "events.yaml": EventsFile,
    "commissions.yaml": CommissionsFile,
    "buildings.yaml": BuildingsFile,
    "upgrades.yaml": UpgradesFile,
}


def orientations(shape: tuple[Cell, ...]) -> tuple[tuple[Cell, ...], ...]:
    """The distinct rotations and mirror images of a shape, each normalised to (0, 0);
    orientation 0 is the shape as written."""
    out: list[tuple[Cell, ...]] = []
    for flip in (False, True):
        cur = [(-x, y) for x, y in shape] if flip else list(shape)
        for _ in range(4):
            mx = min(x for x, _ in cur)
            my = min(y for _, y in cur)
            norm = tuple(sorted((x - mx, y - my) for x, y in cur))
            if norm not in out:
                out.append(norm)
            cur = [(-y, x) for x, y in cur]
    return tuple(out)


class Content:
    """A validated pack with the lookup tables the engine uses."""

    def __init__(self, name: str, parts: dict[str, Any]) -> None:
        self.name = name
        self.lang = "en"
        self.articles: dict[str, str] = {}  # entry id -> its article in `lang`
        self.board: Board = parts["game.yaml"]
        self.heroes: tuple[Hero, ...] = parts["heroes.yaml"].heroes
        self.companions: tuple[Companion, ...] = parts["companions.yaml"].companions
        self.steeds: tuple[Steed, ...] = parts["steeds.yaml"].steeds
        self.deeds: tuple[Deed, ...] = parts["deeds.yaml"].deeds
        self.banners: tuple[Effect, Effect] = parts["deeds.yaml"].banners
        self.events: tuple[Event, ...] = parts["events.yaml"].events
        self.commissions: tuple[Commission, ...] = parts["commissions.yaml"].commissions
        self.buildings: tuple[Building, ...] = parts["buildings.yaml"].buildings
        self.first_game: tuple[str, ...] = parts["buildings.yaml"].first_game
        self.upgrades: tuple[Upgrade, ...] = parts["upgrades.yaml"].upgrades
        b = self.board
        self.goods: tuple[str, ...] = tuple(g.id for g in b.goods)
        self.good_index = {g: i for i, g in enumerate(self.goods)}
        self.shapes: dict[str, tuple[tuple[Cell, ...], ...]] = {
            g.id: orientations(g.shape) for g in b.goods
        }
        self.shapes["upgrade"] = orientations(b.storage_tile_shape)
        self.size: dict[str, int] = {g: len(o[0]) for g, o in self.shapes.items()}
        self.towns: tuple[str, ...] = tuple(t.id for t in b.towns)
        self.town = {t.id: t for t in b.towns}
        self.hero = {h.id: h for h in self.heroes}
        self.companion = {x.id: x for x in self.companions}
        self.steed = {x.id: x for x in self.steeds}
        self.deed = {x.id: x for x in self.deeds}
        self.event = {x.id: x for x in self.events}
        self.commission = {x.id: x for x in self.commissions}
        self.building = {x.id: x for x in self.buildings}
        self.upgrade = {x.id: x for x in self.upgrades}
        self.hero_town = {t.hero_type: t.id for t in b.towns}

    def twin(self, town: str) -> str:
        """The other town of `town`'s region."""
        region = self.town[town].region
        return next(t for t in self.towns if t != town and self.town[t].region == region)


def _fail(file: str, entry: str, why: str) -> ContentError:
    return ContentError(f"{file}: {entry}: {why}")


def _entry_of(data: Any, loc: tuple[Any, ...]) -> str:
    """Name the entry a pydantic error points at (`heroes[3] (id aldric)`)."""
    cur = data
    name = ""
    for part in loc:
        try:
            cur = cur[part]
        except (KeyError, IndexError, TypeError):
            break
        name += f"[{part}]" if isinstance(part, int) else f".{part}"
        if isinstance(cur, dict) and "id" in cur:
            name += f" (id {cur['id']})"
    return name.lstrip(".") or "(top)"


def _check_pack(name: str, c: Content) -> None:
    goods = set(c.goods)
    towns = set(c.towns)
    ids: set[str] = set()
    groups: list[tuple[str, str, tuple[Any, ...]]] = [
        ("heroes.yaml", "heroes", c.heroes),
        ("companions.yaml", "companions", c.companions),
        ("steeds.yaml", "steeds", c.steeds),
        ("deeds.yaml", "deeds", c.deeds),
        ("events.yaml", "events", c.events),
        ("commissions.yaml", "commissions", c.commissions),
        ("buildings.yaml", "buildings", c.buildings),
        ("upgrades.yaml", "upgrades", c.upgrades),
    ]
    for file, key, items in groups:
        seen: set[str] = set()
        for x in items:
            if x.id in seen:
                raise _fail(file, f"{key} (id {x.id})", "duplicate id")
            seen.add(x.id)
        ids |= seen
    for h in c.heroes:
        for g in h.requests:
            if g not in goods:
                raise _fail("heroes.yaml", f"heroes (id {h.id})", f"unknown good {g!r}")
    for k in c.commissions:
        if k.town not in towns:
            raise _fail("commissions.yaml", f"commissions (id {k.id})", f"unknown town {k.town!r}")
        for g in k.requests:
            if g not in goods:
                raise _fail("commissions.yaml", f"commissions (id {k.id})", f"unknown good {g!r}")
    for e in c.events:
        for face, effects in e.faces.items():
            for f in effects:
                if f.good and f.good not in goods:
                    raise _fail("events.yaml", f"events (id {e.id}) face {face}", "unknown good")
    for b in c.first_game:
        if b not in c.building:
            raise _fail("buildings.yaml", "first_game", f"unknown building {b!r}")
    bd = c.board
    if sorted(bd.crafting) != sorted(bd.night_faces) or any(
        g not in goods for g in bd.crafting.values()
    ):
        raise _fail("game.yaml", "crafting", "one good of the six per night-die face")
    for sp in (*bd.dark_market, *bd.ruins):
        for g in sp.goods:
            if g not in goods:
                raise _fail("game.yaml", f"space {sp.space}", f"unknown good {g!r}")
    if sorted(bd.ringway) != sorted(("bazaar", "commissions", "dark_market", "excursions", "inn")):
        raise _fail("game.yaml", "ringway", "the five districts, each once")
    if len(bd.supply) != 6:
        raise _fail(
            "game.yaml", "supply", "lanterns, quartz, horseshoes, illuminated, travel, night"
        )
    if name == "base":
        for file, key, items in groups:
            if len(items) != COUNTS[key]:
                raise _fail(file, key, f"{len(items)} entries, the rulebook has {COUNTS[key]}")
        if len(c.commissions) != 5 * len(c.towns) or any(
            sum(1 for k in c.commissions if k.town == t) != 5 for t in c.towns
        ):
            raise _fail("commissions.yaml", "commissions", "5 per outlying town")
        if sum(1 for e in c.events if e.deck == "dark_road") != 13:
            raise _fail("events.yaml", "events", "13 dark road and 13 shortcut cards")
        if sorted(u.kind for u in c.upgrades) != sorted(
            ("slot1", "slot2", "slot3", "storage", "lantern", "inventory")
        ):
            raise _fail("upgrades.yaml", "upgrades", "one of each of the six kinds")
        if sorted(b.id for b in c.buildings) != sorted(BUILDINGS):
            raise _fail("buildings.yaml", "buildings", "the ten buildings of the rulebook")
        if sum(1 for h in c.heroes if h.starting) < 4:
            raise _fail("heroes.yaml", "heroes", "at least 4 starting heroes")


def load_dir(path: Path, name: str | None = None, lang: str = "en") -> Content:
    """Load and validate a pack directory, its texts in `lang` (the pack's
    `locale/<lang>.yaml` laid over its English, app.games.kit.content.translate).

    :raises ContentError: naming the file and the entry at fault.
    """
    texts = read_texts(path, lang)
    parts: dict[str, Any] = {}
    for file, model in FILES.items():
        fp = path / file
        if not fp.exists():
            raise _fail(file, "(file)", "missing")
        try:
            data = yaml.safe_load(fp.read_text(encoding="utf-8"))
        except yaml.YAMLError as e:
            raise _fail(file, "(file)", f"not valid YAML: {e}") from None
        data = translate(data, texts, f"{path / 'locale' / lang}.yaml: ")
        try:
            parts[file] = model.model_validate(data)
        except ValidationError as e:
            err = e.errors()[0]
            raise _fail(file, _entry_of(data, tuple(err["loc"])), err["msg"]) from None
    c = Content(name or path.name, parts)
    c.lang = lang
    c.articles = articles(texts)
    _check_pack(c.name, c)
    return c


@functools.cache
def load(name: str = "base") -> Content:
    """The named pack under `app/darkroad/content/` (cached)."""
    if not name.replace("_", "").isalnum() or not (PACKS_DIR / name).is_dir():
        raise ContentError(f"{name}: (pack): no such content pack")
    return load_dir(PACKS_DIR / name, name)


@functools.cache
def load_in(name: str, lang: str) -> Content:
    """The named pack with its texts in `lang` (for the words a reader sees; the
    engine plays with `load(name)`, whose ids and numbers are the same)."""
    return load(name) if lang == "en" else load_dir(PACKS_DIR / name, name, lang)


def counts(content: Content) -> dict[str, int]:
    """The deck sizes `karanor content --game darkroad` prints."""
    return {
        "heroes": len(content.heroes),
        "companions": len(content.companions),
        "steeds": len(content.steeds),
        "deeds": len(content.deeds),
        "events": len(content.events),
        "commissions": len(content.commissions),
        "buildings": len(content.buildings),
        "upgrades": len(content.upgrades),
    }
