// What the others did, as the player needs to see it: attacks against you as a notice
// (who did what to you, what you lost), and the last action of the table, highlighted on
// the map. Read from the events of each view message (the engine's event list).
import { t, tn } from "../../i18n.js";
import { goodWords, joinAnd } from "./goods.js";

const LOSS_TYPES = new Set(["steal", "gold", "resources", "prestige", "actions_lost", "badge_lost",
  "teleport", "badge"]);

/** The seat that sent the command behind these events (its first event with a seat). */
function actorOf(events) {
  const e = events.find((x) => typeof x.seat === "number" && x.type !== "prestige");
  return e ? e.seat : null;
}

/**
 * Notices for the viewer: each black-market card (or other play of another seat) that
 * took something from you, in words: {title, text, testid}.
 */
export function attackNotices(events, view, words) {
  const me = view.seat;
  if (me === null || me === undefined) return [];
  const out = [];
  let current = null; // the attack being read: {by, card, losses: []}
  const flush = () => {
    if (current && current.losses.length) {
      const card = current.card ? words.cardN("black_market", current.card) : null;
      const p = { actor: words.name(current.by), card, losses: joinWords(current.losses) };
      out.push({
        testid: "attack-notice",
        title: card ? t("{actor} played {card} on you", p) : t("{actor} hit you", p),
        text: t("You lost {losses}.", p),
      });
    }
    current = null;
  };
  const actor = actorOf(events);
  for (const e of events) {
    if (e.type === "black_market") {
      flush();
      if (e.target === me && e.seat !== me) current = { by: e.seat, card: e.card, losses: [] };
      continue;
    }
    if (e.type === "steal" && e.target === me && e.seat !== me) {
      if (!current) current = { by: e.seat, card: null, losses: [] };
      current.losses.push(e.gold !== undefined ? goodWords(e.gold, "gold") : goodWords(e.count, e.resource));
      continue;
    }
    if (!current || e.seat !== me || !LOSS_TYPES.has(e.type)) continue;
    if (e.type === "gold" && e.delta < 0) current.losses.push(goodWords(-e.delta, "gold"));
    else if (e.type === "resources" && e.delta < 0) current.losses.push(goodWords(-e.delta, e.resource));
    else if (e.type === "prestige" && e.delta < 0) current.losses.push(goodWords(-e.delta, "prestige"));
    else if (e.type === "actions_lost") current.losses.push(tn("{n} action next turn", "{n} actions next turn", e.count));
    else if (e.type === "badge_lost") current.losses.push(t("your {badge} badge", { badge: words.badge(e.badge) }));
    else if (e.type === "badge") current.losses.push(t("nothing, but you carry the {badge} badge now", { badge: words.badge(e.badge) }));
    else if (e.type === "teleport") {
      const place = words.placeN(e.territory === "home" ? view.players?.[me]?.position : e.territory);
      current.losses.push(t("your place: you were sent to {place}", { place }));
    }
  }
  flush();
  // A steal or loss by another seat outside a card (an artifact's power...).
  if (!out.length && actor !== null && actor !== me) {
    const losses = [];
    for (const e of events) {
      if (e.type === "steal" && e.target === me) losses.push(e.gold !== undefined ? goodWords(e.gold, "gold") : goodWords(e.count, e.resource));
    }
    if (losses.length) {
      const p = { actor: words.name(actor), losses: joinWords(losses) };
      out.push({ testid: "attack-notice", title: t("{actor} took from you", p), text: t("You lost {losses}.", p) });
    }
  }
  return out;
}

function joinWords(list) {
  return list.length ? joinAnd(list) : t("nothing");
}

/** The last action on the map in these events: {seat, territory, text, path?} or null. */
export function lastActionOf(events, view, words) {
  let found = null;
  const villaAt = (id) => Object.values(words.terr).find((x) => x.villa?.id === id)?.id;
  for (const e of events) {
    const mine = words.isMe(e.seat);
    const actor = words.name(e.seat);
    let territory = null;
    let text = null;
    switch (e.type) {
      case "move":
        territory = e.path?.[e.path.length - 1];
        text = mine ? t("You moved here") : t("{actor} moved here", { actor });
        break;
      case "teleport":
        territory = e.territory === "home" ? view.players?.[e.seat]?.position : e.territory;
        text = mine ? t("You went here") : t("{actor} went here", { actor });
        break;
      case "harvest": {
        territory = e.territory;
        const p = { actor, goods: goodWords(e.count, e.resource) };
        text = mine ? t("You harvested {goods} here", p) : t("{actor} harvested {goods} here", p);
        break;
      }
      case "interact": {
        territory = e.territory;
        const p = { actor, who: words.inhabitantN(e.inhabitant) };
        text = mine ? t("You met {who} here", p) : t("{actor} met {who} here", p);
        break;
      }
      case "build": {
        territory = e.city;
        const p = { actor, card: words.cardN("business", e.card) };
        text = mine ? t("You opened {card} here", p) : t("{actor} opened {card} here", p);
        break;
      }
      case "villa": {
        territory = villaAt(e.villa);
        const p = { actor, villa: words.villaN(e.villa) };
        text = mine ? t("You bought {villa}", p) : t("{actor} bought {villa}", p);
        break;
      }
      case "work":
      case "deliver":
      case "quest_done":
      case "partner":
      case "market":
        territory = view.players?.[e.seat]?.position;
        text = words.sentence(e);
        break;
      default:
        break;
    }
    if (territory && typeof e.seat === "number") found = { seat: e.seat, territory, text, type: e.type };
  }
  return found;
}
