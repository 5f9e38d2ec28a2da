// The trade-and-chat panel: chat messages and trade offers in ONE timeline, the offer
// composer, and the chat form. On a phone (and narrow windows) it is a bottom sheet
// behind a bar with an unread badge; on a wide screen it is a column always open.
// Everything a player typed is inserted as text (textContent), never as HTML.
import { Composer } from "./composer.js";
import { LIVE, offerBubble, promisedNode, tradingClosed } from "./offers.js";
import { clear, h, seatBadge, seatColour } from "./util.js";

const MAX_CHAT = 200;
const WIDE = "(min-width: 1200px)";

export class TradePanel {
  /**
   * @param {HTMLElement} root  #trade-panel
   * @param {object} opts  {code, socket, send(cmd) -> Promise<boolean>}
   */
  constructor(root, { code, socket, send }) {
    this.root = root;
    this.code = code;
    this.socket = socket;
    this.sendCommand = send;
    this.items = new Map(); // key -> {kind, t, seq, ...}
    this.seq = 0;
    this.unread = 0;
    this.open = false;
    this.tab = "timeline";
    this.ctx = null;
    this.knownOffers = null; // id -> status, from the last view
    this.storeKey = `karanor:timeline:${code}`;
    this.stamps = this.loadStamps();
    const $ = (sel) => root.querySelector(sel);
    this.toggle = $("#trade-toggle");
    this.unreadEl = $("#trade-unread");
    this.peekEl = $("#trade-peek");
    this.list = $("#timeline");
    this.promisedEl = $("#promised-slot");
    this.closedEl = $("#trade-closed");
    this.tabs = { timeline: $("#tab-timeline"), compose: $("#tab-compose") };
    this.panes = { timeline: $("#timeline-pane"), compose: $("#trade-composer") };
    this.tabUnread = $("#tab-unread");
    this.input = $("#chat-input");
    this.wide = window.matchMedia(WIDE);
    this.composer = new Composer(this.panes.compose, {
      send: (cmd) => this.sendCommand(cmd),
      done: () => this.setTab("timeline"),
    });

    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.tabs.timeline.addEventListener("click", () => this.setTab("timeline"));
    this.tabs.compose.addEventListener("click", () => this.setTab("compose"));
    root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.open && !this.wide.matches) {
        this.setOpen(false);
        this.toggle.focus();
      }
    });
    this.wide.addEventListener("change", () => this.sync());
    $("#chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.socket.chat(text)) this.input.value = "";
    });
    this.sync();
  }

  // --- where things are shown ----------------------------------------------------------

  get visible() {
    const inGame = document.body.classList.contains("in-game");
    return (!inGame || this.wide.matches || this.open) && this.tab === "timeline" && !document.hidden;
  }

  setOpen(open) {
    this.open = open;
    this.sync();
    if (open) this.scrollToEnd();
  }

  setTab(tab) {
    this.tab = tab;
    this.sync();
    if (tab === "compose" && this.ctx) this.composer.render(this.ctxFor(this.ctx));
    if (tab === "timeline") this.scrollToEnd();
  }

  /** Reflect open/tab/unread in the page (attributes drive the CSS). */
  sync() {
    const sheet = !this.wide.matches;
    this.root.dataset.open = this.open || !sheet ? "true" : "false";
    this.toggle.setAttribute("aria-expanded", String(this.open || !sheet));
    document.body.classList.toggle("sheet-open", sheet && this.open && document.body.classList.contains("in-game"));
    for (const [name, tab] of Object.entries(this.tabs)) {
      tab.setAttribute("aria-selected", String(this.tab === name));
      tab.tabIndex = this.tab === name ? 0 : -1;
      this.panes[name].hidden = this.tab !== name;
    }
    if (this.visible) this.unread = 0;
    this.unreadEl.hidden = this.unread === 0;
    this.unreadEl.textContent = String(this.unread);
    this.unreadEl.setAttribute("aria-label", `${this.unread} unread`);
    this.tabUnread.hidden = this.unread === 0 || this.tab === "timeline";
    this.tabUnread.textContent = String(this.unread);
  }

  // --- what arrives --------------------------------------------------------------------

  /** A chat message (live, or the history sent on connect): kept once, in time order. */
  addChat(msg) {
    const at = msg.at ? Date.parse(typeof msg.at === "number" && msg.at < 1e12 ? msg.at * 1000 : msg.at) : NaN;
    const key = `c:${msg.seat}:${msg.at ?? ""}:${msg.text}`;
    if (this.items.has(key)) return;
    const t = Number.isNaN(at) ? Date.now() : Math.min(at, Date.now());
    this.items.set(key, { kind: "chat", key, t, seq: this.seq++, msg });
    const chats = [...this.items.values()].filter((i) => i.kind === "chat");
    if (chats.length > MAX_CHAT) {
      chats.sort((a, b) => a.t - b.t || a.seq - b.seq);
      for (const old of chats.slice(0, chats.length - MAX_CHAT)) this.items.delete(old.key);
    }
    const me = this.ctx?.view?.seat;
    if (msg.seat !== me && Date.now() - t < 60_000) this.bump(1);
    this.renderTimeline();
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
        const key = `x:${msg.version}`;
        this.items.set(key, { kind: "system", key, t: now, seq: this.seq++, text: "Trading is closed: the open offers were closed." });
      }
    }
    this.saveStamps(view);
    if (fresh) this.bump(fresh);
    // An offer made to you opens the sheet (unless a choice is on screen or you are composing).
    if (incoming && !this.open && !this.wide.matches && !document.querySelector("dialog[open]")
        && this.tab === "timeline") {
      this.setOpen(true);
    }
  }

  bump(n) {
    if (this.visible) return;
    this.unread += n;
    this.sync();
  }

  // --- drawing -------------------------------------------------------------------------

  ctxFor(ctx) {
    return {
      ...ctx,
      closed: tradingClosed(ctx.view, ctx.words),
      counter: (o) => {
        this.composer.counter(o);
        this.setTab("compose");
        if (!this.wide.matches) this.setOpen(true);
      },
    };
  }

  render(ctx) {
    this.ctx = ctx;
    const c = this.ctxFor(ctx);
    const view = ctx.view;
    const spectator = view.seat === null || view.seat === undefined;
    this.tabs.compose.hidden = spectator;
    if (spectator && this.tab === "compose") this.tab = "timeline";
    this.closedEl.hidden = !c.closed;
    this.closedEl.textContent = c.closed || "";
    clear(this.promisedEl);
    if (!spectator) {
      const node = promisedNode(view, ctx.words);
      if (node) this.promisedEl.append(node);
    }
    if (this.tab === "compose") this.composer.render(c);
    this.renderTimeline();
    this.sync();
  }

  renderTimeline() {
    const ctx = this.ctx;
    const atEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    const keep = this.list.scrollTop;
    const focus = document.activeElement && this.list.contains(document.activeElement)
      ? [document.activeElement.closest("[data-offer]")?.dataset.offer, document.activeElement.dataset.testid] : null;
    const entries = [...this.items.values()];
    const offers = ctx?.view?.offers || [];
    for (const o of offers) {
      entries.push({ kind: "offer", key: `o:${o.id}`, t: this.stamps[`o${o.id}`] ?? o.id * 1e-3, seq: -1, offer: o });
      if (o.status === "accepted" && o.accepted_by !== null && o.accepted_by !== undefined) {
        entries.push({ kind: "trade", key: `t:${o.id}`, t: this.stamps[`t${o.id}`] ?? o.id * 1e-3 + 1e-4, seq: -1, offer: o });
      }
    }
    entries.sort((a, b) => a.t - b.t || a.seq - b.seq);
    clear(this.list);
    if (!entries.length) {
      this.list.append(h("li", { class: "tl-empty muted small",
        text: "Chat and trade offers appear here. Trades happen at any time, even off-turn." }));
    }
    let last = null;
    for (const item of entries) {
      const node = this.itemNode(item, ctx);
      if (node) {
        this.list.append(node);
        last = item;
      }
    }
    this.peekEl.textContent = last ? this.peekText(last, ctx) : "";
    if (atEnd) this.scrollToEnd();
    else this.list.scrollTop = keep;
    if (focus?.[0]) {
      const again = this.list.querySelector(`[data-offer="${focus[0]}"] [data-testid="${focus[1]}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  peekText(item, ctx) {
    const words = ctx?.words;
    if (item.kind === "chat") return `${item.msg.name ?? "?"}: ${item.msg.text ?? ""}`;
    if (item.kind === "system") return item.text;
    if (!words) return "";
    const o = item.offer;
    if (item.kind === "trade") return words.trade(o.from, o.accepted_by, o.give, o.want);
    const verb = o.from === ctx.view.seat ? "offer" : "offers";
    return `${words.who(o.from)} ${verb} ${words.bundle(o.give)} for ${words.bundle(o.want)} ${words.toWhom(o.to)}`;
  }

  itemNode(item, ctx) {
    const me = ctx?.view?.seat ?? null;
    if (item.kind === "chat") {
      const msg = item.msg;
      const mine = msg.seat === me && me !== null;
      const at = new Date(item.t);
      const time = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      const li = h("li", { class: `tl-item chat-message${mine ? " mine" : ""}`, "data-testid": "chat-message" },
        h("div", { class: "bubble chat-bubble" },
          h("span", { class: "chat-head" },
            typeof msg.seat === "number" ? seatBadge(msg.seat, 14) : null,
            h("strong", { class: "chat-name", text: `${msg.name ?? "?"}: ` })),
          h("span", { class: "chat-text", text: msg.text ?? "" }),
          time ? h("time", { class: "chat-time", text: time }) : null));
      if (typeof msg.seat === "number") li.style.setProperty("--seat", seatColour(msg.seat));
      return li;
    }
    if (!ctx) return null;
    if (item.kind === "system") return h("li", { class: "tl-item tl-system", text: item.text });
    if (item.kind === "trade") {
      const o = item.offer;
      return h("li", { class: "tl-item tl-system tl-trade", "data-testid": "trade-line" },
        h("span", { text: `✔ ${ctx.words.trade(o.from, o.accepted_by, o.give, o.want)}` }));
    }
    const mine = item.offer.from === me && me !== null;
    return h("li", { class: `tl-item${mine ? " mine" : ""}` }, offerBubble(item.offer, this.ctxFor(ctx)));
  }

  scrollToEnd() {
    requestAnimationFrame(() => { this.list.scrollTop = this.list.scrollHeight; });
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
