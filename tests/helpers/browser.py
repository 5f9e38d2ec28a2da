"""Debian's Chromium driven by Playwright, shared by every browser test.

`playwright install` cannot download anything here: the tests launch
/usr/bin/chromium (apt-get install -y chromium). Without it a browser test is
skipped on a developer machine and fails with CI=true, like a missing database.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.services import unavailable

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 860}
SHARED_SCREENS = Path("/tmp/karanor-screens")


@pytest.fixture
def browser() -> Iterator[object]:
    """A headless Chromium for the test."""
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} missing: apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e .[test])")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def screens(tmp_path: Path) -> Callable[..., None]:
    """shot(page, name, full_page=False): a screenshot in tmp_path/screens, copied to
    /tmp/karanor-screens so people can look at them."""
    folder = tmp_path / "screens"
    folder.mkdir()
    SHARED_SCREENS.mkdir(exist_ok=True)
    print(f"\nscreenshots: {folder} (copied to {SHARED_SCREENS})")

    def shot(page: object, name: str, full_page: bool = False) -> None:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)  # type: ignore[attr-defined]
        shutil.copy(path, SHARED_SCREENS / path.name)

    return shot


def watch(page: Any, problems: list[str]) -> Any:
    """Collect the page's script errors and console errors (4xx fetches aside)."""
    page.on("pageerror", lambda e: problems.append(f"{page.url}: {e}"))
    page.on(
        "console",
        lambda m: (
            problems.append(f"{page.url}: {m.text}")
            if m.type == "error" and "status of 4" not in m.text
            else None
        ),
    )
    return page
