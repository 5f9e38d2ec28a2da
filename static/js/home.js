// Home page: choose a game (GET /api/games), create a room with it, take its cookie,
// go there. Without the games list (an older server) the room plays the default game.
import { createRoom, listGames, openSession, rememberToken } from "./api.js";
import { loadPlatform, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { h, playerRange, rulesHref, tapTips } from "./util.js";

const form = document.getElementById("create-form");
const input = document.getElementById("name-input");
const error = document.getElementById("create-error");
const choice = document.getElementById("game-choice");
const list = document.getElementById("game-list");

const remembered = (key) => { try { return localStorage.getItem(key) || ""; } catch { return ""; } };
const remember = (key, value) => { try { localStorage.setItem(key, value); } catch { /* ignore */ } };

input.value = remembered("karanor:name");

/** The games as radio cards, each with a link to its rules; the last one chosen here is
 *  chosen again. */
async function showGames() {
  let games;
  try {
    games = await listGames();
  } catch {
    return; // the room plays the server's default game
  }
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

languageSwitch();
tapTips();
loadPlatform().then(showGames, showGames);
