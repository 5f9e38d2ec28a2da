// Player panels (everyone's public state), the viewer's own hand, and the table.
import { actionButton, legalOf } from "../../legal.js";
import { cardBody } from "./actions.js";
import { promisedNode } from "./offers.js";
import { amount, clear, h, icon, presenceDot, seatBadge, seatColour } from "../../util.js";
import { t, tn } from "../../i18n.js";
import { keyed } from "../../kit.js";
import { RESOURCES, goodName } from "./goods.js";

/** A seat's shape in words ("circle pawn"...). */
function shapeWords(seat) {
  switch (seat % 6) {
    case 0: return t("circle pawn");
    case 1: return t("square pawn");
    case 2: return t("triangle pawn");
    case 3: return t("diamond pawn");
    case 4: return t("hexagon pawn");
    default: return t("star pawn");
  }
}
export { shapeWords };

/** One panel per player: gold, prestige, revenue, resources, partners, badges... Each
 *  panel is drawn again only when what it shows changed (kit.js keyed): `ctx.room` is the
 *  shell's room as the seat tools read it. */
export function renderPlayers(root, ctx) {
  const { view } = ctx;
  keyed(root, (view.players || []).map((p) => {
    const flags = panelFlags(p, ctx);
    const key = { p, ...flags, end: view.board?.end_prestige, endedIt: view.turn?.end_triggered_by === p.seat,
      room: ctx.seatTools ? ctx.room : null,
      mine: flags.isMe ? { busy: ctx.busy, offers: view.offers, tradeable: view.private?.tradeable,
        legal: (view.legal_actions || []).filter((a) => a.type === "promote_partner" || a.type === "use_artifact") } : null };
    return { key: JSON.stringify(key), node: () => playerPanel(p, flags, ctx) };
  }));
}

function panelFlags(p, { view, presence }) {
  const draft = view.turn?.phase === "draft";
  return {
    isMe: p.seat === view.seat,
    turn: view.turn?.seat === p.seat && view.status === "playing" && !draft,
    choosing: view.turn?.pending?.seat === p.seat && view.status === "playing",
    drafting: Boolean(draft && view.turn?.drafted && !view.turn.drafted[p.seat]),
    online: presence?.[p.seat],
  };
}

function playerPanel(p, { isMe, turn, choosing, drafting, online }, ctx) {
  const { view, words } = ctx;
  const end = view.board?.end_prestige;
  {
    const panel = h("article", {
      class: `card player${isMe ? " me" : ""}${turn ? " turn" : ""}`,
      "aria-label": isMe ? t("{name} (you)", { name: p.name }) : p.name,
      "data-seat": p.seat,
    });
    panel.style.setProperty("--seat", seatColour(p.seat));
    const head = h("header", { class: "player-head" },
      seatBadge(p.seat, 22, shapeWords(p.seat)),
      h("h3", { class: "player-name", text: p.name }),
      isMe ? h("span", { class: "tag", text: t("you") }) : null,
      turn ? h("span", { class: "tag turn-tag", text: t("playing") }) : null,
      drafting ? h("span", { class: "tag", text: t("picking") }) : null,
      choosing && !turn ? h("span", { class: "tag", text: t("choosing") }) : null,
      online === undefined ? null : presenceDot(online, { away: t("away") }),
      ctx.seatTools?.(p.seat));
    panel.append(head);

    const stats = h("div", { class: "stats" },
      h("span", { class: "stat" }, amount(p.gold, "gold", t("gold"))),
      h("span", { class: "stat" },
        amount(p.prestige, "prestige", t("Prestige; the game ends at {n}", { n: end })),
        h("span", { class: "of-end", text: `/${end}` }),
        view.turn?.end_triggered_by === p.seat ? h("span", { class: "tag end-tag", text: t("ended it") }) : null),
      h("span", { class: "stat" }, amount(`+${p.revenue}`, "revenue", t("Revenue each turn"))),
      h("span", { class: "stat where", text: words.place(p.position) }));
    panel.append(stats);
    panel.append(prestigeTrack(p.prestige, end));

    const res = h("div", { class: "resources" });
    for (const r of RESOURCES) {
      const n = p.resources?.[r] ?? 0;
      if (n || isMe) res.append(h("span", { class: `res${n ? "" : " zero"}` }, amount(n, r, goodName(r))));
    }
    if (!res.children.length) res.append(h("span", { class: "muted", text: t("no resources") }));
    panel.append(res);
    if (isMe) {
      const pledged = promisedNode(view, words, { compact: true });
      if (pledged) panel.append(pledged);
    }

    const extras = h("div", { class: "chips" });
    for (const partner of p.partners || []) {
      const promote = isMe ? legalOf(view, "promote_partner").find((c) => c.resource === partner.resource) : null;
      const resource = goodName(partner.resource);
      const chip = h("span", {
        class: `chip partner${partner.promoted ? " promoted" : ""}`,
        "data-tip": partner.promoted ? t("Promoted partner: 1 gold each turn")
          : t("Partner: 1 {resource} each turn", { resource }),
      }, icon(partner.resource), partner.promoted ? t("{resource} partner ★", { resource })
        : t("{resource} partner", { resource }));
      extras.append(chip);
      if (promote) {
        extras.append(actionButton(ctx, promote, t("Promote: 1 gold each turn instead of the resource"),
          { cls: "btn small", children: [h("span", { text: t("Promote") })] }));
      }
    }
    for (const b of p.badges || []) {
      const card = view && ctx.content.catalogue.badges?.[b];
      extras.append(h("span", { class: "chip badge", "data-tip": card?.text || null, tabindex: card?.text ? 0 : null },
        icon("badge", t("badge")), card?.name ?? b));
    }
    for (const a of p.artifacts || []) {
      const card = ctx.content.catalogue.artifacts?.[a];
      extras.append(h("span", { class: "chip artifact", "data-tip": card?.text || null, tabindex: card?.text ? 0 : null },
        icon("artifact", t("artifact")), card?.name ?? a));
      const use = isMe ? legalOf(view, "use_artifact").find((c) => c.artifact === a) : null;
      if (use) {
        extras.append(actionButton(ctx, use, words.command(use, view),
          { cls: "btn small", children: [h("span", { text: t("Use") })] }));
      }
    }
    for (const v of p.villas || []) {
      extras.append(h("span", { class: "chip villa-chip" }, icon("villa", t("villa")), words.villa(v)));
    }
    if (extras.children.length) panel.append(extras);

    // "Quests shown to everyone": the view gives each player's quests; show them.
    if (!isMe && Array.isArray(p.quests)) {
      const quests = h("div", { class: "public-quests", "data-testid": "public-quests" },
        h("strong", { class: "small", text: `${t("Quests ({n}):", { n: p.quests.length })} ` }));
      if (!p.quests.length) quests.append(h("span", { class: "muted small", text: t("none") }));
      for (const id of p.quests) {
        const card = ctx.content.catalogue.quests?.[id];
        quests.append(h("span", { class: "chip quest-chip", "data-tip": card?.text || null, tabindex: card?.text ? 0 : null },
          card?.name ?? id, card?.prestige ? h("span", { class: "muted", text: ` · ${card.prestige}★` }) : null,
          card?.place ? h("span", { class: "muted", text: ` · ${words.place(card.place)}` }) : null));
      }
      panel.append(quests);
    }

    const cities = (p.businesses || []).map((b) => (b.card ? words.place(b.city) : t("{place} (home)", { place: words.place(b.city) })));
    const hc = p.hand_counts || {};
    const hand = [tn("{n} business", "{n} businesses", hc.business ?? 0), tn("{n} quest", "{n} quests", hc.quests ?? 0),
      tn("{n} black-market card", "{n} black-market cards", hc.black_market ?? 0)].join(", ");
    panel.append(h("p", { class: "small muted" },
      t("Businesses: {cities}. In hand: {hand}.", { cities: cities.join(", ") || t("none"), hand })));
    return panel;
  }
}

function prestigeTrack(value, end) {
  const max = Math.max(end || 10, value);
  const track = h("div", { class: "ptrack", role: "img", "aria-label": tn("{n} of {end} prestige", "{n} of {end} prestige", value, { end }) });
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
  root.append(h("h2", { text: t("Your cards") }));
  const cat = content.catalogue;

  const section = (title, items, empty) => {
    const sec = h("section", { class: "hand-section" }, h("h3", { text: t("{title} ({n})", { title, n: items.length }) }));
    if (!items.length) sec.append(h("p", { class: "muted small", text: empty }));
    const row = h("div", { class: "card-row" });
    items.forEach((node) => row.append(node));
    sec.append(row);
    root.append(sec);
  };

  section(t("Businesses"), (priv.business_cards || []).map((id) => {
    const card = cat.business[id] || { name: id };
    const node = h("div", { class: "game-card business-card" }, cardBody(card));
    for (const cmd of legalOf(view, "build").filter((c) => c.card === id)) {
      node.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn primary small",
        children: [h("span", { text: cmd.bonus ? t("Build with bonus") : t("Build here") })] }));
    }
    return node;
  }), t("No business cards."));

  section(t("Quests (limit {n})", { n: priv.quest_limit ?? 3 }), (priv.quests || []).map((id) => {
    const card = cat.quests[id] || { name: id };
    const node = h("div", { class: "game-card quest-card" }, cardBody(card));
    if (card.place) node.append(h("p", { class: "small", text: t("Where: {place}", { place: words.place(card.place) }) }));
    if (card.prestige) node.append(h("p", { class: "small" }, amount(card.prestige, "prestige", t("prestige")), ` ${t("on completion")}`));
    const can = legalOf(view, "complete_quest").filter((c) => c.card === id);
    for (const cmd of can) {
      const label = card.options?.length > 1 ? t("Complete: {option}", { option: card.options[cmd.option] }) : t("Complete");
      node.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn primary small", children: [h("span", { text: label })] }));
    }
    // The options you cannot take now, greyed, with the reason.
    const myTurn = view.status === "playing" && view.turn?.seat === view.seat && view.turn?.phase !== "draft";
    (myTurn ? card.options || [] : []).forEach((option, i) => {
      if (can.some((c) => c.option === i)) return;
      const label = card.options.length > 1 ? t("Complete: {option}", { option }) : t("Complete");
      node.append(h("button", { type: "button", class: "btn small unaffordable", disabled: true,
        "data-testid": "quest-unavailable", "data-option": i }, label),
      h("p", { class: "small muted why-not", text: questWhyNot(view, card, words) }));
    });
    return node;
  }), t("No quests. Meet inhabitants to get some."));

  section(t("Black market"), (priv.black_market || []).map((id) => {
    const card = cat.black_market[id] || { name: id };
    const node = h("div", { class: "game-card bm-card" }, cardBody(card));
    const plays = legalOf(view, "play_black_market").filter((c) => c.card === id);
    for (const cmd of plays) node.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn primary small" }));
    if (!plays.length) node.append(h("p", { class: "small muted", text: t("Not playable right now.") }));
    return node;
  }), t("No black-market cards (you get one at 3 and 6 prestige)."));
}

/** Why a quest cannot be completed now, in words (the engine lists what can be). */
function questWhyNot(view, card, words) {
  const me = view.players?.[view.seat];
  const turn = view.turn || {};
  if (turn.pending) return t("Make the pending choice first.");
  if (!turn.actions_left) return t("No action left this turn.");
  if (card.place && me?.position !== card.place) return t("You must be at {place}.", { place: words.placeN(card.place) });
  return t("You lack what it asks (see the card).");
}

/** Shared table: the delivery, the business display, free partners, decks. */
export function renderTable(root, ctx) {
  const { view, content, words } = ctx;
  const b = view.board || {};
  const cat = content.catalogue;
  clear(root);
  root.append(h("h2", { text: t("On the table") }));
  const d = b.delivery ? cat.deliveries?.[b.delivery] : null;
  root.append(h("p", {}, h("strong", { text: `${t("Delivery:")} ` }), d ? d.text : t("none left"),
    h("span", { class: "muted", text: ` ${t("({n} more)", { n: b.deliveries_left ?? 0 })}` })));
  if ((b.business_display || []).length) {
    root.append(h("p", {}, h("strong", { text: `${t("Business display:")} ` }),
      b.business_display.map((id) => words.card("business", id)).join(", ")));
  }
  root.append(h("p", {}, h("strong", { text: `${t("Partners to recruit:")} ` }),
    (b.partners_free || []).map((r) => goodName(r)).join(", ") || t("none"),
    ` (${tn("{n} gold", "{n} gold", content.rules.partner_cost)})`));
  if (b.market) {
    const m = h("p", {}, h("strong", { text: `${t("Market:")} ` }));
    for (const [r, n] of Object.entries(b.market)) m.append(h("span", { class: "res" }, amount(n, r, goodName(r))));
    root.append(m);
  }
  const supply = h("p", { class: "supply" }, h("strong", { text: `${t("Supply:")} ` }));
  for (const r of RESOURCES) supply.append(h("span", { class: "res" }, amount(b.supply?.[r] ?? 0, r, goodName(r))));
  root.append(supply);
}
