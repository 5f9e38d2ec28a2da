// The game log in words ("What happened"): one order, oldest at the top and the newest
// at the bottom, following new entries while the reader is at the bottom; fed by the
// events of each view message; the game says what each event means (its module's
// describe()). The list is focusable, so a keyboard scrolls it.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { clear, h } from "./util.js";

/** The log card, built once by the shell and placed by the game's layout. */
export function logCard() {
  const list = h("ol", { id: "log", class: "log", tabindex: 0, "data-testid": "game-log",
    "aria-label": t("What happened, oldest first (scroll with the arrow keys)") });
  const card = h("section", { class: "card log-card", "aria-labelledby": "log-title", "data-testid": "log" },
    h("h2", { id: "log-title", text: t("What happened") }), list);
  return { card, list };
}

const MAX_LINES = 300;

export class GameLog {
  /** @param {HTMLElement} list  the <ol>; describe(event, asWatcher) -> a sentence or null;
   * byline(seat, by) -> "A bot played for Finn (out of time)" or null (see docs/api.md `by`) */
  constructor(list, describe, code, byline = () => null) {
    this.list = list;
    this.describe = describe;
    this.byline = byline;
    this.code = code;
    this.ready = Promise.resolve(); // the last backfill
    this.logged = -1; // highest version already in the list
    this.entries = []; // [{version, actor, events}] in version order (the "while you were away" summary)
    this.max = MAX_LINES; // lines kept (a replay keeps them all)
    // Is the reader at the bottom (new lines are followed)? Kept from the list's own
    // scroll events, so that adding a line never reads the layout (issue 31: a read
    // there forced the page's layout in the middle of every view's task).
    this.atEnd = true;
    list.addEventListener("scroll", () => {
      this.atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    }, { passive: true });
  }

  /** A view message arrived: log its events, fetching from the log what was missed. */
  onView(msg, firstView) {
    const version = msg.version;
    if (firstView) {
      const before = this.logged;
      this.logged = Math.max(this.logged, version);
      if (before < 0) this.ready = this.backfill(Math.max(0, version - 40), version, msg);
      else if (version > before) this.ready = this.backfill(before, version, msg);
      return;
    }
    if (version <= this.logged) return;
    if (version > this.logged + 1 && this.logged >= 0) this.ready = this.backfill(this.logged, version - 1, null);
    this.logged = version;
    this.add(version, msg.events || [], msg.seat, msg.by);
  }

  async backfill(after, upTo, fallback) {
    try {
      const data = await api("GET", `/api/rooms/${encodeURIComponent(this.code)}/log?after=${after}`);
      for (const entry of data.entries || []) {
        if (entry.version <= upTo) this.add(entry.version, entry.events || [], entry.seat, entry.by);
      }
    } catch {
      if (fallback) this.add(upTo, fallback.events || []);
    }
  }

  add(version, events, seat, by = null) {
    if (this.entries.some((e) => e.version === version)) return;
    const actor = seat ?? events.find((e) => typeof e.seat === "number")?.seat ?? null;
    const at = this.entries.findIndex((e) => e.version > version);
    // A bot's move for a person (out of time, or away): said so, and worded as a watcher
    // reads it ("Finn moved", never "You moved").
    const byline = by ? this.byline(actor, by) : null;
    const entry = { version, actor, events, by: byline ? by : null };
    if (at < 0) this.entries.push(entry); else this.entries.splice(at, 0, entry);
    if (this.entries.length > this.max) this.entries.shift();

    const lines = byline ? [{ text: byline, type: "bot-played" }] : [];
    for (const e of events) {
      const text = this.describe(e, Boolean(byline));
      if (text && text !== lines[lines.length - 1]?.text) lines.push({ text, type: e.type });
    }
    if (!lines.length) return;
    const atEnd = this.atEnd;
    const item = h("li", { class: byline ? "log-entry log-bot" : "log-entry", "data-version": version,
      "data-by": byline ? by : null },
      ...lines.map(({ text, type }) => h("p", { text, "data-type": type })));
    // Oldest first, whatever order the lines arrive in (backfills are late).
    const next = [...this.list.children].find((li) => Number(li.dataset.version) > version);
    this.list.insertBefore(item, next || null);
    while (this.list.children.length > this.max) this.list.firstElementChild.remove();
    if (atEnd || !next) requestAnimationFrame(() => { if (atEnd) this.list.scrollTop = this.list.scrollHeight; });
  }

  /** A line of the table's own (not the game's) after `version`, once per `key`. */
  note(version, text, key) {
    if (this.list.querySelector(`[data-note="${key}"]`)) return;
    const item = h("li", { class: "log-entry log-note", "data-version": version, "data-note": key },
      h("p", { text, "data-type": "table-note" }));
    const next = [...this.list.children].find((li) => Number(li.dataset.version) > version);
    this.list.insertBefore(item, next || null);
  }

  reset() {
    clear(this.list);
    this.logged = -1;
    this.entries = [];
  }
}
