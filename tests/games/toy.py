"""Race to N: a toy game of a few lines, the proof that the game interface is real.

Players in turn add 1, 2 or 3 to a shared count; whoever brings it to exactly the
target wins. Each player holds a secret word only their own view shows. It lives in
`tests/` and plugs into a real server with `KARANOR_GAMES=tests.games.toy:GAME`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import BotMove, Events, RuleError

WORDS = ("amber", "birch", "cobalt", "dune", "ember", "fjord")


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    target: int = Field(default=12, ge=5, le=50, description="the count that wins")


class Add(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["add"]
    n: int = Field(ge=1, le=3)


class Race:
    id = "toy"
    title = "Race to N"
    min_players = 2
    max_players = 3
    content_pack = "toy"
    options_model = Options
    command_schema: Mapping[str, Any] = Add.model_json_schema()

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return Options.model_validate(dict(options or {})).model_dump()

    def seat_limit(self, options: Mapping[str, Any]) -> int:
        return self.max_players

    def new_game(self, options: Mapping[str, Any], seed: int, players: Sequence[str]) -> dict:
        words = random.Random(seed).sample(WORDS, len(players))
        return {"target": options["target"], "count": 0, "turn": 0, "n": len(players),
                "words": words, "winner": None}  # fmt: skip

    def parse_command(self, data: Any) -> Add:
        if not isinstance(data, dict) or data.get("type") != "add":
            raise RuleError("unknown_command", f"unknown command {data!r:.40}")
        n = data.get("n")
        if set(data) != {"type", "n"} or not isinstance(n, int) or isinstance(n, bool):
            raise RuleError("bad_command", "add takes an integer n")
        return Add(type="add", n=n)

    def command_json(self, command: Add) -> dict[str, Any]:
        return command.model_dump()

    def _moves(self, s: dict, seat: int) -> list[int]:
        if s["winner"] is not None or seat != s["turn"]:
            return []
        return [n for n in (1, 2, 3) if s["count"] + n <= s["target"]]

    def apply(self, s: dict, seat: int, command: Add) -> Events:
        if command.n not in self._moves(s, seat):
            raise RuleError("illegal", f"seat {seat} may not add {command.n} now")
        s["count"] += command.n
        events: Events = [{"type": "added", "seat": seat, "n": command.n}]
        if s["count"] == s["target"]:
            s["winner"] = seat
            events.append({"type": "won", "seat": seat})
        s["turn"] = (seat + 1) % s["n"]
        events.append({"type": "whisper", "to": seat, "word": s["words"][seat]})
        return events

    def legal_actions(self, s: dict, seat: int) -> list[dict[str, Any]]:
        return [{"type": "add", "n": n} for n in self._moves(s, seat)]

    def public_part(self, s: dict) -> dict[str, Any]:
        over = s["winner"] is not None
        return {"status": "finished" if over else "playing", "count": s["count"],
                "target": s["target"], "turn": {"seat": s["turn"]},
                "result": {"winners": [s["winner"]]} if over else None}  # fmt: skip

    def view(self, s: dict, seat: int | None, public: Any) -> dict[str, Any]:
        return {**public, "seat": seat, "players": [{"seat": i} for i in range(s["n"])],
                "private": None if seat is None else {"word": s["words"][seat]},
                "board": {"count": s["count"]}, "offers": [],
                "legal_actions": [] if seat is None else self.legal_actions(s, seat)}  # fmt: skip

    def events_for(self, events: Events, seat: int | None) -> Events:
        return [e for e in events if "to" not in e or e["to"] == seat]

    def to_act(self, s: dict) -> list[int]:
        return [] if s["winner"] is not None else [s["turn"]]

    def is_over(self, s: dict) -> bool:
        return s["winner"] is not None

    def to_dict(self, s: dict) -> dict[str, Any]:
        return {**s, "words": list(s["words"])}

    def from_dict(self, data: Mapping[str, Any]) -> dict:
        return dict(data)

    def bot_move(self, s: dict, bot_seats: frozenset[int], salt: int) -> BotMove | None:
        if s["turn"] not in bot_seats or not self._moves(s, s["turn"]):
            return None
        left = (s["target"] - s["count"]) % 4
        return BotMove(s["turn"], Add(type="add", n=left if left in (1, 2, 3) else 1))

    def catalogue(self, lang: str) -> dict[str, Any]:
        return {"game": self.id, "lang": lang, "words": list(WORDS), "messages": {}}


GAME = Race()
