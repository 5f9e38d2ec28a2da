"""Request and response bodies of the HTTP API (and the WebSocket messages clients send).

Every request field is validated here; a body that does not fit is a 422 `bad_request`.
"""

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

# The range of the database's Integer columns (versions, seats): every integer a client
# sends is bounded to it, so none reaches a query it would overflow (a 422, not a 5xx).
INT32_MAX = 2**31 - 1
# No control character (C0, DEL, C1) anywhere in an id, a name or a chat line.
NO_CONTROLS = r"^[^\x00-\x1f\x7f-\x9f]*$"
# Invisible characters that are not Unicode format (Cf) characters: the Hangul fillers,
# the combining grapheme joiner, the Braille blank.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u2800")
_SPACES = re.compile(r"\s+")


def visible_name(value: str) -> str:
    """A name as it is stored and shown: NFC, without invisible characters (zero-width,
    bidi overrides and isolates, BOM, every other Cf format character), runs of spaces
    made one. :raises ValueError: nothing visible is left."""
    value = unicodedata.normalize("NFC", value)
    value = "".join(ch for ch in value if unicodedata.category(ch) != "Cf" and ch not in _INVISIBLE)
    value = _SPACES.sub(" ", value).strip()
    if not value:
        raise ValueError("a name needs at least one visible character")
    return value


def _stripped(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("at least one character that is not a space")
    return value


# Control characters are refused wherever they are (the pattern checks the text as it
# came, before spaces are stripped: what the OpenAPI schema says is what is enforced).
Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=40, pattern=NO_CONTROLS),
    AfterValidator(visible_name),
    Field(description="1-40 characters, no control character; invisible ones are removed"),
]
ChatText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=500, pattern=NO_CONTROLS),
    AfterValidator(_stripped),
]
CommandId = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=NO_CONTROLS)]
Version = Annotated[int, Field(ge=0, le=INT32_MAX)]


# How a command looks in OpenAPI: an object with a `type`; the room's game checks the
# rest (the schemas of every hosted game's commands are added by `app.web.games`).
COMMAND_SCHEMA: dict[str, Any] = {
    "required": ["type"],
    "properties": {"type": {"type": "string", "examples": ["end_turn"]}},
}
OPTIONS_SCHEMA: dict[str, Any] = {
    "description": "the game's options (`GET /api/games` gives each game's schema); "
    "the ones left out keep their current value (or the default)",
    "examples": [{"max_players": 4}],
}
GameId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_]*$"),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Options = Annotated[dict[str, Any], Field(json_schema_extra=OPTIONS_SCHEMA)]


class CreateRoom(Strict):
    name: Name
    game: GameId | None = Field(default=None, description='a game id (default "karanor")')
    options: Options | None = None


class JoinRoom(Strict):
    name: Name


BotLevel = Literal["easy", "normal", "hard"]


class AddBot(Strict):
    name: Name | None = None
    level: BotLevel | None = Field(default=None, description="easy, normal (default) or hard")


class SetBotLevel(Strict):
    level: BotLevel


class ReplaceWithBot(Strict):
    level: BotLevel | None = Field(default=None, description="the bot's level (default: kept)")


class StartGame(Strict):
    options: Options | None = None


class SetOptions(Strict):
    options: Options


class CommandIn(Strict):
    id: CommandId = Field(description="chosen by the client (a UUID); resending it is safe")
    command: dict[str, Any] = Field(
        description="a command, e.g. one of `legal_actions`", json_schema_extra=COMMAND_SCHEMA
    )
    expected_version: Version | None = Field(
        default=None, description="refuse (409 stale_version) unless the game is here"
    )


class UndoIn(Strict):
    id: CommandId | None = Field(
        default=None,
        description="chosen by the client (a UUID): resending it is safe; none: one is made",
    )
    expected_version: Version | None = Field(
        default=None, description="refuse (409 stale_version) unless the game is here"
    )


# --- answers ------------------------------------------------------------------------


class SeatToken(BaseModel):
    index: int
    token: str = Field(description="the seat's secret; send it as `Authorization: Bearer`")


class RoomCreated(BaseModel):
    code: str
    url: str
    seat: SeatToken


class SeatJoined(BaseModel):
    seat: SeatToken


class BotSeat(BaseModel):
    index: int


class BotAdded(BaseModel):
    seat: BotSeat


class SeatOut(BaseModel):
    index: int
    name: str
    bot: bool
    host: bool
    replaced: bool = Field(
        default=False, description="a person's seat a bot plays until they return"
    )
    level: Literal["easy", "normal", "hard"] = Field(
        default="normal", description="the level its bot plays at (when a bot plays it)"
    )
    connected: bool = Field(description="a socket of this seat is open (bots: always)")
    left: int | None = Field(
        default=None,
        description="the game version its person left the game at (a bot plays it to the "
        "end); null: still there",
    )


class RoomOut(BaseModel):
    code: str
    url: str
    game: str = Field(description="the game the room plays")
    seat_limit: int = Field(description="how many seats the room's options allow")
    status: Literal["lobby", "playing", "finished"]
    seats: list[SeatOut]
    options: dict[str, Any]
    version: int | None = Field(description="the game's version; null in the lobby")
    timer: dict[str, Any] | None = Field(
        default=None,
        description='the turn timer: {"turn_seconds", "reserve_seconds", "deadlines": '
        '[{"seat", "at": epoch seconds}], "paused": epoch of the pause or null}; null: off',
    )
    rematch: str | None = Field(default=None, description="the room Play again opened")


class MySeat(BaseModel):
    index: int
    name: str
    host: bool
    bot: bool


class Me(BaseModel):
    seat: MySeat | None = Field(description="the caller's seat; null for a spectator")


class CommandOut(BaseModel):
    version: int
    events: list[dict[str, Any]] = Field(description="the command's events the sender may see")
    duplicate: bool = Field(default=False, description="true: an earlier send of this id")


class LogEntry(BaseModel):
    version: int
    seat: int | None
    events: list[dict[str, Any]]
    by: Literal["standin", "bot"] | None = Field(
        default=None,
        description='"standin": a bot played this turn for a person out of time; "bot": a '
        "bot's move (a bot's seat, or a person's seat a bot plays while they are away)",
    )


class MyRoomPlayer(BaseModel):
    index: int
    name: str
    bot: bool


class MyRoomSeat(BaseModel):
    index: int
    name: str


class MyRoom(BaseModel):
    code: str
    url: str
    game: str
    title: str
    status: Literal["lobby", "playing", "finished"]
    seat: int = Field(description="this device's seat")
    players: list[MyRoomPlayer] = Field(description="the other seats")
    to_act: list[MyRoomSeat] = Field(description="whose turn it is")
    my_turn: bool
    last_move_at: str | None = Field(description="ISO 8601 UTC of the last move")
    version: int | None
    replay_url: str | None
    hidden: bool


class MyRoomsOut(BaseModel):
    rooms: list[MyRoom]


class HiddenOut(BaseModel):
    hidden: str


class ReplayTurn(BaseModel):
    version: int = Field(description="the first version of this turn")
    seats: list[int] = Field(description="the seats the game waited for")
    round: int | None = Field(description="the round, when the game's view names one")
    prestige: list[int | None] = Field(description="each seat's prestige then (the view's)")


class ReplayMove(BaseModel):
    version: int
    seat: int
    type: str = Field(description="the command's type (`take_back`: a take-back)")
    at: str | None = Field(description="when it was logged, ISO 8601 UTC")


class ReplayOut(BaseModel):
    version: int
    finished: bool
    turns: list[ReplayTurn]
    moves: list[ReplayMove]


class LogOut(BaseModel):
    entries: list[LogEntry]


class CoachOffer(BaseModel):
    offer: int | str = Field(description="the offer's id")
    good: bool = Field(description="accepting it is good for the seat, by the hard bot's values")
    reason: str = Field(description="one line, in the asked language")


class CoachOut(BaseModel):
    """What the hard bot would do in the seat's place."""

    version: int = Field(description="the game version the advice is for")
    action: dict[str, Any] | None = Field(
        description="one of the seat's legal_actions, as listed (null: nothing to do now)"
    )
    reason: str | None = Field(description="why, in one line, in the asked language")
    offers: list[CoachOffer] = Field(description="its word on each open offer the seat may accept")


class ViewOut(BaseModel):
    """One seat's (or a spectator's) picture of the game; see docs/api.md."""

    version: int
    status: Literal["lobby", "playing", "finished"]
    seat: int | None
    turn: dict[str, Any] | None
    players: list[dict[str, Any]]
    private: dict[str, Any] | None = Field(description="only the viewer's own; null otherwise")
    board: dict[str, Any] | None
    offers: list[dict[str, Any]]
    legal_actions: list[dict[str, Any]]
    result: dict[str, Any] | None


class GameOut(BaseModel):
    id: str
    title: str
    titles: dict[str, str] = Field(
        default_factory=dict, description="the title in each language (en, fr), by code"
    )
    min_players: int
    max_players: int
    options_schema: dict[str, Any] = Field(description="JSON schema of the game's options")
    defaults: dict[str, Any] = Field(description="every option's default value")


class GamesOut(BaseModel):
    games: list[GameOut]


class ErrorBody(BaseModel):
    code: str = Field(description="stable, snake_case")
    message: str = Field(description="for a person")


class ErrorOut(BaseModel):
    error: ErrorBody


# --- WebSocket messages from clients --------------------------------------------------


class WsCommand(Strict):
    type: Literal["command"]
    id: CommandId
    command: dict[str, Any]
    expected_version: Version | None = None


class WsChat(Strict):
    type: Literal["chat"]
    text: ChatText


class WsResync(Strict):
    type: Literal["resync"]
    version: Version | None = None


class WsPing(Strict):
    type: Literal["ping"]


class WsVisibility(Strict):
    """The page is shown or hidden (no notice outside the page while it is shown)."""

    type: Literal["visibility"]
    visible: bool


WsMessage = Annotated[
    WsCommand | WsChat | WsResync | WsPing | WsVisibility, Field(discriminator="type")
]
