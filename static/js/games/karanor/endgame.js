// Karanor's end screen details (the shell draws the frame and the winner line):
// final scores and the prestige chart over the rounds.
import { h, s, seatColour, seatMark } from "../../util.js";

/** Below the shell's winner line: the score table and the prestige chart. */
export function endDetails(root, view, words) {
  const winners = view.result?.winners || [];
  const scores = [...(view.result.scores || [])].sort((a, b) => b.prestige - a.prestige || b.gold - a.gold);
  const table = h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", { text: "" }), h("th", { text: "Player" }),
      h("th", { text: "Prestige" }), h("th", { text: "Gold" }))));
  const body = h("tbody");
  scores.forEach((sc, i) => body.append(h("tr", { class: winners.includes(sc.seat) ? "won" : "" },
    h("td", { text: `${i + 1}.` }),
    h("td", {}, view.players[sc.seat]?.name ?? words.who(sc.seat)),
    h("td", { text: sc.prestige }), h("td", { text: sc.gold }))));
  table.append(body);
  root.append(table);
  root.append(h("h3", { text: "Prestige at the end of each round" }));
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
    s("title", { id: "chart-title", text: "Each player's prestige at the end of every round" }));
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
