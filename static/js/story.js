// The game's story on the end screen (issue 28), for any game: per player the actions
// taken by kind, the longest turn, what the game adds (its module's storyLines: Karanor's
// trades, the Dark Road's caravans), and links into the replay at the largest prestige
// swings. Read from the replay's outline (GET /replay: every command's kind, seat and time;
// each turn's start and prestige) and the log.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { commandLabel } from "./legal.js";
import { h } from "./util.js";

const SWINGS = 3;

/** "+3", "-2". */
const signed = (n) => (n > 0 ? "+" : "") + String(n);

/** "4 min 12 s", "1 h 3 min", "38 s". */
function duration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return t("{n} s", { n: s });
  const m = Math.floor(s / 60);
  if (m < 60) return t("{m} min {s} s", { m, s: s % 60 });
  return t("{h} h {m} min", { h: Math.floor(m / 60), m: m % 60 });
}

/** Per seat: {kinds: Map(type -> n), longest: ms | null, longestAt: version}. */
export function tally(outline, seats) {
  const out = new Map(seats.map((s) => [s, { kinds: new Map(), longest: null, longestAt: null }]));
  for (const move of outline.moves) {
    const mine = out.get(move.seat);
    if (!mine || move.type === "take_back") continue;
    mine.kinds.set(move.type, (mine.kinds.get(move.type) || 0) + 1);
  }
  const at = new Map(outline.moves.map((m) => [m.version, m.at ? Date.parse(m.at) : null]));
  const turns = outline.turns;
  for (let i = 1; i + 1 < turns.length; i += 1) {
    const turn = turns[i];
    if (turn.seats.length !== 1) continue;
    const start = at.get(turn.version);
    const end = at.get(turns[i + 1].version);
    const mine = out.get(turn.seats[0]);
    if (!mine || start == null || end == null) continue;
    if (mine.longest === null || end - start > mine.longest) {
      mine.longest = end - start;
      mine.longestAt = turn.version;
    }
  }
  return out;
}

/** The largest prestige changes from one turn to the next: [{seat, delta, version, round}]. */
export function swings(outline, n = SWINGS) {
  const found = [];
  const turns = outline.turns;
  for (let i = 0; i + 1 < turns.length; i += 1) {
    const before = turns[i].prestige || [];
    const after = turns[i + 1].prestige || [];
    after.forEach((p, seat) => {
      if (typeof p !== "number" || typeof before[seat] !== "number" || p === before[seat]) return;
      found.push({ seat, delta: p - before[seat], version: turns[i].version, round: turns[i].round });
    });
  }
  return found.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.version - b.version).slice(0, n);
}

const outlines = new Map(); // room code -> Promise of [outline, log entries]

/**
 * The story card, filled once the outline and the log are read.
 * @param {object} opts  code, view (finished), who(seat), lines(seat, entries) (the game's own)
 */
export function storyCard({ code, view, who, lines }) {
  const card = h("section", { class: "story", "data-testid": "story", "aria-labelledby": "story-title" },
    h("h3", { id: "story-title", text: t("The game's story") }),
    h("p", { class: "muted small", text: t("Reading the game's story…") }));
  if (!outlines.has(code)) {
    const room = `/api/rooms/${encodeURIComponent(code)}`;
    outlines.set(code, Promise.all([api("GET", `${room}/replay`), api("GET", `${room}/log?after=0`)]));
  }
  outlines.get(code).then(([outline, log]) => {
    const entries = log.entries || [];
    const seats = view.players.map((p) => p.seat);
    const data = tally(outline, seats);
    const list = h("ul", { class: "story-players" });
    for (const seat of seats) {
      const mine = data.get(seat);
      const kinds = [...mine.kinds.entries()].sort((a, b) => b[1] - a[1])
        .map(([type, n]) => `${commandLabel({ type })} ×${n}`).join(", ");
      const extra = lines ? lines(seat, entries) || [] : [];
      list.append(h("li", { "data-testid": "story-player", "data-seat": seat },
        h("strong", { text: who(seat) }),
        h("p", { text: kinds ? t("Actions: {list}", { list: kinds }) : t("No actions") }),
        mine.longest !== null ? h("p", {}, t("Longest turn: {time}", { time: duration(mine.longest) }), " ",
          h("a", { href: `/r/${encodeURIComponent(code)}/replay?at=${mine.longestAt}` }, t("watch"))) : null,
        ...extra.map((line) => h("p", { text: line }))));
    }
    const turning = swings(outline);
    const links = turning.length ? h("ul", { class: "story-swings", "data-testid": "story-swings" },
      ...turning.map((sw) => h("li", {}, h("a", { href: `/r/${encodeURIComponent(code)}/replay?at=${sw.version}`,
        "data-testid": "story-swing" },
      t("{name}: {delta} prestige", { name: who(sw.seat), delta: signed(sw.delta) }),
      sw.round !== null && sw.round !== undefined ? ` (${t("round {r}", { r: sw.round })})` : "")))) : null;
    card.replaceChildren(card.firstChild, list,
      links ? h("h4", { text: t("Turning points: watch them again") }) : null, links);
  }).catch(() => {
    outlines.delete(code);
    card.remove();
  });
  return card;
}
