"""How this project launches Debian's Chromium under Playwright (shared by the browser
tests and `bench.page`): `playwright install` cannot download anything here, so the
browser is /usr/bin/chromium (apt-get install -y chromium), started with these flags.

Chromium 156 opens, for every new window (every Playwright context), a renderer of its
own for the address bar's suggestion popup (a "top-chrome WebUI" page, about 0.3 s of CPU
as it starts). Headless, nobody sees that popup, and on this two-core machine it ran
beside the page being measured: a cold board at 4x CPU included it (issue 31). It is
switched off by two features. `--disable-features` is given again here with the list
Playwright passes itself (1.65), because a repeated switch may replace the earlier one:
with the union, whether Chromium keeps the last or merges them, every one stays off."""

CHROMIUM = "/usr/bin/chromium"

# Playwright 1.65's own `--disable-features` (its chromiumSwitches.ts), kept by the union.
_PLAYWRIGHT_OFF = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
]
# The address bar's WebUI popup (both are needed: either alone keeps its renderer).
_OMNIBOX_WEBUI = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-features=" + ",".join(_PLAYWRIGHT_OFF + _OMNIBOX_WEBUI),
]
