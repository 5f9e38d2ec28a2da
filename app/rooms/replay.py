"""Rebuild a game from its log: (content, options, seed, names) + every accepted command.

The engine is deterministic (its RNG lives in the state), so replaying the log
must give exactly the stored snapshot; `tests/platform` checks it.
"""

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine

from app.karanor import engine
from app.karanor.state import State
from app.store import repo
from app.store.db import read_connection


def replay(
    content: str,
    options: dict[str, Any],
    seed: int,
    names: list[str],
    commands: Iterable[tuple[int, dict[str, Any]]],
) -> State:
    """Set the game up and apply each (seat, command) in order.

    :raises RuleError: if the log holds a command the rules refuse (a corrupt log).
    """
    state = engine.new_game(content, options, seed, names)
    for seat, command in commands:
        engine.apply(state, seat, command)
    return state


def replay_room(db: Engine, code: str) -> tuple[State, dict[str, Any]]:
    """The room's game replayed from its log, and the stored snapshot (brought to the
    head by the log rows after it) to compare with.

    :raises LookupError: no such room, or no game in it yet.
    """
    with read_connection(db) as conn:
        room = repo.room_by_code(conn, code=code)
        if room is None:
            raise LookupError(f"no room {code!r}")
        game = repo.game_of_room(conn, room_id=room.id)
        if game is None:
            raise LookupError(f"room {code!r} has no game yet")
        names = [s.name for s in repo.seats_of(conn, room_id=room.id)]
        log = repo.events_after(conn, game_id=game.id, after=0)
        stored = repo.game_snapshot(conn, game_id=game.id)
    state = replay(
        game.content_pack, game.options, game.seed, names, ((r.seat, r.command) for r in log)
    )
    # The snapshot is written every few versions (and at the end): the log rows after
    # it bring it to the head, as a server does when it loads the game.
    stored_state = State.from_dict(stored.snapshot)
    for row in log:
        if stored.snapshot_version < row.version <= stored.version:
            engine.apply(stored_state, row.seat, row.command)
    return state, stored_state.to_dict()
