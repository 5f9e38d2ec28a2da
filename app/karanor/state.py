"""The whole state of one game: plain data, serialisable to JSON and back losslessly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.kit.state import GameState

DRAFT = "draft"
ACTION = "action"
GAME_OVER = "game_over"


@dataclass(slots=True)
class Business:
    city: str
    card: str | None  # None: the home pawn placed at setup


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    home: str  # home city territory id
    home_tile: str
    story: str
    position: str
    gold: int = 0
    prestige: int = 0
    revenue: int = 0
    resources: dict[str, int] = field(default_factory=dict)
    badges: list[str] = field(default_factory=list)  # badge kinds; repeats stack
    artifacts: list[str] = field(default_factory=list)
    partners: dict[str, bool] = field(default_factory=dict)  # resource -> promoted
    businesses: list[Business] = field(default_factory=list)
    villas: list[str] = field(default_factory=list)
    business_hand: list[str] = field(default_factory=list)
    quests: list[str] = field(default_factory=list)
    black_market: list[str] = field(default_factory=list)
    draft_hand: list[str] = field(default_factory=list)
    draft_done: bool = False  # picked in the current draft round
    ascended: list[int] = field(default_factory=list)  # prestige thresholds already rewarded
    lost_actions: int = 0  # taken from the next turn by a black-market card
    bonus_actions: int = 0  # gained off-turn, added to the next turn
    powers_used: list[str] = field(default_factory=list)  # artifacts used this turn
    powers_spent: list[str] = field(default_factory=list)  # once-per-game artifacts used

    def pawns(self) -> int:
        return len(self.businesses) + len(self.villas)

    def has_business_in(self, city: str) -> bool:
        return any(b.city == city for b in self.businesses)


@dataclass(slots=True)
class State(GameState[Player]):
    phase: str = DRAFT
    draft_round: int = 1
    start_seat: int = 0
    turn_seat: int = 0
    round: int = 1
    actions_left: int = 0
    move_left: int = 0  # steps left in the Move action in progress
    end_triggered_by: int | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)
    decks: dict[str, list[str]] = field(default_factory=dict)
    discards: dict[str, list[str]] = field(default_factory=dict)
    business_display: list[str] = field(default_factory=list)
    delivery: str | None = None  # the face-up delivery card
    inhabitants: dict[str, str] = field(default_factory=dict)  # territory -> inhabitant
    supply: dict[str, int] = field(default_factory=dict)
    badge_supply: dict[str, int] = field(default_factory=dict)
    partners_free: list[str] = field(default_factory=list)
    villa_owner: dict[str, int] = field(default_factory=dict)
    market: dict[str, int] | None = None
    offers: list[dict[str, Any]] = field(default_factory=list)
    next_offer: int = 1
    prestige_history: list[list[int]] = field(default_factory=list)  # per round, per seat
    commands: int = 0  # accepted commands so far
    result: dict[str, Any] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        d = dict(data)
        players = []
        for p in d.pop("players"):
            p = dict(p)
            p["businesses"] = [Business(**b) for b in p["businesses"]]
            players.append(Player(**p))
        return cls(players=players, **d)

    def copy(self) -> State:
        return State.from_dict(self.to_dict())
