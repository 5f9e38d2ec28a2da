"""Merchants of the Dark Road behind the platform's game interface (`app.games.base.Game`).

The only module of this package that imports `app.games`: it adapts names and shapes
(options as a pydantic model, commands as JSON, the engine's `RuleError` as the
platform's, the bot policy as one `bot_move`) and delegates everything to the engine.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from app.games import i18n
from app.games.base import BotMove, Events
from app.games.base import RuleError as GameRuleError

from . import actions, bots, engine, texts, view
from .content import load
from .errors import RuleError
from .state import OVER, State

CONTENT_PACK = "base"
# The game's translations: locale/<lang>.po (English is the source language).
LOCALE = Path(__file__).resolve().parent / "locale"
T = TypeVar("T")


def _mapped(fn: Callable[[], T]) -> T:
    """Run `fn`, raising the platform's RuleError for the engine's."""
    try:
        return fn()
    except RuleError as e:
        raise GameRuleError(e.code, e.message) from None


class Options(BaseModel):
    """The room options of a Dark Road game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    max_players: int = Field(default=4, ge=1, le=4, description="1 to 4 seats (bots may fill)")
    buildings: Literal["first_game", "random"] | list[str] = Field(
        default="first_game", description='"first_game", "random" or a list of 4 building ids'
    )
    deed_choice: bool = Field(default=False, description="draw 2 deeds, keep 1")
    drafting: bool = Field(default=False, description="draft steeds and starting heroes")


def _command_models() -> list[type[BaseModel]]:
    models: list[type[BaseModel]] = []
    for kind, cls in actions.COMMANDS.items():
        fields: dict[str, Any] = {"type": (Literal[kind], ...)}
        for f in dataclasses.fields(cls):
            typ = str(f.type)
            annotation: Any
            if typ.startswith("tuple"):
                annotation = list[int] if "int" in typ else list[str]
            elif typ.startswith("bool"):
                annotation = bool
            elif typ.startswith("int"):
                annotation = int | None if "None" in typ else int
            else:
                annotation = str | None if "None" in typ else str
            default = ... if f.default is dataclasses.MISSING else f.default
            fields[f.name] = (annotation, default)
        name = "DarkRoad" + "".join(part.title() for part in kind.split("_"))
        models.append(create_model(name, __config__=ConfigDict(extra="forbid"), **fields))
    return models


@functools.cache
def _command_schema() -> dict[str, Any]:
    union: Any = Annotated[
        Union[tuple(_command_models())],  # noqa: UP007
        Field(discriminator="type"),
    ]
    schema: dict[str, Any] = TypeAdapter(union).json_schema(ref_template="#/$defs/{model}")
    return schema


class DarkRoad:
    """The game object the registry hosts as `darkroad`."""

    id = "darkroad"
    title = "Merchants of the Dark Road"
    min_players = 1
    max_players = 4
    content_pack = CONTENT_PACK
    options_model = Options

    @property
    def command_schema(self) -> Mapping[str, Any]:
        return _command_schema()

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return _mapped(lambda: engine.normalise_options(dict(options or {})))

    def seat_limit(self, options: Mapping[str, Any]) -> int:
        return int(options["max_players"])

    def new_game(self, options: Mapping[str, Any], seed: int, players: Sequence[str]) -> State:
        return _mapped(lambda: engine.new_game(dict(options), seed, list(players), CONTENT_PACK))

    def parse_command(self, data: Any) -> actions.Command:
        return _mapped(lambda: actions.parse(data))

    def command_json(self, command: actions.Command) -> dict[str, Any]:
        return actions.to_json(command)

    def apply(self, state: State, seat: int, command: Any) -> Events:
        return _mapped(lambda: engine.apply(state, seat, command))

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return [actions.to_json(c) for c in engine.legal_actions(state, seat)]

    def public_part(self, state: State) -> dict[str, Any]:
        return view.public_part(state)

    def view(self, state: State, seat: int | None, public: Any) -> dict[str, Any]:
        return view.view(state, seat, public=public)

    def events_for(self, events: Events, seat: int | None) -> Events:
        return view.events_for(events, seat)

    def to_act(self, state: State) -> list[int]:
        return engine.to_act(state)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def to_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return State.from_dict(dict(data))

    def bot_move(self, state: State, bot_seats: frozenset[int], salt: int) -> BotMove | None:
        """The greedy bot's command for the seat the game waits for, if it is a bot's."""
        if not bot_seats or state.phase == OVER:
            return None
        for seat in engine.to_act(state):
            if seat in bot_seats:
                legal = engine.legal_actions(state, seat)
                if legal:
                    bot = bots.GreedyBot((state.seed * 31 + salt * 7 + seat) & ((1 << 63) - 1))
                    return BotMove(seat, bot.decide(state, seat, legal))
        return None

    def catalogue(self, lang: str = "en") -> dict[str, Any]:
        return _catalogue(lang)


@functools.cache
def _catalogue(lang: str) -> dict[str, Any]:
    """The content the client needs to draw the board and explain every card, its texts
    in `lang` (names and rule texts of the cards through app/darkroad/texts.py)."""
    c = load(CONTENT_PACK)
    data = {
        "game": "darkroad",
        "lang": lang,
        # The game's client strings in `lang` (static/js/i18n.js looks them up).
        "messages": i18n.messages(LOCALE, lang),
        "pack": c.name,
        "board": c.board.model_dump(),
        "shapes": {g: [list(map(list, o)) for o in shapes] for g, shapes in c.shapes.items()},
        "heroes": [x.model_dump() for x in c.heroes],
        "companions": [x.model_dump() for x in c.companions],
        "steeds": [x.model_dump() for x in c.steeds],
        "deeds": [x.model_dump() for x in c.deeds],
        "deed_banners": [x.model_dump(exclude_none=True) for x in c.banners],
        "events": [x.model_dump() for x in c.events],
        "commissions": [x.model_dump() for x in c.commissions],
        "buildings": [x.model_dump() for x in c.buildings],
        "first_game": list(c.first_game),  # the suggested first game's four buildings
        "upgrades": [x.model_dump() for x in c.upgrades],
    }
    return texts.localise(data, c, i18n.translator(LOCALE, lang))


GAME = DarkRoad()
