"""Karanor's log in the browser (issue 16): the revenue line sits inside the turn it
belongs to.

Ana and Bo play a two-seat room. Ana works (through the API), then clicks End turn on
her page; Bo plays one action (through the API). On Ana's page the log entry of the
End-turn version (`<li class=log-entry data-version=V>`) holds exactly that command's
sentences in the engine's order: the revenue sentence first (with the gold the events
and the views agree on), then the bold header of Bo's turn, which closes it; Bo's
action is in the next entry; no entry or line is there twice. The same holds after a
reload, when the log is read back from `GET /log` instead of the live views.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.browser import FAST, LAPTOP, watch
from tests.helpers.client import SeatedRoom
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

RESOURCE_WORDS = {"diamond": ("diamond", "diamonds")}  # goods.js: the others never change


class Room(SeatedRoom):
    """A two-seat Karanor room through HTTP: Ana (seat 0, first to play) and Bo."""

    def __init__(self, base: str) -> None:
        super().__init__(base, ("Ana", "Bo"), {"max_players": 2, "start_seat": 0})


def expected_revenue(base: str, player: dict[str, Any]) -> int:
    """What the revenue phase pays, from the public view: the revenue track plus the
    badges' and artifacts' lasting revenue modifiers (never below 0), plus 1 gold for
    each promoted partner (engine `_revenue`)."""
    cat = httpx.get(f"{base}/api/games/karanor/content", timeout=10).json()["catalogue"]
    mods = sum(cat["badges"][b]["passive"]["revenue"] for b in player["badges"])
    mods += sum(cat["artifacts"][a]["passive"]["revenue"] for a in player["artifacts"])
    promoted = sum(1 for x in player["partners"] if x["promoted"])
    return max(0, player["revenue"] + mods) + promoted


def amount(n: int, what: str) -> str:
    one, many = RESOURCE_WORDS.get(what, (what, what))
    return f"{n} {one if n == 1 else many}"


def doing(view: dict[str, Any]) -> dict[str, Any]:
    """One plain action: Work (a badge may forbid it: then a move)."""
    kinds = {a["type"]: a for a in reversed(view["legal_actions"])}
    return kinds.get("work") or kinds["move"]


def revenue_sentence(e: dict[str, Any]) -> str:
    """words.js `revenue_phase`, for its own seat."""
    goods = " + ".join(amount(n, r) for r, n in e["resources"].items() if n)
    gold = amount(e["gold"], "gold")
    if goods:
        return f"You end the turn and collect {gold} of revenue and {goods}."
    return f"You end the turn and collect {gold} of revenue."


def entry_lines(page: Page, version: int) -> list[str]:
    return page.locator(f"#log li.log-entry[data-version='{version}'] p").all_inner_texts()


def check_the_log(page: Page, end: int, revenue: str, header: str, bo_first: int) -> None:
    log = page.get_by_test_id("game-log")
    entry = log.locator(f"li.log-entry[data-version='{end}']")
    expect(entry).to_have_count(1)
    expect(entry.locator("p")).to_have_text([revenue, header])  # in this order, nothing more
    expect(entry.locator("p").first).to_have_attribute("data-type", "revenue_phase")
    expect(entry.locator("p").nth(1)).to_have_attribute("data-type", "turn")
    # Bo's first action is an entry of its own, after the End-turn one.
    expect(log.locator(f"li.log-entry[data-version='{bo_first}'] p").first).to_be_visible()
    versions = [
        int(v) for v in log.locator("li").evaluate_all("ls => ls.map((l) => l.dataset.version)")
    ]
    assert versions == sorted(set(versions)), f"oldest first, each version once: {versions}"
    assert versions.index(end) < versions.index(bo_first)
    assert end - 1 in versions, "Ana's work is the entry before"
    lines = log.locator("p").all_inner_texts()
    assert lines.count(revenue) == 1, lines
    pairs = list(zip(lines, lines[1:], strict=False))
    assert pairs.count((revenue, header)) == 1, f"the pair of lines twice: {lines}"
    near = [t for v in range(end - 1, bo_first + 1) for t in entry_lines(page, v)]
    assert len(near) == len(set(near)), f"a line twice around the end of the turn: {near}"


@pytest.mark.timeout(120)
def test_the_revenue_line_closes_its_turn_in_the_log(
    server_factory: Callable[..., ServerProcess], browser: Browser
) -> None:
    server = server_factory(env=FAST).start()
    room = Room(server.url)
    room.draft()
    view = room.view(0)
    assert view["turn"]["seat"] == 0 and view["turn"]["phase"] != "draft", view["turn"]
    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    page.goto(f"{server.url}/r/{room.code}#token={room.tokens[0]}")
    version = page.get_by_test_id("version")
    expect(version).to_have_text(str(view["version"]), timeout=15_000)

    # Ana works (a line of her turn before its end), then ends her turn on the page.
    worked = room.send(0, doing(view))
    expect(version).to_have_text(str(worked))
    before = room.view(0)
    end_turn = page.locator("[data-testid=legal-action][data-type=end_turn]")
    expect(end_turn).to_have_count(1)
    end_turn.click()
    end = worked + 1
    expect(version).to_have_text(str(end))
    events = room.events(0, end)
    assert [e["type"] for e in events] == ["revenue_phase", "turn"], events
    paid, turn = events
    after = room.view(0)
    assert paid["seat"] == 0 and turn["seat"] == 1
    # The sentence's gold is what Ana's gold rose by, and what her revenue track pays.
    assert after["players"][0]["gold"] - before["players"][0]["gold"] == paid["gold"]
    assert paid["gold"] == expected_revenue(server.url, before["players"][0]), paid
    revenue = revenue_sentence(paid)
    n = turn["actions"]
    header = f"Round {turn['round']}: Bo's turn ({n} action{'' if n == 1 else 's'})."

    # Bo plays one action: a line of the next turn, in the next version.
    bo = room.view(1)
    bo_first = room.send(1, doing(bo))
    expect(version).to_have_text(str(bo_first))
    assert room.events(0, bo_first), "Bo's action has a line"
    check_the_log(page, end, revenue, header, bo_first)

    # After a reload the log is read back from GET /log: the same entries.
    page.reload()
    expect(version).to_have_text(str(bo_first), timeout=15_000)
    check_the_log(page, end, revenue, header, bo_first)
    assert not problems, "\n".join(problems)
