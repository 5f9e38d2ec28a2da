"""The wagon's storage: goods are polyomino shapes placed on grids.

Areas (ruling R7): `main` (the wagon grid), `saddle` (Sugarfoot's separate 2x2 bag), and
`hero:<id>` for each hero with the storage icon (holds any one good, whatever its shape).
A piece is `{"id", "good", "up", "area", "x", "y", "o"}`: orientation `o` indexes the good's
distinct rotations/reflections (content `shapes`). The storage upgrade tile is a piece of
good `upgrade` that is never discarded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .content import Content
from .state import Player

Piece = dict[str, Any]
Placement = tuple[str, int, int, int]  # area, x, y, o
HERO = "hero:"
SEARCH_LIMIT = 4000  # backtracking nodes for "anywhere it fits"


def areas(c: Content, p: Player) -> list[tuple[str, int, int]]:
    """The seat's storage areas as (name, width, height); a hero area is 1x1 nominal."""
    g = c.board.grid
    out = [("main", g.width, g.height)]
    if any(c.steed[s].ability == "move_three" for s in p.steeds):
        b = c.board.saddle_bag
        out.append(("saddle", b.width, b.height))
    for h in p.heroes:
        if c.hero[h].bonus == "storage":
            out.append((HERO + h, 1, 1))
    return out


def cells(c: Content, good: str, x: int, y: int, o: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in c.shapes[good][o]]


def _occupied(c: Content, pieces: list[Piece], area: str, skip: int | None) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for q in pieces:
        if q["area"] == area and q["id"] != skip:
            out.update(cells(c, q["good"], q["x"], q["y"], q["o"]))
    return out


def fits(
    c: Content,
    p: Player,
    good: str,
    where: Placement,
    pieces: list[Piece] | None = None,
    skip: int | None = None,
) -> bool:
    """Whether `good` fits at `where` among `pieces` (default: the stored ones)."""
    area, x, y, o = where
    pieces = p.pieces if pieces is None else pieces
    dims = {a: (w, h) for a, w, h in areas(c, p)}
    if area not in dims or not 0 <= o < len(c.shapes[good]):
        return False
    if area.startswith(HERO):
        if good == "upgrade":
            return False
        return (x, y, o) == (0, 0, 0) and not any(
            q["area"] == area and q["id"] != skip for q in pieces
        )
    w, h = dims[area]
    occ = _occupied(c, pieces, area, skip)
    return all(0 <= cx < w and 0 <= cy < h and (cx, cy) not in occ for cx, cy in cells(c, good, x, y, o))


def placements(c: Content, p: Player, good: str) -> Iterator[Placement]:
    """Every place the good fits now, without moving anything."""
    for area, w, h in areas(c, p):
        if area.startswith(HERO):
            if good != "upgrade" and not any(q["area"] == area for q in p.pieces):
                yield (area, 0, 0, 0)
            continue
        occ = _occupied(c, p.pieces, area, None)
        for o, shape in enumerate(c.shapes[good]):
            sw = max(dx for dx, _ in shape) + 1
            sh = max(dy for _, dy in shape) + 1
            for y in range(h - sh + 1):
                for x in range(w - sw + 1):
                    if all((x + dx, y + dy) not in occ for dx, dy in shape):
                        yield (area, x, y, o)


def first_fit(c: Content, p: Player, good: str) -> Placement | None:
    return next(placements(c, p, good), None)


def repack(c: Content, p: Player, goods: list[Piece]) -> list[Piece] | None:
    """A layout holding every piece of `goods` (ids kept), found by backtracking, or None."""
    order = sorted(goods, key=lambda q: -c.size[q["good"]])
    ars = areas(c, p)
    placed: list[Piece] = []
    nodes = 0

    def go(i: int) -> bool:
        nonlocal nodes
        if i == len(order):
            return True
        q = order[i]
        for area, w, h in ars:
            if area.startswith(HERO):
                if q["good"] == "upgrade" or any(r["area"] == area for r in placed):
                    continue
                opts: list[tuple[int, int, int]] = [(0, 0, 0)]
            else:
                occ = _occupied(c, placed, area, None)
                opts = []
                for o, shape in enumerate(c.shapes[q["good"]]):
                    for y in range(h):
                        for x in range(w):
                            if all(
                                0 <= x + dx < w and 0 <= y + dy < h and (x + dx, y + dy) not in occ
                                for dx, dy in shape
                            ):
                                opts.append((x, y, o))
            for x, y, o in opts:
                nodes += 1
                if nodes > SEARCH_LIMIT:
                    return False
                placed.append({**q, "area": area, "x": x, "y": y, "o": o})
                if go(i + 1):
                    return True
                placed.pop()
        return False

    return placed if go(0) else None


def legal(c: Content, p: Player, pieces: list[Piece] | None = None) -> bool:
    """Every piece inside its area, none overlapping, at most one good per hero."""
    pieces = p.pieces if pieces is None else pieces
    return all(
        fits(c, p, q["good"], (q["area"], q["x"], q["y"], q["o"]), pieces, skip=q["id"])
        for q in pieces
    )


def goods_of(p: Player) -> list[Piece]:
    """Stored goods (not the upgrade tile)."""
    return [q for q in p.pieces if q["good"] != "upgrade"]
