// The end screen's frame: shown once the game is over, the winner line, then whatever the
// game adds (its module's endDetails: Karanor's score table and prestige chart).
import { clear, h } from "./util.js";

/**
 * @param {HTMLElement} root  the end screen card (shell.parts.endgame)
 * @param {object} view
 * @param {object} opts  who(seat) -> "You" | a name; details(root, view) (optional);
 *   again: the shell's Play again / Back to the start row (optional)
 */
export function renderEndFrame(root, view, { who, details, again }) {
  if (view.status !== "finished" || !view.result) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  clear(root);
  const winners = view.result.winners || [];
  const names = winners.map((w) => who(w));
  root.append(h("h2", { class: "winner", text: winners.length > 1
    ? `${names.join(" and ")} share the victory!`
    : winners.length ? `${names[0]} ${names[0] === "You" ? "win" : "wins"}!` : "The game is over." }));
  if (again) root.append(again);
  details?.(root, view);
}

/** The end screen card, built once by the shell and placed by the game's layout. */
export function endFrame() {
  return h("section", { id: "endgame", class: "card endgame", hidden: true, "aria-label": "End of the game" });
}
