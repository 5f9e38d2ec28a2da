"""Race to N, written on the game kit (`app.games.kit`): the proof that a whole game
takes a page. Players in turn add 1, 2 or 3 to a shared count; whoever brings it to
exactly the target wins. Each player holds a secret word only their own view shows.
It lives in `tests/` and plugs into a real server with `KARANOR_GAMES=tests.games.toy:GAME`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field

from app.games import kit
from app.games.kit import Check, Events, Outcome, err

WORDS = ("amber", "birch", "cobalt", "dune", "ember", "fjord")


class Options(kit.GameOptions):
    target: int = Field(default=12, ge=5, le=50, description="the count that wins")


@dataclass(frozen=True, slots=True)
class Add(kit.Command):
    type: ClassVar[str] = "add"
    n: Literal[1, 2, 3]


@dataclass(slots=True)
class Race:
    content: str
    target: int
    seed: int
    words: list[str]
    count: int = 0
    turn: int = 0
    winner: int | None = None
    commands: int = 0
    names: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}  # type: ignore[attr-defined]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Race:
        return cls(**data)


def new_game(options: dict[str, Any], seed: int, players: list[str], content: str) -> Race:
    words = random.Random(seed).sample(WORDS, len(players))
    return Race(content, options["target"], seed, words, names=list(players))


class AddH(kit.Handler[Race, None, Add]):
    cmd = Add

    def candidates(self, s: Race, c: None, seat: int) -> Iterable[Add]:
        return (kit.intern(Add, n) for n in (1, 2, 3))

    def check(self, s: Race, c: None, seat: int, cmd: Add) -> Check:
        if seat != s.turn or s.count + cmd.n > s.target:
            return err("illegal", f"seat {seat} may not add {cmd.n} now")
        return None

    def do(self, s: Race, c: None, seat: int, cmd: Add, ev: Events) -> None:
        s.count += cmd.n
        ev.append({"type": "added", "seat": seat, "n": cmd.n})
        if s.count == s.target:
            s.winner = seat
            ev.append({"type": "won", "seat": seat})
        s.turn = (seat + 1) % len(s.words)
        ev.append({"type": "whisper", "to": seat, "word": s.words[seat]})


class RaceRules(kit.Rules[Race, None]):
    def gate(self, s: Race, seat: int, kind: str) -> Check:
        return err("game_over", "the game is over") if s.winner is not None else None

    def kinds(self, s: Race, c: None, seat: int) -> tuple[str, ...]:
        return ("add",) if s.winner is None and seat == s.turn else ()

    def to_act(self, s: Race) -> list[int]:
        return [] if s.winner is not None else [s.turn]

    def is_over(self, s: Race) -> bool:
        return s.winner is not None

    def outcome(self, s: Race) -> Outcome | None:
        if s.winner is None:
            return None
        return Outcome((s.winner,), tuple({"seat": i} for i in range(len(s.words))))


class Smart(kit.RandomBot):
    """Leaves the count a multiple of 4 short of the target when it can."""

    def decide(self, s: Race, seat: int, actions: Sequence[kit.Command]) -> kit.Command:
        good = [a for a in actions if isinstance(a, Add) and (s.target - s.count - a.n) % 4 == 0]
        return good[0] if good else super().decide(s, seat, actions)


class RaceGame(kit.KitGame):
    id = "toy"
    title = "Race to N"
    min_players = 2
    max_players = 3
    content_pack = "toy"
    options_model = Options
    rules = RaceRules([AddH()], kit.Commands("Toy", [Add]), kit.Packs(lambda n: None, str))
    setup = staticmethod(new_game)
    state_type = Race
    bots = {"smart": Smart, "random": kit.RandomBot}

    def public_part(self, s: Race) -> dict[str, Any]:
        o = self.rules.outcome(s)
        return {"status": "finished" if o else "playing", "count": s.count, "target": s.target,
                "turn": {"seat": s.turn}, "result": {"winners": list(o.winners)} if o else None}  # fmt: skip

    def view(self, s: Race, seat: int | None, public: Any) -> dict[str, Any]:
        seat = kit.viewer(seat, len(s.words))
        return {**public, "seat": seat, "players": [{"seat": i} for i in range(len(s.words))],
                "private": None if seat is None else {"word": s.words[seat]},
                "board": {"count": s.count}, "offers": [],
                "legal_actions": [] if seat is None else self.legal_actions(s, seat)}  # fmt: skip

    def catalogue(self, lang: str) -> dict[str, Any]:
        return {"game": self.id, "lang": lang, "words": list(WORDS), "messages": {}}


GAME = RaceGame()
