"""The interface between the platform and a game.

The platform (`app.rooms`) calls only what is declared here; each game package
(`app.karanor`, `app.darkroad`, a test's toy game) provides one object that satisfies
`Game`, and `app.games.registry` maps the game's id to it. A game is pure: state
and command in, events out; it imports nothing of the platform but this module.

The game's state is opaque to the platform: it is created by `new_game`, changed
only by `apply`, read through `view`, `to_act`, `is_over`, and stored as
`to_dict` / rebuilt by `from_dict`. Randomness lives inside the state, so
`new_game(options, seed, players)` followed by the logged commands rebuilds the
exact state (the platform's cold load and replay rely on it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from app.games import i18n

Events = list[dict[str, Any]]


class RuleError(ValueError):
    """A command or an option the rules refuse: a stable snake_case `code` and a
    message for a person. Raising it must leave the state untouched."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class BotMove:
    """What a bot decided: the seat that acts and the command (a game's own value,
    sendable through `apply`)."""

    seat: int
    command: Any


@runtime_checkable
class Playable(Protocol):
    """One game, as the platform's rooms play it (the part a game written before the
    kit provides; `app.games.kit.compat` gives such a game the rest of `Game`)."""

    id: str  # stable, lower case: stored with every room ("karanor", "darkroad")
    title: str  # for people
    min_players: int
    max_players: int
    content_pack: str  # stored with each game; the content the state was dealt from
    options_model: type[BaseModel]  # every option with its default; extra fields refused
    command_schema: Mapping[str, Any]  # JSON schema of one command (for OpenAPI)

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option filled in and checked together.

        :raises RuleError: `bad_options`, naming the option at fault.
        """
        ...

    def seat_limit(self, options: Mapping[str, Any]) -> int:
        """How many seats a room with these (normalised) options offers."""
        ...

    def new_game(self, options: Mapping[str, Any], seed: int, players: Sequence[str]) -> Any:
        """A new state for these players (names, in seat order).

        :raises RuleError: `bad_options` for a player count or options the rules refuse.
        """
        ...

    def parse_command(self, data: Any) -> Any:
        """A command from its JSON form. :raises RuleError: `bad_command`, `unknown_command`."""
        ...

    def command_json(self, command: Any) -> dict[str, Any]:
        """The JSON form of a command (the inverse of `parse_command`)."""
        ...

    def apply(self, state: Any, seat: int, command: Any) -> Events:
        """Apply one command of `seat`, changing `state` in place; returns its events.

        :raises RuleError: the rules refuse it; `state` is untouched.
        """
        ...

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """Every complete command `seat` may send now, in JSON form."""
        ...

    def public_part(self, state: Any) -> Any:
        """What every viewer's view shares at this version (computed once per version)."""
        ...

    def view(self, state: Any, seat: int | None, public: Any) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see, built on this version's `public`."""
        ...

    def events_for(self, events: Events, seat: int | None) -> Events:
        """The events `seat` (None: a spectator) may read."""
        ...

    def to_act(self, state: Any) -> list[int]:
        """The seats the game waits for now (empty once it is over)."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def to_dict(self, state: Any) -> dict[str, Any]:
        """A JSON-safe copy of the whole state (secrets included: the store only)."""
        ...

    def from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def bot_move(
        self,
        state: Any,
        bot_seats: frozenset[int],
        salt: int,
        levels: Mapping[int, str] | None = None,
        budget: float | None = None,
    ) -> BotMove | None:
        """The next move of one of `bot_seats`, or None when no bot has anything to do.

        `levels`: a bot seat's level ("easy", "normal", "hard"; a seat not named plays
        "normal"); `budget`: the most seconds a searching bot thinks. Deterministic in
        (state, salt) (a search stopped by `budget` before its iterations excepted);
        must not change `state`.
        """
        ...

    def catalogue(self, lang: str) -> dict[str, Any]:
        """What the browser needs to draw the game, as JSON, in language `lang` (one of
        `app.games.i18n.LANGUAGES`): the content, every card's text, and `"messages"`,
        the game's client strings translated (`app.games.i18n.messages`)."""
        ...


class Invitations(Protocol):
    """An optional hook a game may add to `Game` (the platform's notices look for it):
    `invitations(state, events)` names the seats this version asks to answer, as
    `{seat: "offer" | "join"}` ("offer": a proposal awaits their answer; "join": they
    are asked whether they come along). Without it a seat hears only that the game waits
    for it (`to_act`)."""

    def invitations(self, state: Any, events: Events) -> dict[int, str]: ...


class TakeBacks(Protocol):
    """Take-backs (`POST /api/rooms/{code}/undo`): which commands a seat may take back.
    `KitGame` implements both members; the platform looks them up with `getattr` (a game
    without them allows no take-back).

    `may_take_back(state, seat, command)` is asked before `apply`: could this command be
    taken back at all (by its kind)? Only then does the platform keep a copy of the state
    to return to: `take_back_copy(state, seat)` when the game has it (any mapping
    `from_dict` reads; the kit's keeps bytes until read), else `to_dict`.
    `can_take_back(before, state, seat, command, events)` is
    asked after `apply` (`before` is that copy, `state` the state it left): true when the
    command revealed nothing (no die rolled, no card drawn or turned), touched no other
    seat's state or choices, made no trade, and `seat` still has the turn.

    A game may also have `take_back_mark(state, seat)`: what `can_take_back` compares of a
    state. The platform then asks `can_take_back(..., after=mark)` with the mark of the
    state the command left, and judges the seat's next command, made right after, against
    that mark (`before` is then a mark, not a copy): a run of one seat's commands keeps
    one copy, the rest replayed from it when taken back (`app.rooms.takeback.restore`)."""

    def may_take_back(self, state: Any, seat: int, command: Any) -> bool: ...

    def can_take_back(
        self, before: Any, state: Any, seat: int, command: Any, events: Events
    ) -> bool: ...


@runtime_checkable
class Game(Playable, Protocol):
    """One game, as the platform sees it: played in rooms (`Playable`) and run by the
    command line (`karanor simulate`, `karanor content`) through the registry alone.
    `app.games.kit.KitGame` implements every member; a game overrides what it wants."""

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        """The kinds of bot `simulate` can seat ("random", "greedy"...)."""
        ...

    def simulate(
        self,
        games: int,
        players: int,
        *,
        seed: int = 0,
        bots: str = "random",
        options: Mapping[str, Any] | None = None,
        content: str | None = None,
        max_rounds: int = 80,
        stats: bool = False,
        budget: Any = None,
        jobs: int = 1,
    ) -> dict[str, Any]:
        """Whole games between bots, in process: JSON-safe figures (speed, balance).
        `bots`: one kind for every seat or a comma list; `budget`: the searching bot's
        `kit.search.Budget`; `jobs`: processes sharing the games (the same games and
        figures but those of speed).

        :raises ValueError: a player count, bot kind, option or `jobs` the game refuses.
        """
        ...

    def content_counts(self, pack: str) -> dict[str, int]:
        """The named content pack checked and counted.

        :raises ValueError: the pack is broken or unknown (the message names the fault).
        """
        ...


def titles(game: Any) -> dict[str, str]:
    """The game's title in each language: its own catalogue's translation (a game with a
    `locale` folder, app.games.i18n), else the title as written."""
    folder = getattr(game, "locale", None)
    return {
        lang: i18n.translator(folder, lang).gettext(game.title) if folder else game.title
        for lang in i18n.LANGUAGES
    }


# The platform's own room option, beside every game's (app.rooms.lobby).
TAKE_BACKS_SCHEMA = {
    "type": "boolean",
    "default": True,
    "title": "Take Backs",
    "description": "a seat may take back its last commands while they revealed nothing",
}


def info(game: Game) -> dict[str, Any]:
    """A game as `GET /api/games` lists it (its options and the platform's `take_backs`)."""
    schema = game.options_model.model_json_schema()
    schema["properties"] = {**schema.get("properties", {}), "take_backs": TAKE_BACKS_SCHEMA}
    return {
        "id": game.id,
        "title": game.title,
        "titles": titles(game),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options_schema": schema,
        "defaults": {**game.options_model().model_dump(mode="json"), "take_backs": True},
    }
