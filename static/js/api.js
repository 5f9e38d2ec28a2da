// HTTP calls of docs API.md. Errors become ApiError with the server's code and message.
import { addMessages, lang, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", t("The server cannot be reached. Check your connection."));
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const err = data && data.error;
    const detail = data && typeof data.detail === "string" ? data.detail : null;
    throw new ApiError(response.status, err ? err.code : `http_${response.status}`,
      err ? err.message : detail || t("The server answered {status}.", { status: response.status }));
  }
  return data;
}

const room = (code) => `/api/rooms/${encodeURIComponent(code)}`;

/** A new room: `game` an id of GET /api/games (left out: the server's default). */
export function createRoom(name, { game, options } = {}) {
  const body = { name };
  if (game) body.game = game;
  if (options) body.options = options;
  return api("POST", "/api/rooms", { body });
}

/** The games this server hosts: [{id, title, min_players, max_players, options_schema, defaults}],
 *  each `title` in the page's language (from `titles`). */
export async function listGames() {
  const data = await api("GET", "/api/games");
  return (data?.games || []).map((g) => ({ ...g, title: g.titles?.[lang()] ?? g.title }));
}

export const getRoom = (code) => api("GET", room(code));
export const joinRoom = (code, name) => api("POST", `${room(code)}/seats`, { body: { name } });
export const addBot = (code) => api("POST", `${room(code)}/bots`, { body: {} });
export const coach = (code, lang) => api("GET", `${room(code)}/coach?lang=${encodeURIComponent(lang)}`);
export const setBotLevel = (code, index, level) =>
  api("PUT", `${room(code)}/seats/${index}/level`, { body: { level } });
export const removeSeat = (code, index) => api("DELETE", `${room(code)}/seats/${index}`);
export const setOptions = (code, options) => api("PUT", `${room(code)}/options`, { body: { options } });
export const startGame = (code, options) => api("POST", `${room(code)}/start`, { body: { options } });
export const openSession = (code, token) => api("POST", `${room(code)}/session`, { token });
export const whoAmI = (code) => api("GET", `${room(code)}/me`);
/** Take back this seat's last command (409 not_undoable when the server will not). */
export const undo = (code, version) => api("POST", `${room(code)}/undo`, { body: { expected_version: version } });
/** A replay: the view at `version` (of `seat`, once the game is over); the outline. */
export const viewAt = (code, version, seat) => api("GET",
  `${room(code)}/view?at=${version}${seat === null || seat === undefined ? "" : `&seat=${seat}`}`);
export const replayOutline = (code) => api("GET", `${room(code)}/replay`);
export const getView = (code) => api("GET", `${room(code)}/view`);

/** The seat index in a /me answer, whatever its exact shape (null: no seat). */
export function seatIndex(me) {
  if (me === null || me === undefined) return null;
  if (typeof me === "number") return me;
  const seat = "seat" in me ? me.seat : me;
  if (seat === null || seat === undefined) return null;
  if (typeof seat === "number") return seat;
  return typeof seat.index === "number" ? seat.index : null;
}

/** The version of a game's content the page names (data-content): the answer to a
 *  versioned URL is cached a year. */
function contentVersion(game) {
  try { return JSON.parse(document.body?.dataset.content || "{}")[game] || null; } catch { return null; }
}

const contents = new Map();
/** A game's client catalogue (map, rules numbers, card texts...), fetched once per page. */
export function loadContent(game) {
  if (!contents.has(game)) {
    contents.set(
      game,
      api("GET", `/api/games/${encodeURIComponent(game)}/content?lang=${encodeURIComponent(lang())}${
        contentVersion(game) ? `&v=${encodeURIComponent(contentVersion(game))}` : ""}`)
        .then((content) => { addMessages(content.messages); return content; }),
    );
  }
  return contents.get(game);
}

// The seat token is kept in sessionStorage only to show the "resume" link.
const tokenKey = (code) => `karanor:token:${code}`;
export const rememberToken = (code, token) => {
  try { sessionStorage.setItem(tokenKey(code), token); } catch { /* private mode */ }
};
export const forgetToken = (code) => {
  try { sessionStorage.removeItem(tokenKey(code)); } catch { /* private mode */ }
};
export const rememberedToken = (code) => {
  try { return sessionStorage.getItem(tokenKey(code)); } catch { return null; }
};

// --- the table around the game (docs/api.md) -----------------------------------------
export const replaceWithBot = (code, index) => api("POST", `${room(code)}/seats/${index}/bot`);
export const handBack = (code, index) => api("DELETE", `${room(code)}/seats/${index}/bot`);
export const setTimer = (code, turnSeconds, reserveSeconds) => api("PUT", `${room(code)}/timer`,
  { body: { turn_seconds: turnSeconds, reserve_seconds: reserveSeconds } });
export const leaveGame = (code) => api("POST", `${room(code)}/leave`);
export const setPaused = (code, paused) => api("PUT", `${room(code)}/timer/paused`, { body: { paused } });
export const rematch = (code) => api("POST", `${room(code)}/rematch`);
export const serverInfo = () => api("GET", "/api/server");

/** A link as a QR code: an SVG made by the server, returned as a data: URL for an <img>
 *  (the page's CSP allows img-src data:; nothing is parsed into the page). */
export async function qrDataUrl(text) {
  const response = await fetch("/api/qr", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "image/svg+xml" },
    body: JSON.stringify({ text }),
  });
  if (!response.ok) throw new ApiError(response.status, `http_${response.status}`, "No QR code for this link.");
  const svg = await response.text();
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
