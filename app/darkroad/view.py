"""What one seat (or a spectator) may see: the only way state leaves the engine.

Hidden (ruling R28): another seat's coins (behind the screen: not even the count) and
deeds (only how many), the deeds offered to another seat at setup, every deck's order
(commission stacks show only their top), the seed and the RNG state. Events carrying a
secret have `to` and reach only that seat (`events_for`).
"""

from __future__ import annotations

from typing import Any

from app.games import kit

from . import actions as A
from . import storage as st
from .engine import (
    content_of,
    inventory_slots,
    lantern_slots,
    legal_actions,
    outcome,
    value,
)
from .state import OVER, Player, State

# A storage area's public form, by (name, width, height): shared, never changed.
_AREAS: dict[tuple[str, int, int], dict[str, Any]] = {}


def _area(a: tuple[str, int, int]) -> dict[str, Any]:
    out = _AREAS.get(a)
    if out is None:
        if len(_AREAS) >= 1024:
            _AREAS.clear()
        out = _AREAS[a] = {"name": a[0], "width": a[1], "height": a[2]}
    return out


def _player(c: Any, p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "name": p.name,
        "prestige": p.prestige,
        "lanterns": p.lanterns,
        "lantern_slots": lantern_slots(c, p),
        "quartz": p.quartz,
        "horseshoes": p.horseshoes,
        "inventory_slots": inventory_slots(c, p),
        "reserve": list(p.reserve),
        "locked": list(p.locked),
        "pool": {"night": p.pool_night, "illuminated": p.pool_illuminated},
        "spent": list(p.spent),
        "removed": p.removed,
        "special": list(p.special),
        "position": p.position,
        "areas": [_area(a) for a in st.areas(c, p)],
        "pieces": [q.copy() for q in p.pieces],
        "incoming": [g.copy() for g in p.incoming],
        "heroes": list(p.heroes),
        "commissions": list(p.commissions),
        "deed_count": len(p.deeds),
        "companions": [{"id": x["id"], "used": list(x["used"])} for x in p.companions],
        "steeds": list(p.steeds),
        "upgrades": list(p.upgrades),
        "delivered": {
            "commissions": len(p.delivered_commissions),
            "heroes": len(p.delivered_heroes),
        },
    }


def public_part(s: State) -> dict[str, Any]:
    """What every viewer of this version sees alike. Compute once per version; never mutate."""
    c = content_of(s)
    head = s.pending[0] if s.pending else None
    t = s.travel
    travel = None
    if t is not None:
        travel = {
            "leader": t["leader"],
            "route": t["route"],
            "town": t["town"],
            "final": t["final"],
            "stage": t["stage"],
            "travellers": list(t["travellers"]),
            "companion": t.get("companion"),
            "event": t["event"],
            "dice": list(t["dice"]),
        }
    return {
        **kit.view_head(
            s.commands,
            s.phase == OVER,
            {
                "phase": s.phase,
                "round": s.round,
                "seat": s.turn_seat,
                "step": s.step,
                "activations": list(s.acts),
                "activations_left": s.acts_left,
                "pending": {"seat": head["seat"], "kind": head["kind"]} if head else None,
                "waiting_for": [head["seat"]] if head else [s.turn_seat],
            },
        ),
        "players": [_player(c, p) for p in s.players],
        "board": {
            "wheel": [{"good": g, "value": value(c, s, g), "dice": s.market[g]} for g in c.goods],
            "market_aside": s.market_aside,
            "commissions": {
                town: {"top": stack[0] if stack else None, "count": len(stack)}
                for town, stack in s.stacks.items()
            },
            "ruins": s.ruins_pos,
            "dark_market": s.dm_pos,
            "inn": list(s.inn),
            "courtyard": list(s.courtyard),
            "companion_row": list(s.row),
            "companion_row_die": list(s.row_die),
            "buildings": list(s.buildings),
            "fortune_coins": s.fortune_coins,
            "upgrades": list(s.upgrades_track),
            "unused_steeds": list(s.unused_steeds),
            "decks": {k: len(v) for k, v in s.decks.items()},
            "discards": {k: list(v) for k, v in s.discards.items()},  # events seen face up
            "supply": dict(s.supply),
            "goods_supply": dict(s.goods_supply),
            "travel": travel,
            "setup_stacks": [list(x) for x in s.setup_stacks],
        },
        "result": outcome(s),
    }


def view(
    s: State, seat: int | None, *, with_legal: bool = True, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON view for `seat` (None: a spectator) built on this version's `public_part`.
    The view shares the public part's values and the listing's cached command forms:
    serialise it, never mutate what it holds."""
    seat = kit.viewer(seat, s.n)
    common = public if public is not None else public_part(s)
    out: dict[str, Any] = {
        **kit.seat_view_head(common, seat),
        "board": common["board"],
        "result": common["result"],
        "private": None,
        "legal_actions": [],
    }
    if seat is not None:
        p = s.players[seat]
        out["private"] = {
            "coins": p.coins,
            "deeds": list(p.deeds),
            "pending": kit.pending_of(s.pending, seat),
            "free_shortcut": p.free_shortcut,
        }
        if with_legal:
            listing = legal_actions(s, seat)
            if listing:
                out["legal_actions"] = A.listing_json(listing)
    return out


events_for = kit.events_for  # private events (with `to`) only for their seat
