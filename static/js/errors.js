// A server's refusal in the page's language. The server's `message` is English, for
// programs and logs (docs/api.md, "Errors"); the page says the refusals a person may meet
// in its own words, by the stable `code`, and keeps the message for any other.
import { t } from "./i18n.js";

const SAID = {
  room_full: () => t("Every seat at this table is taken."),
  room_started: () => t("The game has already started."),
  name_taken: () => t("Someone at this table already has that name: choose another."),
  bad_options: () => t("More people are seated than these options allow."),
  not_host: () => t("Only the host may do this."),
  cannot_remove_host: () => t("The host's seat stays."),
  not_playing: () => t("The game is not being played."),
  not_started: () => t("The game has not started yet."),
  not_finished: () => t("The game is not over yet."),
  not_replaced: () => t("No bot plays this seat now."),
  already_bot: () => t("A bot already plays this seat."),
  not_a_bot: () => t("A person plays this seat."),
  seat_present: () => t("That person is at the table: a bot may only play an absent seat."),
  bad_token: () => t("This seat is no longer yours."),
  forbidden: () => t("That is not yours to do."),
  coach_off: () => t("This room has no coach."),
  no_timer: () => t("There is no turn timer."),
  not_undoable: () => t("That can no longer be taken back."),
  rate_limited: () => t("Too many at once: wait a moment and try again."),
  too_many_notice_targets: () => t("Too many devices get notices for this seat."),
  unavailable: () => t("The server cannot reach its database: try again in a moment."),
  unknown_room: () => t("There is no room at this address. Check the link."),
  stale_version: () => t("The table changed before your move arrived: look again."),
  disconnected: () => t("Connection lost before the server answered; the page will resync."),
};

/** What to tell a person about refusal `e` (an error with `code` and `message`). */
export function explain(e) {
  const say = SAID[e?.code];
  if (say) return say();
  return e?.message || t("The server refused that.");
}
