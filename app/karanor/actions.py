"""The command vocabulary: small frozen values with a JSON form (`type` + fields).

`parse(dict)` turns a client's JSON into a command or raises `RuleError` with
code `bad_command`; `to_json(command)` is the inverse.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from .content import RESOURCES
from .errors import RuleError

Pairs = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Command:
    type: ClassVar[str] = ""


# --- the draft and pending choices -----------------------------------------------


@dataclass(frozen=True, slots=True)
class DraftPick(Command):
    type: ClassVar[str] = "draft_pick"
    card: str


@dataclass(frozen=True, slots=True)
class ChooseArtifact(Command):
    type: ClassVar[str] = "choose_artifact"
    artifact: str


@dataclass(frozen=True, slots=True)
class QuestChoice(Command):
    type: ClassVar[str] = "quest_choice"
    card: str
    option: int


@dataclass(frozen=True, slots=True)
class DiscardQuest(Command):
    type: ClassVar[str] = "discard_quest"
    card: str


@dataclass(frozen=True, slots=True)
class PickBusiness(Command):
    type: ClassVar[str] = "pick_business"
    card: str  # a displayed card id, or "deck" for a blind draw


# --- the seven actions -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move(Command):
    type: ClassVar[str] = "move"
    to: str
    path: tuple[str, ...] | None = None  # the territories entered, `to` last


@dataclass(frozen=True, slots=True)
class Harvest(Command):
    type: ClassVar[str] = "harvest"


@dataclass(frozen=True, slots=True)
class Work(Command):
    type: ClassVar[str] = "work"


@dataclass(frozen=True, slots=True)
class Build(Command):
    type: ClassVar[str] = "build"
    card: str
    bonus: bool = False


@dataclass(frozen=True, slots=True)
class Interact(Command):
    type: ClassVar[str] = "interact"


@dataclass(frozen=True, slots=True)
class CompleteQuest(Command):
    type: ClassVar[str] = "complete_quest"
    card: str
    option: int = 0


@dataclass(frozen=True, slots=True)
class Deliver(Command):
    type: ClassVar[str] = "deliver"


@dataclass(frozen=True, slots=True)
class RecruitPartner(Command):
    type: ClassVar[str] = "recruit_partner"
    resource: str


@dataclass(frozen=True, slots=True)
class BuyVilla(Command):
    type: ClassVar[str] = "buy_villa"
    villa: str


@dataclass(frozen=True, slots=True)
class Market(Command):
    type: ClassVar[str] = "market"
    buy: Pairs = ()
    sell: Pairs = ()


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    type: ClassVar[str] = "end_turn"


# --- free moves: no action ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PromotePartner(Command):
    type: ClassVar[str] = "promote_partner"
    resource: str


@dataclass(frozen=True, slots=True)
class PlayBlackMarket(Command):
    type: ClassVar[str] = "play_black_market"
    card: str
    target: int | None = None
    resource: str | None = None


@dataclass(frozen=True, slots=True)
class UseArtifact(Command):
    type: ClassVar[str] = "use_artifact"
    artifact: str


# --- trades (see trades.py) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Offer(Command):
    type: ClassVar[str] = "offer"
    give: dict[str, Any]
    want: dict[str, Any]
    to: tuple[int, ...] | None = None
    note: str = ""

    def __hash__(self) -> int:  # bundles are dicts; offers are never listed
        return hash((self.type, self.to, self.note))


@dataclass(frozen=True, slots=True)
class Accept(Command):
    type: ClassVar[str] = "accept"
    offer: int


@dataclass(frozen=True, slots=True)
class Decline(Command):
    type: ClassVar[str] = "decline"
    offer: int


@dataclass(frozen=True, slots=True)
class Withdraw(Command):
    type: ClassVar[str] = "withdraw"
    offer: int


@dataclass(frozen=True, slots=True)
class Counter(Command):
    type: ClassVar[str] = "counter"
    offer: int
    give: dict[str, Any]
    want: dict[str, Any]
    note: str = ""

    def __hash__(self) -> int:
        return hash((self.type, self.offer, self.note))


COMMANDS: dict[str, type[Command]] = {
    c.type: c
    for c in (
        DraftPick, ChooseArtifact, QuestChoice, DiscardQuest, PickBusiness,
        Move, Harvest, Work, Build, Interact, CompleteQuest, Deliver, RecruitPartner,
        BuyVilla, Market, EndTurn, PromotePartner, PlayBlackMarket, UseArtifact,
        Offer, Accept, Decline, Withdraw, Counter,
    )
}  # fmt: skip

MAX_ID = 64
# Control characters (C0, DEL, C1): refused in every string a command carries, since
# commands are stored in the log as they came (PostgreSQL refuses NUL in JSON text).
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _bad(msg: str) -> RuleError:
    return RuleError("bad_command", msg)


def _text(v: Any) -> bool:
    """A string without control characters."""
    return isinstance(v, str) and _CONTROLS.search(v) is None


def _str(data: dict[str, Any], key: str, *, optional: bool = False) -> str | None:
    v = data.get(key)
    if v is None and optional:
        return None
    if not _text(v) or not v or len(v) > MAX_ID:
        raise _bad(
            f"`{key}` must be a non-empty string of at most {MAX_ID} characters"
            " (no control characters)"
        )
    return v


def _int(data: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    v = data.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not -1_000_000 < v < 1_000_000:
        raise _bad(f"`{key}` must be an integer")
    return v


def _pairs(data: dict[str, Any], key: str) -> Pairs:
    v = data.get(key) or {}
    if not isinstance(v, dict):
        raise _bad(f"`{key}` must be an object of resource counts")
    out = []
    for name, count in v.items():
        if name not in RESOURCES:
            raise _bad(f"`{key}`: unknown resource {name!r}")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 99:
            raise _bad(f"`{key}.{name}` must be an integer from 0 to 99")
        if count:
            out.append((name, count))
    return tuple(sorted(out))


def parse(data: Any) -> Command:
    """Build a command from its JSON form.

    :raises RuleError: `bad_command` for a malformed payload, `unknown_command`
        for an unknown type.
    """
    if not isinstance(data, dict):
        raise _bad("a command is a JSON object with a `type`")
    kind = data.get("type")
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RuleError("unknown_command", f"unknown command type {kind!r}")
    allowed = {f.name for f in dataclasses.fields(cls)} | {"type"}
    extra = set(data) - allowed
    if extra:
        raise _bad(f"{kind}: unexpected field(s) {', '.join(sorted(map(str, extra)))}")
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        name = f.name
        has_default = f.default is not dataclasses.MISSING
        if name not in data and has_default:
            continue
        if name in ("card", "artifact", "resource", "villa", "to") and cls is not Offer:
            kwargs[name] = _str(data, name, optional=has_default)
        elif name in ("option", "offer"):
            kwargs[name] = _int(data, name)
        elif name == "target":
            kwargs[name] = _int(data, name, optional=True)
        elif name == "bonus":
            if not isinstance(data[name], bool):
                raise _bad("`bonus` must be true or false")
            kwargs[name] = data[name]
        elif name == "path":
            v = data[name]
            if v is None:
                continue
            if (
                not isinstance(v, list)
                or not 1 <= len(v) <= 12
                or not all(_text(t) and 0 < len(t) <= MAX_ID for t in v)
            ):
                raise _bad("`path` must be a list of territory ids")
            kwargs[name] = tuple(v)
        elif name in ("buy", "sell"):
            kwargs[name] = _pairs(data, name)
        elif name in ("give", "want"):
            v = data.get(name) or {}
            if not isinstance(v, dict):
                raise _bad(f"`{name}` must be a bundle object")
            kwargs[name] = v
        elif name == "to":  # offer addressees
            v = data.get(name)
            if v is None:
                kwargs[name] = None
            elif (
                isinstance(v, list)
                and all(isinstance(s, int) and not isinstance(s, bool) for s in v)
                and 0 < len(v) <= 6
            ):
                kwargs[name] = tuple(sorted(set(v)))
            else:
                raise _bad("`to` must be null (anyone) or a list of seat numbers")
        elif name == "note":
            v = data.get(name) or ""
            if not _text(v) or len(v) > 200:
                raise _bad("`note` must be a string of at most 200 characters, no control ones")
            kwargs[name] = v
        else:  # pragma: no cover - every field is handled above
            raise _bad(f"unsupported field {name}")
    return cls(**kwargs)


# How `to_json` writes each field of a command class: 0 as it is, 1 pairs as an
# object, 2 a tuple as a list (None left as it is), and whether a None is left out.
_AS_IS, _PAIRS, _LIST = 0, 1, 2
_Spec = tuple[tuple[str, int, bool], ...]
_SPECS: dict[type[Command], _Spec] = {}


def _spec(cls: type[Command]) -> _Spec:
    spec = []
    for f in dataclasses.fields(cls):
        how = _AS_IS
        if f.name in ("buy", "sell"):
            how = _PAIRS
        elif f.name in ("path", "to"):
            how = _LIST
        spec.append((f.name, how, f.default is None))
    out = _SPECS[cls] = tuple(spec)
    return out


def to_json(cmd: Command) -> dict[str, Any]:
    """The JSON form of `cmd` (a new dict: the caller may keep or change it)."""
    out: dict[str, Any] = {"type": cmd.type}
    spec = _SPECS.get(type(cmd)) or _spec(type(cmd))
    for name, how, none_left_out in spec:
        v = getattr(cmd, name)
        if v is None:
            if none_left_out:
                continue
        elif how == _PAIRS:
            v = dict(v)
        elif how == _LIST and isinstance(v, tuple):
            v = list(v)
        out[name] = v
    return out


# The JSON form of every command listed so far (commands are frozen values; a listing
# shows the same few hundred again and again, most of them interned by the engine):
# found by the command's identity first (no hashing of its fields), else by its value.
_JSON: dict[Command, dict[str, Any]] = {}
_BY_ID: dict[int, tuple[Command, dict[str, Any]]] = {}  # the command kept: its id stays its
_JSON_MAX = 20_000  # each table emptied past this (the content bounds the values listed)


def json_of(cmd: Command) -> dict[str, Any]:
    """`to_json(cmd)`, shared by every caller: never change the dict (or what it holds).
    Not for offers and counters (they carry the client's bundles)."""
    hit = _BY_ID.get(id(cmd))
    if hit is not None and hit[0] is cmd:
        return hit[1]
    out = _JSON.get(cmd)
    if out is None:
        if len(_JSON) >= _JSON_MAX:
            _JSON.clear()
        out = _JSON[cmd] = to_json(cmd)
    if len(_BY_ID) >= _JSON_MAX:
        _BY_ID.clear()
    _BY_ID[id(cmd)] = (cmd, out)
    return out


# Whole listings by their commands' identities: the entry keeps its commands alive, so
# while it is here no other object can have their ids (a matching key is the same
# commands). A seat's listing often comes back unchanged from one version to the next.
_LISTINGS: dict[tuple[int, ...], tuple[list[Command], list[dict[str, Any]]]] = {}
_LISTINGS_MAX = 4096


def listing_json(cmds: list[Command]) -> list[dict[str, Any]]:
    """`[json_of(c) for c in cmds]`, shared by every caller: never change the list, its
    forms or what they hold."""
    key = tuple(map(id, cmds))
    hit = _LISTINGS.get(key)
    if hit is not None:
        return hit[1]
    get = _BY_ID.get
    out = []
    for cmd in cmds:
        found = get(id(cmd))
        out.append(found[1] if found is not None and found[0] is cmd else json_of(cmd))
    if len(_LISTINGS) >= _LISTINGS_MAX:
        _LISTINGS.clear()
    _LISTINGS[key] = (list(cmds), out)
    return out
