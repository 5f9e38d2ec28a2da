// The table around any game: who is away and who a bot plays for (the host's tools:
// replace an absent person's seat with a bot, hand it back), the turn timer (the host's
// settings, a countdown for the seats the game waits for), and the game menu (this
// seat's resume link with its QR code, the turn cues). Names no particular game.
import * as API from "./api.js";
import { t, tn } from "./i18n.js";
import { cues } from "./notify.js";
import { showQr } from "./qr.js";
import { clear, copyText, h, levelName, presenceDot, rulesHref, seatBadge, toast } from "./util.js";
import { explain } from "./errors.js";

// --- time in words -------------------------------------------------------------------

/** "1:05", "12:00", "3 h 05 min", "2 days 4 h": a countdown's text. */
export function clockText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 2 * 86400) {
    return tn("{n} day {h} h", "{n} days {h} h", Math.floor(s / 86400), { h: Math.floor((s % 86400) / 3600) });
  }
  if (s >= 3600) {
    return t("{h} h {min} min", { h: Math.floor(s / 3600), min: String(Math.floor((s % 3600) / 60)).padStart(2, "0") });
  }
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** "2 minutes", "1 hour", "36 hours", "45 seconds": a duration's setting in words. */
export function durationText(seconds) {
  const s = Math.round(seconds);
  if (s % 3600 === 0) return tn("{n} hour", "{n} hours", s / 3600);
  if (s % 60 === 0) return tn("{n} minute", "{n} minutes", s / 60);
  return tn("{n} second", "{n} seconds", s);
}

/** "2 minutes a turn + 5 minutes of reserve", or "no turn timer". */
export function timerText(timer) {
  if (!timer || !timer.turn_seconds) return t("No turn timer.");
  const turn = durationText(timer.turn_seconds);
  const words = timer.reserve_seconds
    ? t("{turn} a turn + {reserve} of reserve each. Out of time, a bot plays that turn for the player; the seat stays theirs.",
      { turn, reserve: durationText(timer.reserve_seconds) })
    : t("{turn} a turn. Out of time, a bot plays that turn for the player; the seat stays theirs.", { turn });
  return timer.paused ? `${words} ${t("The clocks are paused.")}` : words;
}

const TURN_SECONDS = [0, 30, 60, 120, 300, 600, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 48 * 3600, "hours"];
const RESERVE_SECONDS = [0, 60, 120, 300, 600, 1800, 3600, 12 * 3600, 24 * 3600, 48 * 3600, 96 * 3600];
// Slow games (a turn a day): a turn and a reserve together, as app/rooms/clocks.py SLOW_PRESETS.
const SLOW_PRESETS = [[12 * 3600, 24 * 3600], [24 * 3600, 48 * 3600], [48 * 3600, 96 * 3600]];
const presetValue = ([turn, reserve]) => `slow:${turn}:${reserve}`;
// In words when the form is drawn (the catalogue is loaded by then).
const turnChoices = () => [
  ...TURN_SECONDS.map((v) => [v, v === 0 ? t("Off") : v === "hours" ? t("X hours…") : durationText(v)]),
  // Short: the select is as wide as its longest choice (phones).
  ...SLOW_PRESETS.map((p) => [presetValue(p), t("Slow: {turn} h + {reserve} h", { turn: p[0] / 3600, reserve: p[1] / 3600 })]),
];

/** "Thu 3 Dec, 18:30": a deadline as a date and time in this browser's time zone. */
export function untilText(at) {
  return new Date(at * 1000).toLocaleString(document.documentElement.lang || undefined,
    { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** Now, or the moment the clocks were paused (epoch seconds): what "left" counts from. */
function clockNow(timer) {
  return timer?.paused ?? Date.now() / 1000;
}

/** "3 h 05 min left", and past an hour the date and time it ends (slow games). */
function leftText(at, paused = null) {
  if (paused) return t("{time} left (paused)", { time: clockText(at - paused) });
  const left = at - Date.now() / 1000;
  const time = clockText(left);
  return left >= 3600 ? t("{time} left, until {when}", { time, when: untilText(at) }) : t("{time} left", { time });
}
const reserveChoices = () => RESERVE_SECONDS.map((v) => [v, v === 0 ? t("None")
  : v === 24 * 3600 ? tn("{n} day", "{n} days", 1) : durationText(v)]);

/**
 * The host's timer settings (lobby and game menu): a turn length (off, presets or
 * "X hours a turn") and a reserve; saved with PUT /timer on change. Guests see the
 * setting in words.
 */
export class TimerForm {
  constructor(code, { idPrefix }) {
    this.code = code;
    this.turn = h("select", { id: `${idPrefix}-turn`, name: "turn_seconds", "data-testid": "timer-turn" },
      ...turnChoices().map(([v, label]) => h("option", { value: String(v), text: label })));
    this.hours = h("input", { id: `${idPrefix}-hours`, type: "number", min: 1, max: 168, step: 1, value: 8,
      inputmode: "numeric", "data-testid": "timer-hours" });
    this.hoursBox = h("label", { class: "timer-hours", hidden: true, for: this.hours.id },
      h("span", { text: t("Hours a turn") }), this.hours);
    this.reserve = h("select", { id: `${idPrefix}-reserve`, name: "reserve_seconds", "data-testid": "timer-reserve" },
      ...reserveChoices().map(([v, label]) => h("option", { value: String(v), text: label })));
    this.words = h("p", { class: "muted small timer-words", "data-testid": "timer-words" });
    this.controls = h("div", { class: "timer-controls" },
      h("label", { for: this.turn.id }, `${t("Per turn")} `, this.turn), this.hoursBox,
      h("label", { for: this.reserve.id }, `${t("Reserve (each, once)")} `, this.reserve));
    // The host's pause and resume (a game with a timer only).
    this.pause = h("button", { type: "button", class: "btn small", "data-testid": "timer-pause", hidden: true,
      onclick: () => this.togglePause() });
    this.node = h("div", { class: "timer-form", role: "group", "aria-label": t("Turn timer") }, this.controls,
      this.words, this.pause);
    const save = () => this.save();
    this.turn.addEventListener("change", () => {
      this.hoursBox.hidden = this.turn.value !== "hours";
      save();
    });
    this.hours.addEventListener("change", save);
    this.reserve.addEventListener("change", save);
    this.timer = null;
  }

  seconds() {
    if (this.turn.value.startsWith("slow:")) {
      const [, turn, reserve] = this.turn.value.split(":").map(Number);
      return { turn, reserve };
    }
    const turn = this.turn.value === "hours"
      ? Math.max(1, Math.min(168, Math.round(Number(this.hours.value) || 1))) * 3600 : Number(this.turn.value);
    return { turn, reserve: turn ? Number(this.reserve.value) : 0 };
  }

  async save() {
    const { turn, reserve } = this.seconds();
    this.reserve.disabled = !turn;
    try {
      const room = await API.setTimer(this.code, turn, reserve);
      this.onSaved?.(room);
      this.show(room.timer, { host: true });
    } catch (e) {
      toast(explain(e), "error");
    }
  }

  async togglePause() {
    this.pause.disabled = true;
    try {
      const room = await API.setPaused(this.code, !this.timer?.paused);
      this.onSaved?.(room);
      this.show(room.timer, { host: true, playing: room.status === "playing" });
    } catch (e) {
      toast(explain(e), "error");
    } finally {
      this.pause.disabled = false;
    }
  }

  /** Show the room's timer; `host`: the controls, else the words only; `playing`: the
   * host may pause the clocks. */
  show(timer, { host, playing = false }) {
    this.timer = timer;
    this.pause.hidden = !(host && playing && timer?.turn_seconds);
    this.pause.textContent = timer?.paused ? t("Resume the clocks") : t("Pause the clocks");
    this.controls.hidden = !host;
    this.words.textContent = timerText(timer);
    if (!host || document.activeElement === this.turn || document.activeElement === this.hours) return;
    const turn = timer?.turn_seconds || 0;
    const preset = SLOW_PRESETS.find(([a, b]) => a === turn && b === (timer?.reserve_seconds || 0));
    if (preset) this.turn.value = presetValue(preset);
    else if (TURN_SECONDS.includes(turn)) this.turn.value = String(turn);
    else if (turn % 3600 === 0) {
      this.turn.value = "hours";
      this.hours.value = String(turn / 3600);
    } else {
      this.turn.append(h("option", { value: String(turn), text: durationText(turn) }));
      this.turn.value = String(turn);
    }
    this.hoursBox.hidden = this.turn.value !== "hours";
    const reserve = timer?.reserve_seconds || 0;
    if (!RESERVE_SECONDS.includes(reserve)) {
      this.reserve.append(h("option", { value: String(reserve), text: durationText(reserve) }));
    }
    this.reserve.value = String(reserve);
    this.reserve.disabled = !turn;
  }
}

// --- the seats, the countdown, the host's tools ----------------------------------------

/**
 * What the shell gives a game for its player panels (`shell.seatTools(seat)`) and its
 * own seats card: presence, "a bot plays" tags, the countdown, the host's buttons.
 */
export class Table {
  /** @param {object} page the room page (code, room, mySeat, view, refreshRoom(), who(seat)) */
  constructor(page) {
    this.page = page;
    this.card = h("section", { class: "card table-seats", "aria-labelledby": "table-seats-title" },
      h("h2", { id: "table-seats-title", text: t("At the table") }), h("ul", { class: "seats table-list" }));
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  get room() { return this.page.room; }

  get isHost() {
    const me = this.room?.seats?.find((s) => s.index === this.page.mySeat);
    return Boolean(me && (me.host ?? me.index === 0));
  }

  /** Epoch seconds when `seat`'s time runs out, or null (no timer, not waited for). */
  deadline(seat) {
    const d = (this.room?.timer?.deadlines || []).find((x) => x.seat === seat);
    return d ? d.at : null;
  }

  /** A countdown node for a seat the game waits for (kept ticking by tick()). */
  countdown(seat, { cls = "countdown" } = {}) {
    const at = this.deadline(seat);
    if (at === null || this.room?.status !== "playing") return null;
    const node = h("span", { class: cls, "data-testid": "countdown", "data-deadline": at, "data-seat": seat,
      role: "timer", "aria-label": t("time left") });
    this.paint(node);
    return node;
  }

  paint(node) {
    const paused = this.room?.timer?.paused ?? null;
    const left = Number(node.dataset.deadline) - clockNow(this.room?.timer);
    node.textContent = leftText(Number(node.dataset.deadline), paused);
    node.classList.toggle("low", left < 30);
    node.classList.toggle("out", left <= 0);
  }

  tick() {
    for (const node of document.querySelectorAll("[data-deadline]")) this.paint(node);
    this.topClock();
  }

  /** The topbar's clock: the soonest deadline of the seats waited for, with whose it is. */
  topClock() {
    const box = document.getElementById("turn-clock");
    if (!box) return;
    const list = (this.room?.timer?.deadlines || []).filter(() => this.room?.status === "playing");
    if (!list.length) {
      box.hidden = true;
      return;
    }
    // Your own clock when the game waits for you (a draft where every seat picks at
    // once), else the soonest.
    const soon = list.find((d) => d.seat === this.page.mySeat) ?? list.reduce((a, b) => (a.at <= b.at ? a : b));
    const paused = this.room?.timer?.paused ?? null;
    const left = soon.at - clockNow(this.room?.timer);
    box.hidden = false;
    box.dataset.seat = soon.seat;
    box.textContent = soon.seat === this.page.mySeat
      ? t("You: {time} left", { time: clockText(left) })
      : t("{name}: {time} left", { name: this.page.who(soon.seat), time: clockText(left) });
    if (paused) box.textContent += ` · ${t("paused")}`;
    if (left >= 3600) box.textContent += ` · ${untilText(soon.at)}`; // slow games: the date and time
    box.classList.toggle("low", left < 30);
    box.title = t("Time left for the seat the game waits for");
    box.dataset.tip = box.title;
  }

  /** The seat's tags and the host's button (null when there is nothing to show). */
  seatTools(index) {
    const room = this.room;
    const seat = room?.seats?.find((s) => s.index === index);
    if (!seat || !room) return null;
    const playing = room.status === "playing";
    const me = index === this.page.mySeat;
    const box = h("span", { class: "seat-tools", "data-seat": index });
    if (seat.replaced) {
      box.append(h("span", { class: "tag bot-tag", "data-testid": "seat-replaced",
        text: me ? t("a bot plays for you") : t("a bot plays until they return") }));
    } else if (seat.bot) {
      box.append(h("span", { class: "tag", text: t("bot") }),
        h("span", { class: "tag level", "data-testid": "seat-level", text: levelName(seat.level) }));
    } else if (!seat.connected) {
      box.append(h("span", { class: "tag away-tag", text: t("away") }));
    }
    const clock = this.countdown(index);
    if (clock) box.append(clock);
    if (playing && seat.replaced && (this.isHost || me)) {
      box.append(h("button", { type: "button", class: "btn small", "data-testid": "hand-back",
        onclick: (e) => this.act(e.currentTarget, () => API.handBack(this.page.code, index)) },
      me ? t("Take my seat back") : t("Hand back to {name}", { name: seat.name })));
    } else if (playing && this.isHost && !me && !seat.bot && !seat.connected) {
      box.append(h("button", { type: "button", class: "btn small", "data-testid": "replace-with-bot",
        title: t("{name} is away: a bot plays their seat until they come back", { name: seat.name }),
        onclick: (e) => this.act(e.currentTarget, () => API.replaceWithBot(this.page.code, index)) },
      t("Let a bot play")));
    }
    return box.childNodes.length ? box : null;
  }

  async act(button, call) {
    button.disabled = true;
    const asked = this.page.askRoom?.(); // a GET already under way must not undo this change
    try {
      const room = await call();
      if (room && Array.isArray(room.seats)) this.page.onRoom({ room }, asked);
      else await this.page.refreshRoom();
    } catch (e) {
      toast(explain(e), "error");
      button.disabled = false;
    }
  }

  /** The shell's own seats card (for games whose panels do not show seatTools). */
  renderCard() {
    const list = clear(this.card.querySelector("ul"));
    for (const seat of this.room?.seats || []) {
      list.append(h("li", { class: "seat", "data-seat": seat.index },
        seatBadge(seat.index, 22), h("span", { class: "seat-name", text: seat.name }),
        seat.index === this.page.mySeat ? h("span", { class: "tag you", text: t("you") }) : null,
        presenceDot(!seat.replaced && Boolean(seat.connected || seat.bot), { away: t("away") }),
        this.seatTools(seat.index)));
    }
  }
}

// --- the game menu --------------------------------------------------------------------

/**
 * The topbar's menu during the game: this seat's resume link and its QR code (to go on
 * playing on a phone), the turn cues (sound, notifications), the host's timer.
 */
export class GameMenu {
  constructor(page) {
    this.page = page;
    this.button = document.getElementById("menu-button");
    this.dialog = document.getElementById("game-menu");
    this.timer = new TimerForm(page.code, { idPrefix: "menu-timer" });
    this.timer.onSaved = (room) => page.onRoom({ room });
    this.resume = document.getElementById("menu-resume");
    this.sound = document.getElementById("cue-sound");
    this.notes = document.getElementById("cue-notify");
    document.getElementById("menu-timer").append(this.timer.node);
    this.button.hidden = false;
    this.button.addEventListener("click", () => this.open());
    const rules = document.getElementById("menu-rules");
    if (rules) rules.href = rulesHref(page.gameId);
    document.getElementById("menu-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.dialog.close(); });
    // Escape closes it (the dialog's own cancel); focus goes back to what opened it.
    this.dialog.addEventListener("close", () => {
      const back = this.opener?.isConnected ? this.opener : this.button;
      if (!this.button.hidden || back !== this.button) back.focus();
    });
    this.sound.checked = cues.sound;
    this.sound.addEventListener("change", () => {
      cues.setSound(this.sound.checked);
      if (this.sound.checked) cues.beep(); // a gesture: the audio can start, and you hear it
    });
    this.notes.checked = cues.notify;
    this.notes.addEventListener("change", async () => {
      this.notes.checked = await cues.setNotify(this.notes.checked);
    });
  }

  open() {
    this.opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body
      ? document.activeElement : this.button;
    this.render();
    if (!this.dialog.open) {
      try { this.dialog.showModal(); } catch { this.dialog.setAttribute("open", ""); }
    }
  }

  render() {
    const page = this.page;
    const token = API.rememberedToken(page.code);
    const box = clear(this.resume);
    if (page.mySeat === null) {
      box.append(h("p", { class: "muted", text: t("You are watching: no seat of yours to take elsewhere.") }));
    } else if (!token) {
      box.append(h("p", { class: "muted", text: t("Your personal link is on the device where you took your seat (or opened your link).") }));
    } else {
      const link = `${location.origin}/r/${page.code}#token=${token}`;
      const img = h("img", { class: "qr", alt: t("QR code of your personal link"), width: 180, height: 180,
        "data-testid": "resume-qr" });
      box.append(
        h("p", { class: "muted small", text: t("Open it on another device (or scan the code with a phone) to go on playing there. It takes your seat: keep it to yourself.") }),
        h("div", { class: "share-row" },
          h("input", { class: "link-field", readonly: true, value: link, "aria-label": t("Your personal resume link") }),
          h("button", { type: "button", class: "btn", onclick: () => copyText(link, t("Personal link copied"),
            t("Select and copy the personal link by hand")) }, t("Copy"))),
        h("p", {}, h("a", { href: link, "data-testid": "resume-link", class: "resume-anchor", text: t("Your personal link") })),
        img);
      showQr(img, link);
    }
    // Leave the running game for good: a bot plays the seat to the end.
    const leave = clear(document.getElementById("menu-leave"));
    if (page.mySeat !== null && page.room?.status === "playing") {
      leave.append(h("p", {}, h("button", { type: "button", class: "btn danger", "data-testid": "leave-game",
        onclick: (e) => this.leave(e.currentTarget) }, t("Leave this game (a bot plays my seat to the end)"))));
    }
    const host = this.isHost();
    document.getElementById("menu-timer").hidden = !host && !page.room?.timer;
    this.timer.show(page.room?.timer ?? null, { host, playing: page.room?.status === "playing" });
  }

  isHost() {
    const me = this.page.room?.seats?.find((s) => s.index === this.page.mySeat);
    return Boolean(me && (me.host ?? me.index === 0));
  }

  async leave(button) {
    if (!window.confirm(t("Leave this game for good? A bot plays your seat to the end; you can go on watching."))) return;
    button.disabled = true;
    try {
      const room = await API.leaveGame(this.page.code);
      API.forgetToken(this.page.code);
      this.dialog.close();
      await this.page.leftGame(room);
    } catch (e) {
      toast(explain(e), "error");
      button.disabled = false;
    }
  }
}
