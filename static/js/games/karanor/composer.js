// The offer composer: to whom, steppers for gold and each resource on both sides,
// chips for partners, badges and artifacts, a note; a Counter opens it prefilled.
// What you give is capped by `private.tradeable`: it cannot send what you don't hold.
import { LIVE, promised } from "./offers.js";
import { clear, h, icon, seatBadge } from "../../util.js";
import { t } from "../../i18n.js";
import { RESOURCES, bundleEmpty, goodName, goodWords } from "./goods.js";

const NOTE_MAX = 200;
const WANT_MAX = 99;

const emptyBundle = () => ({ gold: 0, resources: {}, partners: [], badges: [], artifacts: [] });
const count = (list, x) => list.filter((y) => y === x).length;

/** The bundle as the server takes it: no zeros, no empty lists. */
export function cleanBundle(b) {
  const out = {};
  if (b.gold) out.gold = b.gold;
  const res = Object.fromEntries(Object.entries(b.resources).filter(([, n]) => n > 0));
  if (Object.keys(res).length) out.resources = res;
  for (const key of ["partners", "badges", "artifacts"]) if (b[key].length) out[key] = [...b[key]];
  return out;
}

export class Composer {
  /** @param {HTMLElement} root  #trade-composer
   *  @param {object} hooks  send(cmd) -> Promise<boolean>, done() after a sent offer */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.ctx = null;
    this.reset();
    // Built once so typing is never interrupted by a new view.
    this.noteInput = h("input", { id: "offer-note", class: "note-input", maxlength: NOTE_MAX,
      autocomplete: "off", placeholder: t("A word with your offer (optional)"), "data-testid": "offer-note",
      oninput: () => { this.note = this.noteInput.value.slice(0, NOTE_MAX); this.renderFoot(); } });
    this.noteCount = h("span", { class: "note-count muted small", "aria-live": "polite" });
    this.top = h("div", { class: "composer-top" });
    this.noteRow = h("div", { class: "note-row" },
      h("label", { for: "offer-note", text: t("Note") }), this.noteInput, this.noteCount);
    this.foot = h("div", { class: "composer-foot" });
    root.append(this.top, this.noteRow, this.foot);
  }

  reset() {
    this.counterOf = null;
    this.to = "anyone"; // or a Set of seats
    this.give = emptyBundle();
    this.want = emptyBundle();
    this.note = "";
    if (this.noteInput) this.noteInput.value = "";
  }

  /** Open as a counter to `offer`: addressed to its author, its two sides swapped. */
  counter(offer) {
    this.reset();
    this.counterOf = offer.id;
    this.to = new Set([offer.from]);
    this.give = { ...emptyBundle(), ...structuredClone(offer.want) };
    this.want = { ...emptyBundle(), ...structuredClone(offer.give) };
    if (this.ctx) this.render(this.ctx);
  }

  get empty() {
    return bundleEmpty(this.give) && bundleEmpty(this.want);
  }

  targets(view) {
    if (this.to === "anyone") return (view.players || []).map((p) => p.seat).filter((s) => s !== view.seat);
    return [...this.to].sort((a, b) => a - b);
  }

  /** Keep what you give within what you hold (a trade or a theft may have moved it). */
  clamp(view) {
    const held = view.private?.tradeable;
    if (!held) return;
    this.give.gold = Math.min(this.give.gold || 0, held.gold || 0);
    for (const r of Object.keys(this.give.resources)) {
      this.give.resources[r] = Math.min(this.give.resources[r], held.resources?.[r] || 0);
    }
    this.give.partners = this.give.partners.filter((p) => (held.partners || []).includes(p));
    this.give.artifacts = this.give.artifacts.filter((a) => (held.artifacts || []).includes(a));
    const kept = [];
    for (const b of this.give.badges) if (count(kept, b) < count(held.badges || [], b)) kept.push(b);
    this.give.badges = kept;
    if (this.counterOf !== null) {
      const o = (view.offers || []).find((x) => x.id === this.counterOf);
      if (!o || !LIVE.includes(o.status)) this.counterOf = null; // the offer is gone: a plain offer
    }
    if (this.to !== "anyone") {
      const seats = new Set((view.players || []).map((p) => p.seat));
      this.to = new Set([...this.to].filter((s) => seats.has(s) && s !== view.seat));
      if (!this.to.size) this.to = "anyone";
    }
  }

  render(ctx) {
    this.ctx = ctx;
    const { view } = ctx;
    if (!view?.private) return;
    this.clamp(view);
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    clear(this.top);
    this.top.append(this.header(ctx), this.targetPicker(ctx), this.ledger(ctx), this.extras(ctx, "give"),
      this.extras(ctx, "want"));
    this.noteInput.disabled = Boolean(ctx.closed);
    if (this.noteInput.value !== this.note) this.noteInput.value = this.note;
    this.renderFoot();
    if (focused) this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  header(ctx) {
    const { view, words } = ctx;
    const head = h("div", { class: "composer-head" });
    if (this.counterOf !== null) {
      const o = view.offers.find((x) => x.id === this.counterOf);
      head.append(h("h3", { text: t("Counter {owner}'s offer", { owner: words.name(o.from) }) }),
        h("p", { class: "muted small", text: t("Their offer, turned around: change what you like and send it back. Theirs is declined.") }));
    } else {
      head.append(h("h3", { text: t("New offer") }));
    }
    if (ctx.closed) head.append(h("p", { class: "closed-note", "data-testid": "trading-closed", text: ctx.closed }));
    return head;
  }

  targetPicker(ctx) {
    const { view, words } = ctx;
    const off = Boolean(ctx.closed) || this.counterOf !== null;
    const group = h("div", { class: "targets", role: "group", "aria-label": t("Offer to") },
      h("span", { class: "field-label", text: t("To") }));
    const chip = (label, pressed, onclick, seat) => h("button", {
      type: "button", class: `chip-toggle${pressed ? " on" : ""}`, "aria-pressed": pressed ? "true" : "false",
      "data-testid": "offer-to", "data-seat": seat, "data-key": `to-${seat}`, disabled: off ? true : null, onclick,
    }, ...label);
    group.append(chip([t("Anyone")], this.to === "anyone", () => { this.to = "anyone"; this.render(this.ctx); }, "anyone"));
    for (const p of view.players || []) {
      if (p.seat === view.seat) continue;
      const on = this.to !== "anyone" && this.to.has(p.seat);
      group.append(chip([seatBadge(p.seat, 14), words.name(p.seat)], on, () => {
        const set = this.to === "anyone" ? new Set() : new Set(this.to);
        if (set.has(p.seat)) set.delete(p.seat); else set.add(p.seat);
        this.to = set.size ? set : "anyone";
        this.render(this.ctx);
      }, String(p.seat)));
    }
    return group;
  }

  /** Rows: gold and the seven resources; columns: what you give, what you want. */
  ledger(ctx) {
    const { view, words } = ctx;
    const held = view.private.tradeable;
    const targets = this.targets(view);
    const others = targets.map((s) => view.players[s]);
    const pledged = promised(view).bundle;
    const table = h("table", { class: "ledger" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "sr-only-cell" }, h("span", { class: "sr-only", text: t("Goods") })),
        h("th", { scope: "col", text: t("You give") }), h("th", { scope: "col", text: t("You want") }))));
    const body = h("tbody");
    for (const name of ["gold", ...RESOURCES]) {
      const isGold = name === "gold";
      const have = isGold ? held.gold || 0 : held.resources?.[name] || 0;
      const theirs = others.map((p) => (isGold ? p.gold : p.resources?.[name] || 0));
      const give = isGold ? this.give.gold : this.give.resources[name] || 0;
      const want = isGold ? this.want.gold : this.want.resources[name] || 0;
      const onHold = isGold ? pledged.gold : pledged.resources[name] || 0;
      const hint = [t("you {n}", { n: have })];
      if (others.length === 1) hint.push(t("{actor} {n}", { actor: words.name(others[0].seat), n: theirs[0] }));
      else if (others.length > 1) hint.push(t("others ≤{n}", { n: Math.max(0, ...theirs) }));
      if (onHold) hint.push(t("{n} promised", { n: onHold }));
      const set = (side, n) => {
        const b = side === "give" ? this.give : this.want;
        if (isGold) b.gold = n; else b.resources[name] = n;
        this.render(this.ctx);
      };
      body.append(h("tr", { class: `${have || theirs.some((n) => n) ? "" : "scarce"}` },
        h("th", { scope: "row" }, h("div", { class: "good" }, icon(name),
          h("span", { class: "good-name", text: goodName(name) }),
          h("span", { class: `good-hint${onHold ? " pledged" : ""}`, text: hint.join(" · ") }))),
        h("td", {}, this.stepper(ctx, "give", name, give, have, (n) => set("give", n))),
        h("td", {}, this.stepper(ctx, "want", name, want, WANT_MAX, (n) => set("want", n)))));
    }
    table.append(body);
    return table;
  }

  stepper(ctx, side, name, value, max, set) {
    const off = Boolean(ctx.closed);
    const good = goodName(name);
    const give = side === "give";
    return h("div", { class: `stepper${value ? " set" : ""}` },
      h("button", { type: "button", class: "step",
        "aria-label": give ? t("One {good} less to give", { good }) : t("One {good} less to ask for", { good }),
        "data-testid": `${side}-less-${name}`, "data-key": `${side}-less-${name}`,
        disabled: off || value <= 0 ? true : null, onclick: () => set(Math.max(0, value - 1)) }, "−"),
      h("output", { class: "step-value",
        "aria-label": give ? t("{good} to give", { good }) : t("{good} to ask for", { good }), "data-testid": `${side}-${name}`, text: value }),
      h("button", { type: "button", class: "step",
        "aria-label": give ? t("One {good} more to give", { good }) : t("One {good} more to ask for", { good }),
        "data-testid": `${side}-more-${name}`, "data-key": `${side}-more-${name}`,
        disabled: off || value >= max ? true : null, onclick: () => set(Math.min(max, value + 1)) }, "+"));
  }

  /** Chips for partners, badges and artifacts: yours to give, the target's to ask for. */
  extras(ctx, side) {
    const { view, words } = ctx;
    const off = Boolean(ctx.closed);
    const bundle = side === "give" ? this.give : this.want;
    const items = []; // {kind, id, key, label, pressed, toggle}
    if (side === "give") {
      const held = view.private.tradeable;
      for (const p of held.partners || []) items.push({ kind: "partner", id: p });
      const seen = {};
      for (const b of held.badges || []) {
        seen[b] = (seen[b] || 0) + 1;
        items.push({ kind: "badge", id: b, nth: seen[b] - 1 });
      }
      for (const a of held.artifacts || []) items.push({ kind: "artifact", id: a });
    } else {
      const partners = new Set(this.want.partners);
      const badges = new Set(this.want.badges);
      const artifacts = new Set(this.want.artifacts);
      for (const s of this.targets(view)) {
        const p = view.players[s];
        (p.partners || []).forEach((x) => partners.add(x.resource));
        (p.badges || []).forEach((x) => badges.add(x));
        (p.artifacts || []).forEach((x) => artifacts.add(x));
      }
      [...partners].sort().forEach((id) => items.push({ kind: "partner", id }));
      [...badges].sort().forEach((id) => items.push({ kind: "badge", id, nth: 0 }));
      [...artifacts].sort().forEach((id) => items.push({ kind: "artifact", id }));
    }
    const wrap = h("div", { class: `extras extras-${side}` });
    if (!items.length) return wrap;
    wrap.append(h("span", { class: "field-label", text: side === "give" ? t("You also give") : t("You also ask for") }));
    const list = h("div", { class: "chips" });
    for (const it of items) {
      const key = `${side}-${it.kind}-${it.id}-${it.nth ?? 0}`;
      const field = `${it.kind}s`;
      const pressed = it.kind === "badge" ? count(bundle.badges, it.id) > it.nth : bundle[field].includes(it.id);
      const label = it.kind === "partner" ? [icon("partner", t("partner")), icon(it.id), t("{resource} partner", { resource: goodName(it.id) })]
        : it.kind === "badge" ? [icon("badge", t("badge")), words.badge(it.id)]
          : [icon("artifact", t("artifact")), words.card("artifacts", it.id)];
      list.append(h("button", {
        type: "button", class: `chip-toggle${pressed ? " on" : ""}`, "aria-pressed": pressed ? "true" : "false",
        "data-testid": `${side}-${it.kind}`, "data-id": it.id, "data-key": key, disabled: off ? true : null,
        onclick: () => {
          if (pressed) bundle[field].splice(bundle[field].indexOf(it.id), 1);
          else bundle[field].push(it.id);
          this.render(this.ctx);
        },
      }, ...label));
    }
    wrap.append(list);
    return wrap;
  }

  renderFoot() {
    const ctx = this.ctx;
    if (!ctx) return;
    const { view, words } = ctx;
    this.noteCount.textContent = `${this.note.length}/${NOTE_MAX}`;
    clear(this.foot);
    const to = this.to === "anyone" ? null : [...this.to].sort((a, b) => a - b);
    const summary = this.empty
      ? t("Choose what you give and what you want (one side may stay empty: a gift or a request).")
      : t("You offer {give} for {want}, {to}.", { give: words.bundle(this.give), want: words.bundle(this.want), to: words.toWhom(to) });
    const lacking = this.lacking(view);
    const off = Boolean(ctx.closed) || ctx.busy || this.empty || Boolean(lacking);
    this.foot.append(h("p", { class: "composer-summary", "data-testid": "offer-summary", text: summary }));
    if (lacking) this.foot.append(h("p", { class: "closed-note", text: lacking }));
    this.foot.append(
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn primary", "data-testid": "offer-send", disabled: off ? true : null,
          onclick: () => this.send() }, this.counterOf !== null ? t("Send counter-offer") : t("Send offer")),
        h("button", { type: "button", class: "btn", "data-testid": "offer-clear",
          onclick: () => { this.reset(); this.render(this.ctx); } }, this.counterOf !== null ? t("Cancel") : t("Clear"))));
  }

  /** A sentence when the give side is more than you hold, or gives what it asks for
   *  (never sent), else null. */
  lacking(view) {
    const held = view.private?.tradeable;
    if (!held) return t("Spectators cannot trade.");
    if (this.give.gold > (held.gold || 0)) return t("You do not hold that much gold.");
    for (const [r, n] of Object.entries(this.give.resources)) {
      if (n > (held.resources?.[r] || 0)) return t("You do not hold {goods}.", { goods: goodWords(n, r) });
    }
    if (this.onBothSides()) return t("You give and ask for the same thing: give or ask for the difference only.");
    return null;
  }

  /** Whether the offer gives and asks for one same thing ("1 gold for 1 gold"): legal, but
   *  it exchanges only the difference, so the composer asks for that (R29). */
  onBothSides() {
    const give = cleanBundle(this.give);
    const want = cleanBundle(this.want);
    if (give.gold && want.gold) return true;
    if (Object.keys(give.resources || {}).some((r) => want.resources?.[r])) return true;
    return ["partners", "badges", "artifacts"].some((k) => (give[k] || []).some((it) => (want[k] || []).includes(it)));
  }

  async send() {
    const ctx = this.ctx;
    if (!ctx || ctx.closed || this.empty || this.lacking(ctx.view)) return;
    const give = cleanBundle(this.give);
    const want = cleanBundle(this.want);
    const note = this.note.trim().slice(0, NOTE_MAX);
    const cmd = this.counterOf !== null
      ? { type: "counter", offer: this.counterOf, give, want, note }
      : { type: "offer", to: this.to === "anyone" ? null : [...this.to].sort((a, b) => a - b), give, want, note };
    const ok = await this.hooks.send(cmd);
    if (ok) {
      this.reset();
      this.hooks.done();
    }
  }
}
