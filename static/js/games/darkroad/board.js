// The kingdom board: an SVG drawn from the content and redrawn from each view. The
// Ringway (five wagon spaces, every wagon), the five districts with what lies in them,
// the four buildings, the round track and the prestige track. Pan (drag) and zoom
// (wheel, pinch, buttons) move the viewBox, as Karanor's map does.
import { t, tn } from "../../i18n.js";
import { Parts, Viewport, cardAttrs } from "../../kit.js";
import { clear, s, seatColour, seatMark } from "../../util.js";
import { die, fittedWidth, fitTexts, fitTo, goodToken, wrapped } from "./draw.js";
import { districtNoun, districtTitle, goodLetter, listOf } from "./words.js";

const W = 1300;
const H = 1270;
const C = { x: 650, y: 560 };
const R = 210;

/** Where wagon space i is (between district i and i+1). */
const spaceAngle = (i) => (-90 + 72 * i) * (Math.PI / 180);
const districtAngle = (i) => (-90 - 36 + 72 * i) * (Math.PI / 180);
const onRing = (a, r = R) => ({ x: C.x + r * Math.cos(a), y: C.y + r * Math.sin(a) });

const PANELS = {
  bazaar: { x: 40, y: 90, w: 430, h: 370 },
  commissions: { x: 830, y: 90, w: 430, h: 370 },
  dark_market: { x: 890, y: 480, w: 370, h: 330 },
  excursions: { x: 130, y: 830, w: 1040, h: 340 },
  inn: { x: 40, y: 480, w: 370, h: 330 },
};
const BUILDING_AT = [0, 1, 2, 3].map((i) => onRing(spaceAngle(i), 118));

/** Mark a card drawn on the board for the shell's card viewer (its whole text). */
function asCard(node, name, text) {
  for (const [k, v] of Object.entries(cardAttrs(name, text))) node.setAttribute(k, v);
}

export class Board {
  constructor(container, content, words, { onCommand }) {
    this.container = container;
    this.content = content;
    this.words = words;
    this.onCommand = onCommand;
    this.full = { x: 0, y: 0, w: W, h: H };
    // Named by aria-label, not a <title>: a title of the whole drawing would be the
    // tooltip of every point of the board the pointer rests on.
    this.svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "dr-board-svg", role: "group", "aria-label": t("The kingdom board: the Ringway and its districts"),
      preserveAspectRatio: "xMidYMid meet" });
    this.layer = s("g");
    this.wheelLayer = s("g", { class: "dr-wheel" }); // kept between views: the wheel turns
    this.top = s("g");
    this.svg.append(this.layer, this.wheelLayer, this.top);
    clear(container).append(this.svg);
    // Board text is at least 20 units: 0.56 px a unit keeps it at 11 CSS px or more; a
    // phone starts zoomed in on the Ringway, a laptop sees the whole board at that scale.
    this.viewport = new Viewport(container, this.svg, this.full, { maxZoom: 5, readable: { scale: 0.56, x: C.x, y: C.y } });
    // A press on the board is a pan, a pick or a tap that names a mark: it does not move
    // keyboard focus to the page (the shell's <main tabindex=-1>), which would close the
    // name bubble the tap just opened.
    container.addEventListener("mousedown", (e) => { if (!e.target.closest?.("[role=button]")) e.preventDefault(); });
  }

  /** A clickable legal command on the board (role button, keyboard too). */
  target(node, cmd, label, disabled) {
    node.setAttribute("class", `${node.getAttribute("class") || ""} dr-target`);
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", disabled ? "-1" : "0");
    node.setAttribute("aria-label", label);
    node.setAttribute("data-testid", "legal-action");
    node.setAttribute("data-type", cmd.type);
    node.setAttribute("data-command", JSON.stringify(cmd));
    if (disabled) node.setAttribute("aria-disabled", "true");
    node.append(s("title", { text: label }));
    node.addEventListener("click", () => { if (!disabled && !this.dragged) this.onCommand(cmd); });
    node.addEventListener("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && !disabled) { e.preventDefault(); this.onCommand(cmd); }
    });
    return node;
  }

  /** Draw the board for `view`. Each part (a district's panel, the tracks, the wagons) is
   *  drawn again only when what it reads has changed (kit.js Parts; issue 31: the whole
   *  board was rebuilt, and its texts measured, at each version). */
  update(view, { busy = false, last = null } = {}) {
    this.view = view;
    this.last = last;
    const b = view.board;
    const legal = view.legal_actions || [];
    const active = new Set(view.turn?.step === "activate" && view.status === "playing" ? view.turn.activations || [] : []);
    if (!this.sections) {
      this.parts = new Parts();
      this.sections = {};
      for (const name of ["bg", "rounds", "road", "buildings", "bazaar", "commissions", "dark_market", "inn", "excursions", "prestige"]) {
        this.sections[name] = this.layer.appendChild(s("g"));
      }
      this.wagons = this.top.appendChild(s("g"));
      this.previewLayer = this.top.appendChild(s("g", { class: "dr-preview-layer", "pointer-events": "none" }));
    }
    // Each part in its own group, laid out to its box by measure once drawn (draw.js).
    const part = (name, slice, draw) => this.parts.draw(name, slice, () => {
      const g = name === "wagons" ? clear(this.wagons) : clear(this.sections[name]);
      draw(g);
      fitTexts(g);
    });
    const seat = view.seat ?? null;
    const names = this.words.names;
    // What a district's panel head shows: open to you, or the last action there.
    const head = (id) => ({ open: active.has(id), last: last?.target === id ? { seat: last.seat, me: seat, names } : null });
    part("bg", null, (g) => g.append(s("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 26, class: "dr-bg" })));
    part("rounds", { round: view.turn?.round ?? 1, final: view.turn?.phase === "final_travel" }, (g) => this.drawRounds(g, view));
    part("road", null, (g) => this.drawRoad(g, view));
    const buildings = part("buildings", { buildings: b.buildings, active: [...active], last: last?.target ?? null },
      (g) => this.drawBuildings(g, view, active));
    part("bazaar", { head: head("bazaar"), wheel: b.wheel, aside: b.market_aside }, (g) => this.drawBazaar(g, view, active));
    part("commissions", { head: head("commissions"), stacks: b.commissions, busy,
      takes: legal.filter((a) => a.type === "take_commission") }, (g) => this.drawCommissions(g, view, active, legal, busy));
    part("dark_market", { head: head("dark_market"), at: b.dark_market, courtyard: b.courtyard, deeds: b.decks?.deeds },
      (g) => this.drawDarkMarket(g, view, active));
    part("inn", { head: head("inn"), inn: b.inn, heroes: b.decks?.heroes }, (g) => this.drawInn(g, view, active));
    part("excursions", { head: head("excursions"), ruins: b.ruins, decks: b.decks, discards: b.discards, row: b.companion_row,
      rowDie: b.companion_row_die, fortune: b.fortune_coins, upgrades: b.upgrades, travel: b.travel, names },
    (g) => this.drawExcursions(g, view, active));
    part("prestige", (view.players || []).map((p) => [p.seat, p.prestige, p.name]), (g) => this.drawPrestige(g, view));
    const me = view.players?.[view.seat];
    part("wagons", { players: (view.players || []).map((p) => [p.seat, p.position, p.name]), turn: view.turn?.seat,
      status: view.status, moves: legal.filter((a) => a.type === "move"), pool: me?.pool, position: me?.position,
      buildings: b.buildings, busy, last: last?.space ?? null, lastSeat: last?.seat ?? null }, (g) => this.drawWagons(g, view, legal, busy));
    // A preview belongs to the control hovered or focused now: a redraw of the action
    // panel starts without one (index.js); a redrawn building takes it again here.
    if (buildings) this.preview(this.previewing ?? null);
  }

  /** Ring wagon space `space` (null: none), its two districts and its building: what a
   *  hovered or focused move or plan would face. Drawn in a layer of its own that takes
   *  no click, and nothing else is redrawn: a click that began on a target ends on it. */
  preview(space) {
    this.previewing = space;
    if (!this.previewLayer || !this.view) return;
    const layer = clear(this.previewLayer);
    for (const n of this.svg.querySelectorAll(".dr-building.preview")) n.classList.remove("preview");
    if (space === null || space === undefined) return;
    const ring = this.content.board.ringway;
    for (const id of [ring[space], ring[(space + 1) % 5]]) {
      const p = PANELS[id];
      layer.append(s("rect", { x: p.x - 5, y: p.y - 5, width: p.w + 10, height: p.h + 10, rx: 21, class: "dr-preview-panel" }));
    }
    const building = space < 4 ? this.view.board.buildings?.[space] : null;
    if (building) this.svg.querySelector(`.dr-building[data-building="${CSS.escape(building)}"]`)?.classList.add("preview");
    const p = onRing(spaceAngle(space));
    layer.append(s("circle", { cx: p.x, cy: p.y, r: 44, class: "dr-preview-ring" }));
  }

  panel(g, id, active, extra = "", shortExtra = "") {
    const p = PANELS[id];
    const node = s("g", { class: `dr-panel dr-panel-${id}${active.has(id) ? " active" : ""}`, "data-district": id });
    node.append(s("rect", { x: p.x, y: p.y, width: p.w, height: p.h, rx: 18, class: "dr-panel-bg" }));
    node.append(s("rect", { x: p.x, y: p.y, width: p.w, height: 34, rx: 14, class: "dr-panel-head" }));
    const title = s("text", { x: p.x + 16, y: p.y + 24, class: "dr-panel-title", text: extra ? t("{district} · {extra}", { district: districtTitle(id), extra }) : districtTitle(id) });
    node.append(title);
    g.append(node);
    // The head's right-hand note (open to you, last: who) keeps its place; the title fits
    // in what is left of the head.
    let note = null;
    if (active.has(id)) note = s("text", { x: p.x + p.w - 14, y: p.y + 24, class: "dr-panel-open", "text-anchor": "end", text: t("open to you") });
    else if (this.last?.target === id) {
      node.append(s("rect", { x: p.x - 4, y: p.y - 4, width: p.w + 8, height: p.h + 8, rx: 20, class: "dr-last", stroke: seatColour(this.last.seat) }));
      note = s("text", { x: p.x + p.w - 14, y: p.y + 24, class: "dr-panel-last", "text-anchor": "end", text: this.words.isMe(this.last.seat) ? t("last: you") : t("last: {who}", { who: this.words.name(this.last.seat) }) });
    }
    if (note) {
      node.append(fitTo(note, Math.round(p.w * 0.45)));
      fitTexts(node);
    }
    const used = note ? Math.min(fittedWidth(note), p.w * 0.45) + 14 : 0;
    const room = Math.round(p.w - 30 - used - (note ? 12 : 0));
    fitTo(title, room);
    if (shortExtra && note) {
      // Beside a note, a title that would be cut says its extra the short way
      // ("Ringway Inn · 35"), or not at all ("Auberge de l'Anneau"), rather than
      // "Ringway Inn · 35 i…"; its whole words are the panel's tip.
      fitTexts(node);
      const whole = title.getAttribute("data-fit-text");
      for (const text of [t("{district} · {extra}", { district: districtTitle(id), extra: shortExtra }), districtTitle(id)]) {
        if (!title.hasAttribute("data-tip")) break;
        title.textContent = text;
        fitTo(title, room);
        fitTexts(node);
      }
      if (title.getAttribute("data-fit-text") !== whole) node.prepend(s("title", { text: whole }));
    }
    return node;
  }

  drawRounds(g, view) {
    const round = view.turn?.round ?? 1;
    const { rounds, removal_rounds: REMOVAL, last_rounds: LAST } = this.content.rules;
    const x0 = 350;
    const track = s("g", { class: "dr-rounds" });
    track.append(s("text", { x: x0 - 22, y: 52, class: "dr-label", "text-anchor": "end", text: view.turn?.phase === "final_travel" ? t("Final travel") : t("Round") }));
    for (let r = 1; r <= rounds; r += 1) {
      const x = x0 + (r - 1) * 48;
      const cls = r < round ? "past" : r === round ? "now" : "";
      const node = s("g", { class: `dr-round ${cls}` },
        s("title", { text: REMOVAL.includes(r) ? t("Round {r}: at its end a night die leaves the game", { r })
          : LAST.includes(r) ? t("Round {r} (the last rounds: no reserve)", { r }) : t("Round {r}", { r }) }),
        s("circle", { cx: x, cy: 46, r: 19 }),
        s("text", { x, y: 52, "text-anchor": "middle", text: String(r) }));
      if (REMOVAL.includes(r)) node.append(s("g", { class: "dr-removal" }, s("rect", { x: x - 7, y: 68, width: 14, height: 14, rx: 3 }), s("line", { x1: x - 9, y1: 84, x2: x + 9, y2: 66 })));
      track.append(node);
    }
    track.append(fitTo(s("text", { x: x0 + 13 * 48 - 10, y: 52, class: "dr-label small", text: t("▣ = a night die leaves") }), 1280 - (x0 + 13 * 48 - 10)));
    g.append(track);
  }

  drawRoad(g) {
    g.append(s("circle", { cx: C.x, cy: C.y, r: R, class: "dr-road" }));
    g.append(s("circle", { cx: C.x, cy: C.y, r: R, class: "dr-road-line" }));
    g.append(s("text", { x: C.x, y: C.y + 30, class: "dr-ringway", "text-anchor": "middle", text: t("The Ringway") }));
    g.append(s("text", { x: C.x, y: C.y + 54, class: "dr-label small", "text-anchor": "middle", text: t("clockwise ↻") }));
    const ring = this.content.board.ringway;
    for (let i = 0; i < 5; i += 1) {
      // Spokes from the road to each district panel.
      const a = onRing(districtAngle(i), R + 24);
      const p = PANELS[ring[i]];
      const tx = Math.max(p.x, Math.min(p.x + p.w, a.x));
      const ty = Math.max(p.y, Math.min(p.y + p.h, a.y));
      g.append(s("line", { x1: a.x, y1: a.y, x2: tx, y2: ty, class: "dr-spoke" }));
    }
    for (let i = 0; i < 5; i += 1) {
      const p = onRing(spaceAngle(i));
      const name = t("Wagon space {n}: between {a} and {b}", { n: i + 1, a: districtNoun(ring[i]), b: districtNoun(ring[(i + 1) % 5]) });
      g.append(s("g", { class: "dr-space" }, s("title", { text: name }), s("circle", { cx: p.x, cy: p.y, r: 30 })));
    }
  }

  drawBuildings(g, view, active) {
    (view.board.buildings || []).forEach((id, i) => {
      const at = BUILDING_AT[i];
      const info = this.content.buildings.find((x) => x.id === id);
      const node = s("g", { class: `dr-building${active.has(id) ? " active" : ""}${this.last?.target === id ? " last" : ""}`, "data-building": id, transform: `translate(${at.x} ${at.y})` },
        s("title", { text: t("{building} (building {n}, with wagon space {n}): {text}", { building: info?.name ?? id, n: i + 1, text: info?.text ?? "" }) }),
        s("rect", { x: -67, y: -34, width: 134, height: 68, rx: 10 }),
        wrapped(info?.name ?? id, { y: -6, max: 12, lh: 22, cls: "dr-building-name", lines: 2, width: 124 }));
      asCard(node, info?.name ?? id, info?.text ?? "");
      g.append(node);
    });
  }

  drawBazaar(g, view, active) {
    const node = this.panel(g, "bazaar", active);
    const cx = 250;
    const cy = 290;
    const r = 140;
    const wheel = view.board.wheel || [];
    const prices = this.content.board.wheel_values;
    if (!this.wheel) {
      this.buildWheel(cx, cy, r, wheel, prices);
      fitTexts(this.wheelLayer);
    }
    // The goods ring turns (clockwise: each good one price step down); the prices stay.
    const rot = Math.max(0, wheel.findIndex((x) => x.value === prices[0]));
    const target = -60 * rot;
    const a = this.wheel.angle ?? target;
    const angle = a + ((((target - a) % 360) + 540) % 360) - 180;
    this.wheel.angle = angle;
    this.wheel.turn.style.transform = `rotate(${angle}deg)`;
    wheel.forEach((sec, k) => {
      const part = this.wheel.parts[k];
      part.content.style.transform = `rotate(${-angle}deg)`;
      part.inner.style.transform = `rotate(${-angle}deg)`;
      part.title.textContent = tn("{good}: ${price}, {n} market die", "{good}: ${price}, {n} market dice", sec.dice, { good: this.words.goodTitle(sec.good), price: sec.value });
      const dice = clear(part.dice);
      for (let d = 0; d < sec.dice; d += 1) {
        dice.append(s("g", { class: "dr-market-die", transform: `translate(${(d - (sec.dice - 1) / 2) * 27} 0)` },
          s("rect", { x: -12, y: -12, width: 24, height: 24, rx: 4 }),
          s("text", { y: 7, "text-anchor": "middle", text: goodLetter(sec.good) })));
      }
    });
    const aside = view.board.market_aside || 0;
    // Clear of the price tokens: the dice aside in the bottom-left corner, the count on the
    // wheel in the panel's name (a tap or a hover).
    const onWheel = wheel.reduce((n, x) => n + x.dice, 0);
    node.setAttribute("data-tip", tn("Market wheel: {n} die on it", "Market wheel: {n} dice on it", onWheel));
    if (aside) node.append(s("text", { x: 52, y: 448, class: "dr-label small", text: tn("{n} die aside", "{n} dice aside", aside) }));
  }

  /** The wheel's drawing, once: six sectors (a good, its name, its market dice), the prices. */
  buildWheel(cx, cy, r, wheel, prices) {
    const turn = s("g", { class: "dr-wheel-turn" });
    turn.style.transformBox = "view-box";
    turn.style.transformOrigin = `${cx}px ${cy}px`;
    const parts = wheel.map((sec, k) => {
      const a0 = (-120 + 60 * k) * (Math.PI / 180);
      const a1 = (-60 + 60 * k) * (Math.PI / 180);
      const am = (a0 + a1) / 2;
      const path = `M${cx},${cy} L${cx + r * Math.cos(a0)},${cy + r * Math.sin(a0)} A${r},${r} 0 0 1 ${cx + r * Math.cos(a1)},${cy + r * Math.sin(a1)} Z`;
      const title = s("title");
      const gx = cx + r * 0.66 * Math.cos(am);
      const gy = cy + r * 0.66 * Math.sin(am);
      const content = s("g", { class: "dr-sector-content" });
      content.style.transformBox = "view-box";
      content.style.transformOrigin = `${gx}px ${gy}px`;
      // The good's token (its name is the sector's tip and in the wagon's key of goods).
      content.append(goodToken(sec.good, { x: gx, y: gy, r: 19 }));
      const px = cx + r * 0.3 * Math.cos(am);
      const py = cy + r * 0.3 * Math.sin(am);
      const dice = s("g");
      const inner = s("g", { class: "dr-sector-content" }, s("g", { transform: `translate(${px} ${py})` }, dice));
      inner.style.transformBox = "view-box";
      inner.style.transformOrigin = `${px}px ${py}px`;
      const sector = s("g", { class: "dr-sector" }, title, s("path", { d: path, class: `dr-sector-bg${k % 2 ? " odd" : ""}` }), content, inner);
      turn.append(sector);
      return { content, inner, title, dice };
    });
    const ring = s("g", { class: "dr-wheel-prices" });
    prices.forEach((v, k) => {
      const a = (-90 + 60 * k) * (Math.PI / 180);
      const x = cx + (r + 22) * Math.cos(a);
      const y = cy + (r + 22) * Math.sin(a);
      ring.append(s("g", {}, s("title", { text: t("Price slot: ${price}", { price: v }) }), s("circle", { cx: x, cy: y, r: 20, class: "dr-price" }),
        s("text", { x, y: y + 7, "text-anchor": "middle", class: "dr-price-text", text: t("${price}", { price: v }) })));
    });
    this.wheelLayer.append(turn, ring, s("circle", { cx, cy, r: 18, class: "dr-wheel-hub" }));
    this.wheel = { turn, parts, angle: null };
  }

  drawCommissions(g, view, active, legal, busy) {
    const stacks = view.board.commissions || {};
    const node = this.panel(g, "commissions", active);
    this.content.board.towns.forEach((town, i) => {
      const x = 842 + (i % 3) * 140;
      const y = 134 + Math.floor(i / 3) * 160;
      const st = stacks[town.id] || { top: null, count: 0 };
      const top = this.content.commissions.find((k) => k.id === st.top);
      const card = s("g", { class: "dr-stack", transform: `translate(${x} ${y})` });
      if (st.count > 1) card.append(s("rect", { x: 5, y: 5, width: 128, height: 148, rx: 10, class: "dr-card-under" }));
      card.append(s("rect", { x: 0, y: 0, width: 128, height: 148, rx: 10, class: `dr-card dr-town-${town.region}` }));
      const region = { north: t("north region"), west: t("west region"), east: t("east region") }[town.region] ?? town.region;
      card.append(fitTo(s("text", { x: 64, y: 30, class: "dr-card-title", "text-anchor": "middle", text: town.name }), 116));
      if (top) top.requests.forEach((gd, j) => card.append(goodToken(gd, { x: 26 + j * 38, y: 76, r: 17, title: this.words.goodTitle(gd) })));
      else card.append(s("text", { x: 64, y: 82, class: "dr-label", "text-anchor": "middle", text: t("empty") }));
      card.append(s("g", { class: "dr-count" }, s("circle", { cx: 110, cy: 130, r: 16 }), s("text", { x: 110, y: 137, "text-anchor": "middle", text: String(st.count) })));
      asCard(card, t("{town} commission", { town: town.name }), top ? t("{region}. On top: {goods}. 1, 2 or 3 of its goods delivered give 1, 3 or 6 prestige, +1 for each upgraded good. {n} in the stack.", { region, goods: listOf(top.requests.map((x) => this.words.good(x))), n: st.count })
        : t("{region}. The stack is empty.", { region }));
      card.insertBefore(s("title", { text: top ? tn("{town}: {n} commission; on top: {goods}", "{town}: {n} commissions; on top: {goods}", st.count, { town: town.name, goods: listOf(top.requests.map((x) => this.words.good(x))) })
        : tn("{town}: {n} commission", "{town}: {n} commissions", st.count, { town: town.name }) }), card.firstChild);
      const cmd = legal.find((a) => a.type === "take_commission" && a.town === town.id);
      if (cmd) this.target(card, cmd, t("Take the {town} commission", { town: town.name }), busy);
      node.append(card);
    });
  }

  drawDarkMarket(g, view, active) {
    const node = this.panel(g, "dark_market", active);
    const cx = 1000;
    const cy = 655;
    const ring = this.content.board.dark_market;
    const at = { north: [0, -82], east: [82, 0], south: [0, 82], west: [-82, 0] };
    node.append(s("circle", { cx, cy, r: 82, class: "dr-ring" }));
    ring.forEach((sp, i) => {
      const [dx, dy] = at[sp.space];
      const here = view.board.dark_market === i;
      const spot = s("g", { class: `dr-dm-space${here ? " here" : ""}`, transform: `translate(${cx + dx} ${cy + dy})` },
        s("title", { text: here ? t("{space} (the marker is here)", { space: this.words.darkMarketSpace(sp.space) })
          : this.words.darkMarketSpace(sp.space) }),
        s("circle", { r: 38 }));
      if (sp.goods.length) sp.goods.forEach((gd, j) => spot.append(goodToken(gd, { x: (j - 0.5) * 32, y: 0, r: 15 })));
      else spot.append(fitTo(s("text", { y: 5, "text-anchor": "middle", class: "dr-label small", text: t("deal") }), 72));
      if (here) spot.append(s("circle", { r: 42, class: "dr-marker" }));
      node.append(spot);
    });
    node.append(wrapped(t("1 coin a space"), { x: cx, y: cy - 4, max: 7, lh: 22, cls: "dr-label small", lines: 2, width: 90 }));
    // The courtyard: two deeds face up with their banners, and the deck.
    node.append(s("text", { x: 1185, y: 540, class: "dr-label", "text-anchor": "middle", text: t("Courtyard") }));
    (view.board.courtyard || []).forEach((id, i) => {
      const d = this.content.deeds.find((x) => x.id === id);
      const banner = this.content.deed_banners?.[i];
      const y = 552 + i * 112;
      const card = s("g", { class: "dr-deed", transform: `translate(1120 ${y})` },
        s("title", { text: !d ? t("empty") : banner ? t("{deed}: {text} Banner: {bonus}.", { deed: d.name, text: d.text, bonus: this.words.effect(banner) })
          : t("{deed}: {text}", { deed: d.name, text: d.text }) }),
        s("rect", { width: 130, height: 104, rx: 10, class: "dr-card dr-deed-card" }));
      if (d) {
        card.append(wrapped(d.name, { x: 65, y: 26, max: 11, lh: 22, cls: "dr-card-title small", lines: 2, width: 118 }));
        asCard(card, d.name, banner ? t("{text} Banner: {bonus}.", { text: d.text, bonus: this.words.effect(banner) }) : d.text);
      }
      if (banner) card.append(wrapped(t("+ {bonus}", { bonus: this.words.effect(banner) }), { x: 65, y: 78, max: 12, lh: 20, cls: "dr-banner", lines: 2, width: 118 }));
      node.append(card);
    });
    node.append(s("text", { x: 1185, y: 792, class: "dr-label small", "text-anchor": "middle", text: t("deck: {n}", { n: view.board.decks?.deeds ?? 0 }) }));
  }

  drawInn(g, view, active) {
    const heroes = view.board.decks?.heroes ?? 0;
    const node = this.panel(g, "inn", active, tn("{n} in the deck", "{n} in the deck", heroes), String(heroes));
    (view.board.inn || []).forEach((id, i) => {
      const x = 52 + (i % 2) * 176;
      const y = 526 + Math.floor(i / 2) * 140;
      const card = s("g", { class: "dr-hero", transform: `translate(${x} ${y})` });
      const hero = this.content.heroes.find((hh) => hh.id === id);
      if (!hero) {
        card.append(s("rect", { width: 168, height: 130, rx: 10, class: "dr-card empty" }));
        node.append(card);
        return;
      }
      const town = this.words.heroTownOf(id);
      card.append(s("title", { text: this.words.heroLine(id) }));
      card.append(s("rect", { width: 168, height: 136, rx: 10, class: "dr-card dr-hero-card" }));
      card.append(wrapped(hero.name, { x: 84, y: 24, max: 14, lh: 21, cls: "dr-card-title small", lines: 2, width: 156 }));
      card.append(fitTo(s("text", { x: 84, y: 68, "text-anchor": "middle", class: "dr-label small", text: t("→ {town}", { town: this.words.town(town) }) }), 156));
      hero.requests.forEach((gd, j) => card.append(goodToken(gd, { x: 84 + (j - (hero.requests.length - 1) / 2) * 38, y: 90, r: 17 })));
      if (hero.bonus !== "none") card.append(fitTo(s("text", { x: 84, y: 128, "text-anchor": "middle", class: "dr-bonus", text: t("+ {bonus}", { bonus: this.words.heroBonus(hero.bonus) }) }), 156));
      asCard(card, hero.name, this.words.heroLine(id));
      node.append(card);
    });
  }

  drawExcursions(g, view, active) {
    const b = view.board;
    const node = this.panel(g, "excursions", active);
    // Ruins of Yin: the tablet's four spaces clockwise from the bottom-left.
    const ruins = this.content.board.ruins;
    const spots = { bottom_left: [0, 1], top_left: [0, 0], top_right: [1, 0], bottom_right: [1, 1] };
    node.append(s("text", { x: 250, y: 890, class: "dr-label", "text-anchor": "middle", text: t("Ruins of Yin") }));
    ruins.forEach((sp, i) => {
      const [cx, cy] = spots[sp.space];
      const x = 150 + cx * 102;
      const y = 900 + cy * 102;
      const here = b.ruins === i;
      const spot = s("g", { class: `dr-ruin${here ? " here" : ""}`, transform: `translate(${x} ${y})` },
        s("title", { text: this.ruinsTitle(sp, here) }),
        s("rect", { width: 96, height: 96, rx: 12 }));
      if (sp.goods.length) sp.goods.forEach((gd, j) => spot.append(goodToken(gd, { x: 28 + j * 40, y: 50, r: 17, up: true })));
      else spot.append(wrapped(t("any ★"), { x: 48, y: 50, max: 10, lh: 22, cls: "dr-label small", lines: 2, width: 86 }));
      if (here) spot.append(s("circle", { cx: 82, cy: 14, r: 11, class: "dr-marker-dot" }));
      node.append(spot);
    });
    // The companion row: deck, then three cards; the farthest carries a travel die.
    node.append(s("text", { x: 569, y: 890, class: "dr-label", "text-anchor": "middle", text: t("Companions") }));
    node.append(s("g", { class: "dr-deck", transform: "translate(364 904)" },
      s("title", { text: tn("Companion deck: {n} card", "Companion deck: {n} cards", b.decks?.companions ?? 0) }),
      s("rect", { width: 56, height: 150, rx: 10 }), s("text", { x: 28, y: 80, "text-anchor": "middle", text: String(b.decks?.companions ?? 0) })));
    (b.companion_row || []).forEach((id, i) => {
      const x = 426 + i * 118;
      const card = s("g", { class: "dr-companion", transform: `translate(${x} 904)` });
      const comp = this.content.companions.find((cc) => cc.id === id);
      card.append(s("rect", { width: 112, height: 150, rx: 10, class: `dr-card${comp ? "" : " empty"}${comp?.kind === "stray" ? " stray" : ""}` }));
      if (comp) {
        const p = { companion: comp.name, kind: this.words.companionKind(comp.kind), gift: this.words.gift(comp.gift), abilities: comp.abilities.map((a) => this.words.ability(a)).join("; ") };
        card.append(s("title", { text: b.companion_row_die?.[i] ? t("{companion} ({kind}; gift: {gift}): {abilities}. Carries a travel die.", p) : t("{companion} ({kind}; gift: {gift}): {abilities}", p) }));
        card.append(wrapped(comp.name, { x: 56, y: 26, max: 10, lh: 22, cls: "dr-card-title small", lines: 4, width: 102 }));
        asCard(card, comp.name, t("{kind}; gift: {gift}. {abilities}.", p));
      }
      if (b.companion_row_die?.[i]) card.append(die("+", { x: 90, y: 132, size: 34, cls: "travel", title: t("A travel die rides with this companion") }));
      node.append(card);
    });
    // Event decks and the good fortune track.
    node.append(s("text", { x: 972, y: 890, class: "dr-label", "text-anchor": "middle", text: t("Events & good fortune") }));
    // Each event deck says what its route gives the leader (and costs) on its own card:
    // as tall as the companions, nothing written under it (a travel die rides there).
    [["dark_road", t("Dark road")], ["shortcut", t("Shortcut")]].forEach(([deck, name], i) => {
      const p = { n: b.decks?.[deck] ?? 0, seen: (b.discards?.[deck] || []).length };
      const fortunes = deck === "shortcut" ? 2 : 1;
      node.append(s("g", { class: `dr-deck dr-deck-${deck}`, transform: `translate(${780 + i * 114} 904)` },
        s("title", { text: deck === "shortcut" ? t("Shortcut events: {n} in the deck, {seen} seen", p) : t("Dark road events: {n} in the deck, {seen} seen", p) }),
        s("rect", { width: 108, height: 150, rx: 10 }),
        wrapped(name, { x: 54, y: 30, max: 8, lh: 21, cls: "small", lines: 2, width: 98 }),
        fitTo(s("text", { x: 54, y: 84, "text-anchor": "middle", class: "small dr-deck-gives", text: tn("{n} fortune", "{n} fortunes", fortunes, { n: fortunes }) }), 98),
        deck === "shortcut" ? fitTo(s("text", { x: 54, y: 108, "text-anchor": "middle", class: "small dr-deck-gives", text: t("3 lanterns") }), 104) : null,
        s("text", { x: 54, y: 138, "text-anchor": "middle", text: String(b.decks?.[deck] ?? 0) })));
    });
    const fort = s("g", { class: "dr-fortune", transform: "translate(1008 904)" },
      s("title", { text: b.fortune_coins
        ? t("Good fortune: {n} coins wait for the first to choose coins; upgrades left: {upgrades}", { n: b.fortune_coins, upgrades: listOf((b.upgrades || []).map((u) => this.words.upgrade(u))) })
        : t("Good fortune: coins give 3; upgrades left: {upgrades}", { upgrades: listOf((b.upgrades || []).map((u) => this.words.upgrade(u))) }) }),
      s("rect", { width: 156, height: 150, rx: 10 }),
      ...[[24, t("Good fortune")], [50, t("A die · B deed")], [74, t("C {n} coins", { n: b.fortune_coins ? b.fortune_coins : 3 })], [98, t("D upgrade:")]]
        .map(([y, text]) => fitTo(s("text", { x: 78, y, "text-anchor": "middle", class: "small", text }), 146)),
      fitTo(s("text", { x: 78, y: 128, "text-anchor": "middle", class: "dr-big", text: tn("{n} left", "{n} left", (b.upgrades || []).length) }), 146));
    node.append(fort);
    if (b.travel) {
      const tr = b.travel;
      const p = { leader: this.words.name(tr.leader), town: this.words.town(tr.town) };
      const text = tr.final ? t("Final travel: everyone visits a town")
        : tr.route === "shortcut" ? t("Caravan of {leader} → {town} (shortcut)", p) : t("Caravan of {leader} → {town} (dark road)", p);
      node.append(s("g", { class: "dr-caravan-flag" }, s("rect", { x: 150, y: 1112, width: 1000, height: 44, rx: 12 }),
        fitTo(s("text", { x: 650, y: 1141, "text-anchor": "middle", text }), 980)));
    }
  }

  ruinsTitle(sp, here) {
    const space = { bottom_left: t("bottom left"), top_left: t("top left"), top_right: t("top right"), bottom_right: t("bottom right") }[sp.space] ?? sp.space;
    const goods = sp.goods.length ? sp.goods.map((x) => this.words.aGood(x, true)).join(" / ") : t("an upgraded good of your choice");
    return here ? t("{space}: {goods} (the marker is here)", { space, goods }) : t("{space}: {goods}", { space, goods });
  }

  drawPrestige(g, view) {
    const players = view.players || [];
    const max = Math.max(40, ...players.map((p) => p.prestige + 4));
    const x0 = 60;
    const x1 = 1240;
    const y = 1222;
    const node = s("g", { class: "dr-prestige" });
    // The track's name at its far end: the seats' marks stack up from the low values,
    // where everyone is for most of the game (at the start the name was under them).
    node.append(s("text", { x: x1, y: 1196, "text-anchor": "end", class: "dr-label", text: t("Prestige") }));
    node.append(s("line", { x1: x0, x2: x1, y1: y, y2: y, class: "dr-track" }));
    for (let v = 0; v <= max; v += 5) {
      const x = x0 + ((x1 - x0) * v) / max;
      node.append(s("line", { x1: x, x2: x, y1: y - 8, y2: y + 8, class: "dr-tick" }), s("text", { x, y: y + 28, "text-anchor": "middle", class: "dr-label small", text: String(v) }));
    }
    const at = {};
    for (const p of players) {
      const k = (at[p.prestige] = (at[p.prestige] || 0) + 1) - 1;
      const x = x0 + ((x1 - x0) * p.prestige) / max;
      const mark = seatMark(p.seat, x, y - 14 - k * 16, 9, { stroke: "#1d1d1d", "stroke-width": 1.5 });
      mark.append(s("title", { text: tn("{name}: {n} prestige", "{name}: {n} prestige", p.prestige, { name: p.name }) }));
      node.append(mark);
    }
    g.append(node);
  }

  drawWagons(g, view, legal, busy) {
    const players = view.players || [];
    const ring = this.content.board.ringway;
    const me = view.seat;
    const at = {};
    for (const p of players) (at[p.position] ||= []).push(p);
    for (const [pos, list] of Object.entries(at)) {
      const a = spaceAngle(Number(pos));
      list.forEach((p, k) => {
        const off = (k - (list.length - 1) / 2) * 26;
        const x = C.x + R * Math.cos(a) + off * Math.cos(a + Math.PI / 2);
        const y = C.y + R * Math.sin(a) + off * Math.sin(a + Math.PI / 2);
        const turn = view.turn?.seat === p.seat && view.status === "playing";
        // Its shadow is the mark again, dark and a little lower: a blurred SVG filter was
        // drawn again at every frame of the bob (issue 31).
        const pawn = s("g", { class: `dr-wagon${turn ? " turn" : ""}`, transform: `translate(${x} ${y})`, "data-seat": p.seat },
          s("title", { text: turn ? t("{name}'s wagon (playing): space {n}", { name: p.name, n: Number(pos) + 1 }) : t("{name}'s wagon: space {n}", { name: p.name, n: Number(pos) + 1 }) }));
        if (turn) pawn.append(s("circle", { r: 19, class: "dr-turn-ring", stroke: seatColour(p.seat) }));
        pawn.append(seatMark(p.seat, 0, 2.5, 13, { class: "dr-wagon-shadow", stroke: "none" }),
          seatMark(p.seat, 0, 0, 12, { stroke: "#111", "stroke-width": 2.4 }));
        g.append(pawn);
      });
    }
    // Move previews: each legal move's destination space, clickable.
    const moves = legal.filter((a) => a.type === "move");
    const byDest = new Map();
    const mine = players[me];
    for (const cmd of moves) {
      const steps = cmd.die === "steed" ? 3 : cmd.die === "night" ? mine.pool.night : mine.pool.illuminated;
      const dest = (((mine.position + steps + cmd.horseshoe) % 5) + 5) % 5;
      if (!byDest.has(dest)) byDest.set(dest, []);
      byDest.get(dest).push(cmd);
    }
    for (const [dest, cmds] of byDest) {
      const p = onRing(spaceAngle(dest));
      const best = cmds.find((c) => !c.horseshoe) || cmds[0];
      const q = { a: districtNoun(ring[dest]), b: districtNoun(ring[(dest + 1) % 5]), building: dest < 4 ? this.words.building(view.board.buildings[dest]) : "",
        command: this.words.command(best), n: dest + 1 };
      const label = dest < 4 ? t("{command}: to space {n}, facing {a} and {b} (+ {building})", q) : t("{command}: to space {n}, facing {a} and {b}", q);
      g.append(this.target(s("g", { class: "dr-move-target" }, s("circle", { cx: p.x, cy: p.y, r: 40 })), best, label, busy));
    }
    if (this.last?.space !== undefined && !byDest.size) {
      const p = onRing(spaceAngle(this.last.space));
      g.insertBefore(s("circle", { cx: p.x, cy: p.y, r: 36, class: "dr-last-space", stroke: seatColour(this.last.seat) }), g.firstChild);
    }
  }

  // --- pan and zoom: the shell's Viewport (kit.js) -----------------------------------

  get dragged() { return this.viewport.dragged; }
  zoom(f) { this.viewport.zoom(f); }
  reset() { this.viewport.reset(); }
  destroy() { this.viewport.destroy(); }
}
