// A seat's "Notices when this page is closed" (issue 29), in the game menu and in each row
// of the home page's "My games": this device subscribes with Web Push where the browser
// allows a service worker (HTTPS, or localhost), or gives an Apprise URL (ntfy, Telegram,
// ...) where the server allows those. The routes know the seat by its token (the device
// cookie's, sent with every request): nothing here holds a secret. The server never shows
// a URL back: the list says which kinds are on and whether the last notice failed.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { clear, h, toast } from "./util.js";
import { workerReady } from "./pwa.js";

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const FAILURES = {
  not_delivered: () => t("The last notice could not be delivered: check the address."),
  gone: () => t("This device's subscription has ended."),
};

const pathOf = (code) => `/api/rooms/${encodeURIComponent(code)}/notices`;

function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function pushSubscription() {
  const worker = await workerReady;
  return worker ? worker.pushManager.getSubscription() : null;
}

/** What this browser can use of a server's notices (`GET .../notices`): Web Push, URLs. */
async function ways(state) {
  const canPush = Boolean(state.vapid_public_key && "PushManager" in window && (await workerReady));
  return { canPush, urls: state.kinds.some((kind) => kind !== "web_push") };
}

/** Whether this browser can turn notices on for the seat of room `code` at all (a seat,
 *  and a way the server sends and the browser allows). */
export async function noticesOffered(code) {
  try {
    const { canPush, urls } = await ways(await api("GET", pathOf(code)));
    return canPush || urls;
  } catch {
    return false; // no seat there, or the server away
  }
}

async function turnOnPush(path, state) {
  const worker = await workerReady;
  if (!worker || (await Notification.requestPermission()) !== "granted") {
    toast(t("Notices are blocked in this browser's settings."), "error");
    return;
  }
  const sub = await worker.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: keyBytes(state.vapid_public_key),
  });
  await api("PUT", path, { body: { web_push: sub.toJSON(), time_zone: timeZone } });
  toast(t("Notices are on for this device."));
}

/** This seat's notices on this browser stop. The browser's subscription itself is kept:
 *  it is one for every room of this browser, and the other seats' notices go on. */
async function turnOffPush(path) {
  const sub = await pushSubscription();
  if (sub) await api("DELETE", path, { body: { web_push: sub.toJSON() } });
}

/**
 * The controls of the seat this device holds in room `code`: `element` to place, and
 * `render()` to (re)load them, which resolves to the seat's notices (`GET .../notices`),
 * or null when there is none to offer (a spectator, the server away). `onChange(state)`
 * is called after each render.
 */
export function noticeControls(code, { onChange = () => {} } = {}) {
  const path = pathOf(code);
  const inputId = `notice-url-${code}`;
  const element = h("div", { class: "notices-body", "data-testid": "notices" });

  function urlForm() {
    const input = h("input", {
      type: "text", id: inputId, autocomplete: "off", spellcheck: "false",
      placeholder: "ntfy://ntfy.example.org/my-topic", "data-testid": "notice-url",
    });
    const save = h("button", { type: "submit", class: "btn small", text: t("Save") });
    const form = h("form", { class: "notice-url" },
      h("label", { for: inputId, text: t("Or a notice address (ntfy, Telegram, ...):") }), input, save);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("PUT", path, { body: { url: input.value.trim(), time_zone: timeZone } });
        input.value = "";
        toast(t("Notices are on for this address."));
      } catch (error) {
        toast(error.message, "error");
      }
      render();
    });
    return form;
  }

  async function render() {
    let state;
    try {
      state = await api("GET", path);
    } catch {
      onChange(null);
      return null;
    }
    clear(element);
    const { canPush, urls } = await ways(state);
    if (!canPush && !urls) {
      element.append(h("p", { class: "muted small", text: state.vapid_public_key
        ? t("Notices need this site over HTTPS (or on this computer).")
        : t("This server sends no notices outside the page.") }));
      onChange(state);
      return state;
    }
    for (const target of state.targets) {
      const failure = target.failure ? (FAILURES[target.failure] || FAILURES.not_delivered)() : "";
      const kind = target.kind === "web_push" ? t("Notices go to a browser: this one or another device.") : t("Notices go to an address you gave.");
      element.append(h("p", { class: "small", "data-testid": "notice-target" }, kind, failure ? ` — ${failure}` : ""));
    }
    if (canPush) {
      const on = Boolean(await pushSubscription()) && state.targets.some((x) => x.kind === "web_push");
      const button = h("button", { type: "button", class: "btn", "data-testid": "notices-push",
        text: on ? t("Stop notices on this device") : t("Get notices on this device") });
      button.addEventListener("click", async () => {
        try { await (on ? turnOffPush(path) : turnOnPush(path, state)); } catch (error) { toast(error.message || String(error), "error"); }
        render();
      });
      element.append(button);
    }
    if (urls) element.append(urlForm());
    if (state.targets.length) {
      const stop = h("button", { type: "button", class: "btn small", "data-testid": "notices-stop",
        text: t("Stop every notice of this seat") });
      stop.addEventListener("click", async () => {
        try { await api("DELETE", path); } catch (error) { toast(error.message, "error"); }
        render();
      });
      element.append(stop);
    }
    onChange(state);
    return state;
  }

  return { element, render };
}

// The room page's game menu: its section, loaded each time the menu opens. This module
// is imported at the menu's first opening (main.js): that opening renders it too.
const box = document.getElementById("menu-notices");
const roomCode = document.getElementById("app")?.dataset.code;
if (box && roomCode) {
  const controls = noticeControls(roomCode, { onChange: (state) => { box.hidden = !state; } });
  box.append(controls.element);
  document.getElementById("menu-button")?.addEventListener("click", () => { controls.render(); });
  controls.render();
}
