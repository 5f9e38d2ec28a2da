// Dark Road's lobby extension: its options in words (the shell draws the form from the
// options schema; these give the labels and the buildings as a short choice).
import { t } from "../../i18n.js";
import { selectField } from "../../options.js";

export const lobby = {
  order: ["max_players", "buildings", "drafting", "deed_choice"],
  get labels() {
    return {
      max_players: t("Players (max)"),
      buildings: t("Buildings"),
      drafting: t("Drafting variant: draft steeds and starting heroes"),
      deed_choice: t("Deed draft: draw 2 deeds, keep 1"),
    };
  },
  fields: {
    buildings: () => selectField("buildings", t("Buildings"), [
      { value: "first_game", label: t("first game") },
      { value: "random", label: t("4 at random") },
    ], { hint: t("first game: Quartz Mine, Oracle, Lanternworks, Workshop") }),
  },
};
