"""Rebuild a game from its log: (game, options, seed, names) + every accepted command.

Games are deterministic (their RNG lives in the state), so replaying the log must
give exactly the stored snapshot; `tests/web` checks it.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from app.games import registry
from app.games.base import Game
from app.rooms import loading, takeback
from app.rooms.model import Room
from app.store import repo
from app.store.db import read_connection


@dataclass(frozen=True, slots=True)
class Row:
    version: int
    seat: int
    command: dict[str, Any]


def replay(
    game: Game,
    options: dict[str, Any],
    seed: int,
    names: list[str],
    commands: Iterable[tuple[int, dict[str, Any]]],
) -> Any:
    """Set the game up and apply each (seat, command) in order (a take-back returns to
    the state before the version it names: app.rooms.takeback).

    :raises RuleError: if the log holds a command the rules refuse (a corrupt log).
    """
    state = game.new_game(options, seed, names)
    rows = [Row(v, seat, command) for v, (seat, command) in enumerate(commands, 1)]
    return takeback.replay_rows(game, state, rows)


def replay_room(db: Engine, code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The room's game replayed from its whole log, and the game as the server loads it
    (the stored snapshot brought to the head by the log rows after it), both as dicts.

    :raises LookupError: no such room, no game in it yet, or a game this server lacks.
    """
    with read_connection(db) as conn:
        room = repo.room_by_code(conn, code=code)
        if room is None:
            raise LookupError(f"no room {code!r}")
        game = registry.get(room.game)
        if game is None:
            raise LookupError(f"room {code!r} plays {room.game!r}, not hosted here")
        head = repo.game_of_room(conn, room_id=room.id)
        if head is None:
            raise LookupError(f"room {code!r} has no game yet")
        names = [s.name for s in repo.seats_of(conn, room_id=room.id)]
        log = repo.events_after(conn, game_id=head.id, after=0)
        loaded = loading.load(conn, Room(code, room.id, game), head.id)
    state = replay(game, head.options, head.seed, names, ((r.seat, r.command) for r in log))
    return game.to_dict(state), game.to_dict(loaded.state)
