"""Page benchmark: what the player feels, in a real Chromium (issue 31).

    .venv/bin/python -m bench.page                       # both games, 40 clicks, 3 runs
    .venv/bin/python -m bench.page --games karanor --runs 1 --clicks 20
    .venv/bin/python -m bench.page --trace /tmp/click-trace   # + a DevTools trace of clicks

A real `karanor serve` process (SQLite) and Debian's Chromium through Playwright. For
each game and run: a room of two people (two browser contexts, each with its seat's
cookie), then

- **click -> screen**: the seat the game waits for clicks one of its page's enabled
  `legal-action` buttons (chosen by a seeded random generator). Both pages record, with
  one clock (`performance.timeOrigin + performance.now()`, the same wall clock in every
  page of the machine), their own `click` event and each change of the `version`
  element (a MutationObserver; its callback runs once the task that changed the
  element, the whole render, is over) and the frame after it (`requestAnimationFrame`
  then a posted message: the frame has been produced). `own` is the clicker's page,
  `other` the other person's; `version` times the element's change (the issue's
  measure), `frame` the frame after it.
- **bytes per update per seat**: every WebSocket frame the pages receive during the
  clicks (CDP `Network.webSocketFrameReceived`), the view (or patch) messages' sizes.
- **first load**: a fresh context (empty cache) opens the room page as a seated person;
  requests and bytes transferred (CDP `Network.loadingFinished.encodedDataLength`,
  headers included) until the board is drawn and the network is quiet; then the
  **repeat visit**: the same page opened again in the same context.
- **board at 4x CPU**: `Emulation.setCPUThrottlingRate` 4, a fresh context (cold) and
  then the same context again (warm): milliseconds from the navigation's start to the
  frame after the first version is drawn.

Figures are per run; the medians of the runs are under "median". The last line printed
is one JSON object with every figure. Timings depend on the machine's load: compare
figures of one run, not across machines.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx

from app.rooms.tokens import cookie_name
from bench import chromium
from bench.server import ServerProcess

REPO_ROOT = Path(__file__).resolve().parents[1]
ARGS = [
    *chromium.ARGS,
    # Two pages side by side: neither is a background tab that gets no frames.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
VIEWPORT = {"width": 1366, "height": 860}
SERVER_ENV = {
    "KARANOR_BOT_DELAY_SECONDS": "0",
    "KARANOR_LOG_LEVEL": "warning",
    "KARANOR_ROOMS_PER_HOUR": "0",
    "KARANOR_COMMAND_RATE": "1000",
    "KARANOR_COMMAND_BURST": "1000",
}
GAMES = ("karanor", "darkroad")
STEP_TIMEOUT_MS = 8000

# Injected before any script of the page (CDP, so the page's CSP does not apply).
PROBE = """
(() => {
  const clock = () => performance.timeOrigin + performance.now();
  const B = window.__bench = { clicks: [], versions: [], waiters: [] };
  addEventListener("click", () => { B.clicks.push(clock()); }, true);
  const settle = () => {
    B.waiters = B.waiters.filter((w) => {
      const rec = B.versions.find((r) => r.v > w.after && r.frame !== null);
      if (rec) w.resolve(rec);
      return !rec;
    });
  };
  const hook = () => {
    const el = document.getElementById("version");
    if (!el) return false;
    new MutationObserver(() => {
      const rec = { v: Number(el.textContent), t: clock(), frame: null };
      B.versions.push(rec);
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => { rec.frame = clock(); settle(); };
        ch.port2.postMessage(0);
      });
    }).observe(el, { childList: true, characterData: true, subtree: true });
    return true;
  };
  if (!hook()) document.addEventListener("DOMContentLoaded", hook);
  B.after = (version, ms) => new Promise((resolve) => {
    B.waiters.push({ after: version, resolve });
    settle();
    setTimeout(() => resolve(null), ms);
  });
})();
"""

# Marks one enabled, visible legal-action button of the page (chosen by `pick` in [0, 1)).
PICK = """(pick) => {
  const old = document.querySelectorAll("[data-bench-pick]");
  for (const b of old) b.removeAttribute("data-bench-pick");
  const ok = (b) => !b.disabled && b.getAttribute("aria-disabled") !== "true"
    && b.getClientRects().length > 0 && !b.closest("dialog:not([open]), [hidden]");
  const all = [...document.querySelectorAll('[data-testid="legal-action"]')].filter(ok);
  if (!all.length) return null;
  const b = all[Math.floor(pick * all.length)];
  b.setAttribute("data-bench-pick", "1");
  return b.dataset.type || "?";
}"""


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return round(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo), 1)


def summary(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50": pct(values, 50), "p95": pct(values, 95)}


class Seat:
    def __init__(self, index: int, token: str) -> None:
        self.index = index
        self.token = token
        self.context: Any = None
        self.page: Any = None
        self.frames: list[int] = []  # sizes of the view/patch messages received
        self.kinds: Counter[str] = Counter()


def http() -> httpx.Client:
    return httpx.Client(timeout=20)


def open_room(base: str, game: str) -> tuple[str, list[Seat]]:
    with http() as client:
        r = client.post(f"{base}/api/rooms", json={"name": "Ana", "game": game})
        r.raise_for_status()
        code = r.json()["code"]
        host = Seat(0, r.json()["seat"]["token"])
        r = client.post(f"{base}/api/rooms/{code}/seats", json={"name": "Bo"})
        r.raise_for_status()
        guest = Seat(1, r.json()["seat"]["token"])
        r = client.post(
            f"{base}/api/rooms/{code}/start",
            headers={"Authorization": f"Bearer {host.token}"},
        )
        r.raise_for_status()
    return code, [host, guest]


def view_of(base: str, code: str, seat: Seat) -> dict[str, Any]:
    with http() as client:
        r = client.get(
            f"{base}/api/rooms/{code}/view", headers={"Authorization": f"Bearer {seat.token}"}
        )
        r.raise_for_status()
        return dict(r.json())


def new_context(browser: Any, server: ServerProcess, code: str, seat: Seat) -> Any:
    context = browser.new_context(viewport=VIEWPORT, service_workers="allow")
    context.add_cookies(
        [{"name": cookie_name(code), "value": seat.token, "url": server.url, "httpOnly": True}]
    )
    context.add_init_script(PROBE)
    return context


def board_time(page: Any) -> float | None:
    """Milliseconds from the navigation's start to the frame after the first version."""
    rec = page.evaluate(f"() => window.__bench.after(-1, {STEP_TIMEOUT_MS})")
    if rec is None:
        return None
    return round(float(rec["frame"]) - float(page.evaluate("performance.timeOrigin")), 1)


class NetLog:
    """Requests and bytes of one page through CDP."""

    def __init__(self, context: Any, page: Any) -> None:
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.reset()
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.loadingFinished", self._done)
        self.cdp.on("Network.requestServedFromCache", self._cached)
        self.cdp.on("Network.responseReceived", self._response)

    def reset(self) -> None:
        self.requests: dict[str, str] = {}
        self.bytes: dict[str, int] = {}
        self.from_cache: set[str] = set()
        self.encoding: dict[str, str] = {}

    def _sent(self, event: dict[str, Any]) -> None:
        self.requests[event["requestId"]] = event["request"]["url"]

    def _done(self, event: dict[str, Any]) -> None:
        self.bytes[event["requestId"]] = int(event.get("encodedDataLength") or 0)

    def _cached(self, event: dict[str, Any]) -> None:
        self.from_cache.add(event["requestId"])

    def _response(self, event: dict[str, Any]) -> None:
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromServiceWorker"):
            self.from_cache.add(event["requestId"])
        headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        self.encoding[event["requestId"]] = headers.get("content-encoding", "")

    def figures(self) -> dict[str, Any]:
        network = [r for r in self.requests if r not in self.from_cache]
        largest = sorted(
            ((self.bytes.get(r, 0), self.requests[r]) for r in self.requests), reverse=True
        )[:5]
        return {
            "requests": len(self.requests),
            "from_network": len(network),
            "from_cache": len(self.requests) - len(network),
            "kb_transferred": round(sum(self.bytes.get(r, 0) for r in self.requests) / 1024, 1),
            "compressed": sum(1 for r in self.requests if self.encoding.get(r)),
            "largest": [{"kb": round(b / 1024, 1), "url": u.split("/", 3)[-1]} for b, u in largest],
        }


def first_load(browser: Any, server: ServerProcess, code: str, seat: Seat) -> dict[str, Any]:
    context = new_context(browser, server, code, seat)
    page = context.new_page()
    net = NetLog(context, page)
    url = f"{server.url}/r/{code}"
    page.goto(url)
    cold_board = board_time(page)
    page.wait_for_load_state("networkidle")
    cold = net.figures()
    net.reset()
    page.goto(url)
    warm_board = board_time(page)
    page.wait_for_load_state("networkidle")
    warm = net.figures()
    context.close()
    return {"first": {**cold, "board_ms": cold_board}, "repeat": {**warm, "board_ms": warm_board}}


def throttled(
    browser: Any, server: ServerProcess, code: str, seat: Seat, rate: float
) -> dict[str, Any]:
    context = new_context(browser, server, code, seat)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    url = f"{server.url}/r/{code}"
    page.goto(url)
    cold = board_time(page)
    page.wait_for_load_state("networkidle")
    page.goto(url)
    warm = board_time(page)
    context.close()
    return {"cold_ms": cold, "warm_ms": warm}


def watch_frames(seat: Seat, context: Any) -> None:
    cdp = context.new_cdp_session(seat.page)
    cdp.send("Network.enable")

    def frame(event: dict[str, Any]) -> None:
        data = event["response"].get("payloadData", "")
        head = data[:40]
        kind = head.split('"type":"', 1)[1].split('"', 1)[0] if '"type":"' in head else "?"
        seat.kinds[kind] += 1
        if kind in ("view", "patch"):
            seat.frames.append(len(data.encode()))

    cdp.on("Network.webSocketFrameReceived", frame)
    seat._cdp = cdp  # type: ignore[attr-defined]


def play(
    browser: Any,
    server: ServerProcess,
    game: str,
    clicks: int,
    seed: int,
    trace: Path | None,
) -> dict[str, Any]:
    code, seats = open_room(server.url, game)
    for seat in seats:
        seat.context = new_context(browser, server, code, seat)
        seat.page = seat.context.new_page()
        watch_frames(seat, seat.context)
        seat.page.goto(f"{server.url}/r/{code}")
    for seat in seats:
        if board_time(seat.page) is None:
            raise RuntimeError(f"{game}: seat {seat.index}'s page drew no view")
    rng = random.Random(seed)
    own: dict[str, list[float]] = defaultdict(list)
    other: dict[str, list[float]] = defaultdict(list)
    kinds: Counter[str] = Counter()
    missed = shortcuts = 0
    tracing = False
    version = view_of(server.url, code, seats[0])["version"]
    for seat in seats:
        seat.frames.clear()
    done = 0
    attempts = 0
    while done < clicks and attempts < clicks * 4:
        attempts += 1
        view = view_of(server.url, code, seats[0])
        if view["status"] != "playing":
            break
        version = view["version"]
        acting = [s for s in seats if s.index in (view.get("to_act") or [])]
        if not acting:
            break
        clicker = acting[0]
        watcher = next(s for s in seats if s is not clicker)
        kind = clicker.page.evaluate(PICK, rng.random())
        if kind is None:
            # Nothing to click on this page now (a move on the map, a form): one legal
            # command through the API moves the game on, unmeasured.
            legal = view_of(server.url, code, clicker)["legal_actions"]
            if not legal:
                break
            with http() as client:
                client.post(
                    f"{server.url}/api/rooms/{code}/commands",
                    headers={"Authorization": f"Bearer {clicker.token}"},
                    json={"id": f"bench-{seed}-{attempts}", "command": rng.choice(legal)},
                )
            shortcuts += 1
            continue
        if trace is not None and not tracing and done == 5:
            browser.start_tracing(
                page=clicker.page,
                path=str(trace / f"{game}-trace.json"),
                categories=[
                    "devtools.timeline",
                    "disabled-by-default-devtools.timeline",
                    "disabled-by-default-devtools.timeline.frame",
                    # The script's stack at each forced layout and style recalculation.
                    "disabled-by-default-devtools.timeline.stack",
                    # Script samples (the Performance panel's call tree).
                    "disabled-by-default-v8.cpu_profiler",
                    "v8.execute",
                    "blink.user_timing",
                    "loading",
                    "toplevel",
                ],
            )
            tracing = True
        before = len(clicker.page.evaluate("window.__bench.clicks"))
        clicker.page.click("[data-bench-pick]", timeout=STEP_TIMEOUT_MS, force=True)
        mine = clicker.page.evaluate(f"window.__bench.after({version}, {STEP_TIMEOUT_MS})")
        theirs = watcher.page.evaluate(f"window.__bench.after({version}, {STEP_TIMEOUT_MS})")
        stamps = clicker.page.evaluate("window.__bench.clicks")
        if mine is None or theirs is None or len(stamps) <= before:
            missed += 1
            continue
        clicked = float(stamps[before])
        own["version"].append(float(mine["t"]) - clicked)
        own["frame"].append(float(mine["frame"]) - clicked)
        other["version"].append(float(theirs["t"]) - clicked)
        other["frame"].append(float(theirs["frame"]) - clicked)
        kinds[kind] += 1
        done += 1
        if tracing and done == 10 and trace is not None:
            browser.stop_tracing()
            tracing = False
    if tracing:
        browser.stop_tracing()
    frames = [size for seat in seats for size in seat.frames]
    out = {
        "room": code,
        "clicks": done,
        "missed": missed,
        "through_api": shortcuts,
        "kinds": dict(kinds.most_common()),
        "own_version_ms": summary(own["version"]),
        "own_frame_ms": summary(own["frame"]),
        "other_version_ms": summary(other["version"]),
        "other_frame_ms": summary(other["frame"]),
        "update_bytes": {
            "n": len(frames),
            "p50": pct([float(f) for f in frames], 50),
            "p95": pct([float(f) for f in frames], 95),
            "messages": dict(sum((s.kinds for s in seats), Counter())),
        },
    }
    for seat in seats:
        seat.context.close()
    return out


# --- the DevTools trace, summed ---------------------------------------------------------


def trace_summary(path: Path, top: int = 14) -> dict[str, Any]:
    """Self time per event name on each renderer's main thread, and the JS functions and
    files that took it (FunctionCall / EventDispatch / TimerFire with their data)."""
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    names: dict[tuple[int, int], str] = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    threads: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        key = (e.get("pid", 0), e.get("tid", 0))
        if e.get("ph") == "X" and names.get(key) == "CrRendererMain" and "dur" in e:
            threads[key].append(e)
    out: dict[str, Any] = {}
    for key, evs in threads.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        selfs: Counter[str] = Counter()
        scripts: Counter[str] = Counter()
        stack: list[list[Any]] = []  # [event, end, child time]
        busy = 0.0

        def close(
            entry: list[Any], selfs: Counter[str] = selfs, scripts: Counter[str] = scripts
        ) -> None:
            e, _, children = entry
            own = max(0.0, e["dur"] - children)
            selfs[e["name"]] += own
            data = (e.get("args") or {}).get("data") or {}
            if e["name"] in ("FunctionCall", "EventDispatch", "TimerFire", "v8.callFunction"):
                where = data.get("functionName") or data.get("type") or ""
                url = (data.get("url") or "").rsplit("/", 1)[-1].split("?")[0]
                scripts[f"{e['name']} {where} {url}".strip()] += e["dur"]

        for e in evs:
            end = e["ts"] + e["dur"]
            while stack and stack[-1][1] <= e["ts"]:
                close(stack.pop())
            if stack:
                stack[-1][2] += e["dur"]
            else:
                busy += e["dur"]
            stack.append([e, end, 0.0])
        while stack:
            close(stack.pop())
        out[f"renderer {key[0]}"] = {
            "busy_ms": round(busy / 1000, 1),
            "self_ms": {n: round(v / 1000, 1) for n, v in selfs.most_common(top)},
            "script_ms": {n: round(v / 1000, 1) for n, v in scripts.most_common(top)},
        }
    return out


def median_of(runs: list[dict[str, Any]], *path: str) -> float | None:
    values = []
    for run in runs:
        node: Any = run
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, int | float):
            values.append(float(node))
    return round(statistics.median(values), 1) if values else None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--clicks", type=int, default=40, help="measured clicks per game and run")
    parser.add_argument("--runs", type=int, default=3, help="runs (the medians are reported)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--throttle", type=float, default=4.0, help="CPU slow-down for the board time"
    )
    parser.add_argument("--trace", type=Path, help="folder for a DevTools trace of 5 clicks a game")
    parser.add_argument("--keep", action="store_true", help="keep the server's folder")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not Path(chromium.CHROMIUM).exists():
        print(f"{chromium.CHROMIUM} missing: apt-get install -y chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    games = [g for g in args.games.split(",") if g]
    if args.trace is not None:
        args.trace.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="karanor-page-"))
    result: dict[str, Any] = {"games": {}, "loadavg": None}
    started = time.time()
    with ServerProcess(workdir, env=SERVER_ENV) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium.CHROMIUM, args=ARGS)
        for game in games:
            runs = []
            for run in range(args.runs):
                seed = args.seed + run
                played = play(
                    browser, server, game, args.clicks, seed,
                    args.trace if run == 0 else None,
                )  # fmt: skip
                code, seats = open_room(server.url, game)
                loads = first_load(browser, server, code, seats[0])
                slow = throttled(browser, server, code, seats[0], args.throttle)
                runs.append({**played, "load": loads, "throttled": slow})
                print(
                    f"{game} run {run + 1}: own {played['own_version_ms']} other "
                    f"{played['other_version_ms']} first {loads['first']['kb_transferred']} KB "
                    f"/{loads['first']['requests']} req, repeat {loads['repeat']['kb_transferred']}"
                    f" KB, board at {args.throttle:g}x {slow['cold_ms']} ms cold "
                    f"{slow['warm_ms']} ms warm, update p50 {played['update_bytes']['p50']} B",
                    file=sys.stderr,
                )
            med = {
                "own_version_p50": median_of(runs, "own_version_ms", "p50"),
                "own_version_p95": median_of(runs, "own_version_ms", "p95"),
                "own_frame_p50": median_of(runs, "own_frame_ms", "p50"),
                "own_frame_p95": median_of(runs, "own_frame_ms", "p95"),
                "other_version_p50": median_of(runs, "other_version_ms", "p50"),
                "other_version_p95": median_of(runs, "other_version_ms", "p95"),
                "other_frame_p50": median_of(runs, "other_frame_ms", "p50"),
                "other_frame_p95": median_of(runs, "other_frame_ms", "p95"),
                "first_load_kb": median_of(runs, "load", "first", "kb_transferred"),
                "first_load_requests": median_of(runs, "load", "first", "requests"),
                "repeat_visit_kb": median_of(runs, "load", "repeat", "kb_transferred"),
                "repeat_visit_requests": median_of(runs, "load", "repeat", "from_network"),
                "board_throttled_cold_ms": median_of(runs, "throttled", "cold_ms"),
                "board_throttled_warm_ms": median_of(runs, "throttled", "warm_ms"),
                "update_bytes_p50": median_of(runs, "update_bytes", "p50"),
            }
            result["games"][game] = {"median": med, "runs": runs}
            if args.trace is not None:
                path = args.trace / f"{game}-trace.json"
                if path.exists():
                    result["games"][game]["trace"] = trace_summary(path)
        browser.close()
    with open("/proc/loadavg") as f:
        result["loadavg"] = f.read().split()[:3]
    result["seconds"] = round(time.time() - started, 1)
    if args.keep:
        result["workdir"] = str(workdir)
    else:
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    if __package__ in (None, ""):  # `python bench/page.py`
        sys.path.insert(0, str(REPO_ROOT))
    raise SystemExit(main())
