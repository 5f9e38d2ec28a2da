// Translations in the browser: the same gettext catalogues as the server (app/locale,
// each game's locale/), looked up by the English text. Parameters are named, {name}.
// Grammar is never built by concatenation: tn() picks the plural form of the language,
// and a sentence about "you" and one about another player are two messages.
//
//   t("Take a seat")                              -> "Prendre une place"
//   tn("{n} gold", "{n} gold", 3)                 -> "3 or"
//   tp("verb", "Build")                           -> msgctxt "verb"
//   t("{actor} counters {owner}'s offer.", {actor: "Ana", owner: "Bo"})
//   t("You moved to {place}.", {place: noun("Dunes Rouges", "les")})  -> "Vous êtes allé aux Dunes Rouges."
//     (the French text says "{place:au}": a name's form is chosen by the message, see form())

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

const VOWEL = /^[aeiouyhàâäéèêëîïôöùûüœ]/i;

/** `name` in the grammatical form `spec` (le, Le, au, du, que; "" bare), as app/games/i18n.py's
 *  form(): the article is le, la, l', les or "" (a proper name). */
export function form(name, article, spec) {
  const a = article || "";
  if (!spec) return name;
  if (spec === "le" || spec === "Le") {
    const text = a === "l'" ? `l'${name}` : a ? `${a} ${name}` : name;
    return spec === "Le" ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }
  if (spec === "au") return ({ le: "au ", la: "à la ", "l'": "à l'", les: "aux " }[a] ?? "à ") + name;
  if (spec === "du") {
    if (!a) return (VOWEL.test(name) ? "d'" : "de ") + name;
    return { le: "du ", la: "de la ", "l'": "de l'", les: "des " }[a] + name;
  }
  if (spec === "que") { // "On attend {who:que} …": qu'Anne, que Bo, que la …
    const text = form(name, a, "le");
    return (VOWEL.test(text) ? "qu'" : "que ") + text;
  }
  return name;
}

/** A name with its article, for a message's {param:form} ("{place:au}" -> "aux Dunes
 *  Rouges"); shown bare it is its name. */
export function noun(name, article) {
  const a = ["le", "la", "l'", "les"].includes(article) ? article : ""; // an untranslated article: none
  return { name: String(name ?? ""), article: a, toString() { return this.name; } };
}

function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)(?::(\w+))?\}/g, (whole, name, spec) => {
    if (!(name in params)) return whole;
    const v = params[name];
    if (!spec) return String(v);
    return v && typeof v === "object" && "article" in v ? form(v.name, v.article, spec) : form(String(v), "", spec);
  });
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
  const v = document.body?.dataset.i18n; // the strings' version: that answer is cached a year
  const r = await fetch(`/api/i18n/${encodeURIComponent(current)}${v ? `?v=${encodeURIComponent(v)}` : ""}`);
  if (r.ok) addMessages((await r.json()).messages);
}

/** Choose a language: remembered in a cookie (the server reads it), then the page
 *  reloads in it. */
export function choose(code) {
  document.cookie = `karanor_lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}
