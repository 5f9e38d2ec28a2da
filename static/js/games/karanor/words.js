// Names and sentences: turns ids, events and commands into words for people.
import { workGold } from "./actions.js";
import { bundleEmpty, bundleWords } from "./goods.js";

export class Words {
  constructor(content) {
    this.content = content;
    this.cat = content.catalogue;
    this.terr = Object.fromEntries(content.map.territories.map((t) => [t.id, t]));
    this.players = [];
    this.me = null;
  }

  setView(view) {
    this.players = view.players || [];
    this.me = view.seat ?? null;
  }

  who(seat) {
    if (seat === null || seat === undefined) return "someone";
    if (seat === this.me) return "You";
    return this.players[seat]?.name ?? `Seat ${seat + 1}`;
  }

  /** The object form: "you" rather than "You". */
  whom(seat) {
    return seat === this.me && seat !== null && seat !== undefined ? "you" : this.who(seat);
  }

  /** "to Bo", "to Bo and Cy", "to anyone" (an offer's addressees). */
  toWhom(to) {
    if (to === null || to === undefined) return "to anyone";
    const names = to.map((s) => this.whom(s));
    return `to ${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0]}`;
  }

  bundle(b) { return bundleWords(b, this); }

  /** A completed trade: "Ana gave 2 gold to Bo for 1 wine." (from: the offer's author). */
  trade(from, taker, give, want) {
    const gave = !bundleEmpty(give);
    const got = !bundleEmpty(want);
    if (gave && got) return `${this.who(from)} gave ${this.bundle(give)} to ${this.whom(taker)} for ${this.bundle(want)}.`;
    if (gave) return `${this.who(from)} gave ${this.bundle(give)} to ${this.whom(taker)}.`;
    return `${this.who(taker)} gave ${this.bundle(want)} to ${this.whom(from)}.`;
  }

  place(id) { return this.terr[id]?.name ?? id; }
  villa(id) { return this.content.villas[id] ?? id; }
  card(kind, id) { return this.cat[kind]?.[id]?.name ?? id; }
  anyCard(id) {
    for (const kind of ["business", "quests", "black_market", "artifacts"]) {
      if (this.cat[kind]?.[id]) return this.cat[kind][id].name;
    }
    return id;
  }
  badge(id) { return this.cat.badges?.[id]?.name ?? id; }
  inhabitant(id) { return this.cat.inhabitants?.[id]?.name ?? id; }

  pairs(obj) {
    return Object.entries(obj || {}).filter(([, n]) => n).map(([r, n]) => `${n} ${r}`).join(" + ");
  }

  /** One event in words, or null for those not worth a line. */
  event(e) {
    const w = this.who(e.seat);
    switch (e.type) {
      case "draft_picked": return e.seat === this.me ? null : `${w} picked a business card.`;
      case "draft_pick": return `You kept ${this.card("business", e.card)}.`;
      case "draft_passed": return "The draft hands were passed on.";
      case "draft_done": return "The draft is over: the game begins.";
      case "turn": return `Round ${e.round}: ${w === "You" ? "your" : `${w}'s`} turn (${e.actions} actions).`;
      case "revenue_phase": {
        const res = this.pairs(e.resources);
        return `${w} ${w === "You" ? "end" : "ends"} the turn and ${w === "You" ? "collect" : "collects"} ${e.gold} gold of revenue${res ? ` and ${res}` : ""}.`;
      }
      case "move": {
        const path = e.path || [];
        const via = path.length > 1 ? ` via ${path.slice(0, -1).map((t) => this.place(t)).join(", ")}` : "";
        return `${w} moved to ${this.place(path[path.length - 1])}${via}${e.gold ? `, paying ${e.gold} gold` : ""}.`;
      }
      case "harvest": return `${w} harvested ${e.count} ${e.resource} in ${this.place(e.territory)}.`;
      case "work": return `${w} worked for ${e.gold} gold.`;
      case "build": return `${w} opened ${this.card("business", e.card)} in ${this.place(e.city)}${e.bonus ? " with its bonus" : ""}.`;
      case "interact": return `${w} met ${this.inhabitant(e.inhabitant)} in ${this.place(e.territory)}.`;
      case "quest_done": return `${w} completed the quest ${this.card("quests", e.card)}.`;
      case "sequel": return `${w} took the sequel ${this.card("quests", e.card)}.`;
      case "sequel_out": return `The sequel ${this.card("quests", e.card)} is already out: no second copy.`;
      case "deliver": return `${w} made the delivery ${this.cat.deliveries?.[e.card]?.name || ""} for ${e.gold} gold.`;
      case "delivery_revealed": return e.card ? `New delivery: ${this.cat.deliveries?.[e.card]?.text ?? e.card}` : "No deliveries remain.";
      case "partner": return `${w} recruited the ${e.resource} partner for ${e.gold} gold.`;
      case "villa": return `${w} bought ${this.villa(e.villa)} for ${e.gold} gold.`;
      case "market": {
        const parts = [];
        if (this.pairs(e.buy)) parts.push(`bought ${this.pairs(e.buy)}`);
        if (this.pairs(e.sell)) parts.push(`sold ${this.pairs(e.sell)}`);
        return `${w} ${parts.join(" and ")} at the market.`;
      }
      case "promote": return `${w} promoted the ${e.resource} partner.`;
      case "black_market": {
        const target = e.target !== null && e.target !== undefined ? ` on ${this.who(e.target)}` : "";
        return `${w} played ${this.card("black_market", e.card)}${target}${e.resource ? ` (${e.resource})` : ""}.`;
      }
      case "artifact_used": return `${w} used ${this.card("artifacts", e.artifact)}.`;
      case "artifact": return `${w} received the artifact ${this.card("artifacts", e.artifact)}.`;
      case "artifact_offered": return `${w} ${w === "You" ? "choose" : "chooses"} an artifact.`;
      case "artifact_gone": return `No artifact left for ${w}.`;
      case "quest_choice_open": return `${w} ${w === "You" ? "face" : "faces"} a quest's choice.`;
      case "quest_choice": {
        const q = e.card ? this.cat.quests?.[e.card] : null;
        return q ? `${w} chose "${q.immediate?.[e.option] ?? e.option + 1}" on ${q.name}.` : `${w} made a quest choice.`;
      }
      case "quest_choice_lapsed": return `${w} could take none of the quest's options.`;
      case "quest_discarded": return e.seat === this.me ? null : `${w} discarded a quest.`;
      case "quest_discarded_card": return `You discarded ${this.card("quests", e.card)}.`;
      case "business_blind": return e.seat === this.me ? null : `${w} drew a business card from the deck.`;
      case "business_taken": return `${w} took ${this.card("business", e.card)} from the display.`;
      case "draw": return e.seat === this.me ? null : `${w} drew ${e.count} ${e.deck === "quests" ? "quest" : "black-market"} card${e.count > 1 ? "s" : ""}.`;
      case "drew": {
        const cards = (e.cards || []).map((c) => this.anyCard(c));
        const kind = e.deck === "quests" ? "quest" : e.deck === "black_market" ? "black-market card" : "card";
        return `You drew ${cards.length === 1 ? `the ${kind} ${cards[0]}` : `${cards.length} ${kind}s: ${cards.join(", ")}`}.`;
      }
      case "prestige": return `${w} ${e.delta >= 0 ? "gained" : "lost"} ${Math.abs(e.delta)} prestige (now ${e.prestige}).`;
      case "ascension": return `${w} reached ${e.threshold} prestige: a black-market card.`;
      case "end_triggered": return `${w} reached ${e.prestige} prestige: this is the last round!`;
      case "badge": return `${w} took a ${this.badge(e.badge)} badge.`;
      case "badge_lost": return `${w} returned a ${this.badge(e.badge)} badge.`;
      case "badge_gone": return `No ${this.badge(e.badge)} badge left for ${w}.`;
      case "teleport": return `${w} went at once to ${this.place(e.territory)}.`;
      case "gold": return `${w} ${e.delta >= 0 ? "gained" : "lost"} ${Math.abs(e.delta)} gold.`;
      case "revenue": return `${w} revenue ${e.delta >= 0 ? "rose" : "fell"} to ${e.revenue}.`;
      case "resources": return e.delta ? `${w} ${e.delta > 0 ? "took" : "lost"} ${Math.abs(e.delta)} ${e.resource}.` : null;
      case "extra_actions": return `${w} gained ${e.count} extra action${e.count > 1 ? "s" : ""}.`;
      case "actions_lost": return `${w} will have ${e.count} action${e.count > 1 ? "s" : ""} fewer next turn.`;
      case "steal": return e.gold !== undefined
        ? `${w} took ${e.gold} gold from ${this.who(e.target)}.`
        : `${w} took ${e.count} ${e.resource} from ${this.who(e.target)}.`;
      case "offer": {
        const verb = e.counter_of !== null && e.counter_of !== undefined ? "countered with an offer" : "offered";
        return `${w} ${verb} ${this.bundle(e.give)} for ${this.bundle(e.want)} ${this.toWhom(e.addressees)}.`;
      }
      case "offer_withdrawn": return `${w} withdrew an offer.`;
      case "offer_declined": return `${w} declined an offer.`;
      case "trade": return this.trade(e.from, e.seat, e.give, e.want);
      case "offer_status": return null;
      case "offers_closed": return "Trading is closed: the open offers were closed.";
      case "game_over": return `The game is over. ${(e.winners || []).map((s) => this.who(s)).join(" and ")} ${e.winners?.length > 1 ? "share the win" : (e.winners?.[0] === this.me ? "win" : "wins")}!`;
      default: return `${e.type.replaceAll("_", " ")}${e.seat !== undefined ? ` (${w})` : ""}`;
    }
  }

  /** A legal command in words, for buttons and labels. */
  command(cmd, view) {
    const me = view?.players?.[view.seat];
    switch (cmd.type) {
      case "move": return `Move to ${this.place(cmd.to)}`;
      case "harvest": {
        const res = this.terr[me?.position]?.resource;
        return res ? `Harvest ${res}` : "Harvest";
      }
      case "work": return `Work (+${view ? workGold(view, this.content) : 1} gold)`;
      case "build": return `Build ${this.card("business", cmd.card)}${cmd.bonus ? " + bonus" : ""}`;
      case "interact": {
        const who = view?.board?.inhabitants?.[me?.position];
        return who ? `Meet ${this.inhabitant(who)}` : "Meet the inhabitant";
      }
      case "complete_quest": {
        const q = this.cat.quests?.[cmd.card];
        const label = q?.options?.length > 1 ? `: ${q.options[cmd.option]}` : "";
        return `Complete ${q?.name ?? cmd.card}${label}`;
      }
      case "deliver": return "Deliver";
      case "recruit_partner": return `Recruit the ${cmd.resource} partner`;
      case "buy_villa": return `Buy ${this.villa(cmd.villa)}`;
      case "market": {
        const parts = [];
        if (this.pairs(cmd.buy)) parts.push(`buy ${this.pairs(cmd.buy)}`);
        if (this.pairs(cmd.sell)) parts.push(`sell ${this.pairs(cmd.sell)}`);
        return `Market: ${parts.join(", ")}`;
      }
      case "end_turn": return "End turn";
      case "promote_partner": return `Promote the ${cmd.resource} partner`;
      case "play_black_market": {
        const target = cmd.target !== undefined && cmd.target !== null ? ` on ${this.who(cmd.target)}` : "";
        return `Play ${this.card("black_market", cmd.card)}${target}${cmd.resource ? ` (${cmd.resource})` : ""}`;
      }
      case "use_artifact": return `Use ${this.card("artifacts", cmd.artifact)}`;
      case "draft_pick": return `Keep ${this.card("business", cmd.card)}`;
      case "choose_artifact": return `Take ${this.card("artifacts", cmd.artifact)}`;
      case "quest_choice": {
        const q = this.cat.quests?.[cmd.card];
        return q?.immediate?.[cmd.option] ?? `Option ${cmd.option + 1}`;
      }
      case "discard_quest": return `Discard ${this.card("quests", cmd.card)}`;
      case "pick_business": return cmd.card === "deck" ? "Draw blind from the deck" : `Take ${this.card("business", cmd.card)}`;
      default: return cmd.type.replaceAll("_", " ");
    }
  }
}
