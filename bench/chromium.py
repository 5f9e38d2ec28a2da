"""How this project launches Debian's Chromium under Playwright (shared by the browser
tests and `bench.page`): `playwright install` cannot download anything here, so the
browser is /usr/bin/chromium (apt-get install -y chromium), started with these flags."""

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
