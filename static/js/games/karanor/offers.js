// Trade offers as timeline bubbles: give and want with icons, for whom, status, whether
// the viewer can afford it now (`can_accept`), and Accept / Decline / Counter / Withdraw.
// Also what the rules say about trading right now, and what your open offers promise.
import { h, icon, seatBadge, seatColour } from "../../util.js";
import { t, tn } from "../../i18n.js";
import { RESOURCES, bundleNodes, goodName, goodWords, partnerWords } from "./goods.js";

export const LIVE = ["open", "unavailable"];

/** Why no trade may be made now (the engine's trades.closed_reason), or null. */
export function tradingClosed(view, words) {
  if (!view || view.status === "finished") return t("Trading is closed: the game is over.");
  if (view.status !== "playing") return t("Trading opens when the game starts.");
  const turn = view.turn || {};
  if (turn.phase === "draft") return t("Trading is closed during the draft: it opens when the game begins.");
  if (turn.end_triggered_by !== null && turn.end_triggered_by !== undefined) {
    const by = turn.end_triggered_by;
    return words.isMe(by)
      ? t("Trading is closed: you reached the final prestige, so no more trades until the end.")
      : t("Trading is closed: {actor} reached the final prestige, so no more trades until the end.", { actor: words.name(by) });
  }
  if (turn.pending) {
    return words.isMe(turn.pending.seat)
      ? t("Trading is closed while you make a choice (a trade never takes priority over an action or card).")
      : t("Trading is closed while {actor} makes a choice (a trade never takes priority over an action or card).",
        { actor: words.name(turn.pending.seat) });
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
  if (bundle.gold) lines.push({ text: goodWords(bundle.gold, "gold"), name: "gold", over: bundle.gold > (held.gold || 0) });
  for (const r of RESOURCES) {
    const n = bundle.resources[r];
    if (n) lines.push({ text: goodWords(n, r), name: r, over: n > (held.resources?.[r] || 0) });
  }
  for (const [p, n] of tally(bundle.partners)) {
    lines.push({ text: `${t("{resource} partner", { resource: goodName(p) })}${times(n)}`, name: "partner", over: n > 1 });
  }
  for (const [b, n] of tally(bundle.badges)) {
    const have = (held.badges || []).filter((x) => x === b).length;
    lines.push({ text: `${t("{badge} badge", { badge: words.badge(b) })}${times(n)}`, name: "badge", over: n > have });
  }
  for (const [a, n] of tally(bundle.artifacts)) lines.push({ text: `${words.card("artifacts", a)}${times(n)}`, name: "artifact", over: n > 1 });
  return { lines, count };
}

/** The promised summary as a node: "Promised: 2 wine, 3 gold across 2 offers". */
export function promisedNode(view, words, { compact = false } = {}) {
  const info = promisedLines(view, words);
  if (!info) return null;
  const node = h("p", { class: `promised${compact ? " compact" : ""}`, "data-testid": "promised" },
    h("strong", { text: t("Promised: ") }));
  info.lines.forEach((line, i) => {
    node.append(h("span", { class: `promised-item${line.over ? " over" : ""}`,
      "data-tip": line.over ? t("more than you hold: only one of these offers can be accepted") : null },
    icon(line.name), line.text));
    if (i < info.lines.length - 1) node.append(", ");
  });
  node.append(` ${tn("across {n} open offer", "across {n} open offers", info.count)}`);
  if (info.lines.some((l) => l.over)) node.append(h("span", { class: "over-note", text: ` · ${t("more than you hold")}` }));
  return node;
}

/** What the viewer lacks to accept an offer (its `want` against their holdings). */
function lacking(o, view, words) {
  const me = view.players?.[view.seat];
  if (!me) return [];
  const out = [];
  if ((o.want.gold || 0) > me.gold) out.push(goodWords(o.want.gold - me.gold, "gold"));
  for (const [r, n] of Object.entries(o.want.resources || {})) {
    const have = me.resources?.[r] || 0;
    if (n > have) out.push(goodWords(n - have, r));
  }
  const partners = new Set((me.partners || []).map((p) => p.resource));
  for (const p of o.want.partners || []) if (!partners.has(p)) out.push(partnerWords(p));
  for (const b of new Set(o.want.badges || [])) {
    const need = o.want.badges.filter((x) => x === b).length;
    if ((me.badges || []).filter((x) => x === b).length < need) out.push(t("a {badge} badge", { badge: words.badge(b) }));
  }
  for (const a of o.want.artifacts || []) if (!(me.artifacts || []).includes(a)) out.push(words.card("artifacts", a));
  return out;
}

function statusWords(status) {
  switch (status) {
    case "open": return t("open");
    case "unavailable": return t("not possible now");
    case "accepted": return t("accepted");
    case "declined": return t("declined");
    case "withdrawn": return t("withdrawn");
    case "closed": return t("closed");
    default: return status;
  }
}

/** "counters your offer, to Bo" / "counters Ana's offer, to anyone". */
function counterWords(o, view, words) {
  const of = (view.offers || []).find((x) => x.id === o.counter_of);
  const to = words.toWhom(o.to);
  if (!of) return t("counters an offer, {to}", { to });
  if (words.isMe(of.from)) return t("counters your offer, {to}", { to });
  return t("counters {owner}'s offer, {to}", { owner: words.name(of.from), to });
}

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
    "aria-label": mine ? t("Your offer, {status}", { status: statusWords(o.status) })
      : t("Offer from {actor}, {status}", { actor: words.name(o.from), status: statusWords(o.status) }),
  });
  node.style.setProperty("--seat", seatColour(o.from));

  node.append(h("header", { class: "bubble-head" },
    seatBadge(o.from, 16),
    h("strong", { class: "bubble-who", text: words.who(o.from) }),
    h("span", { class: "bubble-to", text: o.counter_of !== null && o.counter_of !== undefined
      ? counterWords(o, view, words) : words.toWhom(o.to) }),
    h("span", { class: `tag status status-${o.status}`, "data-testid": "offer-status",
      text: o.status === "accepted" && o.accepted_by !== null && o.accepted_by !== undefined
        ? (words.isMe(o.accepted_by) ? t("accepted by you") : t("accepted by {actor}", { actor: words.name(o.accepted_by) }))
        : statusWords(o.status) })));

  const side = (label, bundle) => {
    const items = bundleNodes(bundle, words);
    return h("div", { class: "bubble-line" }, h("span", { class: "bubble-label", text: label }),
      h("span", { class: "bubble-goods" }, ...(items.length ? items : [h("span", { class: "muted", text: t("nothing") })])));
  };
  const actor = words.name(o.from);
  node.append(side(mine ? t("You give") : t("{actor} gives", { actor }), o.give),
    side(mine ? t("You want") : t("{actor} wants", { actor }), o.want));
  if (o.note) node.append(h("p", { class: "bubble-note", text: o.note }));

  // Can you accept it now? A tick, or a cross with what is missing.
  if (live && addressed && !declined) {
    if (o.can_accept) {
      node.append(h("p", { class: "afford yes", "data-testid": "offer-afford", "data-afford": "yes" },
        icon("yes", t("yes")), ` ${t("You can accept it now")}`));
    } else {
      const missing = o.status === "unavailable" ? [] : lacking(o, view, words);
      const why = o.status === "unavailable"
        ? t("{actor} no longer holds what this offer gives", { actor: words.name(o.from) })
        : missing.length ? t("You lack {goods}", { goods: missing.join(", ") }) : t("You cannot accept it now");
      node.append(h("p", { class: "afford no", "data-testid": "offer-afford", "data-afford": "no" },
        icon("no", t("no")), ` ${why}`));
    }
  } else if (live && mine) {
    const waiting = o.to ? o.to.filter((s) => !(o.declined_by || []).includes(s)) : null;
    const declinedBy = (o.declined_by || []).map((x) => words.name(x));
    const parts = [];
    if (o.status === "unavailable") parts.push(t("You no longer hold what it gives: nobody can accept it until you do"));
    else {
      parts.push(waiting ? t("Waiting for {names}", { names: waiting.map((x) => words.name(x)).join(", ") })
        : t("Waiting for anyone"));
    }
    if (declinedBy.length) parts.push(t("declined by {names}", { names: declinedBy.join(", ") }));
    node.append(h("p", { class: "bubble-meta", text: parts.join(" · ") }));
  } else if (live && declined) {
    node.append(h("p", { class: "bubble-meta", text: t("You declined it") }));
  }

  const off = ctx.busy || Boolean(ctx.closed);
  const buttons = h("div", { class: "bubble-actions" });
  if (live && addressed && !declined) {
    if (o.can_accept) {
      buttons.append(h("button", { type: "button", class: "btn primary small", "data-testid": "offer-accept",
        disabled: off ? true : null, onclick: () => ctx.send({ type: "accept", offer: o.id }) }, t("Accept")));
    }
    buttons.append(h("button", { type: "button", class: "btn small", "data-testid": "offer-decline",
      disabled: off ? true : null, onclick: () => ctx.send({ type: "decline", offer: o.id }) }, t("Decline")));
  }
  if (live && addressed) {
    buttons.append(h("button", { type: "button", class: "btn small", "data-testid": "offer-counter",
      disabled: off ? true : null, onclick: () => ctx.counter(o) }, t("Counter")));
  }
  if (live && mine) {
    buttons.append(h("button", { type: "button", class: "btn small", "data-testid": "offer-withdraw",
      disabled: off ? true : null, onclick: () => ctx.send({ type: "withdraw", offer: o.id }) }, t("Withdraw")));
  }
  if (buttons.children.length) node.append(buttons);
  return node;
}
