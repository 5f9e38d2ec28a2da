"""The Dark Road's commands: small frozen values whose wire form is JSON with a `type`.

`parse(dict)` builds a command or raises `RuleError` (`unknown_command`, `bad_command`);
`to_json(command)` is the inverse. Fields are ints, strings, booleans, None or tuples of
ints; what they mean is checked by the engine, not here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import RuleError


@dataclass(frozen=True, slots=True)
class Command:
    type: ClassVar[str] = ""


# --- setup -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draft(Command):
    """Drafting variant: take one steed + starting-hero stack."""

    type: ClassVar[str] = "draft"
    stack: int


@dataclass(frozen=True, slots=True)
class KeepDeed(Command):
    type: ClassVar[str] = "keep_deed"
    deed: str


# --- the turn ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResetDice(Command):
    type: ClassVar[str] = "reset_dice"


@dataclass(frozen=True, slots=True)
class Plan(Command):
    """Bump locked slot `slot` (1-3) with the reserve die of value `die` (None in the last
    three rounds); `option`: slot 1 a good (last rounds), slot 2 lantern/illuminated/both,
    slot 3 coins/rotate/prestige."""

    type: ClassVar[str] = "plan"
    slot: int
    die: int | None = None
    option: str | None = None


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Move by the `die` of the action pool (night, illuminated, or steed for Sugarfoot's 3),
    then `horseshoe` -1, 0 or +1."""

    type: ClassVar[str] = "move"
    die: str
    horseshoe: int = 0


@dataclass(frozen=True, slots=True)
class Bazaar(Command):
    type: ClassVar[str] = "bazaar"


@dataclass(frozen=True, slots=True)
class BazaarRotate(Command):
    type: ClassVar[str] = "bazaar_rotate"


@dataclass(frozen=True, slots=True)
class BazaarChange(Command):
    type: ClassVar[str] = "bazaar_change"
    source: str  # the section (good) the die leaves
    good: str  # the new face


@dataclass(frozen=True, slots=True)
class BazaarBuy(Command):
    type: ClassVar[str] = "bazaar_buy"
    goods: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TakeCommission(Command):
    type: ClassVar[str] = "take_commission"
    town: str


@dataclass(frozen=True, slots=True)
class DarkMarket(Command):
    """Move the marker `steps` (1-4, a coin each); `pick` on the south space:
    `commission:<town>` or `deed:0|1|top`."""

    type: ClassVar[str] = "dark_market"
    steps: int
    pick: str | None = None


@dataclass(frozen=True, slots=True)
class Inn(Command):
    """Sell the stored `goods` (piece ids) to the hero in inn slot `slot`."""

    type: ClassVar[str] = "inn"
    slot: int
    goods: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ruins(Command):
    type: ClassVar[str] = "ruins"
    steps: int
    good: str


@dataclass(frozen=True, slots=True)
class Caravan(Command):
    """Lead a caravan: `companion` 0-2 from the row or -1 for the deck top."""

    type: ClassVar[str] = "caravan"
    companion: int
    route: str  # dark_road | shortcut
    town: str


@dataclass(frozen=True, slots=True)
class Building(Command):
    """Activate a building; `pay` and `pick`/`pick2` depend on the building."""

    type: ClassVar[str] = "building"
    building: str
    pay: str | None = None
    pick: str | None = None
    pick2: str | None = None


@dataclass(frozen=True, slots=True)
class UseCompanion(Command):
    type: ClassVar[str] = "use_companion"
    companion: str
    ability: str
    pick: str | None = None
    gift: str | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    type: ClassVar[str] = "end_turn"


# --- storage -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceGood(Command):
    """Store the first incoming good at (`area`, `x`, `y`, orientation `o`); no area:
    anywhere it fits (rearranging the storage if that is what it takes)."""

    type: ClassVar[str] = "place_good"
    area: str | None = None
    x: int = 0
    y: int = 0
    o: int = 0


@dataclass(frozen=True, slots=True)
class DiscardGood(Command):
    """Discard the incoming good (`piece` None) or a stored piece to make room."""

    type: ClassVar[str] = "discard_good"
    piece: int | None = None


@dataclass(frozen=True, slots=True)
class Rearrange(Command):
    """A whole new layout: for each stored piece, (piece, area index, x, y, o) flattened
    as 5 ints; area index into the seat's `areas` list of its view."""

    type: ClassVar[str] = "rearrange"
    layout: tuple[int, ...]


# --- answers to choices ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscardHero(Command):
    type: ClassVar[str] = "discard_hero"
    hero: str


@dataclass(frozen=True, slots=True)
class DiscardCommission(Command):
    type: ClassVar[str] = "discard_commission"
    commission: str


@dataclass(frozen=True, slots=True)
class DiscardResource(Command):
    type: ClassVar[str] = "discard_resource"
    resource: str  # quartz | horseshoe


@dataclass(frozen=True, slots=True)
class ChooseGood(Command):
    type: ClassVar[str] = "choose_good"
    good: str


@dataclass(frozen=True, slots=True)
class LoseGood(Command):
    type: ClassVar[str] = "lose_good"
    piece: int


@dataclass(frozen=True, slots=True)
class RuinsDie(Command):
    type: ClassVar[str] = "ruins_die"
    roll: bool


@dataclass(frozen=True, slots=True)
class TakeHero(Command):
    """Take the hero of inn slot `slot` (0-3) or the deck top (-1)."""

    type: ClassVar[str] = "take_hero"
    slot: int


@dataclass(frozen=True, slots=True)
class ChooseSteed(Command):
    type: ClassVar[str] = "choose_steed"
    steed: str


@dataclass(frozen=True, slots=True)
class Join(Command):
    type: ClassVar[str] = "join"
    yes: bool


@dataclass(frozen=True, slots=True)
class RerollTravel(Command):
    type: ClassVar[str] = "reroll_travel"


@dataclass(frozen=True, slots=True)
class TakeTravelDie(Command):
    """Take a travel die of face `value`; `whisper` +1 (steed), `boost` +1/+2 (a loyal
    companion's gift), `twin` gain the benefit twice (Threy Cat)."""

    type: ClassVar[str] = "take_travel_die"
    value: int
    whisper: bool = False
    boost: int = 0
    twin: bool = False


@dataclass(frozen=True, slots=True)
class Visit(Command):
    type: ClassVar[str] = "visit"
    town: str | None = None  # None: pass


@dataclass(frozen=True, slots=True)
class DeliverCommission(Command):
    type: ClassVar[str] = "deliver_commission"
    commission: str
    goods: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeliverHero(Command):
    type: ClassVar[str] = "deliver_hero"
    hero: str


@dataclass(frozen=True, slots=True)
class DoneDelivering(Command):
    type: ClassVar[str] = "done_delivering"


@dataclass(frozen=True, slots=True)
class Fortune(Command):
    """A good fortune: `kind` die | deed | coins | upgrade; `pick` the deed slot
    (0, 1, top) or the upgrade id."""

    type: ClassVar[str] = "fortune"
    kind: str
    pick: str | None = None


COMMANDS: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        Draft, KeepDeed, ResetDice, Plan, Move, Bazaar, BazaarRotate, BazaarChange, BazaarBuy,
        TakeCommission, DarkMarket, Inn, Ruins, Caravan, Building, UseCompanion, EndTurn,
        PlaceGood, DiscardGood, Rearrange, DiscardHero, DiscardCommission, DiscardResource,
        ChooseGood, LoseGood, RuinsDie, TakeHero, ChooseSteed, Join, RerollTravel,
        TakeTravelDie, Visit, DeliverCommission, DeliverHero, DoneDelivering, Fortune,
    )
}  # fmt: skip

_FIELDS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    t: tuple(
        (
            f.name,
            str(f.type),
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
    )
    for t, cls in COMMANDS.items()
}


def _bad(msg: str) -> RuleError:
    return RuleError("bad_command", msg)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse(data: Any) -> Command:
    """A command from its JSON form.

    :raises RuleError: `unknown_command` for an unknown type, `bad_command` for bad fields.
    """
    if not isinstance(data, dict):
        raise _bad("a command is a JSON object with a `type`")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise RuleError("unknown_command", f"unknown command type {kind!r}")
    fields = _FIELDS[kind]
    extra = set(data) - {"type"} - {f[0] for f in fields}
    if extra:
        raise _bad(f"{kind}: unknown field(s) {sorted(extra)}")
    kwargs: dict[str, Any] = {}
    for name, typ, required in fields:
        if name not in data:
            if required:
                raise _bad(f"{kind}: missing field `{name}`")
            continue
        v = data[name]
        if v is None and "None" in typ:
            kwargs[name] = None
        elif typ.startswith("tuple"):
            if not isinstance(v, list | tuple) or len(v) > 60:
                raise _bad(f"{kind}: `{name}` must be a list")
            want_int = "int" in typ
            if not all(_is_int(x) if want_int else isinstance(x, str) for x in v):
                raise _bad(f"{kind}: `{name}` must be a list of {'ints' if want_int else 'str'}")
            if not want_int and any(len(x) > 48 for x in v):
                raise _bad(f"{kind}: `{name}` entries are too long")
            kwargs[name] = tuple(v)
        elif typ.startswith("bool"):
            if not isinstance(v, bool):
                raise _bad(f"{kind}: `{name}` must be true or false")
            kwargs[name] = v
        elif typ.startswith("int"):
            if not _is_int(v) or not -1000 <= v <= 10**9:
                raise _bad(f"{kind}: `{name}` must be an integer")
            kwargs[name] = v
        else:
            if not isinstance(v, str) or not 0 < len(v) <= 64:
                raise _bad(f"{kind}: `{name}` must be a short string")
            kwargs[name] = v
    return COMMANDS[kind](**kwargs)


_NAMES: dict[type[Command], tuple[str, ...]] = {}  # each command class's field names


def to_json(cmd: Command) -> dict[str, Any]:
    """The JSON form of `cmd` (a new dict: the caller may keep or change it)."""
    out: dict[str, Any] = {"type": cmd.type}
    names = _NAMES.get(type(cmd))
    if names is None:
        names = _NAMES[type(cmd)] = tuple(f.name for f in dataclasses.fields(cmd))
    for name in names:
        v = getattr(cmd, name)
        out[name] = list(v) if isinstance(v, tuple) else v
    return out


# The JSON form of every command listed so far (frozen values, found by value: a listing
# shows the same few hundred again and again).
_JSON: dict[Command, dict[str, Any]] = {}
_JSON_MAX = 20_000  # emptied past this (the content bounds the commands listed)


def listing_json(cmds: list[Command]) -> list[dict[str, Any]]:
    """`[to_json(c) for c in cmds]`, each form built once and shared by every caller:
    never change them."""
    table = _JSON
    out = []
    for cmd in cmds:
        form = table.get(cmd)
        if form is None:
            if len(table) >= _JSON_MAX:
                table.clear()
            form = table[cmd] = to_json(cmd)
        out.append(form)
    return out
