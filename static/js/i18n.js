// Translations in the browser: the same gettext catalogues as the server (app/locale,
// each game's locale/), looked up by the English text. Parameters are named, {name}.
// Grammar is never built by concatenation: tn() picks the plural form of the language,
// and a sentence about "you" and one about another player are two messages.
//
//   t("Take a seat")                              -> "Prendre une place"
//   tn("{n} gold", "{n} gold", 3)                 -> "3 or"
//   tp("verb", "Build")                           -> msgctxt "verb"
//   t("{actor} counters {owner}'s offer.", {actor: "Ana", owner: "Bo"})

const PLURAL = {
  en: (n) => (n === 1 ? 0 : 1),
  fr: (n) => (n === 0 || n === 1 ? 0 : 1),
};
const SEP = "\u0004"; // gettext's context separator

let current = document.documentElement.lang || "en";
const table = new Map();

/** The language the page is shown in ("en", "fr"). */
export function lang() {
  return current;
}

/** Add translated messages ({key: text | [forms]}) to the table. */
export function addMessages(messages) {
  for (const [k, v] of Object.entries(messages || {})) table.set(k, v);
}

function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The translation of `msgid`, its {params} filled. */
export function t(msgid, params) {
  const found = table.get(msgid);
  return format(typeof found === "string" ? found : msgid, params);
}

/** The translation of `msgid` in context `ctx` (gettext's msgctxt). */
export function tp(ctx, msgid, params) {
  const found = table.get(ctx + SEP + msgid);
  return format(typeof found === "string" ? found : msgid, params);
}

/** The plural form for `n` (also given as {n}) of singular/plural. */
export function tn(singular, plural, n, params) {
  const found = table.get(singular);
  const rule = PLURAL[current] || PLURAL.en;
  const text = Array.isArray(found) && found.length
    ? found[Math.min(rule(n), found.length - 1)]
    : n === 1 ? singular : plural;
  return format(text, { n, ...(params || {}) });
}

/** Load the platform's strings for the page's language; call once before drawing. */
export async function loadPlatform() {
  current = document.documentElement.lang || "en";
  if (current === "en") return;
  const r = await fetch(`/api/i18n/${encodeURIComponent(current)}`);
  if (r.ok) addMessages((await r.json()).messages);
}

/** Choose a language: remembered in a cookie (the server reads it), then the page
 *  reloads in it. */
export function choose(code) {
  document.cookie = `karanor_lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}
