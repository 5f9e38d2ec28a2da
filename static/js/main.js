// The room page controller: lobby first, then the game, kept live by the WebSocket.
import * as API from "./api.js";
import { renderActions, renderModal, legalOf, turnText } from "./actions.js";
import { Board, bindZoomButtons } from "./board.js";
import { TradePanel } from "./chat.js";
import { renderEndgame } from "./endgame.js";
import { Lobby } from "./lobby.js";
import { GameLog } from "./log.js";
import { renderHand, renderPlayers, renderTable } from "./panels.js";
import { RoomSocket } from "./socket.js";
import { h, toast, uuid } from "./util.js";
import { Words } from "./words.js";

const $id = (id) => document.getElementById(id);

class RoomPage {
  constructor(code) {
    this.code = code;
    this.room = null;
    this.mySeat = null;
    this.view = null;
    this.busy = false;
    this.content = null;
    this.firstView = true;
    this.modalKey = null;
    this.modalHiddenKey = null;
  }

  async start() {
    await this.tokenFromFragment();
    let content;
    try {
      [content, this.room] = await Promise.all([API.loadContent(), API.getRoom(this.code)]);
    } catch (e) {
      this.fatal(e.status === 404 ? "There is no room at this address. Check the link." : e.message);
      return;
    }
    this.content = content;
    this.words = new Words(content);
    await this.refreshMe();
    this.lobby = new Lobby(this);
    this.socket = new RoomSocket(this.code, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => this.onStatus(status),
      pingMs: Number($id("app").dataset.pingMs) || 0,
    });
    this.panel = new TradePanel($id("trade-panel"), {
      code: this.code, socket: this.socket, send: (cmd) => this.send(cmd),
    });
    this.log = new GameLog($id("log"), this.words, this.code);
    $id("loading").hidden = true;
    $id("trade-panel").hidden = false;
    this.showRoom();
    this.socket.connect();
    this.poll = setInterval(() => { if (this.room?.status === "lobby") this.refreshRoom(); }, 4000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.socket.isOpen) this.socket.resync();
    });
  }

  fatal(message) {
    const box = $id("loading");
    box.hidden = false;
    box.replaceChildren(h("div", { class: "card" }, h("h1", { text: "Cannot open this room" }),
      h("p", { text: message }), h("p", {}, h("a", { href: "/", class: "btn primary" }, "Back to the start"))));
  }

  /** A resume link (#token=...) takes the seat: post the token, get the cookie, drop the fragment. */
  async tokenFromFragment() {
    const match = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
    if (!match) return;
    const token = decodeURIComponent(match[1]);
    history.replaceState(null, "", location.pathname + location.search);
    try {
      await API.openSession(this.code, token);
      API.rememberToken(this.code, token);
    } catch (e) {
      toast(`This personal link did not work: ${e.message}`, "error", 8000);
    }
  }

  async refreshMe() {
    try {
      this.mySeat = API.seatIndex(await API.whoAmI(this.code));
    } catch {
      this.mySeat = null;
    }
  }

  async refreshRoom() {
    try {
      this.room = await API.getRoom(this.code);
    } catch (e) {
      if (e.status === 404) this.fatal("This room no longer exists.");
      return;
    }
    this.showRoom();
  }

  async afterJoin(index) {
    this.mySeat = index;
    await this.refreshRoom();
    // The socket was opened before the cookie existed: reopen it as the new seat.
    this.socket.close();
    this.socket.connect();
  }

  get presence() {
    const out = {};
    for (const seat of this.room?.seats || []) out[seat.index] = Boolean(seat.connected || seat.bot);
    return out;
  }

  showRoom() {
    const inLobby = this.room?.status === "lobby" && !(this.view && this.view.status !== "lobby");
    $id("lobby").hidden = !inLobby;
    $id("game").hidden = inLobby;
    document.body.classList.toggle("in-game", !inLobby);
    // The trade-and-chat panel sits under the seats in the lobby; in the game it is a
    // bottom sheet (phone) or the third column (wide screens).
    const chatHome = inLobby ? $id("lobby") : $id("game");
    if ($id("trade-panel").parentElement !== chatHome) chatHome.append($id("trade-panel"));
    this.panel?.sync();
    if (inLobby) this.lobby.render(this.room, this.mySeat);
    else if (this.view) this.render();
    else if (this.socket?.isOpen) this.socket.resync();
  }

  onStatus(status) {
    const conn = $id("conn");
    conn.dataset.state = status;
    conn.textContent = status === "open" ? "live" : status === "reconnecting" ? "reconnecting…" : "offline";
    if (status === "open" && !this.firstView) this.refreshRoom();
  }

  onMessage(msg) {
    switch (msg.type) {
      case "view": return this.onView(msg);
      case "chat": return this.panel.addChat(msg);
      case "error": return this.onError(msg);
      case "presence": return this.onPresence(msg);
      case "room": return this.onRoom(msg);
      default: return undefined; // ack, pong, and whatever a newer server adds
    }
  }

  /** presence: {seats: [{index, connected}]} (merged into the seats we know); room: {room}. */
  onPresence(msg) {
    if (!Array.isArray(msg.seats) || !this.room) {
      this.refreshRoom();
      return;
    }
    const known = new Map((this.room.seats || []).map((s) => [s.index, s]));
    if (msg.seats.some((s) => !known.has(s.index))) {
      this.refreshRoom();
      return;
    }
    for (const s of msg.seats) Object.assign(known.get(s.index), s);
    this.showRoom();
  }

  onRoom(msg) {
    if (msg.room && Array.isArray(msg.room.seats)) {
      this.room = msg.room;
      this.showRoom();
    } else this.refreshRoom();
  }

  onError(msg) {
    // Errors for our own commands are shown by send(); others (no id) here.
    if (msg.handled) return;
    toast(msg.message || msg.code || "The server refused that.", "error");
  }

  onView(msg) {
    const view = msg.view;
    if (!view) return;
    if (this.view && view.version < this.view.version) return; // an older view arrived late
    const wasMyTurn = this.isMyTurn();
    this.view = view;
    if (view.seat !== undefined && view.seat !== null && this.mySeat === null) this.mySeat = view.seat;
    this.words.setView(view);
    $id("version").textContent = String(view.version);
    if (view.status === "lobby") {
      this.refreshRoom();
      return;
    }
    if (this.room && this.room.status === "lobby") this.room = { ...this.room, status: view.status };
    if (this.room && view.status === "finished") this.room.status = "finished";
    this.log.onView(msg, this.firstView);
    this.panel.onView(msg, this.firstView);
    this.firstView = false;
    this.showRoom();
    if (view.status === "finished" && !this.shownEnd) {
      this.shownEnd = true;
      requestAnimationFrame(() => $id("endgame").scrollIntoView({ behavior: "smooth", block: "start" }));
    }
    if (!wasMyTurn && this.isMyTurn()) {
      toast("Your turn!", "ok", 2500);
      // Browsers refuse (and log an error) before the page was tapped once.
      if (navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate(80);
    }
    document.title = `${this.isMyTurn() ? "● Your turn — " : ""}Karanor Online`;
  }

  isMyTurn() {
    const v = this.view;
    return Boolean(v && v.status === "playing" && v.seat !== null && v.turn?.seat === v.seat && v.turn?.phase !== "draft");
  }

  /** Send one command; the buttons stay disabled until the server answers.
   *  Resolves to true when the server accepted it. */
  async send(command) {
    if (this.busy || !this.view) return false;
    let ok = false;
    this.busy = true;
    this.render();
    try {
      if (this.socket.isOpen) {
        await this.socket.command(command, this.view.version);
      } else {
        await API.api("POST", `/api/rooms/${encodeURIComponent(this.code)}/commands`, {
          body: { id: uuid(), command, expected_version: this.view.version },
        });
        const view = await API.getView(this.code);
        this.onView({ type: "view", version: view.version, events: [], view });
      }
      ok = true;
    } catch (e) {
      const message = e.message || "The server refused that.";
      toast(message, "error");
      if (e.code && /stale|version|conflict/.test(e.code)) this.socket.resync();
    } finally {
      this.busy = false;
      this.render();
    }
    return ok;
  }

  render() {
    const view = this.view;
    if (!view || !this.board) {
      if (view) this.setupGame();
      if (!this.board) return;
    }
    const focus = document.activeElement?.dataset?.command;
    const ctx = {
      view, words: this.words, content: this.content, busy: this.busy,
      send: (cmd) => this.send(cmd), presence: this.presence,
    };
    $id("turn-banner").textContent = turnText(view, this.words);
    this.board.update(view, legalOf(view, "move"), { disabled: this.busy });
    renderActions($id("actions"), ctx);
    renderEndgame($id("endgame"), ctx);
    renderHand($id("hand"), ctx);
    renderPlayers($id("players"), ctx);
    renderTable($id("table"), ctx);
    this.panel.render(ctx);
    this.renderChoice(ctx);
    if (focus) {
      const again = [...document.querySelectorAll("[data-command]")].find((n) => n.dataset.command === focus);
      if (again && !again.disabled) again.focus();
    }
  }

  renderChoice(ctx) {
    const dialog = $id("modal");
    const choices = (ctx.view.legal_actions || []).filter((a) =>
      ["draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"].includes(a.type));
    const key = choices.length ? `${ctx.view.version}:${choices[0].type}` : null;
    const waiting = $id("choice-waiting");
    if (key && this.modalHiddenKey && this.modalHiddenKey.split(":")[1] === choices[0].type && !this.busy) {
      waiting.hidden = false; // the player chose to look at the board first
      return;
    }
    waiting.hidden = true;
    this.modalHiddenKey = null;
    renderModal(dialog, ctx);
    this.modalKey = key;
  }

  setupGame() {
    if (this.board) return;
    this.board = new Board($id("board"), this.content, { onMove: (cmd) => this.send(cmd) });
    bindZoomButtons(this.board);
    const dialog = $id("modal");
    dialog.addEventListener("cancel", (e) => e.preventDefault()); // a choice cannot be skipped
    const peek = h("button", { type: "button", class: "btn peek", onclick: () => {
      this.modalHiddenKey = this.modalKey;
      dialog.close();
      $id("choice-waiting").hidden = false;
    } }, "Look at the board first");
    dialog.querySelector(".modal-body").append(peek);
    const waiting = h("button", { type: "button", id: "choice-waiting", class: "btn primary choice-waiting", hidden: true,
      onclick: () => { this.modalHiddenKey = null; this.render(); } }, "Make your choice");
    document.body.append(waiting);
  }
}

const app = $id("app");
if (app) new RoomPage(app.dataset.code).start();
