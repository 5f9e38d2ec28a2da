// The replay (/r/{code}/replay): the room page without a socket, the board at any version
// from the server's stored log (GET .../view?at=V), drawn by the game's own module, so a
// new game needs nothing here. Step forward (the step's events animated as in a live game)
// and back, jump by turn or round, play at a speed; the log beside it, its entry for the
// current version highlighted. A finished game may be seen from any seat; a running one
// only as the reader saw it.
import * as API from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./util.js";
import { explain } from "./errors.js";

const SPEEDS = [["2000", "0.5×"], ["1000", "1×"], ["500", "2×"], ["250", "4×"]];

export class ReplayPlayer {
  /** @param page the RoomPage (its log, its module, showReplayView) */
  constructor(page) {
    this.page = page;
    this.code = page.code;
    this.at = 0;
    this.top = 0;
    this.turns = [];
    this.entries = new Map(); // version -> events (as the log gives them to this reader)
    this.seat = null; // whose view (a finished game): null = the reader's own
    this.playing = null;
    this.asked = 0; // the newest request: older answers are dropped
  }

  async start() {
    let outline;
    try {
      outline = await API.replayOutline(this.code);
    } catch (e) {
      this.page.fatal(e.code === "not_started" ? t("The game has not started yet: nothing to replay.") : e.message);
      return;
    }
    this.top = outline.version;
    const conn = document.getElementById("conn");
    conn.dataset.state = "replay";
    conn.dataset.final = "1";
    conn.textContent = t("replay");
    this.finished = outline.finished;
    this.turns = outline.turns || [];
    const wanted = Number(new URLSearchParams(location.search).get("at"));
    this.buildBar();
    await this.go(Number.isInteger(wanted) && wanted >= 0 && wanted <= this.top && location.search.includes("at=")
      ? wanted : this.finished ? 0 : this.top, false);
    await this.fillLog();
    // The log beside the board: first in the game's side column (the layout's own place
    // for it is further down, under the cards and players).
    const side = document.querySelector("#game .side-col");
    if (side) side.prepend(this.page.parts.log);
    this.highlight();
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLElement && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName) && e.target.type !== "range") return;
      if (e.key === "ArrowRight") { e.preventDefault(); this.step(1); }
      if (e.key === "ArrowLeft") { e.preventDefault(); this.step(-1); }
    });
  }

  /** Another seat's view (a finished game): the board, and the log in its words ("You"). */
  async seenBy(seat) {
    this.seat = seat;
    await this.go(this.at, false);
    this.page.log.reset();
    this.writeLog();
    this.highlight();
  }

  /** The log in the words of the seat seen; a private event of the reader's own seat (the
   *  log is the reader's) is left out when another seat is seen. */
  writeLog() {
    const seen = this.seat ?? this.page.mySeat;
    for (const entry of this.logEntries) {
      const events = (entry.events || []).filter((e) => !("to" in e) || e.to === seen);
      this.page.log.add(entry.version, events, entry.seat);
    }
  }

  async fillLog() {
    this.logEntries = [];
    this.page.log.max = Infinity; // every entry of the game, to mark any version
    try {
      const data = await API.api("GET", `/api/rooms/${encodeURIComponent(this.code)}/log?after=0`);
      this.logEntries = data.entries || [];
      for (const entry of this.logEntries) this.entries.set(entry.version, entry.events || []);
      this.writeLog();
    } catch (e) {
      toast(explain(e), "error");
    }
    // A log line goes to its version.
    this.page.log.list.addEventListener("click", (e) => {
      const li = e.target instanceof Element ? e.target.closest("li[data-version]") : null;
      if (li) this.go(Number(li.dataset.version), false);
    });
  }

  buildBar() {
    const button = (testid, label, text, onclick) => h("button", { type: "button", class: "btn small", "data-testid": testid,
      "aria-label": label, "data-tip": label, onclick }, text);
    this.slider = h("input", { type: "range", min: 0, max: this.top, value: 0, step: 1, class: "replay-slider",
      "data-testid": "replay-slider", "aria-label": t("Version"),
      oninput: () => this.go(Number(this.slider.value), false) });
    this.position = h("span", { class: "replay-position", "data-testid": "replay-position", "aria-live": "polite" });
    this.playButton = button("replay-play", t("Play"), "▶", () => this.toggle());
    this.speed = h("select", { class: "replay-speed", "data-testid": "replay-speed", "aria-label": t("Speed") },
      ...SPEEDS.map(([ms, label]) => h("option", { value: ms, selected: ms === "1000" ? true : null }, label)));
    const parts = [
      button("replay-start", t("To the start"), "⇤", () => this.go(0, false)),
      button("replay-prev-round", t("Previous round"), "◀◀", () => this.jumpRound(-1)),
      button("replay-prev-turn", t("Previous turn"), "«", () => this.jumpTurn(-1)),
      button("replay-back", t("One step back"), "‹", () => this.step(-1)),
      this.playButton,
      button("replay-forward", t("One step forward"), "›", () => this.step(1)),
      button("replay-next-turn", t("Next turn"), "»", () => this.jumpTurn(1)),
      button("replay-next-round", t("Next round"), "▶▶", () => this.jumpRound(1)),
      button("replay-end", t("To the end"), "⇥", () => this.go(this.top, false)),
      this.speed,
      this.slider,
      this.position,
    ];
    if (this.finished) {
      // Once the game is over every seat's hidden cards may be shown: whose view to see.
      const seats = this.page.room?.seats || [];
      this.seatChoice = h("select", { class: "replay-seat", "data-testid": "replay-seat", "aria-label": t("Seen by"),
        onchange: () => this.seenBy(this.seatChoice.value === "" ? null : Number(this.seatChoice.value)) },
      h("option", { value: "" }, this.page.mySeat === null ? t("Spectator") : t("You")),
      ...seats.filter((s) => s.index !== this.page.mySeat).map((s) => h("option", { value: String(s.index) }, s.name)));
      parts.push(h("label", { class: "replay-seat-label" }, t("Seen by"), " ", this.seatChoice));
    }
    const note = this.finished ? t("Replay of a finished game: every player's cards may be shown.")
      : t("Replay of a game in progress: you see what you could see then.");
    this.bar = h("nav", { class: "card replay-bar", "data-testid": "replay-bar", "aria-label": t("Replay") },
      h("div", { class: "replay-head" }, h("strong", { text: t("Replay") }), h("span", { class: "muted small", text: note }),
        h("a", { class: "btn small", href: `/r/${encodeURIComponent(this.code)}` }, t("Back to the room"))),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("Replay controls") }, ...parts));
    document.getElementById("game").before(this.bar);
  }

  /** Show version `v`; `animate`: a step forward, its events played as in a live game. */
  async go(v, animate) {
    v = Math.max(0, Math.min(this.top, v));
    const asked = ++this.asked;
    let view;
    try {
      view = await API.viewAt(this.code, v, this.seat);
    } catch (e) {
      toast(explain(e), "error");
      this.stop();
      return;
    }
    if (asked !== this.asked) return;
    this.at = v;
    const events = animate ? (this.entries.get(v) || []) : [];
    this.page.showReplayView(view, events);
    this.slider.value = String(v);
    const turn = this.turnAt(v);
    const round = turn?.round;
    this.position.textContent = round === null || round === undefined
      ? t("Step {v} of {n}", { v, n: this.top })
      : t("Step {v} of {n} · round {r}", { v, n: this.top, r: round });
    this.bar.dataset.version = String(v);
    history.replaceState(null, "", `${location.pathname}?at=${v}`);
    this.highlight();
  }

  step(delta) {
    return this.go(this.at + delta, delta === 1);
  }

  turnAt(v) {
    let found = null;
    for (const turn of this.turns) { if (turn.version <= v) found = turn; else break; }
    return found;
  }

  jumpTurn(direction) {
    const starts = this.turns.map((turn) => turn.version);
    const target = direction > 0 ? starts.find((s) => s > this.at) ?? this.top
      : [...starts].reverse().find((s) => s < this.at) ?? 0;
    return this.go(target, false);
  }

  jumpRound(direction) {
    const current = this.turnAt(this.at)?.round;
    const turns = this.turns.filter((turn) => turn.round !== null && turn.round !== undefined);
    let target;
    if (direction > 0) target = turns.find((turn) => turn.version > this.at && turn.round !== current)?.version ?? this.top;
    else {
      // The start of this round, or of the one before when already at its start.
      const starts = [];
      for (const turn of turns) if (!starts.length || starts[starts.length - 1].round !== turn.round) starts.push(turn);
      target = [...starts].reverse().find((s) => s.version < this.at)?.version ?? 0;
    }
    return this.go(target, false);
  }

  toggle() {
    if (this.playing) this.stop();
    else this.play();
  }

  play() {
    if (this.at >= this.top) this.go(0, false);
    this.playing = true;
    this.playButton.textContent = "❚❚";
    this.playButton.setAttribute("aria-label", t("Pause"));
    const tick = async () => {
      if (!this.playing) return;
      if (this.at >= this.top) { this.stop(); return; }
      await this.step(1);
      if (this.playing) this.timer = setTimeout(tick, Number(this.speed.value) || 1000);
    };
    this.timer = setTimeout(tick, 0);
  }

  stop() {
    this.playing = null;
    clearTimeout(this.timer);
    this.playButton.textContent = "▶";
    this.playButton.setAttribute("aria-label", t("Play"));
  }

  /** The log entry of the current version (or the last one before it) is marked; the
   *  entries after it are hidden (the log told the end from the first step on). */
  highlight() {
    const list = this.page.log.list;
    let current = null;
    for (const li of list.children) {
      li.classList.remove("current");
      li.removeAttribute("aria-current");
      const version = Number(li.dataset.version);
      li.hidden = version > this.at;
      if (version <= this.at) current = li;
    }
    if (!current) {
      list.scrollTop = 0;
      return;
    }
    current.classList.add("current");
    current.setAttribute("aria-current", "step");
    current.dataset.testid = "replay-current";
    for (const li of list.querySelectorAll("[data-testid=replay-current]")) if (li !== current) delete li.dataset.testid;
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}
