// Karanor's trades in the shell's chat panel: offers and completed trades in the
// timeline, the "New offer" tab with the composer, the "trading is closed" banner and
// the "Promised" line. Offers and trades are stamped when this page first sees them;
// the stamps are kept per room in localStorage, so a reload keeps the order.
import { clear, h } from "../../util.js";
import { t } from "../../i18n.js";
import { Composer } from "./composer.js";
import { LIVE, offerBubble, promisedNode, tradingClosed } from "./offers.js";

// Getters: the module loads before the game's messages; the shell reads these later.
export const PANEL = {
  get title() { return t("Trade & chat"); },
  get emptyText() { return t("Chat and trade offers appear here. Trades happen at any time, even off-turn."); },
};

export class Trades {
  /**
   * @param {ChatPanel} panel the shell's panel
   * @param {object} opts {code, words, send(cmd) -> Promise<boolean>}
   */
  constructor(panel, { code, words, send }) {
    this.panel = panel;
    this.words = words;
    this.send = send;
    this.knownOffers = null; // id -> status, from the last view
    this.storeKey = `karanor:timeline:${code}`;
    this.stamps = this.loadStamps();
    this.ctx = null;

    this.tabButton = h("button", { id: "tab-compose", type: "button", role: "tab", "aria-selected": "false",
      "aria-controls": "trade-composer", "data-testid": "open-composer" }, t("New offer"));
    this.pane = h("div", { id: "trade-composer", class: "trade-composer", role: "tabpanel",
      "aria-labelledby": "tab-compose", hidden: true });
    this.closedEl = h("p", { id: "trade-closed", class: "trade-closed", "data-testid": "trading-closed-banner",
      role: "status", hidden: true });
    this.promisedEl = h("div", { id: "promised-slot", class: "promised-slot" });
    this.composer = new Composer(this.pane, {
      send: (cmd) => this.send(cmd),
      done: () => panel.setTab("timeline"),
    });
    panel.extend({
      ...PANEL,
      tabs: [{ name: "compose", button: this.tabButton, pane: this.pane }],
      banner: this.closedEl,
      below: this.promisedEl,
      onView: (msg, first) => this.onView(msg, first),
      entries: () => this.entries(),
      render: (ctx) => this.render(ctx),
      onTab: (tab) => { if (tab === "compose" && this.ctx) this.composer.render(this.full(this.ctx)); },
    });
  }

  /** The context offers and the composer draw with. */
  full(ctx) {
    return {
      ...ctx,
      words: this.words,
      closed: tradingClosed(ctx.view, this.words),
      counter: (o) => {
        this.composer.counter(o);
        this.panel.setTab("compose");
        if (this.panel.isSheet) this.panel.setOpen(true);
      },
    };
  }

  /** A view arrived: new offers and finished trades get their time in the timeline. */
  onView(msg, first) {
    const view = msg.view;
    const now = Date.now();
    const before = this.knownOffers;
    this.knownOffers = new Map((view.offers || []).map((o) => [o.id, o.status]));
    let fresh = 0;
    let incoming = null;
    for (const o of view.offers || []) {
      const seen = before?.get(o.id);
      if (this.stamps[`o${o.id}`] === undefined) {
        // Offers already there when the page opened, never seen here: before the chat history.
        this.stamps[`o${o.id}`] = first || !before ? o.id * 1e-3 : now;
        if (!first && before && o.from !== view.seat) {
          fresh += 1;
          const forMe = o.to === null || o.to === undefined || o.to.includes(view.seat);
          if (forMe && LIVE.includes(o.status) && view.seat !== null) incoming = o;
        }
      }
      if (o.status === "accepted" && this.stamps[`t${o.id}`] === undefined) {
        this.stamps[`t${o.id}`] = seen !== undefined && seen !== "accepted" && !first ? now
          : this.stamps[`o${o.id}`] + 1e-4;
        if (!first && seen !== "accepted" && o.from === view.seat) fresh += 1;
      }
    }
    for (const e of msg.events || []) {
      if (e.type === "offers_closed") {
        // Once: the rules close the offers when the end is reached and again at the end.
        this.panel.addSystem("offers-closed", t("Trading is closed: the open offers were closed."), now);
      }
    }
    this.saveStamps(view);
    if (fresh) this.panel.bump(fresh);
    // An offer made to you opens the sheet (unless a choice is on screen or you are composing).
    if (incoming && !this.panel.open && this.panel.isSheet && !document.querySelector("dialog[open]")
        && this.panel.tab === "timeline") {
      this.panel.setOpen(true);
    }
  }

  render(ctx) {
    this.ctx = ctx;
    const c = this.full(ctx);
    const view = ctx.view;
    const spectator = view.seat === null || view.seat === undefined;
    this.tabButton.hidden = spectator;
    this.closedEl.hidden = !c.closed;
    this.closedEl.textContent = c.closed || "";
    clear(this.promisedEl);
    if (!spectator) {
      const node = promisedNode(view, this.words);
      if (node) this.promisedEl.append(node);
    }
    if (this.panel.tab === "compose") this.composer.render(c);
  }

  /** Offers, and a green line per completed trade, as timeline items. */
  entries() {
    const ctx = this.ctx;
    if (!ctx) return [];
    const words = this.words;
    const me = ctx.view.seat ?? null;
    const out = [];
    for (const o of ctx.view.offers || []) {
      const mine = o.from === me && me !== null;
      out.push({
        key: `o:${o.id}`, t: this.stamps[`o${o.id}`] ?? o.id * 1e-3,
        node: () => h("li", { class: `tl-item${mine ? " mine" : ""}` }, offerBubble(o, this.full(ctx))),
        peek: () => {
          const p = { actor: words.name(o.from), give: words.bundle(o.give), want: words.bundle(o.want), to: words.toWhom(o.to) };
          return mine ? t("You offer {give} for {want} {to}", p) : t("{actor} offers {give} for {want} {to}", p);
        },
      });
      if (o.status === "accepted" && o.accepted_by !== null && o.accepted_by !== undefined) {
        const line = words.trade(o.from, o.accepted_by, o.give, o.want);
        out.push({
          key: `t:${o.id}`, t: this.stamps[`t${o.id}`] ?? o.id * 1e-3 + 1e-4,
          node: () => h("li", { class: "tl-item tl-system tl-trade", "data-testid": "trade-line" },
            h("span", { text: `✔ ${line}` })),
          peek: line,
        });
      }
    }
    return out;
  }

  // --- when each offer and trade happened (kept per room in this browser) ------------------

  loadStamps() {
    try {
      return JSON.parse(localStorage.getItem(this.storeKey) || "{}") || {};
    } catch {
      return {};
    }
  }

  saveStamps(view) {
    const ids = new Set((view.offers || []).map((o) => o.id));
    for (const key of Object.keys(this.stamps)) if (!ids.has(Number(key.slice(1)))) delete this.stamps[key];
    try {
      localStorage.setItem(this.storeKey, JSON.stringify(this.stamps));
    } catch {
      // private mode or full storage: the order is kept for this page only
    }
  }
}
