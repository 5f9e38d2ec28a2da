"""The player-facing texts of the content, in the reader's language.

The content pack (content/base/*.yaml) is written in English. The catalogue the client
draws from (`game._catalogue(lang)`) passes each card through here:
- a deed's text is generated from its rule (measure, threshold, reward, amount, per), so
  number and grammar come from the catalogue (`ngettext`), not from the YAML sentence;
- companions' species and the events' flavour are generated from their templates;
- the base pack's names and texts (goods, buildings, upgrades, deeds, events, flavour) are marked
  below with `_` so scripts/i18n.py extracts them, and translated when the pack's English
  is the one marked here (a pack that rewrites a text shows its own text untranslated).

Names of people, beasts and towns (heroes, companions, steeds, towns) and articles are
the pack's own French, in content/base/locale/fr.yaml (app.games.kit.content.translate,
as for Karanor); this module translates the rule texts and the lines marked below.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from app.games.i18n import Translator
from app.games.kit import marked as _

from .content import Content, Deed

# Names and rule texts of the base pack, by the English text the pack carries.
KNOWN: frozenset[str] = frozenset(
    {
        # goods
        _("Weapon"),
        _("Armor"),
        _("Potion"),
        _("Staff"),
        _("Book"),
        _("Instrument"),
        # events' flavour
        _("Eyes glint beyond the shallows; nobody crosses alone tonight."),
        _("The planks ring like iron under the wheels, and every step is a wager."),
        _("A rope across the road, a gap-toothed smile, and a price for passing."),
        _("White above, white below: the drivers follow the bells of the lead mule."),
        _("Someone keeps these lamps burning; travellers leave a coin and a wish."),
        _("Everyone pushes, everyone swears, and the wagon moves a hand's width."),
        _("A warm fire, a cold stare, and a story nobody quite believes."),
        _("Spokes in the ditch and a long night of whittling ahead."),
        _("The wind speaks in voices; the horses hear them first."),
        _("Stones of ice drum on the canvas until the goods are bruised."),
        _("The river took the road last spring and has not given it back."),
        _("An old pilgrim traces a sign on each wagon and asks for nothing."),
        _("They watch the caravan count its coins, and count along."),
        _("Low ceilings, damp walls and a door that was never on any map."),
        _("A boatman who asks no names rows the caravan across in the dark."),
        _("Paving stones older than the kingdom, still straight as a spear."),
        _("Trees of frost chime as the wagons brush past them."),
        _("Steps cut into the glacier by hands no one remembers."),
        _("The hermit points the way for a loaf of bread and a little news."),
        _("The rock glows blue along the path, bright enough to read by."),
        _("Behind the roaring water, a dry passage as old as the river."),
        _("At low water the old stones rise, and the caravan hurries across."),
        _("Narrow, steep and stubborn, like the goats that made it."),
        _("The caravan walks where water once ran, high above the valley."),
        _("Every window holds a lantern, and every lantern a watcher."),
        _("A trail the wardens keep for themselves, borrowed without asking."),
        # buildings
        _("Blazing Quartz Mine"),
        _("Gain 1 blazing quartz."),
        _("Queen's Eyes Surveyor"),
        _("Spend 2 coins or 1 blazing quartz to gain 3 prestige."),
        _("Icebreaker Harbor"),
        _("Gain 1 basic good of a type not available on the market wheel."),
        _("Merchant's Guildhall"),
        _("Spend 2 coins or 1 lantern: gain 1 basic good of any type and 1 basic good worth $1."),
        _("The Oracle of Lumi"),
        _("Roll the oracle die and gain the benefit shown."),
        _("The Candle & Quartz"),
        _("Spend 2 coins or 1 basic good worth $1: gain 1 available hero or commission."),
        _("Otho's Lanternworks"),
        _("Gain 1 basic good worth $1, 1 lantern and 1 prestige."),
        _("Guildmaster's Mansion"),
        _("Trade any number of: 1 lantern, 1 blazing quartz, 2 coins, one for one."),
        _("Yedl's Workshop"),
        _("Upgrade 1 good in your storage; gain 1 lantern."),
        _("The Frosted Filigree"),
        _("Spend 2 coins or 1 good: gain 1 upgraded good worth $1."),
        # wagon upgrades
        _("Master's Bench"),
        _("Locked slot 1 crafts an upgraded good."),
        _("Lamp Bracket"),
        _("Locked slot 2: 1 lantern and you may move an illuminated die to the action pool."),
        _("Strongbox Hinge"),
        _("Locked slot 3: 3 coins or 1 prestige."),
        _("Hidden Compartment"),
        _("A 1-cell tile in your storage; never discarded; 1 victory point at the end."),
        _("Everburning Lamp"),
        _("Takes a lantern slot; the ruins die rolls without a lantern."),
        _("Stable Hitch"),
        _("Takes an inventory slot; gain a second steed of your choice."),
        # deeds
        _("Road Warden's Ledger"),
        _("Innkeeper's Friend"),
        _("Northern Charter"),
        _("Glass and Song Charter"),
        _("Tower and Page Charter"),
        _("The Grand Tour"),
        _("Quartz Hoard"),
        _("Lamplighter's Guild Seal"),
        _("Fine Wares"),
        _("A Full Wagon"),
        _("Beast Tamer"),
        _("Menagerie"),
        _("Quality First"),
        _("The Tinkerer"),
        _("The Illuminator"),
        _("A Busy Ledger"),
        _("Escort of Heroes"),
        _("Lucky Shoes"),
        _("Moneylender's Bond"),
        # events
        _("Wolves at the Ford"),
        _("The Frozen Bridge"),
        _("A Toll of Bandits"),
        _("Snowblind Pass"),
        _("The Lamplit Shrine"),
        _("Mud to the Axles"),
        _("A Stranger's Fire"),
        _("The Broken Wheel"),
        _("Whispers in the Pines"),
        _("Hailstorm"),
        _("The Drowned Road"),
        _("A Pilgrim's Blessing"),
        _("Crows on the Milestone"),
        _("The Smugglers' Tunnel"),
        _("A Hidden Ferry"),
        _("The Old Queen's Road"),
        _("Through the Glasswood"),
        _("The Ice Stair"),
        _("A Hermit's Path"),
        _("The Quartz Seam"),
        _("Under the Waterfall"),
        _("The Sunken Causeway"),
        _("A Goat Track"),
        _("The Ruined Aqueduct"),
        _("Lantern Alley"),
        _("The Warden's Cut"),
        # steeds' and stray companions' flavour
        _("A haggler's mule; merchants lower their prices just to be rid of him."),
        _("A black mare whose shadow reaches every door on the Ringway."),
        _("The lamplighters of Yurg's yard adore her and send her off with a lantern."),
        _("Always three steps, never more, never less; saddle bags bulging."),
        _("A dray-horse strong enough to pull a wagon with every improvement bolted on."),
        _("Soft-footed on the dark road; luck seems to follow."),
        _("A shaggy ox who is paid in quartz by grateful towns."),
        _("A lynx of expensive tastes; a potion buys her a rumour worth a fortune."),
        _("A firefly swarm that knows every hidden lane between the towns."),
        _("A fox in a waistcoat who trades only in introductions."),
        _("A round pony that digs in ruins for the joy of it."),
    }
)

# Loyal companions: "<name> the <Species>" and one line of flavour per species.
SPECIES: dict[str, tuple[str, Callable[[Translator, str], str], Callable[[Translator], str]]] = {
    "cave_dragon": (
        "Cave Dragon",
        lambda tr, n: tr.gettext("{name} the Cave Dragon", name=n),
        lambda tr: tr.gettext("A cave dragon that follows whoever is generous with quartz."),
    ),
    "ice_mouse": (
        "Ice Mouse",
        lambda tr, n: tr.gettext("{name} the Ice Mouse", name=n),
        lambda tr: tr.gettext("An ice mouse that follows whoever is generous with quartz."),
    ),
    "phoenix": (
        "Phoenix",
        lambda tr, n: tr.gettext("{name} the Phoenix", name=n),
        lambda tr: tr.gettext("A phoenix that follows whoever is generous with quartz."),
    ),
    "raven": (
        "Raven",
        lambda tr, n: tr.gettext("{name} the Raven", name=n),
        lambda tr: tr.gettext("A raven that follows whoever is generous with quartz."),
    ),
    "snow_bee": (
        "Snow Bee",
        lambda tr, n: tr.gettext("{name} the Snow Bee", name=n),
        lambda tr: tr.gettext("A snow bee that follows whoever is generous with quartz."),
    ),
    "threy_cat": (
        "Threy Cat",
        lambda tr, n: tr.gettext("{name} the Threy Cat", name=n),
        lambda tr: tr.gettext("A threy cat that follows whoever is generous with quartz."),
    ),
}
# Commissions: "<Town> <Patron> order <n>".
PATRONS: dict[str, Callable[[Translator, str, int], str]] = {
    "Garrison": lambda tr, town, n: tr.gettext("{town} Garrison order {n}", town=town, n=n),
    "Outposts": lambda tr, town, n: tr.gettext("{town} Outposts order {n}", town=town, n=n),
    "Stills": lambda tr, town, n: tr.gettext("{town} Stills order {n}", town=town, n=n),
    "Festival": lambda tr, town, n: tr.gettext("{town} Festival order {n}", town=town, n=n),
    "Tower": lambda tr, town, n: tr.gettext("{town} Tower order {n}", town=town, n=n),
    "Library": lambda tr, town, n: tr.gettext("{town} Library order {n}", town=town, n=n),
}
ORDER = re.compile(r"^(?P<town>.+) (?P<patron>\w+) order (?P<n>\d+)$")
FOLLOWS = " that follows whoever is generous with quartz."
SLOWS = ": the caravan slows, and every merchant looks to their own wagon."
HIDDEN = ": a way few know, lit by borrowed lanterns."


def known(tr: Translator, text: str) -> str:
    """`text` in the reader's language if it is one of the base pack's marked texts."""
    return tr.gettext(text) if text in KNOWN else text


def reward(tr: Translator, deed: Deed) -> str:
    """ "3 VP", "2 prestige", "8 coins"."""
    n = deed.amount
    if deed.reward == "coins":
        return tr.ngettext("{n} coin", "{n} coins", n)
    if deed.reward == "prestige":
        return tr.ngettext("{n} prestige", "{n} prestige", n)
    return tr.ngettext("{n} VP", "{n} VP", n)


# Deeds scored per item: "{reward} for each ...".
PER: dict[str, Callable[[Translator, str], str]] = {
    "full_commissions": lambda tr, r: tr.gettext(
        "{reward} for each commission delivered with all 3 goods.", reward=r
    ),
    "commissions_delivered": lambda tr, r: tr.gettext(
        "{reward} for each commission delivered.", reward=r
    ),
    "heroes_delivered": lambda tr, r: tr.gettext("{reward} for each hero delivered.", reward=r),
    "towns_delivered": lambda tr, r: tr.gettext(
        "{reward} for each town you delivered to.", reward=r
    ),
    "quartz_held": lambda tr, r: tr.gettext(
        "{reward} for each blazing quartz in your inventory.", reward=r
    ),
    "lanterns_held": lambda tr, r: tr.gettext("{reward} for each lantern you end with.", reward=r),
    "horseshoes_held": lambda tr, r: tr.gettext(
        "{reward} for each horseshoe in your inventory.", reward=r
    ),
    "upgraded_stored": lambda tr, r: tr.gettext(
        "{reward} for each upgraded good in your storage.", reward=r
    ),
    "goods_stored": lambda tr, r: tr.gettext("{reward} for each good in your storage.", reward=r),
    "loyal_gifts": lambda tr, r: tr.gettext(
        "{reward} for each gift on your loyal companions.", reward=r
    ),
    "companions": lambda tr, r: tr.gettext("{reward} for each companion.", reward=r),
    "upgraded_delivered": lambda tr, r: tr.gettext(
        "{reward} for each upgraded good delivered on commissions.", reward=r
    ),
    "wagon_upgrades": lambda tr, r: tr.gettext("{reward} for each wagon upgrade.", reward=r),
    "illuminated_held": lambda tr, r: tr.gettext(
        "{reward} for each unused illuminated die.", reward=r
    ),
}

# Deeds scored once at a threshold: "{reward} if ..." ({n} the threshold).
THRESHOLD: dict[str, Callable[[Translator, str, int], str]] = {
    "full_commissions": lambda tr, r, n: tr.ngettext(
        "{reward} if you delivered {n}+ commission with all 3 goods.",
        "{reward} if you delivered {n}+ commissions with all 3 goods.",
        n,
        reward=r,
    ),
    "commissions_delivered": lambda tr, r, n: tr.ngettext(
        "{reward} if you delivered {n}+ commission.",
        "{reward} if you delivered {n}+ commissions.",
        n,
        reward=r,
    ),
    "heroes_delivered": lambda tr, r, n: tr.ngettext(
        "{reward} if you delivered {n}+ hero.",
        "{reward} if you delivered {n}+ heroes.",
        n,
        reward=r,
    ),
    "towns_delivered": lambda tr, r, n: tr.ngettext(
        "{reward} if you delivered to {n}+ different town.",
        "{reward} if you delivered to {n}+ different towns.",
        n,
        reward=r,
    ),
    "quartz_held": lambda tr, r, n: tr.ngettext(
        "{reward} if you end with {n}+ blazing quartz.",
        "{reward} if you end with {n}+ blazing quartz.",
        n,
        reward=r,
    ),
    "lanterns_held": lambda tr, r, n: tr.ngettext(
        "{reward} if you end with {n}+ lantern.",
        "{reward} if you end with {n}+ lanterns.",
        n,
        reward=r,
    ),
    "horseshoes_held": lambda tr, r, n: tr.ngettext(
        "{reward} if you end with {n}+ horseshoe.",
        "{reward} if you end with {n}+ horseshoes.",
        n,
        reward=r,
    ),
    "upgraded_stored": lambda tr, r, n: tr.ngettext(
        "{reward} if you end with {n}+ upgraded good in storage.",
        "{reward} if you end with {n}+ upgraded goods in storage.",
        n,
        reward=r,
    ),
    "goods_stored": lambda tr, r, n: tr.ngettext(
        "{reward} if you end with {n}+ good in storage.",
        "{reward} if you end with {n}+ goods in storage.",
        n,
        reward=r,
    ),
    "loyal_gifts": lambda tr, r, n: tr.ngettext(
        "{reward} if your loyal companions carry {n}+ gift.",
        "{reward} if your loyal companions carry {n}+ gifts.",
        n,
        reward=r,
    ),
    "companions": lambda tr, r, n: tr.ngettext(
        "{reward} if you have {n}+ companion.",
        "{reward} if you have {n}+ companions.",
        n,
        reward=r,
    ),
    "upgraded_delivered": lambda tr, r, n: tr.ngettext(
        "{reward} if you delivered {n}+ upgraded good on commissions.",
        "{reward} if you delivered {n}+ upgraded goods on commissions.",
        n,
        reward=r,
    ),
    "wagon_upgrades": lambda tr, r, n: (
        tr.gettext("{reward} if your wagon has an upgrade.", reward=r)
        if n <= 1
        else tr.ngettext(
            "{reward} if your wagon has {n}+ upgrade.",
            "{reward} if your wagon has {n}+ upgrades.",
            n,
            reward=r,
        )
    ),
    "illuminated_held": lambda tr, r, n: tr.ngettext(
        "{reward} if you end with {n} unused illuminated die.",
        "{reward} if you end with {n} unused illuminated dice.",
        n,
        reward=r,
    ),
}

REGIONS = ("region_north", "region_west", "region_east")


def deed_text(tr: Translator, deed: Deed, content: Content) -> str:
    """What a deed scores, in the reader's language (generated from its rule)."""
    r = reward(tr, deed)
    n = deed.threshold
    if deed.measure in REGIONS:
        region = deed.measure.removeprefix("region_")
        towns = [t.name for t in content.board.towns if t.region == region]
        places = (
            tr.gettext("{a} or {b}", a=towns[0], b=towns[1])
            if len(towns) == 2
            else ", ".join(towns)
        )
        if deed.per:
            return tr.gettext(
                "{reward} for each commission or hero delivered to {towns}.", reward=r, towns=places
            )
        return tr.ngettext(
            "{reward} if you delivered {n}+ commission or hero to {towns}.",
            "{reward} if you delivered {n}+ commissions or heroes to {towns}.",
            n,
            reward=r,
            towns=places,
        )
    if deed.per:
        return PER[deed.measure](tr, r)
    return THRESHOLD[deed.measure](tr, r, n)


def localise(data: dict[str, Any], content: Content, tr: Translator) -> dict[str, Any]:
    """The client catalogue's cards with their texts in `tr`'s language."""
    data["title"] = tr.gettext("Merchants of the Dark Road")
    for good in data["board"]["goods"]:
        good["name"] = known(tr, good["name"])
    for part in ("buildings", "upgrades"):
        for card in data[part]:
            card["name"] = known(tr, card["name"])
            card["text"] = known(tr, card["text"])
    towns = {t.id: t.name for t in content.board.towns}
    for card in data["commissions"]:
        m = ORDER.match(card["name"])
        if m and m["patron"] in PATRONS:
            town = towns.get(card.get("town", ""), m["town"])  # in the reader's language
            card["name"] = PATRONS[m["patron"]](tr, town, int(m["n"]))
    for card in data["steeds"]:
        card["flavour"] = known(tr, card["flavour"])
    for card in data["companions"]:
        species = SPECIES.get(card["species"])
        if species is None:
            card["flavour"] = known(tr, card["flavour"])
            continue
        title, name, flavour = species
        if card["name"].endswith(f" the {title}"):
            card["name"] = name(tr, card["name"].removesuffix(f" the {title}"))
        if card["flavour"].endswith(FOLLOWS):
            card["flavour"] = flavour(tr)
    for card in data["events"]:
        english = card["name"]
        card["name"] = known(tr, english)
        if card["flavour"] in KNOWN:  # the base pack's own line
            card["flavour"] = known(tr, card["flavour"])
        elif card["flavour"] == english + SLOWS:
            card["flavour"] = tr.gettext(
                "{event}: the caravan slows, and every merchant looks to their own wagon.",
                event=card["name"],
            )
        elif card["flavour"] == english + HIDDEN:
            card["flavour"] = tr.gettext(
                "{event}: a way few know, lit by borrowed lanterns.", event=card["name"]
            )
    by_id = {d.id: d for d in content.deeds}
    for card in data["deeds"]:
        card["name"] = known(tr, card["name"])
        card["text"] = deed_text(tr, by_id[card["id"]], content)
    # How a sentence names each entry in `lang` (le, la, l', les: "{commission:le}").
    for part in ("heroes", "companions", "steeds", "deeds", "events", "commissions"):
        for card in data[part]:
            card["article"] = content.articles.get(card["id"], "")
    for part in ("buildings", "upgrades"):
        for card in data[part]:
            card["article"] = content.articles.get(card["id"], "")
    for town in data["board"]["towns"]:
        town["article"] = content.articles.get(town["id"], "")
    return data
