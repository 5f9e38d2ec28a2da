// The game log in words ("What happened"), newest on top, fed by the events of each view
// message; the game says what each event means (its module's describe()).
import { api } from "./api.js";
import { clear, h } from "./util.js";

/** The log card, built once by the shell and placed by the game's layout. */
export function logCard() {
  const list = h("ol", { id: "log", class: "log", reversed: true });
  const card = h("section", { class: "card log-card", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title", text: "What happened" }), list);
  return { card, list };
}

const MAX_LINES = 300;

export class GameLog {
  /** @param {HTMLElement} list  the <ol>; describe(event) -> a sentence or null */
  constructor(list, describe, code) {
    this.list = list;
    this.describe = describe;
    this.code = code;
    this.logged = -1; // highest version already in the list
  }

  /** A view message arrived: log its events, fetching from the log what was missed. */
  onView(msg, firstView) {
    const version = msg.version;
    if (firstView) {
      const before = this.logged;
      this.logged = Math.max(this.logged, version);
      if (before < 0) this.backfill(Math.max(0, version - 40), version, msg);
      else if (version > before) this.backfill(before, version, msg);
      return;
    }
    if (version <= this.logged) return;
    if (version > this.logged + 1 && this.logged >= 0) this.backfill(this.logged, version - 1, null);
    this.logged = version;
    this.add(version, msg.events || []);
  }

  async backfill(after, upTo, fallback) {
    try {
      const data = await api("GET", `/api/rooms/${encodeURIComponent(this.code)}/log?after=${after}`);
      for (const entry of data.entries || []) {
        if (entry.version <= upTo) this.add(entry.version, entry.events || []);
      }
    } catch {
      if (fallback) this.add(upTo, fallback.events || []);
    }
  }

  add(version, events) {
    const lines = events.map((e) => this.describe(e)).filter(Boolean);
    if (!lines.length) return;
    const item = h("li", { class: "log-entry", "data-version": version },
      ...lines.map((text) => h("p", { text })));
    // Newest on top, whatever order the lines arrive in (backfills are late).
    const after = [...this.list.children].find((li) => Number(li.dataset.version) < version);
    if ([...this.list.children].some((li) => Number(li.dataset.version) === version)) return;
    this.list.insertBefore(item, after || null);
    while (this.list.children.length > MAX_LINES) this.list.lastElementChild.remove();
  }

  reset() {
    clear(this.list);
    this.logged = -1;
  }
}
