#!/usr/bin/env python3
"""Generate the base map of Karanor: app/karanor/content/base/map.yaml.

Pure Python (standard library only), deterministic: rerunning it gives the
same file byte for byte.

How it works
  * The 36 territory centres ("seeds") are placed by hand on a portrait board
    (1000 x 1400), on a hand-drawn continent with a deep western gulf that
    reaches Perlance, a southern bay, a south-eastern peninsula (the diamond
    at its tip) and two islands reachable only by sea.
  * The coastline control points are roughened by a seeded midpoint
    displacement, so the coast looks drawn, not polygonal.
  * Each mainland territory is the Voronoi cell of its seed, clipped to the
    coastline (the coastline polygon clipped by the bisector half-planes of
    every other seed), relaxed twice (Lloyd, half a step) to even out sizes.
  * Land adjacency is derived from the geometry: two territories are adjacent
    when they share a border at least MIN_SHARED units long.
  * Shared borders are then made a little wavy (seeded per pair, so both
    sides get the very same line), coordinates are rounded to integers.
  * Sea routes are given by hand (SEA_ROUTES).

Usage
  python tools/make_map.py              # write map.yaml, check, print stats
  python tools/make_map.py --svg F.svg  # also write a preview SVG
  python tools/make_map.py --check      # only check + stats, write nothing
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import zlib
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "app" / "karanor" / "content" / "base" / "map.yaml"

WIDTH, HEIGHT = 1000, 1400
MIN_SHARED = 18.0  # shortest shared border that makes two territories adjacent
RELAX = 2  # Lloyd relaxation passes (half steps)

# ---------------------------------------------------------------------------
# Territories: id, name, kind, home, seed (x, y), terrain, resource, villa
# Names must match docs/map-plan.md exactly.
# ---------------------------------------------------------------------------
T = [
    # north
    ("phare_noir", "Phare Noir", "land", False, (150, 300), "coast", None, None),
    ("landes_de_brume", "Landes de Brume", "land", False, (285, 245), "marsh", "meat", None),
    ("col_des_vents", "Col des Vents", "land", False, (430, 175), "mountain", None, None),
    ("hautegarde", "Hautegarde", "city", True, (605, 215), "mountain", None, None),
    ("pic_gris", "Pic Gris", "land", False, (800, 205), "mountain", "ore", None),
    # north-middle
    ("kien", "Kien", "city", True, (185, 445), "plain", None, None),
    ("bois_de_lune", "Bois de Lune", "land", False, (340, 385), "forest", "wood", None),
    ("mines_de_karn", "Mines de Karn", "land", False, (505, 335), "mountain", "ore", None),
    ("foret_de_cendre", "Forêt de Cendre", "land", False, (690, 355), "forest", "wood", None),
    ("valbrume", "Valbrume", "city", True, (845, 420), "hills", None, None),
    # middle, north of the gulf
    ("clairiere_blanche", "Clairière Blanche", "land", False, (175, 565), "forest", None, None),
    ("velmar", "Velmar", "land", False, (330, 540), "hills", "wine", None),
    (
        "tour_des_mages",
        "Tour des Mages",
        "land",
        False,
        (485, 500),
        "hills",
        None,
        ("villa_tour_des_mages", "Villa of the Mages' Tower"),
    ),
    (
        "lac_miroir",
        "Lac Miroir",
        "land",
        False,
        (630, 520),
        "plain",
        None,
        ("villa_lac_miroir", "Glasswater Villa"),
    ),
    ("vergers_d_aube", "Vergers d'Aube", "land", False, (775, 575), "plain", "fruit", None),
    (
        "falaises_blanches",
        "Falaises Blanches",
        "land",
        False,
        (880, 690),
        "coast",
        None,
        ("villa_falaises_blanches", "Gull's Rest Villa"),
    ),
    # centre
    ("perlance", "Perlance", "city", False, (480, 680), "coast", None, None),
    ("trois_lunes", "Les Trois Lunes", "land", False, (640, 690), "plain", None, None),
    ("orsenne", "Orsenne", "city", True, (755, 790), "plain", None, None),
    # south of the gulf
    ("ecluse_d_argent", "Écluse d'Argent", "land", False, (380, 865), "plain", None, None),
    ("val_fleuri", "Val Fleuri", "land", False, (190, 1050), "plain", "fruit", None),
    ("les_filatures", "Les Filatures", "land", False, (535, 845), "plain", "cloth", None),
    ("gue_du_roi", "Gué du Roi", "land", False, (690, 905), "plain", None, None),
    ("cote_des_vignes", "Côte des Vignes", "land", False, (860, 965), "hills", "wine", None),
    # south
    ("port_feral", "Port-Féral", "city", True, (160, 905), "coast", None, None),
    ("combe_aux_cerfs", "Combe aux Cerfs", "land", False, (350, 1010), "forest", "meat", None),
    ("champs_de_lin", "Champs de Lin", "land", False, (500, 1030), "plain", "cloth", None),
    ("sylve_ancienne", "Sylve Ancienne", "land", False, (235, 1200), "forest", "wood", None),
    ("cite_unisson", "Cité de l'Unisson", "city", True, (410, 1165), "plain", None, None),
    ("marais_salants", "Marais Salants", "land", False, (545, 1205), "marsh", None, None),
    ("vieux_cimetiere", "Vieux Cimetière", "land", False, (340, 1290), "hills", None, None),
    # the south-eastern peninsula
    ("dunes_rouges", "Dunes Rouges", "land", False, (855, 1085), "desert", None, None),
    ("ruines_d_orth", "Ruines d'Orth", "land", False, (865, 1200), "desert", None, None),
    ("gouffre_azur", "Gouffre Azur", "land", False, (880, 1300), "mountain", "diamond", None),
    # islands (their shape is their whole island)
    (
        "ile_aux_paons",
        "Île aux Paons",
        "land",
        False,
        (150, 722),
        "coast",
        None,
        ("villa_ile_aux_paons", "Peacock Pavilion"),
    ),
    ("ile_des_brumes", "Île des Brumes", "land", False, (104, 118), "marsh", None, None),
]
ISLANDS = {"ile_aux_paons", "ile_des_brumes"}

SEA_ROUTES = [
    ("perlance", "port_feral"),  # along the Gulf
    ("perlance", "ile_aux_paons"),  # down the Gulf
    ("port_feral", "ile_aux_paons"),
    ("clairiere_blanche", "ile_aux_paons"),
    ("phare_noir", "ile_des_brumes"),
    ("falaises_blanches", "cote_des_vignes"),  # across the eastern bay
    ("marais_salants", "dunes_rouges"),  # across the southern bay
]

# Coastline control points (clockwise on screen). Roughened below.
MAINLAND = [
    (95, 300),
    (118, 238),
    (190, 196),
    (262, 148),
    (340, 118),
    (430, 84),
    (520, 100),
    (600, 112),
    (680, 92),
    (760, 118),
    (850, 128),
    (905, 178),
    (922, 258),
    (900, 330),
    (930, 400),
    (935, 478),
    (906, 540),
    (940, 600),
    (948, 680),
    (916, 742),
    (890, 772),
    (846, 790),
    (818, 822),
    (830, 858),
    (872, 878),
    (905, 905),
    (922, 950),
    (936, 1040),
    (926, 1120),
    (946, 1200),
    (950, 1282),
    (924, 1342),
    (860, 1362),
    (800, 1332),
    (772, 1262),
    (760, 1182),
    (742, 1110),
    (722, 1042),
    (682, 1002),
    (640, 1020),
    (610, 1080),
    (590, 1150),
    (612, 1230),
    (600, 1300),
    (540, 1342),
    (460, 1352),
    (380, 1336),
    (300, 1324),
    (220, 1292),
    (150, 1232),
    (108, 1150),
    (88, 1070),
    (78, 990),
    (100, 920),
    (142, 872),
    (200, 852),
    (270, 840),
    (340, 812),
    (400, 766),
    (440, 714),
    (420, 662),
    (370, 640),
    (300, 630),
    (232, 630),
    (162, 610),
    (102, 580),
    (80, 520),
    (90, 440),
    (70, 370),
]


def ellipse(cx, cy, rx, ry, n, phase=0.0, wobble=None):
    pts = []
    for k in range(n):
        a = phase + 2 * math.pi * k / n
        r = 1.0 if wobble is None else wobble[k % len(wobble)]
        pts.append((cx + rx * r * math.cos(a), cy + ry * r * math.sin(a)))
    return pts


ISLAND_SHAPES = {
    "ile_aux_paons": ellipse(
        150, 722, 62, 42, 9, 0.2, [1.0, 0.85, 1.1, 0.9, 1.05, 0.8, 1.0, 1.12, 0.9]
    ),
    "ile_des_brumes": ellipse(
        104, 118, 74, 50, 8, 0.5, [1.0, 1.15, 0.85, 1.05, 0.9, 1.1, 0.8, 1.0]
    ),
}


# ---------------------------------------------------------------------------
# geometry helpers
# ---------------------------------------------------------------------------
def area(poly):
    s = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        s += x1 * y2 - x2 * y1
    return s / 2.0  # > 0: clockwise on screen (y down)


def centroid(poly):
    a = area(poly)
    cx = cy = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        c = x1 * y2 - x2 * y1
        cx += (x1 + x2) * c
        cy += (y1 + y2) * c
    return (cx / (6 * a), cy / (6 * a))


def inside(pt, poly):
    x, y = pt
    res = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                res = not res
    return res


def seg_dist(p, a, b):
    px, py = p
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    qx, qy = ax + t * dx, ay + t * dy
    return math.hypot(px - qx, py - qy)


def boundary_dist(p, poly):
    return min(seg_dist(p, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def roughen(points, seed, levels=3, amp=0.18, closed=True):
    """Seeded midpoint displacement of a polyline / polygon."""
    rng = random.Random(seed)
    pts = list(points)
    a = amp
    for _ in range(levels):
        out = []
        n = len(pts)
        last = n if closed else n - 1
        for i in range(last):
            p, q = pts[i], pts[(i + 1) % n]
            out.append(p)
            dx, dy = q[0] - p[0], q[1] - p[1]
            L = math.hypot(dx, dy)
            if L < 6:
                continue
            off = rng.uniform(-a, a) * L
            nx, ny = -dy / L, dx / L
            t = rng.uniform(0.4, 0.6)
            out.append((p[0] + dx * t + nx * off, p[1] + dy * t + ny * off))
        if not closed:
            out.append(pts[-1])
        pts = out
        a *= 0.6
    return pts


# ---------------------------------------------------------------------------
# Voronoi cells clipped to the coast, with edge labels
# A cell is a list of (point, label): label of the edge point -> next point,
# either "coast" or the id of the neighbouring territory.
# ---------------------------------------------------------------------------
def clip(cell, s_i, s_j, j):
    (xi, yi), (xj, yj) = s_i, s_j
    nx, ny = xj - xi, yj - yi
    c = (xj * xj + yj * yj - xi * xi - yi * yi) / 2.0

    def val(p):  # < 0 : closer to i
        return p[0] * nx + p[1] * ny - c

    out = []
    n = len(cell)
    for k in range(n):
        p, lab = cell[k]
        q = cell[(k + 1) % n][0]
        vp, vq = val(p), val(q)
        pin, qin = vp <= 0, vq <= 0
        if pin:
            out.append((p, lab))
        if pin != qin:
            t = vp / (vp - vq)
            ip = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            out.append((ip, j if pin else lab))
    return out


def voronoi(seeds, coast):
    cells = {}
    base = [(p, "coast") for p in coast]
    for i, si in seeds.items():
        cell = base
        # clip by the nearest first: keeps the working polygon small
        for j in sorted(seeds, key=lambda k: math.dist(si, seeds[k])):
            if j != i:
                cell = clip(cell, si, seeds[j], j)
        cells[i] = cell
    return cells


def despike(cell):
    """Remove the zero-width spikes Sutherland-Hodgman leaves where a clip
    line crossed water (a bridge to a piece that later got clipped away)."""
    changed = True
    while changed and len(cell) > 3:
        changed = False
        n = len(cell)
        for k in range(n):
            a, _ = cell[k - 1]
            b, _ = cell[k]
            c, lc = cell[(k + 1) % n]
            ux, uy = b[0] - a[0], b[1] - a[1]
            vx, vy = c[0] - b[0], c[1] - b[1]
            lu, lv = math.hypot(ux, uy), math.hypot(vx, vy)
            if lu < 1e-9 or lv < 1e-9:
                cell = cell[:k] + cell[k + 1 :]
                changed = True
                break
            cross = (ux * vy - uy * vx) / (lu * lv)
            dot = (ux * vx + uy * vy) / (lu * lv)
            if abs(cross) < 1e-6 and dot < 0:  # reversal: b is a spike tip
                if math.dist(a, c) < 1e-6:  # a -> b -> a: drop b and c
                    rest = [e for idx, e in enumerate(cell) if idx not in (k, (k + 1) % n)]
                    # the edge leaving a now has c's label
                    j = rest.index(cell[k - 1]) if cell[k - 1] in rest else None
                    if j is not None:
                        rest[j] = (a, lc)
                    cell = rest
                else:
                    cell = cell[:k] + cell[k + 1 :]
                changed = True
                break
    return cell


def pieces(cell):
    """Number of times the outline passes through the same point (a bridge
    between two real pieces would show as a repeated vertex)."""
    seen = [p for p, _ in cell]
    return len(seen) - len(set(seen))


def build():
    coast = roughen(MAINLAND, 7, levels=3, amp=0.16)
    if area(coast) < 0:
        coast.reverse()
    seeds = {t[0]: t[4] for t in T if t[0] not in ISLANDS}
    pinned = {"perlance", "port_feral"}  # ports stay at the water's edge
    for _ in range(RELAX):
        cells = voronoi(seeds, coast)
        for i, cell in cells.items():
            if i in pinned:
                continue
            c = centroid([p for p, _ in cell])
            seeds[i] = ((seeds[i][0] + c[0]) / 2, (seeds[i][1] + c[1]) / 2)
    cells = voronoi(seeds, coast)

    # snap vertices shared by several cells to one representative
    reg = {}

    def snap(p):
        key = (round(p[0] * 100), round(p[1] * 100))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                k = (key[0] + dx, key[1] + dy)
                if k in reg:
                    return reg[k]
        reg[key] = p
        return p

    for i in cells:
        cells[i] = [(snap(p), lab) for p, lab in cells[i]]
        # drop zero-length edges
        cl = []
        for p, lab in cells[i]:
            if cl and cl[-1][0] == p:
                cl[-1] = (p, lab)
                continue
            cl.append((p, lab))
        if len(cl) > 1 and cl[0][0] == cl[-1][0]:
            cl.pop()
        cells[i] = despike(cl)
        if pieces(cells[i]):
            print(f"WARNING: {i} is split by water")

    # collapse very short interior borders into a point (a four-way corner):
    # two territories either share a real border or visibly do not touch
    coastal = set()
    for cell in cells.values():
        n = len(cell)
        for k in range(n):
            if cell[k][1] == "coast":
                coastal.add(cell[k][0])
                coastal.add(cell[(k + 1) % n][0])
    moved = {}
    for i in sorted(cells):
        cell = cells[i]
        n = len(cell)
        for k in range(n):
            p, lab = cell[k]
            q = cell[(k + 1) % n][0]
            if (
                lab != "coast"
                and math.dist(p, q) < MIN_SHARED
                and p not in coastal
                and q not in coastal
                and p not in moved
                and q not in moved
            ):
                m = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
                moved[p] = moved[q] = m
    for i in cells:
        cl = []
        for p, lab in cells[i]:
            p = moved.get(p, p)
            if cl and cl[-1][0] == p:
                cl[-1] = (p, lab)
                continue
            cl.append((p, lab))
        if len(cl) > 1 and cl[0][0] == cl[-1][0]:
            cl.pop()
        cells[i] = cl

    # shared borders
    shared = {}
    for i, cell in cells.items():
        n = len(cell)
        for k in range(n):
            p, lab = cell[k]
            q = cell[(k + 1) % n][0]
            if lab != "coast":
                key = tuple(sorted((i, lab)))
                shared[key] = shared.get(key, 0.0) + math.dist(p, q) / 2.0
    land = sorted(k for k, L in shared.items() if L >= MIN_SHARED)

    # wavy borders, identical on both sides
    def wave(a, b, pair):
        flip = a > b
        if flip:
            a, b = b, a
        rng = random.Random(zlib.crc32(("{}|{}".format(*pair)).encode()))
        pts = [a, b]
        amp = 0.13
        for _ in range(3):
            out = [pts[0]]
            for u, v in zip(pts, pts[1:], strict=False):
                dx, dy = v[0] - u[0], v[1] - u[1]
                L = math.hypot(dx, dy)
                if L >= 22:
                    off = rng.uniform(-amp, amp) * L
                    out.append((u[0] + dx / 2 - dy / L * off, u[1] + dy / 2 + dx / L * off))
                out.append(v)
            pts = out
            amp *= 0.7
        mids = pts[1:-1]
        return mids[::-1] if flip else mids

    shapes = {}
    for i, cell in cells.items():
        pts = []
        n = len(cell)
        for k in range(n):
            p, lab = cell[k]
            q = cell[(k + 1) % n][0]
            pts.append(p)
            if lab != "coast":
                pts.extend(wave(p, q, tuple(sorted((i, lab)))))
        shapes[i] = pts
    for i, poly in ISLAND_SHAPES.items():
        shapes[i] = roughen(poly, zlib.crc32(i.encode()), levels=2, amp=0.12)

    # integers, no repeated points, clockwise
    for i in shapes:
        out = []
        for x, y in shapes[i]:
            p = (int(round(x)), int(round(y)))
            if not out or out[-1] != p:
                out.append(p)
        while len(out) > 1 and out[0] == out[-1]:
            out.pop()
        if area(out) < 0:
            out.reverse()
        shapes[i] = out

    coasts = []
    for poly in [coast] + [shapes[i] for i in ("ile_aux_paons", "ile_des_brumes")]:
        out = []
        for x, y in poly:
            p = (int(round(x)), int(round(y)))
            if not out or out[-1] != p:
                out.append(p)
        coasts.append(out)

    centers = {i: label_point(shapes[i]) for i in shapes}
    return shapes, centers, land, coasts, shared


def label_point(poly):
    """A point well inside: maximise the distance to the border, with a slight
    pull toward the centroid and a preference for wide horizontal room."""
    cx, cy = centroid(poly)
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    best, bestp = -1e9, (cx, cy)
    step = 6
    y = min(ys) + step / 2
    while y < max(ys):
        x = min(xs) + step / 2
        while x < max(xs):
            if inside((x, y), poly):
                d = boundary_dist((x, y), poly)
                s = (
                    min(d, 40)
                    + 0.25 * min(chord(poly, (x, y)), 200) / 2
                    - 0.12 * math.dist((x, y), (cx, cy))
                )
                if s > best:
                    best, bestp = s, (x, y)
            x += step
        y += step
    return (int(round(bestp[0])), int(round(bestp[1])))


def chord(poly, pt):
    """Width of the horizontal run of the polygon through pt."""
    x, y = pt
    xs = []
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    left = max([v for v in xs if v <= x], default=x)
    right = min([v for v in xs if v >= x], default=x)
    return right - left


def halfchord(poly, pt):
    x, y = pt
    xs = []
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    left = max([v for v in xs if v <= x], default=x)
    right = min([v for v in xs if v >= x], default=x)
    return x - left, right - x


# ---------------------------------------------------------------------------
# checks and stats
# ---------------------------------------------------------------------------
LABEL_FONT = 15.0  # px in board units: what the checker assumes
CHAR_W = 0.60  # average glyph width / font size (sans, mixed case)


def segs_cross(a, b, c, d):
    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 0) - (v < 0)

    if len({a, b, c, d}) < 4:
        return False  # touching at a shared vertex is fine
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


def check(shapes, centers, land, sea, coasts):
    errs = []
    ids = [t[0] for t in T]
    plan = (ROOT / "docs" / "map-plan.md").read_text(encoding="utf-8")
    names = {}
    for line in plan.splitlines():
        cols = [c.strip() for c in line.split("|")]
        if len(cols) > 3 and cols[1] and cols[1] not in ("id", "---") and " " not in cols[1]:
            names[cols[1]] = cols[2]
    if len(ids) != 36 or len(set(ids)) != 36:
        errs.append("need 36 distinct ids")
    if set(names) != set(ids):
        errs.append("ids differ from map-plan: %s" % (set(names) ^ set(ids)))
    for t in T:
        if names.get(t[0]) != t[1]:
            errs.append(f"name of {t[0]}: {t[1]!r} vs plan {names.get(t[0])!r}")
    # polygons: simple, clockwise, centre inside, no crossing with others
    edges = []
    for i, poly in shapes.items():
        if len(poly) < 3 or area(poly) <= 0:
            errs.append(f"{i}: bad polygon")
        if len(poly) > 60:
            errs.append(f"{i}: {len(poly)} points")
        if not inside(centers[i], poly):
            errs.append(f"{i}: centre outside")
        n = len(poly)
        for k in range(n):
            edges.append((i, poly[k], poly[(k + 1) % n]))
    # bucket edges for crossing tests
    grid = {}
    for e in edges:
        x0, x1 = sorted((e[1][0], e[2][0]))
        y0, y1 = sorted((e[1][1], e[2][1]))
        for gx in range(int(x0 // 50), int(x1 // 50) + 1):
            for gy in range(int(y0 // 50), int(y1 // 50) + 1):
                grid.setdefault((gx, gy), []).append(e)
    bad = set()
    for bucket in grid.values():
        for a in range(len(bucket)):
            for b in range(a + 1, len(bucket)):
                e, f = bucket[a], bucket[b]
                if segs_cross(e[1], e[2], f[1], f[2]):
                    bad.add(tuple(sorted((e[0], f[0]))))
    for pr in sorted(bad):
        errs.append("edges cross: {} / {}".format(*pr))
    # overlap: total area of mainland cells equals area of the coast polygon
    main_area = sum(area(shapes[i]) for i in shapes if i not in ISLANDS)
    if abs(main_area - area(coasts[0])) > 0.01 * area(coasts[0]):
        errs.append(f"mainland cells area {main_area:.0f} vs coast {area(coasts[0]):.0f}")
    # each centre lies in its own polygon only
    for i, c in centers.items():
        for j, poly in shapes.items():
            if j != i and inside(c, poly):
                errs.append(f"centre of {i} inside {j}")
    # labels
    for t in T:
        i, name = t[0], t[1]
        w = len(name) * LABEL_FONT * CHAR_W
        room = min(
            min(halfchord(shapes[i], (centers[i][0], centers[i][1] + dy))) for dy in (-8, 0, 8)
        )
        if w / 2 > room:
            words = name.split()
            best = (
                min(
                    max(len(" ".join(words[:k])), len(" ".join(words[k:])))
                    for k in range(1, len(words))
                )
                if len(words) > 1
                else len(name)
            )
            w2 = best * LABEL_FONT * CHAR_W
            room2 = min(
                min(halfchord(shapes[i], (centers[i][0], centers[i][1] + dy)))
                for dy in (-16, 0, 16)
            )
            if w2 / 2 > room2:
                errs.append(f"label {name!r} overflows ({w2:.0f} wide, room {2 * room2:.0f})")
    # symmetric, known ids
    for a, b in land + sea:
        if a not in shapes or b not in shapes or a == b:
            errs.append(f"bad pair {a} {b}")
    lp = {tuple(sorted(p)) for p in land}
    for a, b in sea:
        if tuple(sorted((a, b))) in lp:
            errs.append(f"sea route duplicates land: {a} {b}")
    # connectivity
    g = graph(land, [])
    main = [i for i in ids if i not in ISLANDS]
    seen = bfs(g, main[0])
    for i in main:
        if i not in seen:
            errs.append(f"{i} not reachable by land")
    g2 = graph(land, sea)
    seen = bfs(g2, main[0])
    for i in ids:
        if i not in seen:
            errs.append(f"{i} not reachable at all")
    for i in ISLANDS:
        if any(i in p for p in land):
            errs.append(f"{i} has a land border")
    return errs


def graph(land, sea):
    g = {t[0]: set() for t in T}
    for a, b in list(land) + list(sea):
        g[a].add(b)
        g[b].add(a)
    return g


def bfs(g, s):
    d = {s: 0}
    q = deque([s])
    while q:
        u = q.popleft()
        for v in g[u]:
            if v not in d:
                d[v] = d[u] + 1
                q.append(v)
    return d


def stats(land, sea, out=sys.stdout):
    g = graph(land, sea)
    gl = graph(land, [])
    homes = [t[0] for t in T if t[3]]
    res = {}
    for t in T:
        if t[6]:
            res.setdefault(t[6], []).append(t[0])
    order = ["wood", "ore", "cloth", "wine", "meat", "fruit", "diamond"]

    def p(*a):
        print(*a, file=out)

    def cell(m, ml):
        return str(m) if m == ml else f"{m}({ml})"

    p("steps (land+sea; land only in brackets when different)")
    p(f"{'home':<18}" + "".join(f"{r:>8}" for r in order) + f"{'perlance':>10}   within 3")
    for h in homes:
        d, dl = bfs(g, h), bfs(gl, h)
        row = f"{h:<18}"
        near = []
        for r in order:
            m = min(d.get(s, 99) for s in res[r])
            ml = min(dl.get(s, 99) for s in res[r])
            row += f"{cell(m, ml):>8}"
            if m <= 3:
                near.append(r)
        row += f"{cell(d['perlance'], dl['perlance']):>10}"
        p(row + "   " + ",".join(near))
    ecc = {i: max(bfs(g, i).values()) for i in g}
    mains = [t[0] for t in T if t[0] not in ISLANDS]
    eccl = {i: max(bfs(gl, i)[j] for j in mains) for i in mains}
    p(f"diameter: {max(ecc.values())} (land+sea), {max(eccl.values())} (mainland by land only)")
    far = {t[0]: min(bfs(g, t[0])[c] for c in homes + ["perlance"]) for t in T}
    p(f"gouffre_azur: nearest city {far['gouffre_azur']} steps")
    deg = {i: len(g[i]) for i in g}
    lo, hi = min(deg, key=deg.get), max(deg, key=deg.get)
    p(
        f"degree: min {deg[lo]} ({lo}) max {deg[hi]} ({hi}), "
        f"land edges {len(land)}, sea routes {len(sea)}"
    )


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------
def q(s):
    if any(c in s for c in ":'\"#") or s != s.strip():
        return '"{}"'.format(s.replace('"', '\\"'))
    return s


def pts(ps):
    return "[" + ", ".join(f"[{x}, {y}]" for x, y in ps) + "]"


def write_yaml(shapes, centers, land, coasts):
    L = [
        "# Generated by tools/make_map.py: edit the script, not this file.",
        f"width: {WIDTH}",
        f"height: {HEIGHT}",
        "territories:",
    ]
    for t in T:
        i, name, kind, home, _seed, terrain, resource, villa = t
        L.append(f"  - id: {i}")
        L.append(f"    name: {q(name)}")
        L.append(f"    kind: {kind}")
        L.append(f"    home: {'true' if home else 'false'}")
        L.append(f"    center: [{centers[i][0]}, {centers[i][1]}]")
        L.append(f"    shape: {pts(shapes[i])}")
        if resource:
            L.append(f"    resource: {resource}")
        if villa:
            L.append(f"    villa: {{id: {villa[0]}, name: {q(villa[1])}}}")
        L.append(f"    terrain: {terrain}")
    L.append("land:")
    for a, b in land:
        L.append(f"  - [{a}, {b}]")
    L.append("sea_routes:")
    for a, b in SEA_ROUTES:
        L.append(f"  - [{a}, {b}]")
    L.append("coast:")
    for c in coasts:
        L.append(f"  - {pts(c)}")
    return "\n".join(L) + "\n"


# preview only (the game's own renderer draws the real board)
TERRAIN_FILL = {
    "plain": "#d9cf8f",
    "forest": "#8fae6a",
    "hills": "#c9b074",
    "mountain": "#a99e90",
    "marsh": "#9db59a",
    "coast": "#e3d3a4",
    "desert": "#e2b27a",
}
RES_COL = {
    "wood": "#3d6b2a",
    "ore": "#555",
    "cloth": "#6a4c9c",
    "wine": "#8b1a3a",
    "meat": "#9c4a1c",
    "fruit": "#c0392b",
    "diamond": "#1b7fc4",
}
FONT = 'font-family="DejaVu Sans" text-anchor="middle"'


def write_svg(shapes, centers, land, coasts, path):
    def pl(ps):
        return " ".join(f"{x},{y}" for x, y in ps)

    S = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}">',
        '<defs><radialGradient id="sea" cx="50%" cy="45%" r="70%">'
        '<stop offset="0" stop-color="#7fb3c8"/><stop offset="1" stop-color="#3f7390"/>'
        "</radialGradient></defs>",
        '<rect width="100%" height="100%" fill="url(#sea)"/>',
    ]
    for c in coasts:
        for w, col, op in ((18, "#cfe6ee", 0.35), (7, "#e7f3f6", 0.5)):
            S.append(
                f'<polygon points="{pl(c)}" fill="none" stroke="{col}" stroke-width="{w}" '
                f'stroke-opacity="{op}" stroke-linejoin="round"/>'
            )
    for a, b in SEA_ROUTES:
        (x1, y1), (x2, y2) = centers[a], centers[b]
        S.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#fff" stroke-width="3" '
            'stroke-dasharray="2 8" stroke-linecap="round"/>'
        )
    tmap = {t[0]: t for t in T}
    for i, poly in shapes.items():
        t = tmap[i]
        fill = "#e8dcc0" if t[2] == "city" else TERRAIN_FILL[t[5]]
        S.append(
            f'<polygon points="{pl(poly)}" fill="{fill}" stroke="#6b5a3e" '
            'stroke-width="1.6" stroke-linejoin="round"/>'
        )
    for c in coasts:
        S.append(
            f'<polygon points="{pl(c)}" fill="none" stroke="#4a3c26" stroke-width="3" '
            'stroke-linejoin="round"/>'
        )
    for a, b in land:
        (x1, y1), (x2, y2) = centers[a], centers[b]
        S.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" '
            'stroke-opacity="0.12" stroke-width="1"/>'
        )
    for t in T:
        i, name, kind, home = t[0], t[1], t[2], t[3]
        x, y = centers[i]
        if kind == "city":
            col = "#b8862b" if home else "#2b6fb8"
            S.append(
                f'<circle cx="{x}" cy="{y - 20}" r="11" fill="{col}" stroke="#3b2a14" '
                'stroke-width="2.5"/>'
            )
        if t[6]:
            S.append(
                f'<circle cx="{x}" cy="{y - 20}" r="11" fill="{RES_COL[t[6]]}" stroke="#fff" '
                'stroke-width="2"/>'
            )
            S.append(
                f'<text x="{x}" y="{y - 16}" font-size="10" {FONT} fill="#fff" '
                f'font-weight="bold">{t[6][:2].upper()}</text>'
            )
        if t[7]:
            S.append(
                f'<rect x="{x + 14}" y="{y - 27}" width="16" height="14" fill="#f4ecd8" '
                'stroke="#7a1f1f" stroke-width="2"/>'
            )
        weight = "bold" if kind == "city" else "normal"
        S.append(
            f'<text x="{x}" y="{y + 5}" font-size="15" {FONT} fill="#2b2112" stroke="#f6efdc" '
            f'stroke-width="3" paint-order="stroke" font-weight="{weight}">'
            f"{name.replace(chr(39), '&#39;')}</text>"
        )
    S.append("</svg>")
    Path(path).write_text("\n".join(S), encoding="utf-8")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--svg", help="write a preview SVG here")
    ap.add_argument("--check", action="store_true", help="check and print stats only")
    a = ap.parse_args()
    shapes, centers, land, coasts, shared = build()
    errs = check(shapes, centers, land, SEA_ROUTES, coasts)
    short = sorted((L, k) for k, L in shared.items() if L < MIN_SHARED)
    for L, k in short:
        print(f"note: {k[0]} / {k[1]} touch over {L:.0f} units only: not adjacent")
    stats(land, SEA_ROUTES)
    print(f"points per polygon: max {max(len(s) for s in shapes.values())}")
    if a.svg:
        write_svg(shapes, centers, land, coasts, a.svg)
    if errs:
        for e in errs:
            print("ERROR:", e)
        return 1
    if not a.check:
        OUT.write_text(write_yaml(shapes, centers, land, coasts), encoding="utf-8")
        print("wrote", OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
