// Merchants of the Dark Road in the room page (the interface is in docs/client.md): the
// kingdom board, the action panel (steps, choices, every legal command), your wagon with
// its storage grid (a sheet of its own on a phone), the caravan, the merchants, the log
// in sentences and the end screen's scoring table and prestige chart.
import { api } from "../../api.js";
import { t } from "../../i18n.js";
import { CardViewer, Parts, dockToasts, tipsFromTitles } from "../../kit.js";
import { clear, h } from "../../util.js";
import { ActionPanel, statusText } from "./actions.js";
import { Board } from "./board.js";
import { CaravanFeed } from "./caravan.js";
import { endDetails } from "./endgame.js";
import { LastAction } from "./last.js";
import { Storage } from "./storage.js";
import { WagonSheet, renderPlayers, renderWagon } from "./wagon.js";
import { Words } from "./words.js";

/** Style sheets of this folder, loaded by the shell with the module. */
export const styles = ["darkroad.css"];

export function mount(shell, root, content) {
  const words = new Words(content);
  const el = layout(shell, root);
  const send = (cmd) => shell.send(cmd);
  const board = new Board(el.board, content, words, { onCommand: send });
  el.tools.append(...board.viewport.buttons());
  const storage = new Storage(words, content, { send });
  const actions = new ActionPanel(el.actions, content, words);
  const readLog = async (after) => (await api("GET", `/api/rooms/${encodeURIComponent(shell.code)}/log?after=${after}`)).entries;
  const caravan = new CaravanFeed(el.caravan, words, readLog);
  const lastAction = new LastAction();
  const parts = new Parts();

  return {
    ownSeats: true, // the merchants' panels carry the shell's seat tools (bots, timer, host)
    render(view, events) {
      words.setView(view, shell.room);
      const last = lastAction.update(view, events);
      const ctx = { view, words, content, busy: shell.busy, send, presence: shell.presence,
        seatTools: shell.seatTools ? (seat) => shell.seatTools(seat) : null,
        preview: (space) => board.preview(space) };
      shell.setBanner(statusText(view, words));
      board.update(view, { busy: shell.busy, last });
      const lastText = last ? JSON.stringify(last) : "";
      if (el.board.dataset.last !== lastText) el.board.dataset.last = lastText;
      // Each part is drawn again only when what it reads has changed (kit.js Parts). The
      // action panel reads nearly all of the view (its own choices redraw it themselves).
      const busy = shell.busy;
      const { version, ...state } = view;
      void version;
      if (parts.draw("actions", { state, busy, names: words.names }, () => actions.render(ctx))) {
        board.preview(null); // the control it previewed for is gone (focus brings one back)
      }
      const seated = view.seat !== null && view.seat !== undefined && Boolean(view.players[view.seat]);
      // A good to store is said on the wagon button (phones keep the wagon in a sheet).
      el.sheet.show(seated, view.private?.pending?.kind === "store");
      const me = seated ? view.players[view.seat] : null;
      if (seated) {
        parts.draw("wagon", { me, priv: view.private, legal: view.legal_actions, waiting: view.turn?.waiting_for,
          names: words.names, busy, seat: view.seat }, () => renderWagon(el.sheet.body, ctx, storage));
      }
      const room = shell.room;
      ctx.room = { seats: room?.seats, status: room?.status, timer: room?.timer, me: shell.seat };
      renderPlayers(el.players, ctx); // each merchant's card keyed by what it shows (wagon.js)
      caravan.update(view, events);
      tipsFromTitles(root);
    },
    /** The coach's choice shown where it is made: a plan's die selected first (the Plan
     *  buttons are those of the selected die; the panel draws itself again). */
    showAdvice(action) {
      return actions.showAdvice(action);
    },
    describe(event, view) {
      if (view) words.setView(view, shell.room);
      return words.sentence(event);
    },
    who(seat, view) {
      if (view) words.setView(view, shell.room);
      return words.who(seat);
    },
    endDetails(box, view) {
      endDetails(box, view, words, shell.code);
    },
    /** The end screen's story (static/js/story.js): the caravans this seat joined. */
    storyLines(seat, entries) {
      let joined = 0;
      let declined = 0;
      for (const entry of entries) {
        for (const e of entry.events || []) {
          if (e.type === "join" && e.seat === seat) { if (e.yes) joined += 1; else declined += 1; }
        }
      }
      return [t("Caravans joined: {joined} (declined: {declined})", { joined, declined })];
    },
    isMyTurn(view) {
      return Boolean(view && view.status === "playing" && (view.legal_actions || []).length > 0);
    },
    destroy() {
      storage.destroy();
      el.sheet.destroy();
      board.destroy();
      el.undock();
      clear(root);
    },
  };
}

/** The page's parts, laid out (darkroad.css): the board and its zoom bar; beside it (under
 *  it on a phone) a column that scrolls on its own (the end screen, the card viewer, the
 *  action panel, the caravan, the wagon, a sheet on a phone, and the merchants) and under
 *  it the docked toasts, never scrolled away: one that comes or goes moves the column's
 *  bottom edge, never what the player is about to click; the log and the chat keep rows
 *  of their own. */
function layout(shell, root) {
  const el = {
    board: h("div", { class: "dr-board", "data-testid": "board", "role": "region", "aria-label": t("The kingdom board") }),
    actions: h("section", { class: "card dr-actions generic-table", "aria-label": t("Your actions"), "data-testid": "dr-actions" }),
    caravan: h("section", { class: "card dr-caravan", "aria-label": t("The caravan"), hidden: true, "data-testid": "dr-caravan" }),
    wagon: h("section", { id: "dr-wagon", class: "card dr-wagon", "aria-label": t("Your wagon"), "data-testid": "wagon" }),
    players: h("section", { class: "card dr-players", "aria-label": t("Merchants") }),
    tools: h("div", { class: "dr-board-tools", role: "group", "aria-label": t("Board zoom") }),
  };
  el.sheet = new WagonSheet(el.wagon);
  root.classList.add("dr-game");
  const viewer = new CardViewer(root);
  const toasts = h("div", { class: "dr-toasts", "data-testid": "dr-toasts" });
  shell.parts.log.classList.add("dr-log");
  root.append(
    h("div", { class: "board-col dr-board-col" }, el.board, el.tools),
    h("div", { class: "dr-side" },
      h("section", { class: "side-col dr-side-col" }, shell.parts.endgame, viewer.node, el.actions, h("div", { class: "dr-sheet-row" }, el.sheet.toggle),
        el.caravan, el.wagon, el.players),
      toasts),
    shell.parts.log);
  el.undock = dockToasts(toasts);
  return el;
}
