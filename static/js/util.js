// Small DOM helpers shared by every module. Text is always set with textContent:
// nothing a player typed ever becomes HTML.
import { t, tn } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

let assetMap = null;
/** The hashed name (cached a year) of a static file a script loads by a computed path:
 *  the page's `data-assets` map (app/web/assets.py); the plain path if it has none. */
export function assetUrl(path) {
  if (assetMap === null) {
    try { assetMap = JSON.parse(document.body?.dataset.assets || "{}"); } catch { assetMap = {}; }
  }
  return assetMap[path] || path;
}

/** The module at site path `path`, under its hashed name (the page's map): a module loaded
 *  at its first use, not with the page (issue 31). Written with a computed path, it is not
 *  among the modules the page preloads (app/web/assets.py). */
export function importAsset(path) {
  return import(new URL(assetUrl(path), location.href).href);
}

/** Whether the page's map names `path` (a file the server has, under a hashed name). */
export function hasAsset(path) {
  return assetUrl(path) !== path;
}

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "btn", onclick: fn}, "Label"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** Run `fn` once the next frame is painted: a read of the layout there (a list's
 *  `scrollHeight`) finds it clean, where inside a view's task or a frame's callbacks it
 *  would lay the page out once more before the frame (issue 31). */
export function afterPaint(fn) {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

// --- seats: told apart by colour AND shape ------------------------------------------

export const SEAT_COLOURS = ["#c0392b", "#1f5fbf", "#1e8449", "#b9770e", "#7d3c98", "#138d90"];
export const SEAT_SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "star"];
export const seatColour = (i) => SEAT_COLOURS[i % SEAT_COLOURS.length];
export const seatShape = (i) => SEAT_SHAPES[i % SEAT_SHAPES.length];

/** The points of a seat's shape centred on 0,0 with radius r (null for a circle). */
export function shapePoints(shape, r) {
  const poly = (n, rot, radii) =>
    Array.from({ length: n }, (_, k) => {
      const a = rot + (k * 2 * Math.PI) / n;
      const rr = radii ? radii[k % radii.length] : r;
      return `${(rr * Math.cos(a)).toFixed(2)},${(rr * Math.sin(a)).toFixed(2)}`;
    }).join(" ");
  switch (shape) {
    case "square": return poly(4, Math.PI / 4, [r * 1.05]);
    case "triangle": return poly(3, -Math.PI / 2, [r * 1.25]);
    case "diamond": return poly(4, 0, [r * 1.2]);
    case "hexagon": return poly(6, 0, [r * 1.05]);
    case "star": return poly(10, -Math.PI / 2, [r * 1.3, r * 0.6]);
    default: return null;
  }
}

/** An SVG shape node for a seat (circle or polygon) at x,y. */
export function seatMark(seat, x, y, r, extra = {}) {
  const pts = shapePoints(seatShape(seat), r);
  const attrs = { fill: seatColour(seat), stroke: "#fff", "stroke-width": Math.max(1, r / 5), ...extra };
  if (!pts) return s("circle", { cx: x, cy: y, r, ...attrs });
  return s("polygon", { points: pts, transform: `translate(${x} ${y})`, ...attrs });
}

/** A small inline SVG of a seat's mark, for panels and lists. */
export function seatBadge(seat, size = 18, label) {
  const svg = s("svg", { viewBox: "-12 -12 24 24", width: size, height: size, class: "seat-badge",
    role: label ? "img" : null, "aria-label": label || null, "data-tip": label || null,
    "aria-hidden": label ? null : "true" });
  svg.append(seatMark(seat, 0, 0, 8, { stroke: "#222", "stroke-width": 1.5 }));
  return svg;
}

/** An icon from the sprite, with an accessible name when it carries meaning (and that
 *  name shown on a tap or a hover: data-tip, see tapTips()). */
export function icon(name, label, cls = "icon") {
  const svg = s("svg", { class: cls, viewBox: "0 0 24 24", role: label ? "img" : null,
    "aria-label": label || null, "data-tip": label || null,
    "aria-hidden": label ? null : "true", focusable: "false" });
  svg.append(s("use", { href: `/static/icons.svg#${name}` }));
  return svg;
}

/** "3 [gold icon]": a number and an icon, read aloud as "3 gold". */
export function amount(n, name, label = name) {
  return h("span", { class: `amount amount-${name}` }, icon(name, `${label}`), h("span", { text: n }));
}

/** "2–6 players", "1–4 players", "2 players". */
export function playerRange(game) {
  const { min_players: lo, max_players: hi } = game;
  if (!lo && !hi) return "";
  return lo === hi || !hi ? tn("{n} player", "{n} players", lo)
    : t("{lo}–{hi} players", { lo, hi });
}

/** A seat's presence: a dot (filled: connected; a hollow ring: away) with its state in
 *  words for screen readers and on a tap or hover: never told by colour alone. */
export function presenceDot(on, { away } = {}) {
  const label = on ? t("connected") : away || t("not connected");
  return h("span", { class: `presence ${on ? "on" : "off"}`, "data-tip": label, "data-testid": "presence",
    "data-state": on ? "on" : "off" }, h("span", { class: "sr-only", text: label }));
}

/** The rules page of a game, knowing where to come back to (this page). */
export function rulesHref(game) {
  return `/rules/${encodeURIComponent(game)}?from=${encodeURIComponent(location.pathname)}`;
}

// --- toasts -------------------------------------------------------------------------

export function toast(message, kind = "info", ms = 5000) {
  let box = document.getElementById("toasts");
  if (!box) return;
  const node = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : null },
    h("span", { text: message }),
    h("button", { type: "button", class: "toast-close", "aria-label": t("Dismiss"), "data-tip": t("Dismiss"),
      onclick: () => node.remove() }, "×"));
  // A modal dialog (the game menu) lies over everything else: said from inside it, a
  // toast goes in a box of the dialog's own, or it would show under it.
  const modal = [...document.querySelectorAll("dialog[open]")].find((d) => d.matches(":modal"));
  if (modal) {
    box = modal.querySelector(":scope > .toasts") ?? modal.appendChild(h("div", { class: "toasts", "data-testid": "dialog-toasts" }));
  }
  box.append(node);
  // Docked in a game's layout (kit.js dockToasts), the toasts sit in a box that scrolls
  // when they pile up: the newest, at its end, is the one to read (scrolled to before the
  // next frame, not here: a toast said while the page renders would force a layout).
  if (box.classList.contains("docked")) {
    requestAnimationFrame(() => { if (node.isConnected) node.scrollIntoView({ block: "nearest", inline: "nearest" }); });
  }
  setTimeout(() => node.remove(), ms);
  return node;
}

/** Copy a text; `copied` and `byHand` are what the toast says (already translated). */
export async function copyText(text, copied = t("Link copied"), byHand = t("Select and copy the link by hand")) {
  try {
    await navigator.clipboard.writeText(text);
    toast(copied, "ok", 2500);
  } catch {
    toast(byHand, "info", 4000);
  }
}

// --- names on touch -------------------------------------------------------------------

/**
 * Any element with `data-tip="name"` (icons from icon(), presence dots, the version...)
 * shows its name in a small bubble when tapped, hovered or focused: a name a touch screen
 * can read, where a `title` shows on a mouse hover only. Call once per page.
 */
export function tapTips() {
  if (document.body.dataset.tips) return;
  document.body.dataset.tips = "1";
  const bubble = h("div", { class: "tip-bubble", role: "tooltip", id: "tip-bubble", hidden: true });
  document.body.append(bubble);
  let owner = null;
  let timer = null;
  const hide = () => {
    bubble.hidden = true;
    owner = null;
    clearTimeout(timer);
  };
  const show = (el, ms) => {
    const text = el.getAttribute("data-tip");
    if (!text) return;
    owner = el;
    bubble.textContent = text;
    bubble.hidden = false;
    const r = el.getBoundingClientRect();
    const w = bubble.offsetWidth;
    const left = Math.max(4, Math.min(window.innerWidth - w - 4, r.left + r.width / 2 - w / 2));
    const below = r.bottom + 6 + bubble.offsetHeight < window.innerHeight;
    bubble.style.left = `${left}px`;
    bubble.style.top = `${below ? r.bottom + 6 : Math.max(4, r.top - bubble.offsetHeight - 6)}px`;
    clearTimeout(timer);
    if (ms) timer = setTimeout(hide, ms);
  };
  const tipOf = (target) => (target instanceof Element ? target.closest("[data-tip]") : null);
  document.addEventListener("pointerdown", (e) => {
    const el = tipOf(e.target);
    // A tap on a control acts (its words are on it); a tap on anything else names it.
    const acts = el?.closest("button, a[href], input, select, [role=button], [data-command]");
    if (el && !acts && e.pointerType !== "mouse") show(el, 2500);
    else hide();
  }, { passive: true });
  // A tip follows a pointer that moves: when the page changes under a still pointer (a
  // panel grows), the browser sends a pointerover from where the pointer already was, and
  // no tip pops up for that (it only hides a tip whose owner is no longer under it).
  document.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse") return;
    const el = tipOf(e.target);
    if (el && el !== owner) show(el, 0);
    else if (!el && owner) hide();
  }, { passive: true });
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "mouse" && owner && !owner.contains(e.target)) hide();
  }, { passive: true });
  document.addEventListener("focusin", (e) => {
    const el = tipOf(e.target);
    // The keyboard's focus names what it reaches; a tap's or a click's does not (a tip
    // left by a tap stayed over the answer the tap brought: the coach's).
    if (el === e.target && el.matches(":focus-visible")) show(el, 0);
    else if (owner) hide();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && owner) hide(); });
  window.addEventListener("scroll", () => { if (owner) hide(); }, { passive: true });
}

/** Whether the main pointer is a finger (a phone, a tablet): say "tap", not "click",
 *  and no keyboard keys. */
export function touchFirst() {
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}

/** A UUID v4; crypto.randomUUID exists only on secure origins (not on http://192.168...). */
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** A bot's levels, weakest first; `normal` is the level of a seat stored without one. */
export const BOT_LEVELS = ["easy", "normal", "hard"];

/** A bot level's name for people. */
export function levelName(level) {
  if (level === "easy") return t("easy");
  if (level === "hard") return t("hard");
  return t("normal");
}
