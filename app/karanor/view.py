"""What one seat (or a spectator) may see: the only way state leaves the engine.

Hidden: other seats' business, quest (unless the room shares quests) and
black-market cards, draft hands and picks, artifact tiles offered to another,
every deck's order, the seed and the RNG state.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from app.games import kit

from . import commands as K
from . import effects as fx
from .engine import content_of, legal_actions
from .state import GAME_OVER, State
from .trades import holds, tradeable

# A player's businesses' public form, by their (city, card) pairs (strings, or None for
# the home pawn's card): it repeats from version to version and room to room. Shared
# lists, never changed (a view is serialised, not edited).
_BUSINESSES: dict[tuple[tuple[str, str | None], ...], list[dict[str, Any]]] = {}
_FORMS_MAX = 4096  # emptied past this
_city_card = attrgetter("city", "card")


def _businesses(p: Any) -> list[dict[str, Any]]:
    key = tuple(map(_city_card, p.businesses))
    out = _BUSINESSES.get(key)
    if out is None:
        if len(_BUSINESSES) >= _FORMS_MAX:
            _BUSINESSES.clear()
        out = _BUSINESSES[key] = [{"city": city, "card": card} for city, card in key]
    return out


def _player(p: Any, public_quests: bool) -> dict[str, Any]:
    out = {
        "seat": p.seat,
        "name": p.name,
        "home": p.home,
        "story": p.story,
        "gold": p.gold,
        "prestige": p.prestige,
        "revenue": p.revenue,
        "position": p.position,
        "resources": p.resources.copy(),
        "badges": p.badges.copy(),
        "artifacts": p.artifacts.copy(),
        "partners": [{"resource": r, "promoted": pr} for r, pr in p.partners.items()],
        "businesses": _businesses(p),
        "villas": p.villas.copy(),
        "hand_counts": {
            "business": len(p.business_hand),
            "quests": len(p.quests),
            "black_market": len(p.black_market),
        },
        "powers_used": p.powers_used + p.powers_spent,
    }
    if public_quests:
        out["quests"] = p.quests.copy()
    return out


_OFFER_KEYS = (
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
_ANSWERABLE = ("open", "unavailable")  # a seat but its maker is told whether it can accept


def public_part(s: State) -> dict[str, Any]:
    """What every viewer of this version sees alike (turn, players, board, offers as a
    spectator sees them, result). Compute it once per version and pass it to `view` for
    each seat; never mutate it (nor what a view built on it holds)."""
    public_quests = bool(s.options.get("public_quests"))
    head = s.pending[0] if s.pending else None
    draft = s.phase == "draft"
    decks = s.decks
    return {
        **kit.view_head(
            s.commands,
            s.phase == GAME_OVER,
            {
                "seat": s.turn_seat,
                "round": s.round,
                "actions_left": s.actions_left,
                "phase": s.phase,
                "move_left": s.move_left,
                "start_seat": s.start_seat,
                "draft_round": s.draft_round if draft else None,
                "drafted": [p.draft_done for p in s.players] if draft else None,
                "pending": {"seat": head["seat"], "kind": head["kind"]} if head else None,
                "end_triggered_by": s.end_triggered_by,
            },
        ),
        "players": [_player(p, public_quests) for p in s.players],
        "board": {
            "inhabitants": s.inhabitants.copy(),
            "business_display": s.business_display.copy(),
            "delivery": s.delivery,
            "deliveries_left": len(decks["deliveries"]),
            "supply": s.supply.copy(),
            "badge_supply": s.badge_supply.copy(),
            "partners_free": s.partners_free.copy(),
            "villas": s.villa_owner.copy(),
            "market": s.market.copy() if s.market is not None else None,
            "decks": {k: len(v) for k, v in decks.items() if k != "deliveries"},
            "discards": {k: len(v) for k, v in s.discards.items()},
            "end_prestige": fx.end_prestige(s, content_of(s)),
            "prestige_history": [list(r) for r in s.prestige_history],
        },
        "offers": [{k: o[k] for k in _OFFER_KEYS} for o in s.offers],
        "result": s.result,
    }


def view(
    s: State, seat: int | None, *, with_legal: bool = True, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON view of the game for `seat` (None: a spectator). `public`: this
    version's `public_part`, shared by every viewer's view (computed if absent).
    The view shares the public part's values and the listing's cached command forms:
    serialise it, never mutate what it holds."""
    seat = kit.viewer(seat, s.n)
    common = public if public is not None else public_part(s)
    offers = common["offers"]
    if seat is not None and offers:
        offers = _offers_for(s, offers, seat)
    out: dict[str, Any] = {
        **kit.seat_view_head(common, seat),
        "private": None,
        "board": common["board"],
        "offers": offers,
        "legal_actions": [],
        "result": common["result"],
    }
    if seat is not None:
        c = content_of(s)
        p = s.players[seat]
        mine = kit.pending_of(s.pending, seat)
        move_steps, sea_cost, quest_limit = fx.view_limits(c, p)
        out["private"] = {
            "business_cards": p.business_hand.copy(),
            "quests": p.quests.copy(),
            "black_market": p.black_market.copy(),
            "draft_hand": p.draft_hand.copy(),
            "pending": mine,
            "tradeable": tradeable(s, seat),
            "move_steps": move_steps,
            "sea_cost": sea_cost,
            "quest_limit": quest_limit,
        }
        if with_legal:
            listing = legal_actions(s, seat)
            if listing:
                out["legal_actions"] = K.listing_json(listing)
    return out


def _offers_for(s: State, offers: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The public offers, with `can_accept` on each that `seat` may answer."""
    out = offers
    for i, o in enumerate(offers):
        if o["status"] in _ANSWERABLE and seat != o["from"]:
            if out is offers:
                out = offers.copy()
            out[i] = {
                **o,
                "can_accept": (
                    (o["to"] is None or seat in o["to"])
                    and holds(s.players[seat], o["want"])
                    and o["status"] == "open"
                ),
            }
    return out


events_for = kit.events_for
