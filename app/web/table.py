"""The table around the game (docs/api.md): a seat a bot plays while its person is away,
the turn timer, and "Play again". Thin: parse, authenticate, call the rooms service."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.rooms import tokens
from app.rooms.clocks import MAX_TURN_SECONDS
from app.web import device
from app.web import schemas as S
from app.web.deps import SeatDep, ServiceDep
from app.web.limits import limited
from app.web.rooms import _set_seat_cookie, room_quota_allows

# Every route here: at most `table_per_minute` from one address (app.web.limits), checked
# before the seat's token is looked up.
router = APIRouter(
    prefix="/api/rooms",
    tags=["table"],
    dependencies=[Depends(limited("table", "table changes and Play again asks"))],
)

SeatIndex = Annotated[int, Path(ge=0, le=5, description="a seat number")]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": S.ErrorOut} for status in (*statuses, 422, 429)}


class TimerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    turn_seconds: int = Field(ge=0, le=MAX_TURN_SECONDS, description="0: no timer")
    reserve_seconds: int = Field(
        default=0, ge=0, le=MAX_TURN_SECONDS, description="each seat's extra time, spent once"
    )


class PausedIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    paused: bool = Field(description="true: the clocks stand still; false: they run again")


class RematchOut(BaseModel):
    code: str
    url: str
    seat: S.SeatToken


@router.post(
    "/{code}/seats/{index}/bot",
    response_model=S.RoomOut,
    responses=_errors(401, 403, 404, 409),
    summary="Host: a bot plays an absent person's seat until they return",
)
async def replace_with_bot(
    index: SeatIndex, caller: SeatDep, service: ServiceDep, body: S.ReplaceWithBot | None = None
) -> dict[str, Any]:
    return await service.replace_with_bot(caller, index, body.level if body else None)


@router.delete(
    "/{code}/seats/{index}/bot",
    response_model=S.RoomOut,
    responses=_errors(401, 403, 404, 409),
    summary="Host or the seat itself: the person plays the seat again",
)
async def hand_back(index: SeatIndex, caller: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.hand_back(caller, index)


@router.put(
    "/{code}/timer",
    response_model=S.RoomOut,
    responses=_errors(401, 403, 404),
    summary="Host: the turn timer (a seat out of time is played by a bot until it returns)",
)
async def set_timer(body: TimerIn, caller: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.set_timer(caller, body.turn_seconds, body.reserve_seconds)


@router.post(
    "/{code}/leave",
    response_model=S.RoomOut,
    responses=_errors(401, 404, 409),
    summary="A seat leaves the running game (resigns): a bot plays it to the end; its "
    "token stops working (the seat's cookie is cleared); 409 `not_playing`",
)
async def leave(
    caller: SeatDep, service: ServiceDep, request: Request, response: Response
) -> dict[str, Any]:
    room = await service.leave(caller)
    # Both places a browser keeps the seat: its device cookie and the room's old cookie.
    device.forget(request, response, request.app.state.settings, caller.code)
    response.delete_cookie(tokens.cookie_name(caller.code), path="/")
    return room


@router.put(
    "/{code}/timer/paused",
    response_model=S.RoomOut,
    responses=_errors(401, 403, 404, 409),
    summary="Host: pause the turn clocks (true) or resume them (false); 409 `no_timer`",
)
async def set_paused(body: PausedIn, caller: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.set_paused(caller, body.paused)


@router.post(
    "/{code}/rematch",
    status_code=201,
    response_model=RematchOut,
    responses=_errors(401, 404, 409),
    summary="Play again: a new room of the same game and seats (the first ask opens it, "
    "and counts against the asker's rooms per hour: 429 `rate_limited` past it)",
)
async def rematch(
    caller: SeatDep, service: ServiceDep, request: Request, response: Response
) -> RematchOut:
    code, index, token = await service.rematch(caller, lambda: room_quota_allows(request))
    _set_seat_cookie(request, response, code, token)
    return RematchOut(code=code, url=f"/r/{code}", seat=S.SeatToken(index=index, token=token))
