"""What `KitGame.can_take_back` compares, and the copy of the state kept before a command
that may be taken back (`KitGame.take_back_copy`).

A command may be taken back when it changed nothing but its own seat's part: the RNG, the
hidden piles, the shared choices, the other seats' states and their pending choices are
compared before and after, each in the JSON form `to_dict` gives it (`Marks`).

The copy is kept as bytes. Parsing the whole state into Python objects before every such
command (`to_dict`) was a fifth of the server's command path under load, most of it the
allocation and the garbage collector's passes over the new objects; and almost no copy
is ever read again (only a take-back reads one). `StateCopy` holds one `dumps` of the
whole state, parsed at its first read, and the `Marks` of the state it was made from.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import orjson


def as_json(value: Any) -> bytes:
    """A part of a state, or of its `to_dict`, in the JSON form `to_dict` gives it. The
    plain call first (the same bytes when every key is a string): the option for other
    keys makes orjson slower, by half again on the players' dataclasses."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


@dataclass(frozen=True, slots=True)
class Marks:
    """The parts of a state a take-back compares, as JSON bytes, seen from `seat`."""

    seat: int
    rng: Any
    parts: tuple[bytes, ...]  # the hidden piles, then the shared choices (the game's keys)
    players: bytes  # the other seats' states, in seat order
    pending: bytes  # the pending choices of the other seats

    @classmethod
    def of_state(cls, state: Any, seat: int, keys: tuple[str, ...]) -> Marks:
        return cls(
            seat,
            getattr(state, "rng", None),
            tuple(as_json(getattr(state, key, None)) for key in keys),
            _players(getattr(state, "players", None), seat),
            _others(getattr(state, "pending", None), seat),
        )

    @classmethod
    def of_dict(cls, data: Mapping[str, Any], seat: int, keys: tuple[str, ...]) -> Marks:
        """The same marks of a state's `to_dict`."""
        return cls(
            seat,
            data.get("rng"),
            tuple(as_json(data.get(key)) for key in keys),
            _players(data.get("players"), seat),
            _others(data.get("pending"), seat),
        )

    def same_but_seat(self, other: Marks) -> bool:
        """Everything but `seat`'s own state and choices as in `other`."""
        return (
            self.rng == other.rng
            and self.parts == other.parts
            and self.players == other.players
            and self.pending == other.pending
        )


def _players(players: Any, seat: int) -> bytes:
    # The count too: a seat added or gone is a change.
    players = list(players or ())
    return b"%d:%s" % (len(players), as_json(players[:seat] + players[seat + 1 :]))


def _others(pending: Any, seat: int) -> bytes:
    # Pending choices are plain dicts in the state and in its `to_dict` alike.
    theirs = [x for x in pending or () if not (isinstance(x, dict) and x.get("seat") == seat)]
    return as_json(theirs)


class StateCopy(Mapping[str, Any]):
    """A state's `to_dict`, kept as bytes until it is read (a `Mapping`: `from_dict`
    takes it as it is), with the `Marks` of that state for `seat`."""

    __slots__ = ("_blob", "_data", "marks")

    def __init__(self, state: Any, seat: int, keys: tuple[str, ...]) -> None:
        self._blob: bytes = orjson.dumps(state)
        self._data: dict[str, Any] | None = None
        self.marks = Marks.of_state(state, seat, keys)

    def fresh(self) -> dict[str, Any]:
        """The copy parsed anew: nothing shared with any other read, so a state made from
        it may be changed and the copy read again (a run taken back one by one)."""
        data: dict[str, Any] = orjson.loads(self._blob)
        return data

    def _whole(self) -> dict[str, Any]:
        if self._data is None:
            self._data = orjson.loads(self._blob)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._whole()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())
