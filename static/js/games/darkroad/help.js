// Merchants of the Dark Road's rules help, in our own words (the shell's /rules/darkroad
// page calls renderHelp): the round and the four steps of a turn, the dice, the Ringway
// and its districts, the market wheel, caravans, the storage grid and the end scoring;
// then a legend of the board and every icon with its name (visible, not only on hover).
import { t } from "../../i18n.js";
import { h, s, seatMark } from "../../util.js";
import { dieChip, goodChip } from "./draw.js";
import { districtTitle, steps, Words } from "./words.js";

/** Draw the rules help into `root` (content: /api/games/darkroad/content?lang=...). */
export function renderHelp(root, content) {
  // This folder's style sheet (the rules page is not the game page that loads it).
  const css = new URL("./darkroad.css", import.meta.url).href;
  if (!document.querySelector(`link[rel=stylesheet][href="${css}"]`)) document.head.append(h("link", { rel: "stylesheet", href: css }));
  const words = new Words(content);
  const sec = (id, title, ...body) => h("section", { class: "dr-help-sec", "aria-labelledby": `dr-help-${id}` },
    h("h2", { id: `dr-help-${id}`, text: title }), ...body);
  const p = (text) => h("p", { text });
  const list = (items) => h("ul", {}, ...items.map((x) => h("li", {}, ...(Array.isArray(x) ? x : [x]))));

  root.append(h("div", { class: "dr-help" },
    p(t("Winter has closed the roads of the kingdom. You are a merchant with a wagon: in 13 rounds, buy goods, sell them to heroes, deliver the Queen's commissions and lead caravans to the six towns. Coins and prestige both matter: only the lower of the two counts at the end.")),

    sec("round", t("A round"),
      p(t("Players take turns in order. A turn has four steps, always in this order:")),
      h("ol", {}, ...steps().map((st) => h("li", {}, h("b", { text: st.name }), " — ", st.hint))),
      p(t("Plan: take a night die from your main reserve and put it on one of your three locked slots. The die that was there moves to your action pool, and the slot gives its action (slot 1 crafts a good, slot 2 a lantern or an illuminated die, slot 3 coins or a turn of the market wheel).")),
      p(t("Move: your wagon goes clockwise round the Ringway by the value of a die in your action pool (your steed may move it exactly 3 instead). A horseshoe changes the distance by one.")),
      p(t("Activate: your wagon stands between two districts. With one die in your action pool you use one of them; with a night die and an illuminated die you use both, and the building between them.")),
      p(t("Rest: your turn ends. At the end of some rounds a night die leaves the game (marked ▣ on the round track), so the last rounds are shorter."))),

    sec("dice", t("Dice"),
      list([
        [sized(dieChip(3, "night", t("Night die"))), " ", t("Night dice: your main reserve, the locked slots and the action pool.")],
        [sized(dieChip(5, "illuminated", t("Illuminated die"))), " ", t("Illuminated dice: at most 2 in your special reserve; they move your wagon and open buildings; each one unused at the end is worth 1 victory point.")],
        [sized(dieChip(4, "travel", t("Travel die"))), " ", t("Travel dice: rolled for a caravan; each traveller takes one and gains what the event card shows for its face.")],
      ])),

    sec("ringway", t("The Ringway and its districts"),
      p(t("The Ringway is the round road in the middle of the board. Its five spaces each lie between two districts:")),
      list([
        [h("b", { text: districtTitle("bazaar") }), " — ", t("buy goods at the prices of the market wheel.")],
        [h("b", { text: districtTitle("commissions") }), " — ", t("take a commission: three goods a town asks for.")],
        [h("b", { text: districtTitle("dark_market") }), " — ", t("pay a coin per space to move the marker and take what it reaches: goods, a commission or a deed.")],
        [h("b", { text: districtTitle("excursions") }), " — ", t("search the Ruins of Yin for an upgraded good, or lead a caravan to a town.")],
        [h("b", { text: districtTitle("inn") }), " — ", t("sell goods to a hero, who then rides in your wagon until you bring them home.")],
      ])),

    sec("wheel", t("The market wheel"),
      p(t("The wheel shows each good with its price and the market dice that stand for the goods on sale. At the Great Bazaar you may turn the wheel (every price moves down a step) and change one market die before you buy. A second good of the same section costs nothing more. Heroes at the inn pay the wheel's price for what they ask, plus one coin and a blazing quartz for each upgraded good."))),

    sec("caravans", t("Caravans"),
      p(t("At Yurg's Excursions you may lead a caravan to one of the six towns with a companion from the row: by the dark road, or by a shortcut for 3 lanterns (2 good fortunes for the leader instead of 1). Every other merchant says whether they join. An event card is drawn and the travel dice are rolled; each traveller in turn takes a die and gains or loses what the card shows for it. Then each traveller may visit the town to deliver heroes and commissions, and the leader chooses a good fortune: an illuminated die, a deed, coins or a wagon upgrade.")),
      p(t("After round 13 comes the final travel: everyone visits any one town to deliver, with no event and no good fortune."))),

    sec("storage", t("The storage grid"),
      p(t("Every good has a shape. A new good must find room on your wagon's grid (a hero you carry holds one more good); you may turn it and rearrange what is stored. If it does not fit, discard something. With the keyboard: focus the grid, move the good with the arrow keys, R turns it, Enter places it, Escape lets go.")),
      h("div", { class: "dr-help-goods" }, ...content.board.goods.map((g) => h("span", { class: "dr-help-icon" },
        sized(goodChip(g.id, words.goodTitle(g.id))), " ", words.goodTitle(g.id))))),

    sec("end", t("End of the game and scoring"),
      p(t("After the final travel, deeds are revealed and add their coins, prestige or victory points. Your score is the lower of your coins and your prestige, plus your victory points (deeds, unused illuminated dice, the hidden compartment). Ties are broken by the higher of your coins and your prestige (the one that did not count), then gifts on loyal companions, then commissions delivered, then heroes delivered."))),

    sec("legend", t("Board legend and icons"),
      list([
        [legendIcon("★"), " ", t("Prestige (the track along the bottom of the board)")],
        [legendIcon("◆"), " ", t("Blazing quartz")],
        [legendIcon("∩"), " ", t("Horseshoe")],
        [legendIcon("$"), " ", t("Coins (a price on the wheel; your coins stay behind your screen)")],
        [legendIcon("▣"), " ", t("At the end of this round a night die leaves the game")],
        [legendIcon("↻"), " ", t("The Ringway is travelled clockwise")],
        [legendIcon("★", "good"), " ", t("An upgraded good (a star beside its letter, a gold border)")],
        [seatIcon(), " ", t("A merchant's wagon, in the colour and shape of their seat")],
        [legendIcon("+"), " ", legendIcon("−"), " ", legendIcon("⤢"), " ", t("Zoom in, zoom out, show the whole board")],
        [legendIcon("⟳"), " ", t("Turn the selected good (R)")],
        [h("span", { class: "dr-help-swatch dr-help-target", "aria-hidden": "true" }), " ", t("Gold rim: something you can do now (press it, or Tab to it and press Enter)")],
        [h("span", { class: "dr-help-swatch dr-help-preview", "aria-hidden": "true" }), " ", t("Blue ring: where the die you point at would take your wagon")],
        [h("span", { class: "dr-help-swatch dr-help-last", "aria-hidden": "true" }), " ", t("Dashed outline in a seat's colour: the last thing that merchant did")],
      ]))));
  return root;
}

/** A chip of the help drawn at a fixed size (with or without the style sheet). */
function sized(svg, px = 24) {
  svg.setAttribute("width", String(px));
  svg.setAttribute("height", String(px));
  return svg;
}

function legendIcon(text, cls = "") {
  return h("span", { class: `dr-help-glyph ${cls}`, "aria-hidden": "true", text });
}

function seatIcon() {
  return s("svg", { viewBox: "-9 -9 18 18", width: 18, height: 18, "aria-hidden": "true" }, seatMark(0, 0, 0, 7, { stroke: "#222", "stroke-width": 1 }));
}
