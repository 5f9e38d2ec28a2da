"""The wagon: storing, discarding and rearranging goods, and the choices that keep
the wagon within its limits (heroes, commissions, inventory), plus goods chosen or lost."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from .. import actions as A
from .. import storage as st
from ..content import Content
from ..errors import RuleError
from ..state import OVER, PLAY, Player, State
from .buildings import piece_of
from .core import AUTO_PLACE, Check, Events, Handler, err, intern, pending_choice
from .gains import gain_good, gain_resource, hero_bonus, lose_hero, return_piece

# --- storage commands ------------------------------------------------------------------------


def _can_rearrange(s: State, seat: int) -> Check:
    """Ruling R8: rearranging is free on your own turn and whenever you are storing a good."""
    if s.phase == OVER:
        return err("game_over", "the game is over")
    if s.pending and s.pending[0]["kind"] == "store" and s.pending[0]["seat"] == seat:
        return None
    if s.phase == PLAY and seat == s.turn_seat and not s.pending:
        return None
    return err("not_now", "rearrange on your turn or while storing a good")


@functools.lru_cache(maxsize=4096)
def _place_cmd(where: st.Placement) -> A.PlaceGood:
    """Interned commands: listing a placement builds no new object."""
    return A.PlaceGood(*where)


def _area_cmds(c: Content, good: str, area: str, w: int, h: int) -> list[tuple[int, A.PlaceGood]]:
    """(mask, command) of every place of `good` in a w x h grid area, in the order of
    `storage.placements`: made once per pack."""
    cache: dict[tuple[str, str, int, int], list[tuple[int, A.PlaceGood]]]
    cache = st._memo(c, "_place_cmds")
    key = (good, area, w, h)
    found = cache.get(key)
    if found is None:
        found = cache[key] = [
            (m, _place_cmd((area, x, y, o))) for m, x, y, o in st._masks(c, good, w, h)
        ]
    return found


_FREE_MAX = 4096  # `_free`'s table is emptied past this


def _free(c: Content, good: str, area: str, w: int, h: int, occ: int) -> list[A.PlaceGood]:
    """The places of `good` in a grid area clear of the occupied cells `occ`, remembered
    by that question (about half the listings of a run ask one asked before)."""
    cache: dict[tuple[str, str, int, int, int], list[A.PlaceGood]] = st._memo(c, "_free")
    key = (good, area, w, h, occ)
    found = cache.get(key)
    if found is None:
        if len(cache) >= _FREE_MAX:
            cache.clear()
        found = cache[key] = [cmd for m, cmd in _area_cmds(c, good, area, w, h) if not m & occ]
    return found


def _placed(c: Content, p: Player, good: str) -> list[A.PlaceGood]:
    """`storage.placements` as commands: each grid area's free places by its
    occupancy, no placement tuple built."""
    out: list[A.PlaceGood] = []
    pieces = p.pieces
    for area, w, h in st.areas(c, p):
        if area.startswith(st.HERO):
            if good != "upgrade" and not any(q["area"] == area for q in pieces):
                out.append(_place_cmd((area, 0, 0, 0)))
            continue
        out += _free(c, good, area, w, h, st._occupied(c, pieces, area, w, h, None))
    return out


class PlaceGood(Handler[A.PlaceGood]):
    """Store the first incoming good where the command says, or anywhere it fits."""

    cmd = A.PlaceGood

    def listing(self, s: State, c: Content, seat: int) -> list[A.PlaceGood]:
        p = s.players[seat]
        explicit = _placed(c, p, p.incoming[0]["good"])
        if explicit or _auto_layout(c, p):
            return [AUTO_PLACE, *explicit]
        return []

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.PlaceGood]:
        p = s.players[seat]
        if not s.pending or s.pending[0]["kind"] != "store" or not p.incoming:
            return
        yield A.PlaceGood()
        for area, x, y, o in st.placements(c, p, p.incoming[0]["good"]):
            yield A.PlaceGood(area, x, y, o)

    def check(self, s: State, c: Content, seat: int, cmd: A.PlaceGood) -> Check:
        pend = pending_choice(s, seat, "store")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        good = p.incoming[0]["good"]
        if cmd.area is None:
            if st.first_fit(c, p, good) or _auto_layout(c, p):
                return None
            return err("no_room", f"the {good} does not fit: discard something")
        if not st.fits(c, p, good, (cmd.area, cmd.x, cmd.y, cmd.o)):
            return err("no_room", f"the {good} does not fit at {cmd.area} ({cmd.x}, {cmd.y})")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.PlaceGood, ev: Events) -> None:
        p = s.players[seat]
        g = p.incoming.pop(0)
        piece = {"id": p.next_piece, "good": g["good"], "up": g["up"]}
        p.next_piece += 1
        where = (cmd.area, cmd.x, cmd.y, cmd.o) if cmd.area else st.first_fit(c, p, g["good"])
        if where is None:
            layout = st.repack(c, p, [*p.pieces, {**piece, "area": "main", "x": 0, "y": 0, "o": 0}])
            assert layout is not None
            p.pieces = layout
        else:
            p.pieces.append(
                {**piece, "area": where[0], "x": where[1], "y": where[2], "o": where[3]}
            )
        ev.append({"type": "stored", "seat": seat, "good": g["good"], "up": g["up"]})
        if not p.incoming:
            s.pending.pop(0)


def _auto_layout(c: Content, p: Player) -> list[dict[str, Any]] | None:
    g = p.incoming[0]
    return st.repack(c, p, [*p.pieces, {"id": -1, "good": g["good"], "up": g["up"]}])


class DiscardGood(Handler[A.DiscardGood]):
    """Make room: discard the incoming good or a stored one (never the upgrade tile)."""

    cmd = A.DiscardGood

    def listing(self, s: State, c: Content, seat: int) -> list[A.DiscardGood]:
        p = s.players[seat]
        out = (
            [intern(A.DiscardGood, None)]
            if p.incoming and p.incoming[0]["good"] != "upgrade"
            else []
        )
        out += [intern(A.DiscardGood, q["id"]) for q in p.pieces if q["good"] != "upgrade"]
        return out

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DiscardGood]:
        p = s.players[seat]
        if p.incoming and p.incoming[0]["good"] != "upgrade":
            yield intern(A.DiscardGood, None)
        for q in p.pieces:
            if q["good"] != "upgrade":  # `storage.goods_of`
                yield intern(A.DiscardGood, q["id"])

    def check(self, s: State, c: Content, seat: int, cmd: A.DiscardGood) -> Check:
        pend = pending_choice(s, seat, "store")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.piece is None and p.incoming[0]["good"] == "upgrade":
            return err("cannot_discard", "the storage upgrade cannot be discarded")
        if cmd.piece is not None and piece_of(p, cmd.piece) is None:
            return err("no_such_good", f"no good {cmd.piece} in your storage")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DiscardGood, ev: Events) -> None:
        p = s.players[seat]
        if cmd.piece is None:
            g = p.incoming.pop(0)
            s.goods_supply[g["good"]] += 1
            ev.append({"type": "discarded", "seat": seat, "good": g["good"]})
            if not p.incoming:
                s.pending.pop(0)
        else:
            q = piece_of(p, cmd.piece)
            assert q is not None
            return_piece(s, p, q)
            ev.append({"type": "discarded", "seat": seat, "good": q["good"]})


class Rearrange(Handler[A.Rearrange]):
    """A whole new storage layout (ruling R8)."""

    cmd = A.Rearrange

    def listing(self, s: State, c: Content, seat: int) -> tuple[A.Rearrange, ...]:
        """Never listed (`place_good` without an area is the listed way to repack)."""
        return ()

    def check(self, s: State, c: Content, seat: int, cmd: A.Rearrange) -> Check:
        refused = _can_rearrange(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        layout = _layout(c, p, cmd.layout)
        if layout is None:
            return err("bad_layout", "the layout must place every stored piece once, legally")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Rearrange, ev: Events) -> None:
        p = s.players[seat]
        layout = _layout(c, p, cmd.layout)
        assert layout is not None
        p.pieces = layout
        ev.append({"type": "rearranged", "seat": seat})


def _layout(c: Content, p: Player, flat: tuple[int, ...]) -> list[dict[str, Any]] | None:
    if len(flat) != 5 * len(p.pieces):
        return None
    names = [a for a, _, _ in st.areas(c, p)]
    by_id = {q["id"]: q for q in p.pieces}
    out = []
    for i in range(0, len(flat), 5):
        pid, ai, x, y, o = flat[i : i + 5]
        if pid not in by_id or not 0 <= ai < len(names):
            return None
        out.append({**by_id.pop(pid), "area": names[ai], "x": x, "y": y, "o": o})
    if by_id or not st.legal(c, p, out):
        return None
    return out


# --- other answers ------------------------------------------------------------------------------


class DiscardHero(Handler[A.DiscardHero]):
    """Over 3 heroes: discard one (the new one: no bonus) to the bottom of the deck."""

    cmd = A.DiscardHero

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DiscardHero]:
        for h in s.players[seat].heroes:
            yield A.DiscardHero(h)

    def check(self, s: State, c: Content, seat: int, cmd: A.DiscardHero) -> Check:
        pend = pending_choice(s, seat, "hero_overflow")
        if isinstance(pend, RuleError):
            return pend
        if cmd.hero not in s.players[seat].heroes:
            return err("no_such_hero", f"{cmd.hero} is not on your wagon")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DiscardHero, ev: Events) -> None:
        pend = s.pending.pop(0)
        p = s.players[seat]
        lose_hero(s, c, p, cmd.hero)
        s.decks["heroes"].append(cmd.hero)  # to the bottom of the hero deck
        ev.append({"type": "hero_discarded", "seat": seat, "hero": cmd.hero})
        if cmd.hero != pend["new"]:
            hero_bonus(s, c, p, pend["new"], ev)


class DiscardCommission(Handler[A.DiscardCommission]):
    """Over 3 commissions: discard one under its town's stack."""

    cmd = A.DiscardCommission

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DiscardCommission]:
        for k in s.players[seat].commissions:
            yield A.DiscardCommission(k)

    def check(self, s: State, c: Content, seat: int, cmd: A.DiscardCommission) -> Check:
        pend = pending_choice(s, seat, "commission_overflow")
        if isinstance(pend, RuleError):
            return pend
        if cmd.commission not in s.players[seat].commissions:
            return err("no_such_commission", f"{cmd.commission} is not on your wagon")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DiscardCommission, ev: Events) -> None:
        s.pending.pop(0)
        s.players[seat].commissions.remove(cmd.commission)
        s.stacks[c.commission[cmd.commission].town].append(cmd.commission)
        ev.append({"type": "commission_discarded", "seat": seat, "commission": cmd.commission})


class DiscardResource(Handler[A.DiscardResource]):
    """Over 3 inventory items: discard a quartz or a horseshoe."""

    cmd = A.DiscardResource

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.DiscardResource]:
        yield A.DiscardResource("quartz")
        yield A.DiscardResource("horseshoes")

    def check(self, s: State, c: Content, seat: int, cmd: A.DiscardResource) -> Check:
        pend = pending_choice(s, seat, "inventory_overflow")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        held = {"quartz": p.quartz, "horseshoes": p.horseshoes}
        if not held.get(cmd.resource):
            return err("no_such_resource", f"no {cmd.resource} to discard")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.DiscardResource, ev: Events) -> None:
        s.pending.pop(0)
        gain_resource(s, s.players[seat], cmd.resource, -1, ev)


class ChooseGood(Handler[A.ChooseGood]):
    """A good of your choice (any good, or one worth $1)."""

    cmd = A.ChooseGood

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.ChooseGood]:
        if s.pending and s.pending[0]["kind"] == "choose_good":
            for g in s.pending[0]["options"]:
                yield A.ChooseGood(g)

    def check(self, s: State, c: Content, seat: int, cmd: A.ChooseGood) -> Check:
        pend = pending_choice(s, seat, "choose_good")
        if isinstance(pend, RuleError):
            return pend
        if cmd.good not in pend["options"]:
            return err("not_offered", f"{cmd.good!r} is not one of {pend['options']}")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.ChooseGood, ev: Events) -> None:
        pend = s.pending.pop(0)
        gain_good(s, c, s.players[seat], cmd.good, pend["up"])


class LoseGood(Handler[A.LoseGood]):
    """An event's cost: lose a good of your choice."""

    cmd = A.LoseGood

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.LoseGood]:
        p = s.players[seat]
        for q in st.goods_of(p):
            yield A.LoseGood(q["id"])
        for i, g in enumerate(p.incoming):
            if g["good"] != "upgrade":
                yield A.LoseGood(-1 - i)

    def check(self, s: State, c: Content, seat: int, cmd: A.LoseGood) -> Check:
        pend = pending_choice(s, seat, "lose_good")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.piece < 0:
            i = -1 - cmd.piece
            if i < len(p.incoming) and p.incoming[i]["good"] != "upgrade":
                return None
            return err("no_such_good", f"no incoming good {cmd.piece}")
        if piece_of(p, cmd.piece) is None:
            return err("no_such_good", f"no good {cmd.piece} in your storage")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.LoseGood, ev: Events) -> None:
        s.pending.pop(0)
        p = s.players[seat]
        if cmd.piece < 0:
            g = p.incoming.pop(-1 - cmd.piece)
            s.goods_supply[g["good"]] += 1
            ev.append({"type": "lost_good", "seat": seat, "good": g["good"]})
            return
        q = piece_of(p, cmd.piece)
        assert q is not None
        return_piece(s, p, q)
        ev.append({"type": "lost_good", "seat": seat, "good": q["good"]})
