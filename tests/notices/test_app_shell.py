"""The installable app (issue 29), in Chromium: the service worker registers at the site's
root, the manifest is installable by the browser's own check (name, icons, start URL,
display), and the worker's offline page shows when the server is down."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from playwright.sync_api import expect, sync_playwright

from tests.helpers.browser import ARGS, CHROMIUM, unavailable, watch
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow


def test_the_app_installs_and_shows_its_offline_page(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} missing: apt-get install -y chromium")
    server = server_factory(env={"KARANOR_LOG_LEVEL": "warning"}).start()
    with sync_playwright() as p:
        # A profile on disk: Chromium installs no app from an off-the-record context.
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS
        )
        try:
            _install_then_offline(server, context)
        finally:
            context.close()


def _install_then_offline(server: ServerProcess, context: Any) -> None:
    problems: list[str] = []
    page = watch(context.new_page(), problems)
    page.goto(server.url + "/")
    worker = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert worker == server.url + "/sw.js"
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)") == (
        server.url + "/"
    )

    cdp = context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"] == server.url + "/manifest.webmanifest" and not found["errors"]
    manifest = orjson.loads(found["data"])
    assert manifest["name"] == "Karanor Online"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(server.url + icon["src"]).ok
    # Chromium's own installability check: no error at all.
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors

    assert problems == [], problems
    server.kill()  # the server goes away: the worker answers with its offline page
    page.goto(server.url + "/r/some-room")
    expect(page.get_by_test_id("offline")).to_contain_text("The server is not reachable")
    # The page's own fetch failing is said on the console; nothing else is. A
    # keep-alive connection open when the server died reads as a reset, a new
    # one as refused: both are the server being gone.
    gone = ("net::ERR_CONNECTION_REFUSED", "net::ERR_CONNECTION_RESET", "net::ERR_EMPTY_RESPONSE")
    assert all(any(g in p for g in gone) for p in problems), problems
