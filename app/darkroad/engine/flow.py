"""After every command: choices raised are queued, goods to store asked, limits
applied, and the caravan (or the final travel) moved on."""

from __future__ import annotations

from typing import Any

from .. import storage as st
from ..content import Content
from ..state import PLAN, PLAY, SETUP, State
from .caravans import start_event
from .core import Events
from .gains import gain_resource, inventory_slots
from .scoring import final_scoring

# --- after every command -----------------------------------------------------------------------


def advance(s: State, c: Content, ev: Events) -> None:
    """Move the caravan (or the final travel) on when nobody has a choice to make."""
    t = s.travel
    while t is not None and not s.pending:
        if t["stage"] == "join":
            if t["asking"]:
                s.pending.append({"kind": "join", "seat": t["asking"].pop(0)})
                return
            start_event(s, c, ev)
            continue
        if t["stage"] == "dice":
            if t["order"]:
                s.pending.append({"kind": "travel_die", "seat": t["order"].pop(0)})
                return
            s.supply["travel"] += t["dice_held"]
            t["dice"] = []
            s.discards[t["route"]].append(t["event"])
            t["stage"] = "visit"
            leader = t["leader"]
            ring = [(leader + i) % s.n for i in range(s.n)]
            t["visiting"] = [x for x in ring if x in t["travellers"]]
            continue
        if t["stage"] == "visit":
            if t["visiting"]:
                s.pending.append({"kind": "visit", "seat": t["visiting"].pop(0)})
                return
            if t["final"]:
                s.travel = None
                final_scoring(s, c, ev)
                return
            t["stage"] = "fortune"
            t["fortunes"] = 2 if t["route"] == "shortcut" else 1
            continue
        if t["stage"] == "fortune":
            if t["fortunes"]:
                t["fortunes"] -= 1
                s.pending.append({"kind": "fortune", "seat": t["leader"]})
                return
            s.travel = None
            ev.append({"type": "caravan_done"})
            return


STALE_KINDS = frozenset({"store", "lose_good"})  # the choices `stale` may drop


def stale(s: State, pend: dict[str, Any]) -> bool:
    """A choice that has lost its object (a good to store or to lose that is gone)."""
    p = s.players[pend["seat"]]
    if pend["kind"] == "store":
        return not p.incoming
    if pend["kind"] == "lose_good":
        return not st.goods_of(p) and all(g["good"] == "upgrade" for g in p.incoming)
    return False


def settle(s: State, c: Content, ev: Events) -> None:
    """After every command: new choices first, goods to store, limits, the caravan."""
    if s.asks:
        s.pending[0:0] = s.asks
        s.asks = []
    for x in s.pending:  # the list is rebuilt only when a choice has gone stale
        if x["kind"] in STALE_KINDS and stale(s, x):
            s.pending = [x for x in s.pending if not stale(s, x)]
            break
    front: list[dict[str, Any]] = []
    for p in s.players:
        if not p.incoming and p.quartz + p.horseshoes <= 2:
            continue  # nothing to store, no inventory overflow possible
        if p.incoming and not any(x["kind"] == "store" and x["seat"] == p.seat for x in s.pending):
            front.append({"kind": "store", "seat": p.seat})
        if p.quartz + p.horseshoes > inventory_slots(c, p) and not any(
            x["kind"] == "inventory_overflow" and x["seat"] == p.seat for x in s.pending
        ):
            if p.quartz and p.horseshoes:
                front.append({"kind": "inventory_overflow", "seat": p.seat})
            else:  # one kind only: nothing to choose, the extra goes back
                kind = "quartz" if p.quartz else "horseshoes"
                gain_resource(s, p, kind, inventory_slots(c, p) - p.quartz - p.horseshoes, ev)
    if front:
        s.pending[0:0] = front
    if s.travel is not None:  # `advance` moves nothing else
        advance(s, c, ev)
    if s.phase == SETUP and not s.pending:
        s.phase = PLAY
        s.step = PLAN
        ev.append({"type": "game_started"})
