"""Debian's Chromium driven by Playwright, shared by every browser test.

`playwright install` cannot download anything here: the tests launch
/usr/bin/chromium (apt-get install -y chromium). Without it a browser test is
skipped on a developer machine and fails with CI=true, like a missing database.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.chromium import ARGS, CHROMIUM
from tests.helpers.services import unavailable

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 860}
SHARED_SCREENS = Path("/tmp/karanor-screens")
# The servers of browser tests that play through the API as well: bots without a pause,
# quiet logs, no room quota, and no per-seat command rate (a test sends a seat's commands
# faster than a person could: with one kept-alive client, a whole game through the API
# passed the default 20 a second and got `rate_limited`).
FAST = {
    "KARANOR_BOT_DELAY_SECONDS": "0",
    "KARANOR_LOG_LEVEL": "warning",
    "KARANOR_ROOMS_PER_HOUR": "0",
    "KARANOR_COMMAND_RATE": "1000",
    "KARANOR_COMMAND_BURST": "1000",
}


def launched() -> Iterator[Any]:
    """A headless Chromium, closed when the generator ends (for fixtures of any scope)."""
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
def browser() -> Iterator[object]:
    """A headless Chromium for the test."""
    yield from launched()


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


def wait_js(page: Any, expression: str, arg: Any = None, timeout: float = 10_000) -> None:
    """Wait until `expression` (a JS expression, or a function of `arg`) is true in the
    page, polled with `page.evaluate`: the page's CSP forbids the eval that Playwright's
    `wait_for_function` needs once it has to poll."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout:.0f} ms: {expression}")
        page.wait_for_timeout(50)


# The elements whose right edge passes the viewport, deepest first: what to fix when a
# page scrolls sideways.
_WIDE = """w => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > w + 0.5
               && getComputedStyle(e).position !== 'fixed')
  .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > w + 0.5))
  .slice(0, 8)
  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
       + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
       + ' right=' + Math.round(e.getBoundingClientRect().right)
       + ' "' + (e.textContent || '').trim().slice(0, 60) + '"')"""


def no_sideways_scroll(page: Any, width: int) -> None:
    """The page is no wider than the viewport; if it is, name the elements that stick out."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        culprits = page.evaluate(_WIDE, width)
        raise AssertionError(
            f"the page scrolls sideways ({scroll}px > {width}px): " + "; ".join(culprits)
        )


def axe_violations(page: Any, exclude: list[str] | None = None) -> list[str]:
    """What axe-core (WCAG 2.x A/AA and best practices) finds wrong in the page as it
    is now: one line per violation, with its impact and the first elements it names."""
    from axe_playwright_python.sync_playwright import Axe

    context: Any = {"exclude": [[sel] for sel in exclude]} if exclude else None
    results = Axe().run(page, context=context)
    lines = []
    for v in results.response["violations"]:
        targets = ", ".join(str(n["target"]) for n in v["nodes"][:4])
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}x): {v['help']} -- {targets}")
    return lines
