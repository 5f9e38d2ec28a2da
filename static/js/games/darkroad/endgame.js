// The end screen's details (the shell draws the frame and the winner line): the scoring
// table (coins, prestige, the lower one, victory points, illuminated dice, deeds
// revealed, the tie-breaks) and prestige by round, rebuilt from the game's public log.
import { api } from "../../api.js";
import { h, s, seatColour, seatMark } from "../../util.js";

export function endDetails(root, view, words, code) {
  const res = view.result;
  if (!res) return;
  const winners = res.winners || [];
  const scores = [...(res.scores || [])].sort((a, b) => b.total - a.total || b.discarded - a.discarded
    || b.gifts - a.gifts || b.commissions - a.commissions || b.heroes - a.heroes);
  const th = (text, title) => h("th", { scope: "col", title: title || null, text });
  const table = h("table", { class: "scores dr-scores", "data-testid": "scores" },
    h("caption", { class: "sr-only", text: "Final scoring" }),
    h("thead", {}, h("tr", {}, th("Merchant"), th("Coins", "coins, with the deeds' coins"),
      th("Prestige", "prestige, with the deeds' prestige"), th("Lower", "the lower of coins and prestige: the base score"),
      th("VP", "victory points: deeds, unused illuminated dice, the hidden compartment"), th("Score", "the lower one + VP"))));
  scores.forEach((sc, i) => {
    const p = view.players[sc.seat];
    const illum = (p?.special || []).length;
    table.append(h("tbody", { class: winners.includes(sc.seat) ? "won" : "" },
      h("tr", {},
        h("td", { class: "dr-who" }, seatMarkSvg(sc.seat), ` ${p?.name ?? words.who(sc.seat)}`),
        h("td", { text: sc.coins }), h("td", { text: sc.prestige }), h("td", {}, h("b", { text: sc.base })),
        h("td", { text: sc.vp }), h("td", { class: "dr-total" }, h("b", { text: sc.total }))),
      h("tr", { class: "dr-score-note" }, h("td", { colspan: 6, class: "small",
        text: `VP: ${illum} from unused illuminated ${illum === 1 ? "die" : "dice"}, the rest from deeds and upgrades. `
          + `Tie-breaks: higher value ${sc.discarded} · ${sc.gifts} loyal gifts · ${sc.commissions} commissions · ${sc.heroes} heroes delivered.` }))));
  });
  root.append(h("div", { class: "dr-table-wrap" }, table));
  if (winners.length > 1) root.append(h("p", { class: "small", text: "Still tied after every tie-break: the victory is shared." }));
  const deeds = res.deeds || {};
  root.append(h("h3", { text: "Deeds revealed" }));
  root.append(h("ul", { class: "dr-deeds-end" }, ...view.players.map((p) => h("li", {}, seatMarkSvg(p.seat), h("b", { text: ` ${p.name}: ` }),
    (deeds[String(p.seat)] || []).map((d) => `${words.deed(d)} (${words.deeds[d]?.text ?? ""})`).join("; ") || "no deed"))));
  const fig = h("figure", { class: "chart-wrap", "data-testid": "prestige-chart" }, h("figcaption", { class: "small muted", text: "Prestige by round (from the game's log)…" }));
  root.append(h("h3", { text: "Prestige by round" }), fig);
  prestigeByRound(code, view.players.length).then((rows) => {
    fig.replaceChildren(chart(view, rows), h("figcaption", { class: "small muted", text: "Prestige on the board; deeds add theirs at the scoring." }));
  }).catch(() => { fig.replaceChildren(h("p", { class: "muted small", text: "The log could not be read for the chart." })); });
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
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "Each merchant's prestige at the end of every round" },
    s("title", { text: "Prestige at the end of every round (the last point: after the final travel)" }));
  const step = Math.max(1, Math.ceil(maxP / 5));
  for (let v = 0; v <= maxP; v += step) {
    svg.append(s("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.l - 6, y: y(v) + 4, class: "axis", "text-anchor": "end", text: String(v) }));
  }
  for (let i = 0; i <= last; i += 1) {
    svg.append(s("text", { x: x(i), y: H - 10, class: "axis", "text-anchor": "middle", text: i === last ? "end" : String(i) }));
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
