"""The game's content: map and decks, read from a pack of YAML files.

Every file is validated by a pydantic schema (unknown keys are errors), then the
pack as a whole is checked for references (territories, badges, sequels) and,
for the base pack, for the counts of the component list. A broken pack raises
`ContentError` naming the file and the entry.
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.games.kit import ContentError as KitContentError
from app.games.kit import read_yaml
from app.games.kit.content import articles, read_texts, translate

from . import content_check

RESOURCES: tuple[str, ...] = ("wood", "ore", "cloth", "wine", "meat", "fruit", "diamond")
Resource = Literal["wood", "ore", "cloth", "wine", "meat", "fruit", "diamond"]
PACKS_DIR = Path(__file__).parent / "content"

Count = Annotated[int, Field(ge=0, le=99)]


# A broken pack: the message names the file and the entry (the kit's, shared by games).
ContentError = KitContentError


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- bundles, conditions, rewards -------------------------------------------------


class Bundle(_Model):
    gold: Count = 0
    resources: dict[Resource, Annotated[int, Field(ge=1, le=20)]] = {}

    @property
    def empty(self) -> bool:
        return not self.gold and not self.resources


class Condition(_Model):
    """One requirement; exactly one field is set."""

    at: str | None = None
    at_any: tuple[str, ...] | None = None
    in_city: bool | None = None
    has: Bundle | None = None
    badge: str | None = None
    min_businesses: Count | None = None
    min_villas: Count | None = None
    min_partners: Count | None = None
    min_artifacts: Count | None = None
    min_prestige: Count | None = None

    @model_validator(mode="after")
    def _one(self) -> Condition:
        if len(self.model_fields_set) != 1:
            raise ValueError("a condition has exactly one key")
        return self


class Reward(_Model):
    """One effect on the player; exactly one field is set."""

    gold: Annotated[int, Field(ge=0, le=50)] | None = None
    prestige: Annotated[int, Field(ge=-5, le=10)] | None = None
    revenue: Annotated[int, Field(ge=-3, le=5)] | None = None
    resources: dict[Resource, Annotated[int, Field(ge=1, le=10)]] | None = None
    badge: str | None = None
    lose_badge: str | None = None
    artifact: Annotated[int, Field(ge=1, le=3)] | None = None
    black_market: Annotated[int, Field(ge=1, le=3)] | None = None
    quest: Annotated[int, Field(ge=1, le=3)] | None = None
    extra_actions: Annotated[int, Field(ge=1, le=3)] | None = None
    teleport: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Reward:
        if len(self.model_fields_set) != 1:
            raise ValueError("a reward has exactly one key")
        return self


class Hit(_Model):
    """One effect of a black-market card on its target; exactly one field is set."""

    steal_gold: Annotated[int, Field(ge=1, le=20)] | None = None
    steal_resource: Annotated[int, Field(ge=1, le=5)] | None = None
    lose_gold: Annotated[int, Field(ge=1, le=20)] | None = None
    lose_resource: Annotated[int, Field(ge=1, le=5)] | None = None
    lose_prestige: Annotated[int, Field(ge=1, le=3)] | None = None
    lose_actions: Annotated[int, Field(ge=1, le=3)] | None = None
    send_home: bool | None = None
    give_badge: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Hit:
        if len(self.model_fields_set) != 1:
            raise ValueError("a hit has exactly one key")
        return self


class Choice(_Model):
    label: str = Field(min_length=1, max_length=80)
    requires: tuple[Condition, ...] = ()
    cost: Bundle = Bundle()
    reward: tuple[Reward, ...] = ()


class Modifiers(_Model):
    """Lasting effects of badges and artifacts; they stack."""

    move: int = 0
    sea_cost: int = 0
    no_work: bool = False
    work: int = 0
    harvest: int = 0
    revenue: int = 0
    build_discount: int = 0
    villa_discount: int = 0
    partner_discount: int = 0
    quest_limit: int = 0
    protect: bool = False
    actions: int = 0
    delivery_gold: int = 0


MODIFIER_FIELDS: tuple[str, ...] = tuple(Modifiers.model_fields)


class Power(_Model):
    once_per: Literal["turn", "game"] = "turn"
    action: Annotated[int, Field(ge=0, le=1)] = 0
    requires: tuple[Condition, ...] = ()
    cost: Bundle = Bundle()
    reward: tuple[Reward, ...] = Field(min_length=1)


# --- cards and tiles ---------------------------------------------------------------


class Card(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$", max_length=48)
    name: str = Field(min_length=1, max_length=60)
    flavour: str = Field(default="", max_length=240)
    four_plus: bool = False


class Quest(Card):
    place: str | None = None
    prestige: Annotated[int, Field(ge=0, le=6)] = 0
    immediate: tuple[Choice, ...] = ()
    complete: tuple[Choice, ...] = ()
    sequel: str | None = None
    sequel_of: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> Quest:
        if not self.immediate and not self.complete:
            raise ValueError("a quest needs `immediate` or `complete` choices")
        if self.immediate and len(self.immediate) < 2:
            raise ValueError("an immediate choice offers at least two options")
        if self.sequel and not self.complete:
            raise ValueError("a quest with a sequel must be completable")
        return self


class BlackMarket(Card):
    when: Literal["any_time", "own_turn", "off_turn"] = "any_time"
    target: Literal["none", "any", "same_territory", "same_city", "leader"] = "none"
    action: Annotated[int, Field(ge=0, le=1)] = 0
    requires: tuple[Condition, ...] = ()
    cost: Bundle = Bundle()
    reward: tuple[Reward, ...] = ()
    hit: tuple[Hit, ...] = ()

    @model_validator(mode="after")
    def _shape(self) -> BlackMarket:
        if (self.target == "none") != (not self.hit):
            raise ValueError("`hit` effects need a target, and a target needs `hit` effects")
        if not self.hit and not self.reward:
            raise ValueError("a black-market card must do something")
        return self

    @property
    def names_resource(self) -> bool:
        return any(h.steal_resource or h.lose_resource for h in self.hit)


class Bonus(_Model):
    name: str = Field(min_length=1, max_length=60)
    cost: Bundle
    reward: tuple[Reward, ...] = Field(min_length=1)


class Business(Card):
    cost: Bundle
    bonus: Bonus | None = None
    opening: tuple[Reward, ...] = Field(min_length=1)


class Badge(Card):
    count: Annotated[int, Field(ge=1, le=30)]
    passive: Modifiers = Modifiers()


class Artifact(Card):
    passive: Modifiers = Modifiers()
    activate: Power | None = None


class Story(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    story: str = Field(default="", max_length=300)
    gold: Count = 0
    resources: dict[Resource, Annotated[int, Field(ge=1, le=5)]] = {}
    badge: str | None = None
    revenue: Annotated[int, Field(ge=0, le=12)] = 1


class Home(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    city: str


class Delivery(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str = ""
    flavour: str = ""
    city: str
    resources: dict[Resource, Annotated[int, Field(ge=1, le=10)]] = Field(min_length=1)
    gold: Count = 0
    prestige: Annotated[int, Field(ge=0, le=5)] = 1


class Inhabitant(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    territory: str
    flavour: str = ""


class Villa(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str


class Territory(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    kind: Literal["city", "land"] = "land"
    home: bool = False
    center: tuple[float, float] = (0.0, 0.0)
    shape: tuple[tuple[float, float], ...] = ()
    resource: Resource | None = None
    villa: Villa | None = None
    terrain: str = "plain"


class GameRules(_Model):
    supply: dict[Resource, Annotated[int, Field(ge=0, le=60)]]
    partners: tuple[Resource, ...] = ("wood", "ore", "cloth", "wine", "meat", "fruit")
    hand_size_quests: int = 3
    actions_per_turn: int = 4
    move_steps: int = 2
    sea_cost: int = 2
    partner_cost: int = 5
    villa_cost: int = 8
    revenue_max: int = 12
    pawns_per_player: int = 8
    end_prestige: dict[int, int] = {2: 10, 3: 10, 4: 10, 5: 9, 6: 8}
    ascension: tuple[int, ...] = (3, 6)
    harvest: int = 2
    market_buy: int = 3
    market_sell: int = 1
    market_max: int = 3


class MapData(_Model):
    width: float = 1000
    height: float = 1400
    territories: tuple[Territory, ...]
    land: tuple[tuple[str, str], ...]
    sea_routes: tuple[tuple[str, str], ...] = ()
    coast: tuple[tuple[tuple[float, float], ...], ...] = ()


# --- the loaded pack ---------------------------------------------------------------


class Content:
    """A validated content pack, with lookup tables the engine uses."""

    def __init__(self, name: str, **parts: Any) -> None:
        self.name = name
        self.lang = "en"
        self.articles: dict[str, str] = {}  # entry id -> its article in `lang`
        self.rules: GameRules = parts["rules"]
        self.map: MapData = parts["map"]
        self.quests: tuple[Quest, ...] = parts["quests"]
        self.sequels: tuple[Quest, ...] = parts["sequels"]
        self.black_market: tuple[BlackMarket, ...] = parts["black_market"]
        self.business: tuple[Business, ...] = parts["business"]
        self.badges: tuple[Badge, ...] = parts["badges"]
        self.artifacts: tuple[Artifact, ...] = parts["artifacts"]
        self.stories: tuple[Story, ...] = parts["stories"]
        self.homes: tuple[Home, ...] = parts["homes"]
        self.deliveries: tuple[Delivery, ...] = parts["deliveries"]
        self.inhabitants: tuple[Inhabitant, ...] = parts["inhabitants"]

        self.territory = {t.id: t for t in self.map.territories}
        self.quest = {q.id: q for q in (*self.quests, *self.sequels)}
        self.sequel_ids = frozenset(q.id for q in self.sequels)
        self.black_market_card = {c.id: c for c in self.black_market}
        self.business_card = {c.id: c for c in self.business}
        self.badge = {b.id: b for b in self.badges}
        self.artifact = {a.id: a for a in self.artifacts}
        self.story = {s.id: s for s in self.stories}
        self.home = {h.id: h for h in self.homes}
        self.delivery = {d.id: d for d in self.deliveries}
        self.inhabitant = {i.id: i for i in self.inhabitants}
        self.cities = tuple(t.id for t in self.map.territories if t.kind == "city")
        self.villas = {t.villa.id: t.id for t in self.map.territories if t.villa}
        self.villa_name = {t.villa.id: t.villa.name for t in self.map.territories if t.villa}
        neighbours: dict[str, list[tuple[str, bool]]] = {t: [] for t in self.territory}
        # Unknown ids are reported by the reference checks that follow construction.
        for a, b in self.map.land:
            neighbours.setdefault(a, []).append((b, False))
            neighbours.setdefault(b, []).append((a, False))
        for a, b in self.map.sea_routes:
            neighbours.setdefault(a, []).append((b, True))
            neighbours.setdefault(b, []).append((a, True))
        self.neighbours: dict[str, tuple[tuple[str, bool], ...]] = {
            k: tuple(sorted(v)) for k, v in neighbours.items()
        }
        # Tables the engine derives from this content as games are played (reachable
        # territories, listings): they live and die with the content they describe.
        self.memo: dict[str, dict[Any, Any]] = {}

    def counts(self) -> dict[str, int]:
        return {
            "quests": len(self.quests),
            "quest_sequels": len(self.sequels),
            "black_market": len(self.black_market),
            "business": len(self.business),
            "badges": sum(b.count for b in self.badges),
            "artifacts": len(self.artifacts),
            "story": len(self.stories),
            "home_cities": len(self.homes),
            "deliveries": len(self.deliveries),
            "inhabitants": len(self.inhabitants),
            "territories": len(self.map.territories),
            "cities": len(self.cities),
            "villas": len(self.villas),
            "sea_routes": len(self.map.sea_routes),
        }


BASE_COUNTS = {
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
    "cities": 7,
}

COUNT_FILES = {
    "quests": "quests.yaml", "quest_sequels": "sequels.yaml", "black_market": "black_market.yaml",
    "business": "business.yaml", "badges": "badges.yaml", "artifacts": "artifacts.yaml",
    "story": "stories.yaml", "home_cities": "homes.yaml", "deliveries": "deliveries.yaml",
    "inhabitants": "inhabitants.yaml", "cities": "map.yaml",
}  # fmt: skip

_FILES: dict[str, tuple[str, str | None, Any]] = {
    # part: (file, top-level key or None for a mapping, model)
    "rules": ("game.yaml", None, GameRules),
    "map": ("map.yaml", None, MapData),
    "quests": ("quests.yaml", "quests", Quest),
    "sequels": ("sequels.yaml", "sequels", Quest),
    "black_market": ("black_market.yaml", "black_market", BlackMarket),
    "business": ("business.yaml", "business", Business),
    "badges": ("badges.yaml", "badges", Badge),
    "artifacts": ("artifacts.yaml", "artifacts", Artifact),
    "stories": ("stories.yaml", "stories", Story),
    "homes": ("homes.yaml", "homes", Home),
    "deliveries": ("deliveries.yaml", "deliveries", Delivery),
    "inhabitants": ("inhabitants.yaml", "inhabitants", Inhabitant),
}


def _parse(path: Path, key: str | None, model: Any, texts: dict[str, Any]) -> Any:
    data = translate(read_yaml(path), texts, f"{path.parent / 'locale'}: ")
    if key is None:
        try:
            return model.model_validate(data)
        except ValidationError as e:
            raise ContentError(f"{path}: {_explain(e, data)}") from None
    if isinstance(data, dict):
        data = data.get(key)
    if not isinstance(data, list):
        raise ContentError(f"{path}: expected a list under `{key}:`")
    out = []
    for i, entry in enumerate(data):
        try:
            out.append(model.model_validate(entry))
        except ValidationError as e:
            ident = entry.get("id", f"#{i}") if isinstance(entry, dict) else f"#{i}"
            raise ContentError(f"{path}: entry {ident}: {_explain(e, entry)}") from None
    return tuple(out)


def _explain(e: ValidationError, data: Any) -> str:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    if isinstance(data, dict) and first["loc"] and first["loc"][0] == "territories":
        with contextlib.suppress(IndexError, KeyError, TypeError, AttributeError):
            where = f"territory {data['territories'][first['loc'][1]].get('id')}: {where}"
    return f"{where}: {first['msg']}" + (
        f" ({len(e.errors())} errors)" if len(e.errors()) > 1 else ""
    )


def load_pack(path: str | Path, *, check_counts: bool | None = None, lang: str = "en") -> Content:
    """Load and validate a content pack folder, its texts in `lang` (the pack's
    `locale/<lang>.yaml` laid over its English, app.games.kit.content.translate).

    :raises ContentError: naming the file and entry at fault.
    """
    folder = Path(path)
    if not folder.is_dir():
        folder = PACKS_DIR / str(path)
    if not folder.is_dir():
        raise ContentError(f"{path}: no such content pack")
    texts = read_texts(folder, lang)
    parts = {name: _parse(folder / f, key, m, texts) for name, (f, key, m) in _FILES.items()}
    content = Content(folder.name, **parts)
    content.lang = lang
    content.articles = articles(texts)
    files = {part: f for part, (f, _k, _m) in _FILES.items()}
    content_check.references(content, folder, files, RESOURCES)
    if check_counts if check_counts is not None else folder.name == "base":
        content_check.base_counts(content, folder, BASE_COUNTS, COUNT_FILES)
    return content


@functools.lru_cache(maxsize=8)
def load(name: str = "base") -> Content:
    """The named pack from `app/karanor/content/`, loaded once per process."""
    return load_pack(PACKS_DIR / name)


@functools.lru_cache(maxsize=8)
def load_in(name: str, lang: str) -> Content:
    """The named pack with its texts in `lang` (for the words a reader sees; the
    engine plays with `load(name)`, whose ids and numbers are the same)."""
    return load(name) if lang == "en" else load_pack(PACKS_DIR / name, lang=lang)
