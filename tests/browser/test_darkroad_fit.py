"""The Dark Road page in French (issue 26's leftovers), at 1280x800 and on a 390x844 phone:

- no text spills out of its box: on the board, every <text> stays inside the card, token
  or panel it is drawn on, and overlaps no other text, die or good token (French names are
  longer: "Reconnaissance de dette", the good-fortune box, the event decks' fortunes beside
  the companions' travel die); in the HTML panels no element is wider than its box
  (scrollWidth > clientWidth);
- the docked toasts stay in view when the side column is scrolled down;
- the end screen's tie-break line: only under the tied rows, every tie-break named with its
  value, in the rulebook's order ("Ties are broken by ... highest discarded base score,
  then loyal gifts, then commissions, then heroes": darkroad-open-questions.md, 27), and
  the shared victory said when the tie-breaks do not part the winners.

Seed 34 puts "Moneylender's Bond" ("Reconnaissance de dette") in the courtyard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_darkroad import (
    darkroad_hosted,
    new_room,
    same_version,
    settle_by_api,
    start,
)
from tests.browser.test_darkroad_page import SIZES
from tests.helpers.browser import FAST, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

# Every text that leaves its box, as sentences. A board text's box is the innermost rect
# or circle drawn before it in an enclosing group that holds the text's middle (a card, a
# token, a panel); an HTML element's box is its own client width.
OVERFLOWS = """() => {
  const out = [];
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const svg = document.querySelector('[data-testid=board] svg');
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && t.getClientRects().length);
  const label = (t) => t.textContent.trim().slice(0, 40);
  for (const t of texts) {
    const r = t.getBoundingClientRect();
    const mx = (r.left + r.right) / 2, my = (r.top + r.bottom) / 2;
    let box = null;
    for (let child = t, g = t.parentElement; g && g !== svg && !box; child = g, g = g.parentElement) {
      for (const c of g.children) {
        if (c === child) break;
        if (c.tagName !== 'rect' && c.tagName !== 'circle') continue;
        const b = c.getBoundingClientRect();
        if (b.left <= mx && mx <= b.right && b.top <= my && my <= b.bottom) box = c;
      }
    }
    if (box && !inside(r, box.getBoundingClientRect())) out.push(`board: "${label(t)}" past its box`);
  }
  const solid = [...svg.querySelectorAll('.die, .good-token')].filter(d => d.getClientRects().length);
  for (let i = 0; i < texts.length; i++) {
    const a = texts[i].getBoundingClientRect();
    for (let j = i + 1; j < texts.length; j++) {
      if (meets(a, texts[j].getBoundingClientRect())) out.push(`board: "${label(texts[i])}" over "${label(texts[j])}"`);
    }
    for (const d of solid) {
      if (!d.contains(texts[i]) && meets(a, d.getBoundingClientRect())) out.push(`board: "${label(texts[i])}" over a ${d.getAttribute('class')}`);
    }
  }
  for (const el of document.querySelectorAll('.dr-game *:not(svg *)')) {
    if (el.closest('[data-testid=board], .sr-only') || !el.getClientRects().length || el.clientWidth === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1) out.push(`html: ${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 40)}" ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return out;
}"""

# A toast raised while the side column is scrolled to its end: where it shows.
TOAST_AFTER_SCROLL = """async () => {
  const col = document.querySelector('.dr-side-col');
  col.scrollTop = col.scrollHeight;
  const { toast } = await import('/static/js/util.js');
  // Toasts piled up past the docked box's height: the newest is the one scrolled to.
  for (let i = 0; i < 4; i++) toast('earlier toast ' + i, 'info', 60000);
  toast('probe toast', 'ok', 60000);
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const node = [...document.querySelectorAll('.toast')].find(n => n.textContent.includes('probe toast'));
  const r = node.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {scrolled: col.scrollTop > 0, inView: r.top >= 0 && r.bottom <= innerHeight && r.height > 10,
          uncovered: Boolean(hit) && node.contains(hit), inColumn: col.contains(node)};
}"""

# The end screen's details for a made-up result: seats 0 and 1 tied on the total (and on
# the first tie-break when `shared`), seat 2 behind.
TIE_BREAKS = """async (shared) => {
  const { Words } = await import('/static/js/games/darkroad/words.js');
  const { endDetails } = await import('/static/js/games/darkroad/endgame.js');
  const content = await (await fetch('/api/games/darkroad/content?lang=' + document.documentElement.lang)).json();
  const w = new Words(content);
  const players = ['Ann', 'Bo', 'Cy'].map((name, seat) => ({seat, name, special: [], upgrades: []}));
  const row = (seat, total, discarded, gifts) => ({seat, coins: total, prestige: discarded, base: total, discarded, vp: 0, total, gifts, commissions: 2, heroes: 1});
  const view = {seat: 0, players, result: {winners: shared ? [0, 1] : [0],
    scores: [row(0, 20, 38, 3), row(1, 20, shared ? 38 : 31, 3), row(2, 12, 25, 0)], deeds: {}}};
  w.setView(view, null);
  const box = document.createElement('div');
  endDetails(box, view, w, 'nope');
  const notes = [...box.querySelectorAll('.dr-score-note')].map(n => n.textContent);
  return {notes, shared: box.textContent.includes(shared ? 'victoire est partagée' : '@@')};
}"""


def open_fr(
    browser: Browser, base: str, code: str, token: str, size: str, problems: list[str]
) -> Page:
    phone = size == "phone"
    context = browser.new_context(
        viewport=SIZES[size],
        has_touch=phone,
        is_mobile=phone,
        device_scale_factor=1,
        locale="fr-FR",
    )
    page = watch(context.new_page(), problems)
    page.goto(f"{base}/r/{code}#token={token}")
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible(timeout=15_000)
    return page


def test_french_text_fits_toasts_stay_in_view_and_tie_breaks_read(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env={**FAST, "KARANOR_GAME_SEED": "34"}).start()
    darkroad_hosted(server.url)
    api = new_room(server.url)
    start(api, bots=1)
    view = settle_by_api(
        api,
        lambda v: (
            any(a["type"] == "plan" for a in v["legal_actions"])
            and not (v["private"] or {}).get("pending")
        ),
    )
    problems: list[str] = []
    for size in ("laptop", "phone"):
        page = open_fr(browser, api.base, api.code, api.token, size, problems)
        same_version(page, view)
        assert page.evaluate("document.documentElement.lang") == "fr"
        # The long French deed is on the board, laid out to its card.
        expect(page.locator('[data-card="Reconnaissance de dette"]')).to_have_count(1)
        spills: list[Any] = page.evaluate(OVERFLOWS)
        assert not spills, f"{size}: text out of its box:\n" + "\n".join(spills)
        toast = page.evaluate(TOAST_AFTER_SCROLL)
        assert toast["scrolled"], f"{size}: the side column did not scroll: {toast}"
        assert toast["inView"] and toast["uncovered"] and not toast["inColumn"], f"{size}: {toast}"
        if size == "laptop":
            tied = page.evaluate(TIE_BREAKS, False)
            # The two tied rows say their tie-breaks in order with their values; the third
            # (behind on the total) says none; the first tie-break parts them.
            assert len(tied["notes"]) == 2, tied
            for note, value in zip(tied["notes"], (38, 31), strict=True):
                assert note.startswith(
                    "Départages, dans l'ordre : le plus haut des pièces et du prestige"
                ), note
                assert (
                    f"({value}), dons fidèles (3), commandes livrées (2), héros livrés (1)." in note
                ), note
            shared = page.evaluate(TIE_BREAKS, True)
            assert len(shared["notes"]) == 2 and shared["shared"], shared
        page.context.close()
    assert not problems, problems
