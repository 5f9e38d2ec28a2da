// Dark Road's lobby extension: its options in words (the shell draws the form from the
// options schema; these give the labels and the buildings as a short choice).
import { selectField } from "../../options.js";

export const lobby = {
  order: ["max_players", "buildings", "drafting", "deed_choice"],
  labels: {
    max_players: "Players (max)",
    buildings: "Buildings",
    drafting: "Drafting variant: draft steeds and starting heroes",
    deed_choice: "Deed draft: draw 2 deeds, keep 1",
  },
  fields: {
    buildings: () => selectField("buildings", "Buildings", [
      { value: "first_game", label: "first game" },
      { value: "random", label: "4 at random" },
    ], { hint: "first game: Quartz Mine, Oracle, Lanternworks, Workshop" }),
  },
};
