// The end screen's details (the shell draws the frame and the winner line): the scoring
// table (coins, prestige, the lower one, victory points, illuminated dice, deeds
// revealed, the tie-breaks) and prestige by round, rebuilt from the game's public log.
import { api } from "../../api.js";
import { t, tn } from "../../i18n.js";
import { h, s, seatColour, seatMark } from "../../util.js";

export function endDetails(root, view, words, code) {
  const res = view.result;
  if (!res) return;
  const winners = res.winners || [];
  const scores = [...(res.scores || [])].sort((a, b) => b.total - a.total || b.discarded - a.discarded
    || b.gifts - a.gifts || b.commissions - a.commissions || b.heroes - a.heroes);
  // Tie-breaks are worth a line only when the best total is shared.
  const tied = scores.filter((x) => x.total === scores[0]?.total).length > 1;
  const th = (text, title) => h("th", { scope: "col", title: title || null, text });
  const table = h("table", { class: "scores dr-scores", "data-testid": "scores" },
    h("caption", { class: "sr-only", text: t("Final scoring") }),
    h("thead", {}, h("tr", {}, th(t("Merchant")), th(t("Coins"), t("coins, with the deeds' coins")),
      th(t("Prestige"), t("prestige, with the deeds' prestige")), th(t("Lower"), t("the lower of coins and prestige: the base score")),
      th(t("VP"), t("victory points: deeds, unused illuminated dice, the hidden compartment")), th(t("Score"), t("the lower one + VP")))));
  const notes = new Map();
  scores.forEach((sc) => {
    const p = view.players[sc.seat];
    const note = h("td", { colspan: 6, class: "small" });
    notes.set(sc.seat, note);
    const rows = [h("tr", {},
      h("td", { class: "dr-who" }, seatMarkSvg(sc.seat), ` ${p?.name ?? words.who(sc.seat)}`),
      h("td", { text: sc.coins }), h("td", { text: sc.prestige }), h("td", {}, h("b", { text: sc.base })),
      h("td", { text: sc.vp }), h("td", { class: "dr-total" }, h("b", { text: sc.total })))];
    const lines = vpLines(words, p, sc);
    if (tied && sc.total === scores[0].total) lines.push(tieBreakLine(sc));
    note.textContent = lines.join(" ");
    if (lines.length) rows.push(h("tr", { class: "dr-score-note" }, note));
    table.append(h("tbody", { class: winners.includes(sc.seat) ? "won" : "" }, ...rows));
  });
  // The table may scroll sideways on a narrow screen: focusable, so a keyboard scrolls it.
  root.append(h("div", { class: "dr-table-wrap", tabindex: "0", role: "region", "aria-label": t("Final scoring") }, table));
  if (winners.length > 1) root.append(h("p", { class: "small", text: t("Still tied after every tie-break: the victory is shared.") }));
  const deeds = res.deeds || {};
  root.append(h("h3", { text: t("Deeds revealed") }));
  const items = new Map();
  root.append(h("ul", { class: "dr-deeds-end", "data-testid": "deeds-end" }, ...view.players.flatMap((p) => {
    const mine = deeds[String(p.seat)] || [];
    const head = h("li", { class: "dr-deeds-who" }, seatMarkSvg(p.seat), h("b", { text: ` ${p.name}` }), mine.length ? null : h("span", { text: ` — ${t("no deed")}` }));
    const list = mine.map((d) => {
      const li = h("li", { class: "dr-deed-end", "data-deed": d }, h("b", { text: words.deed(d) }), h("span", { text: ` — ${words.deeds[d]?.text ?? ""}` }));
      items.set(`${p.seat}:${d}`, li);
      return li;
    });
    return [head, ...list];
  })));
  const fig = h("figure", { class: "chart-wrap", "data-testid": "prestige-chart" }, h("figcaption", { class: "small muted", text: t("Prestige by round (from the game's log)…") }));
  root.append(h("h3", { text: t("Prestige by round") }), fig);
  readLog(code).then((entries) => {
    const rows = prestigeByRound(entries, view.players.length);
    fig.replaceChildren(chart(view, rows), h("figcaption", { class: "small muted", text: t("Prestige on the board; deeds add theirs at the scoring.") }));
    // What each deed paid, rebuilt from the log and the final view; shown only when the
    // deeds' victory points add up to the engine's score (never a guess).
    const paid = deedsPaid(view, words, entries);
    for (const sc of scores) {
      const list = deeds[String(sc.seat)] || [];
      const vp = list.reduce((n, d) => n + (words.deeds[d]?.reward === "vp" ? paid[sc.seat][d] : 0), 0);
      if (vp + otherVp(words, view.players[sc.seat]) !== sc.vp) continue;
      for (const d of list) {
        const li = items.get(`${sc.seat}:${d}`);
        const n = paid[sc.seat][d];
        li.dataset.paid = String(n);
        li.append(h("span", { class: n ? "dr-paid" : "dr-unpaid", "data-testid": "deed-paid", text: ` ${n ? payText(words.deeds[d].reward, n) : t("(paid nothing)")}` }));
      }
    }
  }).catch(() => { fig.replaceChildren(h("p", { class: "muted small", text: t("The log could not be read for the chart.") })); });
}

/** The VP a merchant has besides deeds: unused illuminated dice, storage upgrades. */
function otherVp(words, p) {
  const storage = (p?.upgrades || []).filter((u) => words.upgrades[u]?.kind === "storage").length;
  return (p?.special || []).length + storage;
}

/** The note under a merchant's row: where the VP came from, zeros left out. */
function vpLines(words, p, sc) {
  const illum = (p?.special || []).length;
  const storage = (p?.upgrades || []).filter((u) => words.upgrades[u]?.kind === "storage").length;
  const deedVp = sc.vp - illum - storage;
  const parts = [];
  if (deedVp > 0) parts.push(tn("{n} from deeds", "{n} from deeds", deedVp));
  if (illum > 0) parts.push(tn("{n} from an unused illuminated die", "{n} from unused illuminated dice", illum));
  if (storage > 0) parts.push(tn("{n} from the hidden compartment", "{n} from the hidden compartment", storage));
  return parts.length ? [t("VP: {parts}.", { parts: listText(parts) })] : [];
}

/** The tie-breaks in words, in the rulebook's order. */
function tieBreakLine(sc) {
  return t("Tie-breaks, in order: the higher of coins and prestige ({value}), loyal gifts ({gifts}), commissions delivered ({commissions}), heroes delivered ({heroes}).",
    { value: sc.discarded, gifts: sc.gifts, commissions: sc.commissions, heroes: sc.heroes });
}

function payText(reward, n) {
  if (reward === "coins") return tn("(paid {n} coin)", "(paid {n} coins)", n);
  if (reward === "prestige") return tn("(paid {n} prestige)", "(paid {n} prestige)", n);
  return tn("(paid {n} VP)", "(paid {n} VP)", n);
}

function listText(parts) {
  try {
    return new Intl.ListFormat(document.documentElement.lang || "en", { type: "conjunction" }).format(parts);
  } catch {
    return parts.join(", ");
  }
}

/** Each seat's measures at the end (the engine's `measure`), from the final view and the
 *  public log: deliveries by town and region, full commissions, upgraded goods delivered. */
function measures(view, words, entries) {
  const out = view.players.map((p) => ({
    full_commissions: 0, commissions_delivered: 0, heroes_delivered: 0, towns: new Set(), regions: {}, upgraded_delivered: 0,
    quartz_held: p.quartz, lanterns_held: p.lanterns, horseshoes_held: p.horseshoes, companions: (p.companions || []).length,
    wagon_upgrades: (p.upgrades || []).length, illuminated_held: (p.special || []).length,
    goods_stored: (p.pieces || []).filter((q) => q.good !== "upgrade").length,
    upgraded_stored: (p.pieces || []).filter((q) => q.good !== "upgrade" && q.up).length,
    loyal_gifts: (view.result.scores || []).find((x) => x.seat === p.seat)?.gifts ?? 0,
  }));
  const towns = Object.fromEntries(words.c.board.towns.map((x) => [x.id, x]));
  const deliver = (m, town) => {
    m.towns.add(town);
    const region = towns[town]?.region;
    m.regions[region] = (m.regions[region] || 0) + 1;
  };
  for (const entry of entries) {
    let open = null; // a commission just delivered: its prestige event follows
    for (const e of entry.events || []) {
      const m = out[e.seat];
      if (e.type === "commission_delivered" && m) {
        m.commissions_delivered += 1;
        if (e.goods === 3) m.full_commissions += 1;
        deliver(m, words.commissions[e.commission]?.town);
        open = e;
      } else if (e.type === "prestige" && open && e.seat === open.seat) {
        m.upgraded_delivered += Math.max(0, e.delta - [0, 1, 3, 6][open.goods]);
        open = null;
      } else if (e.type === "hero_delivered" && m) {
        m.heroes_delivered += 1;
        deliver(m, e.town);
      }
    }
  }
  return out;
}

/** What each revealed deed paid each seat: {seat: {deed: amount}}. */
function deedsPaid(view, words, entries) {
  const all = measures(view, words, entries);
  const out = {};
  for (const p of view.players) {
    const m = all[p.seat];
    out[p.seat] = {};
    for (const d of view.result.deeds?.[String(p.seat)] || []) {
      const deed = words.deeds[d];
      if (!deed) continue;
      const k = deed.measure;
      const got = k === "towns_delivered" ? m.towns.size : k.startsWith("region_") ? (m.regions[k.slice(7)] || 0) : (m[k] ?? 0);
      out[p.seat][d] = deed.per ? got * deed.amount : got >= deed.threshold ? deed.amount : 0;
    }
  }
  return out;
}

function seatMarkSvg(seat) {
  return s("svg", { viewBox: "-8 -8 16 16", width: 14, height: 14, "aria-hidden": "true" }, seatMark(seat, 0, 0, 6, { stroke: "#222", "stroke-width": 1 }));
}

/** The whole public log, page by page. */
async function readLog(code) {
  const all = [];
  let after = 0;
  for (let guard = 0; guard < 20; guard += 1) {
    const data = await api("GET", `/api/rooms/${encodeURIComponent(code)}/log?after=${after}&limit=5000`);
    const entries = data.entries || [];
    all.push(...entries);
    for (const entry of entries) after = Math.max(after, entry.version);
    if (entries.length < 5000) break;
  }
  return all;
}

/** Each seat's prestige at the end of every round, summed from the log's prestige events. */
function prestigeByRound(entries, n) {
  const rows = [Array(n).fill(0)];
  const cur = Array(n).fill(0);
  for (const entry of entries) {
    for (const e of entry.events || []) {
      if (e.type === "prestige" && e.seat !== undefined) cur[e.seat] += e.delta;
      if (e.type === "round" || e.type === "final_travel") rows.push([...cur]);
    }
  }
  rows.push([...cur]);
  return rows;
}

function chart(view, rows) {
  const n = view.players.length;
  const W = 420;
  const H = 220;
  const pad = { l: 30, r: 12, t: 12, b: 28 };
  const maxP = Math.max(5, ...rows.flat());
  const last = Math.max(1, rows.length - 1);
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / last;
  const y = (v) => H - pad.b - (v * (H - pad.t - pad.b)) / maxP;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("Each merchant's prestige at the end of every round") },
    s("title", { text: t("Prestige at the end of every round (the last point: after the final travel)") }));
  const step = Math.max(1, Math.ceil(maxP / 5));
  for (let v = 0; v <= maxP; v += step) {
    svg.append(s("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.l - 6, y: y(v) + 4, class: "axis", "text-anchor": "end", text: String(v) }));
  }
  for (let i = 0; i <= last; i += 1) {
    svg.append(s("text", { x: x(i), y: H - 10, class: "axis", "text-anchor": "middle", text: i === last ? t("end") : String(i) }));
  }
  for (let seat = 0; seat < n; seat += 1) {
    const pts = rows.map((row, i) => `${x(i)},${y(row[seat] ?? 0) - seat}`);
    svg.append(s("polyline", { points: pts.join(" "), fill: "none", stroke: seatColour(seat), "stroke-width": 3, "stroke-linejoin": "round" },
      s("title", { text: view.players[seat]?.name ?? "" })));
    rows.forEach((row, i) => svg.append(seatMark(seat, x(i), y(row[seat] ?? 0) - seat, 4, { stroke: "#222", "stroke-width": 1 })));
  }
  const legend = h("ul", { class: "legend" }, ...view.players.map((p) => h("li", {}, seatMarkSvg(p.seat), h("span", { text: ` ${p.name}` }))));
  return h("div", {}, svg, legend);
}
