// The room's WebSocket: reconnects with backoff, resyncs, pairs acks/errors with commands,
// and pings while open so that the server's idle timeout never closes a quiet table.
import { t } from "./i18n.js";
import { applyPatch } from "./patch.js";
import { uuid } from "./util.js";

const PING_MS = 30000; // unless the page says how long the server waits (data-ping-ms)

export class RoomSocket {
  /**
   * @param {string} code the room code
   * @param {object} handlers onMessage(msg), onStatus("open"|"reconnecting"|"closed"),
   *   pingMs (how often to ping; the server closes sockets idle for longer than its timeout),
   *   patches (ask for views as patches of the one before: each is turned back into a
   *   whole `view` message here, so onMessage sees views only)
   */
  constructor(code, { onMessage, onStatus, pingMs, patches = false }) {
    this.code = code;
    this.pingMs = pingMs > 0 ? pingMs : PING_MS;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.version = -1;
    this.patches = patches;
    this.base = null; // the last whole view (JSON text), what the next patch applies to
    this.pending = new Map(); // command id -> {resolve, reject, timer}
    this.closedByUs = false;
    this.everOpened = false;
    // The server sends no notice outside the page while the page is visible (app/notices).
    document.addEventListener("visibilitychange", () => this.send({ type: "visibility", visible: !document.hidden }));
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/rooms/${encodeURIComponent(this.code)}${this.patches ? "?patches=1" : ""}`;
  }

  connect() {
    this.closedByUs = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.everOpened = true;
      this.onStatus("open");
      if (document.hidden) this.send({ type: "visibility", visible: false });
      if (this.version >= 0) this.resync(); // without a view, the connect's view comes anyway
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), this.pingMs);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "patch") {
        msg = this.unpatch(msg);
        if (!msg) return;
      } else if (msg.type === "view" && this.patches) this.keep(msg.view);
      if (msg.type === "view" && typeof msg.version === "number") this.version = msg.version;
      if ((msg.type === "ack" || msg.type === "error") && msg.id && this.pending.has(msg.id)) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        msg.handled = true; // the command's sender shows it
        if (msg.type === "ack") p.resolve(msg); else p.reject(msg);
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject({ type: "error", id, code: "disconnected", message: t("Connection lost before the server answered; the page will resync.") });
      }
      this.pending.clear();
      if (!this.closedByUs) this.retry();
    });
  }

  /** Keep the view a patch will apply to: as text, so that what the page does with the
   *  objects it is given never changes the base. */
  keep(view) {
    this.base = view ? { version: view.version, text: JSON.stringify(view) } : null;
  }

  /** A patch as the whole view message it stands for; null (and a resync asked) when it
   *  does not apply to the view this socket holds. */
  unpatch(msg) {
    const base = this.base;
    if (!base || base.version !== msg.from) {
      this.base = null;
      this.resync();
      return null;
    }
    let view;
    try {
      view = applyPatch(JSON.parse(base.text), msg.patch);
    } catch {
      this.base = null;
      this.resync();
      return null;
    }
    this.keep(view);
    const whole = { type: "view", version: msg.version, events: msg.events || [], view };
    if (msg.by !== undefined) Object.assign(whole, { seat: msg.seat, by: msg.by });
    return whole;
  }

  retry() {
    this.onStatus("reconnecting");
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.onStatus("closed");
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send a game command; resolves on ack, rejects with the server's error message. */
  command(command, expectedVersion) {
    const id = uuid();
    const msg = { type: "command", id, command };
    if (typeof expectedVersion === "number") msg.expected_version = expectedVersion;
    return new Promise((resolve, reject) => {
      if (!this.send(msg)) {
        reject({ type: "error", id, code: "offline", message: t("Not connected: wait for the connection to come back.") });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject({ type: "error", id, code: "timeout", message: t("The server did not answer in time.") });
      }, 15000);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  chat(text) {
    return this.send({ type: "chat", text });
  }

  /** Ask for a whole view; the version held, if any (the server refuses a negative
   *  one: a page that had no view yet showed its error as a toast). */
  resync() {
    return this.send(this.version >= 0 ? { type: "resync", version: this.version } : { type: "resync" });
  }
}
