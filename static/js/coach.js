// The coach (room option `coach`): "What would you do?" asks the server's hard bot for
// this seat's best move; the page highlights it among the legal actions (the element of
// data-testid=legal-action whose data-command is that command) and says why, in the
// page's language, with its word on each open offer the seat may accept.
import * as API from "./api.js";
import { lang, t } from "./i18n.js";
import { sameCommand } from "./legal.js";
import { toast } from "./util.js";
import { explain } from "./errors.js";

/** Mark the element offering `action` (or those of its type) as the coach's choice. */
export function highlight(action) {
  for (const old of document.querySelectorAll(".coached")) old.classList.remove("coached");
  if (!action) return null;
  const buttons = [...document.querySelectorAll('[data-testid="legal-action"]')];
  let found = buttons.filter((b) => {
    try { return sameCommand(JSON.parse(b.dataset.command || "null"), action); } catch { return false; }
  });
  let sure = true;
  if (!found.length) {
    // No element carries that exact command (a map's move target names its destination
    // by data-to, not the path): those of its type whose data- attributes all agree with
    // the command's own fields, else every one of its type.
    const typed = buttons.filter((b) => b.dataset.type === action.type);
    const fields = Object.entries(action).filter(([k, v]) => k !== "type" && (v === null || typeof v !== "object"));
    const fits = typed.filter((b) => {
      const named = fields.filter(([k]) => b.dataset[k] !== undefined);
      return named.length > 0 && named.every(([k, v]) => b.dataset[k] === String(v));
    });
    found = fits.length ? fits : typed;
    sure = fits.length > 0;
  }
  for (const b of found) b.classList.add("coached");
  // The middle of the screen, not its edge: a phone's chat bar covers the bottom.
  found[0]?.scrollIntoView?.({ block: "center" });
  // Every button of a type is marked when none names the command: none is named.
  return sure ? found[0] || null : null;
}

/** The coach's choice in words: the marked element's own name (a button's label, a
 *  map target's aria-label), "" when nothing is marked. */
export function choiceName(element) {
  if (!element) return "";
  const name = element.getAttribute("aria-label") || element.textContent || "";
  return name.replace(/\s+/g, " ").trim();
}

/** Ask the coach and show its answer; returns the advice (null if the server refused). */
export async function askCoach(code, button, prepare = () => {}) {
  button.disabled = true;
  try {
    const advice = await API.coach(code, lang());
    prepare(advice.action); // the game's form set up for it, the page drawn again
    const name = choiceName(highlight(advice.action));
    // The move named first: on a phone the marked button may be a scroll away.
    if (advice.reason) toast(name ? `${t("The coach: {action}.", { action: name })} ${advice.reason}` : advice.reason, "info", 10000);
    else if (!advice.action) toast(t("Nothing to do now: the coach waits with you."), "info");
    for (const o of advice.offers || []) {
      const node = document.querySelector(`[data-testid="offer"][data-offer="${CSS.escape(String(o.offer))}"]`);
      node?.classList.toggle("coach-good", o.good);
      node?.classList.toggle("coach-bad", !o.good);
      toast(o.reason, o.good ? "info" : "error", 10000);
    }
    return advice;
  } catch (e) {
    toast(explain(e), "error");
    return null;
  } finally {
    button.disabled = false;
  }
}
