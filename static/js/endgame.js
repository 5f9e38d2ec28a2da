// The end screen's frame: shown once the game is over, the winner line, then whatever the
// game adds (its module's endDetails: Karanor's score table and prestige chart).
import { lang, t } from "./i18n.js";
import { clear, h } from "./util.js";

/** "Ana, Bo and Cy" in the page's language. */
export function listText(names) {
  try {
    return new Intl.ListFormat(lang(), { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

/** The winner line: "You win!", "Ana wins!", "You and Bo share the victory!"... A sentence
 *  about the reader and one about others are different messages (verbs agree). */
export function winnerText(winners, who, me) {
  if (!winners.length) return t("The game is over.");
  const mine = me !== null && me !== undefined && winners.includes(me);
  const others = winners.filter((w) => w !== me || !mine).map((w) => who(w));
  if (winners.length === 1) return mine ? t("You win!") : t("{name} wins!", { name: others[0] });
  return mine ? t("You and {others} share the victory!", { others: listText(others) })
    : t("{names} share the victory!", { names: listText(others) });
}

/**
 * @param {HTMLElement} root  the end screen card (shell.parts.endgame)
 * @param {object} view
 * @param {object} opts  who(seat) -> "You" | a name; me: the viewer's seat (null: none);
 *   details(root, view) (optional); again: the shell's Play again / Back to the start row
 */
export function renderEndFrame(root, view, { who, me = view.seat, details, again }) {
  if (view.status !== "finished" || !view.result) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  clear(root);
  const winners = view.result.winners || [];
  root.append(h("h2", { class: "winner", text: winnerText(winners, who, me) }));
  if (again) root.append(again);
  details?.(root, view);
}

/** The end screen card, built once by the shell and placed by the game's layout. */
export function endFrame() {
  return h("section", { id: "endgame", class: "card endgame", hidden: true, "aria-label": t("End of the game") });
}
