"""Replays: a game's state at any version, rebuilt from the stored log (never asked of the
players' pages), and the view one viewer had of it.

A `History` replays a game's log once from the deal, keeping a checkpoint (`to_dict`) every
`EVERY` versions and where each turn began; the state at version V is then the checkpoint at
or below V plus at most `EVERY - 1` commands (a take-back returns to the state before the
version it names: that state is found the same way). The log is append-only, so what is
replayed stays true: a running game's history is only extended. Histories are kept per
process for the last games asked (`Histories`, a small LRU); they are built in a worker
thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection

from app.games.base import Game
from app.rooms import errors, takeback, views
from app.rooms.context import Platform
from app.rooms.model import Room
from app.store import repo
from app.store.db import read_connection

EVERY = 16  # versions between checkpoints: a step replays at most EVERY - 1 commands
KEEP = 16  # histories kept per process


@dataclass(slots=True)
class History:
    game: Game
    # version -> the state (`to_dict` as JSON bytes: a game's `from_dict` may share the
    # lists of what it reads, and the state read is played on), every EVERY versions
    checkpoints: dict[int, bytes]
    rows: list[Any] = field(default_factory=list)  # log rows 1..top (version, seat, command)
    state: Any = None  # the state at `top`
    turns: list[dict[str, Any]] = field(default_factory=list)  # where the seats to act changed
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def top(self) -> int:
        return len(self.rows)

    def extend(self, rows: Sequence[Any]) -> None:
        """Replay rows `top + 1...` (in order) onto the history."""
        game = self.game
        for row in rows:
            if row.version != self.top + 1:
                raise LookupError(f"log row {row.version} after {self.top}")
            self.rows.append(row)
            if takeback.is_take_back(row.command):
                self.state = self.at(int(row.command["version"]) - 1)
            else:
                game.apply(self.state, row.seat, game.parse_command(row.command))
            if row.version % EVERY == 0:
                self.checkpoints[row.version] = orjson.dumps(game.to_dict(self.state))
            self._mark(row.version)

    def _mark(self, version: int) -> None:
        seats = self.game.to_act(self.state)
        if self.turns and self.turns[-1]["seats"] == seats:
            return
        seen = self.game.view(self.state, None, self.game.public_part(self.state))
        turn = seen.get("turn")
        round_ = turn.get("round") if isinstance(turn, dict) else None
        # Each seat's prestige as the view shows it (API.md: players[].prestige), when it does.
        raw = seen.get("players")
        players: list[Any] = raw if isinstance(raw, list) else []
        prestige = [p.get("prestige") if isinstance(p, dict) else None for p in players]
        self.turns.append(
            {"version": version, "seats": seats, "round": round_, "prestige": prestige}
        )

    def at(self, version: int) -> Any:
        """A fresh state at `version` (0..top)."""
        if not 0 <= version <= self.top:
            raise LookupError(f"version {version} outside 0..{self.top}")
        game = self.game
        base = version - version % EVERY
        state = game.from_dict(orjson.loads(self.checkpoints[base]))
        for row in self.rows[base:version]:
            if takeback.is_take_back(row.command):
                state = self.at(int(row.command["version"]) - 1)
            else:
                game.apply(state, row.seat, game.parse_command(row.command))
        return state


def start(game: Game, options: dict[str, Any], seed: int, names: list[str]) -> History:
    state = game.new_game(options, seed, names)
    history = History(game, {0: orjson.dumps(game.to_dict(state))}, state=state)
    history._mark(0)
    return history


class Histories:
    """The histories of the last games asked, by game id (thread-safe)."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._by_game: OrderedDict[int, History] = OrderedDict()

    def get(self, game_id: int) -> History | None:
        with self._lock:
            found = self._by_game.get(game_id)
            if found is not None:
                self._by_game.move_to_end(game_id)
            return found

    def put(self, game_id: int, history: History) -> None:
        with self._lock:
            self._by_game[game_id] = history
            self._by_game.move_to_end(game_id)
            while len(self._by_game) > self.keep:
                self._by_game.popitem(last=False)


class Replays:
    """What `GET /api/rooms/{code}/view?at=V` and `GET /api/rooms/{code}/replay` answer."""

    def __init__(self, platform: Platform) -> None:
        self.p = platform
        self.histories = Histories()

    def _history(self, conn: Connection, room: Room) -> tuple[History, Any]:
        """The room's history brought to the stored version, and the game's head.

        :raises PlatformError: 409 `not_started`.
        """
        head = repo.game_of_room(conn, room_id=room.room_id)
        if head is None:
            raise errors.PlatformError(409, "not_started", "the game has not started yet")
        history = self.histories.get(head.id)
        if history is None or history.game is not room.game:
            names = [s.name for s in repo.seats_of(conn, room_id=room.room_id)]
            history = start(room.game, head.options, head.seed, names)
            self.histories.put(head.id, history)
        with history.lock:
            if history.top < head.version:
                rows = repo.events_after(
                    conn, game_id=head.id, after=history.top, limit=head.version - history.top
                )
                history.extend(rows)
        return history, head

    async def view_at(self, room: Room, own: int | None, at: int, seat: int | None) -> bytes:
        """The view at version `at` of `seat` (a finished game: any seat, or the caller's
        own; a running game: only the caller's own, a spectator's without a seat).

        :raises PlatformError: 400 `bad_version`, `unknown_seat`; 403 `forbidden`; 409.
        """

        def read() -> bytes:
            with read_connection(self.p.db) as conn:
                history, head = self._history(conn, room)
            finished = head.status == "finished"
            if not 0 <= at <= head.version:
                raise errors.PlatformError(
                    400, "bad_version", f"version {at} is outside 0..{head.version}"
                )
            viewer = own
            if seat is not None and seat != own:
                if not finished:
                    raise errors.PlatformError(
                        403, "forbidden", "another seat's view is shown once the game is over"
                    )
                viewer = seat
            game = room.game
            if viewer is not None and viewer >= len(room.seats):
                raise errors.PlatformError(400, "unknown_seat", f"there is no seat {viewer}")
            with history.lock:
                state = history.at(at)
            try:
                picture = game.view(state, viewer, game.public_part(state))
            except (IndexError, KeyError):
                raise errors.PlatformError(400, "unknown_seat", f"no seat {viewer}") from None
            picture["version"] = at
            picture.setdefault("game", game.id)
            picture["to_act"] = game.to_act(state)
            picture["can_undo"] = False
            picture["replay"] = {"version": head.version, "finished": finished}
            return views.dumps(picture)

        return await self.p.read(read)

    async def outline(self, room: Room) -> dict[str, Any]:
        """The stored version, whether the game is over, where each turn began (with each
        seat's prestige then), and every command's kind, seat and time (the game's story)."""

        def read() -> dict[str, Any]:
            with read_connection(self.p.db) as conn:
                history, head = self._history(conn, room)
            with history.lock:
                turns = [t for t in history.turns if t["version"] <= head.version]
                moves = [
                    {
                        "version": r.version,
                        "seat": r.seat,
                        "type": str(r.command.get("type", "")),
                        "at": views.iso(r.created_at) if r.created_at is not None else None,
                    }
                    for r in history.rows[: head.version]
                ]
            return {
                "version": head.version,
                "finished": head.status == "finished",
                "turns": turns,
                "moves": moves,
            }

        return await self.p.read(read)
