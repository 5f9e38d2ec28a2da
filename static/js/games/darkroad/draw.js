// Small SVG pieces shared by the board, the wagon and the panels: goods as their
// polyomino shapes, dice, wrapped text, and an inline icon for HTML.
import { t } from "../../i18n.js";
import { h, s } from "../../util.js";
import { GOOD_COLOURS, goodLetter } from "./words.js";

/** The cells of `good` in orientation `o` (content.shapes). */
export function cellsOf(content, good, o = 0) {
  const list = content.shapes[good] || [[[0, 0]]];
  return list[((o % list.length) + list.length) % list.length];
}

/** A good drawn as its shape, `cell` px a cell, top-left at x,y. */
export function goodShape(content, good, { up = false, o = 0, cell = 20, x = 0, y = 0, cls = "", title } = {}) {
  const cells = cellsOf(content, good, o);
  const set = new Set(cells.map(([a, b]) => `${a},${b}`));
  const g = s("g", { class: `good-shape good-${good}${up ? " up" : ""} ${cls}`, transform: `translate(${x} ${y})` });
  if (title) g.append(s("title", { text: title }));
  const fill = GOOD_COLOURS[good] || "#777";
  for (const [a, b] of cells) {
    g.append(s("rect", { x: a * cell + 1, y: b * cell + 1, width: cell - 2, height: cell - 2, rx: cell / 6, fill, class: "good-cell" }));
    // Joints between neighbouring cells, so the piece reads as one tile.
    if (set.has(`${a + 1},${b}`)) g.append(s("rect", { x: a * cell + cell - 3, y: b * cell + cell * 0.2, width: 6, height: cell * 0.6, fill }));
    if (set.has(`${a},${b + 1}`)) g.append(s("rect", { x: a * cell + cell * 0.2, y: b * cell + cell - 3, width: cell * 0.6, height: 6, fill }));
  }
  const [a0, b0] = cells[0];
  g.append(s("text", { x: a0 * cell + cell / 2, y: b0 * cell + cell / 2 + cell * 0.17, class: "good-letter",
    "font-size": cell * 0.5, text: up ? `${goodLetter(good)}★` : goodLetter(good) }));
  return g;
}

/** A small good token (one cell, its letter), for lists: markets, requests. */
export function goodToken(good, { x = 0, y = 0, r = 11, up = false, title } = {}) {
  const g = s("g", { class: `good-token${up ? " up" : ""}`, transform: `translate(${x} ${y})` });
  if (title) g.append(s("title", { text: title }));
  g.append(s("rect", { x: -r, y: -r, width: 2 * r, height: 2 * r, rx: r / 3, fill: GOOD_COLOURS[good] || "#777" }));
  g.append(s("text", { y: r * 0.38, class: "good-letter", "font-size": r * 1.05, text: goodLetter(good) }));
  return g;
}

/** A die face (pips for 1-6, a "0" face for zero), centred at x,y. */
export function die(value, { x = 0, y = 0, size = 26, cls = "night", title } = {}) {
  const g = s("g", { class: `die die-${cls}`, transform: `translate(${x} ${y})` });
  if (title) g.append(s("title", { text: title }));
  const hs = size / 2;
  g.append(s("rect", { x: -hs, y: -hs, width: size, height: size, rx: size / 5, class: "die-body" }));
  const p = size * 0.26;
  const spots = {
    0: [], 1: [[0, 0]], 2: [[-p, -p], [p, p]], 3: [[-p, -p], [0, 0], [p, p]],
    4: [[-p, -p], [p, -p], [-p, p], [p, p]], 5: [[-p, -p], [p, -p], [0, 0], [-p, p], [p, p]],
    6: [[-p, -p], [p, -p], [-p, 0], [p, 0], [-p, p], [p, p]],
  }[value];
  if (!spots) {
    g.append(s("text", { y: size * 0.18, class: "die-text", "font-size": size * 0.5, text: String(value) }));
  } else if (!spots.length) {
    g.append(s("circle", { r: size * 0.22, class: "die-zero" }));
  } else {
    for (const [a, b] of spots) g.append(s("circle", { cx: a, cy: b, r: size * 0.085, class: "die-pip" }));
  }
  return g;
}

/** An HTML die chip (SVG inside), with a label for screen readers and a tooltip. */
export function dieChip(value, cls = "night", label) {
  const text = label || (cls === "illuminated" ? t("Illuminated die showing {value}", { value })
    : cls === "travel" ? t("Travel die showing {value}", { value }) : t("Night die showing {value}", { value }));
  const svg = s("svg", { viewBox: "-15 -15 30 30", class: `die-chip die-chip-${cls}`, role: "img", "aria-label": text });
  svg.append(s("title", { text }), die(value, { size: 26, cls }));
  return svg;
}

/** An HTML good chip: its colour tile and letter, with the name as tooltip and label. */
export function goodChip(good, name, up = false) {
  const svg = s("svg", { viewBox: "-13 -13 26 26", class: "good-chip", role: "img", "aria-label": name });
  svg.append(s("title", { text: name }), goodToken(good, { r: 11, up }));
  return svg;
}

/** Text broken into lines of at most `max` characters, as <tspan>s; with `width` (in
 *  drawing units) it is also marked for `fitTexts`, which breaks it again by measure. */
export function wrapped(text, { x = 0, y = 0, max = 16, lh = 16, cls = "", anchor = "middle", lines: most = 3, width = 0 } = {}) {
  const words = String(text).split(/\s+/);
  const lines = [];
  let line = "";
  for (const w of words) {
    if (line && (line + " " + w).length > max) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length > most) { lines.length = most; lines[most - 1] = `${lines[most - 1].slice(0, max - 1)}…`; }
  const t = s("text", { x, y, class: cls, "text-anchor": anchor });
  lines.forEach((l, i) => t.append(s("tspan", { x, dy: i ? lh : 0, text: l })));
  return width ? fitTo(t, width, { lines: most, lh, text: String(text) }) : t;
}

// --- text that fits its box, in any language ---------------------------------------------
// Board text is never drawn under 20 units (11 CSS px at the first zoom), so a French name
// longer than its card cannot shrink: it is broken into lines by measure, a line a little
// too long is narrowed (textLength, down to SQUEEZE of its width), and one still too long
// is cut with "…" (its whole text is the element's tip and, on a card, in the card viewer).
const SQUEEZE = 0.8;
const FITTED = new Map(); // laid-out lines by class, width, lines and text: measured once

/** Mark an SVG <text> to fit `width` drawing units on at most `lines` lines (`lh` apart). */
export function fitTo(node, width, { lines = 1, lh = 20, text = node.textContent } = {}) {
  node.setAttribute("data-fit", String(width));
  node.setAttribute("data-fit-lines", String(lines));
  node.setAttribute("data-fit-lh", String(lh));
  node.setAttribute("data-fit-text", text);
  return node;
}

/** What `fitTo` marked on a text, and the key of its layout in FITTED. */
function fitOf(node) {
  const text = node.getAttribute("data-fit-text") || "";
  const width = Number(node.getAttribute("data-fit"));
  const most = Number(node.getAttribute("data-fit-lines")) || 1;
  return { key: `${node.getAttribute("class")}|${width}|${most}|${text}`, text, width, most };
}

/** Lay out every marked text under `root` (which must be in the document, to measure). */
export function fitTexts(root) {
  for (const node of root.querySelectorAll("text[data-fit]")) {
    const { key, text, width, most } = fitOf(node);
    if (!FITTED.has(key)) FITTED.set(key, layout(node, text, width, most));
    const x = node.getAttribute("x") || 0;
    const lh = Number(node.getAttribute("data-fit-lh")) || 20;
    const lines = FITTED.get(key);
    node.replaceChildren(...lines.map((l, i) => s("tspan", { x, dy: i ? lh : 0, text: l.text,
      textLength: l.squeeze, lengthAdjust: l.squeeze ? "spacingAndGlyphs" : null })));
    if (lines.some((l) => l.cut)) node.setAttribute("data-tip", text);
    else node.removeAttribute("data-tip");
  }
}

/** The drawn width of a text `fitTexts` laid out (its longest line), from the measures it
 *  keeps: asking the text (`getComputedTextLength`) would lay the page out again. */
export function fittedWidth(node) {
  const lines = FITTED.get(fitOf(node).key);
  return lines ? Math.max(0, ...lines.map((l) => l.w)) : node.getComputedTextLength();
}

/** A measure of strings in `node`'s font, in its drawing units. A canvas measures them:
 *  asking the text itself (`getComputedTextLength`) lays the page out again at every
 *  string, some 20 layouts on a first Dark Road board, most of its first render at 4x CPU.
 *  The font is read once per class (a style recalculation, no layout). */
const FONTS = new Map();
let canvas = null;
function measurer(node) {
  const cls = node.getAttribute("class") || "";
  let font = FONTS.get(cls);
  if (font === undefined) {
    const cs = getComputedStyle(node);
    font = { font: `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`,
      spacing: cs.letterSpacing === "normal" ? "0px" : cs.letterSpacing };
    FONTS.set(cls, font);
  }
  canvas ||= document.createElement("canvas").getContext("2d");
  return (str) => {
    canvas.font = font.font;
    canvas.letterSpacing = font.spacing;
    return canvas.measureText(str).width;
  };
}

function layout(node, text, width, most) {
  const len = measurer(node);
  const room = width / SQUEEZE;
  // Words; one wider than the box narrowed is broken after its hyphens ("Hollow-" / "Eyes") rather
  // than cut, a piece following its hyphen with no space when both stay on one line.
  const words = String(text).split(/\s+/).filter(Boolean)
    .flatMap((w) => (len(w) > room ? w.split(/(?<=-)(?=.)/) : [w]).map((piece, i) => ({ piece, glued: i > 0 })));
  const breakAt = (limit) => {
    const lines = [];
    let line = "";
    for (const { piece, glued } of words) {
      const next = line ? `${line}${glued ? "" : " "}${piece}` : piece;
      if (line && len(next) > limit) { lines.push(line); line = piece; } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  };
  // Lines of the full width if they are enough, narrowed ones otherwise.
  let lines = breakAt(width);
  if (lines.length > most) lines = breakAt(room);
  if (lines.length > most) lines.splice(most - 1, lines.length, lines.slice(most - 1).join(" "));
  return lines.map((l) => {
    let cut = false;
    if (len(l) > room) {
      cut = true;
      while (l.length > 1 && len(`${l}…`) > room) l = l.slice(0, -1).trimEnd();
      l = `${l}…`;
    }
    const w = len(l);
    return { text: l, cut, squeeze: w > width ? String(width) : null, w: Math.min(w, width) };
  });
}

/** A labelled count: "3 ◆" style pill for HTML panels. */
export function stat(label, value, cls = "") {
  return h("span", { class: `dr-stat ${cls}`, title: label },
    h("span", { class: "dr-stat-label", text: label }), h("b", { text: value }));
}
