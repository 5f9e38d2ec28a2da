"""Shared FastAPI dependencies, as `Annotated` aliases for route signatures."""

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.config import Settings
from app.rooms import errors
from app.rooms.service import Caller, RoomService
from app.web import device


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.rooms
    return service


ServiceDep = Annotated[RoomService, Depends(get_service)]

# Shown in OpenAPI; the token is read by `get_caller` (header first, then the room cookie).
bearer = HTTPBearer(auto_error=False, description="the seat token from joining the room")


def request_token(request: Request, code: str) -> str | None:
    """The seat token of a request: `Authorization: Bearer`, else the device cookie's seat
    for the room (or the room's old cookie).

    :raises PlatformError: 401 `bad_token` for an Authorization header that is not Bearer.
    """
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise errors.bad_token()
        return value.strip()
    return device.token_for(request, request.app.state.settings, code)


async def get_caller(
    request: Request,
    code: str,
    service: ServiceDep,
    _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
) -> Caller:
    """The seat calling (from its token), or a spectator when there is no token."""
    return await service.authenticate(code, request_token(request, code))


async def get_seat(caller: Annotated[Caller, Depends(get_caller)]) -> Caller:
    """Like `get_caller`, but a seat is required (401 `bad_token` otherwise)."""
    if caller.seat is None:
        raise errors.bad_token()
    return caller


CallerDep = Annotated[Caller, Depends(get_caller)]
SeatDep = Annotated[Caller, Depends(get_seat)]
