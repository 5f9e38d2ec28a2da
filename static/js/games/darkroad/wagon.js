// Your wagon (dice, lanterns, inventory, heroes, commissions, companions, steed, upgrades,
// deeds, coins behind your screen, and the storage grid) and the other players' wagons
// as far as the view shows them.
import { clear, h, s, seatBadge, seatColour } from "../../util.js";
import { cellsOf, dieChip, goodChip, goodShape } from "./draw.js";

const SLOT_TEXT = {
  1: (c, up) => (up ? "Craft an upgraded good" : "Craft a good"),
  2: (c, up) => (up ? "Lantern + illuminated die" : "Lantern or illuminated die"),
  3: (c, up) => (up ? "3 coins or 1 prestige" : "2 coins or rotate the wheel"),
};

function hasUpgrade(words, p, kind) {
  return (p.upgrades || []).some((u) => words.upgrades[u]?.kind === kind);
}

function pips(n, max, cls, label) {
  const box = h("span", { class: `dr-pips ${cls}`, title: `${label}: ${n} of ${max}`, role: "img", "aria-label": `${label}: ${n} of ${max}` });
  for (let i = 0; i < max; i += 1) box.append(h("span", { class: `dr-pip${i < n ? " on" : ""}` }));
  return box;
}

export function heroCard(words, id, extra) {
  const hero = words.heroes[id];
  if (!hero) return h("div", { class: "dr-mini-card", text: id });
  const town = words.heroTownOf(id);
  const bonus = { lantern: "lantern", horseshoe: "horseshoe", storage: "stores 1 good", none: "" }[hero.bonus];
  return h("div", { class: "dr-mini-card dr-hero-mini", title: `${hero.name}: ${hero.type} travelling to ${words.town(town)}; requests ${hero.requests.map((g) => words.good(g)).join(", ")}${bonus ? `; bonus: ${bonus}` : ""}` },
    h("b", { text: hero.name }),
    h("span", { class: "small", text: `${hero.type} → ${words.town(town)}` }),
    h("span", { class: "dr-req" }, ...hero.requests.map((g) => goodChip(g, words.goodTitle(g)))),
    extra || null);
}

export function commissionCard(words, id, extra) {
  const k = words.commissions[id];
  if (!k) return h("div", { class: "dr-mini-card", text: id });
  return h("div", { class: "dr-mini-card dr-comm-mini", title: `${k.name}: ${k.requests.map((g) => words.good(g)).join(", ")} to ${words.town(k.town)}` },
    h("b", { text: `→ ${words.town(k.town)}` }),
    h("span", { class: "dr-req" }, ...k.requests.map((g) => goodChip(g, words.goodTitle(g)))),
    extra || null);
}

function companionCard(words, x) {
  const comp = words.companions[x.id];
  return h("div", { class: `dr-mini-card${comp?.kind === "stray" ? " stray" : ""}`, title: comp?.flavour || "" },
    h("b", { text: comp?.name ?? x.id }),
    h("span", { class: "small", text: `${comp?.kind ?? ""}; gift: ${comp?.gift ?? "?"}` }),
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
  root.append(h("h2", {}, seatBadge(me.seat, 20, "your seat"), " Your wagon"));
  root.append(h("div", { class: "dr-wagon-stats" },
    h("span", { class: "dr-stat", title: "Coins, behind your screen: only you see them" }, "Coins ", h("b", { text: priv.coins ?? "?" }), h("span", { class: "muted small", text: " (hidden)" })),
    h("span", { class: "dr-stat", title: "Prestige (public)" }, "Prestige ", h("b", { text: me.prestige })),
    h("span", { class: "dr-stat", title: `Lanterns: ${me.lanterns} of ${me.lantern_slots} slots` }, "Lanterns ", pips(me.lanterns, me.lantern_slots, "lantern", "Lanterns")),
    h("span", { class: "dr-stat", title: `Inventory: ${me.quartz} blazing quartz, ${me.horseshoes} horseshoes, ${me.inventory_slots} slots` },
      "Inventory ", h("b", { text: `◆${me.quartz}` }), " ", h("b", { text: `∩${me.horseshoes}` }), h("span", { class: "muted small", text: ` /${me.inventory_slots}` }))));
  // Dice: the locked slots with their actions, then the reserves.
  const slots = h("div", { class: "dr-slots" });
  me.locked.forEach((v, i) => {
    const n = i + 1;
    const up = hasUpgrade(words, me, `slot${n}`);
    slots.append(h("div", { class: "dr-slot", title: `Locked slot ${n}: ${SLOT_TEXT[n](null, up)}` },
      h("span", { class: "dr-slot-n", text: `Slot ${n}` }),
      v === null ? h("span", { class: "muted small", text: "empty" }) : dieChip(v, "night", `Locked slot ${n}: night die showing ${v}`),
      h("span", { class: "dr-slot-text", text: n === 1 && v !== null && !up ? `craft ${words.good(words.c.board.crafting[String(v)])}` : SLOT_TEXT[n](null, up) })));
  });
  root.append(slots);
  const pool = [];
  if (me.pool.night !== null) pool.push(dieChip(me.pool.night, "night", `Action pool: night die ${me.pool.night}`));
  if (me.pool.illuminated !== null) pool.push(dieChip(me.pool.illuminated, "illuminated", `Action pool: illuminated die ${me.pool.illuminated}`));
  root.append(h("div", { class: "dr-dice-grid" },
    diceRow("Main reserve", me.reserve, "night", "Night dice to bump with"),
    h("div", { class: "dr-dice-row" }, h("span", { class: "dr-dice-label", text: "Action pool" }), h("span", { class: "dr-dice" }, ...(pool.length ? pool : [h("span", { class: "muted small", text: "—" })]))),
    diceRow("Special reserve", me.special, "illuminated", "Illuminated dice (max 2); each unused one is 1 VP at the end"),
    diceRow("Spent", me.spent, "night", `Spent night dice${me.removed ? `; ${me.removed} out of the game` : ""}`)));
  if (me.removed) root.append(h("p", { class: "muted small", text: `${me.removed} night ${me.removed === 1 ? "die has" : "dice have"} left the game.` }));
  // Storage.
  root.append(h("h3", { text: "Storage" }));
  storage.render(view, { busy: ctx.busy });
  root.append(storage.root);
  // Cards.
  const sec = (title, items, empty) => h("div", { class: "dr-sec" }, h("h3", { text: title }),
    items.length ? h("div", { class: "dr-cards" }, ...items) : h("p", { class: "muted small", text: empty }));
  root.append(sec(`Heroes (${me.heroes.length}/3)`, me.heroes.map((id) => heroCard(words, id)), "No hero rides with you yet."));
  root.append(sec(`Commissions (${me.commissions.length}/3)`, me.commissions.map((id) => commissionCard(words, id)), "No commission yet."));
  root.append(sec("Companions", me.companions.map((x) => companionCard(words, x)), "No companion yet."));
  const steeds = me.steeds.map((id) => h("div", { class: "dr-mini-card", title: words.steeds[id]?.flavour || "" },
    h("b", { text: `Steed: ${words.steed(id)}` }), h("span", { class: "small", text: steedText(words.steeds[id]?.ability) })));
  const ups = me.upgrades.map((id) => h("div", { class: "dr-mini-card" }, h("b", { text: `Upgrade: ${words.upgrade(id)}` }), h("span", { class: "small", text: words.upgrades[id]?.text ?? "" })));
  root.append(sec("Steed and upgrades", [...steeds, ...ups], "—"));
  root.append(sec(`Your deeds (secret, ${(priv.deeds || []).length})`, (priv.deeds || []).map((id) => h("div", { class: "dr-mini-card dr-deed-mini" },
    h("b", { text: words.deed(id) }), h("span", { class: "small", text: words.deeds[id]?.text ?? "" }))), "No deed."));
  root.append(h("p", { class: "muted small", text: `Delivered: ${me.delivered.commissions} commissions, ${me.delivered.heroes} heroes.` }));
}

export function steedText(ability) {
  return {
    bazaar_discount: "$2 off at the Bazaar", any_building: "an illuminated die activates any building",
    excursion_lantern: "a lantern at Yurg's Excursions", move_three: "may move exactly 3; a 2x2 saddle bag",
    many_upgrades: "any number of upgrades, +2 prestige each", travel_plus_one: "+1 on your travel die",
    commission_quartz: "a quartz per upgraded good delivered",
  }[ability] ?? ability ?? "";
}

/** A small drawing of a wagon's storage (other players). */
function miniStorage(words, p) {
  const cell = 12;
  const svg = s("svg", { class: "dr-mini-grid", role: "img", "aria-label": `${p.name}'s storage: ${p.pieces.length ? p.pieces.map((q) => words.good(q.good, q.up)).join(", ") : "empty"}` });
  svg.append(s("title", { text: `${p.name}'s storage: ${p.pieces.length ? p.pieces.map((q) => words.good(q.good, q.up)).join(", ") : "empty"}` }));
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
  const { view, words, presence } = ctx;
  clear(root);
  root.append(h("h2", { text: "Merchants" }));
  for (const p of view.players) {
    const turn = view.turn?.seat === p.seat && view.status === "playing";
    const waiting = (view.turn?.waiting_for || []).includes(p.seat) && view.status === "playing";
    const card = h("article", { class: `dr-player${turn ? " turn" : ""}`, "data-seat": p.seat, "aria-label": p.name });
    card.style.setProperty("--seat", seatColour(p.seat));
    card.append(h("div", { class: "dr-player-head" }, seatBadge(p.seat, 20, `${p.name}'s mark`),
      h("b", { class: "dr-player-name", text: p.name }),
      p.seat === view.seat ? h("span", { class: "tag you", text: "you" }) : null,
      turn ? h("span", { class: "tag turn-tag", text: "turn" }) : null,
      waiting && !turn ? h("span", { class: "tag turn-tag", text: "choosing" }) : null,
      ctx.seatTools ? ctx.seatTools(p.seat)
        : presence && presence[p.seat] === false ? h("span", { class: "tag", text: "away" }) : null));
    card.append(h("div", { class: "dr-player-stats" },
      h("span", { title: "Prestige" }, "★ ", h("b", { text: p.prestige })),
      h("span", { title: "Coins are behind the player's screen" }, "Coins ", h("b", { text: p.seat === view.seat ? view.private?.coins ?? "?" : "hidden" })),
      h("span", { title: `Lanterns (${p.lantern_slots} slots)` }, "Lanterns ", h("b", { text: p.lanterns })),
      h("span", { title: "Blazing quartz" }, "◆ ", h("b", { text: p.quartz })),
      h("span", { title: "Horseshoes" }, "∩ ", h("b", { text: p.horseshoes })),
      h("span", { title: "Deeds (secret until the end)" }, "Deeds ", h("b", { text: p.deed_count })),
      h("span", { title: "Illuminated dice in the special reserve" }, "Illum. ", h("b", { text: p.special.length })),
      h("span", { title: "Night dice left in the main reserve" }, "Reserve ", h("b", { text: p.reserve.length }))));
    const line = [];
    if (p.heroes.length) line.push(`Heroes: ${p.heroes.map((x) => `${words.hero(x)} (→ ${words.town(words.heroTownOf(x))})`).join(", ")}`);
    if (p.commissions.length) line.push(`Commissions: ${p.commissions.map((x) => words.town(words.commissions[x]?.town)).join(", ")}`);
    if (p.companions.length) line.push(`Companions: ${p.companions.map((x) => words.companion(x.id)).join(", ")}`);
    line.push(`Steed: ${p.steeds.map((x) => words.steed(x)).join(", ")}${p.upgrades.length ? `; upgrades: ${p.upgrades.map((u) => words.upgrade(u)).join(", ")}` : ""}`);
    card.append(h("div", { class: "dr-player-body" }, miniStorage(words, p), h("div", { class: "small dr-player-lines" }, ...line.map((l) => h("p", { text: l })))));
    root.append(card);
  }
}
