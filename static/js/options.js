// A room's options as a form, drawn from the game's options schema (the JSON schema
// pydantic writes for the game's options model, from GET /api/games): booleans as
// checkboxes, small integer ranges, enums and literals as selects, other integers as
// number inputs, strings as text inputs; titles as labels, descriptions as hints.
// A game may replace any field or its label (its module's `lobby` export).
import { t } from "./i18n.js";
import { h } from "./util.js";

const MAX_SELECT = 24; // an integer range up to this many values is a select

const pretty = (name) => {
  const s = name.replaceAll("_", " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/** The schema with $ref and one-element allOf resolved against the root's $defs. */
function deref(node, root, depth = 0) {
  if (!node || typeof node !== "object" || depth > 8) return node || {};
  let out = node;
  if (out.$ref) {
    const name = out.$ref.split("/").pop();
    const target = root.$defs?.[name] ?? root.definitions?.[name] ?? {};
    const { $ref, ...rest } = out;
    out = { ...deref(target, root, depth + 1), ...rest };
  }
  if (Array.isArray(out.allOf) && out.allOf.length === 1) {
    const { allOf, ...rest } = out;
    out = { ...deref(allOf[0], root, depth + 1), ...rest };
  }
  return out;
}

/** What a property accepts: {nullable, boolean, choices: [values] | null, integer, number, string, min, max}. */
export function describe(prop, root) {
  const p = deref(prop, root);
  const variants = (p.anyOf || p.oneOf || [p]).map((v) => deref(v, root));
  const nonNull = variants.filter((v) => v.type !== "null" && !(v.const === null));
  const out = { nullable: nonNull.length < variants.length || p.type === "null", choices: [] };
  let open = false;
  for (const v of nonNull) {
    if (Array.isArray(v.enum)) out.choices.push(...v.enum.filter((x) => x !== null));
    else if (v.const !== undefined) out.choices.push(v.const);
    else if (v.type === "boolean") out.boolean = true;
    else if (v.type === "integer" && Number.isInteger(v.minimum) && Number.isInteger(v.maximum)
             && v.maximum - v.minimum < MAX_SELECT) {
      for (let i = v.minimum; i <= v.maximum; i += 1) out.choices.push(i);
    } else if (v.type === "integer" || v.type === "number") {
      out[v.type] = true;
      out.min = v.minimum ?? (v.exclusiveMinimum !== undefined ? v.exclusiveMinimum + 1 : undefined);
      out.max = v.maximum ?? (v.exclusiveMaximum !== undefined ? v.exclusiveMaximum - 1 : undefined);
      open = true;
    } else if (v.type === "string") {
      out.string = true;
      out.maxLength = v.maxLength;
      open = true;
    } else open = true;
  }
  if (out.boolean && !out.choices.length && !open) out.kind = "checkbox";
  else if (out.choices.length && !open && !out.boolean) out.kind = "select";
  else if ((out.integer || out.number) && !out.choices.length && !out.string) out.kind = "number";
  else if (out.string && !out.choices.length) out.kind = "text";
  else out.kind = null; // nothing a form can offer well: left as it is
  return out;
}

const optionValue = (v) => (v === null || v === undefined ? "" : String(v));

/**
 * A <select> of typed values: `choices` [{value, label}]; read() gives the typed value.
 * Used by the generic fields and by games' own fields.
 */
export function selectField(name, label, choices, { hint } = {}) {
  const select = h("select", { name });
  const typed = new Map();
  const fill = (list) => {
    select.replaceChildren();
    typed.clear();
    for (const c of list) {
      typed.set(optionValue(c.value), c.value);
      select.append(h("option", { value: optionValue(c.value), text: c.label ?? optionValue(c.value) }));
    }
  };
  fill(choices);
  const node = h("label", {}, `${label} `, select, hint ? h("small", { class: "hint", text: hint }) : null);
  return {
    name, node, control: select,
    read: () => (typed.has(select.value) ? typed.get(select.value) : select.value),
    write: (v) => {
      const key = optionValue(v);
      if (!typed.has(key)) {
        typed.set(key, v);
        select.append(h("option", { value: key, text: key || t("default") }));
      }
      select.value = key;
    },
    /** New choices, keeping the current value when it is still one of them. */
    choices: (list) => {
      const current = select.value;
      fill(list);
      if (typed.has(current)) select.value = current;
    },
    disable: (off) => { select.disabled = off; },
  };
}

export function checkboxField(name, label, { hint } = {}) {
  const box = h("input", { type: "checkbox", name });
  const node = h("label", { class: "check" }, box, ` ${label}`, hint ? h("small", { class: "hint", text: ` (${hint})` }) : null);
  return {
    name, node, control: box,
    read: () => box.checked,
    write: (v) => { box.checked = Boolean(v); },
    disable: (off) => { box.disabled = off; },
  };
}

function inputField(name, label, info, { hint } = {}) {
  const input = h("input", info.kind === "number"
    ? { type: "number", name, min: info.min ?? null, max: info.max ?? null, step: info.integer ? 1 : "any",
      inputmode: "numeric", placeholder: info.nullable ? t("default") : null }
    : { type: "text", name, maxlength: info.maxLength ?? null, placeholder: info.nullable ? t("default") : null });
  const node = h("label", {}, `${label} `, input, hint ? h("small", { class: "hint", text: hint }) : null);
  return {
    name, node, control: input,
    read: () => {
      const raw = input.value.trim();
      if (raw === "" && info.nullable) return null;
      return info.kind === "number" ? Number(raw) : raw;
    },
    write: (v) => { input.value = v === null || v === undefined ? "" : String(v); },
    disable: (off) => { input.disabled = off; },
  };
}

/** The generic field for one property, or null when a form cannot offer it. */
export function genericField(name, prop, root, { label } = {}) {
  const p = deref(prop, root);
  const info = describe(prop, root);
  const title = label ?? p.title ?? pretty(name);
  const hint = label ? null : p.description || null;
  if (info.kind === "checkbox") return checkboxField(name, title, { hint });
  if (info.kind === "select") {
    const choices = info.choices.map((v) => ({ value: v, label: optionValue(v) }));
    if (info.nullable) choices.unshift({ value: null, label: t("default") });
    return selectField(name, title, choices, { hint });
  }
  if (info.kind === "number" || info.kind === "text") return inputField(name, title, info, { hint });
  return null;
}

/** The platform's own room options, beside every game's (docs/api.md), in words. */
const PLATFORM_LABELS = {
  take_backs: () => t("Take-backs: a player may take back a move that revealed nothing"),
  // Declared by every game that has a hard bot (its schema's description is English).
  coach: () => t("Coach: each player may ask “What would you do?” and the hard bot suggests a move"),
};

/**
 * The options form of a game.
 * `game`: {options_schema, defaults} from GET /api/games; `ext`: the game module's
 * `lobby` export: {labels: {name: text}, order: [names], fields: {name: (ctx) => field},
 * hidden: [names]} where a field is {name, node, read(), write(value), disable(off),
 * refresh?(ctx)}; a hidden option is not offered (the server fills in its default).
 */
export class OptionsForm {
  constructor(form, game, ext = {}, ctx = {}) {
    this.form = form;
    this.defaults = game?.defaults || {};
    const schema = game?.options_schema || {};
    const props = schema.properties || {};
    const names = Object.keys(props);
    const order = ext.order || [];
    const rank = (n) => {
      const i = order.indexOf(n);
      if (i >= 0) return i;
      // Left to itself: selects and inputs first (two a row), checkboxes under them.
      return order.length + (describe(props[n], schema).kind === "checkbox" ? 1000 : 0) + names.indexOf(n);
    };
    this.fields = [];
    const hidden = new Set(ext.hidden || []);
    for (const name of [...names].sort((a, b) => rank(a) - rank(b))) {
      if (hidden.has(name)) continue;
      const field = ext.fields?.[name]?.(ctx) ?? genericField(name, props[name], schema,
        { label: ext.labels?.[name] ?? PLATFORM_LABELS[name]?.() });
      if (field) this.fields.push(field);
    }
    form.replaceChildren(...this.fields.map((f) => f.node));
    this.write(this.defaults);
  }

  get empty() {
    return this.fields.length === 0;
  }

  /** Every option the form offers, typed as the schema says. */
  read() {
    return Object.fromEntries(this.fields.map((f) => [f.name, f.read()]));
  }

  /** Show these options (missing ones: the game's defaults). */
  write(options) {
    for (const f of this.fields) {
      const v = options && f.name in options ? options[f.name] : this.defaults[f.name];
      if (v !== undefined) f.write(v);
    }
  }

  /** What depends on the room (a game's own fields: seat names...). */
  refresh(ctx) {
    for (const f of this.fields) f.refresh?.(ctx);
  }

  disable(off) {
    for (const f of this.fields) f.disable(off);
  }
}
