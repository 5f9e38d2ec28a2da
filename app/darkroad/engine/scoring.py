"""Final Scoring: deeds measured, base score, victory points, tie-breaks."""

from __future__ import annotations

from .. import storage as st
from ..content import Content
from ..state import OVER, Player, State
from .core import STORAGE_UPGRADE_VP, Events

# --- scoring -----------------------------------------------------------------------------------


def measure(s: State, c: Content, p: Player, m: str) -> int:
    if m == "full_commissions":
        return p.full_commissions
    if m == "commissions_delivered":
        return len(p.delivered_commissions)
    if m == "heroes_delivered":
        return len(p.delivered_heroes)
    if m.startswith("region_"):
        return p.region_deliveries.get(m[7:], 0)
    if m == "towns_delivered":
        return len(p.towns_delivered)
    if m == "quartz_held":
        return p.quartz
    if m == "lanterns_held":
        return p.lanterns
    if m == "horseshoes_held":
        return p.horseshoes
    if m == "upgraded_stored":
        return sum(1 for q in st.goods_of(p) if q["up"])
    if m == "goods_stored":
        return len(st.goods_of(p))
    if m == "loyal_gifts":
        return loyal_gifts(c, p)
    if m == "companions":
        return len(p.companions)
    if m == "upgraded_delivered":
        return p.upgraded_delivered
    if m == "wagon_upgrades":
        return len(p.upgrades)
    if m == "illuminated_held":
        return len(p.special)
    raise ValueError(m)


def loyal_gifts(c: Content, p: Player) -> int:
    return sum(len(x["used"]) for x in p.companions if c.companion[x["id"]].kind == "loyal")


def deed_reward(s: State, c: Content, p: Player, deed: str) -> int:
    d = c.deed[deed]
    got = measure(s, c, p, d.measure)
    amount = int(d.amount)
    if d.per:
        return got * amount
    return amount if got >= d.threshold else 0


def score(s: State, c: Content, p: Player) -> dict[str, int]:
    """Final scoring: min(coins, prestige) + victory points (deeds revealed)."""
    coins, prestige, vp = p.coins, p.prestige, 0
    for d in p.deeds:
        amount = deed_reward(s, c, p, d)
        kind = c.deed[d].reward
        if kind == "coins":
            coins += amount
        elif kind == "prestige":
            prestige += amount
        else:
            vp += amount
    vp += len(p.special)
    vp += STORAGE_UPGRADE_VP * sum(1 for u in p.upgrades if c.upgrade[u].kind == "storage")
    base = min(coins, prestige)
    return {
        "seat": p.seat,
        "coins": coins,
        "prestige": prestige,
        "base": base,
        "discarded": max(coins, prestige),
        "vp": vp,
        "total": base + vp,
        "gifts": loyal_gifts(c, p),
        "commissions": len(p.delivered_commissions),
        "heroes": len(p.delivered_heroes),
    }


def rank_key(x: dict[str, int]) -> tuple[int, ...]:
    return (x["total"], x["discarded"], x["gifts"], x["commissions"], x["heroes"])


def final_scoring(s: State, c: Content, ev: Events) -> None:
    scores = [score(s, c, p) for p in s.players]
    best = max(rank_key(x) for x in scores)
    winners = [x["seat"] for x in scores if rank_key(x) == best]
    s.result = {
        "scores": scores,
        "winners": winners,
        "deeds": {str(p.seat): list(p.deeds) for p in s.players},
    }
    s.phase = OVER
    ev.append({"type": "game_over", "winners": winners, "scores": scores})
