// Karanor's end screen details (the shell draws the frame and the winner line):
// final scores and the prestige chart over the rounds.
import { api } from "../../api.js";
import { h, s, seatColour, seatMark } from "../../util.js";
import { t } from "../../i18n.js";

// Where prestige came from, by the event that brought it (the view has no breakdown:
// it is read from the game's log, whose prestige events are public).
const SOURCE_OF = {
  build: "businesses", quest_done: "quests", quest_choice: "quests", sequel: "quests", villa: "villas",
  deliver: "deliveries", black_market: "cards", artifact: "artifacts", artifact_used: "artifacts",
  interact: "other", harvest: "other", work: "other", partner: "other", market: "other", move: "other",
};
export const COLUMNS = [["businesses", "Businesses"], ["quests", "Quests"], ["villas", "Villas"],
  ["deliveries", "Deliveries"], ["cards", "Cards"], ["artifacts", "Artifacts"], ["other", "Other"]];

function columnName(key) {
  switch (key) {
    case "businesses": return t("Businesses");
    case "quests": return t("Quests");
    case "villas": return t("Villas");
    case "deliveries": return t("Deliveries");
    case "cards": return t("Cards");
    case "artifacts": return t("Artifacts");
    default: return t("Other");
  }
}

/** {seat: {businesses, quests, ...}} from the log's entries. */
export function prestigeBreakdown(entries, players) {
  const out = Object.fromEntries(players.map((p) => [p.seat, Object.fromEntries(COLUMNS.map(([k]) => [k, 0]))]));
  for (const entry of entries) {
    let source = "other";
    for (const e of entry.events || []) {
      if (SOURCE_OF[e.type]) source = SOURCE_OF[e.type];
      if (e.type === "prestige" && out[e.seat]) out[e.seat][source] += e.delta;
    }
  }
  // Prestige from before the first logged command (a home, a story) counts as "other".
  for (const p of players) {
    const sum = Object.values(out[p.seat]).reduce((a, b) => a + b, 0);
    out[p.seat].other += p.prestige - sum;
  }
  return out;
}

const logs = new Map(); // room code -> Promise of the whole log (fetched once)

function breakdownTable(view, entries, order) {
  const data = prestigeBreakdown(entries, view.players);
  const used = COLUMNS.filter(([k]) => view.players.some((p) => data[p.seat][k] !== 0));
  const table = h("table", { class: "scores breakdown", "data-testid": "prestige-breakdown" },
    h("caption", { text: t("Where each player's prestige came from") }),
    h("thead", {}, h("tr", {}, h("th", { text: t("Player") }), ...used.map(([k]) => h("th", { text: columnName(k) })),
      h("th", { text: t("Total") }))));
  const body = h("tbody");
  for (const seat of order) {
    const p = view.players[seat];
    body.append(h("tr", { "data-seat": seat }, h("td", { text: p.name }),
      ...used.map(([k]) => h("td", { text: String(data[seat][k]) })),
      h("td", {}, h("strong", { text: String(p.prestige) }))));
  }
  table.append(body);
  return table;
}

/** Below the shell's winner line: the score table and the prestige chart. */
export function endDetails(root, view, words, { code } = {}) {
  const winners = view.result?.winners || [];
  const scores = [...(view.result.scores || [])].sort((a, b) => b.prestige - a.prestige || b.gold - a.gold);
  const table = h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr-only", text: t("Rank") })), h("th", { text: t("Player") }),
      h("th", { text: t("Prestige") }), h("th", { text: t("Gold") }))));
  const body = h("tbody");
  scores.forEach((sc, i) => body.append(h("tr", { class: winners.includes(sc.seat) ? "won" : "" },
    h("td", { text: `${i + 1}.` }),
    h("td", {}, view.players[sc.seat]?.name ?? words.who(sc.seat)),
    h("td", { text: sc.prestige }), h("td", { text: sc.gold }))));
  table.append(body);
  root.append(table);
  if (code) {
    const slot = h("div", { class: "breakdown-slot" }, h("p", { class: "muted small", text: t("Reading the log for the prestige breakdown…") }));
    root.append(slot);
    if (!logs.has(code)) {
      logs.set(code, api("GET", `/api/rooms/${encodeURIComponent(code)}/log?after=0`).then((d) => d.entries || []));
    }
    logs.get(code).then((entries) => {
      slot.replaceChildren(breakdownTable(view, entries, scores.map((sc) => sc.seat)));
    }).catch(() => { logs.delete(code); slot.replaceChildren(); });
  }
  root.append(h("h3", { text: t("Prestige at the end of each round") }));
  root.append(prestigeChart(view));
}

export function prestigeChart(view) {
  const hist = view.board?.prestige_history || [];
  const n = view.players.length;
  const W = 360;
  const H = 200;
  const pad = { l: 28, r: 12, t: 12, b: 26 };
  const maxP = Math.max(view.board?.end_prestige || 1, ...hist.flat(), 1);
  const rounds = Math.max(1, hist.length - 1);
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / rounds;
  const y = (v) => H - pad.b - (v * (H - pad.t - pad.b)) / maxP;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-title" },
    s("title", { id: "chart-title", text: t("Each player's prestige at the end of every round") }));
  for (let v = 0; v <= maxP; v += Math.max(1, Math.ceil(maxP / 5))) {
    svg.append(s("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.l - 6, y: y(v) + 4, class: "axis", "text-anchor": "end", text: String(v) }));
  }
  const endY = y(view.board?.end_prestige ?? maxP);
  svg.append(s("line", { x1: pad.l, x2: W - pad.r, y1: endY, y2: endY, class: "end-line" }));
  for (let i = 0; i <= rounds; i += Math.max(1, Math.ceil(rounds / 8))) {
    svg.append(s("text", { x: x(i), y: H - 8, class: "axis", "text-anchor": "middle", text: String(i) }));
  }
  for (let seat = 0; seat < n; seat += 1) {
    const pts = hist.map((row, i) => `${x(i)},${y(row[seat] ?? 0) - seat * 1.5}`);
    svg.append(s("polyline", { points: pts.join(" "), fill: "none", stroke: seatColour(seat), "stroke-width": 3,
      "stroke-linejoin": "round" }, s("title", { text: view.players[seat]?.name ?? "" })));
    hist.forEach((row, i) => svg.append(seatMark(seat, x(i), y(row[seat] ?? 0) - seat * 1.5, 4.5, { stroke: "#222", "stroke-width": 1 })));
  }
  const legend = h("ul", { class: "legend" }, ...view.players.map((p) => h("li", {},
    s("svg", { viewBox: "-8 -8 16 16", width: 14, height: 14, "aria-hidden": "true" }, seatMark(p.seat, 0, 0, 6, { stroke: "#222", "stroke-width": 1 })),
    h("span", { text: ` ${p.name}` }))));
  return h("figure", { class: "chart-wrap" }, svg, legend);
}
