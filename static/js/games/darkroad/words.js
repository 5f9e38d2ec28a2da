// Merchants of the Dark Road in words: names of places, cards, goods and players, the
// effects of events and dice, every command as a label and every event as a sentence.

export const GOOD_COLOURS = {
  weapon: "#b03a2e", armor: "#5d6d7e", potion: "#8e44ad",
  staff: "#a0522d", book: "#1f618d", instrument: "#c9a10b", upgrade: "#2e8b57",
};
export const GOOD_LETTER = { weapon: "W", armor: "A", potion: "P", staff: "S", book: "B", instrument: "I", upgrade: "+" };

export const DISTRICTS = {
  bazaar: "the Great Bazaar",
  commissions: "the Queen's Commissions",
  dark_market: "the Dark Market",
  excursions: "Yurg's Excursions",
  inn: "the Ringway Inn",
};
export const DISTRICT_TITLES = {
  bazaar: "Great Bazaar", commissions: "Queen's Commissions", dark_market: "Dark Market",
  excursions: "Yurg's Excursions", inn: "Ringway Inn",
};

export const STEPS = [
  { id: "plan", name: "Plan", hint: "Bump a locked night die into your action pool" },
  { id: "move", name: "Move", hint: "Move your wagon by one die of your action pool" },
  { id: "activate", name: "Activate", hint: "Use the districts (and building) your wagon faces" },
  { id: "rest", name: "Rest", hint: "End your turn: upkeep and the next player" },
];

export const ABILITIES = {
  deliver_hero: "Deliver a hero to their town",
  gain_commission: "Gain an available commission",
  two_lanterns: "Gain 2 lanterns",
  illuminated_die: "Gain an illuminated die",
  gain_hero: "Gain an available hero",
  twin_travel_die: "Duplicate your travel die's benefit",
  harbor_good: "A basic good not on the wheel",
  basic_good: "A basic good of your choice",
  ruins_step: "Move the ruins marker 1 space and take its good",
  oracle: "Roll the oracle die",
  craft_upgraded: "Craft an upgraded good (locked slot 1)",
  travel_boost: "+1 or +2 on your travel die",
  deed: "Gain a deed and its bonus",
  free_shortcut: "A shortcut without lanterns this turn",
  upgrade_or_dark_market: "A wagon upgrade, or the dark market 1 space",
  ruins_die: "Roll the ruins die",
};

export const RUINS_DIE = {
  again: "the ruins action again", illuminated: "an illuminated die (on a second roll)",
  cheap_good: "a basic good worth $1", quartz: "a blazing quartz", two_coins: "2 coins", hero: "a hero",
};
const SLOT_OPTIONS = {
  lantern: "gain a lantern", illuminated: "move an illuminated die to the action pool",
  both: "a lantern and an illuminated die", coins: "gain coins", rotate: "rotate the market wheel",
  prestige: "gain 1 prestige",
};
const FORTUNES = { die: "an illuminated die", deed: "a deed", coins: "coins", upgrade: "a wagon upgrade" };
const ROUTE = { dark_road: "the dark road", shortcut: "a shortcut" };
const RESOURCES = { quartz: "blazing quartz", horseshoes: "horseshoe", horseshoe: "horseshoe", lantern: "lantern", coins: "coins" };

const cap = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

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
    this.heroTown = Object.fromEntries(content.board.towns.map((t) => [t.hero_type, t.id]));
    this.view = null;
    this.names = {};
  }

  setView(view, room) {
    if (view) this.view = view;
    for (const p of this.view?.players || []) this.names[p.seat] = p.name;
    for (const s of room?.seats || []) this.names[s.index] ??= s.name;
  }

  who(seat) {
    if (seat === null || seat === undefined) return "Someone";
    if (this.view && seat === this.view.seat) return "You";
    return this.names[seat] ?? `Seat ${seat + 1}`;
  }

  /** The verb agreeing with who(): "You take" / "Ana takes". */
  verb(seat, you, other) {
    return this.who(seat) === "You" ? you : other;
  }

  good(id, up = false) {
    const name = this.goods[id]?.name ?? (id === "upgrade" ? "Hidden compartment" : id);
    return up ? `upgraded ${name.toLowerCase()}` : name.toLowerCase();
  }
  goodTitle(id, up = false) { return cap(this.good(id, up)); }
  town(id) { return this.towns[id]?.name ?? id; }
  hero(id) { return this.heroes[id]?.name ?? id; }
  heroTownOf(id) { return this.heroTown[this.heroes[id]?.type]; }
  companion(id) { return this.companions[id]?.name ?? id; }
  steed(id) { return this.steeds[id]?.name ?? id; }
  deed(id) { return this.deeds[id]?.name ?? id; }
  event(id) { return this.events[id]?.name ?? id; }
  commission(id) { return this.commissions[id]?.name ?? id; }
  building(id) { return this.buildings[id]?.name ?? DISTRICT_TITLES[id] ?? id; }
  upgrade(id) { return this.upgrades[id]?.name ?? id; }
  target(id) { return DISTRICTS[id] ?? this.building(id); }
  ability(a) { return ABILITIES[a] ?? a.replaceAll("_", " "); }

  goodsList(list) {
    const counts = {};
    for (const g of list || []) counts[g] = (counts[g] || 0) + 1;
    return Object.entries(counts).map(([g, n]) => (n > 1 ? `${n} ${this.good(g)}s` : `a ${this.good(g)}`)).join(" and ") || "nothing";
  }

  /** One effect of the content ({coins: 2} ...) in words. */
  effect(e) {
    const out = [];
    const n = (k) => e[k] !== null && e[k] !== undefined ? e[k] : null;
    const signed = (v, one, many) => (v < 0 ? `lose ${plural(-v, one, many)}` : `gain ${plural(v, one, many)}`);
    if (n("coins")) out.push(signed(e.coins, "coin"));
    if (n("prestige")) out.push(signed(e.prestige, "prestige", "prestige"));
    if (n("lanterns")) out.push(signed(e.lanterns, "lantern"));
    if (n("quartz")) out.push(signed(e.quartz, "quartz", "quartz"));
    if (n("horseshoes")) out.push(signed(e.horseshoes, "horseshoe"));
    if (e.good) out.push(`gain ${e.upgraded ? "an upgraded " : "a "}${this.good(e.good)}`);
    if (e.any_good) out.push(`gain ${e.upgraded ? "an upgraded" : "a basic"} good of your choice`);
    if (e.cheap_good) out.push("gain a basic good worth $1");
    if (e.lose_good) out.push("lose 1 good");
    if (e.illuminated) out.push("gain an illuminated die");
    return out.join(", ");
  }
  effects(list) { return (list || []).map((e) => this.effect(e)).filter(Boolean).join(" and ") || "nothing"; }
  /** Whether an event face costs something (drawn red). */
  isCost(list) {
    return (list || []).some((e) => e.lose_good || ["coins", "prestige", "lanterns", "quartz", "horseshoes"].some((k) => (e[k] || 0) < 0));
  }

  /** The label of a legal command (what the button says). */
  command(cmd) {
    const v = this.view;
    const me = v?.players?.[v?.seat];
    switch (cmd.type) {
      case "draft": {
        const st = v?.board?.setup_stacks?.[cmd.stack] || [];
        const names = st.map((id) => (this.steeds[id] ? `${this.steed(id)} (steed)` : this.heroes[id] ? this.hero(id) : id));
        return names.length ? `Take ${names.join(" + ")}` : `Take stack ${cmd.stack + 1}`;
      }
      case "keep_deed": return `Keep ${this.deed(cmd.deed)}`;
      case "reset_dice": return "Reset locked dice to 1-2-3";
      case "plan": {
        const opt = cmd.slot === 1 ? (cmd.option ? `gain a ${this.good(cmd.option)}` : `craft a ${this.good(this.c.board.crafting[String(cmd.die)])}`)
          : SLOT_OPTIONS[cmd.option] ?? cmd.option;
        return `${cmd.die === null ? "Take" : `Die ${cmd.die} bumps`} slot ${cmd.slot}: ${opt}`;
      }
      case "move": {
        const steps = cmd.die === "steed" ? 3 : cmd.die === "night" ? me?.pool?.night : me?.pool?.illuminated;
        const shoe = cmd.horseshoe ? ` ${cmd.horseshoe > 0 ? "+1" : "−1"} (horseshoe)` : "";
        return `Move ${steps}${shoe} with the ${cmd.die === "steed" ? "steed" : `${cmd.die} die`}`;
      }
      case "bazaar": return "Visit the Great Bazaar";
      case "bazaar_rotate": return "Rotate the market wheel";
      case "bazaar_change": return `Change a ${this.good(cmd.source)} die to ${this.good(cmd.good)}`;
      case "bazaar_buy": return cmd.goods.length ? `Buy ${this.goodsList(cmd.goods)}` : "Buy nothing";
      case "take_commission": return `Take the ${this.town(cmd.town)} commission`;
      case "dark_market": {
        const space = this.c.board.dark_market[((v?.board?.dark_market ?? 0) + cmd.steps) % 4];
        const got = cmd.pick ? this.pick(cmd.pick) : this.goodsList(space.goods);
        return `${plural(cmd.steps, "space")} (${plural(cmd.steps, "coin")}) → ${got}`;
      }
      case "inn": return `Sell ${this.piecesText(cmd.goods)} to ${this.hero(v?.board?.inn?.[cmd.slot])}`;
      case "ruins": return `${plural(cmd.steps, "space")} → upgraded ${this.good(cmd.good)}`;
      case "caravan": return `${cap(ROUTE[cmd.route])} to ${this.town(cmd.town)}`;
      case "building": return this.buildingCmd(cmd);
      case "use_companion": return `${this.companion(cmd.companion)}: ${this.ability(cmd.ability)}${cmd.pick ? ` (${this.pick(cmd.pick)})` : ""}${cmd.gift ? `, giving ${this.hero(cmd.gift)}` : ""}`;
      case "end_turn": return "End turn (Rest)";
      case "place_good": return cmd.area === null ? "Store it where it fits" : `Store at ${cmd.area} ${cmd.x + 1},${cmd.y + 1}`;
      case "discard_good": return cmd.piece === null ? "Discard the new good" : `Discard the stored ${this.pieceText(cmd.piece)}`;
      case "rearrange": return "Rearrange the storage";
      case "discard_hero": return `Let ${this.hero(cmd.hero)} go`;
      case "discard_commission": return `Discard ${this.commission(cmd.commission)}`;
      case "discard_resource": return `Discard a ${RESOURCES[cmd.resource] ?? cmd.resource}`;
      case "choose_good": return `Take ${v?.private?.pending?.up ? "an upgraded" : "a"} ${this.good(cmd.good)}`;
      case "lose_good": return cmd.piece < 0 ? `Lose the new ${this.good(me?.incoming?.[-1 - cmd.piece]?.good)}` : `Lose the ${this.pieceText(cmd.piece)}`;
      case "ruins_die": return cmd.roll ? "Roll the ruins die (1 lantern)" : "Don't roll";
      case "take_hero": return cmd.slot < 0 ? "The top hero of the deck" : `Take ${this.hero(v?.board?.inn?.[cmd.slot])}`;
      case "choose_steed": return `Take ${this.steed(cmd.steed)}`;
      case "join": return cmd.yes ? "Yes, join the caravan" : "No, stay home";
      case "reroll_travel": return "Reroll the dice (1 lantern)";
      case "take_travel_die": {
        const face = cmd.value + (cmd.whisper ? 1 : 0) + cmd.boost;
        const extra = [cmd.whisper ? "Whisper +1" : "", cmd.boost ? `companion +${cmd.boost}` : "", cmd.twin ? "twice (Threy Cat)" : ""].filter(Boolean).join(", ");
        const ev = this.events[v?.board?.travel?.event];
        return `Take the ${cmd.value}${extra ? ` (${extra}) = ${face}` : ""}${ev ? `: ${this.effects(ev.faces[String(face)])}` : ""}`;
      }
      case "visit": return cmd.town ? `Visit ${this.town(cmd.town)}` : "Pass (no visit)";
      case "deliver_commission": return `Deliver ${this.piecesText(cmd.goods)} for ${this.commission(cmd.commission)}`;
      case "deliver_hero": return `Deliver ${this.hero(cmd.hero)}`;
      case "done_delivering": return "Done delivering";
      case "fortune": return cmd.kind === "deed" ? `A deed: ${this.pick(`deed:${cmd.pick}`)}` : cmd.kind === "upgrade" ? `Upgrade: ${this.upgrade(cmd.pick)}` : cmd.kind === "coins" ? `${v?.board?.fortune_coins ? 5 : 3} coins` : cap(FORTUNES[cmd.kind] ?? cmd.kind);
      default: return cmd.type.replaceAll("_", " ");
    }
  }

  /** A tooltip for a command whose label names a card: what the card does. */
  hint(cmd) {
    switch (cmd.type) {
      case "choose_steed": return this.steeds[cmd.steed]?.flavour ?? null;
      case "keep_deed": return this.deeds[cmd.deed]?.text ?? null;
      case "fortune":
        if (cmd.kind === "upgrade") return this.upgrades[cmd.pick]?.text ?? null;
        if (cmd.kind === "deed" && /^\d$/.test(cmd.pick)) return this.deeds[this.view?.board?.courtyard?.[Number(cmd.pick)]]?.text ?? null;
        return null;
      case "building": return this.buildings[cmd.building]?.text ?? null;
      case "use_companion": return this.companions[cmd.companion]?.flavour ?? null;
      case "take_commission": {
        const top = this.view?.board?.commissions?.[cmd.town]?.top;
        return top ? `Requests: ${this.commissions[top].requests.map((g) => this.good(g)).join(", ")}` : null;
      }
      case "take_hero": case "inn": {
        const id = this.view?.board?.inn?.[cmd.slot];
        const hero = this.heroes[id];
        return hero ? `${hero.name}: ${hero.type} → ${this.town(this.heroTownOf(id))}; requests ${hero.requests.map((g) => this.good(g)).join(", ")}; bonus: ${hero.bonus}` : null;
      }
      default: return null;
    }
  }

  /** "deed:0", "commission:farglen", "hero:2", "upgrade:x", a good id ... in words. */
  pick(p) {
    if (p === null || p === undefined) return "";
    const s = String(p);
    const v = this.view;
    if (s.startsWith("deed:")) {
      const k = s.slice(5);
      if (k === "top") return "the top deed of the deck (no bonus)";
      const id = v?.board?.courtyard?.[Number(k)];
      const banner = this.c.deed_banners?.[Number(k)];
      return `${id ? this.deed(id) : "a deed"}${banner ? ` + ${this.effect(banner)}` : ""}`;
    }
    if (s.startsWith("commission:")) return `the ${this.town(s.slice(11))} commission`;
    if (s.startsWith("hero:")) return this.hero(v?.board?.inn?.[Number(s.slice(5))]);
    if (s.startsWith("upgrade:")) return this.upgrade(s.slice(8));
    if (s.startsWith("dark_market:")) return `dark market: ${this.pick(s.slice(12)) || "its goods"}`;
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
    return q ? this.good(q.good, q.up) : "good";
  }
  piecesText(ids) { return (ids || []).map((i) => this.pieceText(i)).join(" + "); }

  buildingCmd(cmd) {
    const name = this.building(cmd.building);
    const pay = cmd.pay === "coins" ? "2 coins" : cmd.pay === "quartz" ? "a quartz" : cmd.pay === "lantern" ? "a lantern"
      : cmd.pay && /^\d+$/.test(cmd.pay) ? `your ${this.pieceText(cmd.pay)}` : null;
    switch (cmd.building) {
      case "quartz_mine": return `${name}: gain a quartz`;
      case "oracle": return `${name}: roll the oracle die`;
      case "surveyor": return `${name}: pay ${pay}, gain 3 prestige`;
      case "icebreaker_harbor": return `${name}: a ${this.good(cmd.pick)}`;
      case "guildhall": return `${name}: pay ${pay}, a ${this.good(cmd.pick)} + a ${this.good(cmd.pick2)}`;
      case "candle_quartz": return `${name}: pay ${pay}, ${this.pick(cmd.pick)}`;
      case "lanternworks": return `${name}: a ${this.good(cmd.pick)}, a lantern, 1 prestige`;
      case "mansion": {
        if (!cmd.pay) return `${name}: trade nothing`;
        const item = (x) => (x === "coins" ? "2 coins" : `a ${RESOURCES[x] ?? x}`);
        const gives = cmd.pay.split(",");
        const gets = (cmd.pick || "").split(",");
        return `${name}: ${gives.map((g, i) => `${item(g)} → ${item(gets[i])}`).join(", ")}`;
      }
      case "workshop": return cmd.pick ? `${name}: upgrade your ${this.pieceText(cmd.pick)}, a lantern` : `${name}: just a lantern`;
      case "filigree": return `${name}: pay ${pay}, an upgraded ${this.good(cmd.pick)}`;
      default: return `${name}`;
    }
  }

  /** An event of the log as a sentence (null: not worth a line). */
  sentence(e) {
    const w = this.who(e.seat);
    const s = (you, other) => this.verb(e.seat, you, other);
    switch (e.type) {
      case "game_started": return "The game begins: 13 rounds of winter.";
      case "round": return `Round ${e.round} begins${[4, 7, 9, 10].includes(e.round - 1) ? " (a night die left the game)" : ""}.`;
      case "plan": return `${w} ${s("bump", "bumps")} locked slot ${e.slot}: a ${e.die} goes to the action pool.`;
      case "dice_reset": return `${w} ${s("reset", "resets")} the locked dice to 1-2-3.`;
      case "moved": {
        const at = e.space ?? e.to;
        return `${w} ${s("move", "moves")} ${plural(e.steps, "space")}, between ${DISTRICTS[this.c.board.ringway[at]]} and ${DISTRICTS[this.c.board.ringway[(at + 1) % 5]]}.`;
      }
      case "activated": return `${w} ${s("visit", "visits")} ${this.target(e.target)}.`;
      case "wheel_rotated": return `${w} ${s("rotate", "rotates")} the market wheel.`;
      case "market_die_changed": return `${w} ${s("turn", "turns")} a ${this.good(e.from)} market die to ${this.good(e.good ?? e.to)}.`;
      case "bought": return e.goods.length ? `${w} ${s("buy", "buys")} ${this.goodsList(e.goods)} at the Bazaar.` : `${w} ${s("buy", "buys")} nothing at the Bazaar.`;
      case "commission": return `${w} ${s("take", "takes")} ${this.commission(e.commission)}.`;
      case "commission_delivered": return `${w} ${s("deliver", "delivers")} ${plural(e.goods, "good")} for ${this.commission(e.commission)}.`;
      case "commission_discarded": return `${w} ${s("discard", "discards")} ${this.commission(e.commission)}.`;
      case "dark_market": return `${w} ${s("trade", "trades")} in the Dark Market (${e.space}).`;
      case "sold": return `${w} ${s("sell", "sells")} ${this.goodsList(e.goods)} to ${this.hero(e.hero)}.`;
      case "hero_joined": return `${this.hero(e.hero)} ${e.seat === this.view?.seat ? "joins your" : `joins ${w}'s`} wagon.`;
      case "hero_delivered": return `${w} ${s("bring", "brings")} ${this.hero(e.hero)} to ${this.town(e.town)}.`;
      case "hero_discarded": return `${w} ${s("let", "lets")} ${this.hero(e.hero)} go.`;
      case "ruins": return `${w} ${s("search", "searches")} the Ruins of Yin (${e.space.replace("_", " ")}).`;
      case "ruins_die": return `${e.reroll ? "Rerolled, the" : "The"} ruins die shows ${RUINS_DIE[e.face] ?? e.face}.`;
      case "oracle": return `The oracle die gives ${w === "You" ? "you" : w} ${this.effects(this.c.board.oracle_die?.[e.face])}.`;
      case "caravan": return `${w} ${s("lead", "leads")} a caravan to ${this.town(e.town)} by ${ROUTE[e.route]}, with ${this.companion(e.companion)}.`;
      case "join": return e.yes ? `${w} ${s("join", "joins")} the caravan.` : `${w} ${s("stay", "stays")} home.`;
      case "event": return `Event: ${this.event(e.event)}. The travel dice show ${(e.dice || []).join(", ")}.`;
      case "travel_reroll": return `${w} ${s("spend", "spends")} a lantern to reroll: ${(e.dice || []).join(", ")}.`;
      case "travel_die": {
        const ev = this.events[this.view?.board?.travel?.event];
        return `${w} ${s("take", "takes")} the ${e.value}${e.face !== e.value ? ` (counted as ${e.face})` : ""}${ev ? `: ${this.effects(ev.faces[String(e.face)])}` : ""}.`;
      }
      case "visit": return e.town ? `${w} ${s("visit", "visits")} ${this.town(e.town)}.` : `${w} ${s("pass", "passes")} the towns by.`;
      case "fortune": return `${w} ${s("receive", "receives")} a good fortune: ${FORTUNES[e.kind] ?? e.kind}.`;
      case "caravan_done": return "The caravan is home.";
      case "final_travel": return "Winter is over: everyone travels one last time to deliver.";
      case "gift": return `${w} ${s("give", "gives")} a quartz to ${this.companion(e.companion)}: ${this.ability(e.ability).toLowerCase()}.`;
      case "stray": {
        const n = this.view?.players?.length || 1;
        const next = n > 1 ? this.who((e.seat + 1) % n) : null;
        return `${w} ${s("use", "uses")} ${this.companion(e.companion)} (${this.ability(e.ability).toLowerCase()}) and ${s("pass", "passes")} it ${next ? `to ${next === "You" ? "you" : next}` : "under the deck"}.`;
      }
      case "upgrade": return `${w} ${s("fit", "fits")} a wagon upgrade: ${this.upgrade(e.upgrade)}.`;
      case "upgraded": return `${w} ${s("upgrade", "upgrades")} a ${this.good(e.good)}.`;
      case "steed": return `${w} ${s("gain", "gains")} a second steed: ${this.steed(e.steed)}.`;
      case "deed": return `${w} ${s("gain", "gains")} a deed (${e.from === "top" ? "from the deck" : `courtyard ${e.from}`}).`;
      case "deed_taken": case "deed_drawn": return `Your new deed: ${this.deed(e.deed)}.`;
      case "deed_kept": return e.deed ? `You keep ${this.deed(e.deed)}.` : null;
      case "drafted": return `${w} ${s("draft", "drafts")} ${this.steed(e.steed)} and ${this.hero(e.hero)}.`;
      case "illuminated": return `${w} ${s("gain", "gains")} an illuminated die (${e.value}).`;
      case "illuminated_lost": return `${w} already ${s("have", "has")} 2 illuminated dice: the new one stays in the supply.`;
      case "coins": return e.seat === this.view?.seat ? `You ${e.delta >= 0 ? "gain" : "pay"} ${plural(Math.abs(e.delta), "coin")}.` : null;
      case "prestige": return `${w} ${s("gain", "gains")} ${e.delta} prestige.`;
      case "lanterns": return e.delta >= 0 ? `${w} ${s("gain", "gains")} ${plural(e.delta, "lantern")}.` : `${w} ${s("spend", "spends")} ${plural(-e.delta, "lantern")}.`;
      case "quartz": return e.delta >= 0 ? `${w} ${s("gain", "gains")} ${plural(e.delta, "blazing quartz", "blazing quartz")}.` : `${w} ${s("give", "gives")} up ${plural(-e.delta, "blazing quartz", "blazing quartz")}.`;
      case "horseshoes": return e.delta >= 0 ? `${w} ${s("gain", "gains")} ${plural(e.delta, "horseshoe")}.` : `${w} ${s("spend", "spends")} ${plural(-e.delta, "horseshoe")}.`;
      case "stored": return null;
      case "discarded": return `${w} ${s("discard", "discards")} a ${this.good(e.good)}.`;
      case "lost_good": return `${w} ${s("lose", "loses")} a ${this.good(e.good)} on the road.`;
      case "rearranged": return null;
      case "turn_ended": return null;
      case "game_over": return "The game is over: final scoring.";
      default: return null;
    }
  }
}
