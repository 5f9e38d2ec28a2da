// The chat panel and the table's timeline: chat messages and whatever the game adds
// (Karanor: trade offers and completed trades) in ONE list, in time order. On a phone
// (and narrow windows) it is a bottom sheet behind a bar with an unread badge; on a
// wide screen it is a column always open; in the lobby, a plain chat card.
// Everything a player typed is inserted as text (textContent), never as HTML.
import { lang, t, tn } from "./i18n.js";
import { afterPaint, clear, h, seatBadge, seatColour } from "./util.js";

const MAX_CHAT = 200;
const WIDE = "(min-width: 1200px)";

/**
 * A game extends the panel (all optional) with `panel.extend(ext)`:
 *   title            the bar's name ("Trade & chat"); default "Chat"
 *   emptyText        what the empty timeline says
 *   tabs             [{name, button, pane}]: more tabs beside the timeline (button: role=tab)
 *   banner           a node shown above the timeline (e.g. "trading is closed")
 *   below            a node shown under the timeline, above the chat form
 *   onView(msg, first)   each view message (before render)
 *   entries(ctx)     the game's timeline items: [{key, t (ms), node() -> <li>, peek}]
 *   render(ctx)      each render, before the timeline is drawn
 *   onTab(name)      a tab was chosen
 * `ctx` is the shell's: {view, busy, send(cmd)}.
 */
export class ChatPanel {
  /**
   * @param {HTMLElement} root  #trade-panel
   * @param {object} opts  {socket}: chat lines are sent on the room's socket
   */
  constructor(root, { socket }) {
    this.root = root;
    this.socket = socket;
    this.items = new Map(); // key -> {kind: "chat"|"system", key, t, seq, ...}
    this.seq = 0;
    this.unread = 0;
    this.open = false;
    this.tab = "timeline";
    this.ctx = null;
    this.ext = {};
    const $ = (sel) => root.querySelector(sel);
    this.toggle = $("#trade-toggle");
    this.title = $(".trade-title");
    this.unreadEl = $("#trade-unread");
    this.peekEl = $("#trade-peek");
    this.list = $("#timeline");
    // Where the reader is (at the bottom: new lines are followed), kept from the list's own
    // scroll events: redrawing the timeline never reads the layout (issue 31: its read
    // laid the first board out a second time at 4x CPU).
    this.atEnd = true;
    this.scrolled = 0;
    this.list.addEventListener("scroll", () => {
      const list = this.list;
      this.scrolled = list.scrollTop;
      this.atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    }, { passive: true });
    this.tabList = $(".trade-tabs");
    this.tabs = { timeline: $("#tab-timeline") };
    this.panes = { timeline: $("#timeline-pane") };
    this.tabUnread = $("#tab-unread");
    this.input = $("#chat-input");
    this.form = $("#chat-form");
    this.wide = window.matchMedia(WIDE);

    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.tabs.timeline.addEventListener("click", () => this.setTab("timeline"));
    // The tabs as ARIA tabs: one in the Tab order (the chosen one), the arrow keys, Home
    // and End move between them (so every tab is reachable from the keyboard).
    this.tabList.addEventListener("keydown", (event) => this.tabKey(event));
    root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.open && !this.wide.matches) {
        this.setOpen(false);
        this.toggle.focus();
      }
    });
    this.wide.addEventListener("change", () => this.sync());
    this.seated = true;
    this.canJoin = true;
    this.hint = h("p", { class: "chat-hint", "data-testid": "chat-hint", role: "status", hidden: true });
    this.form.after(this.hint);
    // Quick reactions: one tap sends a short line, in the sender's language (issue 27).
    this.emotes = h("div", { class: "chat-emotes", role: "group", "aria-label": t("Quick reactions") },
      ...[t("👍 Nice move!"), t("😄 Good game!"), t("🤔 Thinking…"), t("⏳ One moment, please")].map((text) =>
        h("button", { type: "button", class: "btn small chat-emote", "data-testid": "chat-emote",
          onclick: () => {
            if (!this.seated) this.say(this.seatWords(), "seat");
            else if (!this.socket.chat(text)) this.say(t("Not connected: your message is kept; send it again when the connection is back."));
          } }, text)));
    this.form.before(this.emotes);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      // A visitor without a seat cannot chat: say so, and keep what they typed.
      if (!this.seated) {
        this.say(this.canJoin ? t("Take a seat to chat: the chat is for the players. Your message is kept here.")
          : this.seatWords(), "seat");
        return;
      }
      if (this.socket.chat(text)) {
        this.input.value = "";
        this.say(null);
      } else this.say(t("Not connected: your message is kept; send it again when the connection is back."));
    });
    this.sync();
  }

  /** A line under the chat form (null: none); `why` "seat" when it asks for a seat. */
  say(text, why = null) {
    this.hint.hidden = !text;
    this.hint.textContent = text || "";
    this.hint.dataset.why = text ? why || "" : "";
  }

  /** Whether the viewer holds a seat (visitors and spectators cannot chat), and whether
   *  one may still be taken (the lobby: once the game runs, a spectator only reads). */
  setSeated(seated, canJoin = true) {
    if (seated === this.seated && canJoin === this.canJoin) return;
    this.seated = seated;
    this.canJoin = canJoin;
    this.input.placeholder = seated ? t("Say something") : canJoin ? t("Take a seat to chat") : t("Only the players chat");
    if (seated && this.hint.dataset.why === "seat") this.say(null);
  }

  /** Why a visitor cannot chat, and what they may do. */
  seatWords() {
    return this.canJoin ? t("Take a seat to chat: the chat is for the players.")
      : t("The chat is for the players: you are watching the game.");
  }

  /** A chat line the server refused (the socket's error): the text comes back to the input. */
  refused(message) {
    this.say(message);
  }

  /** A game's additions (see above); merged with what an earlier call gave. */
  extend(ext) {
    this.ext = { ...this.ext, ...ext };
    if (ext.title) {
      this.title.textContent = ext.title;
      this.root.setAttribute("aria-label", ext.title.replace("&", "and"));
    }
    for (const tab of ext.tabs || []) {
      this.tabs[tab.name] = tab.button;
      this.panes[tab.name] = tab.pane;
      this.tabList.append(tab.button);
      this.root.querySelector("#trade-body").append(tab.pane);
      tab.button.addEventListener("click", () => this.setTab(tab.name));
    }
    if (ext.banner) this.panes.timeline.before(ext.banner);
    if (ext.below) this.form.before(ext.below);
    this.sync();
  }

  // --- where things are shown ----------------------------------------------------------

  get visible() {
    const inGame = document.body.classList.contains("in-game");
    return (!inGame || this.wide.matches || this.open) && this.tab === "timeline" && !document.hidden;
  }

  get isSheet() {
    return !this.wide.matches;
  }

  setOpen(open) {
    this.open = open;
    this.sync();
    if (open) this.scrollToEnd();
  }

  setTab(tab) {
    if (!this.tabs[tab]) return;
    this.tab = tab;
    this.sync();
    this.ext.onTab?.(tab);
    if (tab === "timeline") this.scrollToEnd();
  }

  tabKey(event) {
    const names = Object.keys(this.tabs).filter((n) => !this.tabs[n].hidden && !this.tabs[n].disabled);
    const at = names.indexOf(this.tab);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    let next = null;
    if (step) next = names[(at + step + names.length) % names.length];
    else if (event.key === "Home") next = names[0];
    else if (event.key === "End") next = names[names.length - 1];
    if (!next) return;
    event.preventDefault();
    this.setTab(next);
    this.tabs[next].focus();
  }

  /** Reflect open/tab/unread in the page (attributes drive the CSS). */
  sync() {
    const sheet = this.isSheet;
    this.root.dataset.open = this.open || !sheet ? "true" : "false";
    this.toggle.setAttribute("aria-expanded", String(this.open || !sheet));
    document.body.classList.toggle("sheet-open", sheet && this.open && document.body.classList.contains("in-game"));
    if (this.tabs[this.tab]?.hidden) this.tab = "timeline";
    for (const [name, tab] of Object.entries(this.tabs)) {
      tab.setAttribute("aria-selected", String(this.tab === name));
      tab.tabIndex = this.tab === name ? 0 : -1;
      this.panes[name].hidden = this.tab !== name;
    }
    if (this.visible) this.unread = 0;
    this.unreadEl.hidden = this.unread === 0;
    this.unreadEl.textContent = String(this.unread);
    this.unreadEl.setAttribute("aria-label", tn("{n} unread", "{n} unread", this.unread));
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

  /** A line of the table itself ("Trading is closed..."), once per key. */
  addSystem(key, text, t = Date.now()) {
    if (this.items.has(key)) return;
    this.items.set(key, { kind: "system", key, t, seq: this.seq++, text });
  }

  /** A view arrived (the game's extension stamps its own items). */
  onView(msg, first) {
    this.ext.onView?.(msg, first);
  }

  bump(n) {
    if (this.visible) return;
    this.unread += n;
    this.sync();
  }

  // --- drawing -------------------------------------------------------------------------

  render(ctx) {
    this.ctx = ctx;
    this.ext.render?.(ctx);
    this.renderTimeline();
    this.sync();
  }

  renderTimeline() {
    const ctx = this.ctx;
    const game = ctx && this.ext.entries ? this.ext.entries(ctx) : [];
    // Drawn again only when what it shows has changed (issue 31: each version redrew it,
    // and measured the page laid out anew to keep its scroll). The chat and system lines
    // are told by their sequence; the game's items may read anything of the view and
    // busy, so with any of them, those are in the key.
    const key = JSON.stringify([this.seq, this.items.size, ctx?.view?.seat ?? null,
      game.length ? [game.map((e) => [e.key, e.t]), ctx.view, ctx.busy] : null]);
    if (key === this.drawn) return;
    this.drawn = key;
    const atEnd = this.atEnd;
    const keep = this.scrolled;
    const active = document.activeElement;
    const focus = active && this.list.contains(active)
      ? [active.closest("[data-key]")?.dataset.key, active.dataset.testid] : null;
    const entries = [...this.items.values()];
    for (const item of game) entries.push({ seq: -1, ...item, kind: "game" });
    entries.sort((a, b) => a.t - b.t || a.seq - b.seq);
    clear(this.list);
    if (!entries.length) {
      this.list.append(h("li", { class: "tl-empty muted small", text: this.ext.emptyText
        || t("Chat messages appear here.") }));
    }
    let last = null;
    for (const item of entries) {
      const node = this.itemNode(item);
      if (node) {
        node.dataset.key = item.key;
        this.list.append(node);
        last = item;
      }
    }
    this.peekEl.textContent = last ? this.peekText(last) : "";
    if (atEnd) this.scrollToEnd();
    else afterPaint(() => { this.list.scrollTop = keep; });
    if (focus?.[0] && focus[1]) {
      const again = this.list.querySelector(`[data-key="${CSS.escape(focus[0])}"] [data-testid="${CSS.escape(focus[1])}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  peekText(item) {
    if (item.kind === "chat") return `${item.msg.name ?? "?"}: ${item.msg.text ?? ""}`;
    if (item.kind === "system") return item.text;
    return typeof item.peek === "function" ? item.peek() : item.peek ?? "";
  }

  itemNode(item) {
    const me = this.ctx?.view?.seat ?? null;
    if (item.kind === "chat") {
      const msg = item.msg;
      const mine = msg.seat === me && me !== null;
      const at = new Date(item.t);
      const time = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });
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
    if (item.kind === "system") return h("li", { class: "tl-item tl-system", text: item.text });
    return item.node ? item.node() : null;
  }

  scrollToEnd() {
    this.atEnd = true;
    afterPaint(() => { if (this.atEnd) this.list.scrollTop = this.list.scrollHeight; });
  }
}
