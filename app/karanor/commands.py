"""Karanor's commands, declared once: frozen slotted dataclasses with typed fields.

`COMMANDS` (an `app.games.kit.Commands`) reads a client's JSON into these values (an
unread field or a wrong type is `bad_command`), writes their wire form and gives the
OpenAPI schema. The engine builds and lists the dataclasses directly.

Older shapes are upcast when read (`upcast`), so every stored game replays:

* a `null` given for a field that has a non-null default (`note`, `give`, `want`,
  `buy`, `sell`) meant that default and is dropped; an offer or counter without
  `give` or `want` gave or wanted nothing (`{}`).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema

from app.games.kit import Command as Command  # re-exported: the base of these
from app.games.kit import Commands, Id, Int, Note, Wire, command

from .content import Resource

Pairs = tuple[tuple[str, int], ...]


def _pairs(v: Any) -> Any:
    """A JSON object of counts -> sorted (resource, count) pairs, zero counts dropped
    (a hashable, canonical value: listings are interned)."""
    if isinstance(v, dict):
        return tuple(sorted((k, n) for k, n in v.items() if not (type(n) is int and n == 0)))
    return v


def _seats(v: Any) -> Any:
    """Offer addressees: a list of seats -> sorted without repeats."""
    if isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return tuple(sorted(set(v)))
    return v


_COUNTS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        r: {"type": "integer", "minimum": 0, "maximum": 99} for r in typing.get_args(Resource)
    },
    "description": "resource -> count",
}
# Resource counts (a market visit): an object on the wire, sorted pairs in the engine.
Counts = Annotated[
    tuple[tuple[Resource, Annotated[int, Field(ge=1, le=99)]], ...],
    BeforeValidator(_pairs),
    Wire(dict),
    WithJsonSchema(_COUNTS_SCHEMA),
]
Seats = Annotated[
    tuple[Int, ...],
    Field(min_length=1, max_length=6),
    BeforeValidator(_seats),
]
# A trade's bundle: {"gold", "resources", "partners", "badges", "artifacts"}, read by
# `trades.normalise` (code `bad_bundle`, naming what the rulebook forbids to trade).
Bundle = dict[str, Any]


# --- the draft and pending choices -----------------------------------------------


@command("draft_pick")
class DraftPick(Command):
    card: Id


@command("choose_artifact")
class ChooseArtifact(Command):
    artifact: Id


@command("quest_choice")
class QuestChoice(Command):
    card: Id
    option: Int


@command("discard_quest")
class DiscardQuest(Command):
    card: Id


@command("pick_business")
class PickBusiness(Command):
    card: Id  # a displayed card, or "deck" for a blind draw (the client's contract)


# --- the seven actions -------------------------------------------------------------


@command("move")
class Move(Command):
    to: Id
    path: Annotated[tuple[Id, ...], Field(min_length=1, max_length=12)] | None = None
    # `path`: the territories entered, `to` last (None: the cheapest)


@command("harvest")
class Harvest(Command): ...


@command("work")
class Work(Command): ...


@command("build")
class Build(Command):
    card: Id
    bonus: bool = False


@command("interact")
class Interact(Command): ...


@command("complete_quest")
class CompleteQuest(Command):
    card: Id
    option: Int = 0


@command("deliver")
class Deliver(Command): ...


@command("recruit_partner")
class RecruitPartner(Command):
    resource: Resource


@command("buy_villa")
class BuyVilla(Command):
    villa: Id


@command("market")
class Market(Command):
    buy: Counts = ()
    sell: Counts = ()


@command("end_turn")
class EndTurn(Command): ...


# --- free moves: no action ---------------------------------------------------------


@command("promote_partner")
class PromotePartner(Command):
    resource: Resource


@command("play_black_market")
class PlayBlackMarket(Command):
    card: Id
    target: Int | None = None  # a seat
    resource: Resource | None = None


@command("use_artifact")
class UseArtifact(Command):
    artifact: Id


# --- trades (see trades.py) ----------------------------------------------------------


@command("offer")
class Offer(Command):
    give: Bundle
    want: Bundle
    to: Seats | None = None  # None: anyone
    note: Note = ""

    def __hash__(self) -> int:  # bundles are dicts; offers are never listed
        return hash((self.type, self.to, self.note))


@command("accept")
class Accept(Command):
    offer: Int


@command("decline")
class Decline(Command):
    offer: Int


@command("withdraw")
class Withdraw(Command):
    offer: Int


@command("counter")
class Counter(Command):
    offer: Int
    give: Bundle
    want: Bundle
    note: Note = ""

    def __hash__(self) -> int:
        return hash((self.type, self.offer, self.note))


_NULL_MEANS_DEFAULT = ("note", "give", "want", "buy", "sell")


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """An older command shape -> today's (see the module docstring)."""
    if data.get("type") in ("offer", "counter"):
        data.setdefault("give", {})
        data.setdefault("want", {})
    for key in _NULL_MEANS_DEFAULT:
        if key in data and data[key] is None:
            if key in ("give", "want"):
                data[key] = {}
            else:
                del data[key]
    return data


COMMANDS = Commands(
    "Karanor",
    (
        DraftPick, ChooseArtifact, QuestChoice, DiscardQuest, PickBusiness,
        Move, Harvest, Work, Build, Interact, CompleteQuest, Deliver, RecruitPartner,
        BuyVilla, Market, EndTurn, PromotePartner, PlayBlackMarket, UseArtifact,
        Offer, Accept, Decline, Withdraw, Counter,
    ),
    upcast=upcast,
)  # fmt: skip
parse = COMMANDS.parse
to_json = COMMANDS.to_json
json_of = COMMANDS.json_of
listing_json = COMMANDS.listing_json
