// What the others did, as the player needs to see it: attacks against you as a notice
// (who did what to you, what you lost), and the last action of the table, highlighted on
// the map. Read from the events of each view message (the engine's event list).

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
      const card = current.card ? words.card("black_market", current.card) : null;
      out.push({
        testid: "attack-notice",
        title: card ? `${words.who(current.by)} played ${card} on you` : `${words.who(current.by)} hit you`,
        text: `You lost ${joinWords(current.losses)}.`,
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
      current.losses.push(e.gold !== undefined ? `${e.gold} gold` : `${e.count} ${e.resource}`);
      continue;
    }
    if (!current || e.seat !== me || !LOSS_TYPES.has(e.type)) continue;
    if (e.type === "gold" && e.delta < 0) current.losses.push(`${-e.delta} gold`);
    else if (e.type === "resources" && e.delta < 0) current.losses.push(`${-e.delta} ${e.resource}`);
    else if (e.type === "prestige" && e.delta < 0) current.losses.push(`${-e.delta} prestige`);
    else if (e.type === "actions_lost") current.losses.push(`${e.count} action${e.count > 1 ? "s" : ""} next turn`);
    else if (e.type === "badge_lost") current.losses.push(`your ${words.badge(e.badge)} badge`);
    else if (e.type === "badge") current.losses.push(`nothing, but you carry the ${words.badge(e.badge)} badge now`);
    else if (e.type === "teleport") current.losses.push(`your place: you were sent to ${words.place(e.territory)}`);
  }
  flush();
  // A steal or loss by another seat outside a card (an artifact's power...).
  if (!out.length && actor !== null && actor !== me) {
    const losses = [];
    for (const e of events) {
      if (e.type === "steal" && e.target === me) losses.push(e.gold !== undefined ? `${e.gold} gold` : `${e.count} ${e.resource}`);
    }
    if (losses.length) out.push({ testid: "attack-notice", title: `${words.who(actor)} took from you`, text: `You lost ${joinWords(losses)}.` });
  }
  return out;
}

function joinWords(list) {
  if (list.length < 2) return list[0] || "nothing";
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** The last action on the map in these events: {seat, territory, text, path?} or null. */
export function lastActionOf(events, view, words) {
  let found = null;
  const villaAt = (id) => Object.values(words.terr).find((t) => t.villa?.id === id)?.id;
  for (const e of events) {
    const who = words.who(e.seat);
    let territory = null;
    let text = null;
    switch (e.type) {
      case "move":
        territory = e.path?.[e.path.length - 1];
        text = `${who} moved here`;
        break;
      case "teleport":
        territory = e.territory === "home" ? view.players?.[e.seat]?.position : e.territory;
        text = `${who} went here`;
        break;
      case "harvest":
        territory = e.territory;
        text = `${who} harvested ${e.count} ${e.resource} here`;
        break;
      case "interact":
        territory = e.territory;
        text = `${who} met ${words.inhabitant(e.inhabitant)} here`;
        break;
      case "build":
        territory = e.city;
        text = `${who} opened ${words.card("business", e.card)} here`;
        break;
      case "villa":
        territory = villaAt(e.villa);
        text = `${who} bought ${words.villa(e.villa)}`;
        break;
      case "work":
      case "deliver":
      case "quest_done":
      case "partner":
      case "market":
        territory = view.players?.[e.seat]?.position;
        text = words.event(e);
        break;
      default:
        break;
    }
    if (territory && typeof e.seat === "number") found = { seat: e.seat, territory, text, type: e.type };
  }
  return found;
}
