// The waiting room: seats, joining, the host's options, bots, start, share links.
import * as API from "./api.js";
import { clear, copyText, h, seatBadge, toast } from "./util.js";

export class Lobby {
  /** @param {object} app the page controller (code, room, mySeat, afterJoin()) */
  constructor(app) {
    this.app = app;
    this.seats = document.getElementById("seats");
    this.joinForm = document.getElementById("join-form");
    this.host = document.getElementById("host-controls");
    this.options = document.getElementById("options-form");
    this.optionsTouched = false;
    const link = `${location.origin}/r/${app.code}`;
    document.getElementById("room-link").value = link;
    document.getElementById("copy-link").addEventListener("click", () => copyText(link, "Room link"));
    document.getElementById("copy-resume").addEventListener("click", () =>
      copyText(document.getElementById("resume-link").value, "Personal link"));
    this.options.addEventListener("change", () => {
      this.optionsTouched = true;
      // Everyone sees the options before the start; the start sends them again.
      this.guard(async () => { await API.setOptions(app.code, this.readOptions()); });
    });
    this.joinForm.addEventListener("submit", (e) => { e.preventDefault(); this.join(); });
    document.getElementById("add-bot").addEventListener("click", () => this.guard(async () => {
      await API.addBot(app.code);
      await app.refreshRoom();
    }));
    document.getElementById("start-game").addEventListener("click", () => this.guard(async () => {
      await API.startGame(app.code, this.readOptions());
      await app.refreshRoom();
      app.socket.resync();
    }));
    try { document.getElementById("join-name").value = localStorage.getItem("karanor:name") || ""; } catch { /* */ }
  }

  async guard(fn) {
    try { await fn(); } catch (e) { toast(e.message, "error"); }
  }

  async join() {
    const input = document.getElementById("join-name");
    const name = input.value.trim();
    if (!name) { toast("Enter your name first.", "error"); input.focus(); return; }
    const button = this.joinForm.querySelector("button");
    button.disabled = true;
    try {
      const answer = await API.joinRoom(this.app.code, name);
      try { localStorage.setItem("karanor:name", name); } catch { /* */ }
      API.rememberToken(this.app.code, answer.seat.token);
      await API.openSession(this.app.code, answer.seat.token);
      await this.app.afterJoin(answer.seat.index);
    } catch (e) {
      toast(e.message, "error");
    } finally {
      button.disabled = false;
    }
  }

  readOptions() {
    const f = this.options.elements;
    const out = {
      max_players: Number(f.max_players.value),
      public_quests: f.public_quests.checked,
      two_player_market: f.two_player_market.checked,
      start_seat: f.start_seat.value === "random" ? "random" : Number(f.start_seat.value),
    };
    out.end_prestige = f.end_prestige.value ? Number(f.end_prestige.value) : null;
    return out;
  }

  /** Fill the option fields from the room's options (until the host touches them). */
  showOptions(options, seats) {
    const f = this.options.elements;
    const select = f.start_seat;
    const current = select.value;
    clear(select).append(h("option", { value: "random", text: "random" }),
      ...seats.map((s) => h("option", { value: String(s.index), text: s.name })));
    select.value = [...select.options].some((o) => o.value === current) ? current : "random";
    if (this.optionsTouched || !options) return;
    if (options.max_players) f.max_players.value = String(options.max_players);
    if (typeof options.public_quests === "boolean") f.public_quests.checked = options.public_quests;
    if (typeof options.two_player_market === "boolean") f.two_player_market.checked = options.two_player_market;
    if (options.end_prestige) {
      const v = String(options.end_prestige);
      if (![...f.end_prestige.options].some((o) => o.value === v)) f.end_prestige.append(h("option", { text: v }));
      f.end_prestige.value = v;
    }
  }

  render(room, mySeat) {
    const me = (room.seats || []).find((s) => s.index === mySeat);
    const isHost = me ? (me.host ?? me.index === 0) : false;
    clear(this.seats);
    const max = room.options?.max_players ?? 6;
    for (const seat of room.seats || []) {
      const li = h("li", { class: "seat", "data-testid": "seat", "data-index": seat.index },
        seatBadge(seat.index, 26, `seat ${seat.index + 1}`),
        h("span", { class: "seat-name", text: seat.name }),
        (seat.host ?? seat.index === 0) ? h("span", { class: "tag", text: "host" }) : null,
        seat.bot ? h("span", { class: "tag", text: "bot" }) : null,
        seat.index === mySeat ? h("span", { class: "tag you", text: "you" }) : null,
        h("span", { class: `presence ${seat.connected || seat.bot ? "on" : "off"}`,
          title: seat.connected || seat.bot ? "connected" : "not connected",
          "aria-label": seat.connected || seat.bot ? "connected" : "not connected" }));
      if (isHost && seat.index !== mySeat && room.status === "lobby") {
        li.append(h("button", { type: "button", class: "btn small", "aria-label": `Remove ${seat.name}`,
          onclick: () => this.guard(async () => {
            await API.removeSeat(this.app.code, seat.index);
            await this.app.refreshRoom();
          }) }, "Remove"));
      }
      this.seats.append(li);
    }
    const free = Math.max(0, max - (room.seats || []).length);
    for (let i = 0; i < free; i += 1) {
      this.seats.append(h("li", { class: "seat empty", "aria-label": "free seat" }, h("span", { class: "muted", text: "free seat" })));
    }
    const canJoin = mySeat === null && room.status === "lobby" && free > 0;
    this.joinForm.hidden = !canJoin;
    document.getElementById("lobby-wait").hidden = mySeat === null || isHost;
    this.host.hidden = !isHost;
    if (isHost) this.showOptions(room.options, room.seats || []);
    document.getElementById("start-game").disabled = (room.seats || []).length < 2;
    document.getElementById("add-bot").disabled = free === 0;
    const token = API.rememberedToken(this.app.code);
    const resume = document.getElementById("resume");
    resume.hidden = !(token && mySeat !== null);
    if (token) document.getElementById("resume-link").value = `${location.origin}/r/${this.app.code}#token=${token}`;
  }
}
