// The map: an SVG drawn from /api/content, updated from each view; pan and zoom.
import { clear, s, seatColour, seatMark } from "../../util.js";
import { Viewport, keyed } from "../../kit.js";
import { noun, t, tn } from "../../i18n.js";
import { goodName } from "./goods.js";
import { shapeWords } from "./panels.js";

// Labels are drawn in map units; on screen they stay at least this many pixels high
// (a laptop draws the whole map small: the labels grow when it is zoomed out).
const MIN_LABEL_PX = 12;
const LABEL = 19;
const CITY_LABEL = 23;

export const TERRAIN = {
  plain: "#dfe6a8", forest: "#9cc488", hills: "#d4c08a", mountain: "#bdb5aa",
  marsh: "#b2cbb0", coast: "#eadcae", desert: "#f0d595",
};
export const SEA = "#8fbcd4";

/** Number of sea crossings in a move path starting at `from`. */
export function seaLegs(seaSet, from, path) {
  let legs = 0;
  let here = from;
  for (const ter of path || []) {
    if (seaSet.has(pairKey(here, ter))) legs += 1;
    here = ter;
  }
  return legs;
}

const pairKey = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);

export class Board {
  /**
   * @param {HTMLElement} container the element with data-testid=board
   * @param {object} content /api/content
   * @param {object} opts onMove(command) when a highlighted territory is chosen
   */
  constructor(container, content, { onMove, words }) {
    this.words = words;
    this.container = container;
    this.content = content;
    this.map = content.map;
    this.onMove = onMove;
    this.territory = Object.fromEntries(this.map.territories.map((ter) => [ter.id, ter]));
    this.seaSet = new Set(this.map.sea_routes.map(([a, b]) => pairKey(a, b)));
    this.full = { x: 0, y: 0, w: this.map.width, h: this.map.height };
    this.build();
    this.viewport = new Viewport(container, this.svg, this.full, { maxZoom: 6, onChange: () => this.fitLabels() });
  }

  // --- static layers -------------------------------------------------------------

  /** Each mark's <title> also as its data-tip: the name shows on a tap (a touch screen
   *  never shows an SVG title). */
  tipMarks(layer) {
    for (const title of layer.querySelectorAll(":scope > g > title, :scope > g > g > title, .plaza title")) {
      title.parentElement.setAttribute("data-tip", title.textContent);
    }
  }

  build() {
    const { width, height } = this.map;
    // A group, not an image: the move targets inside are buttons (an image's content is
    // presentational, and interactive content in it is lost to assistive technology).
    const svg = s("svg", {
      viewBox: `0 0 ${width} ${height}`, class: "board-svg", role: "group",
      "aria-labelledby": "board-title", preserveAspectRatio: "xMidYMid meet",
    });
    svg.append(s("title", { id: "board-title", text: t("Map of Karanor") }));
    const defs = s("defs", {},
      s("pattern", { id: "waves", width: 40, height: 20, patternUnits: "userSpaceOnUse" },
        s("path", { d: "M0 10 q10 -6 20 0 t20 0", fill: "none", stroke: "#a9cfe2", "stroke-width": 2 })));
    svg.append(defs);
    svg.append(s("rect", { x: -2000, y: -2000, width: width + 4000, height: height + 4000, fill: SEA }));
    svg.append(s("rect", { x: -2000, y: -2000, width: width + 4000, height: height + 4000, fill: "url(#waves)" }));

    const coast = s("g", { class: "coast" });
    for (const line of this.map.coast) {
      const d = `M${line.map((p) => p.join(",")).join("L")}Z`;
      coast.append(s("path", { d, class: "shallows" }));
      coast.append(s("path", { d, class: "landmass" }));
    }
    svg.append(coast);

    this.terrLayer = s("g", { class: "territories" });
    this.polys = {};
    for (const ter of this.map.territories) {
      const poly = s("polygon", {
        points: ter.shape.map((p) => p.join(",")).join(" "),
        fill: TERRAIN[ter.terrain] || TERRAIN.plain,
        class: `terr${ter.kind === "city" ? " city" : ""}`,
        "data-territory": ter.id,
      });
      this.polys[ter.id] = poly;
      this.terrLayer.append(poly);
    }
    svg.append(this.terrLayer);

    const sea = s("g", { class: "sea-routes" });
    for (const [a, b] of this.map.sea_routes) {
      const [x1, y1] = this.territory[a].center;
      const [x2, y2] = this.territory[b].center;
      sea.append(s("line", { x1, y1, x2, y2, class: "sea-route" }));
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      sea.append(s("g", { class: "sea-cost", transform: `translate(${mx} ${my})` },
        s("title", { text: tn("Sea route: {n} gold to cross", "Sea route: {n} gold to cross", this.content.rules.sea_cost) }),
        s("circle", { r: 13 }), s("text", { y: 5, text: String(this.content.rules.sea_cost) })));
    }
    svg.append(sea);

    const marks = s("g", { class: "marks" });
    for (const ter of this.map.territories) {
      const [x, y] = ter.center;
      if (ter.kind === "city") {
        marks.append(s("g", { class: "city-mark", transform: `translate(${x} ${y - 30})` },
          s("path", { d: "M-22 14 v-16 l8 -8 l8 8 v-6 l8 -10 l8 10 v6 l8 -8 l8 8 v16 z" })));
      }
      if (ter.resource) {
        marks.append(s("g", { class: "site", transform: `translate(${x - 40} ${y - 42})` },
          s("title", { text: t("{resource} harvest site", { resource: goodName(ter.resource) }) }),
          s("circle", { cx: 15, cy: 15, r: 18 }),
          s("use", { href: `/static/icons.svg#${ter.resource}`, width: 30, height: 30 })));
      }
      marks.append(s("text", { x, y: y + 36, class: `terr-name${ter.kind === "city" ? " city-name" : ""}`, text: ter.name }));
    }
    svg.append(marks);
    this.tipMarks(sea);
    this.tipMarks(marks);

    this.dynamic = s("g", { class: "dynamic" });
    svg.append(this.dynamic);
    this.targets = s("g", { class: "targets" });
    svg.append(this.targets);
    this.svg = svg;
    clear(this.container).append(svg);
    if (window.ResizeObserver) new ResizeObserver(() => this.fitLabels()).observe(svg);
  }

  // --- the view ------------------------------------------------------------------

  /** Draw pieces and move targets for `view` (moves: the legal move commands). Each piece
   *  is keyed by what it is drawn from: only those that changed are drawn again (kit.js
   *  keyed(); issue 31: the whole layer was rebuilt at each version). */
  update(view, moves, { disabled = false, last = null } = {}) {
    this.view = view;
    const pieces = [];
    const piece = (key, draw) => pieces.push({ key: JSON.stringify(key), node: () => this.tipped(draw()) });

    // The last action of the table: its territory outlined, with what happened there.
    if (last && this.territory[last.territory]) {
      piece(["last", last.territory, last.seat, last.text], () => {
        const ter = this.territory[last.territory];
        const mark = s("polygon", { points: ter.shape.map((p) => p.join(",")).join(" "), class: "last-action",
          stroke: seatColour(last.seat), "data-testid": "last-action", "data-territory": ter.id });
        mark.append(s("title", { text: last.text || t("The last action") }));
        return mark;
      });
    }
    const board = view.board || {};
    const players = view.players || [];

    // Businesses: small seat marks on a plaza under the city name.
    const byCity = {};
    for (const p of players) {
      for (const b of p.businesses || []) (byCity[b.city] ||= []).push({ seat: p.seat, card: b.card });
    }
    for (const [city, list] of Object.entries(byCity)) {
      const ter = this.territory[city];
      if (!ter) continue;
      const names = list.map((b) => players[b.seat]?.name ?? null);
      piece(["plaza", city, list, names], () => {
        const [x, y] = ter.center;
        const w = list.length * 22 + 8;
        const plaza = s("g", { class: "plaza" });
        plaza.append(s("rect", { x: x - w / 2, y: y + 44, width: w, height: 26, rx: 8 }));
        list.forEach((b, i) => {
          const who = players[b.seat]?.name ?? t("Seat {n}", { n: b.seat + 1 });
          const mark = seatMark(b.seat, x - w / 2 + 15 + i * 22, y + 57, 8, { stroke: "#1d1d1d", "stroke-width": 1.4 });
          mark.append(s("title", { text: b.card ? t("{name}: {business}", { name: who, business: this.cardName("business", b.card) })
            : t("{name}: home business", { name: who }) }));
          plaza.append(mark);
        });
        return plaza;
      });
    }

    // Villas: a house, coloured and marked by its owner.
    const owners = board.villas || {};
    for (const ter of this.map.territories) {
      if (!ter.villa) continue;
      const owner = owners[ter.villa.id];
      const name = owner !== undefined ? players[owner]?.name ?? "" : null;
      piece(["villa", ter.id, owner ?? null, name], () => {
        const [x, y] = ter.center;
        const vg = s("g", { class: "villa", transform: `translate(${x + 14} ${y - 50})` },
          s("title", { text: owner !== undefined ? t("{villa} — owned by {name}", { villa: ter.villa.name, name })
            : t("{villa} — for sale", { villa: ter.villa.name }) }),
          s("rect", { x: -3, y: -3, width: 34, height: 34, rx: 8, class: owner !== undefined ? "villa-bg owned" : "villa-bg" }),
          s("use", { href: "/static/icons.svg#villa", width: 28, height: 28 }));
        if (owner !== undefined) vg.append(seatMark(owner, 30, 28, 8, { stroke: "#1d1d1d", "stroke-width": 1.4 }));
        return vg;
      });
    }

    // Inhabitants still on the map.
    const catalogue = this.content.catalogue.inhabitants || {};
    for (const [terr, who] of Object.entries(board.inhabitants || {})) {
      const ter = this.territory[terr];
      if (!ter) continue;
      piece(["inhabitant", terr, who], () => {
        const [x, y] = ter.center;
        return s("g", { class: "inhabitant", transform: `translate(${x + (ter.resource ? 12 : -14)} ${y - 50})` },
          s("title", { text: t("{who} lives here", { who: noun(catalogue[who]?.name ?? who, catalogue[who]?.article) }) }),
          s("circle", { cx: 12, cy: 12, r: 15 }),
          s("use", { href: "/static/icons.svg#person", x: 1, y: 1, width: 22, height: 22 }));
      });
    }

    // Player pawns, spread when several share a territory.
    const at = {};
    const spots = [];
    for (const p of players) (at[p.position] ||= []).push(p);
    for (const [terr, list] of Object.entries(at)) {
      const ter = this.territory[terr];
      if (!ter) continue;
      const [x, y] = ter.center;
      list.forEach((p, i) => {
        const dx = (i - (list.length - 1) / 2) * 30;
        const turn = view.turn && view.turn.seat === p.seat && view.status === "playing";
        const spot = { seat: p.seat, x: x + dx, y: y - 2 };
        spots.push(spot);
        piece(["pawn", spot, Boolean(turn), p.name], () => {
          // The SVG transform sits on the outer group; CSS animates only the inner one.
          // Its shadow is the mark again, dark and a little lower: a blurred SVG filter
          // was drawn again at every frame of a glide or a bob (issue 31).
          const pawn = s("g", { class: "pawn", transform: `translate(${spot.x} ${spot.y})`,
            "data-seat": p.seat });
          const inner = s("g", { class: turn ? "pawn-turn" : null });
          pawn.append(s("title", { text: turn ? t("{name} ({shape}), playing", { name: p.name, shape: shapeWords(p.seat) })
            : t("{name} ({shape})", { name: p.name, shape: shapeWords(p.seat) }) }), inner);
          if (turn) inner.append(s("circle", { r: 22, class: "turn-ring", stroke: seatColour(p.seat) }));
          inner.append(seatMark(p.seat, 0, 2.5, 15, { class: "pawn-shadow", stroke: "none" }),
            seatMark(p.seat, 0, 0, 14, { stroke: "#111", "stroke-width": 2.5 }));
          return pawn;
        });
      });
    }

    const nodes = [...keyed(this.dynamic, pieces).values()];
    this.pawns = {};
    const first = pieces.length - spots.length; // the pawns are the last pieces
    spots.forEach((spot, i) => { this.pawns[spot.seat] = { node: nodes[first + i], x: spot.x, y: spot.y }; });
    this.drawTargets(moves || [], view, disabled);
  }

  /** A piece's <title>s also as data-tips, as tipMarks() gives a layer's. */
  tipped(node) {
    const wrap = s("g");
    wrap.append(node);
    this.tipMarks(wrap);
    node.remove();
    return node;
  }

  cardName(kind, id) {
    return this.content.catalogue[kind]?.[id]?.name ?? id;
  }

  drawTargets(moves, view, disabled) {
    for (const poly of Object.values(this.polys)) poly.classList.remove("reachable");
    const me = view.seat !== null && view.seat !== undefined ? view.players[view.seat] : null;
    if (!me || !moves.length) {
      keyed(this.targets, []);
      this.targetNodes = [];
      return;
    }
    const seaCost = view.private?.sea_cost ?? this.content.rules.sea_cost;
    const left = view.turn?.move_left ?? 0;
    // One Tab stop for the whole map: the arrow keys go from target to target (a roving
    // tabindex), Enter or Space moves there.
    const roam = (from, step) => {
      const list = this.targetNodes;
      const i = list.indexOf(from);
      const next = step === "first" ? list[0] : step === "last" ? list[list.length - 1]
        : list[(i + step + list.length) % list.length];
      if (!next) return;
      for (const n of list) n.setAttribute("tabindex", n === next ? "0" : "-1");
      next.focus();
    };
    // Each target, its gold and its "+1 action" are keyed pieces: kept while the same.
    const pieces = [];
    const targetKeys = [];
    for (const cmd of moves) {
      const ter = this.territory[cmd.to];
      if (!ter) continue;
      const gold = seaLegs(this.seaSet, me.position, cmd.path) * seaCost;
      // A step of the Move in progress is free; anything further starts a new Move (an action).
      const action = !(left > 0 && (cmd.path || [cmd.to]).length <= left);
      const p = { place: noun(ter.name, ter.article), gold };
      const label = action
        ? (gold ? tn("Move to {place} (+1 action), {gold} gold", "Move to {place} (+1 action), {gold} gold", gold, p)
          : t("Move to {place} (+1 action)", p))
        : (gold ? tn("Move to {place} (free step), {gold} gold", "Move to {place} (free step), {gold} gold", gold, p)
          : t("Move to {place} (free step)", p));
      const key = JSON.stringify(["target", cmd, label, action, left > 0, disabled]);
      targetKeys.push(key);
      pieces.push({ key, node: () => {
        const target = s("polygon", {
          points: ter.shape.map((q) => q.join(",")).join(" "),
          class: `move-target${action && left > 0 ? " costs-action" : ""}`, role: "button",
          tabindex: -1,
          "data-action": action ? "1" : "0",
          "aria-label": label, "aria-disabled": disabled ? "true" : null,
          "data-testid": "legal-action", "data-type": "move", "data-to": cmd.to,
        });
        target.append(s("title", { text: label }));
        const go = () => {
          if (disabled) return;
          // Chosen from the keyboard (or with focus on it): focus goes on to the action bar after.
          this.focusAfterMove = document.activeElement === target;
          this.onMove(cmd);
        };
        target.addEventListener("click", () => { if (!this.dragged) go(); });
        target.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); }
          else if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); roam(target, 1); }
          else if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); roam(target, -1); }
          else if (e.key === "Home") { e.preventDefault(); roam(target, "first"); }
          else if (e.key === "End") { e.preventDefault(); roam(target, "last"); }
        });
        return target;
      } });
      const [x, y] = ter.center;
      if (gold) {
        pieces.push({ key: JSON.stringify(["gold", cmd.to, x, y, gold]), node: () => s("g", { class: "move-cost",
          transform: `translate(${x} ${y - 6})`, "aria-hidden": "true" }, s("circle", { r: 19 }), s("text", { y: 7, text: String(gold) })) });
      }
      if (action && left > 0) {
        pieces.push({ key: JSON.stringify(["action", cmd.to, x, y]), node: () => s("g", { class: "move-action",
          transform: `translate(${x} ${y + 14})`, "aria-hidden": "true" },
        s("rect", { x: -44, y: -14, width: 88, height: 26, rx: 13 }), s("text", { y: 6, text: t("+1 action") })) });
      }
    }
    const nodes = keyed(this.targets, pieces);
    this.targetNodes = targetKeys.map((key) => nodes.get(key)).filter(Boolean);
    // The roving Tab stop starts again on the first target (as a fresh drawing did).
    this.targetNodes.forEach((n, i) => {
      const want = !disabled && i === 0 ? "0" : "-1";
      if (n.getAttribute("tabindex") !== want) n.setAttribute("tabindex", want);
    });
  }

  /** The first move target (the map's one Tab stop), or null. */
  firstTarget() {
    return this.targetNodes?.find((n) => n.getAttribute("tabindex") === "0") || null;
  }

  /** Map labels at least MIN_LABEL_PX high on screen, whatever the map's drawn size. */
  fitLabels() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const scale = Math.min(r.width / this.vb.w, r.height / this.vb.h);
    const grow = Math.max(1, MIN_LABEL_PX / (LABEL * scale));
    this.svg.style.setProperty("--label", `${(LABEL * grow).toFixed(1)}px`);
    this.svg.style.setProperty("--city-label", `${(CITY_LABEL * grow).toFixed(1)}px`);
  }

  // --- moves animated along their path -------------------------------------------------

  /** Pawns that moved in these events glide from where they were along their path. */
  animateMoves(events, before) {
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    for (const e of events) {
      if (e.type !== "move" || !Array.isArray(e.path) || !e.path.length) continue;
      const pawn = this.pawns?.[e.seat];
      const from = before.players?.[e.seat]?.position;
      if (!pawn || !from || !this.territory[from]) continue;
      const pts = [from, ...e.path].map((id) => this.territory[id]?.center).filter(Boolean)
        .map(([x, y]) => [x, y - 2]);
      pts[pts.length - 1] = [pawn.x, pawn.y];
      this.glide(e.seat, pts);
    }
  }

  /** Start a glide for a seat's pawn; it survives redraws (the loop finds the pawn anew). */
  glide(seat, pts) {
    this.glides ||= {};
    this.glides[seat] = { pts, start: performance.now(), total: 420 * (pts.length - 1) };
    if (!this.gliding) {
      this.gliding = true;
      requestAnimationFrame((now) => this.glideFrame(now));
    }
  }

  glideFrame(now) {
    for (const [seat, g] of Object.entries(this.glides)) {
      const pawn = this.pawns?.[seat];
      const k = g.total > 0 ? Math.max(0, Math.min(1, (now - g.start) / g.total)) : 1;
      if (!pawn || k >= 1) {
        delete this.glides[seat];
        if (pawn) {
          pawn.node.setAttribute("transform", `translate(${pawn.x} ${pawn.y})`);
          pawn.node.classList.remove("moving");
          delete pawn.node.dataset.testid;
        }
        continue;
      }
      const pts = g.pts.slice();
      pts[pts.length - 1] = [pawn.x, pawn.y];
      const pos = k * (pts.length - 1);
      const i = Math.min(pts.length - 2, Math.floor(pos));
      const f = pos - i;
      const ease = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
      const x = pts[i][0] + (pts[i + 1][0] - pts[i][0]) * ease;
      const y = pts[i][1] + (pts[i + 1][1] - pts[i][1]) * ease;
      pawn.node.setAttribute("transform", `translate(${x} ${y})`);
      // Marked once (a redraw makes a new node): an attribute written again each frame
      // had the page's styles checked again each frame.
      if (pawn.node.dataset.testid !== "pawn-moving") {
        pawn.node.classList.add("moving");
        pawn.node.dataset.testid = "pawn-moving";
      }
    }
    if (Object.keys(this.glides).length) requestAnimationFrame((n) => this.glideFrame(n));
    else this.gliding = false;
  }

  // --- pan and zoom: the shell's Viewport (kit.js) ----------------------------------

  get vb() { return this.viewport?.vb ?? this.full; }
  get dragged() { return this.viewport.dragged; }
  zoom(factor, px = 0.5, py = 0.5) { this.viewport.zoom(factor, px, py); }
  reset() { this.viewport.reset(); }
}

/** Buttons beside the map. */
export function bindZoomButtons(board) {
  document.getElementById("zoom-in").addEventListener("click", () => board.zoom(1.3));
  document.getElementById("zoom-out").addEventListener("click", () => board.zoom(1 / 1.3));
  document.getElementById("zoom-reset").addEventListener("click", () => board.reset());
}
