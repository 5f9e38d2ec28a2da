"""Count to Ten: a toy game for the browser tests of the shell's generic table.

Players take turns adding 1 to `step_max` to a shared total; whoever brings it to the
target wins. It has no page of its own under static/js/games/, so the room page plays
it with the shell's generic table (every legal command a button). The server hosts it
with KARANOR_GAMES=tests.browser.toy:GAME.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.games.base import BotMove, Events, RuleError


class Options(BaseModel):
    """Count to Ten's options."""

    model_config = ConfigDict(extra="forbid", strict=True)

    target: int = Field(default=10, ge=5, le=20, title="Target", description="the total to reach")
    step_max: Literal[2, 3] = Field(default=2, title="Largest step")
    seats: int = Field(default=2, ge=2, le=4, title="Seats")
    last_wins: bool = Field(default=True, title="Reaching the target wins")


class Add(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["add"]
    n: int


class CountToTen:
    id = "toy"
    title = "Count to Ten"
    min_players = 2
    max_players = 4
    content_pack = "none"
    options_model = Options

    @property
    def command_schema(self) -> Mapping[str, Any]:
        return Add.model_json_schema()

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            return Options(**dict(options or {})).model_dump()
        except ValidationError as error:
            raise RuleError("bad_options", str(error)) from error

    def seat_limit(self, options: Mapping[str, Any]) -> int:
        return int(options.get("seats", 2))

    def new_game(self, options: Mapping[str, Any], seed: int, players: Sequence[str]) -> Any:
        return {
            "options": dict(options),
            "names": list(players),
            "total": 0,
            "turn": 0,
            "winner": None,
            "moves": 0,
        }

    def parse_command(self, data: Any) -> Any:
        try:
            return Add.model_validate(data).model_dump()
        except ValidationError as error:
            raise RuleError("bad_command", str(error)) from error

    def command_json(self, command: Any) -> dict[str, Any]:
        return dict(command)

    def apply(self, state: Any, seat: int, command: Any) -> Events:
        if state["winner"] is not None:
            raise RuleError("game_over", "The game is over.")
        if seat != state["turn"]:
            raise RuleError("not_your_turn", "Wait for your turn.")
        n = command["n"]
        if (
            not 1 <= n <= state["options"]["step_max"]
            or state["total"] + n > state["options"]["target"]
        ):
            raise RuleError("bad_step", "You cannot add that much.")
        state["total"] += n
        state["moves"] += 1
        events: Events = [{"type": "added", "seat": seat, "n": n, "total": state["total"]}]
        if state["total"] == state["options"]["target"]:
            won = seat if state["options"]["last_wins"] else (seat + 1) % len(state["names"])
            state["winner"] = won
            events.append({"type": "game_over", "winners": [won]})
        else:
            state["turn"] = (seat + 1) % len(state["names"])
        return events

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        if state["winner"] is not None or seat != state["turn"]:
            return []
        room = state["options"]["target"] - state["total"]
        return [
            {"type": "add", "n": n} for n in range(1, state["options"]["step_max"] + 1) if n <= room
        ]

    def public_part(self, state: Any) -> Any:
        return {"total": state["total"], "target": state["options"]["target"]}

    def view(self, state: Any, seat: int | None, public: Any) -> dict[str, Any]:
        over = state["winner"] is not None
        return {
            "status": "finished" if over else "playing",
            "seat": seat,
            "turn": {"seat": state["turn"]},
            "players": [{"seat": i, "name": name} for i, name in enumerate(state["names"])],
            "board": dict(public),
            "legal_actions": [] if seat is None else self.legal_actions(state, seat),
            "result": {"winners": [state["winner"]]} if over else None,
        }

    def events_for(self, events: Events, seat: int | None) -> Events:
        return events

    def to_act(self, state: Any) -> list[int]:
        return [] if state["winner"] is not None else [state["turn"]]

    def is_over(self, state: Any) -> bool:
        return state["winner"] is not None

    def to_dict(self, state: Any) -> dict[str, Any]:
        return dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        return dict(data)

    def bot_move(self, state: Any, bot_seats: frozenset[int], salt: int) -> BotMove | None:
        seat = state["turn"]
        if state["winner"] is not None or seat not in bot_seats:
            return None
        return BotMove(seat, self.legal_actions(state, seat)[0])

    def catalogue(self, lang: str) -> dict[str, Any]:
        return {"game": self.id, "lang": lang, "messages": {}}


GAME = CountToTen()
