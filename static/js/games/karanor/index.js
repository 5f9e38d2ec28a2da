// Merchants of Karanor in the room page: the game module the shell loads for rooms whose
// game is "karanor" (the interface is in docs/client.md). The map, the action bar, the
// choice dialog, the hand, the player panels, the table, trades in the chat panel, the
// words of the log and the end screen's score table and chart.
import { clear, h, importAsset } from "../../util.js";
import { t } from "../../i18n.js";
import { LastMarks, Parts } from "../../kit.js";
import { legalOf } from "../../legal.js";
import { marketPick, openModal, renderActions, renderModal, showMarket, turnText } from "./actions.js";
import { attackNotices, lastActionOf } from "./happened.js";
import { Board, bindZoomButtons } from "./board.js";
import { renderHand, renderPlayers, renderTable } from "./panels.js";
import { PANEL, Trades } from "./trade.js";
import { Words } from "./words.js";

/** Style sheets of this folder, loaded by the shell with the module. */
export const styles = ["karanor.css"];

/** What the shell shows before the game is mounted (the lobby's chat card). */
export const panel = PANEL;

// The hand's commands (renderHand): its part is drawn again when these change.
const HAND_TYPES = ["build", "complete_quest", "play_black_market"];
const MODAL_TYPES = ["draft_pick", "choose_artifact", "quest_choice", "discard_quest", "pick_business"];

/**
 * Build Karanor's table in `root` (the page's <main id="game">, empty).
 * @param {object} shell  see docs/client.md: send, busy, presence, panel, parts, setBanner
 * @param {HTMLElement} root
 * @param {object} content  GET /api/games/karanor/content
 */
export function mount(shell, root, content) {
  const words = new Words(content);
  const el = {
    board: h("div", { id: "board", class: "board", "data-testid": "board" }),
    actions: h("section", { id: "actions", class: "actions card", "aria-label": t("Your actions"), tabindex: -1 }),
    hand: h("section", { id: "hand", class: "card hand", "aria-label": t("Your cards") }),
    players: h("section", { id: "players", class: "players", "aria-label": t("Players") }),
    table: h("section", { id: "table", class: "card table-info", "aria-label": t("Table") }),
  };
  const waitingSlot = h("div", { class: "choice-slot" });
  root.append(
    h("section", { class: "board-col" },
      h("div", { class: "board-wrap" },
        el.board,
        h("div", { class: "board-tools", role: "group", "aria-label": t("Map zoom") },
          h("button", { type: "button", class: "btn icon", id: "zoom-in", "aria-label": t("Zoom in"), "data-tip": t("Zoom in") }, "+"),
          h("button", { type: "button", class: "btn icon", id: "zoom-out", "aria-label": t("Zoom out"), "data-tip": t("Zoom out") }, "−"),
          h("button", { type: "button", class: "btn icon", id: "zoom-reset", "aria-label": t("Show the whole map"),
            "data-tip": t("Show the whole map") }, "⤢"),
          h("a", { class: "btn icon", href: "/rules/karanor", target: "_blank", rel: "noopener", "data-testid": "rules-link",
            "aria-label": t("Rules and map legend (opens a new tab)"), "data-tip": t("Rules and map legend") }, "?")),
        h("p", { id: "board-hint", class: "board-hint", hidden: true })),
      waitingSlot,
      el.actions),
    h("section", { class: "side-col" },
      shell.parts.endgame, el.hand, el.players, el.table, shell.parts.log));

  const board = new Board(el.board, content, { onMove: (cmd) => shell.send(cmd), words });
  bindZoomButtons(board);
  new Trades(shell.panel, { code: shell.code, words, send: (cmd) => shell.send(cmd) });

  // The choice dialog (draft, artifact, quest choice, discard, business pick).
  const dialog = h("dialog", { id: "modal", class: "modal", "aria-labelledby": "modal-title" },
    h("div", { class: "modal-body" }, h("h2", { id: "modal-title" }), h("div", { id: "modal-content" })));
  let modalKey = null;
  let modalHiddenKey = null;
  // A choice cannot be skipped, but it can wait: Escape does what "Look at the board
  // first" does (the dialog closes; "Make your choice" brings it back).
  const lookFirst = () => {
    modalHiddenKey = modalKey;
    dialog.close();
    waiting.hidden = false;
    waiting.focus();
  };
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    lookFirst();
  });
  const peek = h("button", { type: "button", class: "btn peek", "data-testid": "look-first", onclick: lookFirst },
    t("Look at the board first"));
  // The menu (rules, resume link) stays in reach during a choice (issue 27): the modal
  // makes the top bar's button inert, so the dialog has its own.
  const menu = h("button", { type: "button", class: "btn choice-menu", "data-testid": "choice-menu",
    onclick: () => shell.openMenu?.() }, t("☰ Menu"));
  dialog.querySelector(".modal-body").append(peek, menu);
  const waiting = h("button", { type: "button", id: "choice-waiting", class: "btn primary choice-waiting", hidden: true,
    onclick: () => { modalHiddenKey = null; game.render(shell.view, null); } }, t("Make your choice"));
  document.body.append(dialog);
  waitingSlot.append(waiting);

  function renderChoice(ctx) {
    const choices = (ctx.view.legal_actions || []).filter((a) => MODAL_TYPES.includes(a.type));
    const key = choices.length ? `${ctx.view.version}:${choices[0].type}` : null;
    if (key && modalHiddenKey && modalHiddenKey.split(":")[1] === choices[0].type && !ctx.busy) {
      waiting.hidden = false; // the player chose to look at the board first
      return;
    }
    waiting.hidden = true;
    modalHiddenKey = null;
    parts.draw("choice", { choices, busy: ctx.busy, round: ctx.view.turn?.draft_round },
      () => renderModal(dialog, ctx));
    if (choices.length) openModal(dialog); // shut by the player, then asked for again
    modalKey = key;
  }

  // After a move chosen on the map (its targets are redrawn), focus goes to the action bar
  // (the next sensible control), never lost to the page: keyboard players do not Tab
  // through the whole map again. The shell keeps focus on command buttons itself.
  // In the frame that draws the render: finding a shown button lays the page out, which
  // the frame does anyway; inside the view's task it was a second layout (issue 31).
  function keepFocus() {
    if (!board.focusAfterMove || shell.busy || focusFrame) return;
    focusFrame = requestAnimationFrame(() => {
      focusFrame = 0;
      if (board.focusAfterMove && !shell.busy) moveFocus();
    });
  }
  let focusFrame = 0;
  function moveFocus() {
    const active = document.activeElement;
    if (active && active !== document.body && active !== root && active.isConnected) {
      board.focusAfterMove = false;
      return;
    }
    board.focusAfterMove = false;
    const next = [...el.actions.querySelectorAll("button:not([disabled]), summary")].find((n) => n.offsetParent !== null)
      || board.firstTarget();
    (next || el.actions).focus();
  }

  const END_SCREEN = "endgame.js"; // named apart: a literal path would be preloaded
  let endModule = null; // ./endgame.js once loaded
  let last = null; // the last action seen, highlighted on the map
  const marks = new LastMarks(); // `last` by version (a take-back returns to one)
  const parts = new Parts();
  const game = {
    ownSeats: true, // the player panels carry the shell's seat tools (bots, timer, host)
    render(view, events) {
      const before = board.view;
      words.setView(view);
      const ctx = {
        view, words, content, busy: shell.busy,
        send: (cmd) => shell.send(cmd), presence: shell.presence,
        seatTools: shell.seatTools ? (seat) => shell.seatTools(seat) : null,
        rerender: () => game.render(shell.view, null),
      };
      shell.setBanner(turnText(view, words));
      last = marks.after(view, events, () => (events?.length ? lastActionOf(events, view, words) || last : last));
      board.update(view, legalOf(view, "move"), { disabled: shell.busy, last });
      if (events && events.length && before) board.animateMoves(events, before);
      // Each part is drawn again only when what it reads has changed (kit.js Parts).
      const busy = shell.busy;
      const legal = view.legal_actions || [];
      const players = view.players || [];
      const names = players.map((p) => p.name);
      const me = players[view.seat] ?? null;
      const turn = view.turn || {};
      const base = { status: view.status, seat: view.seat, names, busy };
      // The action bar reads the turn's counts only on the seat's own turn.
      const mine = view.seat !== null && turn.seat === view.seat && view.status === "playing";
      const by = turn.end_triggered_by;
      parts.draw("actions", { ...base, legal, me, market: view.board?.market, pick: marketPick(),
        meets: view.board?.inhabitants?.[me?.position] ?? null, coarse: window.matchMedia?.("(pointer: coarse)").matches ?? false,
        turn: { seat: turn.seat, phase: turn.phase, pending: turn.pending?.seat ?? null, by: by ?? null,
          byPrestige: by !== null && by !== undefined ? players[by]?.prestige ?? null : null, end: view.board?.end_prestige,
          left: mine ? [turn.actions_left, turn.move_left] : null } },
      () => renderActions(el.actions, ctx));
      parts.draw("hand", { ...base, priv: view.private, position: me?.position,
        legal: legal.filter((a) => HAND_TYPES.includes(a.type)),
        turn: { seat: turn.seat, phase: turn.phase, pending: turn.pending, actions_left: turn.actions_left } },
      () => renderHand(el.hand, ctx));
      const room = shell.room;
      ctx.room = { seats: room?.seats, status: room?.status, timer: room?.timer, me: shell.seat };
      renderPlayers(el.players, ctx); // each panel keyed by what it shows (panels.js)
      parts.draw("table", { board: view.board }, () => renderTable(el.table, ctx));
      renderChoice(ctx);
      keepFocus();
    },
    /** The coach's choice, shown where it is made (a market visit: the panel's steppers
     *  set to it); whether the page must be drawn again for it. */
    showAdvice(action) {
      return Boolean(shell.view) && showMarket(shell.view, action);
    },
    describe(event, view) {
      if (view) words.setView(view);
      return words.sentence(event);
    },
    who(seat, view) {
      if (view) words.setView(view);
      return words.who(seat);
    },
    endDetails(box, view) {
      // The end screen's details (breakdown, chart) come with the first end screen, under
      // their hashed name: a game page's first load does not carry them (issue 31).
      // Once loaded it draws at once; before, only the last render's box is drawn in
      // (each render clears the box: two renders waiting on the module drew it twice).
      if (endModule) return endModule.endDetails(box, view, words, { code: shell.code });
      const ticket = {};
      box.endTicket = ticket;
      // Loaded at its first use under its hashed name (a computed path: the first load
      // does not preload it).
      return importAsset(`/static/js/games/karanor/${END_SCREEN}`).then((m) => {
        endModule = m;
        if (box.endTicket === ticket) m.endDetails(box, view, words, { code: shell.code });
      });
    },
    /** The end screen's story (static/js/story.js): this seat's trades, from the log. */
    storyLines(seat, entries) {
      let made = 0;
      let accepted = 0;
      for (const entry of entries) {
        for (const e of entry.events || []) {
          if (e.type !== "trade") continue;
          if (e.from === seat) made += 1;
          if (e.seat === seat) accepted += 1;
        }
      }
      // Who accepted what, said plainly ("0 proposed and accepted, 1 accepted from others"
      // left a reader guessing).
      if (!made && !accepted) return [t("Trades: none")];
      return [t("Trades: {made} of their own offers accepted by others; {accepted} offers from others accepted", { made, accepted })];
    },
    notices(events, view) {
      words.setView(view);
      return attackNotices(events, view, words);
    },
    isMyTurn(view) {
      return Boolean(view && view.status === "playing" && view.seat !== null
        && view.turn?.seat === view.seat && view.turn?.phase !== "draft");
    },
    destroy() {
      dialog.remove();
      waiting.remove();
      clear(root);
    },
  };
  return game;
}
