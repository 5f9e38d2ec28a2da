"""`POST /api/qr`: a link as a QR code (SVG), made here so that no outside service ever
sees a room or resume link (the resume link holds a seat's token: it is sent in the
body, never in a URL that logs would keep)."""

import io
from typing import Annotated

import segno
from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, StringConstraints

from app.web import schemas as S

router = APIRouter(tags=["pages"])

Link = Annotated[
    str, StringConstraints(min_length=1, max_length=500, pattern=r"^https?://[^\s\x00-\x1f]+$")
]


class QrIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: Link


@router.post(
    "/api/qr",
    response_class=Response,
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "the QR code"},
        422: {"model": S.ErrorOut},
    },
    summary="A link as a QR code (SVG), for phones to open it",
)
def qr_code(body: QrIn) -> Response:
    out = io.BytesIO()
    segno.make(body.text, error="m").save(
        out, kind="svg", scale=5, border=2, xmldecl=False, title="QR code of the link"
    )
    return Response(
        out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )
