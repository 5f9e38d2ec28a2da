"""Around the game in Chromium, on the real server (issue 28): the replay of a finished
Karanor game and the Undo button; "my games" on the home page.

Two seats play a short game through the API (the room's `end_prestige` brings the end
near), each seat's view stored at every version. The replay route gives, at every version,
the view each seat had; the page, opened from the end screen's `replay` link, steps
forward and back, jumps by turn and to the ends, and at each stop shows the version asked
for, drawn from exactly the view that seat had then (the page's own request is read).
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from app.games import registry
from tests.helpers.browser import FAST, LAPTOP, PHONE, no_sideways_scroll, watch
from tests.helpers.client import SeatedRoom, bearer, make_room, play_http_step
from tests.helpers.server import ServerProcess, module_server

pytestmark = pytest.mark.slow


server = module_server(FAST)  # one server (SQLite) for this module's two tests


# Screenshots for people: /tmp/karanor-screens, and the team's folder when there is one.
SCREENS = Path("/tmp/karanor-screens")
SHOTS = Path("/work/wt/shots")


def shoot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"))
    if SHOTS.is_dir():
        shutil.copy(SCREENS / f"{name}.png", SHOTS / f"{name}.png")


VOLATILE = ("can_undo", "replay")  # what a live view and a replayed one may differ in


def plain(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in VOLATILE}


def shown(page: Page, click: Callable[[], None]) -> dict[str, Any]:
    """Do `click` and return the replayed view the page asked for and drew."""
    with page.expect_response(lambda r: "/view?at=" in r.url) as answer:
        click()
    data: dict[str, Any] = answer.value.json()
    expect(page.get_by_test_id("version")).to_have_text(str(data["version"]))
    return data


def test_replay_of_a_finished_game(server: ServerProcess, browser: Browser) -> None:
    base = server.url
    room = make_room(base, humans=2, options={"end_prestige": 1})
    stored: dict[int, list[dict[str, Any]]] = {}
    rng = random.Random(4)
    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    page.goto(f"{base}/r/{room.code}#token={room.tokens[0]}")
    undone = 0
    with httpx.Client(base_url=base, timeout=15) as http:

        def keep() -> dict[str, Any]:
            views = [
                http.get(f"/api/rooms/{room.code}/view", headers=bearer(t or "")).json()
                for t in room.tokens
            ]
            stored[views[0]["version"]] = views
            return views[0]

        ann = keep()
        while play_http_step(http, room, rng) is not None:
            ann = keep()
            if undone < 2:
                # The page offers Undo exactly when the server would take the move back.
                expect(page.get_by_test_id("version")).to_have_text(str(ann["version"]))
                expect(page.get_by_test_id("undo")).to_have_count(1 if ann["can_undo"] else 0)
                if ann["can_undo"]:
                    page.get_by_test_id("undo").click()
                    expect(page.get_by_test_id("version")).to_have_text(str(ann["version"] + 1))
                    back = keep()
                    assert plain(back) | {"version": 0} == plain(stored[ann["version"] - 1][0]) | {
                        "version": 0
                    }
                    undone += 1
                    if undone == 2:
                        page.goto("about:blank")  # the rest of the game without a page
        assert undone == 2
        last = max(stored)
        assert stored[last][0]["status"] == "finished"

        # Every version, as each seat saw it: its own (its token), the other's (?seat=).
        for version, views in stored.items():
            own = http.get(
                f"/api/rooms/{room.code}/view",
                params={"at": version},
                headers=bearer(room.tokens[0] or ""),
            ).json()
            assert plain(own) == plain(views[0]), version
            other = http.get(f"/api/rooms/{room.code}/view", params={"at": version, "seat": 1})
            assert plain(other.json()) == plain(views[1]), version
        assert (
            http.get(f"/api/rooms/{room.code}/view", params={"at": last + 1}).json()["error"][
                "code"
            ]
            == "bad_version"
        )
        outline = http.get(f"/api/rooms/{room.code}/replay").json()
        assert outline["version"] == last and outline["finished"] is True

    page.goto(f"{base}/r/{room.code}")
    expect(page.get_by_test_id("version")).to_have_text(str(last))
    # The end screen's story: each player's actions, links into the replay at the swings.
    expect(page.get_by_test_id("story-player")).to_have_count(2)
    # Each player's trades, counted from the log: own offers taken, others' offers taken.
    entries = httpx.get(f"{base}/api/rooms/{room.code}/log", timeout=10).json()
    trades = [e for x in entries["entries"] for e in x["events"] if e["type"] == "trade"]
    for seat in (0, 1):
        made = sum(1 for e in trades if e["from"] == seat)
        took = sum(1 for e in trades if e["seat"] == seat)
        line = (
            "Trades: none"
            if not made and not took
            else f"Trades: {made} of their own offers accepted by others; {took} offers"
        )
        expect(page.locator(f"[data-testid=story-player][data-seat='{seat}']")).to_contain_text(
            line
        )
    expect(page.get_by_test_id("story-swing").first).to_be_visible()
    href = page.get_by_test_id("story-swing").first.get_attribute("href") or ""
    assert href.startswith(f"/r/{room.code}/replay?at=")
    page.get_by_test_id("story").scroll_into_view_if_needed()
    shoot(page, "end-story")
    # The end screen's way into the replay; a finished game's replay opens at the deal.
    with page.expect_response(lambda r: "/view?at=" in r.url) as first:
        page.get_by_test_id("replay").click()
    assert plain(first.value.json()) == plain(stored[0][0])
    expect(page.get_by_test_id("version")).to_have_text("0")
    expect(page.get_by_test_id("replay-bar")).to_be_visible()
    # A wide screen has no empty third column (a replay has no trade panel).
    columns = page.evaluate(
        "() => getComputedStyle(document.querySelector('.game')).gridTemplateColumns"
    )
    assert len(columns.split()) == 2, columns

    # Forward one step at a time, then back: each stop is the view the seat had.
    for v in (1, 2, 3):
        assert plain(shown(page, page.get_by_test_id("replay-forward").click)) == plain(
            stored[v][0]
        )
    assert plain(shown(page, page.get_by_test_id("replay-back").click)) == plain(stored[2][0])
    # The log's entry of the current version is marked; none after it shows (the log
    # told the game's end from the first step on).
    current = page.get_by_test_id("replay-current")
    expect(current).to_have_count(1)
    assert int(current.get_attribute("data-version") or -1) <= 2
    shown_versions = page.get_by_test_id("game-log").evaluate(
        "(ol) => [...ol.querySelectorAll('li')].filter((li) => !li.hidden)"
        ".map((li) => Number(li.dataset.version))"
    )
    assert shown_versions and max(shown_versions) <= 2, shown_versions
    expect(page.get_by_test_id("game-log")).not_to_contain_text(
        "The game is over", use_inner_text=True
    )

    # By turn: the next turn's first version, as the outline says.
    starts = [t["version"] for t in outline["turns"]]
    target = next(s for s in starts if s > 2)
    view = shown(page, page.get_by_test_id("replay-next-turn").click)
    assert view["version"] == target and plain(view) == plain(stored[target][0])
    view = shown(page, page.get_by_test_id("replay-prev-turn").click)
    assert view["version"] == max(s for s in starts if s < target)

    # Mid-game, seen by the other seat (a finished game shows every seat's hand).
    middle = last // 2
    page.goto(f"{base}/r/{room.code}/replay?at={middle}")
    expect(page.get_by_test_id("version")).to_have_text(str(middle))
    view = shown(page, lambda: page.get_by_test_id("replay-seat").select_option("1"))
    assert plain(view) == plain(stored[middle][1])
    shoot(page, "replay-mid-game")

    # To the end: the end screen again, at the last version.
    view = shown(page, page.get_by_test_id("replay-end").click)
    assert view["version"] == last and view["status"] == "finished"
    expect(page.locator("#endgame")).to_be_visible()
    # Its winner line is read as the seat it is seen by (seat 1), like its log: "You win!"
    # only if seat 1 won (it said so for the reader's own win, whoever it was seen by).
    winners = view["result"]["winners"]
    winner = page.locator("#endgame .winner")
    if winners == [1]:
        expect(winner).to_have_text("You win!")
    elif 1 not in winners:
        expect(winner).not_to_contain_text("You")
    # On a phone in French the bar leaves the board in sight: the nine buttons on one row,
    # the bar under a third of the screen (it took half).
    phone = watch(browser.new_context(viewport=PHONE, locale="fr-FR").new_page(), problems)
    phone.goto(f"{base}/r/{room.code}/replay?at={middle}")
    expect(phone.get_by_test_id("version")).to_have_text(str(middle))
    bar = phone.get_by_test_id("replay-bar").bounding_box()
    assert bar is not None and bar["height"] <= PHONE["height"] / 3, bar
    tops = phone.locator("[data-testid=replay-bar] .replay-controls > .btn").evaluate_all(
        "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))"
    )
    assert len(tops) == 9 and len(set(tops)) == 1, tops
    no_sideways_scroll(phone, PHONE["width"])
    phone.context.close()
    assert not problems, problems


def draft(http: httpx.Client, code: str, tokens: list[str]) -> dict[str, Any]:
    """Both seats pick their draft cards; the view once one seat has the turn."""
    while True:
        view = http.get(f"/api/rooms/{code}/view", headers=bearer(tokens[0])).json()
        if len(view["to_act"]) == 1 and view["turn"]["phase"] != "draft":
            return view
        for seat in view["to_act"]:
            mine = http.get(f"/api/rooms/{code}/view", headers=bearer(tokens[seat])).json()
            pick = next(a for a in mine["legal_actions"] if a["type"] == "draft_pick")
            r = http.post(
                f"/api/rooms/{code}/commands",
                json={"id": f"d-{mine['version']}-{seat}", "command": pick},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text


def test_my_games_after_the_tab_is_closed(server: ServerProcess, browser: Browser) -> None:
    base = server.url
    problems: list[str] = []
    context = browser.new_context(viewport=LAPTOP)
    page = watch(context.new_page(), problems)
    page.goto(base)
    http = httpx.Client(base_url=base, timeout=15)

    # Ana's browser makes three rooms with Bo (its requests carry the browser's cookies):
    # one where Ana plays first, one where Bo does, one still in the lobby.
    codes = {}
    for label, start in (("mine", 0), ("bos", 1), ("lobby", None)):
        made = page.request.post(
            f"{base}/api/rooms",
            data={"name": "Ana", "options": {"max_players": 2, "start_seat": start or 0}},
        )
        assert made.status == 201, made.text()
        code, token = made.json()["code"], made.json()["seat"]["token"]
        bo = http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"}).json()["seat"]["token"]
        codes[label] = code
        if start is not None:
            r = http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(token))
            assert r.status_code == 200, r.text
            assert draft(http, code, [token, bo])["to_act"] == [start]
    # A room Ana's browser knows only by an old per-room cookie (before the device cookie).
    old = http.post("/api/rooms", json={"name": "Ana", "options": {"max_players": 2}}).json()
    context.add_cookies(
        [{"name": f"karanor_{old['code']}", "value": old["seat"]["token"], "url": base}]
    )
    http.post(f"/api/rooms/{old['code']}/seats", json={"name": "Cy"})

    # The tab is closed; another one opens the home page.
    page.close()
    page = watch(context.new_page(), problems)
    page.goto(base)
    games = page.get_by_test_id("my-game")
    expect(games).to_have_count(4)
    expect(page.get_by_test_id("my-games")).to_be_visible()
    first = games.first
    assert first.get_attribute("data-code") == codes["mine"]
    assert first.get_attribute("data-my-turn") == "true"
    expect(first.get_by_test_id("my-game-status")).to_have_text("Your turn")
    bos = page.locator(f"[data-testid=my-game][data-code='{codes['bos']}']")
    expect(bos.get_by_test_id("my-game-status")).to_have_text("Waiting for Bo")
    statuses = [games.nth(i).get_attribute("data-status") for i in range(4)]
    assert statuses == ["playing", "playing", "lobby", "lobby"], statuses
    assert old["code"] in {games.nth(i).get_attribute("data-code") for i in range(4)}
    shoot(page, "my-games")

    # Hidden, it stays hidden (the device cookie says so); the seat still works.
    page.locator(f"[data-testid=my-game][data-code='{codes['lobby']}']").get_by_test_id(
        "hide-game"
    ).click()
    expect(games).to_have_count(3)
    page.reload()
    expect(games).to_have_count(3)
    me = page.request.get(f"{base}/api/rooms/{codes['lobby']}/me").json()
    assert me["seat"]["index"] == 0
    # The room link opens it as Ana's seat.
    first.locator("a").first.click()
    expect(page).to_have_url(f"{base}/r/{codes['mine']}")
    expect(page.get_by_test_id("legal-action").first).to_be_visible()
    # The same browser in French names the games in French (each row's title was the
    # game's English one on a French page).
    french = browser.new_context(viewport=LAPTOP, locale="fr-FR")
    french.add_cookies(context.cookies())
    page = watch(french.new_page(), problems)
    page.goto(base)
    expect(page.get_by_test_id("my-game")).to_have_count(3)
    titles = page.locator(".my-game-title")
    expect(titles).to_have_text(["Marchands de Karanor"] * 3)
    http.close()
    assert not problems, problems


def test_replay_of_a_dark_road_game(server: ServerProcess, browser: Browser) -> None:
    """A solo Dark Road game played to its end through the API (random legal commands),
    then its replay: the board of the Dark Road's own module at the version asked for."""
    base = server.url
    rng = random.Random(2)
    with httpx.Client(base_url=base, timeout=15) as http:
        made = http.post(
            "/api/rooms", json={"name": "Ana", "game": "darkroad", "options": {"max_players": 1}}
        ).json()
        code, auth = made["code"], bearer(made["seat"]["token"])
        assert http.post(f"/api/rooms/{code}/start", json={}, headers=auth).status_code == 200
        stored: dict[int, dict[str, Any]] = {}
        for _ in range(2000):
            view = http.get(f"/api/rooms/{code}/view", headers=auth).json()
            stored[view["version"]] = view
            if view["status"] == "finished":
                break
            command = rng.choice(view["legal_actions"])
            r = http.post(
                f"/api/rooms/{code}/commands",
                json={"id": f"c-{view['version']}", "command": command},
                headers=auth,
            )
            assert r.status_code == 200, r.text
        last = max(stored)
        assert stored[last]["status"] == "finished"

    problems: list[str] = []
    page = watch(browser.new_context(viewport=LAPTOP).new_page(), problems)
    page.goto(f"{base}/r/{code}/replay?at={last // 2}")
    expect(page.get_by_test_id("version")).to_have_text(str(last // 2))
    expect(page.get_by_test_id("board")).to_be_visible()
    for step, v in (
        (page.get_by_test_id("replay-forward"), last // 2 + 1),
        (page.get_by_test_id("replay-back"), last // 2),
    ):
        view = shown(page, step.click)
        assert view["version"] == v
        # A spectator of the finished game is shown the seat's own view (any seat's).
        assert plain(view)["board"] == plain(stored[v])["board"]
    view = shown(page, page.get_by_test_id("replay-end").click)
    assert view["version"] == last
    assert not problems, problems


def test_a_run_of_moves_undone_one_by_one_on_a_phone_in_french(
    server: ServerProcess, browser: Browser
) -> None:
    """Ana plays three commands of one turn that reveal nothing, then takes them back one
    by one with the page's Undo button ("Annuler", a phone, French): after each click the
    page shows the new version and both seats' views are again those before that command
    (the server keeps one copy for the run and replays the rest: app/rooms/takeback.py)."""
    room = SeatedRoom(server.url, ["Ana", "Bo"], {})
    room.draft()
    if room.view(0)["turn"]["seat"] != 0:
        room.send(1, {"type": "end_turn"})
    problems: list[str] = []
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = watch(context.new_page(), problems)
    page.goto(f"{server.url}/r/{room.code}#token={room.tokens[0]}")
    before: list[list[dict[str, Any]]] = []
    # Kinds Karanor lets be taken back (the game's own set), cheapest to replay first.
    takeable = ("work", "harvest", "market", "move")
    karanor = registry.get("karanor")
    assert karanor is not None and set(takeable) <= karanor.take_backs
    outlines: list[str | None] = []  # the map's last-action outline before each command

    def outline() -> str | None:
        mark = page.get_by_test_id("last-action")
        return mark.get_attribute("data-territory") if mark.count() else None

    while len(before) < 3:
        views = [room.view(0), room.view(1)]
        legal = [a for a in views[0]["legal_actions"] if a["type"] in takeable]
        if not legal:
            break
        expect(page.get_by_test_id("version")).to_have_text(str(views[0]["version"]))
        mark = outline()
        room.send(0, min(legal, key=lambda a: takeable.index(a["type"])))
        if not room.view(0)["can_undo"]:
            break
        before.append(views)
        outlines.append(mark)
    expect(page.get_by_test_id("version")).to_have_text(str(room.view(0)["version"]))
    assert outline() is not None  # a move or a harvest of the run is outlined
    assert len(before) == 3, [a["type"] for a in room.view(0)["legal_actions"]]
    for k, views in enumerate(reversed(before)):
        version = room.view(0)["version"]
        expect(page.get_by_test_id("version")).to_have_text(str(version))
        button = page.get_by_test_id("undo")
        expect(button).to_contain_text("Annuler")
        if k == 0:
            shoot(page, "undo-run-fr-phone-three-moves")
            with_undo = page.locator(".topbar").bounding_box()
        button.focus()
        page.keyboard.press("Enter")  # by the keyboard: the focus must stay usable
        expect(page.get_by_test_id("version")).to_have_text(str(version + 1))
        if k < len(before) - 1:  # Undo again is where the focus stays
            expect(page.get_by_test_id("undo")).to_be_focused()
        else:  # none left: a command of the game has it, not the page's body
            expect(page.locator("#game [data-command]:focus")).to_have_count(1)
        back = [room.view(0), room.view(1)]
        for now, then in zip(back, views, strict=True):
            assert plain(now) | {"version": 0} == plain(then) | {"version": 0}
        # The map outlines what it did before the command taken back (it kept the
        # outline of the move taken back).
        assert outline() == outlines[len(before) - 1 - k], k
    expect(page.get_by_test_id("undo")).to_have_count(0)  # nothing left of the run
    # The top bar kept its height as Undo went: the page under it did not jump.
    without = page.locator(".topbar").bounding_box()
    assert with_undo and without and abs(with_undo["height"] - without["height"]) < 1
    # The log says it in French about "you": "Vous avez repris un coup", not "Vous a".
    log = page.get_by_test_id("game-log")
    expect(log).to_contain_text("Vous avez repris un coup")
    expect(log).not_to_contain_text("Vous a repris")
    shoot(page, "undo-run-fr-phone-taken-back")
    context.close()
    assert not problems, problems
