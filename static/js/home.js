// Home page: choose a game (GET /api/games), create a room with it, take its cookie,
// go there. Without the games list (an older server) the room plays the default game.
import { api, createRoom, listGames, openSession, rememberToken } from "./api.js";
import { lang, loadPlatform, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { noticeControls, noticesOffered } from "./notices.js";
import { h, playerRange, rulesHref, tapTips } from "./util.js";

const form = document.getElementById("create-form");
const input = document.getElementById("name-input");
const error = document.getElementById("create-error");
const choice = document.getElementById("game-choice");
const list = document.getElementById("game-list");

const remembered = (key) => { try { return localStorage.getItem(key) || ""; } catch { return ""; } };
const remember = (key, value) => { try { localStorage.setItem(key, value); } catch { /* ignore */ } };

input.value = remembered("karanor:name");

/** Each game's title in the page's language, by id (from GET /api/games): "my games"
 *  names its rooms' games with them (a room's own `title` is the game's English one). */
const titles = new Map();

/** The games as radio cards, each with a link to its rules; the last one chosen here is
 *  chosen again. */
async function showGames() {
  let games;
  try {
    games = await listGames();
  } catch {
    return; // the room plays the server's default game
  }
  for (const g of games) if (g.title) titles.set(g.id, g.title);
  if (!games.length) return;
  const last = remembered("karanor:game");
  const chosen = games.some((g) => g.id === last) ? last : games[0].id;
  list.replaceChildren(...games.map((g) => h("div", { class: "game-card" },
    h("label", { class: "game-option" },
      h("input", { type: "radio", name: "game", value: g.id, "data-testid": "game-choice",
        checked: g.id === chosen ? true : null }),
      h("span", { class: "game-option-text" },
        h("strong", { class: "game-title", text: g.title || g.id }),
        h("span", { class: "muted small", text: playerRange(g) }))),
    h("a", { class: "rules-link", href: rulesHref(g.id), "data-testid": "rules-link",
      "data-game": g.id, "aria-label": t("The rules of {game}", { game: g.title || g.id }) }, t("Rules")))));
  choice.hidden = false;
}

function chosenGame() {
  return form.querySelector("input[name=game]:checked")?.value || null;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = input.value.trim();
  error.hidden = true;
  if (!name) {
    error.textContent = t("Enter your name first.");
    error.hidden = false;
    input.focus();
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const game = chosenGame();
    const room = await createRoom(name, { game });
    remember("karanor:name", name);
    if (game) remember("karanor:game", game);
    rememberToken(room.code, room.seat.token);
    await openSession(room.code, room.seat.token);
    location.assign(room.url || `/r/${room.code}`);
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
    button.disabled = false;
  }
});

// --- my games: this device's rooms (GET /api/me/rooms), waiting for me first --------------

/** "5 minutes ago" in the page's language. */
function ago(iso) {
  if (!iso) return "";
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
  const steps = [[60, "second"], [3600, "minute"], [86400, "hour"], [604800, "day"], [2629800, "week"], [31557600, "month"], [Infinity, "year"]];
  const sizes = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800, month: 2629800, year: 31557600 };
  const [, unit] = steps.find(([limit]) => Math.abs(seconds) < limit);
  try {
    return new Intl.RelativeTimeFormat(lang(), { numeric: "auto" }).format(Math.round(seconds / sizes[unit]), unit);
  } catch {
    return new Date(iso).toLocaleString();
  }
}

function statusText(room) {
  if (room.status === "lobby") return t("In the waiting room");
  if (room.status === "finished") return t("Finished");
  if (room.my_turn) return t("Your turn");
  const names = room.to_act.map((s) => s.name).join(", ");
  return names ? t("Waiting for {names}", { names }) : t("Playing");
}

/** A row's "Notices" button, and the panel it unfolds below the row: the game menu's
 *  controls for this device's seat (notices.js), loaded when first opened. */
function noticesToggle(room, item) {
  const panelId = `notices-${room.code}`;
  const button = h("button", { type: "button", class: "btn small", "data-testid": "my-game-notices",
    "aria-expanded": "false", "aria-controls": panelId, text: t("Notices") });
  const panel = h("div", { class: "my-game-notices", id: panelId, hidden: true,
    role: "region", "aria-label": t("Notices for {game} when its page is closed", { game: room.title }) });
  const controls = noticeControls(room.code, { onChange: (state) => {
    const on = Boolean(state?.targets.length);
    button.textContent = on ? t("Notices on") : t("Notices");
    button.dataset.on = String(on);
  } });
  panel.append(controls.element);
  button.addEventListener("click", () => {
    const open = panel.hidden;
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) controls.render();
  });
  item.append(panel);
  return button;
}

function myGame(found, notices) {
  const room = { ...found, title: titles.get(found.game) ?? found.title };
  const others = room.players.map((p) => p.name).join(", ") || t("nobody else yet");
  const link = room.status === "finished" ? room.replay_url : room.url;
  const item = h("li", { class: `my-game${room.my_turn ? " my-turn" : ""}`, "data-testid": "my-game",
    "data-code": room.code, "data-status": room.status, "data-my-turn": String(room.my_turn) },
  h("a", { class: "my-game-link", href: link },
    h("strong", { class: "my-game-title", text: room.title }),
    h("span", { class: "my-game-players", text: t("with {names}", { names: others }) }),
    h("span", { class: "my-game-status", "data-testid": "my-game-status", text: statusText(room) }),
    room.last_move_at ? h("span", { class: "muted small", text: room.status === "lobby"
      ? t("last change {when}", { when: ago(room.last_move_at) })
      : t("last move {when}", { when: ago(room.last_move_at) }) }) : null),
  room.status === "finished" ? h("a", { class: "btn small", href: room.url }, t("The room")) : null,
  h("button", { type: "button", class: "btn small", "data-testid": "hide-game",
    "aria-label": t("Hide {game} from this list", { game: room.title }),
    onclick: async () => {
      try {
        await api("DELETE", `/api/me/rooms/${encodeURIComponent(room.code)}`);
        item.remove();
        if (!document.querySelector("[data-testid=my-game]")) document.getElementById("my-games").hidden = true;
      } catch { /* the list stays as it was */ }
    } }, t("Hide")));
  // Notices for a game still going on (the seat's token is in the device cookie).
  if (notices && room.status !== "finished") item.querySelector("[data-testid=hide-game]").before(noticesToggle(room, item));
  return item;
}

async function showMyGames() {
  let rooms;
  try {
    rooms = (await api("GET", "/api/me/rooms")).rooms || [];
  } catch {
    return;
  }
  const section = document.getElementById("my-games");
  // One question to the server: whether this browser can get notices here at all.
  const going = rooms.find((room) => room.status !== "finished");
  const notices = going ? await noticesOffered(going.code) : false;
  document.getElementById("my-games-list").replaceChildren(...rooms.map((room) => myGame(room, notices)));
  section.hidden = rooms.length === 0;
}

languageSwitch();
tapTips();
loadPlatform().then(showGames, showGames).then(showMyGames);
