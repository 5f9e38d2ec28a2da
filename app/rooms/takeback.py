"""Take-backs: a seat takes back its last commands of this turn while they revealed nothing.

The game says which commands may be taken back (`app.games.base.TakeBacks`: asked before
`apply` whether a copy is worth keeping, after it whether the command revealed nothing).
The platform keeps, per live game, a stack of `Point`s: the state before each such
command of the seat that holds it; any other command empties it. A take-back is a log row
of its own, `{"type": "take_back", "version": U}` (U: the version the command taken back
made), so the log stays append-only; the state after it is the state before U, and it is
stored as the game's snapshot, so a load never replays across it. A replay from further
back (`replay_rows`) keeps a copy of the state before every version a later take-back
names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.games.base import Events, Game

TAKE_BACK = "take_back"  # the platform's own command type in the log (no game may use it)


@dataclass(frozen=True, slots=True)
class Point:
    """What one take-back returns to: the state before the command that made `version`, a
    command of `seat` (the game's `take_back_copy`, else its `to_dict`: a mapping
    `from_dict` reads)."""

    version: int
    seat: int
    before: Mapping[str, Any]


class Gap(LookupError):
    """A logged take-back names a version before the rows being replayed."""


def is_take_back(command: Any) -> bool:
    return isinstance(command, Mapping) and command.get("type") == TAKE_BACK


def allowed(options: Mapping[str, Any], seat: int, bot_seats: frozenset[int]) -> bool:
    """Does the room let `seat` take back at all (the room option, a person's seat)?"""
    return bool(options.get("take_backs", True)) and seat not in bot_seats


def apply(
    game: Game, state: Any, seat: int, command: Any, keep: bool
) -> tuple[Events, Point | None]:
    """`game.apply`, and the point a take-back of this command would return to (None: it
    cannot be taken back, or `keep` is false). The point's version is left 0: the caller
    sets it (`pushed`).

    :raises RuleError: the rules refuse the command (nothing changed).
    """
    before = None
    if keep:
        may = getattr(game, "may_take_back", None)
        if may is not None and may(state, seat, command):
            copy = getattr(game, "take_back_copy", None)
            before = copy(state, seat) if copy is not None else game.to_dict(state)
    events = game.apply(state, seat, command)
    if before is None:
        return events, None
    can = getattr(game, "can_take_back", None)
    if can is None or not can(before, state, seat, command, events):
        return events, None
    return events, Point(0, seat, before)


def pushed(stack: list[Point], point: Point | None, version: int) -> None:
    """Record in `stack` the command that made `version` (its point, or None)."""
    if point is None:
        stack.clear()
        return
    if stack and stack[-1].seat != point.seat:
        stack.clear()
    stack.append(Point(version, point.seat, point.before))


def command(version: int) -> dict[str, Any]:
    return {"type": TAKE_BACK, "version": version}


def events(seat: int, version: int) -> Events:
    return [{"type": TAKE_BACK, "seat": seat, "version": version}]


def replay_rows(
    game: Game,
    state: Any,
    rows: Iterable[Any],
    stack: list[Point] | None = None,
    keep: Any = None,
) -> Any:
    """Apply logged rows (`version`, `seat`, `command`) to `state`; returns the state (a
    new object after a take-back). With `stack`, keeps the take-back stack up to date
    (`keep(seat)`: may that seat take back).

    :raises RuleError: a logged command the rules refuse (a corrupt log).
    :raises Gap: a take-back names a version before these rows.
    """
    rows = list(rows)
    targets = {int(r.command["version"]) for r in rows if is_take_back(r.command)}
    kept: dict[int, Mapping[str, Any]] = {}
    for row in rows:
        if is_take_back(row.command):
            target = int(row.command["version"])
            before = kept.pop(target, None)
            if before is None and stack is not None and stack and stack[-1].version == target:
                before = stack[-1].before
            if before is None:
                raise Gap(f"the take-back at version {row.version} names version {target}")
            if stack is not None and stack and stack[-1].version == target:
                stack.pop()
            state = game.from_dict(before)
            continue
        cmd = game.parse_command(row.command)
        if row.version in targets:
            kept[row.version] = game.to_dict(state)
        if stack is None:
            game.apply(state, row.seat, cmd)
        else:
            _events, point = apply(game, state, row.seat, cmd, bool(keep and keep(row.seat)))
            pushed(stack, point, row.version)
    return state
