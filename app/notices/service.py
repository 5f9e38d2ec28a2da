"""The facts of a room turned into notices: `Notices` watches the rooms (the platform's
observers: a new version, a seat out of time, a rematch opened), works out which seats
something happened to, and queues one fact per seat and device whose room page is not
open and visible. What happened comes from the game-neutral interface only: `to_act`,
`is_over`, and the optional `invitations(events)` hook of a game (seat -> "offer" or
"join": a seat asked to answer someone, or to come along)."""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.config import Settings
from app.notices import addresses, targets, vapid
from app.notices.sender import Item, Sender
from app.notices.texts import Fact
from app.rooms import clocks
from app.rooms.errors import PlatformError
from app.rooms.model import Room
from app.rooms.service import Caller, RoomService
from app.store.db import read_connection, write_transaction

log = logging.getLogger(__name__)

INVITATIONS = ("offer", "join")
REMINDER_AT = 0.75  # of the turn's seconds: a quarter is left


@dataclass(frozen=True, slots=True)
class Subscription:
    """A seat's request for notices on one device (the route's body, checked)."""

    web_push: Mapping[str, Any] | None = None  # {"endpoint", "keys": {"p256dh", "auth"}}
    url: str | None = None  # an Apprise URL
    lang: str = "en"
    time_zone: str = "UTC"
    origin: str = ""


def refused(error: addresses.Refused) -> PlatformError:
    return PlatformError(422, error.code, error.message)


class Notices:
    """The notices of this process (one per server, beside the rooms service)."""

    def __init__(self, rooms: RoomService, settings: Settings) -> None:
        self.rooms = rooms
        self.p = rooms.p
        self.settings = settings
        self.kinds = [k.lower() for k in settings.notice_kinds]
        # The VAPID keys' file is made now (a backup carries it), the keys read at their
        # first use (`keys`): `cryptography` is not loaded by a server that sends none.
        self._vapid: Any = None
        self._public_key: str | None = None
        self._keys_lock = threading.Lock()
        if addresses.WEB_PUSH in self.kinds and not self._key_file(settings):
            self.kinds.remove(addresses.WEB_PUSH)
        self.sender = Sender(settings, self.keys, self._write, self.visible)
        self._to_act: dict[str, frozenset[int]] = {}  # per room: the seats waited for
        self._reminders: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: dict[int, asyncio.Task[None]] = {}  # per room: its newest queueing
        self.p.observers.append(self.observe)

    @staticmethod
    def _key_file(settings: Settings) -> bool:
        """The VAPID keys' file, made on first start; a data folder that cannot hold it
        turns Web Push off (said once) rather than stopping the server."""
        try:
            vapid.ensure(settings.data_dir)
        except OSError as error:
            log.warning("notices: no VAPID keys in %s (%s): Web Push is off",
                        settings.data_dir, type(error).__name__)  # fmt: skip
            return False
        return True

    def keys(self) -> Any:
        """The VAPID keys (`py_vapid.Vapid02`), read at the first call (any thread; it
        loads `cryptography`); None when Web Push is off. Keys that cannot be read turn
        Web Push off (said once)."""
        if self._vapid is None and addresses.WEB_PUSH in self.kinds:
            with self._keys_lock:
                if self._vapid is None and addresses.WEB_PUSH in self.kinds:
                    try:
                        keys = vapid.load(self.settings.data_dir)
                        self._public_key = vapid.application_server_key(keys)
                        self._vapid = keys
                    except Exception as error:  # unreadable, or not a P-256 key
                        log.warning("notices: the VAPID keys in %s cannot be read (%s): "
                                    "Web Push is off", self.settings.data_dir,
                                    type(error).__name__)  # fmt: skip
                        self.kinds.remove(addresses.WEB_PUSH)
        return self._vapid

    @property
    def vapid(self) -> Any:
        """The VAPID keys (read now if not yet: see `keys`)."""
        return self.keys()

    async def public_key(self) -> str | None:
        """The public key for `pushManager.subscribe` (None: no Web Push); the first call
        reads the keys in a worker thread."""
        if self._vapid is None and addresses.WEB_PUSH in self.kinds:
            await asyncio.to_thread(self.keys)
        return self._public_key if addresses.WEB_PUSH in self.kinds else None

    async def _write(self, fn: Any, *args: Any) -> Any:
        return await self.p.write(fn, self.p.db, *args)

    def start(self) -> None:
        self.sender.start()

    async def settled(self) -> None:
        """Until every fact seen so far is queued (or dropped, the database not answering):
        what a subscription made next will not see (the tests' way to order the two)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    async def stop(self) -> None:
        for handle in self._reminders.values():
            handle.cancel()
        self._reminders.clear()
        await self.sender.stop()

    # --- a seat's targets ------------------------------------------------------------------

    def check(self, sub: Subscription) -> tuple[str, str, Any]:
        """(kind, target, keys) of a subscription this server accepts.

        :raises PlatformError: 422 with the refusal's code (never the URL)."""
        private_ok = self.settings.notice_private_addresses
        try:
            if sub.web_push is not None:
                endpoint = str(sub.web_push["endpoint"])
                addresses.check_endpoint(endpoint, self.kinds, private_ok=private_ok)
                return addresses.WEB_PUSH, endpoint, dict(sub.web_push["keys"])
            if sub.url is not None:
                addresses.check_url(sub.url, self.kinds, private_ok=private_ok)
                return "url", sub.url, None
        except addresses.Refused as error:
            raise refused(error) from None
        raise PlatformError(422, "bad_request", "give web_push or url")

    async def subscribe(self, caller: Caller, sub: Subscription) -> list[dict[str, Any]]:
        """Add (or renew) this device's target for the caller's seat; its targets now."""
        seat = self._seat(caller)
        kind, target, keys = await asyncio.to_thread(self.check, sub)

        def tx() -> list[dict[str, Any]]:
            with write_transaction(self.p.db) as conn:
                known = targets.listed(conn, seat_id=seat)
                if len(known) >= addresses.MAX_TARGETS_PER_SEAT and not targets.has(
                    conn, seat_id=seat, target=target
                ):
                    most = addresses.MAX_TARGETS_PER_SEAT
                    raise PlatformError(409, "too_many_notice_targets", f"at most {most} devices")
                targets.put(conn, seat_id=seat, kind=kind, target=target, keys=keys,
                            lang=sub.lang, time_zone=sub.time_zone, origin=sub.origin)  # fmt: skip
                return targets.listed(conn, seat_id=seat)

        return await self.p.write(tx)

    async def unsubscribe(self, caller: Caller, target: str | None) -> list[dict[str, Any]]:
        """Stop one device's notices (None: every device of the seat)."""
        seat = self._seat(caller)

        def tx() -> list[dict[str, Any]]:
            with write_transaction(self.p.db) as conn:
                targets.remove(conn, seat_id=seat, target=target)
                return targets.listed(conn, seat_id=seat)

        return await self.p.write(tx)

    async def listed(self, caller: Caller) -> list[dict[str, Any]]:
        seat = self._seat(caller)

        def read() -> list[dict[str, Any]]:
            with read_connection(self.p.db) as conn:
                return targets.listed(conn, seat_id=seat)

        return await self.p.read(read)

    @staticmethod
    def _seat(caller: Caller) -> int:
        if caller.seat is None:
            raise PlatformError(401, "bad_token", "a seat's token is needed")
        return caller.seat.id

    # --- who sees the room now ---------------------------------------------------------------

    def visible(self, code: str, seat_id: int) -> bool:
        """The seat has the room open and visible here, or a socket on another process
        (whose visibility this one does not know: no notice then either)."""
        if seat_id in self.p.hub.visible_seat_ids(code):
            return True
        room = self.rooms.cache.cached(code)
        return room is not None and seat_id in room.remote_seats

    # --- the facts ---------------------------------------------------------------------------

    def observe(self, room: Room, what: str, detail: Any) -> None:
        """Called by the rooms (synchronously, after the fact): never raises, never waits."""
        try:
            if what == "version":
                self._version(room, detail)
            elif what == "timeout":
                self._tell(room, {int(detail): "timeout"})
            elif what == "rematch":
                others = {s.index for s in self._people(room)} - {detail["by"]}
                self._tell(room, dict.fromkeys(others, "rematch"), code=detail["code"])
        except Exception:
            log.exception("notices: room %s: working out the notices failed", room.code)

    def _people(self, room: Room) -> list[Any]:
        """The seats persons hold (a seat a bot plays while its person is away included)."""
        return [s for s in room.seats if not s.bot or s.replaced]

    def _version(self, room: Room, events: list[dict[str, Any]]) -> None:
        live = room.live
        if live is None:
            return
        game = room.game
        people = {s.index for s in self._people(room)}
        playing = people - set(live.bot_seats)
        if game.is_over(live.state):
            self._to_act.pop(room.code, None)
            self._cancel_reminders(room.code, set())
            self._tell(room, dict.fromkeys(people, "over"))
            return
        now = frozenset(game.to_act(live.state))
        before = self._to_act.get(room.code)
        if before is None:  # first version seen here: the seat that just moved knew
            actor = next(reversed(live.recent), None)
            before = frozenset() if actor is None else frozenset({actor[0]})
        self._to_act[room.code] = now
        facts: dict[int, str] = dict.fromkeys((now - before) & playing, "turn")
        hook = getattr(game, "invitations", None)
        if callable(hook):
            for seat, kind in dict(hook(live.state, events)).items():
                if seat in playing and kind in INVITATIONS:
                    facts[int(seat)] = kind
        self._cancel_reminders(room.code, set(now))
        if room.timer:
            for seat in (now - before) & playing:
                self._remind(room, seat, float(room.timer["turn"]))
        self._tell(room, facts)

    def _tell(self, room: Room, facts: dict[int, str], code: str | None = None) -> None:
        """Queue each fact for every device of its seat, unless the seat sees the room."""
        by_index = {s.index: s for s in room.seats}
        wanted = {
            seat: kind
            for seat, kind in facts.items()
            if seat in by_index and not self.visible(room.code, by_index[seat].id)
        }
        if not wanted or not self.kinds:
            return
        fact_code = code or room.code
        title = room.game.title
        # The room's facts are queued in the order they happened (a turn, then the game
        # over): each waits for the room's previous one before it queues (reads overlap).
        before = self._last.get(room.room_id)
        task = asyncio.get_running_loop().create_task(
            self._queue(room.room_id, wanted, fact_code, title, self._deadlines(room), before)
        )
        self._last[room.room_id] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(functools.partial(self._forget_last, room.room_id))

    def _forget_last(self, room_id: int, task: asyncio.Task[None]) -> None:
        if self._last.get(room_id) is task:
            del self._last[room_id]

    async def _queue(self, room_id: int, wanted: dict[int, str], code: str, title: str,
                     deadlines: dict[int, float],
                     before: asyncio.Task[None] | None = None) -> None:  # fmt: skip
        def read() -> list[tuple[int, targets.Target]]:
            with read_connection(self.p.db) as conn:
                return targets.of_seats(conn, room_id=room_id, seat_indexes=set(wanted))

        try:
            found = await self.p.read(read)
        except PlatformError:
            log.warning("notices: the database did not answer; notices of a room dropped")
            found = []
        if before is not None:
            await asyncio.wait([before])  # done or failed: either way, our turn
        for seat, target in found:
            kind = wanted[seat]
            at = deadlines.get(seat) if kind == "reminder" else None
            self.sender.put(Item(seat, target, Fact(kind, code, title, at)))

    @staticmethod
    def _deadlines(room: Room) -> dict[int, float]:
        return clocks.deadlines(room.timer) if room.timer else {}

    # --- the reminder: a quarter of the turn left ------------------------------------------

    def _remind(self, room: Room, seat: int, turn: float) -> None:
        key = (room.code, seat)
        old = self._reminders.pop(key, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._reminders[key] = loop.call_later(turn * REMINDER_AT, self._ring, room, seat)

    def _ring(self, room: Room, seat: int) -> None:
        self._reminders.pop((room.code, seat), None)
        live = room.live
        if live is None or not room.timer or room.game.is_over(live.state):
            return
        if seat in room.game.to_act(live.state) and seat not in live.bot_seats:
            self._tell(room, {seat: "reminder"})

    def _cancel_reminders(self, code: str, keep: set[int]) -> None:
        for key in [k for k in self._reminders if k[0] == code and k[1] not in keep]:
            self._reminders.pop(key).cancel()
