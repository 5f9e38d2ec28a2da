// Telling a player it is their turn: a toast, a short vibration (phones, once the page
// was touched), and a mark in the tab's title so a background tab shows it too.
import { toast } from "./util.js";

const TITLE = "Karanor Online";

/** Call on every view with whether the seat had to act before and has to act now. */
export function turnCue(wasMyTurn, isMyTurn) {
  if (!wasMyTurn && isMyTurn) {
    toast("Your turn!", "ok", 2500);
    // Browsers refuse (and log an error) before the page was tapped once.
    if (navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate(80);
  }
  document.title = `${isMyTurn ? "● Your turn — " : ""}${TITLE}`;
}
