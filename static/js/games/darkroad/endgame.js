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
  const th = (text, title) => h("th", { scope: "col", title: title || null, text });
  const table = h("table", { class: "scores dr-scores", "data-testid": "scores" },
    h("caption", { class: "sr-only", text: t("Final scoring") }),
    h("thead", {}, h("tr", {}, th(t("Merchant")), th(t("Coins"), t("coins, with the deeds' coins")),
      th(t("Prestige"), t("prestige, with the deeds' prestige")), th(t("Lower"), t("the lower of coins and prestige: the base score")),
      th(t("VP"), t("victory points: deeds, unused illuminated dice, the hidden compartment")), th(t("Score"), t("the lower one + VP")))));
  scores.forEach((sc, i) => {
    const p = view.players[sc.seat];
    const illum = (p?.special || []).length;
    table.append(h("tbody", { class: winners.includes(sc.seat) ? "won" : "" },
      h("tr", {},
        h("td", { class: "dr-who" }, seatMarkSvg(sc.seat), ` ${p?.name ?? words.who(sc.seat)}`),
        h("td", { text: sc.coins }), h("td", { text: sc.prestige }), h("td", {}, h("b", { text: sc.base })),
        h("td", { text: sc.vp }), h("td", { class: "dr-total" }, h("b", { text: sc.total }))),
      h("tr", { class: "dr-score-note" }, h("td", { colspan: 6, class: "small",
        text: `${tn("VP: {n} from unused illuminated die, the rest from deeds and upgrades.", "VP: {n} from unused illuminated dice, the rest from deeds and upgrades.", illum)} ${
          t("Tie-breaks: higher value {value} · loyal gifts {gifts} · commissions {commissions} · heroes delivered {heroes}.", { value: sc.discarded, gifts: sc.gifts, commissions: sc.commissions, heroes: sc.heroes })}` }))));
  });
  // The table may scroll sideways on a narrow screen: focusable, so a keyboard scrolls it.
  root.append(h("div", { class: "dr-table-wrap", tabindex: "0", role: "region", "aria-label": t("Final scoring") }, table));
  if (winners.length > 1) root.append(h("p", { class: "small", text: t("Still tied after every tie-break: the victory is shared.") }));
  const deeds = res.deeds || {};
  root.append(h("h3", { text: t("Deeds revealed") }));
  root.append(h("ul", { class: "dr-deeds-end" }, ...view.players.map((p) => h("li", {}, seatMarkSvg(p.seat), h("b", { text: ` ${t("{name}:", { name: p.name })} ` }),
    (deeds[String(p.seat)] || []).map((d) => t("{deed} ({text})", { deed: words.deed(d), text: words.deeds[d]?.text ?? "" })).join("; ") || t("no deed")))));
  const fig = h("figure", { class: "chart-wrap", "data-testid": "prestige-chart" }, h("figcaption", { class: "small muted", text: t("Prestige by round (from the game's log)…") }));
  root.append(h("h3", { text: t("Prestige by round") }), fig);
  prestigeByRound(code, view.players.length).then((rows) => {
    fig.replaceChildren(chart(view, rows), h("figcaption", { class: "small muted", text: t("Prestige on the board; deeds add theirs at the scoring.") }));
  }).catch(() => { fig.replaceChildren(h("p", { class: "muted small", text: t("The log could not be read for the chart.") })); });
}

function seatMarkSvg(seat) {
  return s("svg", { viewBox: "-8 -8 16 16", width: 14, height: 14, "aria-hidden": "true" }, seatMark(seat, 0, 0, 6, { stroke: "#222", "stroke-width": 1 }));
}

/** Each seat's prestige at the end of every round, summed from the log's prestige events. */
async function prestigeByRound(code, n) {
  const rows = [Array(n).fill(0)];
  const cur = Array(n).fill(0);
  let after = 0;
  for (let guard = 0; guard < 20; guard += 1) {
    const data = await api("GET", `/api/rooms/${encodeURIComponent(code)}/log?after=${after}&limit=5000`);
    const entries = data.entries || [];
    for (const entry of entries) {
      for (const e of entry.events || []) {
        if (e.type === "prestige" && e.seat !== undefined) cur[e.seat] += e.delta;
        if (e.type === "round" || e.type === "final_travel") rows.push([...cur]);
      }
      after = Math.max(after, entry.version);
    }
    if (entries.length < 5000) break;
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
