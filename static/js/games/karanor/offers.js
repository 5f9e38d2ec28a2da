// Trade offers as timeline bubbles: give and want with icons, for whom, status, whether
// the viewer can afford it now (`can_accept`), and Accept / Decline / Counter / Withdraw.
// Also what the rules say about trading right now, and what your open offers promise.
import { h, icon, seatBadge, seatColour } from "../../util.js";
import { RESOURCES, bundleNodes } from "./goods.js";

export const LIVE = ["open", "unavailable"];

/** Why no trade may be made now (the engine's trades.closed_reason), or null. */
export function tradingClosed(view, words) {
  if (!view || view.status === "finished") return "Trading is closed: the game is over.";
  if (view.status !== "playing") return "Trading opens when the game starts.";
  const turn = view.turn || {};
  if (turn.phase === "draft") return "Trading is closed during the draft: it opens when the game begins.";
  if (turn.end_triggered_by !== null && turn.end_triggered_by !== undefined) {
    return `Trading is closed: ${words.who(turn.end_triggered_by)} reached the final prestige, so no more trades until the end.`;
  }
  if (turn.pending) {
    const who = turn.pending.seat === view.seat ? "you make" : `${words.who(turn.pending.seat)} makes`;
    return `Trading is closed while ${who} a choice (a trade never takes priority over an action or card).`;
  }
  return null;
}

/** What the viewer's live offers give, summed: {bundle, count}. */
export function promised(view) {
  const sum = { gold: 0, resources: {}, partners: [], badges: [], artifacts: [] };
  let count = 0;
  for (const o of view.offers || []) {
    if (o.from !== view.seat || !LIVE.includes(o.status)) continue;
    count += 1;
    sum.gold += o.give.gold || 0;
    for (const [r, n] of Object.entries(o.give.resources || {})) sum.resources[r] = (sum.resources[r] || 0) + n;
    for (const key of ["partners", "badges", "artifacts"]) sum[key].push(...(o.give[key] || []));
  }
  return { bundle: sum, count };
}

/** "2 wine in 2 offers" pieces, each with whether it is more than you hold. */
export function promisedLines(view, words) {
  const { bundle, count } = promised(view);
  if (!count) return null;
  const held = view.private?.tradeable || {};
  const lines = [];
  const times = (n) => (n > 1 ? ` (×${n})` : "");
  const tally = (list) => list.reduce((acc, x) => acc.set(x, (acc.get(x) || 0) + 1), new Map());
  if (bundle.gold) lines.push({ text: `${bundle.gold} gold`, name: "gold", over: bundle.gold > (held.gold || 0) });
  for (const r of RESOURCES) {
    const n = bundle.resources[r];
    if (n) lines.push({ text: `${n} ${r}`, name: r, over: n > (held.resources?.[r] || 0) });
  }
  for (const [p, n] of tally(bundle.partners)) lines.push({ text: `${p} partner${times(n)}`, name: "partner", over: n > 1 });
  for (const [b, n] of tally(bundle.badges)) {
    const have = (held.badges || []).filter((x) => x === b).length;
    lines.push({ text: `${words.badge(b)} badge${times(n)}`, name: "badge", over: n > have });
  }
  for (const [a, n] of tally(bundle.artifacts)) lines.push({ text: `${words.card("artifacts", a)}${times(n)}`, name: "artifact", over: n > 1 });
  return { lines, count };
}

/** The promised summary as a node: "Promised: 2 wine, 3 gold across 2 offers". */
export function promisedNode(view, words, { compact = false } = {}) {
  const info = promisedLines(view, words);
  if (!info) return null;
  const node = h("p", { class: `promised${compact ? " compact" : ""}`, "data-testid": "promised" },
    h("strong", { text: "Promised: " }));
  info.lines.forEach((line, i) => {
    node.append(h("span", { class: `promised-item${line.over ? " over" : ""}`,
      title: line.over ? "more than you hold: only one of these offers can be accepted" : null },
    icon(line.name), line.text));
    if (i < info.lines.length - 1) node.append(", ");
  });
  node.append(` across ${info.count} open offer${info.count > 1 ? "s" : ""}`);
  if (info.lines.some((l) => l.over)) node.append(h("span", { class: "over-note", text: " · more than you hold" }));
  return node;
}

/** What the viewer lacks to accept an offer (its `want` against their holdings). */
function lacking(o, view, words) {
  const me = view.players?.[view.seat];
  if (!me) return [];
  const out = [];
  if ((o.want.gold || 0) > me.gold) out.push(`${o.want.gold - me.gold} gold`);
  for (const [r, n] of Object.entries(o.want.resources || {})) {
    const have = me.resources?.[r] || 0;
    if (n > have) out.push(`${n - have} ${r}`);
  }
  const partners = new Set((me.partners || []).map((p) => p.resource));
  for (const p of o.want.partners || []) if (!partners.has(p)) out.push(`the ${p} partner`);
  for (const b of new Set(o.want.badges || [])) {
    const need = o.want.badges.filter((x) => x === b).length;
    if ((me.badges || []).filter((x) => x === b).length < need) out.push(`a ${words.badge(b)} badge`);
  }
  for (const a of o.want.artifacts || []) if (!(me.artifacts || []).includes(a)) out.push(words.card("artifacts", a));
  return out;
}

const STATUS = {
  open: "open", unavailable: "not possible now", accepted: "accepted",
  declined: "declined", withdrawn: "withdrawn", closed: "closed",
};

/**
 * One offer as a bubble. `ctx`: {view, words, busy, closed, send(cmd), counter(offer)}.
 */
export function offerBubble(o, ctx) {
  const { view, words } = ctx;
  const me = view.seat;
  const mine = o.from === me && me !== null;
  const live = LIVE.includes(o.status);
  const addressed = me !== null && !mine && (o.to === null || o.to === undefined || o.to.includes(me));
  const declined = (o.declined_by || []).includes(me);
  const node = h("article", {
    class: `bubble offer-bubble${mine ? " mine" : ""}${live ? "" : " done"} status-${o.status}`,
    "data-testid": "offer", "data-offer": o.id, "data-status": o.status,
    "aria-label": `Offer from ${words.who(o.from)}, ${STATUS[o.status] ?? o.status}`,
  });
  node.style.setProperty("--seat", seatColour(o.from));

  const counterOf = o.counter_of !== null && o.counter_of !== undefined
    ? (view.offers || []).find((x) => x.id === o.counter_of) : null;
  node.append(h("header", { class: "bubble-head" },
    seatBadge(o.from, 16),
    h("strong", { class: "bubble-who", text: words.who(o.from) }),
    h("span", { class: "bubble-to", text: o.counter_of !== null && o.counter_of !== undefined
      ? `counters ${counterOf ? `${words.who(counterOf.from) === "You" ? "your" : `${words.who(counterOf.from)}'s`} offer` : "an offer"}, ${words.toWhom(o.to)}`
      : words.toWhom(o.to) }),
    h("span", { class: `tag status status-${o.status}`, "data-testid": "offer-status",
      text: o.status === "accepted" && o.accepted_by !== null && o.accepted_by !== undefined
        ? `accepted by ${words.whom(o.accepted_by)}` : (STATUS[o.status] ?? o.status) })));

  const side = (label, bundle) => {
    const items = bundleNodes(bundle, words);
    return h("div", { class: "bubble-line" }, h("span", { class: "bubble-label", text: label }),
      h("span", { class: "bubble-goods" }, ...(items.length ? items : [h("span", { class: "muted", text: "nothing" })])));
  };
  const who = mine ? "You" : words.who(o.from);
  node.append(side(`${who} give${mine ? "" : "s"}`, o.give), side(`${who} want${mine ? "" : "s"}`, o.want));
  if (o.note) node.append(h("p", { class: "bubble-note", text: o.note }));

  // Can you accept it now? A tick, or a cross with what is missing.
  if (live && addressed && !declined) {
    if (o.can_accept) {
      node.append(h("p", { class: "afford yes", "data-testid": "offer-afford", "data-afford": "yes" },
        icon("yes", "yes"), " You can accept it now"));
    } else {
      const missing = o.status === "unavailable" ? [] : lacking(o, view, words);
      const why = o.status === "unavailable"
        ? `${words.who(o.from)} no longer holds what this offer gives`
        : missing.length ? `you lack ${missing.join(", ")}` : "you cannot accept it now";
      node.append(h("p", { class: "afford no", "data-testid": "offer-afford", "data-afford": "no" },
        icon("no", "no"), ` ${why.charAt(0).toUpperCase()}${why.slice(1)}`));
    }
  } else if (live && mine) {
    const waiting = o.to ? o.to.filter((s) => !(o.declined_by || []).includes(s)) : null;
    const declinedBy = (o.declined_by || []).map((s) => words.who(s));
    const parts = [];
    if (o.status === "unavailable") parts.push("You no longer hold what it gives: nobody can accept it until you do");
    else parts.push(waiting ? `Waiting for ${waiting.map((s) => words.who(s)).join(", ")}` : "Waiting for anyone");
    if (declinedBy.length) parts.push(`declined by ${declinedBy.join(", ")}`);
    node.append(h("p", { class: "bubble-meta", text: parts.join(" · ") }));
  } else if (live && declined) {
    node.append(h("p", { class: "bubble-meta", text: "You declined it" }));
  }

  const off = ctx.busy || Boolean(ctx.closed);
  const buttons = h("div", { class: "bubble-actions" });
  if (live && addressed && !declined) {
    if (o.can_accept) {
      buttons.append(h("button", { type: "button", class: "btn primary small", "data-testid": "offer-accept",
        disabled: off ? true : null, onclick: () => ctx.send({ type: "accept", offer: o.id }) }, "Accept"));
    }
    buttons.append(h("button", { type: "button", class: "btn small", "data-testid": "offer-decline",
      disabled: off ? true : null, onclick: () => ctx.send({ type: "decline", offer: o.id }) }, "Decline"));
  }
  if (live && addressed) {
    buttons.append(h("button", { type: "button", class: "btn small", "data-testid": "offer-counter",
      disabled: off ? true : null, onclick: () => ctx.counter(o) }, "Counter"));
  }
  if (live && mine) {
    buttons.append(h("button", { type: "button", class: "btn small", "data-testid": "offer-withdraw",
      disabled: off ? true : null, onclick: () => ctx.send({ type: "withdraw", offer: o.id }) }, "Withdraw"));
  }
  if (buttons.children.length) node.append(buttons);
  return node;
}
