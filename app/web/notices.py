"""Notices outside the page (docs/api.md "Notices"): a seat subscribes a device with a Web
Push subscription or an Apprise URL, reads its devices (never their URLs back) and
stops them. Thin: parse, authenticate, call `app.notices`."""

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from app.notices.service import Notices, Subscription
from app.web import schemas as S
from app.web.deps import SeatDep
from app.web.i18n import language

router = APIRouter(prefix="/api/rooms", tags=["notices"])


def get_notices(request: Request) -> Notices:
    notices: Notices = request.app.state.notices
    return notices


NoticesDep = Annotated[Notices, Depends(get_notices)]


class WebPushKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(min_length=1, max_length=200, description="the browser's P-256 key")
    auth: str = Field(min_length=1, max_length=100, description="the browser's auth secret")


class WebPushIn(BaseModel):
    model_config = ConfigDict(extra="ignore")  # browsers add expirationTime
    endpoint: str = Field(min_length=8, max_length=2000, description="the push service's URL")
    keys: WebPushKeys


class NoticesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    web_push: WebPushIn | None = Field(default=None, description="a PushSubscription's JSON")
    url: str | None = Field(
        default=None, min_length=3, max_length=2000, description="an Apprise URL (a secret)"
    )
    time_zone: str | None = Field(
        default=None, max_length=64, description="IANA zone the notices' times are shown in"
    )


class NoticesStop(BaseModel):
    model_config = ConfigDict(extra="forbid")
    web_push: WebPushIn | None = None
    url: str | None = Field(default=None, max_length=2000)


class TargetOut(BaseModel):
    id: int
    kind: str = Field(description="`web_push` or `url`")
    failure: str | None = Field(description="why the last notice did not arrive, if it did not")
    since: str


class NoticesOut(BaseModel):
    vapid_public_key: str | None = Field(
        description="the server's key for `pushManager.subscribe` (null: no Web Push)"
    )
    kinds: list[str] = Field(description="the kinds this server sends")
    targets: list[TargetOut] = Field(description="this seat's devices (no URL is ever shown)")


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": S.ErrorOut} for status in (*statuses, 422, 429)}


async def _out(notices: Notices, listed: list[dict[str, Any]]) -> NoticesOut:
    key = await notices.public_key()
    return NoticesOut(
        vapid_public_key=key, kinds=notices.kinds, targets=[TargetOut(**t) for t in listed]
    )


@router.get(
    "/{code}/notices",
    response_model=NoticesOut,
    responses=_errors(401, 404),
    summary="A seat's notices outside the page: the server's key and kinds, its devices",
)
async def list_notices(caller: SeatDep, notices: NoticesDep) -> NoticesOut:
    return await _out(notices, await notices.listed(caller))


@router.put(
    "/{code}/notices",
    response_model=NoticesOut,
    responses=_errors(401, 404),
    summary="A seat's device gets notices outside the page (Web Push or an Apprise URL)",
)
async def put_notices(
    body: NoticesIn, caller: SeatDep, notices: NoticesDep, request: Request
) -> NoticesOut:
    sub = Subscription(
        web_push=body.web_push.model_dump() if body.web_push else None,
        url=body.url,
        lang=language(request),
        time_zone=body.time_zone or "UTC",
        origin=str(request.base_url),
    )
    return await _out(notices, await notices.subscribe(caller, sub))


@router.delete(
    "/{code}/notices",
    response_model=NoticesOut,
    responses=_errors(401, 404),
    summary="Stop a device's notices (no body: every device of the seat)",
)
async def delete_notices(
    caller: SeatDep,
    notices: NoticesDep,
    body: Annotated[NoticesStop | None, Body()] = None,
) -> NoticesOut:
    target = None
    if body is not None:
        target = body.web_push.endpoint if body.web_push else body.url
    return await _out(notices, await notices.unsubscribe(caller, target))
