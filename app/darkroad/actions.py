"""The Dark Road's commands: small frozen values whose wire form is JSON with a `type`.

`parse(dict)` builds a command or raises `RuleError` (`unknown_command`, `bad_command`);
`to_json(command)` is the inverse. Fields are ints, strings, booleans, None or tuples of
ints; what they mean is checked by the engine, not here.
"""

from __future__ import annotations

from typing import Any

from app.games import kit
from app.games.kit import Command, Id, Int, command

__all__ = ["COMMANDS", "TABLE", "Command", "listing_json", "parse", "to_json", "upcast"]


# --- setup -----------------------------------------------------------------------------


@command("draft")
class Draft(Command):
    """Drafting variant: take one steed + starting-hero stack."""

    stack: Int


@command("keep_deed")
class KeepDeed(Command):
    deed: Id


# --- the turn ----------------------------------------------------------------------------


@command("reset_dice")
class ResetDice(Command): ...


@command("plan")
class Plan(Command):
    """Bump locked slot `slot` (1-3) with the reserve die of value `die` (None in the last
    three rounds); `option`: slot 1 a good (last rounds), slot 2 lantern/illuminated/both,
    slot 3 coins/rotate/prestige; `illuminated`: with slot 2's illuminated die, the value of
    the special reserve's die to move (None: the one gained first)."""

    slot: Int
    die: Int | None = None
    option: Id | None = None
    illuminated: Int | None = None


@command("move")
class Move(Command):
    """Move by the `die` of the action pool (night, illuminated, or steed for Sugarfoot's 3),
    then `horseshoe` -1, 0 or +1."""

    die: Id
    horseshoe: Int = 0


@command("bazaar")
class Bazaar(Command): ...


@command("bazaar_rotate")
class BazaarRotate(Command): ...


@command("bazaar_change")
class BazaarChange(Command):
    source: Id  # the section (good) the die leaves
    good: Id  # the new face


@command("bazaar_buy")
class BazaarBuy(Command):
    goods: tuple[Id, ...] = ()


@command("take_commission")
class TakeCommission(Command):
    town: Id


@command("dark_market")
class DarkMarket(Command):
    """Move the marker `steps` (1-4, a coin each); on the south space the commission of
    `town` or the `deed` of courtyard slot 0 or 1 (-1: the deck's top)."""

    steps: Int
    town: Id | None = None
    deed: Int | None = None


@command("inn")
class Inn(Command):
    """Sell the stored `goods` (piece ids) to the hero in inn slot `slot`."""

    slot: Int
    goods: tuple[Int, ...]


@command("ruins")
class Ruins(Command):
    steps: Int
    good: Id


@command("caravan")
class Caravan(Command):
    """Lead a caravan: `companion` 0-2 from the row or -1 for the deck top."""

    companion: Int
    route: Id  # dark_road | shortcut
    town: Id


@command("building")
class Building(Command):
    """Activate a building; each building reads only its own fields (any other set is
    `bad_command`): `pay` coins | quartz | lantern (Surveyor, Guildhall, Candle & Quartz,
    Filigree); `piece` a stored good paid (Candle & Quartz, Filigree) or upgraded
    (Workshop); `good` the good gained (Icebreaker Harbor, Guildhall, Lanternworks,
    Filigree) and `good2` the Guildhall's $1 good; `hero` an inn slot or `town` a
    commission stack (Candle & Quartz); `gives`/`gets` the Mansion's trades, one for one."""

    building: Id
    pay: Id | None = None
    piece: Int | None = None
    good: Id | None = None
    good2: Id | None = None
    hero: Int | None = None
    town: Id | None = None
    gives: tuple[Id, ...] | None = None
    gets: tuple[Id, ...] | None = None


@command("use_companion")
class UseCompanion(Command):
    """Use `ability` of `companion`; each ability reads only its own choices (any other
    set is `bad_command`): `hero` to deliver (Cave Dragon), `town` a commission stack (Ice
    Mouse; Cosimo's dark market), `slot` an inn slot (Snow Bee), `good` (harbor, basic or
    ruins good), `deed` courtyard slot 0/1 or -1 the deck's top (Grace; Cosimo's dark
    market), `upgrade` or `dark_market` (Cosimo) and `gift` the hero Cosimo takes."""

    companion: Id
    ability: Id
    hero: Id | None = None
    town: Id | None = None
    slot: Int | None = None
    good: Id | None = None
    deed: Int | None = None
    upgrade: Id | None = None
    dark_market: bool | None = None
    gift: Id | None = None


@command("end_turn")
class EndTurn(Command): ...


# --- storage -----------------------------------------------------------------------------


@command("place_good")
class PlaceGood(Command):
    """Store the first incoming good at (`area`, `x`, `y`, orientation `o`); no area:
    anywhere it fits (rearranging the storage if that is what it takes)."""

    area: Id | None = None
    x: Int = 0
    y: Int = 0
    o: Int = 0


@command("discard_good")
class DiscardGood(Command):
    """Discard the incoming good (`piece` None) or a stored piece to make room."""

    piece: Int | None = None


@command("rearrange")
class Rearrange(Command):
    """A whole new layout: for each stored piece, (piece, area index, x, y, o) flattened
    as 5 ints; area index into the seat's `areas` list of its view."""

    layout: tuple[Int, ...]


# --- answers to choices ----------------------------------------------------------------------


@command("discard_hero")
class DiscardHero(Command):
    hero: Id


@command("discard_commission")
class DiscardCommission(Command):
    commission: Id


@command("discard_resource")
class DiscardResource(Command):
    resource: Id  # quartz | horseshoe


@command("choose_good")
class ChooseGood(Command):
    good: Id


@command("lose_good")
class LoseGood(Command):
    piece: Int


@command("ruins_die")
class RuinsDie(Command):
    roll: bool


@command("take_hero")
class TakeHero(Command):
    """Take the hero of inn slot `slot` (0-3) or the deck top (-1)."""

    slot: Int


@command("choose_steed")
class ChooseSteed(Command):
    steed: Id


@command("join")
class Join(Command):
    yes: bool


@command("reroll_travel")
class RerollTravel(Command): ...


@command("take_travel_die")
class TakeTravelDie(Command):
    """Take a travel die of face `value`; `whisper` +1 (steed), `boost` +1/+2 (a loyal
    companion's gift), `twin` the value of a travel die on the table whose benefit you
    also gain (Threy Cat; None: no twin). Old logs wrote `twin` as true/false: `parse`
    reads true as the value taken (`_upcast`)."""

    value: Int
    whisper: bool = False
    boost: Int = 0
    twin: Int | None = None


@command("visit")
class Visit(Command):
    town: Id | None = None  # None: pass


@command("deliver_commission")
class DeliverCommission(Command):
    commission: Id
    goods: tuple[Int, ...]


@command("deliver_hero")
class DeliverHero(Command):
    hero: Id


@command("done_delivering")
class DoneDelivering(Command): ...


@command("fortune")
class Fortune(Command):
    """A good fortune: `kind` die | deed | coins | upgrade; the `deed` of courtyard slot 0
    or 1 (-1: the deck's top), or the `upgrade` taken."""

    kind: Id
    deed: Int | None = None
    upgrade: Id | None = None


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


def _int(ref: Any) -> Any:
    """A piece id or slot written as a string by the old shapes ("3"), as an int."""
    return int(ref) if isinstance(ref, str) and ref.isdigit() and len(ref) < 7 else ref


def _old_building(data: dict[str, Any]) -> dict[str, Any]:
    """`building` with `pay`/`pick`/`pick2` strings: each building's own fields. A value
    the old shape did not give that building stays under its old name (refused)."""
    b, pay, pick = data.get("building"), data.get("pay"), data.pop("pick", None)
    if data.get("pick2") is None:
        data.pop("pick2", None)
    elif b == "guildhall":
        data["good2"] = data.pop("pick2")
    if isinstance(pay, str) and pay.isdigit() and b in ("candle_quartz", "filigree"):
        data["piece"] = _int(data.pop("pay"))
    elif b == "mansion" and (pay is not None or pick is not None):
        data["gives"] = str(data.pop("pay") or "").split(",")
        data["gets"] = str(pick or "").split(",")
        return data
    if data.get("pay", 0) is None:
        data.pop("pay")
    if pick is None:
        return data
    if b == "workshop":
        data["piece"] = _int(pick)
    elif b == "candle_quartz" and isinstance(pick, str) and pick.startswith("hero:"):
        data["hero"] = _int(pick[5:])
    elif b == "candle_quartz" and isinstance(pick, str) and pick.startswith("commission:"):
        data["town"] = pick[11:]
    elif b in ("icebreaker_harbor", "guildhall", "lanternworks", "filigree"):
        data["good"] = pick
    else:
        data["pick"] = pick
    return data


_DEED = {"0": 0, "1": 1, "top": -1}  # the old deed picks


def _old_market_pick(data: dict[str, Any], pick: Any) -> None:
    """ "commission:<town>" / "deed:0|1|top" (the dark market's south space)."""
    if isinstance(pick, str) and pick.startswith("commission:"):
        data["town"] = pick[11:]
    elif isinstance(pick, str) and pick.startswith("deed:") and pick[5:] in _DEED:
        data["deed"] = _DEED[pick[5:]]
    elif pick not in (None, "None"):
        data["pick"] = pick


_COMPANION_PICK = {
    "deliver_hero": "hero", "gain_commission": "town", "harbor_good": "good",
    "basic_good": "good", "ruins_step": "good",
}  # fmt: skip


def _old_companion(data: dict[str, Any]) -> dict[str, Any]:
    """`use_companion`'s string `pick` as the ability's own field."""
    pick, ability = data.pop("pick"), data.get("ability")
    if data.get("gift", 0) is None:
        data.pop("gift")
    if pick is None:
        return data
    if ability in _COMPANION_PICK:
        data[_COMPANION_PICK[ability]] = pick
    elif ability == "gain_hero":
        data["slot"] = _int(pick)
    elif ability == "deed" and pick in _DEED:
        data["deed"] = _DEED[pick]
    elif ability == "upgrade_or_dark_market" and str(pick).startswith("upgrade:"):
        data["upgrade"] = pick[8:]
    elif ability == "upgrade_or_dark_market" and str(pick).startswith("dark_market:"):
        data["dark_market"] = True
        _old_market_pick(data, pick[12:])
    else:
        data["pick"] = pick
    return data


def _old_pick(data: dict[str, Any]) -> dict[str, Any]:
    """`dark_market`'s and `fortune`'s string `pick`."""
    pick = data.pop("pick")
    if data["type"] == "dark_market":
        _old_market_pick(data, pick)
    elif data.get("kind") == "deed" and pick in _DEED:
        data["deed"] = _DEED[pick]
    elif data.get("kind") == "upgrade" and pick is not None:
        data["upgrade"] = pick
    elif pick is not None:
        data["pick"] = pick
    return data


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """Old command shapes (stored logs, old clients) in today's:

    - `take_travel_die`'s boolean `twin` (Threy Cat doubled the die taken) becomes the
      value of that die;
    - `building`'s strings `pay`/`pick`/`pick2` ("3" a piece, "hero:1", "commission:farglen",
      the Mansion's comma lists) become the building's typed fields (`_old_building`);
    - `use_companion`'s, `dark_market`'s and `fortune`'s `pick` ("upgrade:<id>",
      "dark_market:deed:top", "dark_market:None", "0"...) likewise.

    A value an old shape could not hold stays under its old name and is refused.
    """
    kind = data.get("type")
    if kind == "take_travel_die" and isinstance(data.get("twin"), bool):
        data["twin"] = data.get("value") if data["twin"] else None
    elif kind == "building" and ("pick" in data or "pick2" in data):
        data = _old_building(data)
    elif kind == "use_companion" and "pick" in data:
        data = _old_companion(data)
    elif kind in ("dark_market", "fortune") and "pick" in data:
        data = _old_pick(data)
    return data


# `nulls`: Dark Road's clients have always read every field, null included.
TABLE = kit.Commands("DarkRoad", COMMANDS.values(), upcast=upcast, nulls=True)
parse = TABLE.parse
to_json = TABLE.to_json
listing_json = TABLE.listing_json
