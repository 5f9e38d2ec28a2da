// The table for a game without a page of its own (or while its page is being written):
// whose turn it is, every legal command as a button, the view's version, the players,
// the end screen and the log. Any game the server hosts is playable with it.
// It is a game module like the others (docs/client.md): mount() returns the game.
import { t } from "./i18n.js";
import { listText } from "./endgame.js";
import { commandLabel, renderLegalActions } from "./legal.js";
import { clear, h, seatBadge } from "./util.js";

/** Whether the seat has something to do: any legal command while the game is on. */
export function isMyTurn(view) {
  return view.status === "playing" && (view.legal_actions || []).length > 0;
}

/**
 * @param {object} shell  the shell (docs/client.md)
 * @param {HTMLElement} root  <main id="game">
 * @param {object} content  the game's content (unused here)
 * @param {object} opts  {title, note}: the heading and a line under it
 */
export function mount(shell, root, content, { title, note } = {}) {
  const who = (seat, view) => {
    if (seat === null || seat === undefined) return t("someone");
    if (view && seat === view.seat) return t("You");
    return shell.room?.seats?.find((s) => s.index === seat)?.name
      ?? view?.players?.[seat]?.name ?? t("Seat {n}", { n: seat + 1 });
  };
  const status = h("p", { class: "turn-status" });
  const version = h("p", { class: "muted small" });
  const legal = h("div", { class: "legal-actions action-bar" });
  const players = h("ul", { class: "seats generic-players", "aria-label": t("Players") });
  const data = h("pre", { class: "view-data small", tabindex: 0, "aria-label": t("The view, as the server sends it") });
  root.append(
    h("section", { class: "board-col" },
      h("section", { class: "card generic-table", "aria-label": t("Your actions") },
        h("h2", { text: title || shell.gameTitle || t("The game") }),
        note ? h("p", { class: "muted", text: note }) : null,
        status, legal, version)),
    h("section", { class: "side-col" },
      shell.parts.endgame,
      h("section", { class: "card", "aria-label": t("Players") }, h("h2", { text: t("Players") }), players),
      h("details", { class: "card" }, h("summary", { text: t("The view, as the server sends it") }), data),
      shell.parts.log));

  return {
    render(view) {
      const turn = view.turn || {};
      const acting = Array.isArray(view.to_act) ? view.to_act
        : Array.isArray(turn.waiting_for) ? turn.waiting_for
          : turn.pending?.seat !== undefined && turn.pending?.seat !== null ? [turn.pending.seat]
            : turn.seat !== undefined && turn.seat !== null ? [turn.seat] : [];
      const others = acting.filter((s) => s !== view.seat);
      const mine = (view.legal_actions || []).length > 0;
      status.textContent = view.status === "finished" ? t("The game is over.")
        : mine ? t("Your move: choose one of these.")
          : others.length ? t("Waiting for {names}.", { names: listText(others.map((s) => who(s, view))) })
            : t("Nothing to do right now.");
      shell.setBanner(view.status === "finished" ? t("The game is over") : mine ? t("Your move") : "");
      renderLegalActions(legal, { view, busy: shell.busy, send: (cmd) => shell.send(cmd) }, { empty: null });
      version.textContent = t("Version {n}", { n: view.version });
      clear(players);
      for (const seat of shell.room?.seats || []) {
        players.append(h("li", { class: "seat" }, seatBadge(seat.index, 22),
          h("span", { class: "seat-name", text: seat.name }),
          seat.index === view.seat ? h("span", { class: "tag you", text: t("you") }) : null,
          acting.includes(seat.index) && view.status === "playing" ? h("span", { class: "tag turn-tag", text: t("to play") }) : null));
      }
      data.textContent = JSON.stringify(view, null, 1).slice(0, 20000);
    },
    describe(event, view) {
      const { seat, type, ...rest } = event;
      const what = commandLabel({ type: type ?? "event", ...rest });
      return seat === undefined || seat === null ? what : `${who(seat, view)}: ${what}`;
    },
    who,
    isMyTurn,
    destroy() {
      clear(root);
    },
  };
}
