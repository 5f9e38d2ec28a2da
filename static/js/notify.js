// Telling a player it is their turn: a toast, a short vibration (phones, once the page
// was touched), a mark in the tab's title so a background tab shows it too, and two cues
// a player turns on in the game menu: a short tone (Web Audio, no file) and a browser
// notification while the tab is hidden (permission asked when the box is ticked).
import { t } from "./i18n.js";
import { toast } from "./util.js";

const TITLE = "Karanor Online";
const KEY_SOUND = "karanor:cue:sound";
const KEY_NOTIFY = "karanor:cue:notify";

const stored = (key) => { try { return localStorage.getItem(key) === "1"; } catch { return false; } };
const store = (key, on) => { try { localStorage.setItem(key, on ? "1" : "0"); } catch { /* private mode */ } };

/** The player's cue settings (kept in this browser) and the cues themselves. */
export const cues = {
  sound: stored(KEY_SOUND), // off by default
  notify: stored(KEY_NOTIFY) && typeof Notification !== "undefined" && Notification.permission === "granted",
  audio: null,
  played: 0, // how many tones were started (tests read it: window.__karanorCues)

  setSound(on) {
    this.sound = on;
    store(KEY_SOUND, on);
  },

  /** Turn notifications on (asks for the permission: call it from a click). */
  async setNotify(on) {
    if (!on || typeof Notification === "undefined") {
      this.notify = false;
      store(KEY_NOTIFY, false);
      if (on) toast(t("This browser cannot show notifications."), "error");
      return false;
    }
    let permission = Notification.permission;
    if (permission === "default") {
      try { permission = await Notification.requestPermission(); } catch { permission = "denied"; }
    }
    this.notify = permission === "granted";
    store(KEY_NOTIFY, this.notify);
    if (!this.notify) toast(t("Notifications are blocked for this site in the browser's settings."), "error", 6000);
    return this.notify;
  },

  /** A short two-note tone, made on the spot. */
  beep() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      this.audio ||= new Ctx();
      const ctx = this.audio;
      if (ctx.state === "suspended") ctx.resume();
      const t = ctx.currentTime;
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.45);
      gain.connect(ctx.destination);
      for (const [freq, at] of [[660, 0], [880, 0.15]]) {
        const osc = ctx.createOscillator();
        osc.type = "sine";
        osc.frequency.setValueAtTime(freq, t + at);
        osc.connect(gain);
        osc.start(t + at);
        osc.stop(t + at + 0.3);
      }
      this.played += 1;
    } catch {
      // no audio device: the other cues remain
    }
  },

  /** A notification while the page is hidden; a click brings the tab back. */
  show(text) {
    if (!this.notify || !document.hidden || typeof Notification === "undefined"
        || Notification.permission !== "granted") return;
    try {
      const note = new Notification(TITLE, { body: text, tag: "karanor-turn" });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      // some browsers allow notifications from a service worker only
    }
  },
};
window.__karanorCues = cues;

let turnToast = null;

/** Call on every view with whether the seat had to act before and has to act now.
 * "Your turn!" goes as soon as the turn has ended (it would cover the step tabs). */
export function turnCue(wasMyTurn, isMyTurn) {
  if (!isMyTurn && turnToast) {
    turnToast.remove();
    turnToast = null;
  }
  if (!wasMyTurn && isMyTurn) {
    turnToast = toast(t("Your turn!"), "ok", 2500) || null;
    // Browsers refuse (and log an error) before the page was tapped once.
    if (navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate(80);
    if (cues.sound) cues.beep();
    cues.show(t("Your turn!"));
  }
  document.title = isMyTurn ? t("● Your turn — {title}", { title: TITLE }) : TITLE;
}
