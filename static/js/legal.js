// The commands the seat may send now (view.legal_actions) as buttons: the one hook every
// game page shares (data-testid=legal-action, data-type, data-command), and a plain
// renderer that offers every legal command as a button, for any game without a page of
// its own (or for what a game's page has no special place for).
import { t } from "./i18n.js";
import { clear, h } from "./util.js";

/** A button that sends one legal command. `ctx`: {busy, send(cmd)}. */
export function actionButton(ctx, cmd, label, { cls = "btn", title, children } = {}) {
  return h("button", {
    type: "button", class: cls, "data-testid": "legal-action", "data-type": cmd.type,
    "data-command": JSON.stringify(cmd), title: title || null,
    disabled: ctx.busy ? true : null,
    onclick: () => ctx.send(cmd),
  }, children || label);
}

export const legalOf = (view, type) => (view.legal_actions || []).filter((a) => a.type === type);

/** Whether two commands (JSON) are the same, whatever the order of their keys (a field
 *  left out and a null one alike). */
export function sameCommand(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!sameCommand(a[k] ?? null, b[k] ?? null)) return false;
  return true;
}

/** Whether `command` is one of the view's legal actions. */
export const isLegal = (view, command) => (view.legal_actions || []).some((a) => sameCommand(a, command));

const words = (s) => String(s).replaceAll("_", " ");

function valueText(v) {
  if (v === null || v === undefined) return t("none");
  if (Array.isArray(v)) return v.map(valueText).join(", ");
  if (typeof v === "object") {
    return Object.entries(v).filter(([, x]) => x !== 0 && x !== null && x !== undefined)
      .map(([k, x]) => `${typeof x === "object" ? `${words(k)}: ${valueText(x)}` : `${x} ${words(k)}`}`).join(", ");
  }
  return String(v);
}

/** A command in plain words, from its fields alone: "move · to: north gate". */
export function commandLabel(cmd) {
  const rest = Object.entries(cmd).filter(([k]) => k !== "type")
    .map(([k, v]) => `${words(k)}: ${words(valueText(v))}`);
  const head = words(cmd.type);
  return rest.length ? `${head.charAt(0).toUpperCase()}${head.slice(1)} · ${rest.join(" · ")}`
    : `${head.charAt(0).toUpperCase()}${head.slice(1)}`;
}

/**
 * Every command of `list` (default: all of view.legal_actions) as a button, grouped by
 * type. `ctx`: {view, busy, send(cmd)}; `label(cmd)` names a button (default: commandLabel);
 * `empty`: what to say when there is none (null: nothing).
 */
export function renderLegalActions(root, ctx, { list, label = commandLabel, empty } = {}) {
  clear(root);
  const legal = list ?? (ctx.view.legal_actions || []);
  if (!legal.length) {
    const text = empty !== undefined ? empty : ctx.view.status === "finished"
      ? t("The game is over.") : t("Nothing to do right now: waiting for the others.");
    if (text) root.append(h("p", { class: "muted", text }));
    return root;
  }
  const groups = new Map();
  for (const cmd of legal) {
    if (!groups.has(cmd.type)) groups.set(cmd.type, []);
    groups.get(cmd.type).push(cmd);
  }
  for (const [type, cmds] of groups) {
    root.append(h("div", { class: "legal-group", role: "group", "aria-label": words(type) },
      ...cmds.map((cmd) => actionButton(ctx, cmd, label(cmd), { cls: "btn" }))));
  }
  return root;
}
