"""The whole state of one Dark Road game: plain data, serialisable to JSON and back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

SETUP = "setup"
PLAY = "play"
FINAL = "final_travel"
OVER = "game_over"

PLAN = "plan"
MOVE = "move"
ACTIVATE = "activate"


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    coins: int = 0  # behind the screen: only this seat sees the number
    prestige: int = 0
    lanterns: int = 0
    quartz: int = 0
    horseshoes: int = 0
    reserve: list[int] = field(default_factory=list)  # night dice values, main reserve
    locked: list[int | None] = field(default_factory=list)  # slots 1-3
    pool_night: int | None = None  # the bumped night die in the action pool
    pool_illuminated: int | None = None
    spent: list[int] = field(default_factory=list)
    removed: int = 0  # night dice out of the game
    special: list[int] = field(default_factory=list)  # illuminated dice in the special reserve
    position: int = 4  # wagon space on the Ringway (4: between the Inn and the Bazaar)
    pieces: list[dict[str, Any]] = field(default_factory=list)  # goods placed in storage
    next_piece: int = 1
    incoming: list[dict[str, Any]] = field(default_factory=list)  # goods gained, not yet stored
    heroes: list[str] = field(default_factory=list)
    commissions: list[str] = field(default_factory=list)
    deeds: list[str] = field(default_factory=list)  # secret until the end
    companions: list[dict[str, Any]] = field(default_factory=list)  # {"id", "used": [ability]}
    steeds: list[str] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    delivered_commissions: list[str] = field(default_factory=list)
    delivered_heroes: list[str] = field(default_factory=list)
    full_commissions: int = 0
    upgraded_delivered: int = 0
    towns_delivered: list[str] = field(default_factory=list)
    region_deliveries: dict[str, int] = field(default_factory=dict)
    horseshoe_used: bool = False  # this turn
    free_shortcut: bool = False  # Flicker, this turn
    reset_done: bool = False  # the 1-2-3 reset, this turn


@dataclass(slots=True)
class State:
    content: str
    options: dict[str, Any]
    seed: int
    rng: int
    players: list[Player]
    phase: str = SETUP
    round: int = 1
    turn_seat: int = 0
    step: str = PLAN
    acts: list[str] = field(default_factory=list)  # activation targets still open
    acts_left: int = 0
    pending: list[dict[str, Any]] = field(default_factory=list)
    asks: list[dict[str, Any]] = field(default_factory=list)  # choices raised by this command
    wheel_rot: int = 0
    market: dict[str, int] = field(default_factory=dict)  # market dice per good section
    market_aside: int = 0
    stacks: dict[str, list[str]] = field(default_factory=dict)  # commissions; index 0 on top
    ruins_pos: int = 0
    dm_pos: int = 2
    decks: dict[str, list[str]] = field(default_factory=dict)  # index 0 on top
    discards: dict[str, list[str]] = field(default_factory=dict)
    inn: list[str | None] = field(default_factory=list)
    courtyard: list[str | None] = field(default_factory=list)
    row: list[str | None] = field(default_factory=list)  # index 0 nearest the deck
    row_die: list[bool] = field(default_factory=list)
    buildings: list[str] = field(default_factory=list)  # at wagon spaces 0-3
    fortune_coins: int = 0
    upgrades_track: list[str] = field(default_factory=list)
    unused_steeds: list[str] = field(default_factory=list)
    supply: dict[str, int] = field(default_factory=dict)
    goods_supply: dict[str, int] = field(default_factory=dict)
    travel: dict[str, Any] | None = None
    setup_stacks: list[list[str]] = field(default_factory=list)  # drafting variant
    commands: int = 0
    result: dict[str, Any] | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    def to_dict(self) -> dict[str, Any]:
        """A deep JSON-safe copy."""
        out: dict[str, Any] = orjson.loads(orjson.dumps(self))
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        d = orjson.loads(orjson.dumps(data))
        players = [Player(**p) for p in d.pop("players")]
        return cls(players=players, **d)

    def copy(self) -> State:
        return State.from_dict(self.to_dict())
