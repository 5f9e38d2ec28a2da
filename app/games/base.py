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
class Game(Protocol):
    """One game, as the platform sees it."""

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

    def bot_move(self, state: Any, bot_seats: frozenset[int], salt: int) -> BotMove | None:
        """The next move of one of `bot_seats`, or None when no bot has anything to do.

        Deterministic in (state, salt); must not change `state`.
        """
        ...

    def catalogue(self, lang: str) -> dict[str, Any]:
        """What the browser needs to draw the game, as JSON, in language `lang` (one of
        `app.games.i18n.LANGUAGES`): the content, every card's text, and `"messages"`,
        the game's client strings translated (`app.games.i18n.messages`)."""
        ...


def info(game: Game) -> dict[str, Any]:
    """A game as `GET /api/games` lists it."""
    return {
        "id": game.id,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options_schema": game.options_model.model_json_schema(),
        "defaults": game.options_model().model_dump(mode="json"),
    }
