// Merchants of Karanor's rules help, in our own words: a summary of a turn, the actions,
// trading, the black market and the end; the map legend (territories, cities, sea routes,
// the marks on the map, the story tile) and every icon with its name written beside it.
// The shell's rules page (/rules/karanor) calls renderHelp(root, content) with the game's
// content in the page's language; every string goes through the catalogue.
import { h, icon, s, seatMark } from "../../util.js";
import { t, tn } from "../../i18n.js";
import { TERRAIN, SEA } from "./board.js";
import { RESOURCES, goodName } from "./goods.js";
import { shapeWords } from "./panels.js";

/** The icons of the game, each with its name (the legend and the test use this list). */
export function iconNames() {
  return [
    ...RESOURCES.map((r) => [r, goodName(r)]),
    ["gold", t("gold")],
    ["prestige", t("prestige")],
    ["revenue", t("revenue (gold each turn)")],
    ["villa", t("villa")],
    ["person", t("inhabitant (a quest to draw)")],
    ["card", t("card")],
    ["partner", t("partner")],
    ["badge", t("badge")],
    ["artifact", t("artifact")],
    ["yes", t("you can (an offer you can accept)")],
    ["no", t("you cannot (what is missing is said beside it)")],
  ];
}

function terrainName(kind) {
  switch (kind) {
    case "plain": return t("plain");
    case "forest": return t("forest");
    case "hills": return t("hills");
    case "mountain": return t("mountain");
    case "marsh": return t("marsh");
    case "coast": return t("coast");
    case "desert": return t("desert");
    default: return kind;
  }
}

const swatch = (...children) => s("svg", { viewBox: "-20 -20 40 40", width: 36, height: 36, class: "legend-swatch",
  "aria-hidden": "true" }, ...children);

function section(id, title, ...body) {
  return h("section", { class: "help-section", "aria-labelledby": id }, h("h2", { id, text: title }), ...body);
}

function list(items) {
  return h("ul", { class: "help-list" }, ...items.map((x) => h("li", {}, ...(Array.isArray(x) ? x : [x]))));
}

/** The rules in short. */
function rulesPart(content) {
  const r = content.rules || {};
  const ends = Object.entries(r.end_prestige || {}).map(([n, p]) => t("{players} players: {n}", { players: n, n: p }));
  return [
    section("help-goal", t("The goal"),
      h("p", { text: t("You are a merchant of Karanor. Build businesses, complete quests, buy villas and make deliveries to gain prestige. The merchant with the most prestige at the end wins; gold breaks a tie.") })),
    section("help-turn", t("A turn"),
      h("p", { text: tn("On your turn you have {n} action. The same action may be taken several times.",
        "On your turn you have {n} actions. The same action may be taken several times.", r.actions_per_turn ?? 4) }),
      h("p", { text: t("When your actions are spent (or you end your turn), you collect your revenue: the gold of your revenue track, and a resource from each partner (1 gold from a promoted one).") })),
    section("help-actions", t("The actions"),
      list([
        [h("strong", { text: t("Move") }), " ", tn("up to {n} territory. Crossing the sea costs {gold} gold. Starting another action ends the move.",
          "up to {n} territories. Crossing the sea costs {gold} gold. Starting another action ends the move.",
          r.move_steps ?? 2, { gold: r.sea_cost ?? 2 })],
        [h("strong", { text: t("Harvest") }), " ", tn("on a territory with a resource: take {n} of it.", "on a territory with a resource: take {n} of it.", r.harvest ?? 2)],
        [h("strong", { text: t("Work") }), " ", t("anywhere: take 1 gold.")],
        [h("strong", { text: t("Build a business") }), " ", t("in a city where you have none: pay the card's cost, then gain what it gives when it opens (prestige, revenue). Some businesses have a bonus you may pay for.")],
        [h("strong", { text: t("Meet an inhabitant") }), " ", t("on their territory: draw a quest card; the inhabitant leaves the map.")],
        [h("strong", { text: t("Complete a quest") }), " ", t("when you meet what it asks (be somewhere, pay goods): take its reward and its prestige. A quest's immediate choice costs no action.")],
        [h("strong", { text: t("Deliver") }), " ", t("the delivery shown on the table: bring its goods to its city for gold and prestige; the next delivery is turned up.")],
        [h("strong", { text: t("Recruit a partner") }), " ", tn("for {n} gold: a resource each turn. Each partner may be promoted once in the game: 1 gold each turn instead.",
          "for {n} gold: a resource each turn. Each partner may be promoted once in the game: 1 gold each turn instead.", r.partner_cost ?? 5)],
        [h("strong", { text: t("Buy a villa") }), " ", tn("on its territory, for {n} gold: prestige.", "on its territory, for {n} gold: prestige.", r.villa_cost ?? 8)],
        [h("strong", { text: t("Market") }), " ", t("with two players only: buy or sell one or two goods for gold.")],
      ])),
    section("help-trade", t("Trading"),
      h("p", { text: t("Trade anything with anyone, at any time, even off-turn: gold, goods, partners, badges, artifacts. A trade costs no action. Open the \u201cNew offer\u201d tab of the chat panel to make an offer; an offer made to you can be accepted, declined or countered.") }),
      list([
        t("A trade never goes before an action or a card being played."),
        t("Cards and prestige cannot be traded."),
        t("Once a player reaches the final prestige, trading is closed until the end."),
      ])),
    section("help-black-market", t("The black market and artifacts"),
      h("p", { text: t("You get a black-market card when you first reach {first} and {second} prestige. Most hinder another player; each says when it can be played and whom it targets. Playing one costs no action unless it says so.",
        { first: r.ascension?.[0] ?? 3, second: r.ascension?.[1] ?? 6 }) }),
      h("p", { text: t("Artifacts come from quests and businesses: some help all the time, some have a power used once per turn or once per game.") })),
    section("help-end", t("The end"),
      h("p", { text: t("When a merchant reaches the final prestige, the round is played to its end, then the game ends. The final prestige depends on the number of players:") }),
      list(ends)),
  ];
}

/** The map legend: territories, cities, sea routes and the marks drawn on them. */
function legendPart(content) {
  const terrains = [...new Set((content.map?.territories || []).map((x) => x.terrain))].filter(Boolean);
  const rows = terrains.map((kind) => [swatch(s("rect", { x: -16, y: -12, width: 32, height: 24, rx: 4,
    fill: TERRAIN[kind] || TERRAIN.plain, stroke: "#7a6a4e", "stroke-width": 2 })),
  h("span", { text: terrainName(kind) })]);
  const sea = content.rules?.sea_cost ?? 2;
  const marks = [
    [swatch(s("rect", { x: -16, y: -12, width: 32, height: 24, rx: 4, fill: TERRAIN.plain, stroke: "#5a3a1a", "stroke-width": 4 }),
      s("path", { d: "M-11 8 v-8 l4 -4 l4 4 v-3 l4 -5 l4 5 v3 l4 -4 l4 4 v8 z", fill: "#7a2e12" })),
    h("span", { text: t("A city (thick border, towers, its name larger): businesses are built and deliveries made in cities. Each merchant starts in a home city with a home business.") })],
    [swatch(s("rect", { x: -20, y: -20, width: 40, height: 40, fill: SEA }),
      s("line", { x1: -18, y1: 0, x2: 18, y2: 0, stroke: "#1d4e6b", "stroke-width": 3, "stroke-dasharray": "2 5" }),
      s("circle", { r: 8, fill: "#e8b923", stroke: "#7a5a00" }), s("text", { y: 4, "text-anchor": "middle", "font-size": 11, "font-weight": 800, text: String(sea) })),
    h("span", { text: tn("A sea route (dotted line): crossing it costs {n} gold, the number on it.", "A sea route (dotted line): crossing it costs {n} gold, the number on it.", sea) })],
    [icon("wood", goodName("wood"), "icon big"), h("span", { text: t("A harvest site: the resource a Harvest there gives.") })],
    [icon("person", t("inhabitant"), "icon big"), h("span", { text: t("An inhabitant: meet them for a quest.") })],
    [icon("villa", t("villa"), "icon big"), h("span", { text: t("A villa: yellow with a merchant's mark once bought.") })],
    [swatch(seatMark(0, 0, 0, 12, { stroke: "#111", "stroke-width": 2.5 })),
      h("span", { text: t("A merchant's pawn: each seat has its colour and its shape (circle, square, triangle, diamond, hexagon, star); the one playing bobs in a ring.") })],
    [swatch(s("rect", { x: -18, y: -8, width: 36, height: 16, rx: 5, fill: "#fffaeb", stroke: "#5a3a1a" }),
      seatMark(1, -7, 0, 5, { stroke: "#1d1d1d" }), seatMark(2, 7, 0, 5, { stroke: "#1d1d1d" })),
    h("span", { text: t("Businesses: the marks under a city's name, one per merchant who built there.") })],
    [swatch(s("rect", { x: -16, y: -12, width: 32, height: 24, rx: 4, fill: "rgba(255, 214, 0, .4)", stroke: "#ffcf00", "stroke-width": 4 })),
      h("span", { text: t("Yellow: where you can move now (a free step of the move under way, or a new Move).") })],
    [swatch(s("rect", { x: -16, y: -12, width: 32, height: 24, rx: 4, fill: "rgba(31, 95, 191, .25)", stroke: "#1f5fbf", "stroke-width": 4 })),
      h("span", { text: t("Blue, \u201c+1 action\u201d: a move there starts a new Move (an action).") })],
    [swatch(s("rect", { x: -16, y: -12, width: 32, height: 24, rx: 4, fill: "none", stroke: "#b5179e", "stroke-width": 4, "stroke-dasharray": "6 3" })),
      h("span", { text: t("A dashed outline in a merchant's colour: the last thing done at the table.") })],
  ];
  const stories = Object.values(content.catalogue?.stories || {});
  return [
    section("help-legend", t("The map"),
      h("p", { text: t("Drag to move the map, pinch or use the wheel or the + and − buttons to zoom. With a keyboard, Tab reaches the map once; the arrow keys go from territory to territory and Enter moves there.") }),
      h("h3", { text: t("Territories") }),
      h("ul", { class: "legend-list" }, ...rows.map((row) => h("li", {}, ...row))),
      h("h3", { text: t("On the map") }),
      h("ul", { class: "legend-list" }, ...marks.map((row) => h("li", {}, ...row)))),
    section("help-story", t("The story tile"),
      h("p", { text: t("At the start each merchant draws a story tile: who they were before coming to Karanor. It sets what they start with: gold, some goods, sometimes a badge, and their revenue (the gold they collect each turn at first). A poorer start comes with a higher revenue.") }),
      stories.length ? h("ul", { class: "help-list" }, ...stories.map((x) => h("li", {}, h("strong", { text: x.name }), ` ${x.text}`))) : null),
    section("help-pawns", t("Seats"),
      h("ul", { class: "legend-list" }, ...[0, 1, 2, 3, 4, 5].map((seat) => h("li", {},
        swatch(seatMark(seat, 0, 0, 12, { stroke: "#111", "stroke-width": 2 })), h("span", { text: shapeWords(seat) }))))),
  ];
}

/** Every icon with its name written beside it (not only on hover). */
function iconPart() {
  return [section("help-icons", t("Icons"),
    h("ul", { class: "legend-list icon-names", "data-testid": "icon-names" },
      ...iconNames().map(([name, label]) => h("li", { "data-icon": name },
        icon(name, null, "icon big"), h("span", { class: "icon-name", text: label })))))];
}

/**
 * Draw the rules help of Merchants of Karanor in `root`.
 * @param {HTMLElement} root  an empty element of the rules page
 * @param {object} content  GET /api/games/karanor/content?lang=...
 */
export function renderHelp(root, content) {
  // The legend's styles live with the game's (karanor.css, same version as this module).
  if (!document.querySelector("link[data-karanor-css]")) {
    document.head.append(h("link", { rel: "stylesheet", href: new URL(`./karanor.css${new URL(import.meta.url).search}`, import.meta.url).href,
      "data-karanor-css": "1" }));
  }
  root.classList.add("karanor-help");
  root.append(
    h("nav", { class: "help-toc", "aria-label": t("On this page") },
      h("ul", {},
        h("li", {}, h("a", { href: "#help-turn", text: t("A turn") })),
        h("li", {}, h("a", { href: "#help-actions", text: t("The actions") })),
        h("li", {}, h("a", { href: "#help-trade", text: t("Trading") })),
        h("li", {}, h("a", { href: "#help-legend", text: t("The map") })),
        h("li", {}, h("a", { href: "#help-icons", text: t("Icons") })))),
    ...rulesPart(content), ...legendPart(content), ...iconPart());
  return root;
}
