"""The game kit (app/games/kit): commands declared once refuse what they do not read,
options refuse what they do not know, and a game object gets every member of `Game`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from app.games import registry
from app.games.base import Game, RuleError
from app.games.kit.compat import Tooled
from app.karanor import engine
from app.karanor.game import GAME as KARANOR
from tests.games.toy import GAME as TOY


def _positions() -> list[Any]:
    """States of a Karanor game at many versions (draft, turns, pending choices)."""
    s = KARANOR.new_game(KARANOR.normalise_options({"max_players": 3}), 5, ["a", "b", "c"])
    out = []
    for version in range(400):
        if KARANOR.is_over(s):
            break
        if version % 7 == 0:
            out.append(KARANOR.from_dict(KARANOR.to_dict(s)))
        move = KARANOR.bot_move(s, frozenset(range(3)), version)
        assert move is not None
        KARANOR.apply(s, move.seat, move.command)
    return out


def test_a_command_with_a_field_it_does_not_read_is_refused_and_changes_nothing() -> None:
    """Every listed command of many positions, sent with one field more (or one of its
    fields of the wrong type), is refused with `bad_command`; the state is untouched."""
    tried = 0
    for s in _positions():
        for seat in engine.to_act(s):
            before = KARANOR.to_dict(s)
            for listed in KARANOR.legal_actions(s, seat):
                for bad in (
                    {**listed, "pay": "coins"},
                    {**listed, "seat": seat},
                    *({**listed, k: [v]} for k, v in listed.items() if k != "type"),
                ):
                    with pytest.raises(RuleError) as refused:
                        KARANOR.apply(s, seat, bad)
                    assert refused.value.code == "bad_command", (bad, refused.value)
                    tried += 1
            assert KARANOR.to_dict(s) == before
    assert tried > 1000


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "work", "card": "x"}, "unexpected field `card`"),
        ({"type": "build", "card": 3}, "`card`"),
        ({"type": "build", "card": "x", "bonus": "yes"}, "`bonus`"),
        ({"type": "complete_quest", "card": "x", "option": "1"}, "`option`"),
        ({"type": "recruit_partner", "resource": "gold"}, "`resource`"),
        ({"type": "market", "buy": {"wood": -1}}, "buy"),
        ({"type": "move"}, "`to` is missing"),
        ({"type": "move", "to": "a\x00b"}, "`to`"),
    ],
)
def test_a_field_of_the_wrong_type_is_bad_command(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError) as refused:
        KARANOR.parse_command(data)
    assert refused.value.code == "bad_command" and message in refused.value.message


def test_older_command_shapes_are_upcast_when_read() -> None:
    """Shapes the engine accepted before the kit still read (docs/architecture.md)."""
    offer = KARANOR.parse_command({"type": "offer", "give": {"gold": 1}, "note": None})
    assert KARANOR.command_json(offer) == {
        "type": "offer", "give": {"gold": 1}, "want": {}, "note": "",
    }  # fmt: skip
    market = KARANOR.parse_command({"type": "market", "buy": {"wood": 1, "ore": 0}, "sell": None})
    assert KARANOR.command_json(market) == {"type": "market", "buy": {"wood": 1}, "sell": {}}
    with pytest.raises(RuleError) as refused:
        KARANOR.parse_command({"type": "teleport"})
    assert refused.value.code == "unknown_command"


def test_options_are_declared_once() -> None:
    assert KARANOR.normalise_options({}) == KARANOR.options_model().model_dump(mode="json")
    for bad in ({"max_players": 7}, {"start_seat": True}, {"colour": "red"}):
        with pytest.raises(RuleError) as refused:
            KARANOR.normalise_options(bad)
        assert refused.value.code == "bad_options"


def test_every_command_schema_refuses_extra_fields() -> None:
    for game in (KARANOR, TOY):
        defs = game.command_schema["$defs"]
        variants = [
            d for name, d in defs.items() if "properties" in d and "type" in d["properties"]
        ]
        assert variants and all(v["additionalProperties"] is False for v in variants)


class OldGame:
    """A game object written before the kit: the `Playable` members only (the toy's)."""

    def __init__(self) -> None:
        self._toy = TOY

    def __getattr__(self, name: str) -> Any:
        if name in ("simulate", "content_counts", "bot_kinds"):
            raise AttributeError(name)
        return getattr(self._toy, name)


def test_a_game_from_before_the_kit_is_hosted_with_the_tools() -> None:
    old: Any = OldGame()
    assert not isinstance(old, Game)
    tooled: Any = Tooled(old)
    assert isinstance(tooled, Game)
    figures: Mapping[str, Any] = tooled.simulate(3, 2, seed=1)
    assert figures["finished"] == 3 and figures["commands"] > 0
    with pytest.raises(ValueError):
        tooled.simulate(3, 2, seed=1, jobs=2)  # plays in one process: said, not ignored
    with pytest.raises(ValueError):
        tooled.content_counts("base")
    assert all(isinstance(g, Game) for g in registry.games())


def _pick_grouped(actions: list[Any], rng: Any, skip_end: float) -> Any:
    """`kit.bots.pick` as it was (a list per type, grouped in a dict): the reference."""
    by_type: dict[str, list[Any]] = {}
    for a in actions:
        by_type.setdefault(a[0], []).append(a)
    kinds = sorted(by_type)
    if "end_turn" in by_type and len(kinds) > 1 and rng.random() < skip_end:
        kinds.remove("end_turn")
    return rng.choice(by_type[rng.choice(kinds)])


def test_pick_draws_as_the_grouping_policy_did() -> None:
    """The random policy's choice and its draws are those of the policy that gathered
    each type's commands in a list: grouped listings, scattered ones, single commands."""
    import random

    from app.games.kit.bots import pick

    gen = random.Random(3)
    types = ["end_turn", "move", "build", "work", "a", "z"]
    for trial in range(3000):
        n = gen.randint(1, 12)
        actions = [(gen.choice(types[: gen.randint(1, 6)]), i) for i in range(n)]
        if trial % 2:
            actions.sort(key=lambda a: a[0])  # grouped, as listings come
        skip = gen.choice([0.0, 0.8, 1.0])
        r1, r2 = random.Random(trial), random.Random(trial)
        for _ in range(3):
            assert pick(actions, lambda a: a[0], r1, skip) == _pick_grouped(actions, r2, skip)
        assert r1.getstate() == r2.getstate()


class _Ring:
    """A game of `seats` seats taking turns of two plies each, for the search's rollout:
    the state is the list of seats that played, in order."""

    horizon = "next"

    def __init__(self, seats: int, replies: int | None) -> None:
        self.seats, self.bound = seats, replies

    def replies(self, w: list[int]) -> int | None:
        return self.bound

    def turn_of(self, w: list[int]) -> int:
        return (len(w) // 2) % self.seats

    def to_act(self, w: list[int]) -> list[int]:
        return [self.turn_of(w)]

    def legal(self, w: list[int], seat: int) -> list[str]:
        return ["play"]

    def apply(self, w: list[int], seat: int, cmd: str) -> list[int]:
        w.append(seat)
        return w

    def is_over(self, w: list[int]) -> bool:
        return len(w) >= 40


def test_a_rollout_plays_to_the_seats_next_turn_or_only_the_replies_it_is_allowed() -> None:
    from app.games.kit.search import rollout

    def play(w: list[int], who: int, legal: list[str]) -> str:
        return legal[0]

    # Seat 0 has played the first ply of its turn: the rest of it, then the others'.
    for seats, bound, played in [
        (4, None, [0, 1, 1, 2, 2, 3, 3]),  # every other seat's turn, up to seat 0's next
        (4, 1, [0, 1, 1]),  # the next seat's reply only
        (4, 2, [0, 1, 1, 2, 2]),
        (2, 1, [0, 1, 1]),  # at two seats, one reply is all of them
    ]:
        w = [0]
        plies = rollout(_Ring(seats, bound), w, 0, play)  # type: ignore[arg-type]
        assert w[1:] == played, (seats, bound)
        assert plies == len(played)


# What a run's speed and time figures are: the rest is the games'.
SPEED = ("seconds", "games_per_second", "commands_per_second", "cpu_seconds",
         "commands_per_cpu_second", "jobs", "decision_ms", "decision_cpu_ms")  # fmt: skip


@pytest.mark.parametrize(
    ("game_id", "bots"),
    [("karanor", "greedy"), ("darkroad", "greedy"), ("darkroad", "hard,greedy")],
)
def test_games_shared_among_processes_are_the_games_of_one(game_id: str, bots: str) -> None:
    """`simulate(jobs=N)` (`karanor simulate --jobs`) plays the same games as one process:
    the same finished games, commands, wins, intervals and balance figures, and as many
    decisions of the searching bot; only the speed figures are the run's own."""
    from app.games.kit.search import Budget

    game = registry.get(game_id)
    assert game is not None
    players = 2 if "," in bots else 4
    budget = Budget(iterations=2) if "hard" in bots else None
    one = game.simulate(5, players, seed=4, bots=bots, budget=budget)
    two = game.simulate(5, players, seed=4, bots=bots, budget=budget, jobs=2)
    assert two["jobs"] == 2 and "jobs" not in one
    if budget is not None:
        assert two["decision_cpu_ms"]["n"] == one["decision_cpu_ms"]["n"] > 0
    assert {k: v for k, v in two.items() if k not in SPEED} == {
        k: v for k, v in one.items() if k not in SPEED
    }
    assert one["finished"] == 5
    with pytest.raises(ValueError):
        game.simulate(2, players, bots=bots, jobs=2, stats=True)  # tallied in one process
    with pytest.raises(ValueError):
        game.simulate(2, players, bots=bots, jobs=0)
