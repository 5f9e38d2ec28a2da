"""Yurg's Excursions' caravan: leading it, joining, the event and its travel dice,
visiting towns and delivering, the leader's good fortunes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from typing import Any

from app.games import rng

from .. import actions as A
from ..content import Content
from ..errors import RuleError
from ..state import Player, State
from .core import (
    ROUTES,
    SHORTCUT_LANTERNS,
    Check,
    Events,
    Handler,
    OneCommand,
    activation_check,
    err,
    intern,
    pending_choice,
    roll,
    rules,
    use_target,
)
from .districts import match_requests, request_candidates, shortcut_lanterns, visit_excursions
from .gains import (
    DEED_PICKS,
    apply_effects,
    deed_pick_ok,
    deliver_hero,
    gain_coins,
    gain_deed,
    gain_illuminated,
    gain_lanterns,
    gain_prestige,
    gain_resource,
    gain_upgrade,
    has_steed,
    note_delivery,
    return_piece,
    upgrade_ok,
)

# --- the caravan ------------------------------------------------------------------------------


_CARAVANS: dict[tuple[Any, ...], tuple[A.Caravan, ...]] = {}  # `Caravan.listing`'s


class Caravan(Handler[A.Caravan]):
    """Yurg's Excursions: lead a caravan (companion, route, destination)."""

    cmd = A.Caravan

    def listing(self, s: State, c: Content, seat: int) -> Sequence[A.Caravan]:
        """Every companion there is, by the routes `seat` can pay, to every town
        (remembered by those companions and routes)."""
        p = s.players[seat]
        comps = [i for i in range(3) if s.row[i] is not None]
        if s.decks["companions"]:
            comps.append(-1)
        can = p.free_shortcut or shortcut_lanterns(s, c, p) >= SHORTCUT_LANTERNS
        key = (c, can, *comps)
        found = _CARAVANS.get(key)
        if found is None:
            routes = ROUTES if can else ROUTES[:1]
            found = _CARAVANS[key] = tuple(
                intern(A.Caravan, i, r, t) for i in comps for r in routes for t in c.towns
            )
        return found

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Caravan]:
        for comp in (0, 1, 2, -1):
            for route in ROUTES:
                for t in c.towns:
                    yield intern(A.Caravan, comp, route, t)

    def check(self, s: State, c: Content, seat: int, cmd: A.Caravan) -> Check:
        refused = activation_check(s, seat, "excursions")
        if refused:
            return refused
        if cmd.companion == -1:
            if not s.decks["companions"]:
                return err("empty_deck", "the companion deck is empty")
        elif not 0 <= cmd.companion < 3 or s.row[cmd.companion] is None:
            return err("no_such_companion", f"no companion in row slot {cmd.companion}")
        if cmd.route not in ROUTES:
            return err("bad_route", f"{cmd.route!r}: the route is dark_road or shortcut")
        if cmd.town not in c.town:
            return err("bad_town", f"{cmd.town!r} is not an outlying town")
        p = s.players[seat]
        short = not p.free_shortcut and shortcut_lanterns(s, c, p) < SHORTCUT_LANTERNS
        if cmd.route == "shortcut" and short:
            return err("no_lantern", "a shortcut costs 3 lanterns")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Caravan, ev: Events) -> None:
        use_target(s, c, "excursions")
        p = s.players[seat]
        visit_excursions(s, c, p, ev)
        extra = 0
        if cmd.companion == -1:
            comp = s.decks["companions"].pop(0)
        else:
            row = s.row[cmd.companion]
            assert row is not None
            comp = row
            s.row[cmd.companion] = None
            if s.row_die[cmd.companion]:
                s.row_die[cmd.companion] = False
                extra = 1
        p.companions.append({"id": comp, "used": []})
        if cmd.route == "shortcut":
            if p.free_shortcut:
                p.free_shortcut = False
            else:
                gain_lanterns(s, c, p, -SHORTCUT_LANTERNS, ev)
        ev.append(
            {
                "type": "caravan",
                "seat": seat,
                "companion": comp,
                "route": cmd.route,
                "town": cmd.town,
            }
        )
        s.supply["travel"] += extra  # the companion's die joins the pool via `dice`
        others = [(seat + i) % s.n for i in range(1, s.n)]
        s.travel = {
            "leader": seat,
            "route": cmd.route,
            "town": cmd.town,
            "companion": comp,
            "extra_die": extra,
            "travellers": [seat],
            "asking": others,
            "stage": "join",
            "event": None,
            "dice": [],
            "order": [],
            "visiting": [],
            "final": False,
        }


_YES = A.Join(True)
_ANSWERS = (_YES, A.Join(False))


class Join(Handler[A.Join]):
    """A caravan: each other seat says yes or no, in seat order."""

    cmd = A.Join

    def listing(self, s: State, c: Content, seat: int) -> Sequence[A.Join]:
        """Both answers when the choice is `seat`'s (the check reads nothing else)."""
        return () if self.check(s, c, seat, _YES) else _ANSWERS

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Join]:
        yield from _ANSWERS

    def check(self, s: State, c: Content, seat: int, cmd: A.Join) -> Check:
        pend = pending_choice(s, seat, "join")
        return pend if isinstance(pend, RuleError) else None

    def do(self, s: State, c: Content, seat: int, cmd: A.Join, ev: Events) -> None:
        s.pending.pop(0)
        assert s.travel is not None
        if cmd.yes:
            s.travel["travellers"].append(seat)
        ev.append({"type": "join", "seat": seat, "yes": cmd.yes})


def start_event(s: State, c: Content, ev: Events) -> None:
    t = s.travel
    assert t is not None
    deck = t["route"]
    if not s.decks[deck]:  # ruling R18: an empty event deck is its discards reshuffled
        s.decks[deck] = s.discards[deck]
        s.discards[deck] = []
        s.rng = rng.shuffle(s.rng, s.decks[deck])
    t["event"] = s.decks[deck].pop(0)
    n = len(t["travellers"]) + t["extra_die"]
    n = min(n, s.supply["travel"])
    s.supply["travel"] -= n
    t["dice_held"] = n
    t["dice"] = sorted(roll(s, c.board.travel_faces) for _ in range(n))
    leader = t["leader"]
    ring = [(leader + i) % s.n for i in range(s.n)]
    if t["route"] == "shortcut":
        ring = ring[1:] + ring[:1]
    t["order"] = [x for x in ring if x in t["travellers"]]
    t["stage"] = "dice"
    ev.append({"type": "event", "event": t["event"], "dice": list(t["dice"])})


def boost_abilities(c: Content, p: Player, ability: str) -> list[dict[str, Any]]:
    return [
        x
        for x in p.companions
        if c.companion[x["id"]].kind == "loyal"
        and ability in c.companion[x["id"]].abilities
        and ability not in x["used"]
    ]


class RerollTravel(OneCommand[A.RerollTravel]):
    """A caravan: spend a lantern to reroll the remaining travel dice."""

    cmd = A.RerollTravel

    def check(self, s: State, c: Content, seat: int, cmd: A.RerollTravel) -> Check:
        pend = pending_choice(s, seat, "travel_die")
        if isinstance(pend, RuleError):
            return pend
        if s.players[seat].lanterns < 1:
            return err("no_lantern", "a reroll costs a lantern")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.RerollTravel, ev: Events) -> None:
        t = s.travel
        assert t is not None
        gain_lanterns(s, c, s.players[seat], -1, ev)
        t["dice"] = sorted(roll(s, c.board.travel_faces) for _ in t["dice"])
        ev.append({"type": "travel_reroll", "seat": seat, "dice": list(t["dice"])})


class TakeTravelDie(Handler[A.TakeTravelDie]):
    """A caravan: take a travel die and gain (or pay) the event's effect for it."""

    cmd = A.TakeTravelDie

    def listing(self, s: State, c: Content, seat: int) -> list[A.TakeTravelDie]:
        """The candidates, once the choice is `seat`'s: built from the dice on the table
        and the steed and companions that may add, each passes the rest of `check` but
        for the two limits tested here (two gifts need two quartz, a face at most 6)."""
        if isinstance(pending_choice(s, seat, "travel_die"), RuleError):
            return []
        two = s.players[seat].quartz >= 2
        return [
            x
            for x in self.candidates(s, c, seat)
            if x.value + x.whisper + x.boost <= 6 and (two or not x.boost or x.twin is None)
        ]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.TakeTravelDie]:
        t = s.travel
        if not t or not s.pending or s.pending[0]["kind"] != "travel_die":
            return
        p = s.players[seat]
        own = seat == s.turn_seat and p.quartz > 0
        whispers = (False, True) if has_steed(c, p, "travel_plus_one") else (False,)
        boosts = (0, 1, 2) if own and boost_abilities(c, p, "travel_boost") else (0,)
        cat = own and bool(boost_abilities(c, p, "twin_travel_die"))
        values = sorted(set(t["dice"]))
        for v in values:
            twins: list[int | None] = [None]
            if cat:
                twins += values if rules(s) >= 2 else [v]
            for whisper, boost, twin in product(whispers, boosts, twins):
                yield intern(A.TakeTravelDie, v, whisper, boost, twin)

    def check(self, s: State, c: Content, seat: int, cmd: A.TakeTravelDie) -> Check:
        pend = pending_choice(s, seat, "travel_die")
        if isinstance(pend, RuleError):
            return pend
        t = s.travel
        assert t is not None
        p = s.players[seat]
        if cmd.value not in t["dice"]:
            return err("no_such_die", f"no travel die shows {cmd.value} (dice: {t['dice']})")
        if cmd.whisper and not has_steed(c, p, "travel_plus_one"):
            return err("no_steed", "only Whisper adds 1 to a travel die")
        if cmd.boost not in (0, 1, 2):
            return err("bad_boost", "a boost adds 1 or 2")
        own = seat == s.turn_seat  # companions only on your own turn
        if cmd.boost and not (own and p.quartz and boost_abilities(c, p, "travel_boost")):
            return err("no_companion", "no companion to add to your travel die now")
        twin = cmd.twin is not None
        if twin and not (own and p.quartz and boost_abilities(c, p, "twin_travel_die")):
            return err("no_companion", "no Threy Cat to duplicate a travel die now")
        if twin and cmd.twin not in (t["dice"] if rules(s) >= 2 else [cmd.value]):
            return err("no_such_die", f"no travel die shows {cmd.twin} to duplicate")
        if twin and cmd.boost and p.quartz < 2:
            return err("no_quartz", "two gifts need two blazing quartz")
        if cmd.value + cmd.whisper + cmd.boost > 6:
            return err("too_high", "a travel die cannot go above 6")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.TakeTravelDie, ev: Events) -> None:
        s.pending.pop(0)
        t = s.travel
        assert t is not None
        p = s.players[seat]
        t["dice"].remove(cmd.value)
        face = cmd.value + cmd.whisper + cmd.boost
        twin = cmd.twin is not None
        for used, ability in ((cmd.boost, "travel_boost"), (twin, "twin_travel_die")):
            if used:
                give_gift(s, p, boost_abilities(c, p, ability)[0], ability, ev)
        ev.append({"type": "travel_die", "seat": seat, "value": cmd.value, "face": face})
        ev_card = c.event[t["event"]]
        apply_effects(s, c, p, ev_card.faces[face], ev)
        if cmd.twin is not None:
            # Ruling R20: rules 2 gains the benefit of the twinned die's own value (as
            # rolled); rules 1 gained the taken die's benefit a second time.
            again = cmd.twin if rules(s) >= 2 else face
            apply_effects(s, c, p, ev_card.faces[again], ev)


def give_gift(s: State, p: Player, comp: dict[str, Any], ability: str, ev: Events) -> None:
    p.quartz -= 1
    comp["used"].append(ability)
    ev.append({"type": "gift", "seat": p.seat, "companion": comp["id"], "ability": ability})


def _visit_options(s: State, c: Content, seat: int) -> list[str | None]:
    t = s.travel
    assert t is not None
    if t["final"]:
        return [*c.towns, None]
    if seat == t["leader"]:
        return [t["town"], None]
    return [t["town"], c.twin(t["town"]), None]


class Visit(Handler[A.Visit]):
    """Visiting towns: the declared town, its region's other town (not the leader), or pass."""

    cmd = A.Visit

    def listing(self, s: State, c: Content, seat: int) -> list[A.Visit]:
        """The caravan's towns (and passing) once the choice is `seat`'s."""
        if isinstance(pending_choice(s, seat, "visit"), RuleError):
            return []
        return [intern(A.Visit, town) for town in _visit_options(s, c, seat)]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Visit]:
        if s.travel and s.pending and s.pending[0]["kind"] == "visit":
            for town in _visit_options(s, c, seat):
                yield intern(A.Visit, town)

    def check(self, s: State, c: Content, seat: int, cmd: A.Visit) -> Check:
        pend = pending_choice(s, seat, "visit")
        if isinstance(pend, RuleError):
            return pend
        if cmd.town not in _visit_options(s, c, seat):
            return err("bad_town", f"you may not visit {cmd.town!r} with this caravan")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Visit, ev: Events) -> None:
        s.pending.pop(0)
        ev.append({"type": "visit", "seat": seat, "town": cmd.town})
        if cmd.town is not None and _can_deliver(c, s.players[seat], cmd.town):
            s.pending.insert(0, {"kind": "deliver", "seat": seat, "town": cmd.town})


def _can_deliver(c: Content, p: Player, town: str) -> bool:
    """Whether anything can be delivered to `town` (else the visit needs no more choices)."""
    if any(c.hero_town[c.hero[h].type] == town for h in p.heroes):
        return True
    held = {q["good"] for q in p.pieces}
    return any(
        c.commission[k].town == town and held & set(c.commission[k].requests) for k in p.commissions
    )


class DeliverCommission(Handler[A.DeliverCommission]):
    """Delivering Commissions: 1/3/6 prestige, +1 per upgraded good."""

    cmd = A.DeliverCommission

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DeliverCommission]:
        if not s.pending or s.pending[0]["kind"] != "deliver":
            return
        p = s.players[seat]
        for k in p.commissions:
            if c.commission[k].town == s.pending[0]["town"]:
                for ids in request_candidates(p, c.commission[k].requests):
                    yield intern(A.DeliverCommission, k, ids)

    def check(self, s: State, c: Content, seat: int, cmd: A.DeliverCommission) -> Check:
        pend = pending_choice(s, seat, "deliver")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.commission not in p.commissions:
            return err("no_such_commission", f"{cmd.commission} is not on your wagon")
        if c.commission[cmd.commission].town != pend["town"]:
            return err("wrong_town", f"{cmd.commission} goes to another town")
        if not cmd.goods:
            return err("deliver_one", "deliver at least one good")
        if match_requests(c, p, c.commission[cmd.commission].requests, cmd.goods) is None:
            return err("not_requested", f"goods {list(cmd.goods)} do not meet the commission")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DeliverCommission, ev: Events) -> None:
        p = s.players[seat]
        k = c.commission[cmd.commission]
        goods = match_requests(c, p, k.requests, cmd.goods) or []
        ups = sum(1 for q in goods if q["up"])
        for q in goods:
            return_piece(s, p, q)
        p.commissions.remove(k.id)
        p.delivered_commissions.append(k.id)
        p.full_commissions += len(goods) == 3
        p.upgraded_delivered += ups
        note_delivery(c, p, k.town)
        ev.append(
            {"type": "commission_delivered", "seat": seat, "commission": k.id, "goods": len(goods)}
        )
        gain_prestige(s, p, (0, 1, 3, 6)[len(goods)] + ups, ev)
        if has_steed(c, p, "commission_quartz"):
            gain_resource(s, p, "quartz", ups, ev)


class DeliverHero(Handler[A.DeliverHero]):
    """Delivering Heroes: the region's benefit."""

    cmd = A.DeliverHero

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DeliverHero]:
        for h in s.players[seat].heroes:
            yield intern(A.DeliverHero, h)

    def check(self, s: State, c: Content, seat: int, cmd: A.DeliverHero) -> Check:
        pend = pending_choice(s, seat, "deliver")
        if isinstance(pend, RuleError):
            return pend
        if cmd.hero not in s.players[seat].heroes:
            return err("no_such_hero", f"{cmd.hero} is not on your wagon")
        if c.hero_town[c.hero[cmd.hero].type] != pend["town"]:
            return err("wrong_town", f"{cmd.hero} travels to another town")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DeliverHero, ev: Events) -> None:
        deliver_hero(s, c, s.players[seat], cmd.hero, ev)


class DoneDelivering(OneCommand[A.DoneDelivering]):
    """Ends a visit's deliveries."""

    cmd = A.DoneDelivering

    def check(self, s: State, c: Content, seat: int, cmd: A.DoneDelivering) -> Check:
        pend = pending_choice(s, seat, "deliver")
        return pend if isinstance(pend, RuleError) else None

    def do(self, s: State, c: Content, seat: int, cmd: A.DoneDelivering, ev: Events) -> None:
        s.pending.pop(0)


FORTUNES = ("die", "deed", "coins", "upgrade")


class Fortune(Handler[A.Fortune]):
    """Good fortune A-D for the caravan's leader (1 on the dark road, 2 on a shortcut)."""

    cmd = A.Fortune

    def listing(self, s: State, c: Content, seat: int) -> list[A.Fortune]:
        """Once the choice is `seat`'s: the die and the coins, the deeds there are, the
        upgrades `seat` may take (the candidates passing the rest of `check`)."""
        if isinstance(pending_choice(s, seat, "fortune"), RuleError):
            return []
        p = s.players[seat]
        out = [intern(A.Fortune, "die"), intern(A.Fortune, "coins")]
        out += [intern(A.Fortune, "deed", d) for d in DEED_PICKS if deed_pick_ok(s, d)]
        out += [
            intern(A.Fortune, "upgrade", None, u)
            for u in s.upgrades_track
            if upgrade_ok(s, c, p, u)
        ]
        return out

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Fortune]:
        yield intern(A.Fortune, "die")
        yield intern(A.Fortune, "coins")
        for d in DEED_PICKS:
            yield intern(A.Fortune, "deed", d)
        for u in s.upgrades_track:
            yield intern(A.Fortune, "upgrade", None, u)

    def check(self, s: State, c: Content, seat: int, cmd: A.Fortune) -> Check:
        pend = pending_choice(s, seat, "fortune")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.kind not in FORTUNES:
            return err("bad_fortune", f"{cmd.kind!r}: a good fortune is die, deed, coins, upgrade")
        if (cmd.deed is not None) != (cmd.kind == "deed") or (cmd.upgrade is not None) != (
            cmd.kind == "upgrade"
        ):
            return err("bad_command", f"{cmd.kind}: `deed` with a deed, `upgrade` with an upgrade")
        if cmd.kind == "deed" and not deed_pick_ok(s, cmd.deed):
            return err("bad_pick", f"deed {cmd.deed!r} is not available")
        if cmd.kind == "upgrade" and not upgrade_ok(s, c, p, cmd.upgrade):
            return err("bad_pick", f"upgrade {cmd.upgrade!r} cannot be taken now")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Fortune, ev: Events) -> None:
        s.pending.pop(0)
        p = s.players[seat]
        ev.append({"type": "fortune", "seat": seat, "kind": cmd.kind})
        if cmd.kind == "die":
            gain_illuminated(s, c, p, ev)
        elif cmd.kind == "deed":
            assert cmd.deed is not None
            gain_deed(s, c, p, cmd.deed, ev)
        elif cmd.kind == "coins":
            amount = 5 if s.fortune_coins else 3  # ruling R25: the 5 coins on the track
            s.fortune_coins = 0
            gain_coins(s, p, amount, ev, "fortune")
        else:
            assert cmd.upgrade is not None
            gain_upgrade(s, c, p, cmd.upgrade, ev)


class ChooseSteed(Handler[A.ChooseSteed]):
    """The inventory upgrade's second steed, from the unused ones."""

    cmd = A.ChooseSteed

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.ChooseSteed]:
        for x in s.unused_steeds:
            yield intern(A.ChooseSteed, x)

    def check(self, s: State, c: Content, seat: int, cmd: A.ChooseSteed) -> Check:
        pend = pending_choice(s, seat, "choose_steed")
        if isinstance(pend, RuleError):
            return pend
        if cmd.steed not in s.unused_steeds:
            return err("not_offered", f"{cmd.steed} is not an unused steed")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.ChooseSteed, ev: Events) -> None:
        s.pending.pop(0)
        s.unused_steeds.remove(cmd.steed)
        s.players[seat].steeds.append(cmd.steed)
        ev.append({"type": "steed", "seat": seat, "steed": cmd.steed})
