"""The head every game's state starts with: which content pack, the room's options, the
seed and the RNG's state, the players; its seat count and its JSON copy. A game's `State`
derives it (a slotted dataclass) and adds its own fields after these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import orjson

P = TypeVar("P")


@dataclass(slots=True)
class GameState(Generic[P]):
    content: str  # the content pack's name
    options: dict[str, Any]
    seed: int
    rng: int  # the RNG's state, advanced by each draw
    players: list[P]

    @property
    def n(self) -> int:
        return len(self.players)

    def to_dict(self) -> dict[str, Any]:
        """A deep, JSON-safe copy (orjson serialises the dataclasses natively, inherited
        fields first: about thirty times faster than `dataclasses.asdict`)."""
        out: dict[str, Any] = orjson.loads(orjson.dumps(self))
        return out


def view_head(version: int, over: bool, turn: dict[str, Any]) -> dict[str, Any]:
    """The first keys of every view: its version, whether the game is over, the turn."""
    return {"version": version, "status": "finished" if over else "playing", "turn": turn}


def seat_view_head(common: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The first keys of a seat's view, taken from this version's public part: version,
    status, the viewing seat, turn, players. The game adds its own after them."""
    return {
        "version": common["version"],
        "status": common["status"],
        "seat": seat,
        "turn": common["turn"],
        "players": common["players"],
    }
