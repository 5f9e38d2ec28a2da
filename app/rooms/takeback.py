"""Take-backs: a seat takes back its last commands of this turn while they revealed nothing.

The game says which commands may be taken back (`app.games.base.TakeBacks`: asked before
`apply` whether a copy is worth keeping, after it whether the command revealed nothing).
The platform keeps, per live game, a stack of `Point`s: the state before each such
command of the seat that holds it (a copy before the first of a run, then each command
of the run, replayed from that copy when taken back: `restore`); any other command
empties it. A take-back is a log row
of its own, `{"type": "take_back", "version": U}` (U: the version the command taken back
made), so the log stays append-only; the state after it is the state before U, and it is
stored as the game's snapshot (a load of a run that began before it replays the game from
its deal: `app.rooms.loading`). A replay from further
back (`replay_rows`) keeps a copy of the state before every version a later take-back
names.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.games.base import Events, Game

TAKE_BACK = "take_back"  # the platform's own command type in the log (no game may use it)


@dataclass(frozen=True, slots=True)
class Point:
    """What one take-back returns to: the state before the command that made `version`, a
    command of `seat`.

    `before` is a copy of that state (the game's `take_back_copy`, else its `to_dict`: a
    mapping `from_dict` reads), or None when the command came right after the seat's
    previous point on the stack: the state before it is then the point below's with the
    point below's `command` applied again (`restore`; take-backs are rare, commands are
    not, so a run of one seat's commands keeps one copy, not one each). `after` is what
    the game compares of the state the command left (its `take_back_mark`, when it has
    one), kept on the stack's top only: the seat's next command is judged against it
    instead of a copy made before it."""

    version: int
    seat: int
    before: Mapping[str, Any] | None
    command: Any = None
    after: Any = None


class Gap(LookupError):
    """A logged take-back names a version before the rows being replayed."""


def is_take_back(command: Any) -> bool:
    return isinstance(command, Mapping) and command.get("type") == TAKE_BACK


def allowed(options: Mapping[str, Any], seat: int, bot_seats: frozenset[int]) -> bool:
    """Does the room let `seat` take back at all (the room option, a person's seat)?"""
    return bool(options.get("take_backs", True)) and seat not in bot_seats


def apply(
    game: Game,
    state: Any,
    seat: int,
    command: Any,
    keep: bool,
    stack: Sequence[Point] = (),
    version: int | None = None,
) -> tuple[Events, Point | None]:
    """`game.apply`, and the point a take-back of this command would return to (None: it
    cannot be taken back, or `keep` is false). `stack`: the take-back stack so far, and
    `version` the state's version before the command: a command of the seat whose point
    is on top, made right after it, is judged against that point's `after` and keeps no
    copy of its own. The point's version is left 0: the caller sets it (`pushed`).

    :raises RuleError: the rules refuse the command (nothing changed).
    """
    before = None
    chained = False
    if keep:
        may = getattr(game, "may_take_back", None)
        if may is not None and may(state, seat, command):
            top = stack[-1] if stack else None
            if (
                top is not None
                and top.after is not None
                and top.seat == seat
                and top.version == version
            ):
                before, chained = top.after, True
            else:
                copy = getattr(game, "take_back_copy", None)
                before = copy(state, seat) if copy is not None else game.to_dict(state)
    events = game.apply(state, seat, command)
    if before is None:
        return events, None
    can = getattr(game, "can_take_back", None)
    if can is None:
        return events, None
    mark = getattr(game, "take_back_mark", None)
    after = mark(state, seat) if mark is not None else None  # a chain needs a mark
    ok = (
        can(before, state, seat, command, events)
        if after is None
        else can(before, state, seat, command, events, after=after)
    )
    if not ok:
        return events, None
    return events, Point(0, seat, None if chained else before, command, after)


def pushed(stack: list[Point], point: Point | None, version: int) -> None:
    """Record in `stack` the command that made `version` (its point, or None)."""
    if point is None:
        stack.clear()
        return
    if stack and stack[-1].seat != point.seat:
        stack.clear()
    if stack and stack[-1].after is not None:  # only the top's is ever read
        stack[-1] = replace(stack[-1], after=None)
    stack.append(replace(point, version=version))


def restore(game: Game, stack: Sequence[Point]) -> Any:
    """The state the top point of `stack` returns to (a new object): the nearest copy at
    or below it, with the commands of the points between applied again (they were
    accepted from those very states, and revealed nothing: the same result)."""
    top = len(stack) - 1
    base = top
    while stack[base].before is None:
        base -= 1  # a run of points starts with a copy (`apply`)
    before = stack[base].before
    assert before is not None
    # A state may share its lists and dicts with the mapping it was made from, and this
    # copy may be read again (the run's next take-back): never hand it over as it is.
    fresh = getattr(before, "fresh", None)
    state = game.from_dict(fresh() if fresh is not None else copy.deepcopy(before))
    for point in stack[base:top]:
        game.apply(state, point.seat, point.command)
    return state


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
            if stack and stack[-1].version == target:
                state = game.from_dict(before) if before is not None else restore(game, stack)
                stack.pop()
            elif before is not None:
                state = game.from_dict(before)
            else:
                raise Gap(f"the take-back at version {row.version} names version {target}")
            continue
        cmd = game.parse_command(row.command)
        if row.version in targets:
            kept[row.version] = game.to_dict(state)
        if stack is None:
            game.apply(state, row.seat, cmd)
        else:
            keeps = bool(keep and keep(row.seat))
            _events, point = apply(game, state, row.seat, cmd, keeps, stack, row.version - 1)
            pushed(stack, point, row.version)
    return state
