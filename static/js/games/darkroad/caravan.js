// The caravan, for everyone: the leader, the route, the town, the companion, who joined,
// the event card with its six faces, the travel dice on the table and who took which.
// The view gives the caravan as it stands; joins, picks and rerolls are remembered from
// the events this page has seen.
import { t } from "../../i18n.js";
import { clear, h, seatBadge } from "../../util.js";
import { dieChip } from "./draw.js";

/** The caravan's card fed by views: joins and picks come from their events; after a
 *  reload, or when views were skipped, they are read again from the room's log
 *  (`readLog(after)`: its entries after that version; the last 120 versions are plenty). */
export class CaravanFeed {
  constructor(root, words, readLog) {
    Object.assign(this, { root, words, readLog, record: new CaravanRecord(), seen: null, syncing: false, view: null });
  }

  update(view, events) {
    this.view = view;
    if (events) {
      this.record.onEvents(events);
      if (view.board.travel && (this.seen === null || view.version > this.seen + 1)) this.resync(view.version);
      this.seen = view.version;
    }
    this.record.render(this.root, view, this.words);
  }

  async resync(version) {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const entries = await this.readLog(Math.max(0, version - 120));
      const fresh = new CaravanRecord();
      for (const entry of entries || []) fresh.onEvents(entry.events || []);
      this.record.rec = fresh.rec;
      this.record.render(this.root, this.view, this.words);
    } catch {
      /* the card keeps what this page saw */
    } finally {
      this.syncing = false;
    }
  }
}

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
    const tr = view.board.travel;
    const r = this.rec;
    clear(root);
    if (!tr && !r) { root.hidden = true; return; }
    root.hidden = false;
    const live = Boolean(tr);
    if (tr?.final || (!tr && r?.final)) {
      root.append(h("h2", { text: tr ? t("The final travel") : t("The final travel is over") }),
        h("p", { text: t("Winter is over: each merchant may visit any town to deliver. No event, no good fortune.") }));
      this.visits(root, words);
      return;
    }
    const leader = tr ? tr.leader : r.leader;
    const town = tr ? tr.town : r.town;
    const route = tr ? tr.route : r.route;
    const comp = tr ? tr.companion : r.companion;
    root.append(h("h2", { text: live ? t("The caravan") : t("The last caravan") }));
    root.append(h("p", {}, seatBadge(leader, 18), " ", words.sentence({ type: "caravan", seat: leader, town, route, companion: comp })));
    const travellers = tr ? tr.travellers : [leader, ...(r?.joins || []).filter((j) => j.yes).map((j) => j.seat)];
    const said = new Map((r?.joins || []).map((j) => [j.seat, j.yes]));
    const answers = view.players.filter((p) => p.seat !== leader).map((p) => {
      const yes = travellers.includes(p.seat) ? true : said.has(p.seat) ? said.get(p.seat) : null;
      const p2 = { name: p.name };
      return h("li", {}, seatBadge(p.seat, 14), " ", yes === true ? t("{name}: joins", p2) : yes === false ? t("{name}: stays home", p2)
        : tr?.stage === "join" ? t("{name}: deciding…", p2) : t("{name}: —", p2));
    });
    if (answers.length) root.append(h("ul", { class: "dr-joins" }, ...answers));
    const evId = t?.event ?? r?.event;
    const ev = evId ? words.events[evId] : null;
    if (ev) {
      const onTable = new Set(tr?.dice || []);
      const taken = new Map();
      for (const p of r?.picks || []) taken.set(p.face, [...(taken.get(p.face) || []), p.seat]);
      root.append(h("div", { class: "dr-event" },
        h("h3", { text: ev.deck === "shortcut" ? t("Shortcut event: {event}", { event: ev.name }) : t("Dark road event: {event}", { event: ev.name }) }),
        words.flavour(ev) ? h("p", { class: "flavour", text: words.flavour(ev) }) : null,
        h("table", { class: "dr-faces" }, h("tbody", {}, ...[1, 2, 3, 4, 5, 6].map((f) => h("tr", {
          class: `${onTable.has(f) ? "rolled" : ""}${words.isCost(ev.faces[String(f)]) ? " cost" : ""}` },
        h("td", {}, dieChip(f, "travel")),
        h("td", { text: words.effects(ev.faces[String(f)]) }),
        h("td", { class: "small" }, ...(taken.get(f) || []).map((sx) => h("span", { class: "dr-took" }, seatBadge(sx, 14), ` ${words.who(sx)}`)))))))));
    }
    if (tr && tr.dice.length) root.append(h("p", { class: "dr-dice-line" }, t("On the table:"), " ", ...tr.dice.map((d) => dieChip(d, "travel"))));
    if (r?.picks?.length) {
      root.append(h("ul", { class: "dr-picks" }, ...r.picks.map((p) => h("li", {}, seatBadge(p.seat, 14), " ", this.pick(words, p, ev)))));
    }
    if (r?.rerolls?.length) {
      root.append(h("p", { class: "small muted", text: r.rerolls.map((x) => (words.isMe(x.seat) ? t("You rerolled: {dice}", { dice: x.dice.join(", ") })
        : t("{name} rerolled: {dice}", { name: words.name(x.seat), dice: x.dice.join(", ") }))).join(" · ") }));
    }
    this.visits(root, words);
  }

  visits(root, words) {
    const v = this.rec?.visits || [];
    if (v.length) {
      root.append(h("p", { class: "small", text: v.map((x) => (x.town ? t("{name} → {town}", { name: words.who(x.seat), town: words.town(x.town) })
        : t("{name}: passed", { name: words.who(x.seat) }))).join(" · ") }));
    }
  }

  /** "You took the 4 (as 5): gain 2 coins" / "Bo took the 4: ...". */
  pick(words, p, ev) {
    const q = { name: words.name(p.seat), value: p.value, face: p.face, effects: ev ? words.effects(ev.faces[String(p.face)]) : "" };
    if (words.isMe(p.seat)) return p.face !== p.value ? t("You took the {value} (as {face}): {effects}", q) : t("You took the {value}: {effects}", q);
    return p.face !== p.value ? t("{name} took the {value} (as {face}): {effects}", q) : t("{name} took the {value}: {effects}", q);
  }
}
