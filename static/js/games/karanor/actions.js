// What the player may do now: the action bar, card buttons, and the modal for
// pending choices. Only commands listed in view.legal_actions are ever offered.
import { actionButton, legalOf } from "../../legal.js";
import { amount, clear, h, icon } from "../../util.js";

const BAR_TYPES = ["harvest", "work", "interact", "deliver", "recruit_partner", "buy_villa", "market", "end_turn"];
// Offered elsewhere: moves on the map, cards in the hand, partners and artifacts in the panel.
const ELSEWHERE = new Set(["move", "build", "complete_quest", "play_black_market", "use_artifact",
  "promote_partner", "draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"]);

export function turnText(view, words) {
  const t = view.turn || {};
  if (view.status === "finished") return "The game is over";
  if (t.phase === "draft") return `Draft, pick ${t.draft_round ?? 1} of 2`;
  const mine = t.seat === view.seat;
  const who = mine ? "Your turn" : `${words.who(t.seat)}'s turn`;
  return `Round ${t.round} · ${who} · ${t.actions_left} action${t.actions_left === 1 ? "" : "s"} left`;
}

/** The action bar under the map. */
export function renderActions(root, ctx) {
  const { view, words } = ctx;
  clear(root);
  const t = view.turn || {};
  const mine = view.seat !== null && t.seat === view.seat && view.status === "playing";
  const pendingSeat = t.pending ? t.pending.seat : null;

  const status = h("div", { class: "turn-status" + (mine ? " mine" : "") });
  if (view.status === "finished") status.append(h("strong", { text: "The game is over." }));
  else if (t.phase === "draft") {
    status.append(h("strong", { text: "Draft: " }),
      view.legal_actions?.length ? "choose a business card to keep." : "waiting for the others to pick.");
  } else if (pendingSeat !== null && pendingSeat !== view.seat) {
    status.append(h("strong", { text: `${words.who(pendingSeat)} ` }), "is making a choice…");
  } else if (mine) {
    status.append(h("strong", { text: "Your turn. " }),
      h("span", { class: "actions-left", text: `${t.actions_left} action${t.actions_left === 1 ? "" : "s"} left` }),
      t.move_left ? h("span", { class: "muted", text: ` · ${t.move_left} step${t.move_left > 1 ? "s" : ""} of your move left (free)` }) : "");
  } else if (view.seat === null) {
    status.append(h("strong", { text: `${words.who(t.seat)}'s turn. ` }), "You are watching.");
  } else {
    status.append(h("strong", { text: `${words.who(t.seat)}'s turn. ` }), "You can trade or chat meanwhile.");
  }
  root.append(status);

  const moves = legalOf(view, "move");
  if (moves.length) {
    root.append(h("p", { class: "hint" }, icon("gold"), ` Tap a highlighted territory to move (${moves.length} reachable).`));
  }

  const bar = h("div", { class: "action-bar" });
  for (const type of BAR_TYPES) {
    const list = legalOf(view, type);
    if (!list.length) continue;
    if (type === "market") {
      bar.append(marketBox(ctx, list));
      continue;
    }
    if (type === "recruit_partner") {
      const cost = ctx.content.rules.partner_cost;
      const group = h("div", { class: "recruit", role: "group", "aria-label": `Recruit a partner for ${cost} gold` },
        h("span", { class: "recruit-label" }, "Recruit a partner ", amount(cost, "gold"), ":"));
      for (const cmd of list) {
        group.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn small",
          title: words.command(cmd, view), children: [icon(cmd.resource), h("span", { text: cmd.resource })] }));
      }
      bar.append(group);
      continue;
    }
    for (const cmd of list) {
      const cls = type === "end_turn" ? "btn end-turn" : "btn";
      const label = words.command(cmd, view);
      const kids = [iconFor(cmd, view, words), h("span", { text: label })];
      if (type === "end_turn") {
        const left = view.turn?.actions_left ?? 0;
        const node = actionButton(ctx, cmd, label, { cls, children: [h("span", { text: left ? `End turn (${left} unused)` : "End turn" })] });
        bar.append(node);
      } else bar.append(actionButton(ctx, cmd, label, { cls, children: kids }));
    }
  }
  // Anything the engine lists that this page has no special place for.
  const others = (view.legal_actions || []).filter((a) => !ELSEWHERE.has(a.type) && !BAR_TYPES.includes(a.type));
  for (const cmd of others) bar.append(actionButton(ctx, cmd, words.command(cmd, view)));
  if (bar.children.length) root.append(bar);
}

function iconFor(cmd, view, words) {
  if (cmd.type === "harvest") {
    const me = view.players[view.seat];
    const res = words.terr[me?.position]?.resource;
    return res ? icon(res) : null;
  }
  if (cmd.type === "work") return icon("gold");
  if (cmd.type === "recruit_partner") return icon(cmd.resource);
  if (cmd.type === "buy_villa") return icon("villa");
  if (cmd.type === "interact") return icon("person");
  if (cmd.type === "deliver") return icon("prestige");
  return null;
}

function marketBox(ctx, list) {
  const box = h("details", { class: "market" },
    h("summary", { class: "btn" }, `Market (${list.length} deals)`));
  const grid = h("div", { class: "market-grid" });
  for (const cmd of list) grid.append(actionButton(ctx, cmd, ctx.words.command(cmd, ctx.view), { cls: "btn small" }));
  box.append(grid);
  return box;
}

// --- the modal for pending choices --------------------------------------------------

const MODAL_TYPES = ["draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"];

/** Open, refresh or close the choice dialog. */
export function renderModal(dialog, ctx) {
  const { view, words, content } = ctx;
  const list = (view.legal_actions || []).filter((a) => MODAL_TYPES.includes(a.type));
  const title = dialog.querySelector("#modal-title");
  const body = clear(dialog.querySelector("#modal-content"));
  if (!list.length) {
    if (dialog.open) dialog.close();
    return;
  }
  const type = list[0].type;
  const cat = content.catalogue;
  const cards = h("div", { class: "choice-list" });
  if (type === "draft_pick") {
    title.textContent = `Draft: keep one business card (pick ${view.turn?.draft_round ?? 1} of 2)`;
    body.append(h("p", { class: "muted", text: "The others go to your neighbour." }));
    for (const cmd of list) cards.append(choiceCard(ctx, cmd, cat.business[cmd.card], words.command(cmd, view)));
  } else if (type === "choose_artifact") {
    title.textContent = "Choose an artifact";
    for (const cmd of list) cards.append(choiceCard(ctx, cmd, cat.artifacts[cmd.artifact], words.command(cmd, view)));
  } else if (type === "quest_choice") {
    const q = cat.quests[list[0].card];
    title.textContent = q ? q.name : "A quest's choice";
    if (q) body.append(h("p", { class: "flavour", text: q.flavour }), h("p", { text: q.text }));
    for (const cmd of list) cards.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn primary block" }));
  } else if (type === "discard_quest") {
    title.textContent = "Too many quests: discard one";
    for (const cmd of list) cards.append(choiceCard(ctx, cmd, cat.quests[cmd.card], words.command(cmd, view)));
  } else if (type === "pick_business") {
    title.textContent = "Take a business card";
    for (const cmd of list) {
      const card = cmd.card === "deck" ? { name: "The deck", text: "Draw the top card, unseen." } : cat.business[cmd.card];
      cards.append(choiceCard(ctx, cmd, card, words.command(cmd, view)));
    }
  }
  body.append(cards);
  if (!dialog.open) {
    try { dialog.showModal(); } catch { dialog.setAttribute("open", ""); }
  }
}

function choiceCard(ctx, cmd, card, label) {
  return h("div", { class: "choice-card" },
    card ? cardBody(card) : null,
    actionButton(ctx, cmd, label, { cls: "btn primary block" }));
}

/** Name, cost line and rules text of a catalogue card. */
export function cardBody(card) {
  const parts = [h("h3", { class: "card-name", text: card.name })];
  if (card.cost) {
    const cost = h("div", { class: "cost", "aria-label": "Cost" }, h("span", { class: "muted", text: "Cost " }));
    if (card.cost.gold) cost.append(amount(card.cost.gold, "gold"));
    for (const [r, n] of Object.entries(card.cost.resources || {})) cost.append(amount(n, r));
    parts.push(cost);
  }
  const text = card.cost ? (card.text || "").replace(/^Cost: [^.]*\. /, "") : card.text;
  if (text) parts.push(h("p", { class: "card-text", text }));
  if (card.flavour) parts.push(h("p", { class: "flavour", text: card.flavour }));
  return h("div", { class: "card-body" }, ...parts);
}
