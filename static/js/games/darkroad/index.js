// Merchants of the Dark Road in the room page (the interface is in docs/client.md): the
// kingdom board, the action panel (steps, choices, every legal command), your wagon with
// its storage grid (a sheet of its own on a phone), the caravan, the merchants, the log
// in sentences and the end screen's scoring table and prestige chart.
import { api } from "../../api.js";
import { t } from "../../i18n.js";
import { clear, h } from "../../util.js";
import { ActionPanel, statusText } from "./actions.js";
import { Board } from "./board.js";
import { CaravanRecord } from "./caravan.js";
import { endDetails } from "./endgame.js";
import { lobby } from "./lobby.js";
import { Storage } from "./storage.js";
import { renderPlayers, renderWagon } from "./wagon.js";
import { Words } from "./words.js";

export { lobby };

/** Style sheets of this folder, loaded by the shell with the module. */
export const styles = ["darkroad.css"];

export function mount(shell, root, content) {
  const words = new Words(content);
  const el = {
    board: h("div", { class: "dr-board", "data-testid": "board", "role": "region", "aria-label": t("The kingdom board") }),
    actions: h("section", { class: "card dr-actions generic-table", "aria-label": t("Your actions"), "data-testid": "dr-actions" }),
    caravan: h("section", { class: "card dr-caravan", "aria-label": t("The caravan"), hidden: true, "data-testid": "dr-caravan" }),
    wagon: h("section", { id: "dr-wagon", class: "card dr-wagon", "aria-label": t("Your wagon"), "data-testid": "wagon" }),
    players: h("section", { class: "card dr-players", "aria-label": t("Merchants") }),
  };
  const zoomIn = h("button", { type: "button", class: "btn icon", "aria-label": t("Zoom in"), title: t("Zoom in") }, "+");
  const zoomOut = h("button", { type: "button", class: "btn icon", "aria-label": t("Zoom out"), title: t("Zoom out") }, "−");
  const zoomAll = h("button", { type: "button", class: "btn icon", "aria-label": t("Show the whole board"), title: t("Show the whole board") }, "⤢");
  const sheetToggle = h("button", { type: "button", class: "btn primary dr-wagon-toggle", "aria-controls": "dr-wagon", "aria-expanded": "false",
    "data-testid": "wagon-toggle" }, t("Your wagon"));
  const sheetClose = h("button", { type: "button", class: "btn small dr-wagon-close", "aria-label": t("Close your wagon") }, t("Close ✕"));
  const setSheet = (open, focus = false) => {
    document.body.classList.toggle("dr-wagon-open", open);
    sheetToggle.setAttribute("aria-expanded", String(open));
    sheetToggle.textContent = open ? t("Back to the board") : t("Your wagon");
    if (focus) (open ? sheetClose : sheetToggle).focus();
  };
  // Escape closes the wagon sheet (a phone's dialog-like panel), focus back on its button.
  document.addEventListener("keydown", onEscape);
  function onEscape(e) {
    if (e.key === "Escape" && document.body.classList.contains("dr-wagon-open")) setSheet(false, true);
  }
  sheetToggle.addEventListener("click", () => setSheet(!document.body.classList.contains("dr-wagon-open"), true));
  sheetClose.addEventListener("click", () => setSheet(false, true));
  const wagonBox = h("div", { class: "dr-wagon-body" });
  el.wagon.append(sheetClose, wagonBox);

  // The page's level-one heading names the game, unless the shell has named the page.
  const title = document.getElementById("page-title");
  if (title && !title.textContent.trim()) {
    title.textContent = t("Merchants of the Dark Road");
    title.hidden = false;
  }
  root.classList.add("dr-game");
  root.append(
    h("section", { class: "board-col dr-board-col" },
      h("div", { class: "dr-board-wrap" }, el.board,
        h("div", { class: "dr-board-tools", role: "group", "aria-label": t("Board zoom") }, zoomIn, zoomOut, zoomAll))),
    h("section", { class: "side-col dr-side-col" }, shell.parts.endgame, el.actions, el.caravan, el.wagon, el.players, shell.parts.log));
  document.body.append(sheetToggle);

  const send = (cmd) => shell.send(cmd);
  const board = new Board(el.board, content, words, { onCommand: send });
  zoomIn.addEventListener("click", () => board.zoom(1.3));
  zoomOut.addEventListener("click", () => board.zoom(1 / 1.3));
  zoomAll.addEventListener("click", () => board.reset());
  const storage = new Storage(words, content, { send });
  const actions = new ActionPanel(el.actions, content, words);
  const caravan = new CaravanRecord();

  // The last thing done on the board (outlined in the seat's colour until the next).
  let last = null;
  let prevPositions = null;
  const LAST = { bought: "bazaar", sold: "inn", caravan: "excursions", ruins: "excursions", dark_market: "dark_market" };
  const lastOf = (events) => {
    for (const e of events || []) {
      if (e.type === "moved") last = { seat: e.seat, space: e.space ?? e.to };
      else if (e.type === "activated") last = { seat: e.seat, target: e.target };
      else if (LAST[e.type] && e.seat !== undefined) last = { seat: e.seat, target: LAST[e.type] };
      else if (e.type === "commission" && last?.target === undefined && last?.seat === e.seat) last = { seat: e.seat, target: "commissions" };
    }
  };

  // The caravan's joins and picks come from events: after a reload, or when views were
  // skipped, they are read again from the log (the last 120 versions are plenty).
  let seenVersion = null;
  let syncing = false;
  const syncCaravan = async (view) => {
    if (syncing) return;
    syncing = true;
    try {
      const data = await api("GET", `/api/rooms/${encodeURIComponent(shell.code)}/log?after=${Math.max(0, view.version - 120)}`);
      const fresh = new CaravanRecord();
      for (const entry of data.entries || []) fresh.onEvents(entry.events || []);
      caravan.rec = fresh.rec;
      caravan.render(el.caravan, shell.view, words);
    } catch {
      /* the card keeps what this page saw */
    } finally {
      syncing = false;
    }
  };

  // Keyboard focus survives a redraw: the panels are rebuilt from each view, so the
  // element that had focus is found again (the same command, the same control), else the
  // first thing to do, else the status line; never left on <body>.
  let focusKey = null;
  const keyOf = (node) => {
    if (!(node instanceof Element) || !root.contains(node)) return null;
    // The status line only holds focus while nothing can be pressed: the next redraw
    // offers the first thing to do instead.
    if (node.dataset.testid === "dr-status") return { sel: null };
    if (node.dataset.command) return { sel: `[data-command="${CSS.escape(node.dataset.command)}"]` };
    if (node.dataset.testid) return { sel: `[data-testid="${CSS.escape(node.dataset.testid)}"]` };
    if (node.getAttribute("aria-label")) return { sel: `[aria-label="${CSS.escape(node.getAttribute("aria-label"))}"]` };
    return { sel: null };
  };
  root.addEventListener("focusin", (e) => { focusKey = keyOf(e.target); });
  root.addEventListener("focusout", (e) => { if (e.relatedTarget && !root.contains(e.relatedTarget)) focusKey = null; });
  const restoreFocus = () => {
    if (!focusKey) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const usable = (n) => n && !n.disabled && n.getAttribute("aria-disabled") !== "true" && n.getClientRects().length > 0;
    let next = focusKey.sel ? [...root.querySelectorAll(focusKey.sel)].find(usable) : null;
    if (!next) next = [...el.actions.querySelectorAll("[data-testid=legal-action]")].find(usable);
    if (!next) next = el.actions.querySelector("[data-testid=dr-status]"); // tabindex -1
    if (next) next.focus({ preventScroll: true });
  };

  // Names on touch: what a mouse reads in a tooltip (an SVG <title>, an HTML title) is
  // also a data-tip, which the shell shows on a tap (tapTips in util.js). Controls keep
  // theirs to themselves: a tap on them acts.
  const CONTROL = "button, a[href], input, select, [role=button], [data-command]";
  const tipify = () => {
    for (const title of root.querySelectorAll("svg title")) {
      const owner = title.parentElement;
      if (owner && !owner.closest(CONTROL) && title.textContent) owner.setAttribute("data-tip", title.textContent);
    }
    for (const el of root.querySelectorAll("[title]")) {
      if (!el.closest(CONTROL) && el.getAttribute("title")) el.setAttribute("data-tip", el.getAttribute("title"));
    }
  };

  const game = {
    ownSeats: true, // the merchants' panels carry the shell's seat tools (bots, timer, host)
    render(view, events) {
      words.setView(view, shell.room);
      if (events) {
        caravan.onEvents(events);
        // A wagon that moved (the `moved` event may not reach every seat: see lastOf).
        const before = prevPositions;
        for (const p of view.players) {
          if (before && before[p.seat] !== undefined && before[p.seat] !== p.position) last = { seat: p.seat, space: p.position };
        }
        lastOf(events);
      }
      prevPositions = Object.fromEntries(view.players.map((p) => [p.seat, p.position]));
      const ctx = { view, words, content, busy: shell.busy, send, presence: shell.presence,
        seatTools: shell.seatTools ? (seat) => shell.seatTools(seat) : null,
        preview: (space) => board.update(shell.view, { busy: shell.busy, last, preview: space }) };
      shell.setBanner(statusText(view, words));
      board.update(view, { busy: shell.busy, last });
      el.board.dataset.last = last ? JSON.stringify(last) : "";
      actions.render(ctx);
      if (view.seat !== null && view.seat !== undefined && view.players[view.seat]) {
        el.wagon.hidden = false;
        sheetToggle.hidden = false;
        renderWagon(wagonBox, ctx, storage);
        // A good to store: say so on the wagon button (phones keep the wagon in a sheet).
        const storing = view.private?.pending?.kind === "store";
        sheetToggle.classList.toggle("attention", storing);
      } else {
        el.wagon.hidden = true;
        sheetToggle.hidden = true;
      }
      renderPlayers(el.players, ctx);
      if (events && view.board.travel && (seenVersion === null || view.version > seenVersion + 1)) syncCaravan(view);
      if (events) seenVersion = view.version;
      caravan.render(el.caravan, view, words);
      tipify();
      restoreFocus();
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
    isMyTurn(view) {
      return Boolean(view && view.status === "playing" && (view.legal_actions || []).length > 0);
    },
    destroy() {
      storage.destroy();
      sheetToggle.remove();
      document.removeEventListener("keydown", onEscape);
      document.body.classList.remove("dr-wagon-open");
      clear(root);
    },
  };
  return game;
}
