// Your wagon (dice, lanterns, inventory, heroes, commissions, companions, steed, upgrades,
// deeds, coins behind your screen, and the storage grid) and the other players' wagons
// as far as the view shows them.
import { t, tn } from "../../i18n.js";
import { keyed } from "../../kit.js";
import { clear, h, s, seatBadge, seatColour } from "../../util.js";
import { cellsOf, dieChip, goodChip, goodShape } from "./draw.js";

const SLOT_TEXT = {
  1: (c, up) => (up ? t("Craft an upgraded good") : t("Craft a good")),
  2: (c, up) => (up ? t("Lantern + illuminated die") : t("Lantern or illuminated die")),
  3: (c, up) => (up ? t("3 coins or 1 prestige") : t("2 coins or rotate the wheel")),
};

function hasUpgrade(words, p, kind) {
  return (p.upgrades || []).some((u) => words.upgrades[u]?.kind === kind);
}

function pips(n, max, cls, label) {
  const text = t("{label}: {n} of {max}", { label, n, max });
  const box = h("span", { class: `dr-pips ${cls}`, title: text, role: "img", "aria-label": text });
  for (let i = 0; i < max; i += 1) box.append(h("span", { class: `dr-pip${i < n ? " on" : ""}` }));
  return box;
}

export function heroCard(words, id, extra) {
  const hero = words.heroes[id];
  if (!hero) return h("div", { class: "dr-mini-card", text: id });
  const town = words.heroTownOf(id);
  return h("div", { class: "dr-mini-card dr-hero-mini", title: words.heroLine(id) },
    h("b", { text: hero.name }),
    h("span", { class: "small", text: t("{type} → {town}", { type: words.heroType(hero.type), town: words.town(town) }) }),
    h("span", { class: "dr-req" }, ...hero.requests.map((g) => goodChip(g, words.goodTitle(g)))),
    extra || null);
}

export function commissionCard(words, id, extra) {
  const k = words.commissions[id];
  if (!k) return h("div", { class: "dr-mini-card", text: id });
  return h("div", { class: "dr-mini-card dr-comm-mini", title: words.commission(id) },
    h("b", { text: `→ ${words.town(k.town)}` }),
    h("span", { class: "dr-req" }, ...k.requests.map((g) => goodChip(g, words.goodTitle(g)))),
    extra || null);
}

function companionCard(words, x) {
  const comp = words.companions[x.id];
  return h("div", { class: `dr-mini-card${comp?.kind === "stray" ? " stray" : ""}`, title: comp?.flavour || "" },
    h("b", { text: comp?.name ?? x.id }),
    h("span", { class: "small", text: t("{kind}; gift: {gift}", { kind: words.companionKind(comp?.kind), gift: words.gift(comp?.gift) }) }),
    ...(comp?.abilities || []).map((a) => h("span", { class: `small dr-ability${x.used.includes(a) ? " used" : ""}`, text: `${x.used.includes(a) ? "✓ " : "• "}${words.ability(a)}` })));
}

function diceRow(label, values, cls, hint) {
  return h("div", { class: "dr-dice-row" },
    h("span", { class: "dr-dice-label", text: label, title: hint || label }),
    h("span", { class: "dr-dice" }, ...(values.length ? values.map((v) => dieChip(v, cls)) : [h("span", { class: "muted small", text: "—" })])));
}

/** Your wagon panel. */
export function renderWagon(root, ctx, storage) {
  const { view, words } = ctx;
  const me = view.players[view.seat];
  const priv = view.private || {};
  clear(root);
  root.append(h("h2", {}, seatBadge(me.seat, 20, t("your seat")), " ", t("Your wagon")));
  const inventory = t("Inventory: {quartz} blazing quartz, {horseshoes} horseshoes, {slots} slots", { quartz: me.quartz, horseshoes: me.horseshoes, slots: me.inventory_slots });
  root.append(h("div", { class: "dr-wagon-stats" },
    h("span", { class: "dr-stat", title: t("Coins, behind your screen: only you see them") }, t("Coins"), " ", h("b", { text: priv.coins ?? "?" }), h("span", { class: "muted small", text: ` ${t("(hidden)")}` })),
    h("span", { class: "dr-stat", title: t("Prestige (public)") }, t("Prestige"), " ", h("b", { text: me.prestige })),
    h("span", { class: "dr-stat", title: t("Lanterns: {n} of {max} slots", { n: me.lanterns, max: me.lantern_slots }) }, t("Lanterns"), " ", pips(me.lanterns, me.lantern_slots, "lantern", t("Lanterns"))),
    h("span", { class: "dr-stat", title: inventory },
      t("Inventory"), " ", h("span", { "aria-hidden": "true", text: "◆" }), t("Quartz"), " ", h("b", { text: me.quartz }), " · ",
      h("span", { "aria-hidden": "true", text: "∩" }), t("Horseshoes"), " ", h("b", { text: me.horseshoes }),
      h("span", { class: "muted small dr-of", text: t("(of {n} slots)", { n: me.inventory_slots }) }))));
  // Dice: the locked slots with their actions, then the reserves.
  const slots = h("div", { class: "dr-slots" });
  me.locked.forEach((v, i) => {
    const n = i + 1;
    const up = hasUpgrade(words, me, `slot${n}`);
    slots.append(h("div", { class: "dr-slot", title: t("Locked slot {n}: {text}", { n, text: SLOT_TEXT[n](null, up) }) },
      h("span", { class: "dr-slot-n", text: t("Slot {slot}", { slot: n }) }),
      v === null ? h("span", { class: "muted small", text: t("empty") }) : dieChip(v, "night", t("Locked slot {n}: night die showing {value}", { n, value: v })),
      // Slot 1 crafts the good of the die placed on it (the Plan buttons name it), not of
      // the die sitting there now: the slot says what it does, nothing more.
      h("span", { class: "dr-slot-text", "data-testid": "slot-text", text: SLOT_TEXT[n](null, up) })));
  });
  root.append(slots);
  const pool = [];
  if (me.pool.night !== null) pool.push(dieChip(me.pool.night, "night", t("Action pool: night die {value}", { value: me.pool.night })));
  if (me.pool.illuminated !== null) pool.push(dieChip(me.pool.illuminated, "illuminated", t("Action pool: illuminated die {value}", { value: me.pool.illuminated })));
  root.append(h("div", { class: "dr-dice-grid" },
    diceRow(t("Main reserve"), me.reserve, "night", t("Night dice to bump with")),
    h("div", { class: "dr-dice-row" }, h("span", { class: "dr-dice-label", text: t("Action pool") }), h("span", { class: "dr-dice" }, ...(pool.length ? pool : [h("span", { class: "muted small", text: "—" })]))),
    diceRow(t("Special reserve"), me.special, "illuminated", t("Illuminated dice (max 2); each unused one is 1 VP at the end")),
    diceRow(t("Spent"), me.spent, "night", me.removed ? tn("Spent night dice; {n} out of the game", "Spent night dice; {n} out of the game", me.removed) : t("Spent night dice"))));
  if (me.removed) root.append(h("p", { class: "muted small", text: tn("{n} night die has left the game.", "{n} night dice have left the game.", me.removed) }));
  // Storage.
  root.append(h("h3", { text: t("Storage") }));
  storage.render(view, { busy: ctx.busy });
  root.append(storage.root);
  // The goods' letters and colours, named in words (a touch screen has no tooltips).
  root.append(h("p", { class: "dr-goods-key small" },
    ...words.c.board.goods.map((g) => h("span", { class: "dr-goods-key-item" }, goodChip(g.id, words.goodTitle(g.id)), " ", words.goodTitle(g.id)))));
  // Cards.
  const sec = (title, items, empty) => h("div", { class: "dr-sec" }, h("h3", { text: title }),
    items.length ? h("div", { class: "dr-cards" }, ...items) : h("p", { class: "muted small", text: empty }));
  root.append(sec(t("Heroes ({n}/3)", { n: me.heroes.length }), me.heroes.map((id) => heroCard(words, id)), t("No hero rides with you yet.")));
  root.append(sec(t("Commissions ({n}/3)", { n: me.commissions.length }), me.commissions.map((id) => commissionCard(words, id)), t("No commission yet.")));
  root.append(sec(t("Companions"), me.companions.map((x) => companionCard(words, x)), t("No companion yet.")));
  const steeds = me.steeds.map((id) => h("div", { class: "dr-mini-card", title: words.steeds[id]?.flavour || "" },
    h("b", { text: t("Steed: {steed}", { steed: words.steed(id) }) }), h("span", { class: "small", text: words.steedText(words.steeds[id]?.ability) })));
  const ups = me.upgrades.map((id) => h("div", { class: "dr-mini-card" }, h("b", { text: t("Upgrade: {upgrade}", { upgrade: words.upgrade(id) }) }), h("span", { class: "small", text: words.upgrades[id]?.text ?? "" })));
  root.append(sec(t("Steed and upgrades"), [...steeds, ...ups], "—"));
  root.append(sec(t("Your deeds (secret, {n})", { n: (priv.deeds || []).length }), (priv.deeds || []).map((id) => h("div", { class: "dr-mini-card dr-deed-mini" },
    h("b", { text: words.deed(id) }), h("span", { class: "small", text: words.deeds[id]?.text ?? "" }))), t("No deed.")));
  root.append(h("p", { class: "muted small", text: t("Delivered: commissions {commissions}, heroes {heroes}.", { commissions: me.delivered.commissions, heroes: me.delivered.heroes }) }));
}

function miniLabel(words, p) {
  return p.pieces.length ? t("{name}'s storage: {goods}", { name: p.name, goods: p.pieces.map((q) => words.good(q.good, q.up)).join(", ") })
    : t("{name}'s storage: empty", { name: p.name });
}

/** A small drawing of a wagon's storage (other players). */
function miniStorage(words, p) {
  const cell = 12;
  const svg = s("svg", { class: "dr-mini-grid", role: "img", "aria-label": miniLabel(words, p) });
  svg.append(s("title", { text: miniLabel(words, p) }));
  let ox = 0;
  for (const a of p.areas) {
    if (a.name.startsWith("hero:")) continue;
    for (let y = 0; y < a.height; y += 1) for (let x = 0; x < a.width; x += 1) svg.append(s("rect", { x: ox + x * cell, y: y * cell, width: cell, height: cell, class: "dr-cell" }));
    for (const q of p.pieces.filter((pp) => pp.area === a.name)) svg.append(goodShape(words.c, q.good, { up: q.up, o: q.o, cell, x: ox + q.x * cell, y: q.y * cell }));
    ox += a.width * cell + 6;
  }
  const heroGoods = p.pieces.filter((q) => q.area.startsWith("hero:"));
  heroGoods.forEach((q, i) => svg.append(goodShape(words.c, q.good, { up: q.up, o: 0, cell: cell / (cellsOf(words.c, q.good).length > 1 ? 3 : 1), x: ox + i * (cell + 2), y: 0 })));
  svg.setAttribute("viewBox", `-1 -1 ${ox + heroGoods.length * (cell + 2) + 2} ${4 * cell + 2}`);
  return svg;
}

/** Everyone at the table (yourself too, briefly): what the view shows of each wagon. */
export function renderPlayers(root, ctx) {
  const { view, presence } = ctx;
  // Each merchant's card drawn again only when what it shows changed (kit.js keyed); `ctx.room`
  // is the shell's room as the seat tools read it.
  keyed(root, [{ key: "title", node: () => h("h2", { text: t("Merchants") }) }, ...view.players.map((p) => {
    const turn = view.turn?.seat === p.seat && view.status === "playing";
    const waiting = (view.turn?.waiting_for || []).includes(p.seat) && view.status === "playing";
    const key = { p, turn, waiting, me: p.seat === view.seat, coins: p.seat === view.seat ? view.private?.coins ?? null : null,
      tools: ctx.seatTools ? ctx.room : presence?.[p.seat] ?? null };
    return { key: JSON.stringify(key), node: () => playerCard(p, turn, waiting, ctx) };
  })]);
}

function playerCard(p, turn, waiting, ctx) {
  const { view, words, presence } = ctx;
  {
    const card = h("article", { class: `dr-player${turn ? " turn" : ""}`, "data-seat": p.seat, "aria-label": p.name });
    card.style.setProperty("--seat", seatColour(p.seat));
    card.append(h("div", { class: "dr-player-head" }, seatBadge(p.seat, 20, t("{name}'s mark", { name: p.name })),
      h("b", { class: "dr-player-name", text: p.name }),
      p.seat === view.seat ? h("span", { class: "tag you", text: t("you") }) : null,
      turn ? h("span", { class: "tag turn-tag", text: t("turn") }) : null,
      waiting && !turn ? h("span", { class: "tag turn-tag", text: t("choosing") }) : null,
      ctx.seatTools ? ctx.seatTools(p.seat)
        : presence && presence[p.seat] === false ? h("span", { class: "tag", text: t("away") }) : null));
    // Icons carry a visible word beside them (touch has no hover): ★ prestige, ◆ quartz, ∩ horseshoes.
    card.append(h("div", { class: "dr-player-stats" },
      h("span", { title: t("Prestige") }, h("span", { "aria-hidden": "true", text: "★ " }), t("Prestige"), " ", h("b", { text: p.prestige })),
      h("span", { title: t("Coins are behind the player's screen") }, t("Coins"), " ", h("b", { text: p.seat === view.seat ? view.private?.coins ?? "?" : t("hidden") })),
      h("span", { title: t("Lanterns ({n} slots)", { n: p.lantern_slots }) }, t("Lanterns"), " ", h("b", { text: p.lanterns })),
      h("span", { title: t("Blazing quartz") }, h("span", { "aria-hidden": "true", text: "◆ " }), t("Quartz"), " ", h("b", { text: p.quartz })),
      h("span", { title: t("Horseshoes") }, h("span", { "aria-hidden": "true", text: "∩ " }), t("Horseshoes"), " ", h("b", { text: p.horseshoes })),
      h("span", { title: t("Deeds (secret until the end)") }, t("Deeds"), " ", h("b", { text: p.deed_count })),
      h("span", { title: t("Illuminated dice in the special reserve") }, t("Illum."), " ", h("b", { text: p.special.length })),
      h("span", { title: t("Night dice left in the main reserve") }, t("Reserve"), " ", h("b", { text: p.reserve.length }))));
    const line = [];
    if (p.heroes.length) line.push(t("Heroes: {heroes}", { heroes: p.heroes.map((x) => t("{hero} (→ {town})", { hero: words.hero(x), town: words.town(words.heroTownOf(x)) })).join(", ") }));
    if (p.commissions.length) line.push(t("Commissions: {towns}", { towns: p.commissions.map((x) => words.town(words.commissions[x]?.town)).join(", ") }));
    if (p.companions.length) line.push(t("Companions: {companions}", { companions: p.companions.map((x) => words.companion(x.id)).join(", ") }));
    const steedsText = p.steeds.map((x) => words.steed(x)).join(", ");
    const n = p.steeds.length;
    line.push(p.upgrades.length
      ? tn("Steed: {steeds}; upgrades: {upgrades}", "Steeds: {steeds}; upgrades: {upgrades}", n, { steeds: steedsText, upgrades: p.upgrades.map((u) => words.upgrade(u)).join(", ") })
      : tn("Steed: {steeds}", "Steeds: {steeds}", n, { steeds: steedsText }));
    card.append(h("div", { class: "dr-player-body" }, miniStorage(words, p), h("div", { class: "small dr-player-lines" }, ...line.map((l) => h("p", { text: l })))));
    return card;
  }
}

/** Your wagon in a sheet of its own on narrow screens: opened by a button in the flow of
 *  the page (nothing floats over the board or the actions), closed by the sheet's own bar
 *  or Escape (focus back on the button). `body` is where the wagon is drawn. */
export class WagonSheet {
  constructor(section) {
    this.section = section;
    this.toggle = h("button", { type: "button", class: "btn dr-wagon-toggle", "aria-controls": section.id, "aria-expanded": "false",
      "data-testid": "wagon-toggle" }, t("Your wagon"));
    this.close = h("button", { type: "button", class: "btn small dr-wagon-close", "data-testid": "wagon-close" }, t("Back to the board"));
    this.body = h("div", { class: "dr-wagon-body" });
    section.append(h("div", { class: "dr-wagon-bar" }, this.close), this.body);
    this.toggle.addEventListener("click", () => this.set(!this.isOpen(), true));
    this.close.addEventListener("click", () => this.set(false, true));
    this.onEscape = (e) => { if (e.key === "Escape" && this.isOpen()) this.set(false, true); };
    document.addEventListener("keydown", this.onEscape);
  }

  isOpen() { return document.body.classList.contains("dr-wagon-open"); }

  set(open, focus = false) {
    document.body.classList.toggle("dr-wagon-open", open);
    this.toggle.setAttribute("aria-expanded", String(open));
    if (focus) (open ? this.close : this.toggle).focus();
  }

  /** Shown for a seated player (`storing`: a good waits to be stored, said on the button). */
  show(seated, storing = false) {
    this.section.hidden = !seated;
    this.toggle.hidden = !seated;
    this.toggle.classList.toggle("attention", seated && storing);
  }

  destroy() {
    this.toggle.remove();
    document.removeEventListener("keydown", this.onEscape);
    document.body.classList.remove("dr-wagon-open");
  }
}
