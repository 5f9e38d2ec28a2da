// The room page: the shell around any game. Lobby first, then the game's own table,
// kept live by the WebSocket. The game's module is loaded by the room's game id
// (static/js/games/<id>/index.js; the interface is in docs/client.md); a game without
// one is played with the generic table (every legal command a button).
import * as API from "./api.js";
import { ChatPanel } from "./chat.js";
import { endFrame, renderEndFrame } from "./endgame.js";
import * as generic from "./generic.js";
import { isLegal } from "./legal.js";
import { GameLog, logCard } from "./log.js";
import { turnCue } from "./notify.js";
import { RoomSocket } from "./socket.js";
import { loadPlatform, t, tn } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { GameMenu, Table } from "./table.js";
import { assetUrl, h, hasAsset, importAsset, tapTips, toast, uuid } from "./util.js";
import { explain } from "./errors.js";

const $id = (id) => document.getElementById(id);
/** How long "while you were away" stays unfolded (then its title only, until opened). */
const SUMMARY_OPEN_MS = 20_000;
/** Longer than this with no socket or the tab hidden, and the player was away. */
const AWAY_MS = 3_000;
/** An answer slower than this dims the buttons of the command on its way (markBusy). */
const DIM_AFTER_MS = 150;
/** A command refused because another seat's landed first is sent again at the newer
 *  version at most this many times (send), waiting at most STALE_WAIT_MS for that view. */
const STALE_RETRIES = 2;
const STALE_WAIT_MS = 3_000;

/** A foldable notice folded (its title only) or open. */
function setFolded(node, folded) {
  node.classList.toggle("folded", folded);
  node.querySelector(".notice-fold")?.setAttribute("aria-expanded", String(!folded));
}
/** A platform module the page needs only sometimes (the lobby, the replay player, the
 * coach, the notices form, the end screen's story), loaded at its first use under its hashed name (issue 31: the
 * first load of a game page carries none of them). */
function later(name) {
  return importAsset(`/static/js/${name}`);
}

/** The game's module, or the generic table when there is none (or it fails to load). */
async function loadGameModule(game) {
  if (!/^[a-z0-9_-]{1,40}$/.test(game)) return generic;
  // Its hashed (cached a year) name, from the page's map (app/web/assets.py).
  const url = new URL(assetUrl(`/static/js/games/${game}/index.js`), location.href);
  let module;
  try {
    module = await importAsset(`/static/js/games/${game}/index.js`);
  } catch (error) {
    console.warn(`no page of its own for the game ${game}; the generic table is used`, error);
    return generic;
  }
  await loadStyles(module.styles || [], url);
  return module;
}

/** A game's lobby extension (its options form): the `lobby` its module exports, else
 *  the one of the `lobby.js` beside its index.js, loaded only when the room is shown in
 *  its lobby (issue 31: a game page's first load carries neither it nor the options form
 *  it builds on), else none. */
async function gameLobby(game, module) {
  if (module?.lobby) return module.lobby;
  const path = `/static/js/games/${game}/lobby.js`;
  if (!/^[a-z0-9_-]{1,40}$/.test(game || "") || !hasAsset(path)) return {};
  try {
    return (await importAsset(path)).lobby || {};
  } catch (error) {
    console.warn(`the lobby of ${game} did not load; the options form is the schema's`, error);
    return {};
  }
}

/** A module's style sheets (paths relative to it), loaded before its table is drawn. */
function loadStyles(paths, base) {
  return Promise.all(paths.map((path) => new Promise((resolve) => {
    const href = new URL(assetUrl(new URL(path, base).pathname), location.href).href;
    document.head.append(h("link", { rel: "stylesheet", href, onload: resolve, onerror: resolve }));
  })));
}

class RoomPage {
  constructor(code) {
    this.code = code;
    this.room = null;
    // Room snapshots apply in the order they were asked for (askRoom): a GET that left
    // before a seat change landed and came back after it must not undo it.
    this.roomAsked = 0;
    this.roomShown = 0;
    this.mySeat = null;
    this.view = null;
    this.busy = false;
    this.busyUntil = null; // the version whose view ends `busy` (see send)
    this.busyNodes = null; // the controls dim() turned off
    this.viewWaiters = new Set(); // viewAfter's: called with each view drawn
    this.dimTimer = 0; // dims them if the answer is slow (markBusy)
    this.focusFrame = 0; // the frame that puts focus back after a render (focusSoon)
    this.content = null;
    this.firstView = true;
    this.module = null;
    this.game = null; // what the module's mount() returned, once the game is on screen
    // The replay page (/r/{code}/replay): the same page, no socket, the board at any version.
    this.replayMode = $id("app")?.dataset.replay === "1";
  }

  async start() {
    languageSwitch();
    await loadPlatform();
    tapTips();
    await this.tokenFromFragment();
    let games;
    try {
      this.room = await API.getRoom(this.code);
      this.gameId = this.room.game;
      // The socket opens now, while the content and the game's module load (issue 31: the
      // first view waited for them); what it says meanwhile is heard once the page is ready.
      this.early = [];
      this.socket = new RoomSocket(this.code, {
        onMessage: (msg) => (this.early ? this.early.push(() => this.onMessage(msg)) : this.onMessage(msg)),
        onStatus: (status) => (this.early ? this.early.push(() => this.onStatus(status)) : this.onStatus(status)),
        pingMs: Number($id("app").dataset.pingMs) || 0,
        patches: true, // each view after the first as the change since the one before
      });
      if (!this.replayMode) this.socket.connect();
      // Together, not one after the other (issue 31: the board's first draw waited on
      // each round trip in turn).
      [this.content, this.module, games] = await Promise.all([
        API.loadContent(this.gameId), loadGameModule(this.gameId), API.listGames().catch(() => []),
        this.refreshMe(),
      ]);
    } catch (e) {
      this.fatal(e.status === 404 ? t("There is no room at this address. Check the link.") : e.message,
        e.status === 404 ? t("no such room") : t("offline"));
      return;
    }
    this.gameInfo = games.find((g) => g.id === this.gameId) ?? null;
    // The game page's heading (the lobby has its own): the game and the room.
    $id("page-title").textContent = t("{game}, room {code}", {
      game: this.gameInfo?.title ?? this.gameId, code: this.code });
    // The top bar names the game played here (the way home stays the same link).
    const brand = document.querySelector(".topbar .brand");
    if (brand && this.gameInfo?.title) {
      brand.textContent = this.gameInfo.title;
      brand.setAttribute("aria-label", t("{game}: Karanor Online home", { game: this.gameInfo.title }));
      brand.dataset.testid = "brand";
    }
    this.table = new Table(this);
    $id("coach-button").addEventListener("click", async (e) => {
      const button = e.currentTarget;
      const version = this.view?.version;
      this.coach = await later("coach.js");
      // A choice made in a form of the game's (Karanor's market, Dark Road's plan die)
      // is set up there first, so that the marked button is the move and names it.
      const prepare = (action) => {
        if (this.view?.version === version && this.game?.showAdvice?.(action)) this.render();
      };
      const advice = await this.coach.askCoach(this.code, button, prepare);
      // Marked again at each drawing of this version (a chat line, a presence redraws).
      this.coached = advice && this.view?.version === version ? { version, action: advice.action } : null;
    });
    this.lobby = null; // made at the first look at the lobby (lobbyReady)
    if (this.room.status === "lobby" && !this.replayMode) await this.lobbyReady();
    this.panel = new ChatPanel($id("trade-panel"), { socket: this.socket });
    if (this.module.panel) this.panel.extend(this.module.panel);
    const log = logCard();
    this.notices = h("div", { id: "notices", class: "notices", "aria-live": "assertive" });
    this.watchFocus();
    $id("game").before(this.notices); // phones: in the page's flow, above the table
    this.parts = { endgame: endFrame(), log: log.card, seats: this.table.card };
    // The table's own notes to this player (out of time, what the bot did, while you
    // were away): at the top of the log column, never over the board or the actions.
    this.infoBox = h("div", { class: "log-notices", "data-testid": "log-notices", "aria-live": "polite" });
    log.list.before(this.infoBox);
    this.log = new GameLog(log.list, (e, asWatcher) => this.describe(e, asWatcher), this.code,
      (seat, by) => this.byline(seat, by));
    this.watchAway();
    // The game menu's notices form: its module with the menu's first opening.
    $id("menu-button").addEventListener("click", () => { later("notices.js"); }, { once: true });
    $id("loading").hidden = true;
    if (this.replayMode) {
      document.body.classList.add("replaying");
      const { ReplayPlayer } = await later("replay.js");
      this.replay = new ReplayPlayer(this);
      await this.replay.start();
      return;
    }
    $id("trade-panel").hidden = false;
    const early = this.early;
    this.early = null;
    for (const heard of early) heard();
    if (!this.view) this.showRoom(); // a view heard above has shown it
    this.poll = setInterval(() => { if (this.room?.status === "lobby") this.refreshRoom(); }, 4000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.socket.isOpen) this.socket.resync();
    });
  }

  /** The lobby's controller, made once (its module loaded) the first time it is shown:
   * a room opened after its start never loads it. */
  lobbyReady() {
    this.lobbyLoading ??= Promise.all([later("lobby.js"), gameLobby(this.gameId, this.module)])
      .then(([{ Lobby }, ext]) => { this.lobby = new Lobby(this, this.gameInfo, ext); });
    return this.lobbyLoading;
  }

  fatal(message, state = t("offline")) {
    const conn = $id("conn");
    conn.dataset.state = "closed";
    conn.dataset.final = "1"; // later socket states do not replace it
    conn.textContent = state;
    this.socket?.close();
    conn.textContent = state;
    clearInterval(this.poll);
    $id("lobby").hidden = true;
    $id("game").hidden = true;
    const box = $id("loading");
    box.hidden = false;
    box.replaceChildren(h("div", { class: "card" }, h("h1", { text: t("Cannot open this room") }),
      h("p", { text: message }), h("p", {}, h("a", { href: "/", class: "btn primary" }, t("Back to the start")))));
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
      toast(t("This personal link did not work: {reason}", { reason: e.message }), "error", 8000);
    }
  }

  /** The seat's token no longer works (the person left the game, the host removed
   *  them): once, the cookies forget it (GET /me) and the page watches as a spectator,
   *  instead of reconnecting with it again and again. */
  async seatLost() {
    if (this.losingSeat) return;
    this.losingSeat = true;
    this.socket.close();
    API.forgetToken(this.code);
    const held = this.mySeat;
    await this.refreshMe();
    this.view = null;
    if (held !== null) toast(t("This seat is no longer yours: you are watching the game."), "info", 8000);
    this.socket.connect();
    await this.refreshRoom();
    this.losingSeat = false;
  }

  async refreshMe() {
    try {
      this.mySeat = API.seatIndex(await API.whoAmI(this.code));
    } catch {
      this.mySeat = null;
    }
  }

  /** A ticket for a room snapshot about to be asked for (a GET, or a change's answer). */
  askRoom() {
    this.roomAsked += 1;
    return this.roomAsked;
  }

  /** Whether the snapshot of ticket `asked` is the newest so far (then it is shown). */
  freshRoom(asked) {
    if (asked < this.roomShown) return false;
    this.roomShown = asked;
    return true;
  }

  async refreshRoom() {
    const asked = this.askRoom();
    let room;
    try {
      room = await API.getRoom(this.code);
    } catch (e) {
      if (e.status === 404) this.fatal(t("This room no longer exists."), t("no such room"));
      return;
    }
    if (!this.freshRoom(asked)) return; // a newer snapshot came first
    this.room = room;
    this.showRoom();
  }

  /** The room again soon (timer rooms: the deadlines move with every version). */
  refreshRoomSoon() {
    clearTimeout(this.roomTimer);
    this.roomTimer = setTimeout(() => this.refreshRoom(), 250);
  }

  /** This seat left the game (the server cleared its cookie): watch from here on. */
  async leftGame(room) {
    this.mySeat = null;
    this.room = room;
    this.view = null;
    this.socket.close();
    this.socket.connect();
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
    // A person's seat a bot plays while they are away shows them away.
    for (const seat of this.room?.seats || []) out[seat.index] = !seat.replaced && Boolean(seat.connected || seat.bot);
    return out;
  }

  showRoom() {
    const inLobby = this.room?.status === "lobby" && !(this.view && this.view.status !== "lobby");
    // From the lobby to the game: the table starts at the top (the lobby was scrolled to Start).
    if (!inLobby && this.shownLobby) window.scrollTo(0, 0);
    this.shownLobby = inLobby;
    $id("lobby").hidden = !inLobby;
    $id("game").hidden = inLobby;
    $id("page-title").hidden = inLobby; // the lobby's heading is "Waiting room"
    document.body.classList.toggle("in-game", !inLobby);
    // The chat panel sits under the seats in the lobby; in the game it is a bottom sheet
    // (phone) or the last column (wide screens): after whatever the game put in #game.
    const chatHome = inLobby ? $id("lobby") : $id("game");
    if ($id("trade-panel") !== chatHome.lastElementChild) chatHome.append($id("trade-panel"));
    this.panel?.sync();
    this.panel?.setSeated(this.mySeat !== null, inLobby);
    this.table?.topClock();
    $id("coach-button").hidden = inLobby || !this.room?.options?.coach || this.mySeat === null
      || this.room?.status !== "playing";
    if (!inLobby && !this.menu && this.table) this.menu = new GameMenu(this);
    if (this.menu?.dialog.open) this.menu.render(); // a timer change seen at once
    this.watchingLabel(!inLobby && this.mySeat === null);
    this.leftNotes();
    this.seatReturned();
    if (inLobby && !this.lobby) this.lobbyReady().then(() => this.showRoom());
    else if (inLobby) this.lobby.render(this.room, this.mySeat);
    else if (this.view) this.render();
    else if (this.socket?.isOpen) this.socket.resync();
  }

  onStatus(status) {
    this.awayWhile(status !== "open", "socket");
    const conn = $id("conn");
    if (conn.dataset.state === "closed" && conn.dataset.final) return;
    conn.dataset.state = status;
    conn.textContent = status === "open" ? t("live") : status === "reconnecting" ? t("reconnecting…") : t("offline");
    conn.title = conn.textContent; // a phone shows "live" as a dot
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
    if (typeof msg.watching === "number") this.showWatching(msg.watching);
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

  /** A room snapshot: pushed by the server (the newest there is) or the answer to a
   * change asked with ticket `asked` (askRoom). */
  onRoom(msg, asked = this.askRoom()) {
    if (msg.room && Array.isArray(msg.room.seats)) {
      if (msg.room.code && msg.room.code !== this.code) return;
      if (!this.freshRoom(asked)) return;
      this.room = msg.room;
      this.showRoom();
    } else this.refreshRoom();
  }

  onError(msg) {
    // Errors for our own commands are shown by send(); others (no id) here.
    if (msg.handled) return;
    if (msg.code === "bad_token") {
      this.seatLost();
      return;
    }
    if (msg.code === "forbidden" && this.mySeat === null) {
      this.panel.say(this.panel.seatWords(), "seat");
      return;
    }
    toast(explain(msg), "error");
  }

  onView(msg) {
    const view = msg.view;
    if (!view) return;
    if (this.view && view.version < this.view.version) return; // an older view arrived late
    const wasMyTurn = this.isMyTurn();
    // The view of the command this page sent: drawn below with the buttons back on.
    if (this.busyUntil !== null && view.version >= this.busyUntil) {
      this.release(false);
    }
    this.view = view;
    if (view.seat !== undefined && view.seat !== null && this.mySeat === null) this.mySeat = view.seat;
    for (const waiter of this.viewWaiters) if (waiter(view)) this.viewWaiters.delete(waiter);
    $id("version").textContent = String(view.version);
    if (view.status === "lobby") {
      this.refreshRoom();
      return;
    }
    if (this.room && this.room.status === "lobby") this.room = { ...this.room, status: view.status };
    if (this.room && view.status === "finished") this.room.status = "finished";
    this.mountGame();
    this.freshEvents = msg.events || [];
    this.log.onView(msg, this.firstView);
    if (!this.firstView && msg.by === "standin" && msg.seat === this.mySeat && this.mySeat !== null) {
      this.standinNotice();
    }
    if (!this.firstView) this.noticeEvents(msg.events || [], view);
    // The timer's deadlines move with each version; rooms without a timer need nothing.
    if (this.room?.timer && !this.firstView) this.refreshRoomSoon();
    this.panel.onView(msg, this.firstView);
    this.firstView = false;
    this.showRoom();
    if (view.status === "finished" && !this.shownEnd) {
      this.shownEnd = true;
      this.summaryNode?.remove();
      requestAnimationFrame(() => this.parts.endgame.scrollIntoView({ behavior: "smooth", block: "start" }));
    }
    const myTurn = this.isMyTurn();
    turnCue(wasMyTurn, myTurn);
    // A page opened on a game under way: its player was away (not at the very start).
    if (this.away.first === undefined) this.away.first = view.version > 1;
    if (!wasMyTurn && myTurn) this.awaySummary();
    // Read or not, the summary folds to its title once this seat has acted: on a laptop
    // it lies over the map's corner, where the next move may be.
    else if (this.summaryNode && (msg.events || []).some((e) => e.seat === this.mySeat)) this.foldSummary();
  }

  /** A replay's view (ReplayPlayer): drawn by the game's module like a live one, with the
   *  events of the step (animated as in a live game) or none (a jump); nothing to send. */
  showReplayView(view, events) {
    this.view = { ...view, legal_actions: [], can_undo: false };
    $id("version").textContent = String(view.version);
    this.mountGame();
    this.freshEvents = events || [];
    this.showRoom();
  }

  /** Take back this seat's last command (POST .../undo); the new view comes by the socket. */
  async undo() {
    if (this.busy || !this.view?.can_undo) return;
    const focused = document.activeElement === $id("undo-button");
    this.busy = true;
    this.render();
    try {
      const answer = await API.undo(this.code, this.view.version);
      // Focus is kept for the keyboard: on Undo again, or on the game once none is left.
      if (focused) this.undoFocus = answer.version;
      if (!this.socket.isOpen) {
        this.showFetched(await API.getView(this.code));
      }
    } catch (e) {
      toast(explain(e), "error");
      if (e.code && /stale|version/.test(e.code)) this.socket.resync();
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** The Undo button, on the page exactly when the server would take the command back. */
  renderUndo(view) {
    let button = $id("undo-button");
    const refocus = this.undoFocus !== undefined && !this.busy && view.version >= this.undoFocus;
    if (refocus) this.undoFocus = undefined;
    const lost = () => !document.activeElement || document.activeElement === document.body;
    if (!view.can_undo || view.status !== "playing" || this.replayMode) {
      button?.remove();
      if (refocus && lost()) {
        this.focusWant = { sel: "[data-none]", region: "#game" }; // a command of the game
        this.focusSoon();
      }
      return;
    }
    if (!button) {
      button = h("button", { id: "undo-button", type: "button", class: "btn undo-button", "data-testid": "undo",
        title: t("Take back your last move: it revealed nothing"),
        "data-tip": t("Take back your last move: it revealed nothing"),
        onclick: () => this.undo() }, h("span", { "aria-hidden": "true" }, "↶ "),
        h("span", { class: "undo-label" }, t("Undo")));
      $id("turn-banner").after(button);
    }
    button.disabled = this.busy;
    if (refocus && lost()) button.focus({ preventScroll: true });
  }

  foldSummary() {
    if (this.summaryNode) setFolded(this.summaryNode, true);
  }

  // --- what happened to you, and while you were away ------------------------------------

  /** A notice that stays until dismissed (attacks: who did what to you, what you lost);
   * a `foldable` one's title is a button that folds it to the title and unfolds it. */
  notice(text, { kind = "alert", testid = "notice", title = null, lines = null, foldable = false,
    inLog = false } = {}) {
    const heading = !title ? null : foldable
      ? h("button", { type: "button", class: "notice-fold", "aria-expanded": "true",
        onclick: () => setFolded(node, !node.classList.contains("folded")) }, title)
      : h("strong", { class: "notice-title", text: title });
    const node = h("div", { class: `notice notice-${kind}`, role: kind === "alert" ? "alert" : "status",
      "data-testid": testid },
    h("div", { class: "notice-text" },
      heading,
      text ? h("p", { text }) : null,
      lines ? h("ul", {}, ...lines.map((l) => h("li", { text: l }))) : null),
    h("button", { type: "button", class: "notice-close", "aria-label": t("Dismiss"), "data-tip": t("Dismiss"),
      onclick: () => node.remove() }, "×"));
    const box = inLog ? this.infoBox : this.notices;
    box.append(node);
    while (box.children.length > 4) box.firstElementChild.remove();
    return node;
  }

  /** "Finn left the game": in the log after the version they left at, and on the end screen. */
  leftNotes() {
    for (const seat of this.room?.seats || []) {
      if (seat.left === null || seat.left === undefined) continue;
      this.log?.note(seat.left, t("{name} left the game: a bot plays their seat to the end.", { name: seat.name }),
        `left-${seat.index}`);
    }
  }

  /** The table sees who watches: "2 watching" in the top bar (spectators' pages). */
  showWatching(n) {
    const box = $id("watching-count");
    if (!box) return;
    box.hidden = !n;
    // A phone shows "👁 2" (data-n, by the style sheet); the words stay for screen readers.
    box.dataset.n = String(n || "");
    box.replaceChildren(...(n ? ["👁 ", h("span", { class: "watching-words" }, tn("{n} watching", "{n} watching", n))] : []));
    box.title = t("People watching this game without a seat");
  }

  /** A spectator is told they only watch (the game's banner speaks to players). */
  watchingLabel(show) {
    if (show && !this.watchingNode) {
      this.watchingNode = h("p", { class: "watching-label", "data-testid": "watching", role: "status",
        text: t("You are watching this game: you have no seat at this table.") });
      $id("game").before(this.watchingNode);
    }
    if (this.watchingNode) this.watchingNode.hidden = !show;
  }

  // --- away or not, and the bot that played for you ----------------------------------------

  /** The tab hidden or the socket closed, for longer than a moment: the player was away. */
  watchAway() {
    this.away = { since: {}, was: false, first: undefined };
    document.addEventListener("visibilitychange", () => this.awayWhile(document.hidden, "tab"));
    if (document.hidden) this.awayWhile(true, "tab");
  }

  awayWhile(gone, why) {
    const since = this.away.since;
    if (gone) {
      since[why] ??= Date.now();
    } else if (since[why] !== undefined) {
      if (Date.now() - since[why] > AWAY_MS) this.away.was = true;
      delete since[why];
    }
  }

  /** Whether the player missed something since their last turn (and forget it). */
  takeAway() {
    const was = this.away.was || Boolean(this.away.first)
      || Object.values(this.away.since).some((at) => Date.now() - at > AWAY_MS);
    this.away.was = false;
    this.away.first = false;
    return was;
  }

  /** "A bot played for Finn (out of time)": a bot's move for a person's seat (null: a bot's own seat). */
  byline(seat, by) {
    const info = this.room?.seats?.find((s) => s.index === seat);
    if (!info || (info.bot && !info.replaced)) return null;
    const me = seat === this.mySeat;
    if (by === "standin") {
      return me ? t("A bot played for you (out of time)") : t("A bot played for {name} (out of time)", { name: info.name });
    }
    return me ? t("A bot played for you (you were away)") : t("A bot played for {name} (away)", { name: info.name });
  }

  /** Out of time: a bot played this turn; the next is yours. A banner, and the log says so. */
  standinNotice() {
    this.standinNode?.remove();
    const text = t("Out of time: a bot played this turn for you. The seat is still yours: your next turn is yours again, with a fresh clock.");
    this.standinNode = this.notice(text, { kind: "info", testid: "standin-notice", title: t("A bot played for you"), inLog: true });
    toast(t("Out of time: a bot played this turn for you."), "info", 6000);
  }

  /** My seat was played by a bot while I was gone and is mine again: what the bot did. */
  async seatReturned() {
    const me = this.room?.seats?.find((s) => s.index === this.mySeat);
    if (!me || this.room.status !== "playing") return;
    const was = this.replacedBefore;
    this.replacedBefore = Boolean(me.replaced);
    if (!was || me.replaced) return;
    await this.log.ready;
    const mine = this.log.entries.filter((e) => e.actor === this.mySeat);
    let start = 0;
    for (let i = mine.length - 1; i >= 0; i -= 1) if (!mine[i].by) { start = i + 1; break; }
    const lines = [];
    for (const entry of mine.slice(start)) {
      for (const e of entry.events) {
        const line = this.describe(e, true);
        if (line && line !== lines[lines.length - 1]) lines.push(line);
      }
    }
    this.botNode?.remove();
    this.botNode = this.notice(lines.length ? null : t("It had nothing to play."), {
      kind: "info", testid: "bot-summary", inLog: true, foldable: lines.length > 0,
      title: t("Welcome back: a bot played for you while you were away"), lines: lines.slice(-8),
    });
  }

  /** Events of a new view aimed at this seat, as the game words them (game.notices). */
  noticeEvents(events, view) {
    if (!events.length || view.seat === null || view.seat === undefined || !this.game?.notices) return;
    for (const n of this.game.notices(events, view) || []) {
      this.notice(n.text, { kind: n.kind || "alert", testid: n.testid || "attack-notice", title: n.title || null });
    }
  }

  /** "While you were away": what the others did since this seat last acted, when its turn comes. */
  async awaySummary() {
    const me = this.mySeat;
    if (me === null || !this.game) return;
    // Only for a player who was away: one who watched has seen it all (the log keeps it).
    if (!this.takeAway()) return;
    await this.log.ready; // a page just opened reads the log back first
    const entries = this.log.entries;
    let start = 0;
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      if (entries[i].actor === me) { start = i + 1; break; }
    }
    const lines = [];
    for (const entry of entries.slice(start)) {
      if (entry.actor === me) continue;
      for (const e of entry.events) {
        if (e.seat === me) continue; // "your turn" and the like: the page says so already
        const line = this.describe(e);
        if (line) lines.push(line);
      }
    }
    if (!lines.length) return;
    const MAX = 6;
    const shown = lines.length > MAX ? lines.slice(-MAX) : lines;
    const title = lines.length > MAX
      ? tn("While you were away (last {shown} of {n}; the rest is in the log)",
        "While you were away (last {shown} of {n}; the rest is in the log)", lines.length, { shown: MAX })
      : t("While you were away");
    this.summaryNode?.remove();
    // Folded: the title only, the map free under it. It folds by itself after a while, or
    // once this seat acts.
    const node = this.notice(null, { kind: "info", testid: "away-summary", title, lines: shown, foldable: true,
      inLog: true });
    this.summaryNode = node;
    setTimeout(() => { if (this.summaryNode === node) this.foldSummary(); }, SUMMARY_OPEN_MS);
  }

  isMyTurn() {
    const v = this.view;
    if (!v || !this.game) return false;
    return Boolean(this.game.isMyTurn ? this.game.isMyTurn(v) : generic.isMyTurn(v));
  }

  /** The event in words, as the game says it; `asWatcher`: as a spectator reads it
   * (a bot's move for this seat: "Finn moved", not "You moved"). */
  describe(event, asWatcher = false) {
    if (!this.game) return null;
    // The platform's own entry: a take-back (docs/api.md, "Take-backs").
    if (event.type === "take_back") {
      // A sentence about "you" is a message of its own ("Vous avez repris", not "Vous a").
      if (!asWatcher && event.seat === this.view?.seat) return t("You took back a move");
      return t("{name} took back a move", { name: asWatcher ? this.nameOf(event.seat) : this.who(event.seat) });
    }
    if (!this.game.describe) return null;
    if (!asWatcher || !this.view) return this.game.describe(event, this.view);
    const text = this.game.describe(event, { ...this.view, seat: null });
    this.game.who?.(0, this.view); // the game's words read from this seat again
    return text;
  }

  /** The seat's name, never "You". */
  nameOf(seat) {
    return this.room?.seats?.find((s) => s.index === seat)?.name ?? t("Seat {n}", { n: seat + 1 });
  }

  /** "You", or the seat's name. */
  who(seat) {
    if (this.game?.who) return this.game.who(seat, this.view);
    if (seat === this.view?.seat) return t("You");
    return this.room?.seats?.find((s) => s.index === seat)?.name ?? t("Seat {n}", { n: seat + 1 });
  }

  /** Send one command; the buttons stay disabled until the server answers.
   *  Resolves to true when the server accepted it.
   *
   *  The command names the version it was chosen at (`expected_version`). Another seat's
   *  command may land first (a draft's picks, a trade answered off-turn, a bot): the
   *  server then refuses it (`stale_version`). The page takes the newer view and, if the
   *  same command is still among its legal actions, sends it again at that version (the
   *  server judges it again); otherwise it says the table changed. Before, the click was
   *  lost behind a toast in English ("expected version 3, ..."), and a draft waited for
   *  a pick its player had made. */
  async send(command) {
    if (this.busy || !this.view || this.replayMode) return false;
    this.summaryNode?.remove(); // the player is acting: the summary has done its job
    let ok = false;
    let until = null; // the version whose view ends the wait (it follows the ack)
    this.busy = true;
    try {
      for (let tries = 0; ; tries += 1) {
        const at = this.view.version;
        try {
          until = await this.sendOnce(command, at);
          ok = true;
          break;
        } catch (e) {
          if (e.code !== "stale_version" || tries >= STALE_RETRIES) throw e;
          const fresh = await this.viewAfter(at);
          if (!fresh || !isLegal(fresh, command)) throw e;
        }
      }
    } catch (e) {
      toast(explain(e), "error");
      if (e.code && /stale|version|conflict/.test(e.code)) this.socket.resync();
    } finally {
      if (until === null) this.release();
      else {
        // The server sends the ack before the version's view: the table is drawn once,
        // when that view comes (onView), with the buttons back; not now with the old one.
        this.busyUntil = until;
        clearTimeout(this.busyTimer);
        this.busyTimer = setTimeout(() => this.release(), 3000);
      }
    }
    return ok;
  }

  /** One try of `send`, at version `at`: resolves to the version whose view ends the wait
   *  (null when there is none to wait for), rejects with the server's error. */
  async sendOnce(command, at) {
    if (this.socket.isOpen) {
      // The command leaves first; then its buttons are turned off, without drawing
      // the table again (issue 31: a whole render here delayed every command).
      const answer = this.socket.command(command, at);
      this.markBusy();
      const ack = await answer;
      return typeof ack?.version === "number" && this.view.version < ack.version ? ack.version : null;
    }
    this.markBusy();
    await API.api("POST", `/api/rooms/${encodeURIComponent(this.code)}/commands`, {
      body: { id: uuid(), command, expected_version: at },
    });
    this.showFetched(await API.getView(this.code));
    return null;
  }

  /** A view fetched over HTTP (no socket), drawn as a socket's view without events. */
  showFetched(view) {
    this.onView({ type: "view", version: view.version, events: [], view });
  }

  /** The first view newer than `version`: the one held if it is, else the next to come
   *  (a resync asked for it: the refusal may arrive before the view that caused it);
   *  null if none comes within STALE_WAIT_MS. */
  viewAfter(version) {
    if (this.view && this.view.version > version) return Promise.resolve(this.view);
    return new Promise((resolve) => {
      const waiter = (view) => {
        if (view.version <= version) return false;
        clearTimeout(timer);
        resolve(view);
        return true;
      };
      const timer = setTimeout(() => {
        this.viewWaiters.delete(waiter);
        resolve(null);
      }, STALE_WAIT_MS);
      this.viewWaiters.add(waiter);
      if (this.socket.isOpen) this.socket.resync();
      else API.getView(this.code).then((view) => this.showFetched(view), () => {});
    });
  }

  /** While a command is on its way: focus noted (restored at the next render), the
   *  table left as it is. Nothing changes on screen at the click (issue 31): the answer
   *  comes in tens of milliseconds, and a frame redrawing dimmed buttons only delayed the
   *  view drawing after it. The buttons are refused meanwhile (`send` while `busy`); an
   *  answer slower than DIM_AFTER_MS turns them off where they are (`dim`). */
  markBusy() {
    this.noteFocus();
    // The control just used is most often redrawn by the answer, and a focused node
    // removed makes the browser lay the page out at once, inside the view's task. Focus
    // is let go now, while the command travels; the render puts it back (restoreFocus,
    // from what noteFocus kept).
    const used = document.activeElement;
    if (used instanceof Element && used !== $id("game") && used.closest("#game, #trade-panel")) used.blur();
    clearTimeout(this.dimTimer);
    this.dimTimer = setTimeout(() => this.dim(), DIM_AFTER_MS);
  }

  /** A command still unanswered: its buttons off, the table left as it is. */
  dim() {
    if (!this.busy) return;
    this.busyNodes = [];
    for (const node of document.querySelectorAll("#game [data-command], #trade-panel [data-command]")) {
      if (node.disabled) continue;
      node.disabled = true;
      this.busyNodes.push(node); // the next render replaces them; any it kept is turned back on
    }
    $id("game").classList.add("busy");
  }

  /** The command is answered: the buttons back (a render, unless a view just drew them). */
  release(render = true) {
    clearTimeout(this.busyTimer);
    clearTimeout(this.dimTimer);
    this.busyUntil = null;
    $id("game").classList.remove("busy");
    if (!this.busy) return;
    this.busy = false;
    if (render) this.render();
  }

  /** What a game module is given (docs/client.md: "The game module interface"). */
  shell() {
    const page = this;
    return {
      code: this.code,
      game: this.gameId,
      gameTitle: this.gameInfo?.title ?? null,
      get room() { return page.room; },
      get view() { return page.view; },
      get seat() { return page.mySeat; },
      get busy() { return page.busy; },
      get presence() { return page.presence; },
      send: (command) => this.send(command),
      panel: this.panel,
      parts: this.parts,
      setBanner: (text) => {
        const banner = $id("turn-banner");
        if (banner.textContent !== (text || "")) banner.textContent = text || "";
      },
      toast,
      // Added with the table (docs/client.md): the seat's tags, countdown and host's tools
      // for a player panel; a lasting notice; the countdown of one seat.
      seatTools: (seat) => this.table.seatTools(seat),
      // The game menu (rules, resume link, timer), openable over a game's own dialog.
      openMenu: () => this.menu?.open(),
      countdown: (seat) => this.table.countdown(seat),
      notice: (text, opts) => this.notice(text, opts),
    };
  }

  /** Play again / Join the rematch / Back to the start, under the end screen. */
  playAgainNode(view) {
    if (view.status !== "finished") return null;
    if (this.replayMode) {
      return h("div", { class: "row end-actions" },
        h("a", { class: "btn", href: `/r/${encodeURIComponent(this.code)}`, "data-testid": "back-to-room" }, t("Back to the room")));
    }
    const rematch = this.room?.rematch ?? null;
    let mine = null;
    try { mine = localStorage.getItem(`karanor:rematch:${this.code}`); } catch { /* */ }
    const row = h("div", { class: "row end-actions" });
    if (this.mySeat !== null) {
      if (mine) {
        row.append(h("a", { class: "btn primary", href: `/r/${mine}`, "data-testid": "play-again" }, t("Go to the rematch")));
      } else {
        const label = rematch ? t("Join the rematch") : t("Play again");
        row.append(h("button", { type: "button", class: "btn primary", "data-testid": "play-again",
          onclick: (e) => this.playAgain(e.currentTarget) }, label));
        if (rematch) row.append(h("span", { class: "muted small", text: t("Another player already opened the next game.") }));
      }
    } else if (rematch) {
      row.append(h("a", { class: "btn", href: `/r/${rematch}` }, t("Watch the rematch")));
    }
    row.append(h("a", { class: "btn", href: `/r/${encodeURIComponent(this.code)}/replay`, "data-testid": "replay" },
      t("Watch the replay")));
    row.append(h("a", { class: "btn", href: "/", "data-testid": "back-home" }, t("Back to the start")));
    return row;
  }

  async playAgain(button) {
    button.disabled = true;
    try {
      const answer = await API.rematch(this.code);
      API.rememberToken(answer.code, answer.seat.token);
      try { localStorage.setItem(`karanor:rematch:${this.code}`, answer.code); } catch { /* */ }
      location.assign(answer.url || `/r/${answer.code}`);
    } catch (e) {
      toast(explain(e), "error");
      button.disabled = false;
    }
  }

  mountGame() {
    if (this.game) return;
    const root = $id("game");
    this.game = this.module.mount(this.shell(), root, this.content);
    // A game whose layout left out the end screen, the seats or the log still gets them.
    const side = root.querySelector(".side-col") || root;
    if (!this.parts.endgame.isConnected) side.prepend(this.parts.endgame);
    if (!this.parts.seats.isConnected && !this.game.ownSeats) this.parts.endgame.after(this.parts.seats);
    if (!this.parts.log.isConnected) side.append(this.parts.log);
  }

  render() {
    const view = this.view;
    if (!view || !this.game) return;
    this.noteFocus();
    const events = this.freshEvents ?? null; // a new view's events, given once
    this.freshEvents = null;
    if (this.parts.seats.isConnected) this.table.renderCard();
    this.game.render(view, events);
    this.renderUndo(view);
    renderEndFrame(this.parts.endgame, view, {
      who: (seat) => this.who(seat),
      // A replay is read as the seat it is seen by (its "You"), not the reader's own.
      me: this.replayMode ? view.seat ?? null : this.mySeat,
      details: this.game.endDetails ? (root, v) => this.game.endDetails(root, v) : null,
      again: this.playAgainNode(view),
    });
    const left = (this.room?.seats || []).filter((s) => s.left !== null && s.left !== undefined);
    if (left.length && !this.parts.endgame.hidden) {
      this.parts.endgame.append(h("p", { class: "muted", "data-testid": "end-left" },
        left.map((s) => t("{name} left the game; a bot played their seat to the end.", { name: s.name })).join(" ")));
    }
    // The game's story under the end screen (read once; not in a replay: it links to one).
    // Its module comes at the first end screen (it is not on a game page's first load).
    if (view.status === "finished" && view.result && !this.replayMode) {
      if (this.story) this.parts.endgame.append(this.story);
      else this.storyLoading ??= later("story.js").then(({ storyCard }) => {
        this.story = storyCard({ code: this.code, view, who: (seat) => this.who(seat),
          lines: this.game.storyLines ? (seat, entries) => this.game.storyLines(seat, entries, view) : null });
        if (this.view?.status === "finished") this.parts.endgame.append(this.story);
      });
    }
    this.panel.render({ view, busy: this.busy, send: (cmd) => this.send(cmd) });
    if (this.coached?.version === view.version) this.coach?.highlight(this.coached.action);
    if (!this.busy && this.busyNodes) {
      for (const node of this.busyNodes) if (node.isConnected) node.disabled = false;
      this.busyNodes = null;
    }
    this.focusSoon();
  }

  // --- keyboard focus across renders ---------------------------------------------------
  // A render replaces the buttons: the one a keyboard player pressed is gone (disabled
  // while the command is on its way, then redrawn or no longer legal). The shell keeps
  // where focus was and puts it back: on the same command if it is still offered, else
  // on the first command offered in the same part of the page, else on the first one
  // anywhere in the game, else on the game itself; never lost to the page's top.

  watchFocus() {
    $id("game").tabIndex = -1; // the last resort of restoreFocus (no outline: base.css)
    document.addEventListener("focusin", (e) => {
      if (!(e.target instanceof Element) || !this.noteOf(e.target)) this.focusWant = null;
    });
  }

  /** What finds a focused element of the game again after a redraw: its command, else
   *  its test id or its name (a select, a stepper, a grid), with the part of the page. */
  noteOf(node) {
    if (!(node instanceof Element) || !node.isConnected || !node.closest("#game, #trade-panel")) return null;
    const region = regionSelector(node);
    if (node.dataset.command !== undefined) return { command: node.dataset.command, region };
    const testid = node.getAttribute("data-testid");
    if (testid && testid !== "legal-action") return { sel: `[data-testid="${CSS.escape(testid)}"]`, region };
    const label = node.getAttribute("aria-label");
    if (label && node.id !== "game") return { sel: `[aria-label="${CSS.escape(label)}"]`, region };
    return null;
  }

  /** Before a render: remember the focused control and the part of the page it is in. */
  noteFocus() {
    const want = this.noteOf(document.activeElement);
    if (want) this.focusWant = want;
  }

  /** After a render, in the frame that draws it: `restoreFocus` asks where buttons are
   *  (`getClientRects`), which lays the page out; in the frame that layout is the one the
   *  frame makes anyway, in the view's task it was a second one (issue 31). */
  focusSoon() {
    if (this.focusFrame) return;
    this.focusFrame = requestAnimationFrame(() => {
      this.focusFrame = 0;
      this.restoreFocus();
    });
  }

  /** Focus back where it was, unless the player already moved it. */
  restoreFocus() {
    const want = this.focusWant;
    const active = document.activeElement;
    if (!want || (active && active !== document.body && active.isConnected && active !== $id("game"))) return;
    const enabled = (n) => n instanceof Element && !n.disabled && n.getAttribute("aria-disabled") !== "true" && n.getClientRects().length > 0;
    const commands = [...document.querySelectorAll("#game [data-command], #trade-panel [data-command]")];
    const same = want.command !== undefined ? commands.find((n) => n.dataset.command === want.command && enabled(n))
      : [...document.querySelectorAll(`#game ${want.sel}, #trade-panel ${want.sel}`)].find((n) => !n.disabled && n.getClientRects().length > 0);
    if (same) { same.focus({ preventScroll: true }); this.focusWant = null; return; }
    if (this.busy) return; // the buttons come back when the server answers
    const region = want.region ? document.querySelector(want.region) : null;
    const near = region ? [...region.querySelectorAll("[data-command]")].find(enabled) : null;
    const first = near || commands.find(enabled);
    if (first) first.focus({ preventScroll: true });
    else $id("game").focus({ preventScroll: true });
    this.focusWant = null;
  }
}

/** A selector that finds `node`'s part of the page again after a render redraws it. */
function regionSelector(node) {
  for (let el = node.parentElement; el && el.id !== "game" && el !== document.body; el = el.parentElement) {
    if (el.id) return `#${CSS.escape(el.id)}`;
    const testid = el.getAttribute("data-testid");
    if (testid && testid !== "legal-action") return `[data-testid="${CSS.escape(testid)}"]`;
  }
  return null;
}

const app = $id("app");
if (app) new RoomPage(app.dataset.code).start();
