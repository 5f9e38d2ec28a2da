// The rules help page (/rules/{game}): the game's content in the page's language and its
// help module, static/js/games/{game}/help.js, which exports
//   renderHelp(root, content)
// and appends into `root` the game's rules summary, its board legend and its icons with
// their names (in the page's language: t()). A game without one gets a plain note.
// Escape (or the Back link) returns to the page the reader came from.
import { loadContent } from "./api.js";
import { loadPlatform, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { assetUrl, h, tapTips } from "./util.js";

const root = document.getElementById("rules-body");
const main = document.getElementById("rules");
const game = main?.dataset.game || "";

// Where the reader came from: the links to this page say it (?from=/r/CODE; the site
// sends no referrer). Only a path of this site is followed.
const fromParam = new URLSearchParams(location.search).get("from") || "";
const from = /^\/(?![/\\])[\w\-/.~%]*$/.test(fromParam) ? fromParam : null;

/** Back where the reader came from (the page of this site that linked here), else the start. */
function back() {
  if (from && history.length > 1) history.back();
  else location.assign(from || "/");
}

function wireBack() {
  const link = document.getElementById("rules-back");
  if (link && from) link.href = from;
  link?.addEventListener("click", (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    back();
  });
  document.addEventListener("keydown", (e) => {
    // Escape leaves the page, unless a control (an open select) or a game's dialog takes it.
    if (e.key !== "Escape" || e.defaultPrevented) return;
    if (document.querySelector("dialog[open]")) return;
    if (e.target instanceof HTMLSelectElement) return;
    back();
  });
}

function fallback(reason) {
  root.replaceChildren(
    h("p", { class: "warning", "data-testid": "rules-fallback", role: "note",
      text: t("The rules help of this game is not written yet.") }),
    h("p", { class: "muted", text: t("The game page only offers the actions the rules allow, so you can learn by playing: every button is a legal move.") }),
  );
  root.dataset.ready = "fallback";
  if (reason) console.info("rules help unavailable:", reason);
}

async function start() {
  languageSwitch();
  wireBack();
  await loadPlatform();
  tapTips();
  if (!root || !/^[a-z0-9_-]{1,40}$/.test(game)) return;
  let content;
  let help;
  try {
    [content, help] = await Promise.all([
      loadContent(game),
      import(new URL(assetUrl(`/static/js/games/${game}/help.js`), location.href).href).catch((e) => ({ missing: e })),
    ]);
  } catch (e) {
    root.replaceChildren(h("p", { class: "form-error", role: "alert",
      text: t("The rules could not be loaded: {reason}", { reason: e.message }) }));
    return;
  }
  if (typeof help.renderHelp !== "function") {
    fallback(help.missing);
    return;
  }
  const body = h("div", { class: "help" });
  try {
    await help.renderHelp(body, content);
  } catch (e) {
    console.error(e);
    fallback(e);
    return;
  }
  root.replaceChildren(body);
  root.dataset.ready = "1";
}

start();
