// Names and sentences: turns ids, events and commands into words for people, through the
// catalogue (static/js/i18n.js). A sentence about the reader and one about another player
// are two messages ("You moved to {place}." / "{actor} moved to {place}."), numbers go
// through tn(): no grammar is built by concatenation.
import { noun, t, tn } from "../../i18n.js";
import { workGold } from "./actions.js";
import { bundleEmpty, bundleWords, goodName, goodWords, joinAnd } from "./goods.js";

/** Each event type's sentence (`this`: the Words; `mine`: the reader's own, `actor`: the seat's name, `by(you, other)`: the sentence for the reader or about another). */
const SENTENCES = {
  draft_picked(e, { mine, actor }) {
    return mine ? null : t("{actor} picked a business card.", { actor });
  },
  draft_pick(e) {
    return t("You kept {card}.", { card: this.cardN("business", e.card) });
  },
  draft_passed() {
    return t("The draft hands were passed on.");
  },
  draft_done() {
    return t("The draft is over: the game begins.");
  },
  turn(e, { actor, by }) {
    const p = { round: e.round, actor, n: e.actions };
    return by(tn("Round {round}: your turn ({n} action).", "Round {round}: your turn ({n} actions).", e.actions, p),
      tn("Round {round}: {actor}'s turn ({n} action).", "Round {round}: {actor}'s turn ({n} actions).", e.actions, p));
  },
  revenue_phase(e, { actor, by }) {
    const res = this.pairs(e.resources);
    const p = { actor, gold: goodWords(e.gold, "gold"), goods: res };
    if (res) {
      return by(t("You end the turn and collect {gold} of revenue and {goods}.", p),
        t("{actor} ends the turn and collects {gold} of revenue and {goods}.", p));
    }
    return by(t("You end the turn and collect {gold} of revenue.", p),
      t("{actor} ends the turn and collects {gold} of revenue.", p));
  },
  move(e, { actor, by }) {
    const path = e.path || [];
    const p = { actor, place: this.placeN(path[path.length - 1]), gold: goodWords(e.gold || 0, "gold"),
      via: path.slice(0, -1).map((x) => this.placeN(x)).join(", ") };
    if (path.length > 1 && e.gold) {
      return by(t("You moved to {place} via {via}, paying {gold}.", p),
        t("{actor} moved to {place} via {via}, paying {gold}.", p));
    }
    if (path.length > 1) return by(t("You moved to {place} via {via}.", p), t("{actor} moved to {place} via {via}.", p));
    if (e.gold) return by(t("You moved to {place}, paying {gold}.", p), t("{actor} moved to {place}, paying {gold}.", p));
    return by(t("You moved to {place}.", p), t("{actor} moved to {place}.", p));
  },
  harvest(e, { actor, by }) {
    const p = { actor, goods: goodWords(e.count, e.resource), place: this.placeN(e.territory) };
    return by(t("You harvested {goods} in {place}.", p), t("{actor} harvested {goods} in {place}.", p));
  },
  work(e, { actor, by }) {
    const p = { actor, gold: goodWords(e.gold, "gold") };
    return by(t("You worked for {gold}.", p), t("{actor} worked for {gold}.", p));
  },
  build(e, { actor, by }) {
    const p = { actor, card: this.cardN("business", e.card), place: this.placeN(e.city) };
    if (e.bonus) {
      return by(t("You opened {card} in {place} with its bonus.", p),
        t("{actor} opened {card} in {place} with its bonus.", p));
    }
    return by(t("You opened {card} in {place}.", p), t("{actor} opened {card} in {place}.", p));
  },
  interact(e, { actor, by }) {
    const p = { actor, who: this.inhabitantN(e.inhabitant), place: this.placeN(e.territory) };
    return by(t("You met {who} in {place}.", p), t("{actor} met {who} in {place}.", p));
  },
  quest_done(e, { actor, by }) {
    const p = { actor, quest: this.cardN("quests", e.card) };
    return by(t("You completed the quest {quest}.", p), t("{actor} completed the quest {quest}.", p));
  },
  sequel(e, { actor, by }) {
    const p = { actor, quest: this.cardN("quests", e.card) };
    return by(t("You took the sequel {quest}.", p), t("{actor} took the sequel {quest}.", p));
  },
  sequel_out(e) {
    return t("The sequel {quest} is already out: no second copy.", { quest: this.cardN("quests", e.card) });
  },
  deliver(e, { actor, by }) {
    const p = { actor, delivery: this.cat.deliveries?.[e.card]?.name || "", gold: goodWords(e.gold, "gold") };
    return by(t("You made the delivery {delivery} for {gold}.", p), t("{actor} made the delivery {delivery} for {gold}.", p));
  },
  delivery_revealed(e) {
    return e.card
    ? t("New delivery: {text}", { text: this.cat.deliveries?.[e.card]?.text ?? e.card })
    : t("No deliveries remain.");
  },
  partner(e, { actor, by }) {
    const p = { actor, resource: goodName(e.resource), gold: goodWords(e.gold, "gold") };
    return by(t("You recruited the {resource} partner for {gold}.", p),
      t("{actor} recruited the {resource} partner for {gold}.", p));
  },
  villa(e, { actor, by }) {
    const p = { actor, villa: this.villaN(e.villa), gold: goodWords(e.gold, "gold") };
    return by(t("You bought {villa} for {gold}.", p), t("{actor} bought {villa} for {gold}.", p));
  },
  market(e, { actor, by }) {
    const p = { actor, bought: this.pairs(e.buy), sold: this.pairs(e.sell) };
    if (p.bought && p.sold) {
      return by(t("You bought {bought} and sold {sold} at the market.", p),
        t("{actor} bought {bought} and sold {sold} at the market.", p));
    }
    if (p.bought) return by(t("You bought {bought} at the market.", p), t("{actor} bought {bought} at the market.", p));
    return by(t("You sold {sold} at the market.", p), t("{actor} sold {sold} at the market.", p));
  },
  promote(e, { actor, by }) {
    const p = { actor, resource: goodName(e.resource) };
    return by(t("You promoted the {resource} partner.", p), t("{actor} promoted the {resource} partner.", p));
  },
  black_market(e) {
    return this.played(e);
  },
  artifact_used(e, { actor, by }) {
    const p = { actor, artifact: this.cardN("artifacts", e.artifact) };
    return by(t("You used {artifact}.", p), t("{actor} used {artifact}.", p));
  },
  artifact(e, { actor, by }) {
    const p = { actor, artifact: this.cardN("artifacts", e.artifact) };
    return by(t("You received the artifact {artifact}.", p), t("{actor} received the artifact {artifact}.", p));
  },
  artifact_options(e) {
    const cards = (e.options || []).map((a) => this.cardN("artifacts", a));
    return tn("You drew {n} artifact to choose from: {cards}.", "You drew {n} artifacts to choose from: {cards}.",
      cards.length, { cards: cards.join(", ") });
  },
  artifact_offered(e, { actor, by }) {
    return by(t("You choose an artifact."), t("{actor} chooses an artifact.", { actor }));
  },
  artifact_gone(e, { actor, by }) {
    return by(t("No artifact left for you."), t("No artifact left for {actor}.", { actor }));
  },
  quest_choice_open(e, { actor, by }) {
    return by(t("You face a quest's choice."), t("{actor} faces a quest's choice.", { actor }));
  },
  quest_choice(e, { actor, by }) {
    const q = e.card ? this.cat.quests?.[e.card] : null;
    if (!q) return by(t("You made a quest choice."), t("{actor} made a quest choice.", { actor }));
    const p = { actor, option: q.immediate?.[e.option] ?? String(e.option + 1), quest: q.name };
    return by(t("You chose \u201c{option}\u201d on {quest}.", p), t("{actor} chose \u201c{option}\u201d on {quest}.", p));
  },
  quest_choice_lapsed(e, { actor, by }) {
    return by(t("You could take none of the quest's options."),
    t("{actor} could take none of the quest's options.", { actor }));
  },
  quest_discarded(e, { mine, actor }) {
    return mine ? null : t("{actor} discarded a quest.", { actor });
  },
  quest_discarded_card(e) {
    return t("You discarded {quest}.", { quest: this.cardN("quests", e.card) });
  },
  business_blind(e, { mine, actor }) {
    return mine ? null : t("{actor} drew a business card from the deck.", { actor });
  },
  business_taken(e, { actor, by }) {
    const p = { actor, card: this.cardN("business", e.card) };
    return by(t("You took {card} from the display.", p), t("{actor} took {card} from the display.", p));
  },
  draw(e, { mine, actor }) {
    if (mine) return null;
    const p = { actor };
    return e.deck === "quests"
      ? tn("{actor} drew {n} quest card.", "{actor} drew {n} quest cards.", e.count, p)
      : tn("{actor} drew {n} black-market card.", "{actor} drew {n} black-market cards.", e.count, p);
  },
  drew(e) {
    const cards = (e.cards || []).map((c) => this.anyCardN(c));
    const p = { card: cards[0], cards: cards.join(", ") };
    if (cards.length === 1) {
      if (e.deck === "quests") return t("You drew the quest {card}.", p);
      if (e.deck === "black_market") return t("You drew the black-market card {card}.", p);
      if (e.deck === "business") return t("You drew the business card {card}.", p);
      return t("You drew the card {card}.", p);
    }
    if (e.deck === "quests") return tn("You drew {n} quest: {cards}.", "You drew {n} quests: {cards}.", cards.length, p);
    if (e.deck === "black_market") {
      return tn("You drew {n} black-market card: {cards}.", "You drew {n} black-market cards: {cards}.", cards.length, p);
    }
    if (e.deck === "business") {
      return tn("You drew {n} business card: {cards}.", "You drew {n} business cards: {cards}.", cards.length, p);
    }
    return tn("You drew {n} card: {cards}.", "You drew {n} cards: {cards}.", cards.length, p);
  },
  prestige(e, { actor, by }) {
    const p = { actor, amount: goodWords(Math.abs(e.delta), "prestige"), total: e.prestige };
    if (e.delta >= 0) return by(t("You gained {amount} (now {total}).", p), t("{actor} gained {amount} (now {total}).", p));
    return by(t("You lost {amount} (now {total}).", p), t("{actor} lost {amount} (now {total}).", p));
  },
  ascension(e, { actor, by }) {
    const p = { actor, amount: goodWords(e.threshold, "prestige") };
    return by(t("You reached {amount}: a black-market card.", p), t("{actor} reached {amount}: a black-market card.", p));
  },
  end_triggered(e, { actor, by }) {
    const p = { actor, amount: goodWords(e.prestige, "prestige") };
    return by(t("You reached {amount}: this is the last round!", p), t("{actor} reached {amount}: this is the last round!", p));
  },
  badge(e, { actor, by }) {
    const p = { actor, badge: this.badge(e.badge) };
    return by(t("You took a {badge} badge.", p), t("{actor} took a {badge} badge.", p));
  },
  badge_lost(e, { actor, by }) {
    const p = { actor, badge: this.badge(e.badge) };
    return by(t("You returned a {badge} badge.", p), t("{actor} returned a {badge} badge.", p));
  },
  badge_gone(e, { actor, by }) {
    const p = { actor, badge: this.badge(e.badge) };
    return by(t("No {badge} badge left for you.", p), t("No {badge} badge left for {actor}.", p));
  },
  teleport(e, { actor, by }) {
    const p = { actor, place: this.placeN(e.territory === "home" ? this.players[e.seat]?.position : e.territory) };
    return by(t("You went at once to {place}.", p), t("{actor} went at once to {place}.", p));
  },
  gold(e, { actor, by }) {
    const p = { actor, gold: goodWords(Math.abs(e.delta), "gold") };
    if (e.delta >= 0) return by(t("You gained {gold}.", p), t("{actor} gained {gold}.", p));
    return by(t("You lost {gold}.", p), t("{actor} lost {gold}.", p));
  },
  revenue(e, { actor, by }) {
    const p = { actor, revenue: e.revenue };
    if (e.delta >= 0) return by(t("Your revenue rose to {revenue}.", p), t("{actor}'s revenue rose to {revenue}.", p));
    return by(t("Your revenue fell to {revenue}.", p), t("{actor}'s revenue fell to {revenue}.", p));
  },
  resources(e, { actor, by }) {
    if (!e.delta) return null;
    const p = { actor, goods: goodWords(Math.abs(e.delta), e.resource) };
    if (e.delta > 0) return by(t("You took {goods}.", p), t("{actor} took {goods}.", p));
    return by(t("You lost {goods}.", p), t("{actor} lost {goods}.", p));
  },
  extra_actions(e, { actor, by }) {
    const p = { actor };
    return by(tn("You gained {n} extra action.", "You gained {n} extra actions.", e.count, p),
      tn("{actor} gained {n} extra action.", "{actor} gained {n} extra actions.", e.count, p));
  },
  actions_lost(e, { actor, by }) {
    const p = { actor };
    return by(tn("You will have {n} action fewer next turn.", "You will have {n} actions fewer next turn.", e.count, p),
      tn("{actor} will have {n} action fewer next turn.", "{actor} will have {n} actions fewer next turn.", e.count, p));
  },
  steal(e, { mine, actor }) {
    const p = { actor, target: this.name(e.target),
      goods: e.gold !== undefined ? goodWords(e.gold, "gold") : goodWords(e.count, e.resource) };
    if (mine) return t("You took {goods} from {target}.", p);
    if (this.isMe(e.target)) return t("{actor} took {goods} from you.", p);
    return t("{actor} took {goods} from {target}.", p);
  },
  offer(e, { actor, by }) {
    const p = { actor, give: this.bundle(e.give), want: this.bundle(e.want), to: this.toWhom(e.addressees) };
    if (e.counter_of !== null && e.counter_of !== undefined) {
      return by(t("You countered with an offer of {give} for {want} {to}.", p),
        t("{actor} countered with an offer of {give} for {want} {to}.", p));
    }
    return by(t("You offered {give} for {want} {to}.", p), t("{actor} offered {give} for {want} {to}.", p));
  },
  offer_withdrawn(e, { actor, by }) {
    return by(t("You withdrew an offer."), t("{actor} withdrew an offer.", { actor }));
  },
  offer_declined(e, { actor, by }) {
    return by(t("You declined an offer."), t("{actor} declined an offer.", { actor }));
  },
  trade(e) {
    return this.trade(e.from, e.seat, e.give, e.want);
  },
  offer_status() {
    return null;
  },
  offers_closed() {
    return t("Trading is closed: the open offers were closed.");
  },
  game_over(e) {
    return this.gameOver(e.winners || []);
  },
};

export class Words {
  constructor(content) {
    this.content = content;
    this.cat = content.catalogue;
    this.terr = Object.fromEntries(content.map.territories.map((x) => [x.id, x]));
    this.players = [];
    this.me = null;
  }

  setView(view) {
    this.players = view.players || [];
    this.me = view.seat ?? null;
  }

  /** Whether `seat` is the reader. */
  isMe(seat) {
    return seat !== null && seat !== undefined && seat === this.me;
  }

  /** A seat's name, or "You" for the reader (a name alone: the winner line, a badge). */
  who(seat) {
    if (seat === null || seat === undefined) return t("someone");
    if (this.isMe(seat)) return t("You");
    return this.name(seat);
  }

  /** A seat's name, never "you". */
  name(seat) {
    if (seat === null || seat === undefined) return t("someone");
    return this.players[seat]?.name ?? t("Seat {n}", { n: seat + 1 });
  }

  /** The object form: "you" rather than "You". */
  whom(seat) {
    return this.isMe(seat) ? t("you") : this.who(seat);
  }

  /** "mine" if the reader did it, else "other": the two messages are both written out. */
  by(seat, mine, other) {
    return this.isMe(seat) ? mine : other;
  }

  /** "to Bo", "to Bo and Cy", "to anyone" (an offer's addressees). */
  toWhom(to) {
    if (to === null || to === undefined) return t("to anyone");
    const names = to.map((x) => this.whom(x));
    return t("to {names}", { names: joinAnd(names) });
  }

  bundle(b) { return bundleWords(b, this); }
  good(n, r) { return goodWords(n, r); }
  goodName(r) { return goodName(r); }

  /** A completed trade: "Ana gave 2 gold to Bo for 1 wine." (from: the offer's author). */
  trade(from, taker, give, want) {
    const gave = !bundleEmpty(give);
    const got = !bundleEmpty(want);
    if (gave && got) {
      const p = { actor: this.name(from), other: this.name(taker), give: this.bundle(give), want: this.bundle(want) };
      if (this.isMe(from)) return t("You gave {give} to {other} for {want}.", p);
      if (this.isMe(taker)) return t("{actor} gave {give} to you for {want}.", p);
      return t("{actor} gave {give} to {other} for {want}.", p);
    }
    // A gift one way: who gave what to whom.
    const [giver, getter, what] = gave ? [from, taker, give] : [taker, from, want];
    const p = { actor: this.name(giver), other: this.name(getter), give: this.bundle(what) };
    if (this.isMe(giver)) return t("You gave {give} to {other}.", p);
    if (this.isMe(getter)) return t("{actor} gave {give} to you.", p);
    return t("{actor} gave {give} to {other}.", p);
  }

  place(id) { return this.terr[id]?.name ?? id; }
  // The same names with their article in the page's language, for a message's
  // {param:form} (static/js/i18n.js form(): "{place:au}" -> "aux Dunes Rouges").
  placeN(id) { return noun(this.place(id), this.terr[id]?.article); }
  cardN(kind, id) { return noun(this.card(kind, id), this.cat[kind]?.[id]?.article); }
  villaN(id) { return noun(this.villa(id), this.content.articles?.[id]); }
  inhabitantN(id) { return noun(this.inhabitant(id), this.cat.inhabitants?.[id]?.article); }
  anyCardN(id) {
    for (const kind of ["business", "quests", "black_market", "artifacts"]) {
      if (this.cat[kind]?.[id]) return this.cardN(kind, id);
    }
    return noun(id);
  }
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
    return Object.entries(obj || {}).filter(([, n]) => n).map(([r, n]) => goodWords(n, r)).join(" + ");
  }

  /** One event in words, or null for those not worth a line. */
  sentence(e) {
    const actor = this.name(e.seat);
    const mine = this.isMe(e.seat);
    const by = (you, other) => (mine ? you : other);
    const say = SENTENCES[e.type];
    return say ? say.call(this, e, { mine, actor, by }) : e.type.replaceAll("_", " ");
  }

  /** A black-market card played: by you or another, on you, another or nobody. */
  played(e) {
    const p = { actor: this.name(e.seat), card: this.card("black_market", e.card), target: this.name(e.target),
      resource: e.resource ? goodName(e.resource) : "" };
    const on = e.target !== null && e.target !== undefined;
    const mine = this.isMe(e.seat);
    if (on && e.resource) {
      if (mine) return t("You played {card} on {target} ({resource}).", p);
      if (this.isMe(e.target)) return t("{actor} played {card} on you ({resource}).", p);
      return t("{actor} played {card} on {target} ({resource}).", p);
    }
    if (on) {
      if (mine) return t("You played {card} on {target}.", p);
      if (this.isMe(e.target)) return t("{actor} played {card} on you.", p);
      return t("{actor} played {card} on {target}.", p);
    }
    if (e.resource) return mine ? t("You played {card} ({resource}).", p) : t("{actor} played {card} ({resource}).", p);
    return mine ? t("You played {card}.", p) : t("{actor} played {card}.", p);
  }

  /** "The game is over. Ana wins!" / "You win!" / "Ana and you share the win!" */
  gameOver(winners) {
    if (winners.length === 1) {
      return this.isMe(winners[0]) ? t("The game is over. You win!")
        : t("The game is over. {actor} wins!", { actor: this.name(winners[0]) });
    }
    const others = winners.filter((x) => !this.isMe(x)).map((x) => this.name(x));
    if (others.length < winners.length) {
      return t("The game is over. {names} and you share the win!", { names: joinAnd(others) });
    }
    return t("The game is over. {names} share the win!", { names: joinAnd(others) });
  }

  /** A legal command in words, for buttons and labels. */
  command(cmd, view) {
    const me = view?.players?.[view.seat];
    switch (cmd.type) {
      case "move": return t("Move to {place}", { place: this.placeN(cmd.to) });
      case "harvest": {
        const res = this.terr[me?.position]?.resource;
        return res ? t("Harvest {resource}", { resource: goodName(res) }) : t("Harvest");
      }
      case "work": return t("Work (+{gold})", { gold: goodWords(view ? workGold(view, this.content) : 1, "gold") });
      case "build": {
        const card = this.cardN("business", cmd.card);
        return cmd.bonus ? t("Build {card} + bonus", { card }) : t("Build {card}", { card });
      }
      case "interact": {
        const who = view?.board?.inhabitants?.[me?.position];
        return who ? t("Meet {who}", { who: this.inhabitantN(who) }) : t("Meet the inhabitant");
      }
      case "complete_quest": {
        const q = this.cat.quests?.[cmd.card];
        const quest = q?.name ?? cmd.card;
        return q?.options?.length > 1 ? t("Complete {quest}: {option}", { quest, option: q.options[cmd.option] })
          : t("Complete {quest}", { quest });
      }
      case "deliver": return t("Deliver");
      case "recruit_partner": return t("Recruit the {resource} partner", { resource: goodName(cmd.resource) });
      case "buy_villa": return t("Buy {villa}", { villa: this.villaN(cmd.villa) });
      case "market": {
        const p = { bought: this.pairs(cmd.buy), sold: this.pairs(cmd.sell) };
        if (p.bought && p.sold) return t("Market: buy {bought}, sell {sold}", p);
        if (p.bought) return t("Market: buy {bought}", p);
        return t("Market: sell {sold}", p);
      }
      case "end_turn": return t("End turn");
      case "promote_partner": return t("Promote the {resource} partner", { resource: goodName(cmd.resource) });
      case "play_black_market": {
        const p = { card: this.cardN("black_market", cmd.card), target: this.name(cmd.target),
          resource: cmd.resource ? goodName(cmd.resource) : "" };
        const on = cmd.target !== undefined && cmd.target !== null;
        if (on && cmd.resource) return t("Play {card} on {target} ({resource})", p);
        if (on) return t("Play {card} on {target}", p);
        if (cmd.resource) return t("Play {card} ({resource})", p);
        return t("Play {card}", p);
      }
      case "use_artifact": return t("Use {artifact}", { artifact: this.cardN("artifacts", cmd.artifact) });
      case "draft_pick": return t("Keep {card}", { card: this.cardN("business", cmd.card) });
      case "choose_artifact": return t("Take {artifact}", { artifact: this.cardN("artifacts", cmd.artifact) });
      case "quest_choice": {
        const q = this.cat.quests?.[cmd.card];
        return q?.immediate?.[cmd.option] ?? t("Option {n}", { n: cmd.option + 1 });
      }
      case "discard_quest": return t("Discard {quest}", { quest: this.cardN("quests", cmd.card) });
      case "pick_business": return cmd.card === "deck" ? t("Draw blind from the deck")
        : t("Take {card}", { card: this.cardN("business", cmd.card) });
      default: return cmd.type.replaceAll("_", " ");
    }
  }
}
