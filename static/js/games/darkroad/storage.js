// The storage grid: the wagon's areas drawn as cells, goods as their shapes. Select a
// good (the new one, or a stored one to rearrange) by click/tap or drag; place it by
// clicking a cell; rotate with the button or R; arrows move it, Enter places, Escape
// lets go. Only the engine's own commands are sent: a new good goes where a listed
// `place_good` puts it; a stored good moves by a `rearrange` layout the server checks.
import { t } from "../../i18n.js";
import { clear, h, s, toast, touchFirst } from "../../util.js";
import { actionButton } from "../../legal.js";
import { cellsOf, goodShape } from "./draw.js";
import { listOf } from "./words.js";

const CELL = 46;
const GAP = 22;

export class Storage {
  constructor(words, content, { send }) {
    this.words = words;
    this.content = content;
    this.send = send;
    this.sel = null; // {kind: "incoming"} | {kind: "piece", id}
    this.o = 0;
    this.cursor = null; // {area, x, y}
    this.root = h("div", { class: "dr-storage" });
    this.svg = s("svg", { class: "dr-grid", tabindex: "0", role: "application",
      "aria-label": t("Storage grid. Select a good, then use the arrow keys to move it, R to rotate, Enter to place, Escape to let go.") });
    this.controls = h("div", { class: "dr-storage-controls" });
    this.tools = h("div", { class: "row dr-tools" });
    this.status = h("p", { class: "dr-storage-status", "aria-live": "polite" });
    this.root.append(this.controls, this.svg, this.tools, this.status);
    this.svg.addEventListener("keydown", (e) => this.onKey(e));
    this.svg.addEventListener("pointermove", (e) => this.onPointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.onPointerUp(e));
    this.svg.addEventListener("pointerleave", () => { if (!this.dragging) this.drawGhost(); });
    this.keyHandler = (e) => {
      if (!this.sel || e.defaultPrevented) return;
      const tag = e.target?.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.target === this.svg) return;
      if ((e.key === "r" || e.key === "R") && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); this.rotate(); }
    };
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() { document.removeEventListener("keydown", this.keyHandler); }

  // --- what the view allows ---------------------------------------------------------------

  get me() { return this.view?.players?.[this.view.seat]; }
  /** A good of this seat waits to be stored, and it is this seat's turn to store it. */
  get storing() {
    return this.waitingGood && (this.view.legal_actions || []).some((a) => a.type === "place_good" || a.type === "discard_good");
  }
  /** A good of this seat waits (it may be another seat's turn to store first). */
  get waitingGood() { return this.view?.private?.pending?.kind === "store" && (this.me?.incoming || []).length > 0; }
  get losing() { return this.view?.private?.pending?.kind === "lose_good"; }
  get canRearrange() {
    const v = this.view;
    if (!v || v.status !== "playing" || v.seat === null) return false;
    if (this.storing) return true;
    return v.turn?.phase === "play" && v.turn?.seat === v.seat && !v.turn?.pending;
  }
  place(area, x, y, o) {
    return (this.view.legal_actions || []).find((a) => a.type === "place_good" && a.area === area && a.x === x && a.y === y && a.o === o);
  }
  selectedGood() {
    if (!this.sel) return null;
    if (this.sel.kind === "incoming") return this.me.incoming[0] ? { good: this.me.incoming[0].good, up: this.me.incoming[0].up } : null;
    const q = this.me.pieces.find((p) => p.id === this.sel.id);
    return q ? { good: q.good, up: q.up } : null;
  }
  orientations(good) { return (this.content.shapes[good] || [[]]).length; }

  // --- layout of the areas in the SVG ---------------------------------------------------------

  layoutAreas() {
    const out = [];
    const areas = this.me.areas || [];
    const main = areas.find((a) => a.name === "main");
    const right = main ? main.width * CELL + GAP : 0;
    let y = 24;
    for (const [i, a] of areas.entries()) {
      if (a.name === "main") out.push({ ...a, index: i, ox: 0, oy: 24 });
      else if (a.name === "saddle") { out.push({ ...a, index: i, ox: right, oy: y }); y += a.height * CELL + 28; }
      else { out.push({ ...a, index: i, ox: right, oy: y, hero: a.name.slice(5) }); y += CELL + 28; }
    }
    return out;
  }

  cellAt(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    for (const a of this.areas) {
      const cx = Math.floor((p.x - a.ox) / CELL);
      const cy = Math.floor((p.y - a.oy) / CELL);
      if (cx >= 0 && cy >= 0 && cx < a.width && cy < a.height) return { area: a.name, x: cx, y: cy };
    }
    return null;
  }

  // --- drawing -----------------------------------------------------------------------------

  render(view, { busy }) {
    this.view = view;
    this.busy = busy;
    const me = this.me;
    if (!me) return;
    // Keep the selection only while it still makes sense.
    if (this.storing && (!this.sel || this.sel.kind === "incoming")) {
      if (!this.sel) { this.sel = { kind: "incoming" }; this.o = 0; }
    } else if (this.sel?.kind === "incoming") { this.sel = null; }
    if (this.sel?.kind === "piece" && (!this.canRearrange || !me.pieces.some((p) => p.id === this.sel.id))) this.sel = null;
    this.areas = this.layoutAreas();
    const width = Math.max(...this.areas.map((a) => a.ox + Math.max(a.width * CELL, a.name.startsWith("hero:") ? 96 : 0))) + 4;
    const height = Math.max(...this.areas.map((a) => a.oy + a.height * CELL)) + 4;
    this.svg.setAttribute("viewBox", `-2 0 ${width} ${height}`);
    this.svg.setAttribute("width", String(width));
    const g = clear(this.svg);
    for (const a of this.areas) {
      const label = a.name === "main" ? t("Wagon storage") : a.name === "saddle" ? t("Saddle bag") : this.words.hero(a.hero).split(" ")[0].slice(0, 12);
      g.append(s("text", { x: a.ox, y: a.oy - 7, class: "dr-grid-label", text: label }, s("title", { text: a.name.startsWith("hero:") ? t("{hero} stores any one good", { hero: this.words.hero(a.hero) }) : label })));
      for (let y = 0; y < a.height; y += 1) {
        for (let x = 0; x < a.width; x += 1) {
          const cell = s("rect", { x: a.ox + x * CELL, y: a.oy + y * CELL, width: CELL, height: CELL, class: `dr-cell${a.name.startsWith("hero:") ? " hero" : ""}`,
            "data-area": a.name, "data-x": x, "data-y": y, "data-testid": "storage-cell" });
          cell.addEventListener("click", () => this.commit({ area: a.name, x, y }));
          g.append(cell);
        }
      }
    }
    this.pieceNodes = s("g");
    for (const q of me.pieces) {
      const a = this.areas.find((ar) => ar.name === q.area);
      if (!a) continue;
      const isHero = q.area.startsWith("hero:");
      const selected = this.sel?.kind === "piece" && this.sel.id === q.id;
      const title = q.good === "upgrade" ? t("{good} (wagon upgrade)", { good: this.words.goodTitle(q.good, q.up) }) : this.words.goodTitle(q.good, q.up);
      let node;
      if (isHero) {
        const cells = cellsOf(this.content, q.good, 0);
        const span = Math.max(...cells.map(([x, y]) => Math.max(x, y))) + 1;
        node = s("g", { class: `good-shape good-${q.good}${q.up ? " up" : ""}`, transform: `translate(${a.ox} ${a.oy})` });
        node.append(goodShape(this.content, q.good, { up: q.up, o: 0, cell: CELL / span, title }));
      } else {
        node = goodShape(this.content, q.good, { up: q.up, o: q.o, cell: CELL, x: a.ox + q.x * CELL, y: a.oy + q.y * CELL, title });
      }
      node.setAttribute("class", `${node.getAttribute("class")} dr-piece${selected ? " selected" : ""}${this.canRearrange || this.losing ? " movable" : ""}`);
      node.setAttribute("data-testid", "stored-good");
      node.setAttribute("data-piece", String(q.id));
      node.setAttribute("data-good", q.good);
      node.addEventListener("pointerdown", (e) => this.onPieceDown(e, q));
      node.addEventListener("click", (e) => { e.stopPropagation(); this.onPieceClick(q); });
      this.pieceNodes.append(node);
    }
    g.append(this.pieceNodes);
    this.ghost = s("g", { class: "dr-ghost-layer", "pointer-events": "none" });
    g.append(this.ghost);
    this.renderControls();
    this.drawGhost();
  }

  renderControls() {
    const me = this.me;
    const ctx = { busy: this.busy, send: this.send };
    const c = clear(this.controls);
    const legal = this.view.legal_actions || [];
    if (this.storing) {
      const inc = me.incoming[0];
      const auto = legal.find((a) => a.type === "place_good" && a.area == null);
      const fits = legal.some((a) => a.type === "place_good");
      c.append(h("div", { class: "dr-incoming", "data-testid": "incoming-good" },
        h("span", { class: "dr-incoming-label", text: fits ? t("To store: {good}", { good: this.words.good(inc.good, inc.up) }) : t("Doesn't fit: {good}.", { good: this.words.good(inc.good, inc.up) }) }),
        // A good that fits nowhere is not offered for placing.
        fits ? h("button", { type: "button", class: `btn small dr-select${this.sel?.kind === "incoming" ? " on" : ""}`, "data-testid": "select-incoming",
          onclick: () => { this.sel = { kind: "incoming" }; this.o = 0; this.render(this.view, { busy: this.busy }); } }, this.sel?.kind === "incoming" ? t("Selected") : t("Select")) : null,
        me.incoming.length > 1 ? h("span", { class: "muted small", text: t("then {goods}", { goods: me.incoming.slice(1).map((x) => this.words.good(x.good, x.up)).join(", ") }) }) : null));
      const row = h("div", { class: "row" });
      if (auto) row.append(actionButton(ctx, auto, t("Store it where it fits"), { cls: "btn primary" }));
      c.append(row);
      const discards = legal.filter((a) => a.type === "discard_good");
      if (!fits) {
        c.append(h("div", { class: "dr-nofit", role: "group", "aria-label": t("Doesn't fit: discard what?") },
          h("p", { class: "dr-nofit-title", text: t("Doesn't fit: discard what?") }),
          h("div", { class: "row" }, ...discards.map((a) => actionButton(ctx, a, this.words.command(a), { cls: a.piece == null ? "btn" : "btn small" })))));
      } else if (discards.length) {
        c.append(h("details", { class: "dr-discard-more" }, h("summary", { text: t("or discard something") }),
          h("div", { class: "row" }, ...discards.map((a) => actionButton(ctx, a, this.words.command(a), { cls: "btn small" })))));
      }
    }
    if (this.waitingGood && !this.storing) {
      // Another merchant stores first: say whose turn it is, nothing to choose yet.
      const inc = me.incoming[0];
      const who = listOf((this.view.turn?.waiting_for || []).map((x) => this.words.name(x)));
      c.append(h("p", { class: "dr-incoming", "data-testid": "incoming-good" },
        who ? t("Your {good} waits: {who} stores first.", { good: this.words.good(inc.good, inc.up), who })
          : t("Your {good} waits to be stored.", { good: this.words.good(inc.good, inc.up) })));
    }
    if (this.losing) {
      const loses = legal.filter((a) => a.type === "lose_good");
      c.append(h("div", { class: "dr-nofit" }, h("p", { class: "dr-nofit-title", text: t("The road takes a good: which one?") }),
        h("div", { class: "row" }, ...loses.map((a) => actionButton(ctx, a, this.words.command(a), { cls: "btn small" })))));
    }
    // The tools sit under the grid and keep their place: the grid never moves under the pointer.
    const good = this.selectedGood();
    const active = good && (this.storing || this.canRearrange);
    // A touch screen has no keyboard: its player reads taps, not keys.
    const touch = touchFirst();
    clear(this.tools).append(
      h("button", { type: "button", class: "btn small", "data-testid": "rotate-good", title: touch ? null : t("Rotate (R)"),
        disabled: !active || this.orientations(good.good) < 2 ? true : null, onclick: () => this.rotate() }, touch ? t("⟳ Rotate") : t("⟳ Rotate (R)")),
      h("button", { type: "button", class: "btn small", disabled: this.sel?.kind === "piece" ? null : true, onclick: () => this.deselect() }, touch ? t("Let go") : t("Let go (Esc)")),
      h("span", { class: "muted small", "data-testid": "storage-hint", text: active ? (touch ? t("Tap a cell to place it.") : t("Click a cell to place it, or focus the grid: arrows move it, Enter places."))
        : this.canRearrange && me.pieces.length ? (touch ? t("To rearrange, tap a good, then a cell.") : t("To rearrange, click (or drag) a good, or focus the grid and press Enter.")) : "" }));
  }

  anchor(good, cur) {
    if (cur.area.startsWith("hero:")) return { x: 0, y: 0, o: 0 };
    const [a0, b0] = cellsOf(this.content, good, this.o)[0];
    return { x: cur.x - a0, y: cur.y - b0, o: this.o };
  }

  /** Whether the selected stored piece fits at `at` (checked here; the server checks again). */
  fitsLocally(id, good, at) {
    const a = this.areas.find((ar) => ar.name === at.area);
    if (!a) return false;
    if (at.area.startsWith("hero:")) return good !== "upgrade" && !this.me.pieces.some((q) => q.id !== id && q.area === at.area);
    const occ = new Set();
    for (const q of this.me.pieces) {
      if (q.id === id || q.area !== at.area) continue;
      for (const [dx, dy] of cellsOf(this.content, q.good, q.o)) occ.add(`${q.x + dx},${q.y + dy}`);
    }
    return cellsOf(this.content, good, at.o).every(([dx, dy]) => {
      const x = at.x + dx;
      const y = at.y + dy;
      return x >= 0 && y >= 0 && x < a.width && y < a.height && !occ.has(`${x},${y}`);
    });
  }

  validAt(cur) {
    const good = this.selectedGood();
    if (!good || !cur) return false;
    const at = { area: cur.area, ...this.anchor(good.good, cur) };
    if (this.sel.kind === "incoming") return Boolean(this.place(at.area, at.x, at.y, at.o));
    return this.fitsLocally(this.sel.id, good.good, at);
  }

  drawGhost() {
    if (!this.ghost) return;
    clear(this.ghost);
    const good = this.selectedGood();
    const cur = this.cursor;
    if (!good || !cur) {
      this.status.textContent = good ? t("{good} selected.", { good: this.words.goodTitle(good.good, good.up) }) : "";
      return;
    }
    const a = this.areas.find((ar) => ar.name === cur.area);
    if (!a) return;
    const at = this.anchor(good.good, cur);
    const ok = this.validAt(cur);
    const node = cur.area.startsWith("hero:")
      ? s("rect", { x: a.ox + 3, y: a.oy + 3, width: CELL - 6, height: CELL - 6, rx: 8 })
      : goodShape(this.content, good.good, { up: good.up, o: at.o, cell: CELL, x: a.ox + at.x * CELL, y: a.oy + at.y * CELL });
    node.setAttribute("class", `${node.getAttribute("class") || ""} dr-ghost ${ok ? "ok" : "bad"}`);
    this.ghost.append(node);
    const p = { good: this.words.goodTitle(good.good, good.up), area: this.words.area(cur.area), x: cur.x + 1, y: cur.y + 1 };
    this.status.textContent = cur.area === "main"
      ? (ok ? t("{good} at column {x}, row {y}: fits.", p) : t("{good} at column {x}, row {y}: doesn't fit.", p))
      : (ok ? t("{good} in {area}, column {x}, row {y}: fits.", p) : t("{good} in {area}, column {x}, row {y}: doesn't fit.", p));
  }

  // --- interaction ---------------------------------------------------------------------------

  onPieceClick(q) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    if (this.losing) {
      const cmd = (this.view.legal_actions || []).find((a) => a.type === "lose_good" && a.piece === q.id);
      if (cmd) this.send(cmd);
      return;
    }
    if (!this.canRearrange) return;
    if (this.sel?.kind === "piece" && this.sel.id === q.id) { this.deselect(); return; }
    this.sel = { kind: "piece", id: q.id };
    this.o = q.o;
    const [a0, b0] = cellsOf(this.content, q.good, q.o)[0];
    this.cursor = { area: q.area, x: q.x + a0, y: q.y + b0 };
    this.render(this.view, { busy: this.busy });
  }

  onPieceDown(e, q) {
    if (!this.canRearrange || e.button > 0) return;
    this.dragging = { id: q.id, start: this.cellAt(e.clientX, e.clientY), moved: false };
  }

  onPointerMove(e) {
    const cur = this.cellAt(e.clientX, e.clientY);
    if (this.dragging) {
      if (!this.dragging.moved && cur && this.dragging.start && (cur.x !== this.dragging.start.x || cur.y !== this.dragging.start.y || cur.area !== this.dragging.start.area)) {
        const q = this.me.pieces.find((p) => p.id === this.dragging.id);
        this.dragging.moved = true;
        if (q && !(this.sel?.kind === "piece" && this.sel.id === q.id)) {
          this.sel = { kind: "piece", id: q.id };
          this.o = q.o;
          this.renderControls();
        }
      }
    }
    if (!this.selectedGood() || !cur) return;
    if (this.cursor && cur.area === this.cursor.area && cur.x === this.cursor.x && cur.y === this.cursor.y) return;
    this.cursor = cur;
    this.drawGhost();
  }

  onPointerUp(e) {
    const d = this.dragging;
    this.dragging = null;
    if (d?.moved) {
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
      const cur = this.cellAt(e.clientX, e.clientY);
      if (cur) this.commit(cur);
    }
  }

  rotate() {
    const good = this.selectedGood();
    if (!good) return;
    this.o = (this.o + 1) % this.orientations(good.good);
    // A touch screen has no pointer over the grid: the turned good is shown where it
    // first fits (a tap on "Rotate" showed nothing until the good had landed).
    if (!this.cursor) this.cursor = this.firstFit() ?? null;
    this.renderControls();
    this.drawGhost();
  }

  /** The first cell of the wagon's storage where the selected good fits as turned now. */
  firstFit() {
    const main = this.areas?.find((a) => a.name === "main");
    if (!main) return null;
    for (let y = 0; y < main.height; y += 1) {
      for (let x = 0; x < main.width; x += 1) {
        const cur = { area: "main", x, y };
        if (this.validAt(cur)) return cur;
      }
    }
    return { area: "main", x: 0, y: 0 };
  }

  deselect() {
    this.sel = this.storing ? { kind: "incoming" } : null;
    this.o = 0;
    this.render(this.view, { busy: this.busy });
  }

  onKey(e) {
    const good = this.selectedGood();
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key === "r" || e.key === "R") { e.preventDefault(); this.rotate(); return; }
    if (e.key === "Escape") { e.preventDefault(); this.deselect(); return; }
    if (!good) {
      // No selection: Enter picks up the first stored good.
      if ((e.key === "Enter" || e.key === " ") && this.canRearrange && this.me.pieces.length) {
        e.preventDefault();
        this.onPieceClick(this.me.pieces[0]);
      }
      return;
    }
    if (moves[e.key]) {
      e.preventDefault();
      const [dx, dy] = moves[e.key];
      const cur = this.cursor || { area: "main", x: 0, y: 0 };
      const a = this.areas.find((ar) => ar.name === cur.area);
      let x = cur.x + dx;
      let y = cur.y + dy;
      let area = cur.area;
      if (x < 0 || y < 0 || x >= a.width || y >= a.height) {
        // Leaving an area steps into the next one (main → saddle → heroes), or stays.
        const i = this.areas.indexOf(a);
        const next = this.areas[(i + (dx + dy > 0 ? 1 : this.areas.length - 1)) % this.areas.length];
        if (next && next !== a && (dx !== 0)) { area = next.name; x = dx > 0 ? 0 : next.width - 1; y = Math.min(Math.max(0, y), next.height - 1); }
        else { x = Math.min(Math.max(0, x), a.width - 1); y = Math.min(Math.max(0, y), a.height - 1); }
      }
      this.cursor = { area, x, y };
      this.drawGhost();
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (this.cursor) this.commit(this.cursor);
    }
  }

  async commit(cur) {
    const good = this.selectedGood();
    if (!good || this.busy) return;
    this.cursor = cur;
    const at = { area: cur.area, ...this.anchor(good.good, cur) };
    if (this.sel.kind === "incoming") {
      const cmd = this.place(at.area, at.x, at.y, at.o);
      if (!cmd) {
        toast(t("It doesn't fit there ({good}). Rotate it (R) or try another cell.", { good: this.words.good(good.good) }), "error", 3000);
        this.drawGhost();
        return;
      }
      this.focusAfter = true;
      await this.send(cmd);
      this.o = 0;
      // Placed: no ghost left where it went (a red "doesn't fit" stayed there on a phone,
      // for the next good); a mouse draws the next one as it moves.
      this.cursor = null;
      this.drawGhost();
      return;
    }
    if (!this.fitsLocally(this.sel.id, good.good, at)) {
      toast(t("It doesn't fit there ({good}).", { good: this.words.good(good.good) }), "error", 3000);
      this.drawGhost();
      return;
    }
    const names = (this.me.areas || []).map((a) => a.name);
    const layout = [];
    for (const q of this.me.pieces) {
      if (q.id === this.sel.id) layout.push(q.id, names.indexOf(at.area), at.x, at.y, at.o);
      else layout.push(q.id, names.indexOf(q.area), q.x, q.y, q.o);
    }
    const id = this.sel.id;
    const ok = await this.send({ type: "rearrange", layout });
    if (ok && this.sel?.kind === "piece" && this.sel.id === id) {
      this.sel = this.storing ? { kind: "incoming" } : null;
      this.render(this.view, { busy: this.busy });
    }
  }
}
