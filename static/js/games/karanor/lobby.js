// Karanor's lobby extension: the options form keeps the words and choices it always
// had (the shell draws the rest from the options schema). The first player is chosen by
// name among the seats taken; the end of the game offers the rulebook's number or a
// shorter or longer game.
import { checkboxField, selectField } from "../../options.js";
import { t } from "../../i18n.js";

const END_PRESTIGE = [2, 3, 5, 6, 8, 10, 12, 15];

export const lobby = {
  order: ["max_players", "end_prestige", "start_seat", "public_quests", "two_player_market"],
  // A getter: the module loads before the game's messages arrive.
  get labels() {
    return {
      max_players: t("Players (max)"),
      end_prestige: t("Prestige to end"),
      start_seat: t("First player"),
      public_quests: t("Quests shown to everyone"),
      two_player_market: t("Market (2 players)"),
    };
  },
  fields: {
    // The market is a two-player rule: with more than two seats it is shown off (and
    // not used), whatever the option holds; the host's choice comes back at two seats.
    two_player_market: (ctx = {}) => {
      const field = checkboxField("two_player_market", t("Market (2 players)"), { hint: t("only with two players") });
      let value = true;
      let many = (ctx.room?.seats || []).length > 2;
      let off = false;
      const show = () => {
        field.control.checked = value && !many;
        field.control.disabled = off || many;
        field.node.title = many ? t("The market is used only when two play.") : "";
      };
      field.control.addEventListener("change", () => { value = field.control.checked; });
      field.read = () => value;
      field.write = (v) => { value = Boolean(v); show(); };
      field.disable = (o) => { off = o; show(); };
      field.refresh = (c) => { many = (c.room?.seats || []).length > 2; show(); };
      show();
      return field;
    },
    end_prestige: () => selectField("end_prestige", t("Prestige to end"),
      [{ value: null, label: t("rulebook") }, ...END_PRESTIGE.map((n) => ({ value: n, label: String(n) }))]),
    start_seat: (ctx = {}) => {
      let taken = ctx.room?.seats || [];
      const seats = () => [{ value: "random", label: t("random") },
        ...taken.map((s) => ({ value: s.index, label: s.name }))];
      const field = selectField("start_seat", t("First player"), seats());
      const write = field.write;
      field.refresh = (c) => {
        taken = c.room?.seats || [];
        field.choices(seats());
      };
      // A seat not taken (yet) is not offered: "random" shows until it is.
      field.write = (v) => {
        if (v === "random" || taken.some((s) => s.index === v)) write(v);
      };
      return field;
    },
  },
};
