// What the player may do now: the action bar, card buttons, and the modal for
// pending choices. Only commands listed in view.legal_actions are ever offered.
import { actionButton, legalOf } from "../../legal.js";
import { amount, clear, h, icon } from "../../util.js";
import { t, tn } from "../../i18n.js";
import { goodName } from "./goods.js";

const BAR_TYPES = ["harvest", "work", "interact", "deliver", "recruit_partner", "buy_villa", "market", "end_turn"];
// Offered elsewhere: moves on the map, cards in the hand, partners and artifacts in the panel.
const ELSEWHERE = new Set(["move", "build", "complete_quest", "play_black_market", "use_artifact",
  "promote_partner", "draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"]);

export function turnText(view, words) {
  const turn = view.turn || {};
  if (view.status === "finished") return t("The game is over");
  if (turn.phase === "draft") return t("Draft, pick {n} of 2", { n: turn.draft_round ?? 1 });
  const p = { round: turn.round, actor: words.name(turn.seat) };
  const text = words.isMe(turn.seat)
    ? tn("Round {round} · Your turn · {n} action left", "Round {round} · Your turn · {n} actions left", turn.actions_left, p)
    : tn("Round {round} · {actor}'s turn · {n} action left", "Round {round} · {actor}'s turn · {n} actions left", turn.actions_left, p);
  const last = lastRoundText(view, words);
  return last ? `${last} · ${text}` : text;
}

/** "Last round: Bo reached 10 prestige" once the end is triggered (else null). */
export function lastRoundText(view, words) {
  const by = view.turn?.end_triggered_by;
  if (by === null || by === undefined || view.status !== "playing") return null;
  const p = view.players?.[by];
  const n = p?.prestige ?? view.board?.end_prestige ?? 0;
  return words.isMe(by) ? tn("Last round: you reached {n} prestige", "Last round: you reached {n} prestige", n)
    : tn("Last round: {actor} reached {n} prestige", "Last round: {actor} reached {n} prestige", n, { actor: words.name(by) });
}

/** Gold a Work pays this seat: 1, plus what its badges and artifacts add (their rules
 *  text, "Work gives +1 gold", from the content; a `passive.work` field wins if given). */
export function workGold(view, content) {
  if (typeof view.private?.work_gold === "number") return view.private.work_gold;
  const me = view.players?.[view.seat];
  if (!me) return 1;
  const cat = content.catalogue;
  let gold = 1;
  const cards = [...(me.badges || []).map((b) => cat.badges?.[b]), ...(me.artifacts || []).map((a) => cat.artifacts?.[a])];
  for (const card of cards) {
    if (!card) continue;
    if (typeof card.passive?.work === "number") gold += card.passive.work;
    else {
      const m = /Work gives ([+-−]\d+) gold/.exec(card.text || "");
      if (m) gold += Number(m[1].replace("−", "-"));
    }
  }
  return Math.max(0, gold);
}

/** The action bar under the map. */
export function renderActions(root, ctx) {
  const { view, words } = ctx;
  clear(root);
  const turn = view.turn || {};
  const mine = view.seat !== null && turn.seat === view.seat && view.status === "playing";
  const pendingSeat = turn.pending ? turn.pending.seat : null;

  const status = h("div", { class: "turn-status" + (mine ? " mine" : "") });
  const other = { actor: words.name(turn.seat) };
  if (view.status === "finished") status.append(h("strong", { text: t("The game is over.") }));
  else if (turn.phase === "draft") {
    status.append(h("strong", { text: view.legal_actions?.length ? t("Draft: choose a business card to keep.")
      : t("Draft: waiting for the others to pick.") }));
  } else if (pendingSeat !== null && pendingSeat !== view.seat) {
    status.append(h("strong", { text: t("{actor} is making a choice…", { actor: words.name(pendingSeat) }) }));
  } else if (mine) {
    status.append(h("strong", { text: `${t("Your turn.")} ` }),
      h("span", { class: "actions-left", text: tn("{n} action left", "{n} actions left", turn.actions_left) }),
      turn.move_left ? h("span", { class: "muted", text: ` · ${tn("{n} step of your move left (free)", "{n} steps of your move left (free)", turn.move_left)}` }) : "");
  } else if (view.seat === null) {
    status.append(h("strong", { text: `${t("{actor}'s turn.", other)} ` }), t("You are watching."));
  } else {
    status.append(h("strong", { text: `${t("{actor}'s turn.", other)} ` }), t("You can trade or chat meanwhile."));
  }
  root.append(status);
  const last = lastRoundText(view, words);
  if (last) root.prepend(h("p", { class: "last-round", "data-testid": "last-round", role: "status", text: `${last}.` }));

  const moves = legalOf(view, "move");
  if (moves.length) {
    const free = moves.filter((m) => !moveCostsAction(m, view)).length;
    const n = moves.length;
    const hint = h("p", { class: "hint" }, icon("gold"), " ");
    // Words that fit the device: "Tap" on a touch screen, "Click" with a mouse (issue 27).
    const touch = window.matchMedia?.("(pointer: coarse)").matches ?? false;
    if (free && free < n) {
      hint.append(touch
        ? tn("Tap a highlighted territory to move ({n} reachable; yellow: free steps of this move, blue",
          "Tap a highlighted territory to move ({n} reachable; yellow: free steps of this move, blue", n)
        : tn("Click a highlighted territory to move ({n} reachable; yellow: free steps of this move, blue",
          "Click a highlighted territory to move ({n} reachable; yellow: free steps of this move, blue", n), " ",
      h("span", { class: "plus-action", text: t("+1 action") }), t(": a new Move)."));
    } else if (free) {
      hint.append(touch
        ? tn("Tap a highlighted territory to move ({n} reachable).", "Tap a highlighted territory to move ({n} reachable).", n)
        : tn("Click a highlighted territory to move ({n} reachable).", "Click a highlighted territory to move ({n} reachable).", n));
    } else {
      hint.append(touch
        ? tn("Tap a highlighted territory to move ({n} reachable;", "Tap a highlighted territory to move ({n} reachable;", n)
        : tn("Click a highlighted territory to move ({n} reachable;", "Click a highlighted territory to move ({n} reachable;", n), " ",
      h("span", { class: "plus-action", text: t("+1 action") }), t(": a new Move)."));
    }
    root.append(hint);
  }

  const bar = h("div", { class: "action-bar" });
  let marketPanel = null;
  for (const type of BAR_TYPES) {
    const list = legalOf(view, type);
    if (!list.length) continue;
    if (type === "market") {
      marketPanel = marketBox(ctx, list);
      continue;
    }
    if (type === "recruit_partner") {
      const cost = ctx.content.rules.partner_cost;
      const group = h("div", { class: "recruit", role: "group", "aria-label": tn("Recruit a partner for {n} gold", "Recruit a partner for {n} gold", cost) },
        h("span", { class: "recruit-label" }, t("Recruit a partner"), " ", amount(cost, "gold", t("gold")), ":"));
      for (const cmd of list) {
        group.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn small",
          children: [icon(cmd.resource), h("span", { text: goodName(cmd.resource) })] }));
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
        const node = actionButton(ctx, cmd, label, { cls, children: [h("span", { text: left
          ? tn("End turn ({n} unused)", "End turn ({n} unused)", left) : t("End turn") })] });
        bar.append(node);
      } else bar.append(actionButton(ctx, cmd, label, { cls, children: kids }));
    }
  }
  // Anything the engine lists that this page has no special place for.
  const others = (view.legal_actions || []).filter((a) => !ELSEWHERE.has(a.type) && !BAR_TYPES.includes(a.type));
  for (const cmd of others) bar.append(actionButton(ctx, cmd, words.command(cmd, view)));
  if (bar.children.length) root.append(bar);
  if (marketPanel) root.append(marketPanel);
  // End turn in a row of its own under the part that scrolls: always in sight, never over
  // another action (issue 27: a sticky End turn lay on "Work").
  const end = bar.querySelector(".end-turn");
  const body = h("div", { class: "actions-body" }, ...root.childNodes);
  root.append(body);
  if (end) root.append(h("div", { class: "end-row" }, end));
}

/** Whether a move command starts a new Move (an action), rather than continuing one. */
export function moveCostsAction(cmd, view) {
  const left = view.turn?.move_left ?? 0;
  return !(left > 0 && (cmd.path || [cmd.to]).length <= left);
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

// The market panel's choice, kept across renders of one version.
const pick = { version: -1, buy: {}, sell: {}, open: false };

/** The market panel's choice (a part of the action bar's key: its steppers redraw it). */
export const marketPick = () => ({ buy: pick.buy, sell: pick.sell, open: pick.open });

/** The coach chose a market visit: the panel opens with its steppers set to it, so that
 *  its button (the coach marks it) is on screen. Whether the page must be drawn again. */
export function showMarket(view, action) {
  if (action?.type !== "market") return false;
  Object.assign(pick, { version: view.version, buy: { ...(action.buy || {}) },
    sell: { ...(action.sell || {}) }, open: true });
  return true;
}

const countOf = (pairs, r) => (pairs || {})[r] || 0;
const samePairs = (a, b) => {
  const keys = new Set([...Object.keys(a || {}), ...Object.keys(b || {})]);
  return [...keys].every((k) => countOf(a, k) === countOf(b, k));
};
const within = (a, b) => Object.entries(a).every(([k, n]) => countOf(b, k) >= n);

/** Gold paid and earned for a visit (the rulebook's prices, as the engine computes them). */
export function marketPrices(market, rules, buy, sell) {
  let pay = 0;
  let earn = 0;
  for (const [r, k] of Object.entries(buy)) {
    for (let i = 0; i < k; i += 1) pay += i === 0 && market[r] === rules.market_max ? 2 : rules.market_buy;
  }
  for (const [r, k] of Object.entries(sell)) {
    for (let i = 0; i < k; i += 1) earn += i === 0 && market[r] === 0 ? 2 : rules.market_sell;
  }
  return { pay, earn };
}

/** The two-player market: each pile with its prices and a stepper to buy or sell, and
 *  one button for the visit chosen (one of view.legal_actions, never anything else). */
function marketBox(ctx, list) {
  const { view, content } = ctx;
  if (pick.version !== view.version) Object.assign(pick, { version: view.version, buy: {}, sell: {} });
  const market = view.board?.market || {};
  const rules = content.rules;
  const me = view.players?.[view.seat] || {};
  // A fold, so that the map keeps its room; it stays open once opened.
  const box = h("details", { class: "market-panel", "data-testid": "market-panel", open: pick.open || null,
    ontoggle: (e) => { pick.open = e.currentTarget.open; } },
  h("summary", { class: "btn" }, t("Market: buy or sell for gold (one action)")),
  h("p", { class: "muted small", text: t("Buy 1 or 2, sell 1 or 2, or buy 1 and sell 1.") }));
  const table = h("table", { class: "market-table" },
    h("thead", {}, h("tr", {}, h("th", { text: t("Good") }), h("th", { text: t("Pile") }),
      h("th", { text: t("Buy") }), h("th", { text: t("Sell") }))));
  const body = h("tbody");
  const redraw = () => ctx.rerender?.();
  const canStep = (side, r, delta) => {
    const next = { buy: { ...pick.buy }, sell: { ...pick.sell } };
    next[side][r] = countOf(next[side], r) + delta;
    if (next[side][r] < 0) return false;
    if (!next[side][r]) delete next[side][r];
    if (delta < 0) return true;
    return list.some((c) => within(next.buy, c.buy || {}) && within(next.sell, c.sell || {}));
  };
  const stepper = (side, r) => {
    const n = countOf(pick[side], r);
    const step = (delta) => () => {
      pick[side][r] = countOf(pick[side], r) + delta;
      if (!pick[side][r]) delete pick[side][r];
      redraw();
    };
    const good = goodName(r);
    const buy = side === "buy";
    return h("span", { class: `stepper${n ? " set" : ""}` },
      h("button", { type: "button", class: "step",
        "aria-label": buy ? t("Buy one {good} less", { good }) : t("Sell one {good} less", { good }),
        "data-testid": `market-${side}-less-${r}`, disabled: !n || ctx.busy ? true : null, onclick: step(-1) }, "−"),
      h("span", { class: "step-value", "data-testid": `market-${side}-${r}`, text: String(n) }),
      h("button", { type: "button", class: "step",
        "aria-label": buy ? t("Buy one more {good}", { good }) : t("Sell one more {good}", { good }),
        "data-testid": `market-${side}-more-${r}`, disabled: ctx.busy || !canStep(side, r, 1) ? true : null,
        onclick: step(1) }, "+"));
  };
  for (const [r, pile] of Object.entries(market)) {
    const buyPrice = pile === rules.market_max ? t("2, then {n}", { n: rules.market_buy }) : String(rules.market_buy);
    const sellPrice = pile === 0 ? t("2, then {n}", { n: rules.market_sell }) : String(rules.market_sell);
    const gold = t("gold");
    body.append(h("tr", {},
      h("th", { scope: "row" }, h("span", { class: "good" }, icon(r), h("span", { class: "good-name", text: goodName(r) }))),
      h("td", { text: `${pile}/${rules.market_max}` }),
      h("td", {}, h("div", { class: "price" }, amount(buyPrice, "gold", gold), ` ${t("each")}`), stepper("buy", r)),
      h("td", {}, h("div", { class: "price" }, amount(sellPrice, "gold", gold), ` ${t("each")}`,
        h("span", { class: "muted small", text: ` ${t("(you hold {n})", { n: me.resources?.[r] ?? 0 })}` })), stepper("sell", r))));
  }
  table.append(body);
  box.append(table);
  const chosen = list.find((c) => samePairs(c.buy, pick.buy) && samePairs(c.sell, pick.sell));
  const empty = !Object.keys(pick.buy).length && !Object.keys(pick.sell).length;
  if (chosen) {
    const { pay, earn } = marketPrices(market, rules, chosen.buy || {}, chosen.sell || {});
    const net = earn - pay;
    box.append(h("div", { class: "row" }, actionButton(ctx, chosen, ctx.words.command(chosen, view), {
      cls: "btn primary", children: [h("span", {
        text: net >= 0 ? tn("{visit}: receive {n} gold", "{visit}: receive {n} gold", net, { visit: ctx.words.command(chosen, view) })
          : tn("{visit}: pay {n} gold", "{visit}: pay {n} gold", -net, { visit: ctx.words.command(chosen, view) }) })] })));
  } else {
    box.append(h("p", { class: "muted small", text: empty ? t("Choose what to buy or sell with the steppers.")
      : t("Not a visit the rules allow (or you lack the gold or goods): change the steppers.") }));
  }
  return box;
}

// --- the modal for pending choices --------------------------------------------------

const MODAL_TYPES = ["draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"];

/** Refresh or close the choice dialog (`openModal` opens it). */
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
    // The count is the cards shown (3, then 2), the round the draft's (issue 27).
    title.textContent = tn("Draft: keep one of these {n} business cards (round {round} of 2)",
      "Draft: keep one of these {n} business cards (round {round} of 2)", list.length,
      { round: view.turn?.draft_round ?? 1 });
    body.append(h("p", { class: "muted", text: t("The others go to your neighbour.") }));
    for (const cmd of list) cards.append(choiceCard(ctx, cmd, cat.business[cmd.card], words.command(cmd, view)));
  } else if (type === "choose_artifact") {
    title.textContent = t("Choose an artifact");
    for (const cmd of list) cards.append(choiceCard(ctx, cmd, cat.artifacts[cmd.artifact], words.command(cmd, view)));
  } else if (type === "quest_choice") {
    const q = cat.quests[list[0].card];
    title.textContent = q ? q.name : t("A quest's choice");
    if (q) body.append(h("p", { class: "flavour", text: q.flavour }), h("p", { text: q.text }));
    for (const cmd of list) cards.append(actionButton(ctx, cmd, words.command(cmd, view), { cls: "btn primary block" }));
    // The options the rules do not allow you now, greyed, with the reason.
    (q?.immediate || []).forEach((label, i) => {
      if (list.some((c) => c.option === i)) return;
      cards.append(h("button", { type: "button", class: "btn block unaffordable", disabled: true,
        "data-testid": "option-unavailable" }, label),
      h("p", { class: "small muted why-not", text: t("You cannot take this option: you lack what it asks.") }));
    });
  } else if (type === "discard_quest") {
    title.textContent = t("Too many quests: discard one");
    for (const cmd of list) cards.append(choiceCard(ctx, cmd, cat.quests[cmd.card], words.command(cmd, view)));
  } else if (type === "pick_business") {
    title.textContent = t("Take a business card");
    for (const cmd of list) {
      const card = cmd.card === "deck" ? { name: t("The deck"), text: t("Draw the top card, unseen.") } : cat.business[cmd.card];
      cards.append(choiceCard(ctx, cmd, card, words.command(cmd, view)));
    }
  }
  body.append(cards);
}

/** Open the choice dialog (drawn by `renderModal`) if it is shut: in the frame that draws
 *  the render, where `showModal`'s layout of the whole page is the frame's own (inside the
 *  render's task, the first board's, it was a second full layout: issue 31). A later
 *  render that emptied it keeps it shut. */
export function openModal(dialog) {
  if (dialog.open || dialog.dataset.opening) return;
  dialog.dataset.opening = "1";
  requestAnimationFrame(() => {
    delete dialog.dataset.opening;
    if (dialog.open || !dialog.querySelector("#modal-content")?.childElementCount) return;
    try { dialog.showModal(); } catch { dialog.setAttribute("open", ""); }
  });
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
    const cost = h("div", { class: "cost" }, h("span", { class: "muted", text: `${t("Cost")} ` }));
    if (card.cost.gold) cost.append(amount(card.cost.gold, "gold", t("gold")));
    for (const [r, n] of Object.entries(card.cost.resources || {})) cost.append(amount(n, r, goodName(r)));
    parts.push(cost);
  }
  const text = card.cost ? (card.effect ?? (card.text || "").replace(/^Cost: [^.]*\. /, "")) : card.text;
  if (text) parts.push(h("p", { class: "card-text", text }));
  if (card.flavour) parts.push(h("p", { class: "flavour", text: card.flavour }));
  return h("div", { class: "card-body" }, ...parts);
}
