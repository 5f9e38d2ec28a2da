// The client kit: the parts every game's page needs around its own drawing, so that no
// game writes them again (docs/client.md, "The kit").
//
// - `Viewport`: pan (drag), zoom (wheel, pinch, buttons) of an SVG by its viewBox; its
//   zoom buttons sit in a bar beside the board, never over it.
// - `tipsFromTitles(root)`: what a mouse reads in a title (an SVG <title>, an HTML title)
//   becomes a data-tip, which the shell's tapTips() shows on a tap, hover or focus.
// - `dockToasts(place)`: the shell's toasts and notices in the game's layout, not over
//   its controls.
// - `CardViewer`: a docked box showing a card's whole text when a `[data-card]` element is
//   hovered, focused or tapped (`cardAttrs()` marks one); a board draws only what fits.
// - `Parts`: render only what changed: a part of the table is drawn again only when the
//   slice of the view (and of the shell: busy, presence...) it reads has changed.
// - `keyed(parent, items)`: a parent's children by key, reusing the nodes whose key is
//   unchanged (a board's pieces: only those that changed are drawn again).
// - `LastMarks`: a board's mark of the last action (an outline) by version, so that a
//   take-back puts back the mark of the version before the command taken back.
// The shell also restores keyboard focus after each render (main.js): games do not.
import { t } from "./i18n.js";
import { h } from "./util.js";

/** Pan and zoom of `svg` (inside `container`) over the drawing's `full` box. */
export class Viewport {
  /**
   * @param {HTMLElement} container the element the pointer acts on
   * @param {SVGSVGElement} svg the drawing (preserveAspectRatio meet)
   * @param {{x:number,y:number,w:number,h:number}} full the whole drawing
   * @param {{maxZoom?: number, onChange?: Function, readable?: {scale: number, x: number, y: number}}} opts
   *   readable: until the player zooms or pans, the view is the whole drawing, zoomed in
   *   around (x, y) to at least `scale` screen pixels a unit where the screen is small
   */
  constructor(container, svg, full, { maxZoom = 5, onChange = null, readable = null } = {}) {
    this.container = container;
    this.svg = svg;
    this.full = full;
    this.maxZoom = maxZoom;
    this.onChange = onChange;
    this.vb = { ...full };
    this.dragged = false; // a click that ends a drag is not a choice
    this.readable = readable;
    this.touched = false; // the player zoomed or panned: the view is theirs
    this.listen();
    if (readable && window.ResizeObserver) {
      this.observer = new ResizeObserver(() => { if (!this.touched) this.fit(); });
      this.observer.observe(container);
    }
  }

  /** The first view: the whole drawing, or as much of it as reads at `readable.scale`. */
  fit() {
    this.set(this.full);
    if (this.readable) this.atLeast(this.readable.scale, this.readable.x, this.readable.y);
  }

  destroy() { this.observer?.disconnect(); }

  /** Show `vb` (kept to the drawing's proportions, within the zoom limits). */
  set(vb) {
    const full = this.full;
    const w = Math.min(full.w * 1.2, Math.max(full.w / this.maxZoom, vb.w));
    const hh = (w * full.h) / full.w;
    const cx = vb.x + vb.w / 2;
    const cy = vb.y + vb.h / 2;
    const x = Math.min(full.x + full.w - w * 0.3, Math.max(full.x - w * 0.7, cx - w / 2));
    const y = Math.min(full.y + full.h - hh * 0.3, Math.max(full.y - hh * 0.7, cy - hh / 2));
    this.vb = { x, y, w, h: hh };
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${hh}`);
    if (this.onChange) this.onChange(this.vb);
  }

  /** Zoom by `f` around the fraction (px, py) of the view. */
  zoom(f, px = 0.5, py = 0.5) {
    const { x, y, w, h: hh } = this.vb;
    this.set({ x: x + (w - w / f) * px, y: y + (hh - hh / f) * py, w: w / f, h: hh / f });
  }

  reset() { this.set(this.full); }

  /** Screen pixels per drawing unit now. */
  scale() {
    const r = this.svg.getBoundingClientRect();
    return Math.min(r.width / this.vb.w, r.height / this.vb.h);
  }

  /** Zoom in (never out) until the drawing is at least `min` screen pixels a unit, around
   *  the drawing's point (cx, cy): a small screen starts where its text can be read. */
  atLeast(min, cx, cy) {
    const scale = this.scale();
    if (!scale || scale >= min) return;
    const f = min / scale;
    const w = this.vb.w / f;
    const hh = this.vb.h / f;
    this.set({ x: cx - w / 2, y: cy - hh / 2, w, h: hh });
  }

  /** The fraction of the view under a client point (letterboxing counted) and the scale. */
  fraction(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const scale = Math.min(r.width / this.vb.w, r.height / this.vb.h);
    const ox = (r.width - this.vb.w * scale) / 2;
    const oy = (r.height - this.vb.h * scale) / 2;
    return [(clientX - r.left - ox) / (this.vb.w * scale), (clientY - r.top - oy) / (this.vb.h * scale), scale];
  }

  /** Zoom in, zoom out, the whole drawing: three buttons for a bar beside the board. */
  buttons(whole = t("Show the whole board")) {
    const b = (label, text, act) => h("button", { type: "button", class: "btn icon", "aria-label": label, "data-tip": label, onclick: act }, text);
    const mine = (act) => () => { this.touched = true; act(); };
    return [b(t("Zoom in"), "+", mine(() => this.zoom(1.3))), b(t("Zoom out"), "−", mine(() => this.zoom(1 / 1.3))), b(whole, "⤢", mine(() => this.reset()))];
  }

  listen() {
    const el = this.container;
    const pointers = new Map();
    let last = null;
    let pinch = null;
    let moved = 0;
    el.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.touched = true;
      const [fx, fy] = this.fraction(e.clientX, e.clientY);
      this.zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, fx, fy);
    }, { passive: false });
    el.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) { last = { x: e.clientX, y: e.clientY }; moved = 0; this.dragged = false; }
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) };
      }
    });
    el.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        const [fx, fy] = this.fraction((a.x + b.x) / 2, (a.y + b.y) / 2);
        if (pinch.d > 0) this.zoom(d / pinch.d, fx, fy);
        pinch.d = d;
        this.dragged = true;
        this.touched = true;
        return;
      }
      if (pointers.size !== 1 || !last) return;
      const dx = e.clientX - last.x;
      const dy = e.clientY - last.y;
      moved += Math.abs(dx) + Math.abs(dy);
      if (moved > 8) {
        this.dragged = true;
        this.touched = true;
        if (!el.hasPointerCapture(e.pointerId)) el.setPointerCapture(e.pointerId);
        const [, , scale] = this.fraction(e.clientX, e.clientY);
        this.set({ ...this.vb, x: this.vb.x - dx / scale, y: this.vb.y - dy / scale });
      }
      last = { x: e.clientX, y: e.clientY };
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) {
        last = null;
        // Let the click that follows a drag see `dragged`, then reset it.
        setTimeout(() => { this.dragged = false; }, 0);
      }
    };
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  }
}

const CONTROL = "button, a[href], input, select, [role=button], [data-command]";

/** Set a data-tip, leaving an element already right untouched (nothing to restyle). */
function tip(el, text) {
  if (el.getAttribute("data-tip") !== text) el.setAttribute("data-tip", text);
}

/** Every title under `root` (an SVG <title>, an HTML title) also as a data-tip, so a
 *  touch screen shows it on a tap. Controls keep theirs to themselves: a tap on them acts. */
export function tipsFromTitles(root) {
  for (const title of root.querySelectorAll("svg title")) {
    const owner = title.parentElement;
    if (owner && owner.tagName.toLowerCase() !== "svg" && !owner.closest(CONTROL) && title.textContent) tip(owner, title.textContent);
  }
  for (const el of root.querySelectorAll("[title]")) {
    if (!el.closest(CONTROL) && el.getAttribute("title")) tip(el, el.getAttribute("title"));
  }
}

/** The shell's toasts and notices in the flow of `place` (the game's layout) instead of
 *  floating over the page: a layout whose screen is full of controls gives them a docked
 *  place. Returns the undo (for the game's destroy()). */
export function dockToasts(place) {
  const moved = ["toasts", "notices"].map((id) => document.getElementById(id)).filter(Boolean)
    .map((node) => ({ node, parent: node.parentElement, next: node.nextSibling }));
  for (const { node } of moved) {
    node.classList.add("docked");
    place.append(node);
  }
  return () => {
    for (const { node, parent, next } of moved) {
      node.classList.remove("docked");
      parent.insertBefore(node, next);
    }
  };
}

/** The attributes that make an element a card for the viewer: its name and whole text. */
export function cardAttrs(name, text) {
  return { "data-card": name, "data-card-text": text || "" };
}

/** A docked box (placed by the game's layout) that shows the card last hovered, focused or
 *  tapped: the board draws a card's name, icons and cost; its whole text is read here. */
export class CardViewer {
  constructor(root, { empty = t("Point at a card, tap it or focus it to read it whole.") } = {}) {
    this.node = h("section", { class: "card kit-card-viewer", "aria-label": t("Card viewer"), "data-testid": "card-viewer", "aria-live": "polite" });
    this.empty = empty;
    this.clear();
    const pick = (e) => {
      const el = e.target instanceof Element ? e.target.closest("[data-card]") : null;
      if (el && root.contains(el)) this.show(el.getAttribute("data-card"), el.getAttribute("data-card-text"));
    };
    root.addEventListener("pointerover", pick);
    root.addEventListener("pointerdown", pick);
    root.addEventListener("focusin", pick);
  }

  show(name, text) {
    this.node.replaceChildren(h("h3", { class: "kit-card-name", text: name }), h("p", { class: "kit-card-text", text: text || "" }));
    this.node.dataset.card = name;
  }

  clear() {
    this.node.replaceChildren(h("p", { class: "muted small", text: this.empty }));
    delete this.node.dataset.card;
  }
}

/** Render only what changed (docs/client.md, "The kit"): `draw(name, slice, fn)` calls fn()
 *  unless the JSON of `slice` (all the part reads) is the one `name` was last drawn from. */
export class Parts {
  constructor() { this.keys = new Map(); }

  draw(name, slice, draw) {
    const key = JSON.stringify(slice) ?? "";
    if (this.keys.get(name) === key) return false;
    this.keys.delete(name);
    draw();
    this.keys.set(name, key);
    return true;
  }

  forget(name) {
    if (name === undefined) this.keys.clear();
    else this.keys.delete(name);
  }
}

const KEYED = new WeakMap();

/** `parent`'s children made the nodes of `items` ([{key, node()}]), in order: a key of the
 *  last call keeps its node, the rest are made or removed. Returns the nodes by key. */
export function keyed(parent, items) {
  const before = KEYED.get(parent) || new Map();
  const now = new Map();
  for (const item of items) {
    let key = String(item.key);
    while (now.has(key)) key += "'";
    now.set(key, before.get(key) || item.node());
  }
  for (const [key, node] of before) if (now.get(key) !== node) node.remove();
  let at = parent.firstChild;
  for (const node of now.values()) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
  KEYED.set(parent, now);
  return now;
}

/** A game's mark of the last action (an outline on its board), kept by version (the last
 *  64): after a take-back (its event `{type: "take_back", version: U}`) the mark is the one
 *  of version U - 1 (none when this page did not see it), not the command taken back's. */
export class LastMarks {
  constructor() {
    this.byVersion = new Map();
  }

  /** The mark at `view.version`: after a take-back the one it returns to, else `next()`
   *  (the game's reading of `events`, which may keep the mark it had). */
  after(view, events, next) {
    const back = events?.find((e) => e.type === "take_back");
    const mark = back ? this.byVersion.get(back.version - 1) ?? null : next();
    if (view.version !== undefined && view.version !== null) {
      this.byVersion.set(view.version, mark);
      if (this.byVersion.size > 64) this.byVersion.delete(this.byVersion.keys().next().value);
    }
    return mark;
  }
}
