"""Merchants of Karanor behind the platform's game interface (`app.games.base.Game`).

Everything here delegates to the engine, views and bots of this package; the module
only adapts names and shapes (options as a pydantic model, commands as JSON, the bot
policy as one `bot_move`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from app.games import i18n
from app.games.base import BotMove, Events

from . import actions, bots, engine, texts, view
from .content import RESOURCES, load
from .state import ACTION, GAME_OVER, State

CONTENT_PACK = "base"
# The game's translations: locale/<lang>.po (English is the source language).
LOCALE = Path(__file__).resolve().parent / "locale"
BOT_PROPOSAL_CHANCE = 0.15  # a bot on its turn sometimes opens with a trade offer
OFF_TURN_PLAYS = ("play_black_market", "use_artifact")


class Options(BaseModel):
    """The room options of a Karanor game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    max_players: int = Field(default=4, ge=2, le=6, description="2 to 6 seats")
    public_quests: bool = Field(default=False, description="quest cards face up")
    two_player_market: bool = Field(default=True, description="the 2-player market")
    start_seat: Annotated[int, Field(ge=0, le=5)] | Literal["random"] = Field(
        default="random", description='first player: a seat number or "random"'
    )
    end_prestige: int | None = Field(
        default=None, ge=1, le=30, description="prestige that ends the game (null: the rules')"
    )


def _command_models() -> list[type[BaseModel]]:
    """One pydantic model per command type (for the OpenAPI schema; `actions.parse`
    stays the validator, with the engine's error codes)."""
    models: list[type[BaseModel]] = []
    for kind, cls in actions.COMMANDS.items():
        fields: dict[str, Any] = {"type": (Literal[kind], ...)}
        for f in dataclasses.fields(cls):
            annotation: Any = Any
            if f.name in ("buy", "sell"):
                annotation = dict[str, int]
            elif f.name in ("give", "want"):
                annotation = dict[str, Any]
            elif f.name in ("option", "offer", "target"):
                annotation = int | None if f.name == "target" else int
            elif f.name == "bonus":
                annotation = bool
            elif f.name == "path":
                annotation = list[str] | None
            elif f.name == "to":
                annotation = list[int] | None if cls is actions.Offer else str
            else:
                annotation = str
            default = ... if f.default is dataclasses.MISSING else f.default
            fields[f.name] = (annotation, default)
        name = "Karanor" + "".join(part.title() for part in kind.split("_"))
        models.append(create_model(name, __config__=ConfigDict(extra="forbid"), **fields))
    return models


@functools.cache
def _command_schema() -> dict[str, Any]:
    union: Any = Annotated[Union[tuple(_command_models())], Field(discriminator="type")]  # noqa: UP007
    adapter: TypeAdapter[Any] = TypeAdapter(union)
    schema: dict[str, Any] = adapter.json_schema(ref_template="#/$defs/{model}")
    return schema


def _bot(state: State, salt: int, seat: int) -> bots.GreedyBot:
    return bots.GreedyBot((state.seed * 31 + salt * 7 + seat) & ((1 << 63) - 1))


class Karanor:
    """The game object the registry hosts as `karanor`."""

    id = "karanor"
    title = "Merchants of Karanor"
    min_players = 2
    max_players = 6
    content_pack = CONTENT_PACK
    options_model = Options
    resources = RESOURCES

    @property
    def command_schema(self) -> Mapping[str, Any]:
        return _command_schema()

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return engine.normalise_options(dict(options or {}))

    def seat_limit(self, options: Mapping[str, Any]) -> int:
        return int(options["max_players"])

    def new_game(self, options: Mapping[str, Any], seed: int, players: Sequence[str]) -> State:
        return engine.new_game(CONTENT_PACK, dict(options), seed, list(players))

    def parse_command(self, data: Any) -> actions.Command:
        return actions.parse(data)

    def command_json(self, command: actions.Command) -> dict[str, Any]:
        return actions.to_json(command)

    def apply(self, state: State, seat: int, command: Any) -> Events:
        _, events = engine.apply(state, seat, command)
        return events

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return [actions.to_json(c) for c in engine.legal_actions(state, seat)]

    def public_part(self, state: State) -> dict[str, Any]:
        return view.public_part(state)

    def view(self, state: State, seat: int | None, public: Any) -> dict[str, Any]:
        return view.view(state, seat, public=public)

    def events_for(self, events: Events, seat: int | None) -> Events:
        return view.events_for(events, seat)

    def to_act(self, state: State) -> list[int]:
        return bots.to_act(state)

    def is_over(self, state: State) -> bool:
        return state.phase == GAME_OVER

    def to_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return State.from_dict(dict(data))

    def bot_move(self, state: State, bot_seats: frozenset[int], salt: int) -> BotMove | None:
        """The seat the game waits for (now and then opening its turn with an offer for
        a token it needs), else a reply to an offer made to a bot, else an off-turn
        black-market card or artifact power worth playing."""
        s = state
        if not bot_seats or s.phase == GAME_OVER:
            return None
        for seat in bots.to_act(s):
            if seat in bot_seats:
                legal = engine.legal_actions(s, seat)
                if legal:
                    player = _bot(s, salt, seat)
                    own_turn = s.phase == ACTION and not s.pending and seat == s.turn_seat
                    if own_turn and player.rng.random() < BOT_PROPOSAL_CHANCE:
                        offer = player.propose(s, seat)
                        if offer is not None:
                            return BotMove(seat, offer)
                    return BotMove(seat, player.decide(s, seat, legal))
        for seat in sorted(bot_seats):
            reply = _bot(s, salt, seat).answer(s, seat)
            if reply is not None:
                return BotMove(seat, reply)
        if s.phase == ACTION and not s.pending:
            for seat in sorted(bot_seats - {s.turn_seat}):
                free = [a for a in engine.legal_actions(s, seat) if a.type in OFF_TURN_PLAYS]
                play = _bot(s, salt, seat).react(s, seat, free) if free else None
                if play is not None:
                    return BotMove(seat, play)
        return None

    def catalogue(self, lang: str) -> dict[str, Any]:
        return _catalogue(lang)


@functools.cache
def _catalogue(lang: str) -> dict[str, Any]:
    """What the client needs to draw the map and explain every card."""
    c = load(CONTENT_PACK)
    m = c.map
    return {
        "game": "karanor",
        "lang": lang,
        # The game's client strings in `lang` (static/js/i18n.js looks them up).
        "messages": i18n.messages(LOCALE, lang),
        "pack": c.name,
        "map": {
            "width": m.width,
            "height": m.height,
            "territories": [t.model_dump() for t in m.territories],
            "land": [list(pair) for pair in m.land],
            "sea_routes": [list(pair) for pair in m.sea_routes],
            "coast": [[list(pt) for pt in line] for line in m.coast],
            "cities": list(c.cities),
        },
        "rules": c.rules.model_dump(),
        "resources": list(RESOURCES),
        "villas": dict(c.villa_name),
        "catalogue": texts.catalogue(c, i18n.translator(LOCALE, lang)),
    }


GAME = Karanor()
