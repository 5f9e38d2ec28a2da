"""What one seat (or a spectator) may see: the only way state leaves the engine.

Hidden: other seats' business, quest (unless the room shares quests) and
black-market cards, draft hands and picks, artifact tiles offered to another,
every deck's order, the seed and the RNG state.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from . import effects as fx
from .engine import content_of, legal_actions
from .state import GAME_OVER, State
from .trades import holds, tradeable


def _player(s: State, p: Any, public_quests: bool) -> dict[str, Any]:
    out = {
        "seat": p.seat,
        "name": p.name,
        "home": p.home,
        "story": p.story,
        "gold": p.gold,
        "prestige": p.prestige,
        "revenue": p.revenue,
        "position": p.position,
        "resources": dict(p.resources),
        "badges": list(p.badges),
        "artifacts": list(p.artifacts),
        "partners": [{"resource": r, "promoted": pr} for r, pr in p.partners.items()],
        "businesses": [{"city": b.city, "card": b.card} for b in p.businesses],
        "villas": list(p.villas),
        "hand_counts": {
            "business": len(p.business_hand),
            "quests": len(p.quests),
            "black_market": len(p.black_market),
        },
        "powers_used": list(p.powers_used) + list(p.powers_spent),
    }
    if public_quests:
        out["quests"] = list(p.quests)
    return out


def public_part(s: State) -> dict[str, Any]:
    """What every viewer of this version sees alike (turn, players, board, result).
    Compute it once per version and pass it to `view` for each seat; never mutate it."""
    c = content_of(s)
    public_quests = bool(s.options.get("public_quests"))
    head = s.pending[0] if s.pending else None
    return {
        "version": s.commands,
        "status": "finished" if s.phase == GAME_OVER else "playing",
        "turn": {
            "seat": s.turn_seat,
            "round": s.round,
            "actions_left": s.actions_left,
            "phase": s.phase,
            "move_left": s.move_left,
            "start_seat": s.start_seat,
            "draft_round": s.draft_round if s.phase == "draft" else None,
            "drafted": [p.draft_done for p in s.players] if s.phase == "draft" else None,
            "pending": {"seat": head["seat"], "kind": head["kind"]} if head else None,
            "end_triggered_by": s.end_triggered_by,
        },
        "players": [_player(s, p, public_quests) for p in s.players],
        "board": {
            "inhabitants": dict(s.inhabitants),
            "business_display": list(s.business_display),
            "delivery": s.delivery,
            "deliveries_left": len(s.decks["deliveries"]),
            "supply": dict(s.supply),
            "badge_supply": dict(s.badge_supply),
            "partners_free": list(s.partners_free),
            "villas": dict(s.villa_owner),
            "market": dict(s.market) if s.market is not None else None,
            "decks": {k: len(v) for k, v in s.decks.items() if k != "deliveries"},
            "discards": {k: len(v) for k, v in s.discards.items()},
            "end_prestige": fx.end_prestige(s, c),
            "prestige_history": [list(r) for r in s.prestige_history],
        },
        "result": s.result,
    }


def view(
    s: State, seat: int | None, *, with_legal: bool = True, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON view of the game for `seat` (None: a spectator). `public`: this
    version's `public_part`, shared by every viewer's view (computed if absent)."""
    c = content_of(s)
    if seat is not None and not 0 <= seat < s.n:
        seat = None
    common = public if public is not None else public_part(s)
    out: dict[str, Any] = {
        "version": common["version"],
        "status": common["status"],
        "seat": seat,
        "turn": common["turn"],
        "players": common["players"],
        "private": None,
        "board": common["board"],
        "offers": [_offer(s, o, seat) for o in s.offers],
        "legal_actions": [],
        "result": common["result"],
    }
    if seat is not None:
        p = s.players[seat]
        mine = [dict(x) for x in s.pending if x["seat"] == seat]
        out["private"] = {
            "business_cards": list(p.business_hand),
            "quests": list(p.quests),
            "black_market": list(p.black_market),
            "draft_hand": list(p.draft_hand),
            "pending": mine[0] if mine else None,
            "tradeable": tradeable(s, seat),
            "move_steps": fx.move_steps(c, p),
            "sea_cost": fx.sea_cost(c, p),
            "quest_limit": fx.quest_limit(c, p),
        }
        if with_legal:
            out["legal_actions"] = [A.to_json(cmd) for cmd in legal_actions(s, seat)]
    return out


def _offer(s: State, o: dict[str, Any], seat: int | None) -> dict[str, Any]:
    out = {
        k: o[k]
        for k in (
            "id",
            "from",
            "to",
            "give",
            "want",
            "note",
            "status",
            "counter_of",
            "declined_by",
            "accepted_by",
        )
    }
    if seat is not None and o["status"] in ("open", "unavailable") and seat != o["from"]:
        out["can_accept"] = (
            (o["to"] is None or seat in o["to"])
            and holds(s.players[seat], o["want"])
            and o["status"] == "open"
        )
    return out


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events a seat may read: private events (with `to`) only for their seat."""
    return [e for e in events if "to" not in e or (seat is not None and e["to"] == seat)]
