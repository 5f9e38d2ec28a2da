"""The wagon's storage: goods are polyomino shapes placed on grids.

Areas (ruling R7): `main` (the wagon grid), `saddle` (Sugarfoot's separate 2x2 bag), and
`hero:<id>` for each hero with the storage icon (holds any one good, whatever its shape).
A piece is `{"id", "good", "up", "area", "x", "y", "o"}`: orientation `o` indexes the good's
distinct rotations/reflections (content `shapes`). The storage upgrade tile is a piece of
good `upgrade` that is never discarded.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from .content import Content
from .state import Player

Piece = dict[str, Any]
Placement = tuple[str, int, int, int]  # area, x, y, o
HERO = "hero:"
SEARCH_LIMIT = 200_000  # placements tried by `repack`: bounds a pathological search


def areas(c: Content, p: Player) -> list[tuple[str, int, int]]:
    """The seat's storage areas as (name, width, height); a hero area is 1x1 nominal."""
    g = c.board.grid
    out = [("main", g.width, g.height)]
    for s in p.steeds:
        if c.steed[s].ability == "move_three":
            b = c.board.saddle_bag
            out.append(("saddle", b.width, b.height))
            break
    for h in p.heroes:
        if c.hero[h].bonus == "storage":
            out.append((HERO + h, 1, 1))
    return out


def _memo(c: Content, name: str) -> dict[Any, Any]:
    """A table kept on the pack (no empty default built at each look, as `setdefault`
    would: these are read for every piece of every placement test)."""
    table: dict[Any, Any] | None = c.__dict__.get(name)
    if table is None:
        table = c.__dict__[name] = {}
    return table


def cells(c: Content, good: str, x: int, y: int, o: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in c.shapes[good][o]]


def _grid_masks(c: Content, good: str, w: int, h: int) -> dict[tuple[int, int, int], int]:
    cache: dict[tuple[str, int, int], dict[tuple[int, int, int], int]] = _memo(c, "_grid_masks")
    key = (good, w, h)
    found = cache.get(key)
    if found is None:
        found = cache[key] = {(x, y, o): m for m, x, y, o in _masks(c, good, w, h)}
    return found


def _occupied(c: Content, pieces: list[Piece], area: str, w: int, h: int, skip: int | None) -> int:
    """The cells of `area` (w x h) the pieces there cover (but `skip`), as a bit mask."""
    occ = 0
    masks: dict[tuple[str, int, int, int, int, int], int] = _memo(c, "_piece_masks")
    for q in pieces:
        if q["area"] == area and q["id"] != skip:
            key = (q["good"], w, h, q["x"], q["y"], q["o"])
            m = masks.get(key)
            if m is None:
                m = masks[key] = _grid_masks(c, q["good"], w, h).get((q["x"], q["y"], q["o"]), 0)
            occ |= m
    return occ


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
    if area.startswith(HERO):
        if good == "upgrade" or not any(a == area for a, _, _ in areas(c, p)):
            return False
        return (x, y, o) == (0, 0, 0) and not any(
            q["area"] == area and q["id"] != skip for q in pieces
        )
    dims = {a: (w, h) for a, w, h in areas(c, p)}
    if area not in dims:
        return False
    w, h = dims[area]
    m = _grid_masks(c, good, w, h).get((x, y, o))
    return m is not None and not m & _occupied(c, pieces, area, w, h, skip)


def placements(c: Content, p: Player, good: str) -> Iterator[Placement]:
    """Every place the good fits now, without moving anything."""
    for area, w, h in areas(c, p):
        if area.startswith(HERO):
            if good != "upgrade" and not any(q["area"] == area for q in p.pieces):
                yield (area, 0, 0, 0)
            continue
        occ = _occupied(c, p.pieces, area, w, h, None)
        for m, x, y, o in _masks(c, good, w, h):
            if not m & occ:
                yield (area, x, y, o)


def first_fit(c: Content, p: Player, good: str) -> Placement | None:
    return next(placements(c, p, good), None)


def _masks(c: Content, good: str, w: int, h: int) -> list[tuple[int, int, int, int]]:
    """Every (mask, x, y, o) of `good` inside a w x h grid (bit y*w+x), cached on the pack."""
    cache: dict[tuple[str, int, int], list[tuple[int, int, int, int]]] = _memo(c, "_masks")
    key = (good, w, h)
    if key not in cache:
        out = []
        for o, shape in enumerate(c.shapes[good]):
            sw = max(dx for dx, _ in shape) + 1
            sh = max(dy for _, dy in shape) + 1
            for y in range(h - sh + 1):
                for x in range(w - sw + 1):
                    m = 0
                    for dx, dy in shape:
                        m |= 1 << ((y + dy) * w + x + dx)
                    out.append((m, x, y, o))
        cache[key] = out
    return cache[key]


# `repack`'s answers by their question (the areas, every good as given): listing a store
# choice asks it for every view and bot of the version, then the command's check and
# move ask again; a wagon with no layout is the whole search each time.
_REPACKED: dict[tuple[Any, ...], list[Piece] | None] = {}
_REPACKED_MAX = 256  # emptied past this (a question comes back within its version)


def repack(c: Content, p: Player, goods: list[Piece]) -> list[Piece] | None:
    """`_repack`, remembered: the same question gets a new copy of the same answer."""
    key = (c, tuple(areas(c, p)), tuple(tuple(q.items()) for q in goods))
    # One look-up (`get`, not `in` then `[]`): a bot's worker thread may empty the
    # table between two looks of the event loop's thread.
    layout = _REPACKED.get(key, _UNKNOWN)
    if layout is _UNKNOWN:
        if len(_REPACKED) >= _REPACKED_MAX:
            _REPACKED.clear()
        layout = _REPACKED[key] = _repack(c, p, goods)
    return None if layout is None else [q.copy() for q in layout]


_UNKNOWN: Any = object()


Option = tuple[str, int, int, int, int, int]  # (area, area index, mask, x, y, o)


def _options(
    c: Content, good: str, grids: list[tuple[str, int, int]], heroes: list[str]
) -> tuple[list[Option], list[tuple[int, int]]]:
    """Every place `repack` may try for `good` (each grid's masks, then each hero), and
    what its search reads of each (area index, mask): made once per pack and areas."""
    cache: dict[tuple[Any, ...], tuple[list[Option], list[tuple[int, int]]]]
    cache = _memo(c, "_repack_options")
    key = (good, tuple(grids), tuple(heroes))
    found = cache.get(key)
    if found is None:
        ng = len(grids)
        opts: list[Option] = []
        for ai, (a, w, h) in enumerate(grids):
            opts += [(a, ai, m, x, y, o) for m, x, y, o in _masks(c, good, w, h)]
        if good != "upgrade":
            opts += [(a, ng + k, 0, 0, 0, 0) for k, a in enumerate(heroes)]
        found = cache[key] = (opts, [(ai, m) for _a, ai, m, _x, _y, _o in opts])
    return found


def _repack(c: Content, p: Player, goods: list[Piece]) -> list[Piece] | None:
    """A layout holding every piece of `goods` (ids kept), found by backtracking, or None.

    Pieces go largest first; two goods of the same type are placed in increasing
    placement order (no symmetric retries). A branch stops when the goods left are more
    cells than the free cells (and free heroes) could hold, and a state already shown to
    fail (the goods left, every area's occupancy) is not searched again, so the search is
    exhaustive: None means no layout exists. `SEARCH_LIMIT` only bounds a pathological
    case's CPU (over 2,345 positions where a good had no free place, from 1,500 played
    games, the most any search took was 7,916 nodes; see test_wagon.py).
    """
    ars = areas(c, p)
    grids = [(a, w, h) for a, w, h in ars if not a.startswith(HERO)]
    heroes = [a for a, _, _ in ars if a.startswith(HERO)]
    size = c.size
    order = sorted(goods, key=lambda q: (-size[q["good"]], q["good"]))
    n, ng = len(order), len(grids)
    left = [0] * (n + 1)  # cells of the goods from i on
    for i in range(n - 1, -1, -1):
        left[i] = left[i + 1] + size[order[i]["good"]]
    cells_total = sum(w * h for _, w, h in grids)
    made = [_options(c, q["good"], grids, heroes) for q in order]
    options = [opts for opts, _ in made]  # (area, ai, mask, x, y, o)
    same = [i > 0 and order[i - 1]["good"] == order[i]["good"] for i in range(n)]
    sizes = [size[q["good"]] for q in order]
    # What the search reads of each option: (area index, mask), in the options' order.
    slim = [reads for _, reads in made]
    occ = [0] * (ng + len(heroes))
    chosen: list[int] = [0] * n
    failed: set[tuple[int, int, tuple[int, ...]]] = set()
    nodes = 0
    free_heroes = len(heroes)  # heroes holding no good (occ[k] == 0 for k >= ng)

    class _GaveUp(Exception):
        pass

    def go(i: int, used: int) -> bool:
        nonlocal nodes, free_heroes
        if i == n:
            return True
        cells = sizes[i]
        # A free hero holds any one good: at most the biggest left (the one at i).
        if left[i] > cells_total - used + free_heroes * cells:
            return False
        start = chosen[i - 1] + 1 if same[i] else 0
        key = (i, start, tuple(occ))
        if key in failed:
            return False
        j = start - 1
        for ai, m in islice(slim[i], start, None):
            j += 1
            if ai >= ng:
                if occ[ai]:
                    continue
                occ[ai], taken = 1, 0
                free_heroes -= 1
            elif occ[ai] & m:
                continue
            else:
                occ[ai] |= m
                taken = cells
            nodes += 1
            if nodes > SEARCH_LIMIT:
                raise _GaveUp
            chosen[i] = j
            if go(i + 1, used + taken):
                return True
            if ai >= ng:
                occ[ai] = 0
                free_heroes += 1
            else:
                occ[ai] &= ~m
        failed.add(key)
        return False

    try:
        if not go(0, 0):
            return None
    except _GaveUp:
        return None
    out = []
    for i, q in enumerate(order):
        a, _, _, x, y, o = options[i][chosen[i]]
        out.append({**q, "area": a, "x": x, "y": y, "o": o})
    return out


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
