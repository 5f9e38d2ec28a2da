// Merchants of the Dark Road in words: names of places, cards, goods and players, the
// effects of events and dice, every command as a label and every event as a sentence.
// Every text goes through the catalogue (../../i18n.js): a sentence about the reader and
// one about another player are two messages, and counts go through tn().
import { noun, t, tn, tp } from "../../i18n.js";

export const GOOD_COLOURS = {
  weapon: "#b03a2e", armor: "#5d6d7e", potion: "#8e44ad",
  staff: "#a0522d", book: "#1f618d", instrument: "#c9a10b", upgrade: "#2e8b57",
};
export const GOOD_LETTER = { weapon: "W", armor: "A", potion: "P", staff: "S", book: "B", instrument: "I", upgrade: "+" };

/** Each good's words: its name, upgraded, with its article, and counted. */
const GOODS = {
  weapon: { name: () => t("weapon"), up: () => t("upgraded weapon"), a: () => t("a weapon"), aUp: () => t("an upgraded weapon"),
    n: (n) => tn("{n} weapon", "{n} weapons", n), letter: () => tp("good letter", "W") },
  armor: { name: () => t("armor"), up: () => t("upgraded armor"), a: () => t("a suit of armor"), aUp: () => t("an upgraded suit of armor"),
    n: (n) => tn("{n} armor", "{n} armors", n), letter: () => tp("good letter", "A") },
  potion: { name: () => t("potion"), up: () => t("upgraded potion"), a: () => t("a potion"), aUp: () => t("an upgraded potion"),
    n: (n) => tn("{n} potion", "{n} potions", n), letter: () => tp("good letter", "P") },
  staff: { name: () => t("staff"), up: () => t("upgraded staff"), a: () => t("a staff"), aUp: () => t("an upgraded staff"),
    n: (n) => tn("{n} staff", "{n} staves", n), letter: () => tp("good letter", "S") },
  book: { name: () => t("book"), up: () => t("upgraded book"), a: () => t("a book"), aUp: () => t("an upgraded book"),
    n: (n) => tn("{n} book", "{n} books", n), letter: () => tp("good letter", "B") },
  instrument: { name: () => t("instrument"), up: () => t("upgraded instrument"), a: () => t("an instrument"), aUp: () => t("an upgraded instrument"),
    n: (n) => tn("{n} instrument", "{n} instruments", n), letter: () => tp("good letter", "I") },
  upgrade: { name: () => t("hidden compartment"), up: () => t("hidden compartment"), a: () => t("a hidden compartment"), aUp: () => t("a hidden compartment"),
    n: (n) => tn("{n} hidden compartment", "{n} hidden compartments", n), letter: () => "+" },
};

/** The letter drawn on a good's tile (the initial of its name in the page's language). */
export function goodLetter(good) {
  return GOODS[good]?.letter() ?? GOOD_LETTER[good] ?? "?";
}

// The five districts of the Ringway, in a sentence ("the Great Bazaar") and as titles.
const DISTRICT_TEXT = {
  bazaar: () => t("the Great Bazaar"),
  commissions: () => t("the Queen's Commissions"),
  dark_market: () => t("the Dark Market"),
  excursions: () => t("Yurg's Excursions"),
  inn: () => t("the Ringway Inn"),
};
const DISTRICT_TITLE = {
  bazaar: () => t("Great Bazaar"), commissions: () => t("Queen's Commissions"), dark_market: () => t("Dark Market"),
  excursions: () => tp("district title", "Yurg's Excursions"), inn: () => t("Ringway Inn"),
};
// A district title's article in the page's language (le, la, l', les; none in English).
const DISTRICT_ARTICLE = {
  bazaar: () => tp("article", "Great Bazaar"), commissions: () => tp("article", "Queen's Commissions"),
  dark_market: () => tp("article", "Dark Market"), excursions: () => tp("article", "Yurg's Excursions"),
  inn: () => tp("article", "Ringway Inn"),
};
/** A district's title with its article, for a message's {param:form} ("face {a:au}"). */
export function districtNoun(id) { return noun(districtTitle(id), DISTRICT_ARTICLE[id]?.()); }
/** "the Great Bazaar" (in a sentence). */
export function district(id) { return DISTRICT_TEXT[id]?.() ?? id; }
/** "Great Bazaar" (a title). */
export function districtTitle(id) { return DISTRICT_TITLE[id]?.() ?? id; }
export const DISTRICT_IDS = Object.keys(DISTRICT_TEXT);

/** The four steps of a turn, in the page's language. */
export function steps() {
  return [
    { id: "plan", name: t("Plan"), hint: t("Bump a locked night die into your action pool") },
    { id: "move", name: t("Move"), hint: t("Move your wagon by one die of your action pool") },
    { id: "activate", name: t("Activate"), hint: t("Use the districts (and building) your wagon faces") },
    { id: "rest", name: t("Rest"), hint: t("End your turn: upkeep and the next player") },
  ];
}

const ABILITIES = {
  deliver_hero: () => t("Deliver a hero to their town"),
  gain_commission: () => t("Gain an available commission"),
  two_lanterns: () => t("Gain 2 lanterns"),
  illuminated_die: () => t("Gain an illuminated die"),
  gain_hero: () => t("Gain an available hero"),
  twin_travel_die: () => t("Duplicate your travel die's benefit"),
  harbor_good: () => t("A basic good not on the wheel"),
  basic_good: () => t("A basic good of your choice"),
  ruins_step: () => t("Move the ruins marker 1 space and take its good"),
  oracle: () => t("Roll the oracle die"),
  craft_upgraded: () => t("Craft an upgraded good (locked slot 1)"),
  travel_boost: () => t("+1 or +2 on your travel die"),
  deed: () => t("Gain a deed and its bonus"),
  free_shortcut: () => t("A shortcut without lanterns this turn"),
  upgrade_or_dark_market: () => t("A wagon upgrade, or the dark market 1 space"),
  ruins_die: () => t("Roll the ruins die"),
};
export const ABILITY_IDS = Object.keys(ABILITIES);

const RUINS_DIE = {
  again: () => t("the ruins action again"), illuminated: () => t("an illuminated die (on a second roll)"),
  cheap_good: () => t("a basic good worth $1"), quartz: () => t("a blazing quartz"), two_coins: () => t("2 coins"), hero: () => t("a hero"),
};
const SLOT_OPTIONS = {
  lantern: () => t("gain a lantern"), illuminated: () => t("move an illuminated die to the action pool"),
  both: () => t("a lantern and an illuminated die"), coins: () => t("gain coins"), rotate: () => t("rotate the market wheel"),
  prestige: () => t("gain 1 prestige"),
};
const FORTUNES = { die: () => t("an illuminated die"), deed: () => t("a deed"), coins: () => t("coins"), upgrade: () => t("a wagon upgrade") };
const RESOURCE = { quartz: () => t("a blazing quartz"), horseshoes: () => t("a horseshoe"), horseshoe: () => t("a horseshoe"), lantern: () => t("a lantern"), coins: () => t("2 coins") };
const RUINS_SPACE = { bottom_left: () => t("bottom left"), top_left: () => t("top left"), top_right: () => t("top right"), bottom_right: () => t("bottom right") };
const COMPASS = { north: () => t("north"), east: () => t("east"), south: () => t("south"), west: () => t("west") };
const HERO_TYPES = {
  knight: () => t("knight"), skirmisher: () => t("skirmisher"), alchemist: () => t("alchemist"),
  bard: () => t("bard"), wizard: () => t("wizard"), loremaster: () => t("loremaster"),
};
const HERO_BONUS = { lantern: () => t("a lantern"), horseshoe: () => t("a horseshoe"), storage: () => t("stores 1 good"), none: () => "" };
const COMPANION_KIND = { loyal: () => t("loyal"), stray: () => t("stray") };
const GIFTS = { quartz: () => t("a blazing quartz"), potion: () => t("a potion"), hero: () => t("a hero"), horseshoe: () => t("a horseshoe") };
const STEED_TEXT = {
  bazaar_discount: () => t("$2 off at the Bazaar"), any_building: () => t("an illuminated die activates any building"),
  excursion_lantern: () => t("a lantern at Yurg's Excursions"), move_three: () => t("may move exactly 3; a 2x2 saddle bag"),
  many_upgrades: () => t("any number of upgrades, +2 prestige each"), travel_plus_one: () => t("+1 on your travel die"),
  commission_quartz: () => t("a quartz per upgraded good delivered"),
};

// The counted resources whose events a sentence may already have spelled out.
const GAINS = ["coins", "prestige", "lanterns", "quartz", "horseshoes"];

export const cap = (x) => (x ? x.charAt(0).toUpperCase() + x.slice(1) : x);

/** "a, b and c" in the page's language. */
export function listOf(items) {
  const list = (items || []).filter(Boolean);
  if (!list.length) return t("nothing");
  if (list.length === 1) return list[0];
  return t("{list} and {last}", { list: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

/** Each event type's sentence (`this`: the Words; `me`: the reader's own, `actor`: the seat's name, `two(you, other)`: the sentence for the reader or about another). */
const SENTENCES = {
  game_started() { return t("The game begins: 13 rounds of winter."); },
  round(e) { return this.c.rules.removal_rounds.includes(e.round - 1) ? t("Round {round} begins (a night die left the game).", { round: e.round }) : t("Round {round} begins.", { round: e.round }); },
  plan(e, { actor, two }) {
    return two(t("You bump locked slot {slot}: a {die} goes to the action pool.", { slot: e.slot, die: e.die }),
    t("{actor} bumps locked slot {slot}: a {die} goes to the action pool.", { actor, slot: e.slot, die: e.die }));
  },
  dice_reset(e, { actor, two }) { return two(t("You reset the locked dice to 1-2-3."), t("{actor} resets the locked dice to 1-2-3.", { actor })); },
  moved(e, { actor, two }) {
    const at = e.space ?? e.to;
    const p = { actor, n: e.steps, a: district(this.c.board.ringway[at]), b: district(this.c.board.ringway[(at + 1) % 5]) };
    return two(tn("You move {n} space, between {a} and {b}.", "You move {n} spaces, between {a} and {b}.", e.steps, p),
      tn("{actor} moves {n} space, between {a} and {b}.", "{actor} moves {n} spaces, between {a} and {b}.", e.steps, p));
  },
  activated(e, { actor, two }) { return two(t("You visit {place}.", { place: this.target(e.target) }), t("{actor} visits {place}.", { actor, place: this.target(e.target) })); },
  wheel_rotated(e, { actor, two }) { return two(t("You rotate the market wheel."), t("{actor} rotates the market wheel.", { actor })); },
  market_die_changed(e, { actor, two }) { const p = { actor, from: this.good(e.from), to: this.good(e.good ?? e.to) }; return two(t("You turn a market die from {from} to {to}.", p), t("{actor} turns a market die from {from} to {to}.", p)); },
  bought(e, { actor, two }) {
    if (!e.goods.length) return two(t("You buy nothing at the Bazaar."), t("{actor} buys nothing at the Bazaar.", { actor }));
    const p = { actor, goods: this.goodsList(e.goods) };
    return two(t("You buy {goods} at the Bazaar.", p), t("{actor} buys {goods} at the Bazaar.", p));
  },
  commission(e, { actor, two }) { const p = { actor, commission: this.commission(e.commission) }; return two(t("You take {commission}.", p), t("{actor} takes {commission}.", p)); },
  commission_delivered(e, { actor, two }) {
    const p = { actor, commission: this.commission(e.commission) };
    return two(tn("You deliver {n} good for {commission}.", "You deliver {n} goods for {commission}.", e.goods, p),
      tn("{actor} delivers {n} good for {commission}.", "{actor} delivers {n} goods for {commission}.", e.goods, p));
  },
  commission_discarded(e, { actor, two }) { const p = { actor, commission: this.commission(e.commission) }; return two(t("You discard {commission}.", p), t("{actor} discards {commission}.", p)); },
  dark_market(e, { actor, two }) { const p = { actor, space: this.darkMarketSpace(e.space) }; return two(t("You trade in the Dark Market ({space}).", p), t("{actor} trades in the Dark Market ({space}).", p)); },
  sold(e, { actor, two }) { const p = { actor, goods: this.goodsList(e.goods), hero: this.hero(e.hero) }; return two(t("You sell {goods} to {hero}.", p), t("{actor} sells {goods} to {hero}.", p)); },
  hero_joined(e, { actor, two }) { const p = { actor, hero: this.hero(e.hero) }; return two(t("{hero} joins your wagon.", p), t("{hero} joins {actor}'s wagon.", p)); },
  hero_delivered(e, { actor, two }) { const p = { actor, hero: this.hero(e.hero), town: this.town(e.town) }; return two(t("You bring {hero} to {town}.", p), t("{actor} brings {hero} to {town}.", p)); },
  hero_discarded(e, { actor, two }) { const p = { actor, hero: this.hero(e.hero) }; return two(t("You let {hero} go.", p), t("{actor} lets {hero} go.", p)); },
  ruins(e, { actor, two }) { const p = { actor, space: RUINS_SPACE[e.space]?.() ?? String(e.space).replaceAll("_", " ") }; return two(t("You search the Ruins of Yin ({space}).", p), t("{actor} searches the Ruins of Yin ({space}).", p)); },
  ruins_die(e, { actor, two }) {
    const p = { actor, face: this.ruinsFace(e.face) };
    if (e.seat === undefined) return e.reroll ? t("Rerolled, the ruins die shows {face}.", p) : t("The ruins die shows {face}.", p);
    if (e.reroll) return two(t("You roll the ruins die again: {face}.", p), t("{actor} rolls the ruins die again: {face}.", p));
    return two(t("You roll the ruins die: {face}.", p), t("{actor} rolls the ruins die: {face}.", p));
  },
  oracle(e, { actor, two }) { this.spelled(e.seat, this.c.board.oracle_die?.[e.face]); const p = { actor, effects: this.effects(this.c.board.oracle_die?.[e.face]) }; return two(t("The oracle die gives you: {effects}.", p), t("The oracle die gives {actor}: {effects}.", p)); },
  caravan(e, { actor, two }) {
    const p = { actor, town: this.town(e.town), companion: this.companion(e.companion) };
    if (e.route === "shortcut") return two(t("You lead a caravan to {town} by a shortcut, with {companion}.", p), t("{actor} leads a caravan to {town} by a shortcut, with {companion}.", p));
    return two(t("You lead a caravan to {town} by the dark road, with {companion}.", p), t("{actor} leads a caravan to {town} by the dark road, with {companion}.", p));
  },
  join(e, { actor, two }) {
    return e.yes ? two(t("You join the caravan."), t("{actor} joins the caravan.", { actor }))
    : two(t("You stay home."), t("{actor} stays home.", { actor }));
  },
  event(e) { return t("Event: {event}. The travel dice show {dice}.", { event: this.event(e.event), dice: (e.dice || []).join(", ") }); },
  travel_reroll(e, { actor, two }) { const p = { actor, dice: (e.dice || []).join(", ") }; return two(t("You spend a lantern to reroll: {dice}.", p), t("{actor} spends a lantern to reroll: {dice}.", p)); },
  travel_die(e, { actor, two }) {
    const ev = this.events[this.view?.board?.travel?.event];
    const p = { actor, value: e.value, face: e.face, effects: ev ? this.effects(ev.faces[String(e.face)]) : "" };
    if (ev) this.spelled(e.seat, ev.faces[String(e.face)]);
    if (e.face !== e.value && ev) return two(t("You take the {value} (counted as {face}): {effects}.", p), t("{actor} takes the {value} (counted as {face}): {effects}.", p));
    if (e.face !== e.value) return two(t("You take the {value} (counted as {face}).", p), t("{actor} takes the {value} (counted as {face}).", p));
    if (ev) return two(t("You take the {value}: {effects}.", p), t("{actor} takes the {value}: {effects}.", p));
    return two(t("You take the {value}.", p), t("{actor} takes the {value}.", p));
  },
  visit(e, { actor, two }) {
    return e.town ? two(t("You visit {town}.", { town: this.town(e.town) }), t("{actor} visits {town}.", { actor, town: this.town(e.town) }))
    : two(t("You pass the towns by."), t("{actor} passes the towns by.", { actor }));
  },
  fortune(e, { actor, two }) { const p = { actor, fortune: this.fortune(e.kind) }; return two(t("You receive a good fortune: {fortune}.", p), t("{actor} receives a good fortune: {fortune}.", p)); },
  caravan_done() { return t("The caravan is home."); },
  final_travel() { return t("Winter is over: everyone travels one last time to deliver."); },
  gift(e, { actor, two }) { const p = { actor, companion: this.companion(e.companion), ability: this.ability(e.ability) }; return two(t("You give a blazing quartz to {companion}: {ability}.", p), t("{actor} gives a blazing quartz to {companion}: {ability}.", p)); },
  stray(e, { actor, two }) {
    const n = this.view?.players?.length || 1;
    const nextSeat = n > 1 ? (e.seat + 1) % n : null;
    const p = { actor, companion: this.companion(e.companion), ability: this.ability(e.ability), next: this.name(nextSeat) };
    if (nextSeat === null) return two(t("You use {companion} ({ability}) and put it under the deck.", p), t("{actor} uses {companion} ({ability}) and puts it under the deck.", p));
    if (this.isMe(nextSeat)) return t("{actor} uses {companion} ({ability}) and passes it to you.", p);
    return two(t("You use {companion} ({ability}) and pass it to {next}.", p), t("{actor} uses {companion} ({ability}) and passes it to {next}.", p));
  },
  upgrade(e, { actor, two }) { const p = { actor, upgrade: this.upgrade(e.upgrade) }; return two(t("You fit a wagon upgrade: {upgrade}.", p), t("{actor} fits a wagon upgrade: {upgrade}.", p)); },
  upgraded(e, { actor, two }) { const p = { actor, good: this.aGood(e.good) }; return two(t("You upgrade {good}.", p), t("{actor} upgrades {good}.", p)); },
  steed(e, { actor, two }) { const p = { actor, steed: this.steed(e.steed) }; return two(t("You gain a second steed: {steed}.", p), t("{actor} gains a second steed: {steed}.", p)); },
  deed(e, { actor, two }) {
    if (e.from === "top") return two(t("You gain a deed (from the deck)."), t("{actor} gains a deed (from the deck).", { actor }));
    const p = { actor, n: Number(String(e.from).replace(/\D/g, "")) + 1 };
    return two(t("You gain a deed (courtyard space {n}).", p), t("{actor} gains a deed (courtyard space {n}).", p));
  },
  deed_taken(e) { return t("Your new deed: {deed}.", { deed: this.deed(e.deed) }); },
  deed_drawn(e, c) { return SENTENCES.deed_taken.call(this, e, c); },
  deed_kept(e) { return e.deed ? t("You keep {deed}.", { deed: this.deed(e.deed) }) : null; },
  drafted(e, { actor, two }) { const p = { actor, steed: this.steed(e.steed), hero: this.hero(e.hero) }; return two(t("You draft {steed} and {hero}.", p), t("{actor} drafts {steed} and {hero}.", p)); },
  illuminated(e, { actor, two }) { return two(t("You gain an illuminated die ({value}).", { value: e.value }), t("{actor} gains an illuminated die ({value}).", { actor, value: e.value })); },
  illuminated_lost(e, { actor, two }) {
    return two(t("You already have 2 illuminated dice: the new one stays in the supply."),
    t("{actor} already has 2 illuminated dice: the new one stays in the supply.", { actor }));
  },
  coins(e, { me }) {
    if (!me) return null;
    const n = Math.abs(e.delta);
    return e.delta >= 0 ? tn("You gain {n} coin.", "You gain {n} coins.", n) : tn("You pay {n} coin.", "You pay {n} coins.", n);
  },
  prestige(e, { actor, two }) {
    if (e.delta < 0) return two(tn("You lose {n} prestige.", "You lose {n} prestige.", -e.delta), tn("{actor} loses {n} prestige.", "{actor} loses {n} prestige.", -e.delta, { actor }));
    return two(tn("You gain {n} prestige.", "You gain {n} prestige.", e.delta), tn("{actor} gains {n} prestige.", "{actor} gains {n} prestige.", e.delta, { actor }));
  },
  lanterns(e, { actor, two }) {
    if (e.delta >= 0) return two(tn("You gain {n} lantern.", "You gain {n} lanterns.", e.delta), tn("{actor} gains {n} lantern.", "{actor} gains {n} lanterns.", e.delta, { actor }));
    return two(tn("You spend {n} lantern.", "You spend {n} lanterns.", -e.delta), tn("{actor} spends {n} lantern.", "{actor} spends {n} lanterns.", -e.delta, { actor }));
  },
  quartz(e, { actor, two }) {
    if (e.delta >= 0) return two(tn("You gain {n} blazing quartz.", "You gain {n} blazing quartz.", e.delta), tn("{actor} gains {n} blazing quartz.", "{actor} gains {n} blazing quartz.", e.delta, { actor }));
    return two(tn("You give up {n} blazing quartz.", "You give up {n} blazing quartz.", -e.delta), tn("{actor} gives up {n} blazing quartz.", "{actor} gives up {n} blazing quartz.", -e.delta, { actor }));
  },
  horseshoes(e, { actor, two }) {
    if (e.delta >= 0) return two(tn("You gain {n} horseshoe.", "You gain {n} horseshoes.", e.delta), tn("{actor} gains {n} horseshoe.", "{actor} gains {n} horseshoes.", e.delta, { actor }));
    return two(tn("You spend {n} horseshoe.", "You spend {n} horseshoes.", -e.delta), tn("{actor} spends {n} horseshoe.", "{actor} spends {n} horseshoes.", -e.delta, { actor }));
  },
  stored() { return null; },
  discarded(e, { actor, two }) { const p = { actor, good: this.aGood(e.good) }; return two(t("You discard {good}.", p), t("{actor} discards {good}.", p)); },
  lost_good(e, { actor, two }) { const p = { actor, good: this.aGood(e.good) }; return two(t("You lose {good} on the road.", p), t("{actor} loses {good} on the road.", p)); },
  rearranged() { return null; },
  turn_ended() { return null; },
  game_over() { return t("The game is over: final scoring."); },
};

export class Words {
  constructor(content) {
    this.c = content;
    const by = (list) => Object.fromEntries((list || []).map((x) => [x.id, x]));
    this.goods = by(content.board.goods);
    this.towns = by(content.board.towns);
    this.heroes = by(content.heroes);
    this.companions = by(content.companions);
    this.steeds = by(content.steeds);
    this.deeds = by(content.deeds);
    this.events = by(content.events);
    this.commissions = by(content.commissions);
    this.buildings = by(content.buildings);
    this.upgrades = by(content.upgrades);
    this.heroTown = Object.fromEntries(content.board.towns.map((x) => [x.hero_type, x.id]));
    this.view = null;
    this.names = {};
    this.said = null; // the gains the last sentence spelled out (`spelled`)
  }

  setView(view, room) {
    if (view) this.view = view;
    for (const p of this.view?.players || []) this.names[p.seat] = p.name;
    for (const s of room?.seats || []) this.names[s.index] ??= s.name;
  }

  /** Whether `seat` is the reader's. */
  isMe(seat) {
    return seat !== null && seat !== undefined && this.view !== null && seat === this.view.seat;
  }

  /** A player's name (never "You": sentences about the reader are messages of their own). */
  name(seat) {
    if (seat === null || seat === undefined) return t("Someone");
    return this.names[seat] ?? t("Seat {n}", { n: seat + 1 });
  }

  /** "You" for the reader, else the player's name (a label on its own, not in a sentence). */
  who(seat) {
    return this.isMe(seat) ? t("You") : this.name(seat);
  }

  good(id, up = false) {
    const g = GOODS[id];
    if (g) return up ? g.up() : g.name();
    return (this.goods[id]?.name ?? id ?? "").toLowerCase();
  }
  /** "a weapon" / "an upgraded weapon". */
  aGood(id, up = false) {
    const g = GOODS[id];
    if (g) return up ? g.aUp() : g.a();
    return this.good(id, up);
  }
  /** "2 weapons". */
  goodCount(id, n) {
    const g = GOODS[id];
    return g ? g.n(n) : `${n} ${this.good(id)}`;
  }
  goodTitle(id, up = false) { return cap(this.good(id, up)); }
  town(id) { return this.towns[id]?.name ?? id; }
  hero(id) { return this.heroes[id]?.name ?? id; }
  heroType(type) { return HERO_TYPES[type]?.() ?? type; }
  heroBonus(bonus) { return HERO_BONUS[bonus]?.() ?? bonus ?? ""; }
  heroTownOf(id) { return this.heroTown[this.heroes[id]?.type]; }
  companion(id) { return this.companions[id]?.name ?? id; }
  companionKind(kind) { return COMPANION_KIND[kind]?.() ?? kind ?? ""; }
  gift(kind) { return GIFTS[kind]?.() ?? kind ?? "?"; }
  steed(id) { return this.steeds[id]?.name ?? id; }
  steedText(ability) { return STEED_TEXT[ability]?.() ?? ability ?? ""; }
  deed(id) { return this.deeds[id]?.name ?? id; }
  event(id) { return this.events[id]?.name ?? id; }
  /** A commission in words: its town and the goods it asks ("the Scorchborn commission
   *  (armor, book, potion)"); the catalogue's card name is not a word the table uses. */
  commission(id) {
    const k = this.commissions[id];
    return k ? t("the {town} commission ({goods})", { town: this.town(k.town), goods: listOf(k.requests.map((g) => this.good(g))) }) : id;
  }
  /** An event's flavour line, when it has one of its own (a line shared by several
   *  events says nothing about this one: left out). */
  flavour(ev) {
    if (!ev?.flavour) return null;
    const tail = (x) => (x.flavour || "").replace(x.name, "");
    const mine = tail(ev);
    return Object.values(this.events).filter((x) => tail(x) === mine).length > 1 ? null : ev.flavour;
  }
  building(id) { return this.buildings[id]?.name ?? DISTRICT_TITLE[id]?.() ?? id; }
  upgrade(id) { return this.upgrades[id]?.name ?? id; }
  target(id) { return DISTRICT_TEXT[id]?.() ?? this.building(id); }
  ability(a) { return ABILITIES[a]?.() ?? String(a).replaceAll("_", " "); }
  resource(r) { return RESOURCE[r]?.() ?? r; }
  fortune(kind) { return FORTUNES[kind]?.() ?? kind; }
  ruinsFace(face) { return RUINS_DIE[face]?.() ?? face; }

  goodsList(list) {
    const counts = {};
    for (const g of list || []) counts[g] = (counts[g] || 0) + 1;
    return listOf(Object.entries(counts).map(([g, n]) => (n > 1 ? this.goodCount(g, n) : this.aGood(g))));
  }

  /** One effect of the content ({coins: 2} ...) in words. */
  effect(e) {
    const out = [];
    const n = (k) => (e[k] !== null && e[k] !== undefined ? e[k] : null);
    if (n("coins")) out.push(e.coins < 0 ? tn("lose {n} coin", "lose {n} coins", -e.coins) : tn("gain {n} coin", "gain {n} coins", e.coins));
    if (n("prestige")) out.push(e.prestige < 0 ? tn("lose {n} prestige", "lose {n} prestige", -e.prestige) : tn("gain {n} prestige", "gain {n} prestige", e.prestige));
    if (n("lanterns")) out.push(e.lanterns < 0 ? tn("lose {n} lantern", "lose {n} lanterns", -e.lanterns) : tn("gain {n} lantern", "gain {n} lanterns", e.lanterns));
    if (n("quartz")) out.push(e.quartz < 0 ? tn("lose {n} blazing quartz", "lose {n} blazing quartz", -e.quartz) : tn("gain {n} blazing quartz", "gain {n} blazing quartz", e.quartz));
    if (n("horseshoes")) out.push(e.horseshoes < 0 ? tn("lose {n} horseshoe", "lose {n} horseshoes", -e.horseshoes) : tn("gain {n} horseshoe", "gain {n} horseshoes", e.horseshoes));
    if (e.good) out.push(t("gain {good}", { good: this.aGood(e.good, e.upgraded) }));
    if (e.any_good) out.push(e.upgraded ? t("gain an upgraded good of your choice") : t("gain a basic good of your choice"));
    if (e.cheap_good) out.push(t("gain a basic good worth $1"));
    if (e.lose_good) out.push(t("lose 1 good"));
    if (e.illuminated) out.push(t("gain an illuminated die"));
    return out.join(", ");
  }
  effects(list) { return listOf((list || []).map((e) => this.effect(e)).filter(Boolean)); }
  /** Whether an event face costs something (drawn red). */
  isCost(list) {
    return (list || []).some((e) => e.lose_good || ["coins", "prestige", "lanterns", "quartz", "horseshoes"].some((k) => (e[k] || 0) < 0));
  }

  /** What a plan command's slot gives (the label beside its slot). */
  planOption(cmd) {
    if (cmd.slot === 1) {
      return cmd.option ? t("gain {good}", { good: this.aGood(cmd.option) })
        : t("craft {good}", { good: this.aGood(this.c.board.crafting[String(cmd.die)]) });
    }
    return SLOT_OPTIONS[cmd.option]?.() ?? cmd.option;
  }

  /** The label of a legal command (what the button says). */
  command(cmd) {
    const v = this.view;
    const me = v?.players?.[v?.seat];
    switch (cmd.type) {
      case "draft": {
        const st = v?.board?.setup_stacks?.[cmd.stack] || [];
        const names = st.map((id) => (this.steeds[id] ? t("{steed} (steed)", { steed: this.steed(id) }) : this.heroes[id] ? this.hero(id) : id));
        return names.length ? t("Take {cards}", { cards: names.join(" + ") }) : t("Take stack {n}", { n: cmd.stack + 1 });
      }
      case "keep_deed": return t("Keep {deed}", { deed: this.deed(cmd.deed) });
      case "reset_dice": return t("Reset locked dice to 1-2-3");
      case "plan": {
        const option = this.planOption(cmd);
        return cmd.die == null ? t("Take slot {slot}: {option}", { slot: cmd.slot, option })
          : t("Die {die} bumps slot {slot}: {option}", { die: cmd.die, slot: cmd.slot, option });
      }
      case "move": {
        const n = cmd.die === "steed" ? 3 : cmd.die === "night" ? me?.pool?.night : me?.pool?.illuminated;
        if (cmd.horseshoe > 0) {
          return cmd.die === "steed" ? t("Move {n} +1 (horseshoe) with the steed", { n }) : cmd.die === "night"
            ? t("Move {n} +1 (horseshoe) with the night die", { n }) : t("Move {n} +1 (horseshoe) with the illuminated die", { n });
        }
        if (cmd.horseshoe < 0) {
          return cmd.die === "steed" ? t("Move {n} −1 (horseshoe) with the steed", { n }) : cmd.die === "night"
            ? t("Move {n} −1 (horseshoe) with the night die", { n }) : t("Move {n} −1 (horseshoe) with the illuminated die", { n });
        }
        return cmd.die === "steed" ? t("Move {n} with the steed", { n }) : cmd.die === "night"
          ? t("Move {n} with the night die", { n }) : t("Move {n} with the illuminated die", { n });
      }
      case "bazaar": return t("Visit the Great Bazaar");
      case "bazaar_rotate": return t("Rotate the market wheel");
      case "bazaar_change": return t("Change a {from} die to {to}", { from: this.good(cmd.source), to: this.good(cmd.good) });
      case "bazaar_buy": return cmd.goods.length ? t("Buy {goods}", { goods: this.goodsList(cmd.goods) }) : t("Buy nothing");
      case "take_commission": return t("Take the {town} commission", { town: this.town(cmd.town) });
      case "dark_market": {
        const space = this.c.board.dark_market[((v?.board?.dark_market ?? 0) + cmd.steps) % 4];
        const got = cmd.town ? this.pick(`commission:${cmd.town}`) : cmd.deed != null ? this.deedPick(cmd.deed) : this.goodsList(space.goods);
        return tn("{n} space ({n} coin) → {goods}", "{n} spaces ({n} coins) → {goods}", cmd.steps, { goods: got });
      }
      case "inn": return t("Sell {goods} to {hero}", { goods: this.piecesText(cmd.goods), hero: this.hero(v?.board?.inn?.[cmd.slot]) });
      case "ruins": return tn("{n} space → {good}", "{n} spaces → {good}", cmd.steps, { good: this.good(cmd.good, true) });
      case "caravan": return cmd.route === "shortcut" ? t("A shortcut to {town}", { town: this.town(cmd.town) }) : t("The dark road to {town}", { town: this.town(cmd.town) });
      case "building": return this.buildingCmd(cmd);
      case "use_companion": {
        const p = { companion: this.companion(cmd.companion), ability: this.ability(cmd.ability), pick: this.companionPick(cmd), hero: this.hero(cmd.gift) };
        if (p.pick && cmd.gift) return t("{companion}: {ability} ({pick}), giving {hero}", p);
        if (p.pick) return t("{companion}: {ability} ({pick})", p);
        if (cmd.gift) return t("{companion}: {ability}, giving {hero}", p);
        return t("{companion}: {ability}", p);
      }
      case "end_turn": return t("End turn (Rest)");
      case "place_good": return cmd.area == null ? t("Store it where it fits") : t("Store at {area} {x},{y}", { area: this.area(cmd.area), x: cmd.x + 1, y: cmd.y + 1 });
      case "discard_good": {
        if (cmd.piece != null) return t("Discard the stored {good}", { good: this.pieceText(cmd.piece) });
        const inc = v?.players?.[v.seat]?.incoming?.[0];
        return inc ? t("Discard the new {good}", { good: this.good(inc.good, inc.up) }) : t("Discard the new good");
      }
      case "rearrange": return t("Rearrange the storage");
      case "discard_hero": return t("Let {hero} go", { hero: this.hero(cmd.hero) });
      case "discard_commission": return t("Discard {commission}", { commission: this.commission(cmd.commission) });
      case "discard_resource": return t("Discard {resource}", { resource: this.resource(cmd.resource) });
      case "choose_good": return t("Take {good}", { good: this.aGood(cmd.good, Boolean(v?.private?.pending?.up)) });
      case "lose_good": return cmd.piece < 0 ? t("Lose the new {good}", { good: this.good(me?.incoming?.[-1 - cmd.piece]?.good) })
        : t("Lose the {good}", { good: this.pieceText(cmd.piece) });
      case "ruins_die": return cmd.roll ? t("Roll the ruins die (1 lantern)") : t("Don't roll");
      case "take_hero": return cmd.slot < 0 ? t("The top hero of the deck") : t("Take {hero}", { hero: this.hero(v?.board?.inn?.[cmd.slot]) });
      case "choose_steed": return t("Take {steed}", { steed: this.steed(cmd.steed) });
      case "join": return cmd.yes ? t("Yes, join the caravan") : t("No, stay home");
      case "reroll_travel": return t("Reroll the dice (1 lantern)");
      case "take_travel_die": {
        const face = cmd.value + (cmd.whisper ? 1 : 0) + cmd.boost;
        const extra = [cmd.whisper ? t("Whisper +1") : "", cmd.boost ? t("companion +{n}", { n: cmd.boost }) : "", cmd.twin != null ? t("+ the {n}'s benefit (Threy Cat)", { n: cmd.twin }) : ""].filter(Boolean).join(", ");
        const ev = this.events[v?.board?.travel?.event];
        const p = { value: cmd.value, extra, face, effects: ev ? this.effects(ev.faces[String(face)]) : "" };
        if (extra && ev) return t("Take the {value} ({extra}) = {face}: {effects}", p);
        if (extra) return t("Take the {value} ({extra}) = {face}", p);
        if (ev) return t("Take the {value}: {effects}", p);
        return t("Take the {value}", p);
      }
      case "visit": return cmd.town ? t("Visit {town}", { town: this.town(cmd.town) }) : t("Pass (no visit)");
      case "deliver_commission": return t("Deliver {goods} for {commission}", { goods: this.piecesText(cmd.goods), commission: this.commission(cmd.commission) });
      case "deliver_hero": return t("Deliver {hero}", { hero: this.hero(cmd.hero) });
      case "done_delivering": return t("Done delivering");
      case "fortune":
        if (cmd.kind === "deed") return t("A deed: {deed}", { deed: this.deedPick(cmd.deed) });
        if (cmd.kind === "upgrade") return t("Upgrade: {upgrade}", { upgrade: this.upgrade(cmd.upgrade) });
        if (cmd.kind === "coins") return tn("{n} coin", "{n} coins", v?.board?.fortune_coins ? 5 : 3);
        return cap(this.fortune(cmd.kind));
      default: return cmd.type.replaceAll("_", " ");
    }
  }

  /** A storage area's name ("grid", "saddle bag", a hero's slot). */
  area(name) {
    if (name === "main") return t("the wagon storage");
    if (name === "saddle") return t("the saddle bag");
    if (String(name).startsWith("hero:")) return t("{hero}'s slot", { hero: this.hero(String(name).slice(5)) });
    return String(name).replaceAll("_", " ");
  }

  /** A hero card's words: "Name: knight → Town; requests ...; bonus: ...". */
  heroLine(id) {
    const hero = this.heroes[id];
    if (!hero) return id;
    const p = { hero: hero.name, type: this.heroType(hero.type), town: this.town(this.heroTownOf(id)),
      requests: listOf(hero.requests.map((g) => this.good(g))), bonus: this.heroBonus(hero.bonus) };
    return p.bonus ? t("{hero}: {type} travelling to {town}; requests {requests}; bonus: {bonus}", p)
      : t("{hero}: {type} travelling to {town}; requests {requests}", p);
  }

  /** A tooltip for a command whose label names a card: what the card does. */
  hint(cmd) {
    switch (cmd.type) {
      case "choose_steed": return this.steeds[cmd.steed]?.flavour || null;
      case "keep_deed": return this.deeds[cmd.deed]?.text ?? null;
      case "fortune":
        if (cmd.kind === "upgrade") return this.upgrades[cmd.upgrade]?.text ?? null;
        if (cmd.kind === "deed" && cmd.deed >= 0) return this.deeds[this.view?.board?.courtyard?.[cmd.deed]]?.text ?? null;
        return null;
      case "building": return this.buildings[cmd.building]?.text ?? null;
      case "use_companion": return this.companions[cmd.companion]?.flavour || null;
      case "take_commission": {
        const top = this.view?.board?.commissions?.[cmd.town]?.top;
        return top ? t("Requests: {goods}", { goods: listOf(this.commissions[top].requests.map((g) => this.good(g))) }) : null;
      }
      case "take_hero": case "inn": {
        const id = this.view?.board?.inn?.[cmd.slot];
        return this.heroes[id] ? this.heroLine(id) : null;
      }
      default: return null;
    }
  }

  /** A deed pick (courtyard slot 0 or 1, -1 the deck's top) in words. */
  deedPick(d) { return this.pick(`deed:${d < 0 ? "top" : d}`); }

  /** A companion's choice (its typed fields) in words. */
  companionPick(cmd) {
    if (cmd.upgrade) return this.upgrade(cmd.upgrade);
    const inner = cmd.town ? this.pick(`commission:${cmd.town}`) : cmd.deed != null ? this.deedPick(cmd.deed) : "";
    if (cmd.dark_market) return inner ? t("dark market: {goods}", { goods: inner }) : t("dark market: its goods");
    if (inner) return inner;
    if (cmd.slot != null) return this.hero(this.view?.board?.inn?.[cmd.slot]);
    return this.pick(cmd.hero ?? cmd.good);
  }

  /** "deed:0", "commission:farglen", "hero:2", "upgrade:x", a good id ... in words. */
  pick(p) {
    if (p === null || p === undefined) return "";
    const s = String(p);
    const v = this.view;
    if (s.startsWith("deed:")) {
      const k = s.slice(5);
      if (k === "top") return t("the top deed of the deck (no bonus)");
      const id = v?.board?.courtyard?.[Number(k)];
      const banner = this.c.deed_banners?.[Number(k)];
      const deed = id ? this.deed(id) : t("a deed");
      return banner ? t("{deed} + {bonus}", { deed, bonus: this.effect(banner) }) : deed;
    }
    if (s.startsWith("commission:")) return t("the {town} commission", { town: this.town(s.slice(11)) });
    if (s.startsWith("hero:")) return this.hero(v?.board?.inn?.[Number(s.slice(5))]);
    if (s.startsWith("upgrade:")) return this.upgrade(s.slice(8));
    if (s.startsWith("dark_market:")) {
      const inner = this.pick(s.slice(12));
      return inner ? t("dark market: {goods}", { goods: inner }) : t("dark market: its goods");
    }
    if (s === "None") return "";
    if (this.goods[s]) return this.good(s);
    if (this.towns[s]) return this.town(s);
    if (this.heroes[s]) return this.hero(s);
    if (this.deeds[s]) return this.deed(s);
    if (/^\d+$/.test(s) && v?.board?.inn?.[Number(s)]) return this.hero(v.board.inn[Number(s)]);
    return s.replaceAll("_", " ");
  }

  piece(id) {
    const me = this.view?.players?.[this.view?.seat];
    return me?.pieces?.find((q) => q.id === id);
  }
  pieceText(id) {
    const q = this.piece(Number(id));
    return q ? this.good(q.good, q.up) : t("good");
  }
  piecesText(ids) { return (ids || []).map((i) => this.pieceText(i)).join(" + "); }

  buildingCmd(cmd) {
    return t("{building}: {option}", { building: this.building(cmd.building), option: this.buildingOption(cmd) });
  }

  /** What a building command does (the button beside the building's name). */
  buildingOption(cmd) {
    const pay = cmd.pay === "coins" ? t("2 coins") : cmd.pay === "quartz" ? t("a blazing quartz") : cmd.pay === "lantern" ? t("a lantern")
      : cmd.piece != null ? t("your {good}", { good: this.pieceText(cmd.piece) }) : "";
    switch (cmd.building) {
      case "quartz_mine": return t("gain a blazing quartz");
      case "oracle": return t("roll the oracle die");
      case "surveyor": return t("pay {pay}, gain 3 prestige", { pay });
      case "icebreaker_harbor": return this.aGood(cmd.good);
      case "guildhall": return t("pay {pay}, {good} + {good2}", { pay, good: this.aGood(cmd.good), good2: this.aGood(cmd.good2) });
      case "candle_quartz": return t("pay {pay}, {pick}", { pay, pick: cmd.town ? this.pick(`commission:${cmd.town}`) : this.pick(`hero:${cmd.hero}`) });
      case "lanternworks": return t("{good}, a lantern, 1 prestige", { good: this.aGood(cmd.good) });
      case "mansion": {
        if (!cmd.gives?.length) return t("trade nothing");
        return cmd.gives.map((g, i) => t("{give} → {get}", { give: this.resource(g), get: this.resource(cmd.gets[i]) })).join(", ");
      }
      case "workshop": return cmd.piece != null ? t("upgrade your {good}, a lantern", { good: this.pieceText(cmd.piece) }) : t("just a lantern");
      case "filigree": return t("pay {pay}, {good}", { pay, good: this.aGood(cmd.good, true) });
      default: return "";
    }
  }

  /** An event of the log as a sentence (null: not worth a line). A gain the sentence
   *  just before spelled out ("You take the 6: gain 2 coins.") is not said again. */
  sentence(e) {
    const said = this.said;
    this.said = null;
    if (said && e.seat === said.seat && GAINS.includes(e.type) && said.gains[e.type] === e.delta) {
      delete said.gains[e.type];
      this.said = said;
      return null;
    }
    const me = this.isMe(e.seat);
    const actor = this.name(e.seat);
    const two = (you, other) => (me ? you : other);
    const say = SENTENCES[e.type];
    return say ? say.call(this, e, { me, actor, two }) : null;
  }

  /** The gains (coins, prestige...) a sentence spells out from `effects` for `seat`: the
   *  events of the same gains that follow it say nothing new. */
  spelled(seat, effects) {
    const gains = {};
    for (const effect of effects || []) {
      for (const kind of GAINS) if (effect[kind]) gains[kind] = (gains[kind] || 0) + effect[kind];
    }
    this.said = { seat, gains };
  }

  /** A Dark Market space ("dm_1" ...) in words. */
  darkMarketSpace(space) {
    const i = this.c.board.dark_market.findIndex((x) => x.space === space);
    if (i < 0) return String(space).replaceAll("_", " ");
    const goods = this.c.board.dark_market[i].goods;
    // The space without goods deals a commission or a deed (with its banner).
    if (!goods.length) return t("{space}: a commission or a deed", { space: COMPASS[space]?.() ?? space });
    return t("{space}: {goods}", { space: COMPASS[space]?.() ?? space, goods: this.goodsList(goods) });
  }
}
