"""Sending notices, never on a room's command path: facts go into a queue (`put` never
waits); one worker groups what arrived together per device and room into one notice,
and each notice is delivered by its own task in a worker thread, tried four times with
doubling waits. A Web Push subscription the push service says is gone (404, 410) is
removed; a target still failing after the last try keeps a failure code its seat can
read (`GET .../notices`). Nothing here logs, counts or reports a target's URL."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import orjson
from prometheus_client import Counter

from app.config import Settings
from app.notices import addresses, targets
from app.notices.targets import Target
from app.notices.texts import Fact, Notice, compose

log = logging.getLogger(__name__)

ATTEMPTS = 4
PARALLEL = 4  # deliveries at once
TTL_SECONDS = 24 * 3600  # a push service keeps an undelivered notice this long

SENT = Counter(
    "karanor_notices", "Notices sent outside the page, by kind and outcome.", ["kind", "outcome"]
)

T = TypeVar("T")
Run = Callable[..., Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Item:
    seat: int  # the seat's index in the room (its visibility is checked by seat id)
    target: Target
    fact: Fact


class Outcome:
    SENT = "sent"
    DEAD = "dead"  # the subscription is gone: remove it
    RETRY = "retry"  # worth another try
    FAILED = "failed"  # another try would fail the same way


class Sender:
    def __init__(
        self,
        settings: Settings,
        keys: Callable[[], Any],
        write: Run,
        visible: Callable[[str, int], bool],
    ) -> None:
        """`keys()` gives the VAPID keys (None: no Web Push; called in the delivery's
        worker thread, it may read them); `write(fn, *args)` runs a storing function on
        the writer; `visible(code, seat id)` says whether that seat has the room open and
        visible now."""
        self.settings = settings
        self.keys = keys
        self.write = write
        self.visible = visible
        self.queue: asyncio.Queue[Item] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._slots = asyncio.Semaphore(PARALLEL)

    def start(self) -> None:
        # requests and pywebpush (with aiohttp and urllib3 under it: ~13 MB of a serving
        # process's memory, docs/perf-sockets-cold-bots.md) are loaded by the first
        # delivery, in its worker thread (`_send_once`), not here.
        if self._worker is None:
            self._worker = asyncio.create_task(self._work(), name="notices")

    async def stop(self) -> None:
        tasks = [t for t in (self._worker, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._worker = None

    def put(self, item: Item) -> None:
        """Queue one fact for one device; never waits."""
        self.queue.put_nowait(item)

    async def _work(self) -> None:
        while True:
            items = [await self.queue.get()]
            if self.settings.notice_group_seconds:
                await asyncio.sleep(self.settings.notice_group_seconds)  # let a burst gather
            while not self.queue.empty():
                items.append(self.queue.get_nowait())
            groups: dict[tuple[int, str], list[Item]] = {}
            for item in items:
                groups.setdefault((item.target.id, item.fact.code), []).append(item)
            for group in groups.values():
                first = group[0]
                if self.visible(first.fact.code, first.target.seat_id):
                    SENT.labels(first.target.kind, "skipped_visible").inc()
                    continue
                notice = compose([i.fact for i in group], first.target.lang,
                                 first.target.time_zone)  # fmt: skip
                task = asyncio.create_task(self._deliver(first.target, notice))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _deliver(self, target: Target, notice: Notice) -> None:
        """Try up to ATTEMPTS times, waiting retry_seconds, then twice that, ..."""
        wait = self.settings.notice_retry_seconds
        outcome = Outcome.FAILED
        failure = "not_delivered"
        for attempt in range(ATTEMPTS):
            if attempt:
                await asyncio.sleep(wait)
                wait *= 2
            async with self._slots:
                outcome, failure = await asyncio.to_thread(self._send_once, target, notice)
            if outcome != Outcome.RETRY:
                break
        SENT.labels(target.kind, outcome).inc()
        try:
            if outcome == Outcome.DEAD:
                await self.write(_remove, target.id)
            elif outcome == Outcome.SENT:
                await self.write(_failure, target.id, None)
            else:
                await self.write(_failure, target.id, failure)
        except Exception:
            log.warning("notices: recording the outcome of a notice failed")

    def _send_once(self, target: Target, notice: Notice) -> tuple[str, str]:
        """One try, in a worker thread: (outcome, failure code)."""
        try:
            addresses._no_redirects()  # before the HTTP libraries' first call (idempotent)
            if target.kind == addresses.WEB_PUSH:
                return self._web_push(target, notice)
            return self._apprise(target, notice)
        except addresses.Refused as refused:
            return Outcome.FAILED, refused.code
        except Exception as error:  # the libraries' errors may carry the URL: never shown
            log.warning("notices: a %s notice failed (%s)", target.kind, type(error).__name__)
            return Outcome.RETRY, "not_delivered"

    def _web_push(self, target: Target, notice: Notice) -> tuple[str, str]:
        from pywebpush import WebPushException, webpush

        host = urlsplit(target.target).hostname or ""
        addresses.check_host(host, private_ok=self.settings.notice_private_addresses)
        payload = {
            "title": notice.title, "body": notice.body, "url": notice.path, "tag": notice.tag,
        }  # fmt: skip
        keys = self.keys()
        if keys is None:
            return Outcome.FAILED, "not_delivered"  # Web Push is off: unreadable keys
        try:
            webpush(
                subscription_info={"endpoint": target.target, "keys": target.keys or {}},
                data=orjson.dumps(payload).decode(),
                vapid_private_key=keys,
                vapid_claims={"sub": self.settings.notice_contact},
                timeout=10,
                ttl=TTL_SECONDS,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):
                return Outcome.DEAD, "gone"
            if status is None or status == 429 or status >= 500:
                return Outcome.RETRY, "push_service_unavailable"
            return Outcome.FAILED, f"push_service_refused_{status}"
        return Outcome.SENT, ""

    def _apprise(self, target: Target, notice: Notice) -> tuple[str, str]:
        import apprise

        plugin = addresses.check_url(target.target, self.settings.notice_kinds,
                                     private_ok=self.settings.notice_private_addresses)  # fmt: skip
        link = target.origin.rstrip("/") + notice.path
        sender = apprise.Apprise()
        sender.add(plugin)  # the one plugin checked, never the text parsed again
        if sender.notify(title=notice.title, body=f"{notice.body}\n{link}"):
            return Outcome.SENT, ""
        return Outcome.RETRY, "not_delivered"


def _remove(db: Any, target_id: int) -> None:
    from app.store.db import write_transaction

    with write_transaction(db) as conn:
        targets.remove_id(conn, target_id=target_id)


def _failure(db: Any, target_id: int, failure: str | None) -> None:
    from app.store.db import write_transaction

    with write_transaction(db) as conn:
        targets.set_failure(conn, target_id=target_id, failure=failure)
