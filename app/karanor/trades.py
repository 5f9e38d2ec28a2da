"""Trades between players: offers, counters, acceptance, one atomic transfer.

Rulebook, Trading Between Players: anything may be exchanged (money, resources,
partners, mounts, artifacts...) but never cards nor prestige; trades cost no
action and happen at any time, even off-turn; they never take priority over an
action or card; and they are forbidden once a player reaches the end-trigger
prestige. Offers are part of the state so every seat sees them in its view.
"""

from __future__ import annotations

from typing import Any

from app.games.kit import Check, Events, Handler, RuleError

from . import commands as K
from .content import RESOURCES, Content
from .state import ACTION, Player, State

MAX_OPEN_PER_SEAT = 12
KEEP_CLOSED = 60  # finished offers kept in the state for the timeline
LIVE = ("open", "unavailable")


def empty_bundle() -> dict[str, Any]:
    return {"gold": 0, "resources": {}, "partners": [], "badges": [], "artifacts": []}


def normalise(c: Content, raw: dict[str, Any], side: str) -> dict[str, Any]:
    """Validate a client's bundle and return it in canonical form.

    :raises RuleError: `bad_bundle` naming the field at fault.
    """

    def bad(msg: str) -> RuleError:
        return RuleError("bad_bundle", f"`{side}`: {msg}")

    extra = set(raw) - {"gold", "resources", "partners", "badges", "artifacts"}
    if extra:
        what = ", ".join(sorted(map(str, extra)))
        if extra & {"prestige", "cards", "quests", "business", "black_market"}:
            raise bad(f"{what} cannot be traded (rulebook: never cards nor prestige)")
        raise bad(f"unknown field(s) {what}")
    out = empty_bundle()
    gold = raw.get("gold", 0) or 0
    if not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold <= 999:
        raise bad("gold must be an integer from 0 to 999")
    out["gold"] = gold
    res = raw.get("resources") or {}
    if not isinstance(res, dict):
        raise bad("resources must be an object")
    for r, n in res.items():
        if r not in RESOURCES:
            raise bad(f"unknown resource {r!r}")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99:
            raise bad(f"{r} must be an integer from 0 to 99")
        if n:
            out["resources"][r] = n
    for key, known in (
        ("partners", set(c.rules.partners)),
        ("badges", set(c.badge)),
        ("artifacts", set(c.artifact)),
    ):
        items = raw.get(key) or []
        if not isinstance(items, list) or len(items) > 20:
            raise bad(f"{key} must be a list")
        for it in items:
            if not isinstance(it, str) or it not in known:
                raise bad(f"unknown {key[:-1]} {it!r}")
        if key != "badges" and len(set(items)) != len(items):
            raise bad(f"a {key[:-1]} is listed twice")
        out[key] = sorted(items)
    return out


def is_empty(b: dict[str, Any]) -> bool:
    return not (b["gold"] or b["resources"] or b["partners"] or b["badges"] or b["artifacts"])


def holds(p: Player, b: dict[str, Any]) -> bool:
    if p.gold < b["gold"]:
        return False
    if any(p.resources.get(r, 0) < n for r, n in b["resources"].items()):
        return False
    if any(x not in p.partners for x in b["partners"]):
        return False
    if any(p.artifacts.count(a) < 1 for a in b["artifacts"]):
        return False
    return all(p.badges.count(k) >= b["badges"].count(k) for k in set(b["badges"]))


def closed_reason(s: State) -> RuleError | None:
    """Why no trade may happen now, or None."""
    if s.phase != ACTION:
        return RuleError("trading_closed", "trading opens after the draft and ends with the game")
    if s.end_triggered_by is not None:
        return RuleError(
            "trading_closed",
            "a merchant has reached the final prestige: "
            "all trades are forbidden until the end (rulebook, End of the Game)",
        )
    if s.pending:
        return RuleError(
            "trading_closed",
            "a trade never takes priority over an action or "
            "card being resolved: wait for the pending choice",
        )
    return None


def find(s: State, offer_id: int) -> dict[str, Any] | None:
    return next((o for o in s.offers if o["id"] == offer_id), None)


def addressed(o: dict[str, Any], seat: int) -> bool:
    """The offer is made to `seat` (by name, or to anyone) by another seat."""
    return seat != o["from"] and (o["to"] is None or seat in o["to"])


def open_to(s: State, seat: int) -> list[dict[str, Any]]:
    """The open offers made to `seat`, oldest first."""
    return [o for o in s.offers if o["status"] == "open" and addressed(o, seat)]


def check(s: State, c: Content, seat: int, cmd: K.Command) -> RuleError | None:
    if not isinstance(seat, int) or not 0 <= seat < s.n:
        return RuleError("not_a_player", f"seat {seat!r} is not in this game")
    if s.phase == "game_over":
        return RuleError("game_over", "the game is over")
    err = closed_reason(s)
    if err:
        return err
    p = s.players[seat]
    if isinstance(cmd, K.Offer | K.Counter):
        try:
            give, want = normalise(c, cmd.give, "give"), normalise(c, cmd.want, "want")
        except RuleError as e:
            return e
        if is_empty(give) and is_empty(want):
            return RuleError("empty_offer", "an offer gives or asks for something")
        if not holds(p, give):
            return RuleError("cannot_afford", "you do not hold everything you offer")
        if (
            sum(1 for o in s.offers if o["from"] == seat and o["status"] in LIVE)
            >= MAX_OPEN_PER_SEAT
        ):
            return RuleError("too_many_offers", f"at most {MAX_OPEN_PER_SEAT} open offers each")
        if isinstance(cmd, K.Offer):
            if cmd.to is not None:
                if any(not 0 <= t < s.n for t in cmd.to):
                    return RuleError("bad_target", "an offer goes to seats of this game")
                if seat in cmd.to:
                    return RuleError("bad_target", "you cannot trade with yourself")
            return None
    o = find(s, cmd.offer)  # type: ignore[attr-defined]
    if o is None:
        return RuleError("unknown_offer", f"no offer {cmd.offer}")  # type: ignore[attr-defined]
    if isinstance(cmd, K.Withdraw):
        if o["from"] != seat:
            return RuleError("not_your_offer", "only its author withdraws an offer")
        if o["status"] not in LIVE:
            return RuleError("offer_closed", f"offer {o['id']} is {o['status']}")
        return None
    if not addressed(o, seat):
        return RuleError("not_addressed", f"offer {o['id']} is not addressed to you")
    if o["status"] not in LIVE:
        return RuleError("offer_closed", f"offer {o['id']} is {o['status']}")
    if seat in o["declined_by"] and not isinstance(cmd, K.Counter):
        return RuleError("offer_closed", f"you declined offer {o['id']}")
    if isinstance(cmd, K.Accept):
        if not holds(s.players[o["from"]], o["give"]):
            return RuleError(
                "offer_unavailable", f"seat {o['from']} no longer holds what offer {o['id']} gives"
            )
        if not holds(p, o["want"]):
            return RuleError("cannot_afford", "you do not hold what the offer asks for")
    return None


def do(s: State, c: Content, seat: int, cmd: K.Command, ev: Events) -> None:
    if isinstance(cmd, K.Offer | K.Counter):
        give, want = normalise(c, cmd.give, "give"), normalise(c, cmd.want, "want")
        if isinstance(cmd, K.Counter):
            orig = find(s, cmd.offer)
            assert orig is not None
            if seat not in orig["declined_by"]:
                orig["declined_by"].append(seat)
            _maybe_declined(orig)
            to: list[int] | None = [orig["from"]]
            counter_of: int | None = orig["id"]
        else:
            to = list(cmd.to) if cmd.to is not None else None
            counter_of = None
        o: dict[str, Any] = {
            "id": s.next_offer,
            "from": seat,
            "to": to,
            "give": give,
            "want": want,
            "note": cmd.note,
            "status": "open",
            "counter_of": counter_of,
            "declined_by": [],
            "accepted_by": None,
        }
        s.next_offer += 1
        s.offers.append(o)
        ev.append(
            {
                "type": "offer",
                "seat": seat,
                "offer": o["id"],
                "addressees": to,  # not "to": that key marks an event private to one seat
                "give": give,
                "want": want,
                "note": cmd.note,
                "counter_of": counter_of,
            }
        )
        _prune(s)
        return
    found = find(s, cmd.offer)  # type: ignore[attr-defined]
    assert found is not None
    o = found
    if isinstance(cmd, K.Withdraw):
        o["status"] = "withdrawn"
        ev.append({"type": "offer_withdrawn", "seat": seat, "offer": o["id"]})
    elif isinstance(cmd, K.Decline):
        o["declined_by"].append(seat)
        _maybe_declined(o)
        ev.append({"type": "offer_declined", "seat": seat, "offer": o["id"]})
    elif isinstance(cmd, K.Accept):
        giver, taker = s.players[o["from"]], s.players[seat]
        _transfer(giver, taker, o["give"])
        _transfer(taker, giver, o["want"])
        o["status"] = "accepted"
        o["accepted_by"] = seat
        ev.append(
            {
                "type": "trade",
                "seat": seat,
                "offer": o["id"],
                "from": o["from"],
                "give": o["give"],
                "want": o["want"],
            }
        )


def _maybe_declined(o: dict[str, Any]) -> None:
    if o["to"] is not None and all(t in o["declined_by"] for t in o["to"]):
        o["status"] = "declined"


def _transfer(a: Player, b: Player, bundle: dict[str, Any]) -> None:
    """Move a bundle from a to b (checked by the caller). A partner keeps its side."""
    a.gold -= bundle["gold"]
    b.gold += bundle["gold"]
    for r, n in bundle["resources"].items():
        a.resources[r] -= n
        b.resources[r] = b.resources.get(r, 0) + n
    for res in bundle["partners"]:
        b.partners[res] = a.partners.pop(res)
    for k in bundle["badges"]:
        a.badges.remove(k)
        b.badges.append(k)
    for art in bundle["artifacts"]:
        a.artifacts.remove(art)
        b.artifacts.append(art)
        for marks_a, marks_b in ((a.powers_spent, b.powers_spent), (a.powers_used, b.powers_used)):
            if art in marks_a:  # a power used this turn (or game) stays used
                marks_a.remove(art)
                marks_b.append(art)


def refresh(s: State, c: Content, ev: Events) -> None:
    """An offer whose author no longer holds its `give` is unavailable; it comes back
    when the goods return."""
    for o in s.offers:
        if o["status"] in LIVE:
            ok = holds(s.players[o["from"]], o["give"])
            new = "open" if ok else "unavailable"
            if new != o["status"]:
                o["status"] = new
                ev.append({"type": "offer_status", "offer": o["id"], "status": new})


def _prune(s: State) -> None:
    done = [o for o in s.offers if o["status"] not in LIVE]
    if len(done) > KEEP_CLOSED:
        drop = {o["id"] for o in done[: len(done) - KEEP_CLOSED]}
        s.offers = [o for o in s.offers if o["id"] not in drop]


def tradeable(s: State, seat: int) -> dict[str, Any]:
    """What a seat could put in an offer now: everything but cards and prestige."""
    p = s.players[seat]
    return {
        "gold": p.gold,
        "resources": {r: n for r, n in p.resources.items() if n},
        "partners": sorted(p.partners),
        "badges": sorted(p.badges),
        "artifacts": sorted(p.artifacts),
    }


class Trade(Handler[State, Content, K.Command]):
    """Offers, counters, acceptances, refusals and withdrawals: free-form, so never
    listed; their own gate (`closed_reason`, in `check`) replaces the turn's."""

    gated = False

    def __init__(self, cmd: type[K.Command]) -> None:
        self.cmd = cmd

    def check(self, s: State, c: Content, seat: int, cmd: K.Command) -> Check:
        return check(s, c, seat, cmd)

    def do(self, s: State, c: Content, seat: int, cmd: K.Command, ev: Events) -> None:
        do(s, c, seat, cmd, ev)


TRADES = tuple(Trade(t) for t in (K.Offer, K.Accept, K.Decline, K.Withdraw, K.Counter))
