"""This device's rooms ("my games" on the home page), from its device cookie and the old
per-room cookies it still sends (app/web/device.py)."""

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from app.rooms import errors
from app.web import device
from app.web import schemas as S
from app.web.deps import ServiceDep, SettingsDep

router = APIRouter(prefix="/api/me", tags=["me"])


@router.get(
    "/rooms",
    response_model=S.MyRoomsOut,
    summary="This device's rooms: waiting for me first, then playing, lobbies, finished",
)
async def my_rooms(
    request: Request,
    response: Response,
    service: ServiceDep,
    settings: SettingsDep,
    hidden: Annotated[bool, Query(description="include the rooms hidden from the list")] = False,
) -> dict[str, Any]:
    entries = device.read(request, settings)
    held = {e.code for e in entries}
    old = [e for e in device.legacy(request) if e.code not in held]
    if old:
        # The old per-room cookies' seats join the device cookie (they keep working too).
        device.write(request, response, settings, [*entries, *old])
    rooms = await service.my_rooms([(e.code, e.token, e.hidden) for e in [*entries, *old]])
    return {"rooms": [r for r in rooms if hidden or not r["hidden"]]}


@router.delete(
    "/rooms/{code}",
    response_model=S.HiddenOut,
    responses={404: {"model": S.ErrorOut}},
    summary="Hide a room from this device's list (its seat is kept)",
)
async def hide_room(
    request: Request,
    response: Response,
    settings: SettingsDep,
    code: Annotated[str, Path(description="the room code")],
) -> dict[str, Any]:
    if not device.hide(request, response, settings, code):
        raise errors.PlatformError(404, "unknown_room", "this device holds no seat in that room")
    return {"hidden": code}
