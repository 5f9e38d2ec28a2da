// The language switch of every page (templates/_language.html): the languages the server
// speaks, the page's own chosen. Changing it remembers the choice (a cookie the server
// reads) and reloads the page in that language.
import { choose, lang } from "./i18n.js";

/** Wire the page's language switch (there is one on every page). */
export function languageSwitch() {
  const select = document.querySelector("[data-testid=language]");
  if (!select || select.dataset.wired) return;
  select.dataset.wired = "1";
  select.value = lang();
  select.addEventListener("change", () => {
    if (select.value && select.value !== lang()) choose(select.value);
  });
  // In a crowded top bar on a phone the languages show as their codes ("EN", "FR").
  if (select.closest(".topbar")) {
    const narrow = window.matchMedia("(max-width: 520px)");
    const fit = () => {
      for (const option of select.options) {
        if (narrow.matches) option.label = option.value.toUpperCase();
        else option.removeAttribute("label");
      }
    };
    fit();
    narrow.addEventListener("change", fit);
  }
}
