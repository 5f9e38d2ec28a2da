// Dark Road's lobby extension: its options in words (the shell draws the form from the
// options schema; these give the labels and the buildings as a short choice).
import { t } from "../../i18n.js";
import { selectField } from "../../options.js";
import { h } from "../../util.js";
import { listOf } from "./words.js";

const IN_PLAY = 4; // buildings in a game
const CHOOSE = "choose"; // the select's value for "a list of 4 ids" (never sent as such)

/**
 * The buildings: the first game's four, four at random, or four chosen by name from the
 * content's ten (the option is then their ids). The host's picker holds at most four:
 * with four ticked the others are disabled; with fewer, the form is not valid (the lobby
 * neither sends nor starts). The others see the chosen four only, read-only.
 */
function buildingsField(ctx) {
  const buildings = ctx?.content?.buildings || [];
  const choices = [
    { value: "first_game", label: t("first game") },
    { value: "random", label: t("4 at random") },
  ];
  if (buildings.length > IN_PLAY) choices.push({ value: CHOOSE, label: t("4 of your choice") });
  // The first game's four, named from the content (the hint says which they are).
  const byId = Object.fromEntries(buildings.map((b) => [b.id, b.name]));
  const first = (ctx?.content?.first_game || []).map((id) => byId[id] || id);
  const select = selectField("buildings", t("Buildings"), choices,
    first.length ? { hint: t("first game: {buildings}", { buildings: listOf(first) }) } : {});
  const boxes = buildings.map((b) => h("input", { type: "checkbox", value: b.id, "data-testid": "building-choice" }));
  const rows = buildings.map((b, i) => h("label", { class: "check" }, boxes[i], ` ${b.name}`));
  const count = h("p", { class: "hint", "aria-live": "polite", "data-testid": "buildings-count" });
  const legend = h("legend");
  const picker = h("fieldset", { class: "pick", "data-testid": "buildings-picker", hidden: true },
    legend, count, h("div", { class: "pick-list" }, ...rows));
  let readOnly = false;
  const ticked = () => boxes.filter((b) => b.checked).map((b) => b.value);

  const sync = () => {
    const choosing = select.control.value === CHOOSE;
    const n = ticked().length;
    picker.hidden = !choosing;
    boxes.forEach((box, i) => {
      box.disabled = readOnly || (!box.checked && n >= IN_PLAY);
      rows[i].hidden = readOnly && !box.checked;
    });
    legend.textContent = readOnly ? t("The 4 buildings") : t("Choose 4 buildings");
    count.hidden = readOnly;
    count.textContent = t("Chosen: {n} of 4", { n });
    boxes[0]?.setCustomValidity(choosing && !readOnly && n !== IN_PLAY ? t("Choose 4 buildings.") : "");
  };
  select.control.addEventListener("change", sync);
  for (const box of boxes) box.addEventListener("change", sync);
  sync();

  return {
    name: "buildings",
    // Two nodes in the options grid: the select in its cell, the picker on a row of its own.
    node: h("div", { class: "option-group" }, select.node, picker),
    control: select.control,
    read: () => (select.control.value === CHOOSE ? ticked() : select.read()),
    write: (v) => {
      if (Array.isArray(v) && boxes.length) {
        select.control.value = CHOOSE;
        for (const box of boxes) box.checked = v.includes(box.value);
      } else select.write(v);
      sync();
    },
    disable: (off) => {
      readOnly = off;
      select.disable(off);
      sync();
    },
  };
}

export const lobby = {
  order: ["max_players", "buildings", "drafting", "deed_choice"],
  // The rules edition (ruling R40) is how a game stored before the fixes replays: a new
  // room always plays the latest, so a host is not asked.
  hidden: ["rules"],
  get labels() {
    return {
      max_players: t("Players (max)"),
      buildings: t("Buildings"),
      drafting: t("Drafting variant: draft steeds and starting heroes"),
      deed_choice: t("Deed draft: draw 2 deeds, keep 1"),
    };
  },
  fields: {
    buildings: buildingsField,
  },
};
