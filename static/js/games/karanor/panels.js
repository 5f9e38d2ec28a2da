// Player panels (everyone's public state), the viewer's own hand, and the table.
import { actionButton, legalOf } from "../../legal.js";
import { cardBody } from "./actions.js";
import { promisedNode } from "./offers.js";
import { amount, clear, h, icon, seatBadge, seatColour, seatShape } from "../../util.js";
import { RESOURCES } from "./goods.js";

/** One panel per player: gold, prestige, revenue, resources, partners, badges... */
export function renderPlayers(root, ctx) {
  const { view, words, presence } = ctx;
  clear(root);
  const end = view.board?.end_prestige;
  for (const p of view.players || []) {
    const isMe = p.seat === view.seat;
    const draft = view.turn?.phase === "draft";
    const turn = view.turn?.seat === p.seat && view.status === "playing" && !draft;
    const choosing = view.turn?.pending?.seat === p.seat && view.status === "playing";
    const drafting = draft && view.turn?.drafted && !view.turn.drafted[p.seat];
    const online = presence?.[p.seat];
    const panel = h("article", {
      class: `card player${isMe ? " me" : ""}${turn ? " turn" : ""}`,
      "aria-label": `${p.name}${isMe ? " (you)" : ""}`,
      "data-seat": p.seat,
    });
    panel.style.setProperty("--seat", seatColour(p.seat));
    const head = h("header", { class: "player-head" },
      seatBadge(p.seat, 22, `${seatShape(p.seat)} pawn`),
      h("h3", { class: "player-name", text: p.name }),
      isMe ? h("span", { class: "tag", text: "you" }) : null,
      turn ? h("span", { class: "tag turn-tag", text: "playing" }) : null,
      drafting ? h("span", { class: "tag", text: "picking" }) : null,
      choosing && !turn ? h("span", { class: "tag", text: "choosing" }) : null,
      online === undefined ? null
        : h("span", { class: `presence ${online ? "on" : "off"}`, title: online ? "connected" : "away",
          "aria-label": online ? "connected" : "away" }),
      ctx.seatTools?.(p.seat));
    panel.append(head);

    const stats = h("div", { class: "stats" },
      h("span", { class: "stat" }, amount(p.gold, "gold")),
      h("span", { class: "stat", title: `Prestige; the game ends at ${end}` },
        amount(p.prestige, "prestige"),
        h("span", { class: "of-end", text: `/${end}` }),
        view.turn?.end_triggered_by === p.seat ? h("span", { class: "tag end-tag", text: "ended it" }) : null),
      h("span", { class: "stat", title: "Revenue each turn" }, amount(`+${p.revenue}`, "revenue")),
      h("span", { class: "stat where", text: words.place(p.position) }));
    panel.append(stats);
    panel.append(prestigeTrack(p.prestige, end));

    const res = h("div", { class: "resources", "aria-label": "Resources" });
    for (const r of RESOURCES) {
      const n = p.resources?.[r] ?? 0;
      if (n || isMe) res.append(h("span", { class: `res${n ? "" : " zero"}` }, amount(n, r)));
    }
    if (!res.children.length) res.append(h("span", { class: "muted", text: "no resources" }));
    panel.append(res);
    if (isMe) {
      const pledged = promisedNode(view, words, { compact: true });
      if (pledged) panel.append(pledged);
    }

    const extras = h("div", { class: "chips" });
    for (const partner of p.partners || []) {
      const promote = isMe ? legalOf(view, "promote_partner").find((c) => c.resource === partner.resource) : null;
      const chip = h("span", {
        class: `chip partner${partner.promoted ? " promoted" : ""}`,
        title: partner.promoted ? "Promoted partner: 1 gold each turn" : `Partner: 1 ${partner.resource} each turn`,
      }, icon(partner.resource), partner.promoted ? `${partner.resource} partner ★` : `${partner.resource} partner`);
      extras.append(chip);
      if (promote) extras.append(actionButton(ctx, promote, "Promote", { cls: "btn small", title: "Promote: 1 gold each turn instead of the resource" }));
    }
    for (const b of p.badges || []) {
      const card = view && ctx.content.catalogue.badges?.[b];
      extras.append(h("span", { class: "chip badge", title: card?.text || "" }, `◈ ${card?.name ?? b}`));
    }
    for (const a of p.artifacts || []) {
      const card = ctx.content.catalogue.artifacts?.[a];
      extras.append(h("span", { class: "chip artifact", title: card?.text || "" }, `✦ ${card?.name ?? a}`));
      const use = isMe ? legalOf(view, "use_artifact").find((c) => c.artifact === a) : null;
      if (use) extras.append(actionButton(ctx, use, "Use", { cls: "btn small", title: card?.text }));
    }
    for (const v of p.villas || []) {
      extras.append(h("span", { class: "chip villa-chip" }, icon("villa"), words.villa(v)));
    }
    if (extras.children.length) panel.append(extras);

    // "Quests shown to everyone": the view gives each player's quests; show them.
    if (!isMe && Array.isArray(p.quests)) {
      const quests = h("div", { class: "public-quests", "data-testid": "public-quests" },
        h("strong", { class: "small", text: `Quests (${p.quests.length}): ` }));
      if (!p.quests.length) quests.append(h("span", { class: "muted small", text: "none" }));
      for (const id of p.quests) {
        const card = ctx.content.catalogue.quests?.[id];
        quests.append(h("span", { class: "chip quest-chip", title: card?.text || "" },
          card?.name ?? id, card?.prestige ? h("span", { class: "muted", text: ` · ${card.prestige}★` }) : null,
          card?.place ? h("span", { class: "muted", text: ` · ${words.place(card.place)}` }) : null));
      }
      panel.append(quests);
    }

    const cities = (p.businesses || []).map((b) => words.place(b.city) + (b.card ? "" : " (home)"));
    const hc = p.hand_counts || {};
    panel.append(h("p", { class: "small muted" },
      `Businesses: ${cities.join(", ") || "none"}. In hand: ${hc.business ?? 0} business, ${hc.quests ?? 0} quest${hc.quests === 1 ? "" : "s"}, ${hc.black_market ?? 0} black-market.`));
    root.append(panel);
  }
}

function prestigeTrack(value, end) {
  const max = Math.max(end || 10, value);
  const track = h("div", { class: "ptrack", role: "img", "aria-label": `${value} of ${end} prestige` });
  for (let i = 1; i <= max; i += 1) {
    track.append(h("span", { class: `pt${i <= value ? " on" : ""}${i === end ? " end" : ""}` }));
  }
  return track;
}

/** The viewer's own cards, with the commands each allows. */
export function renderHand(root, ctx) {
  const { view, content, words } = ctx;
  clear(root);
  const priv = view.private;
  if (!priv) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  root.append(h("h2", { text: "Your cards" }));
  const cat = content.catalogue;

  const section = (title, items, empty) => {
    const sec = h("section", { class: "hand-section" }, h("h3", { text: `${title} (${items.length})` }));
    if (!items.length) sec.append(h("p", { class: "muted small", text: empty }));
    const row = h("div", { class: "card-row" });
    items.forEach((node) => row.append(node));
    sec.append(row);
    root.append(sec);
  };

  section("Businesses", (priv.business_cards || []).map((id) => {
    const card = cat.business[id] || { name: id };
    const node = h("div", { class: "game-card business-card" }, cardBody(card));
    for (const cmd of legalOf(view, "build").filter((c) => c.card === id)) {
      node.append(actionButton(ctx, cmd, cmd.bonus ? "Build with bonus" : "Build here", { cls: "btn primary small" }));
    }
    return node;
  }), "No business cards.");

  section(`Quests (limit ${priv.quest_limit ?? 3})`, (priv.quests || []).map((id) => {
    const card = cat.quests[id] || { name: id };
    const node = h("div", { class: "game-card quest-card" }, cardBody(card));
    if (card.place) node.append(h("p", { class: "small", text: `Where: ${words.place(card.place)}` }));
    if (card.prestige) node.append(h("p", { class: "small" }, amount(card.prestige, "prestige"), " on completion"));
    for (const cmd of legalOf(view, "complete_quest").filter((c) => c.card === id)) {
      const label = card.options?.length > 1 ? `Complete: ${card.options[cmd.option]}` : "Complete";
      node.append(actionButton(ctx, cmd, label, { cls: "btn primary small" }));
    }
    return node;
  }), "No quests. Meet inhabitants to get some.");

  section("Black market", (priv.black_market || []).map((id) => {
    const card = cat.black_market[id] || { name: id };
    const node = h("div", { class: "game-card bm-card" }, cardBody(card));
    const plays = legalOf(view, "play_black_market").filter((c) => c.card === id);
    for (const cmd of plays) node.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn primary small" }));
    if (!plays.length) node.append(h("p", { class: "small muted", text: "Not playable right now." }));
    return node;
  }), "No black-market cards (you get one at 3 and 6 prestige).");
}

/** Shared table: the delivery, the business display, free partners, decks. */
export function renderTable(root, ctx) {
  const { view, content, words } = ctx;
  const b = view.board || {};
  const cat = content.catalogue;
  clear(root);
  root.append(h("h2", { text: "On the table" }));
  const d = b.delivery ? cat.deliveries?.[b.delivery] : null;
  root.append(h("p", {}, h("strong", { text: "Delivery: " }), d ? d.text : "none left",
    h("span", { class: "muted", text: ` (${b.deliveries_left ?? 0} more)` })));
  if ((b.business_display || []).length) {
    root.append(h("p", {}, h("strong", { text: "Business display: " }),
      b.business_display.map((id) => words.card("business", id)).join(", ")));
  }
  root.append(h("p", {}, h("strong", { text: "Partners to recruit: " }),
    (b.partners_free || []).join(", ") || "none", ` (${content.rules.partner_cost} gold)`));
  if (b.market) {
    const m = h("p", {}, h("strong", { text: "Market: " }));
    for (const [r, n] of Object.entries(b.market)) m.append(h("span", { class: "res" }, amount(n, r)));
    root.append(m);
  }
  const supply = h("p", { class: "supply" }, h("strong", { text: "Supply: " }));
  for (const r of RESOURCES) supply.append(h("span", { class: "res" }, amount(b.supply?.[r] ?? 0, r)));
  root.append(supply);
}
