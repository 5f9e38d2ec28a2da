// The waiting room: the room's game, seats, joining, the options (the host sets them,
// the others see them), bots, start, share links. Names no particular game: the options
// form is drawn from the game's options schema, with the game module's `lobby` extension.
import * as API from "./api.js";
import { OptionsForm } from "./options.js";
import { showQr } from "./qr.js";
import { t } from "./i18n.js";
import { TimerForm } from "./table.js";
import { BOT_LEVELS as LEVELS, clear, copyText, h, levelName, playerRange, presenceDot, rulesHref, seatBadge, toast } from "./util.js";
import { explain } from "./errors.js";

/** Whether a host name is this machine only (friends cannot open a link to it). */
export function isLoopback(host) {
  const name = host.replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127\./.test(name);
}

const $id = (id) => document.getElementById(id);

export class Lobby {
  /**
   * @param {object} app the page controller (code, room, mySeat, refreshRoom(), afterJoin(), socket)
   * @param {object|null} game this room's game as GET /api/games lists it (null: unknown)
   * @param {object} ext the game module's `lobby` export ({} when it has none)
   */
  constructor(app, game, ext = {}) {
    this.app = app;
    this.game = game;
    this.seats = $id("seats");
    this.joinForm = $id("join-form");
    this.card = $id("host-controls");
    this.optionsTouched = false;
    this.options = new OptionsForm($id("options-form"), game, ext, { room: app.room, content: app.content });
    const link = `${location.origin}/r/${app.code}`;
    $id("room-link").value = link;
    $id("copy-link").addEventListener("click", () => copyText(link, t("Room link copied"),
      t("Select and copy the room link by hand")));
    this.timer = new TimerForm(app.code, { idPrefix: "lobby-timer" });
    this.timer.onSaved = (room) => app.onRoom({ room });
    $id("lobby-timer").append(h("h3", { text: t("Turn timer") }), this.timer.node);
    $id("room-qr-box").addEventListener("toggle", () => showQr($id("room-qr"), link), { once: true });
    $id("resume-qr-box").addEventListener("toggle", () => this.resumeQr());
    this.warnLoopback();
    $id("copy-resume").addEventListener("click", () => copyText($id("resume-link").value,
      t("Personal link copied"), t("Select and copy the personal link by hand")));
    $id("options-form").addEventListener("change", () => {
      this.optionsTouched = true;
      // Half-chosen options (a game's own field says so: setCustomValidity) wait.
      if (!$id("options-form").checkValidity()) return;
      // Everyone sees the options before the start; the start sends them again.
      this.guard(async () => { await API.setOptions(app.code, this.options.read()); });
    });
    $id("options-form").addEventListener("submit", (e) => e.preventDefault());
    this.joinForm.addEventListener("submit", (e) => { e.preventDefault(); this.join(); });
    $id("add-bot").addEventListener("click", () => this.guard(async () => {
      await API.addBot(app.code);
      await app.refreshRoom();
    }));
    $id("start-game").addEventListener("click", () => this.optionsReady() && this.guard(async () => {
      await API.startGame(app.code, this.options.empty ? undefined : this.options.read());
      await app.refreshRoom();
      app.socket.resync();
    }));
    try { $id("join-name").value = localStorage.getItem("karanor:name") || ""; } catch { /* */ }
    const players = game ? playerRange(game) : "";
    const title = game?.title ?? app.gameId;
    $id("lobby-game").replaceChildren(h("strong", { text: title }), players ? ` · ${players}` : "");
    $id("lobby-game").hidden = false;
    $id("lobby-rules-link").href = rulesHref(app.gameId);
    $id("lobby-rules").hidden = false;
  }

  /** The personal link as a QR code, once its box is open (and again if the link changes). */
  resumeQr() {
    const img = $id("resume-qr");
    const link = $id("resume-link").value;
    if (!$id("resume-qr-box").open || !img || !link || this.resumeQrFor === link) return;
    this.resumeQrFor = link;
    showQr(img, link);
  }

  /** Whether the options can be sent; if not, the form says what is missing. */
  optionsReady() {
    const form = $id("options-form");
    if (form.checkValidity()) return true;
    form.reportValidity();
    return false;
  }

  /** A loopback address in the link: friends cannot open it; show the ones that work. */
  async warnLoopback() {
    if (!isLoopback(location.hostname)) return;
    const box = $id("loopback-warning");
    box.replaceChildren(h("strong", { text: t("Friends cannot open this link:") }), " ",
      t("{host} is this computer only.", { host: location.hostname }));
    box.hidden = false;
    let info = null;
    try { info = await API.serverInfo(); } catch { /* an older server */ }
    const urls = (info?.urls || []).map((u) => `${u.replace(/\/$/, "")}/r/${this.app.code}`);
    if (urls.length) {
      box.append(" ", t("Send one of these instead (same network):"),
        h("ul", { class: "lan-links" }, ...urls.map((u) => h("li", {},
          h("code", { text: u }), " ",
          h("button", { type: "button", class: "btn small", "aria-label": t("Copy {link}", { link: u }),
            onclick: () => copyText(u, t("Room link copied"), t("Select and copy the room link by hand")) },
          t("Copy"))))));
    } else {
      // The command stays as it is, in a <code> of its own, inside the translated sentence.
      const [before, after] = t("The server listens on this computer only: start it with {command} and open the address of this computer on your network.").split("{command}");
      box.append(" ", before, h("code", { text: "karanor serve --host 0.0.0.0" }), after ?? "");
    }
  }

  async guard(fn) {
    try { await fn(); } catch (e) { toast(explain(e), "error"); }
  }

  async join() {
    const input = $id("join-name");
    const name = input.value.trim();
    if (!name) { toast(t("Enter your name first."), "error"); input.focus(); return; }
    const button = this.joinForm.querySelector("button");
    button.disabled = true;
    try {
      const answer = await API.joinRoom(this.app.code, name);
      try { localStorage.setItem("karanor:name", name); } catch { /* */ }
      API.rememberToken(this.app.code, answer.seat.token);
      await API.openSession(this.app.code, answer.seat.token);
      await this.app.afterJoin(answer.seat.index);
    } catch (e) {
      toast(explain(e), "error");
    } finally {
      button.disabled = false;
    }
  }

  /** How many seats the room offers. */
  seatLimit(room) {
    return room.seat_limit ?? room.options?.max_players ?? this.game?.max_players ?? 6;
  }

  /** The host's choice of a bot seat's level (hook `bot-level`). */
  levelControl(seat) {
    const select = h("select", { class: "bot-level", "data-testid": "bot-level",
      "aria-label": t("Level of {name}", { name: seat.name }) },
      ...LEVELS.map((level) => h("option", { value: level, text: levelName(level) })));
    select.value = seat.level || "normal";
    select.addEventListener("change", () => this.guard(async () => {
      await API.setBotLevel(this.app.code, seat.index, select.value);
      await this.app.refreshRoom();
    }));
    return select;
  }

  render(room, mySeat) {
    const seats = room.seats || [];
    const me = seats.find((s) => s.index === mySeat);
    const isHost = me ? (me.host ?? me.index === 0) : false;
    clear(this.seats);
    const max = this.seatLimit(room);
    for (const seat of seats) {
      const li = h("li", { class: "seat", "data-testid": "seat", "data-index": seat.index },
        seatBadge(seat.index, 26, t("seat {n}", { n: seat.index + 1 })),
        h("span", { class: "seat-name", text: seat.name }),
        (seat.host ?? seat.index === 0) ? h("span", { class: "tag", text: t("host") }) : null,
        seat.bot ? h("span", { class: "tag", text: t("bot") }) : null,
        seat.bot && !(isHost && room.status === "lobby")
          ? h("span", { class: "tag level", text: levelName(seat.level) }) : null,
        seat.index === mySeat ? h("span", { class: "tag you", text: t("you") }) : null,
        presenceDot(Boolean(seat.connected || seat.bot)));
      if (isHost && seat.bot && room.status === "lobby") li.append(this.levelControl(seat));
      if (isHost && seat.index !== mySeat && room.status === "lobby") {
        // On a phone its cross alone (style sheet: .remove-label), so that a bot's row
        // keeps its level control on the name's line.
        const named = t("Remove {name}", { name: seat.name });
        li.append(h("button", { type: "button", class: "btn small remove-seat", "aria-label": named,
          title: named, "data-tip": named,
          onclick: () => this.guard(async () => {
            await API.removeSeat(this.app.code, seat.index);
            await this.app.refreshRoom();
          }) }, h("span", { class: "remove-icon", "aria-hidden": "true" }, "✕"),
          h("span", { class: "remove-label" }, t("Remove"))));
      }
      this.seats.append(li);
    }
    const free = Math.max(0, max - seats.length);
    for (let i = 0; i < free; i += 1) {
      this.seats.append(h("li", { class: "seat empty" }, h("span", { class: "muted", text: t("free seat") })));
    }
    const canJoin = mySeat === null && room.status === "lobby" && free > 0;
    this.joinForm.hidden = !canJoin;
    $id("lobby-wait").hidden = mySeat === null || isHost;

    // The options: the host sets them; everyone else sees them, read-only.
    this.options.refresh({ room });
    if (!isHost || !this.optionsTouched) this.options.write(room.options);
    this.options.disable(!isHost);
    this.card.hidden = !isHost && this.options.empty;
    $id("host-title").textContent = isHost ? t("Host") : t("Options");
    $id("options-note").hidden = isHost;
    $id("host-buttons").hidden = !isHost;
    $id("start-game").disabled = seats.length < (this.game?.min_players ?? 2);
    $id("add-bot").disabled = free === 0;
    this.timer.show(room.timer ?? null, { host: isHost });

    const token = API.rememberedToken(this.app.code);
    const resume = $id("resume");
    resume.hidden = !(token && mySeat !== null);
    if (token) $id("resume-link").value = `${location.origin}/r/${this.app.code}#token=${token}`;
    this.resumeQr();
  }
}
