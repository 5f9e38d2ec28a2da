// The action panel: which step you are in (Plan, Move, Activate, Rest), what the game
// waits for, and every legal command as a button (data-testid=legal-action), grouped
// and previewed: where each die moves the wagon and what it faces, the Bazaar basket's
// price, what a hero pays, what a delivery brings. Anything not given a special place
// is still offered, as a plain button.
import { actionButton } from "../../legal.js";
import { t, tn } from "../../i18n.js";
import { clear, h, seatBadge } from "../../util.js";
import { dieChip, goodChip } from "./draw.js";
import { commissionCard, heroCard } from "./wagon.js";
import { districtNoun, districtTitle, listOf, steps } from "./words.js";

const PROMPTS = {
  store: () => t("Store your new good in your wagon"),
  bazaar: () => t("The Great Bazaar: rotate the wheel, change a die, then buy"),
  hero_overflow: () => t("Your 3 hero slots are full: let one hero go"),
  commission_overflow: () => t("Your 3 commission slots are full: discard one"),
  inventory_overflow: () => t("Your inventory is full: discard a quartz or a horseshoe"),
  choose_good: () => t("Choose a good"),
  lose_good: () => t("The road takes one of your goods: which one?"),
  ruins_die: () => t("Roll the ruins die?"),
  ruins_again: () => t("The ruins again: move the marker"),
  take_hero: () => t("Take a hero onto your wagon"),
  choose_steed: () => t("Choose a second steed"),
  join: () => t("Join the caravan?"),
  travel_die: () => t("Choose your travel die"),
  visit: () => t("Visit a town"),
  deliver: () => t("Deliver commissions and heroes"),
  fortune: () => t("Choose a good fortune"),
  draft: () => t("Draft a steed and a starting hero"),
  keep_deed: () => t("Keep one of two deeds"),
};

/** What another seat is doing: "Waiting for {who} to ...". */
const OTHERS = {
  store: (who) => t("Waiting for {who} to store a good.", { who }),
  bazaar: (who) => t("Waiting for {who} to shop at the Great Bazaar.", { who }),
  hero_overflow: (who) => t("Waiting for {who} to let a hero go.", { who }),
  commission_overflow: (who) => t("Waiting for {who} to discard a commission.", { who }),
  inventory_overflow: (who) => t("Waiting for {who} to discard a quartz or a horseshoe.", { who }),
  choose_good: (who) => t("Waiting for {who} to choose a good.", { who }),
  lose_good: (who) => t("Waiting for {who} to choose the good the road takes.", { who }),
  ruins_die: (who) => t("Waiting for {who} to roll the ruins die or not.", { who }),
  ruins_again: (who) => t("Waiting for {who} to search the ruins again.", { who }),
  take_hero: (who) => t("Waiting for {who} to take a hero.", { who }),
  choose_steed: (who) => t("Waiting for {who} to choose a second steed.", { who }),
  join: (who) => t("Waiting for {who} to say whether they join the caravan.", { who }),
  travel_die: (who) => t("Waiting for {who} to choose a travel die.", { who }),
  visit: (who) => t("Waiting for {who} to choose a town to visit.", { who }),
  deliver: (who) => t("Waiting for {who} to deliver.", { who }),
  fortune: (who) => t("Waiting for {who} to choose a good fortune.", { who }),
  draft: (who) => t("Waiting for {who} to draft a steed and a hero.", { who }),
  keep_deed: (who) => t("Waiting for {who} to keep a deed.", { who }),
};

export function facing(content, words, view, pos) {
  const ring = content.board.ringway;
  const b = view.board.buildings?.[pos];
  const p = { a: districtNoun(ring[pos]), b: districtNoun(ring[(pos + 1) % 5]), building: b ? words.building(b) : "" };
  return pos < 4 && b ? t("{a} & {b} (+ {building} with an illuminated die)", p) : t("{a} & {b}", p);
}

/** The steps bar: Plan, Move, Activate, Rest, the current one lit. */
function stepsBar(view) {
  const turn = view.turn || {};
  const on = turn.phase === "play" ? turn.step : null;
  return h("ol", { class: "dr-steps", "aria-label": t("Steps of a turn") },
    ...steps().map((st) => h("li", { class: `dr-step${st.id === on ? " now" : ""}`, title: st.hint, "aria-current": st.id === on ? "step" : null, text: st.name })));
}

/** The sentence of the banner / status: your move, or who the game waits for. */
export function statusText(view, words) {
  const turn = view.turn || {};
  if (view.status === "finished") return t("The game is over.");
  const mine = (view.legal_actions || []).length > 0;
  const pend = turn.pending;
  if (mine) {
    if (pend?.kind === "store" && !view.legal_actions.some((a) => a.type === "place_good")) {
      const inc = view.players?.[view.seat]?.incoming?.[0];
      if (inc) return t("Your new {good} doesn't fit: discard something to make room", { good: words.good(inc.good, inc.up) });
    }
    if (pend) return PROMPTS[pend.kind]?.() ?? t("Your choice");
    const step = steps().find((st) => st.id === turn.step);
    return step ? t("Your turn, round {round}: {step} — {hint}", { round: turn.round, step: step.name, hint: step.hint.toLowerCase() })
      : t("Your turn, round {round}", { round: turn.round });
  }
  const waiting = turn.waiting_for || [];
  const who = listOf(waiting.map((x) => words.name(x)));
  if (pend) return OTHERS[pend.kind]?.(who) ?? t("Waiting for {who} ({what}).", { who, what: pend.kind.replaceAll("_", " ") });
  if (turn.phase === "final_travel") return t("Final travel: waiting for {who}.", { who });
  const step = steps().find((st) => st.id === turn.step)?.name ?? turn.step;
  if (waiting.length === 1 && words.isMe(waiting[0])) return t("Round {round}: you are playing ({step}).", { round: turn.round, step });
  return tn("Round {round}: {who} is playing ({step}).", "Round {round}: {who} are playing ({step}).", waiting.length, { round: turn.round, who, step });
}

export class ActionPanel {
  constructor(root, content, words) {
    this.root = root;
    this.content = content;
    this.words = words;
    this.planDie = null;
    this.basket = {};
    this.caravan = { companion: null, route: null };
    this.change = { source: null, good: null };
    this.key = null;
  }

  /** Show what the coach's `action` needs (a plan's die selected), drawn again now;
   *  false: the shell has nothing to draw again. */
  showAdvice(action) {
    if (action?.type !== "plan" || action.die === this.planDie || !this.ctx) return false;
    this.planDie = action.die;
    this.render(this.ctx);
    return false;
  }

  render(ctx) {
    this.ctx = ctx;
    const { view, busy } = ctx;
    const legal = view.legal_actions || [];
    const w = this.words;
    const key = `${view.turn?.round}:${view.turn?.seat}:${view.turn?.step}:${view.turn?.pending?.kind}`;
    const changed = key !== this.key;
    if (changed) { this.key = key; this.basket = {}; this.change = { source: null, good: null }; }
    const root = clear(this.root);
    // A new step opens at its top: the column kept the scroll of the step before, and
    // the new step's heading and first choices sat above the fold.
    const col = changed ? root.closest(".dr-side-col") : null;
    if (col && col.scrollTop > root.offsetTop) col.scrollTop = root.offsetTop;
    root.append(h("h2", { class: "sr-only", text: t("Merchants of the Dark Road: your actions") }));
    root.append(stepsBar(view));
    const status = h("p", { class: `turn-status${legal.length ? " mine" : ""}`, "data-testid": "dr-status", tabindex: "-1", text: statusText(view, w) });
    root.append(status);
    const pend = view.private?.pending;
    this.context(root, view, pend);
    if (!legal.length) {
      if (view.status === "playing") root.append(h("p", { class: "muted", text: t("Nothing to do right now: the others are playing.") }));
      return;
    }
    const used = new Set();
    const btn = (cmd, label, opts = {}) => {
      used.add(cmd);
      return actionButton({ busy, send: ctx.send }, cmd, label ?? w.command(cmd), { title: w.hint(cmd) ?? undefined, ...opts });
    };
    const of = (type) => legal.filter((a) => a.type === type);
    const group = (title, ...nodes) => {
      const flat = nodes.flat().filter(Boolean);
      if (!flat.length) return null;
      const box = h("div", { class: "dr-group", role: "group", "aria-label": title }, title ? h("h3", { text: title }) : null, ...flat);
      root.append(box);
      return box;
    };
    const me = view.players[view.seat];

    // --- storing a good: the one-click default here, the grid in the wagon ---------------
    if (pend?.kind === "store") {
      const auto = of("place_good").find((a) => a.area == null);
      const inc = me.incoming[0];
      if (auto) {
        group(null, h("p", { text: t("New: {good}. Place it on the storage grid of your wagon, or:", { good: w.good(inc.good, inc.up) }) }),
          h("div", { class: "row" }, btn(auto, t("Store it where it fits"), { cls: "btn primary" })));
      } else {
        group(t("Doesn't fit: discard what?"), h("div", { class: "row" }, ...of("discard_good").map((a) => btn(a))));
      }
      for (const a of of("place_good")) used.add(a);
      for (const a of of("discard_good")) used.add(a);
    }

    // --- the turn's steps ------------------------------------------------------------------
    const plans = of("plan");
    if (plans.length) {
      const dice = [...new Set(plans.map((a) => a.die))];
      if (!dice.includes(this.planDie)) this.planDie = dice[0];
      const picker = dice.length > 1 || dice[0] !== null
        ? h("div", { class: "row dr-die-pick", role: "radiogroup", "aria-label": t("The reserve die to bump with") },
          h("span", { class: "small", text: t("Bump with:") }),
          ...dice.map((d) => h("button", { type: "button", role: "radio", "aria-checked": String(d === this.planDie), class: `btn small dr-toggle${d === this.planDie ? " on" : ""}`,
            "data-testid": "plan-die", onclick: () => { this.planDie = d; this.render(ctx); } }, dieChip(d, "night"), ` ${d}`)))
        : null;
      const rows = [1, 2, 3].map((slot) => {
        const cmds = plans.filter((a) => a.slot === slot && a.die === this.planDie);
        if (!cmds.length) return null;
        const moved = me.locked[slot - 1];
        const dest = (me.position + moved) % 5;
        return h("div", { class: "dr-plan-slot", ...previewOn(ctx, dest) },
          h("div", { class: "dr-plan-head" }, h("b", { text: t("Slot {slot}", { slot }) }), dieChip(moved, "night", t("Locked slot {slot}: {value}", { slot, value: moved })),
            h("span", { class: "small muted", text: t("→ pool: moves {n}, to face {place}", { n: moved, place: facing(this.content, w, view, dest) }) })),
          h("div", { class: "row" }, ...cmds.map((a) => btn(a, w.planOption(a), { cls: "btn small" }))));
      });
      for (const a of plans) if (a.die !== this.planDie) used.add(a); // offered with another die
      group(t("Plan: bump a locked die"), picker, ...rows);
    }
    const resets = of("reset_dice");
    if (resets.length) group(null, ...resets.map((a) => btn(a)));
    const moves = of("move");
    if (moves.length) {
      group(t("Move your wagon"), ...moves.map((a) => {
        const steps = a.die === "steed" ? 3 : a.die === "night" ? me.pool.night : me.pool.illuminated;
        const dest = (((me.position + steps + a.horseshoe) % 5) + 5) % 5;
        return h("div", { class: "dr-choice", ...previewOn(ctx, dest) }, btn(a, w.command(a), { cls: a.horseshoe ? "btn small" : "btn" }),
          h("span", { class: "small muted", text: t("space {n}: {place}", { n: dest + 1, place: facing(this.content, w, view, dest) }) }));
      }));
    }

    // --- activations -----------------------------------------------------------------------
    // How many of the open places may be used: without an illuminated die one of the two
    // districts, and the page said so only on End turn ("skipping 1 activation").
    const acts = view.turn?.step === "activate" && view.turn?.seat === view.seat ? view.turn.activations || [] : [];
    const actsLeft = view.turn?.activations_left ?? 0;
    if (legal.length && actsLeft > 0 && acts.length > actsLeft) {
      root.append(h("p", { class: "dr-acts-left", "data-testid": "activations-left",
        text: tn("One activation: choose 1 of the {m} districts your wagon faces.", "{n} activations: choose {n} of the {m} places your wagon faces.", actsLeft, { n: actsLeft, m: acts.length }) }));
    }
    const baz = of("bazaar");
    if (baz.length) group(null, ...baz.map((a) => btn(a, t("Visit the Great Bazaar"), { cls: "btn" })));
    this.bazaarPending(root, ctx, of, btn, group, me);
    const takes = of("take_commission");
    if (takes.length) {
      group(t("Queen's Commissions: take a top commission"), h("div", { class: "dr-cards" }, ...takes.map((a) => {
        const top = view.board.commissions[a.town]?.top;
        return commissionCard(w, top, btn(a, t("Take ({town})", { town: w.town(a.town) }), { cls: "btn small" }));
      })));
    }
    const dms = of("dark_market");
    if (dms.length) group(tn("Dark Market (you have {n} coin)", "Dark Market (you have {n} coins)", view.private?.coins ?? 0), h("div", { class: "row" }, ...dms.map((a) => btn(a, null, { cls: "btn small" }))));
    const inns = of("inn");
    if (inns.length) {
      const bySlot = new Map();
      for (const a of inns) { if (!bySlot.has(a.slot)) bySlot.set(a.slot, []); bySlot.get(a.slot).push(a); }
      group(t("Ringway Inn: sell goods to a hero, who joins you"), h("div", { class: "dr-cards" }, ...[...bySlot].map(([slot, cmds]) => {
        const hero = view.board.inn[slot];
        const pays = (w.heroes[hero]?.requests || []).map((g) => t("{good} ${price}", { good: w.good(g), price: view.board.wheel.find((x) => x.good === g)?.value ?? "?" })).join(" · ");
        return heroCard(w, hero, h("div", { class: "dr-sell" }, h("span", { class: "small muted", text: t("Pays {prices}; +$1 and a quartz per upgraded good", { prices: pays }) }), ...cmds.map((a) => {
          const pieces = a.goods.map((id) => me.pieces.find((q) => q.id === id)).filter(Boolean);
          const coins = pieces.reduce((n, q) => n + (view.board.wheel.find((x) => x.good === q.good)?.value ?? 0) + (q.up ? 1 : 0), 0);
          const quartz = pieces.filter((q) => q.up).length;
          const p = { goods: w.piecesText(a.goods), coins };
          return btn(a, quartz ? tn("Sell {goods}: ${coins} + {n} quartz", "Sell {goods}: ${coins} + {n} quartz", quartz, p) : t("Sell {goods}: ${coins}", p), { cls: "btn small" });
        })));
      })));
    }
    const ruins = of("ruins");
    if (ruins.length) group(pend?.kind === "ruins_again" ? t("Ruins of Yin, again") : t("Yurg's Excursions: the Ruins of Yin"), h("div", { class: "row" }, ...ruins.map((a) => btn(a, null, { cls: "btn small" }))));
    this.caravanBuilder(ctx, of("caravan"), btn, group, me);
    const blds = of("building");
    if (blds.length) {
      const byB = new Map();
      for (const a of blds) { if (!byB.has(a.building)) byB.set(a.building, []); byB.get(a.building).push(a); }
      for (const [b, cmds] of byB) {
        group(t("{building}: {text}", { building: w.building(b), text: w.buildings[b]?.text ?? "" }), h("div", { class: "row" }, ...cmds.map((a) => btn(a, w.buildingOption(a) || w.building(b), { cls: "btn small" }))));
      }
    }
    const comps = of("use_companion");
    if (comps.length) group(t("Companions (your turn only)"), h("div", { class: "row" }, ...comps.map((a) => btn(a, null, { cls: "btn small" }))));

    // --- answers to choices -----------------------------------------------------------------
    const joins = of("join");
    // The status line already asks "Join the caravan?": the buttons need no second title.
    if (joins.length) group(null, h("div", { class: "row" }, ...joins.map((a) => btn(a, null, { cls: a.yes ? "btn primary" : "btn" }))));
    const rer = of("reroll_travel");
    const dice = of("take_travel_die");
    if (dice.length || rer.length) {
      group(t("Travel dice"), h("div", { class: "dr-choices" }, ...dice.map((a) => h("div", { class: "dr-choice" },
        dieChip(a.value, "travel"), btn(a, null, { cls: "btn small" })))),
        rer.length ? h("div", { class: "row" }, ...rer.map((a) => btn(a, tn("{command} — you have {n} lantern", "{command} — you have {n} lanterns", me.lanterns, { command: w.command(a) }), { cls: "btn small" }))) : null);
    }
    const visits = of("visit");
    if (visits.length) {
      group(t("Visit a town"), h("div", { class: "row" }, ...visits.map((a) => {
        const n = a.town ? deliverable(w, me, a.town) : 0;
        const label = !a.town ? w.command(a) : n ? tn("{command} — {n} to deliver", "{command} — {n} to deliver", n, { command: w.command(a) })
          : t("{command} — nothing to deliver", { command: w.command(a) });
        return btn(a, label, { cls: n ? "btn primary" : "btn small" });
      })));
    }
    const dc = of("deliver_commission");
    if (dc.length) {
      group(t("Deliver commissions"), h("div", { class: "row" }, ...dc.map((a) => {
        const pieces = a.goods.map((id) => me.pieces.find((q) => q.id === id)).filter(Boolean);
        const pts = [0, 1, 3, 6][pieces.length] + pieces.filter((q) => q.up).length;
        return btn(a, tn("{command}: {n} prestige", "{command}: {n} prestige", pts, { command: w.command(a) }), { cls: "btn small" });
      })));
    }
    const dh = of("deliver_hero");
    if (dh.length) group(t("Deliver heroes"), h("div", { class: "row" }, ...dh.map((a) => btn(a, null, { cls: "btn small" }))));
    for (const type of ["done_delivering", "fortune", "ruins_die", "take_hero", "choose_good", "lose_good", "discard_hero", "discard_commission",
      "discard_resource", "choose_steed", "keep_deed", "draft"]) {
      const list = of(type).filter((a) => !used.has(a));
      // A good fortune's upgrade or deed says what it does under its name (a phone shows
      // no tooltip).
      const said = (a) => (type === "fortune" ? w.hint(a) : null);
      if (list.length) group(null, h("div", { class: "row" }, ...list.map((a) => (said(a)
        ? h("div", { class: "dr-choice" }, btn(a, null, { cls: "btn small" }), h("span", { class: "small muted", "data-testid": "choice-text", text: said(a) }))
        : btn(a, null, { cls: "btn small" })))));
    }
    // Whatever is left (a command type this page does not know yet): plain buttons.
    const rest = legal.filter((a) => !used.has(a) && a.type !== "end_turn");
    if (rest.length) group(t("More"), h("div", { class: "row" }, ...rest.map((a) => btn(a, null, { cls: "btn small" }))));
    const end = of("end_turn");
    if (end.length) {
      root.append(h("div", { class: "row dr-end-row" }, ...end.map((a) => btn(a, view.turn?.activations_left ? tn("End turn (Rest), skipping the activation left", "End turn (Rest), skipping {n} activations", view.turn.activations_left) : t("End turn (Rest)"), { cls: "btn end-turn" }))));
    }
  }

  /** What the choice is about: the caravan's join question, the deed options... */
  context(root, view, pend) {
    const w = this.words;
    const travel = view.board.travel;
    if (pend?.kind === "join" && travel) {
      const p = { leader: w.name(travel.leader), town: w.town(travel.town), companion: w.companion(travel.companion) };
      root.append(h("p", { class: "dr-ask" }, seatBadge(travel.leader, 18), " ", travel.route === "shortcut"
        ? t("{leader} leads a caravan to {town} by a shortcut (2 good fortunes for the leader), with {companion}.", p)
        : t("{leader} leads a caravan to {town} by the dark road, with {companion}.", p)));
    }
    if (pend?.kind === "ruins_die" && !(view.legal_actions || []).some((a) => a.type === "ruins_die" && a.roll)) {
      // Only "Don't roll" is offered: say why.
      root.append(h("p", { class: "dr-ask muted", "data-testid": "ruins-no-lantern", text: t("Rolling the ruins die costs a lantern, and you have none.") }));
    }
    if (pend?.kind === "keep_deed" && pend.options) {
      root.append(h("div", { class: "dr-cards" }, ...pend.options.map((id) => h("div", { class: "dr-mini-card" }, h("b", { text: w.deed(id) }), h("span", { class: "small", text: w.deeds[id]?.text ?? "" })))));
    }
    if (pend?.kind === "choose_good" && pend.options) {
      root.append(h("p", { class: "small muted", text: pend.up ? t("Upgraded good, from: {goods}", { goods: listOf(pend.options.map((g) => w.good(g))) }) : t("Basic good, from: {goods}", { goods: listOf(pend.options.map((g) => w.good(g))) }) }));
    }
    if (pend?.kind === "fortune") {
      root.append(h("p", { class: "small muted", text: t("A: an illuminated die · B: a deed (and its banner) · C: coins · D: a wagon upgrade (one per wagon)") }));
    }
    if (pend?.kind === "deliver") {
      root.append(h("p", { class: "small muted", text: t("At {town}: each commission gives 1/3/6 prestige for 1/2/3 goods, +1 per upgraded good.", { town: w.town(pend.town) }) }));
    }
  }

  bazaarPending(root, ctx, of, btn, group, me) {
    const w = this.words;
    const view = ctx.view;
    const rot = of("bazaar_rotate");
    const chg = of("bazaar_change");
    const buys = of("bazaar_buy");
    if (!rot.length && !chg.length && !buys.length) return;
    const parts = [];
    if (rot.length) parts.push(h("div", { class: "row" }, ...rot.map((a) => btn(a, t("Rotate the wheel (every price moves down one step)"), { cls: "btn small" }))));
    if (chg.length) {
      const sources = [...new Set(chg.map((a) => a.source))];
      if (!sources.includes(this.change.source)) this.change.source = sources[0];
      const targets = chg.filter((a) => a.source === this.change.source).map((a) => a.good);
      if (!targets.includes(this.change.good)) this.change.good = targets[0];
      const pick = chg.find((a) => a.source === this.change.source && a.good === this.change.good);
      const sel = (name, values, cur, onch) => h("select", { "aria-label": name, onchange: (e) => { onch(e.target.value); this.render(ctx); } },
        ...values.map((v) => h("option", { value: v, selected: v === cur ? true : null, text: w.goodTitle(v) })));
      parts.push(h("div", { class: "row dr-change" }, h("span", { class: "small", text: t("Change a die:") }),
        sel(t("Market die to change"), sources, this.change.source, (v) => { this.change.source = v; }),
        h("span", { text: "→", "aria-hidden": "true" }),
        sel(t("New face"), targets, this.change.good, (v) => { this.change.good = v; }),
        pick ? btn(pick, t("Change"), { cls: "btn small" }) : null));
      for (const a of chg) btn(a); // every change command counts as offered through the selects
    }
    if (buys.length) {
      const wheel = view.board.wheel;
      const discount = me.steeds.some((id) => w.steeds[id]?.ability === "bazaar_discount") ? 2 : 0;
      const list = [];
      for (const g of this.content.board.goods.map((x) => x.id)) for (let i = 0; i < (this.basket[g] || 0); i += 1) list.push(g);
      const cost = Math.max(0, [...new Set(list)].reduce((n, g) => n + (wheel.find((x) => x.good === g)?.value ?? 0), 0) - discount);
      const match = buys.find((a) => a.goods.length === list.length && a.goods.every((g, i) => g === list[i]));
      const toggles = h("div", { class: "dr-basket", role: "group", "aria-label": t("The basket") },
        ...wheel.filter((x) => x.dice > 0).map((x) => {
          const n = this.basket[x.good] || 0;
          return h("div", { class: `dr-basket-item${n ? " on" : ""}` },
            goodChip(x.good, w.goodTitle(x.good)),
            h("span", { class: "small", text: tn("{good} ${price} ({n} die)", "{good} ${price} ({n} dice)", x.dice, { good: w.goodTitle(x.good), price: x.value }) }),
            h("button", { type: "button", class: "btn small", "aria-label": t("One more {good}", { good: w.good(x.good) }), "data-testid": "basket-add",
              disabled: n >= x.dice ? true : null, onclick: () => { this.basket[x.good] = n + 1; this.render(ctx); } }, "+"),
            h("button", { type: "button", class: "btn small", "aria-label": t("One less {good}", { good: w.good(x.good) }), disabled: n ? null : true,
              onclick: () => { this.basket[x.good] = n - 1; this.render(ctx); } }, "−"),
            h("b", { text: String(n) }));
        }));
      const coins = view.private?.coins ?? 0;
      const summary = h("p", { class: "dr-basket-sum", "data-testid": "basket-price" },
        !list.length ? t("Your basket is empty (a second good of a section is free).")
          : discount ? tn("Basket: {goods} — ${cost} (Brembizánt's $2 off); you have {n} coin.", "Basket: {goods} — ${cost} (Brembizánt's $2 off); you have {n} coins.", coins, { goods: w.goodsList(list), cost })
            : tn("Basket: {goods} — ${cost}; you have {n} coin.", "Basket: {goods} — ${cost}; you have {n} coins.", coins, { goods: w.goodsList(list), cost }));
      parts.push(toggles, summary, h("div", { class: "row" },
        match ? btn(match, list.length ? t("Buy for ${cost}", { cost }) : t("Buy nothing, leave"), { cls: list.length ? "btn primary" : "btn" })
          : h("span", { class: "dr-too-dear", text: tn("Too dear: ${cost} > {n} coin", "Too dear: ${cost} > {n} coins", coins, { cost }) }),
        list.length ? btn(buys.find((a) => !a.goods.length) ?? buys[0], t("Buy nothing, leave"), { cls: "btn small" }) : null));
      for (const a of buys) btn(a);
    }
    group(t("At the Great Bazaar"), ...parts);
  }

  caravanBuilder(ctx, cmds, btn, group, me) {
    if (!cmds.length) return;
    const w = this.words;
    const view = ctx.view;
    const comps = [...new Set(cmds.map((a) => a.companion))];
    if (!comps.includes(this.caravan.companion)) this.caravan.companion = comps.find((i) => view.board.companion_row_die?.[i]) ?? comps[0];
    const routes = [...new Set(cmds.map((a) => a.route))];
    if (!routes.includes(this.caravan.route)) this.caravan.route = routes[0];
    const compName = (i) => (i === -1 ? t("Top of the deck (unseen)") : view.board.companion_row_die?.[i]
      ? t("{companion} + travel die", { companion: w.companion(view.board.companion_row[i]) }) : w.companion(view.board.companion_row[i]));
    const chips = (items, cur, set, label) => h("div", { class: "row", role: "radiogroup", "aria-label": label },
      ...items.map(([v, text]) => h("button", { type: "button", role: "radio", "aria-checked": String(v === cur), class: `btn small dr-toggle${v === cur ? " on" : ""}`,
        onclick: () => { set(v); this.render(ctx); } }, text)));
    const towns = cmds.filter((a) => a.companion === this.caravan.companion && a.route === this.caravan.route);
    for (const a of cmds) if (!towns.includes(a)) btn(a); // reachable through the chips
    group(t("Yurg's Excursions: lead a caravan to a town"),
      h("span", { class: "small", text: t("Companion:") }),
      chips(comps.map((i) => [i, compName(i)]), this.caravan.companion, (v) => { this.caravan.companion = v; }, t("Companion")),
      h("span", { class: "small", text: t("Route:") }),
      chips(routes.map((r) => [r, r === "shortcut" ? t("Shortcut (3 lanterns, 2 fortunes)") : t("Dark road (1 fortune)")]), this.caravan.route, (v) => { this.caravan.route = v; }, t("Route")),
      h("div", { class: "row" }, ...towns.map((a) => {
        const n = deliverable(w, me, a.town);
        return btn(a, n ? tn("{town} ({n} to deliver)", "{town} ({n} to deliver)", n, { town: w.town(a.town) }) : w.town(a.town), { cls: n ? "btn small dr-suggested" : "btn small" });
      })));
  }
}

/** Hovering or focusing a choice rings, on the board, the space the wagon would reach. */
function previewOn(ctx, dest) {
  if (!ctx.preview) return {};
  return {
    onmouseenter: () => ctx.preview(dest), onmouseleave: () => ctx.preview(null),
    onfocusin: () => ctx.preview(dest), onfocusout: () => ctx.preview(null),
  };
}

/** How many of your heroes and commissions could be delivered at `town`. */
export function deliverable(words, me, town) {
  const heroes = me.heroes.filter((id) => words.heroTownOf(id) === town).length;
  const held = new Set(me.pieces.map((q) => q.good));
  const comms = me.commissions.filter((id) => words.commissions[id]?.town === town && words.commissions[id].requests.some((g) => held.has(g))).length;
  return heroes + comms;
}
