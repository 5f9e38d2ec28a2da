// The caravan, for everyone: the leader, the route, the town, the companion, who joined,
// the event card with its six faces, the travel dice on the table and who took which.
// The view gives the caravan as it stands; joins, picks and rerolls are remembered from
// the events this page has seen.
import { clear, h, seatBadge } from "../../util.js";
import { dieChip } from "./draw.js";

export class CaravanRecord {
  constructor() { this.rec = null; }

  /** Feed a new view's events. */
  onEvents(events) {
    for (const e of events || []) {
      if (e.type === "caravan") this.rec = { leader: e.seat, town: e.town, route: e.route, companion: e.companion, joins: [], picks: [], rerolls: [], event: null, dice: [] };
      else if (e.type === "final_travel") this.rec = { final: true, joins: [], picks: [], rerolls: [], visits: [] };
      else if (!this.rec) continue;
      else if (e.type === "join") this.rec.joins.push({ seat: e.seat, yes: e.yes });
      else if (e.type === "event") { this.rec.event = e.event; this.rec.dice = e.dice; }
      else if (e.type === "travel_reroll") this.rec.rerolls.push({ seat: e.seat, dice: e.dice });
      else if (e.type === "travel_die") this.rec.picks.push({ seat: e.seat, value: e.value, face: e.face });
      else if (e.type === "visit") (this.rec.visits ||= []).push({ seat: e.seat, town: e.town });
      else if (e.type === "caravan_done") this.rec.done = true;
    }
  }

  render(root, view, words) {
    const t = view.board.travel;
    const r = this.rec;
    clear(root);
    if (!t && !r) { root.hidden = true; return; }
    root.hidden = false;
    const live = Boolean(t);
    if (t?.final || (!t && r?.final)) {
      root.append(h("h2", { text: t ? "The final travel" : "The final travel is over" }),
        h("p", { text: "Winter is over: each merchant may visit any town to deliver. No event, no good fortune." }));
      this.visits(root, words);
      return;
    }
    const leader = t ? t.leader : r.leader;
    const town = t ? t.town : r.town;
    const route = t ? t.route : r.route;
    const comp = t ? t.companion : r.companion;
    root.append(h("h2", { text: live ? "The caravan" : "The last caravan" }));
    root.append(h("p", {}, seatBadge(leader, 18), ` ${words.who(leader)} ${words.verb(leader, "lead", "leads")} a caravan to `,
      h("b", { text: words.town(town) }), ` by ${route === "shortcut" ? "a shortcut" : "the dark road"}, with ${words.companion(comp)}.`));
    const travellers = t ? t.travellers : [leader, ...(r?.joins || []).filter((j) => j.yes).map((j) => j.seat)];
    const said = new Map((r?.joins || []).map((j) => [j.seat, j.yes]));
    const answers = view.players.filter((p) => p.seat !== leader).map((p) => {
      const yes = travellers.includes(p.seat) ? true : said.has(p.seat) ? said.get(p.seat) : null;
      return h("li", {}, seatBadge(p.seat, 14), ` ${p.name}: ${yes === true ? "joins" : yes === false ? "stays home" : t?.stage === "join" ? "deciding…" : "—"}`);
    });
    if (answers.length) root.append(h("ul", { class: "dr-joins" }, ...answers));
    const evId = t?.event ?? r?.event;
    const ev = evId ? words.events[evId] : null;
    if (ev) {
      const onTable = new Set(t?.dice || []);
      const taken = new Map();
      for (const p of r?.picks || []) taken.set(p.face, [...(taken.get(p.face) || []), p.seat]);
      root.append(h("div", { class: "dr-event" },
        h("h3", { text: `${ev.deck === "shortcut" ? "Shortcut" : "Dark road"} event: ${ev.name}` }),
        h("p", { class: "flavour", text: ev.flavour }),
        h("table", { class: "dr-faces" }, h("tbody", {}, ...[1, 2, 3, 4, 5, 6].map((f) => h("tr", {
          class: `${onTable.has(f) ? "rolled" : ""}${words.isCost(ev.faces[String(f)]) ? " cost" : ""}` },
        h("td", {}, dieChip(f, "travel")),
        h("td", { text: words.effects(ev.faces[String(f)]) }),
        h("td", { class: "small" }, ...(taken.get(f) || []).map((sx) => h("span", { class: "dr-took" }, seatBadge(sx, 14), ` ${words.who(sx)}`)))))))));
    }
    if (t && t.dice.length) root.append(h("p", { class: "dr-dice-line" }, "On the table: ", ...t.dice.map((d) => dieChip(d, "travel"))));
    if (r?.picks?.length) {
      root.append(h("ul", { class: "dr-picks" }, ...r.picks.map((p) => h("li", {}, seatBadge(p.seat, 14),
        ` ${words.who(p.seat)} ${words.verb(p.seat, "took", "took")} the ${p.value}${p.face !== p.value ? ` (as ${p.face})` : ""}: ${ev ? words.effects(ev.faces[String(p.face)]) : ""}`))));
    }
    if (r?.rerolls?.length) root.append(h("p", { class: "small muted", text: r.rerolls.map((x) => `${words.who(x.seat)} rerolled: ${x.dice.join(", ")}`).join(" · ") }));
    this.visits(root, words);
  }

  visits(root, words) {
    const v = this.rec?.visits || [];
    if (v.length) root.append(h("p", { class: "small", text: v.map((x) => `${words.who(x.seat)} → ${x.town ? words.town(x.town) : "passed"}`).join(" · ") }));
  }
}
