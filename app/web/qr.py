"""`POST /api/qr`: a link as a QR code (SVG), made here so that no outside service ever
sees a room or resume link (the resume link holds a seat's token: it is sent in the
body, never in a URL that logs would keep).

Its cost is bounded (docs/security.md): a link of at most `MAX_LINK_BYTES` bytes of
UTF-8 (a room or resume link is under 120; the time to draw a code grows with its
bytes: ~10 ms of CPU for a room link, ~35 ms at the cap, ~240 ms for the 2,000 bytes
500 four-byte characters once made), the last `CACHED` codes drawn kept (everyone at
a table asks for the same room link), and a rate per client address (`app.web.limits`).
`python -m bench.qr_cost` prints the figures.
"""

import io
from functools import lru_cache
from typing import Annotated

import segno
from fastapi import APIRouter, Depends, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

from app.web import schemas as S
from app.web.limits import limited

router = APIRouter(tags=["pages"])

MAX_LINK_BYTES = 256
CACHED = 64  # codes of at most MAX_LINK_BYTES: ~10 KB of SVG each


def _short_enough(text: str) -> str:
    if len(text.encode()) > MAX_LINK_BYTES:
        raise ValueError(f"a link of at most {MAX_LINK_BYTES} bytes (UTF-8)")
    return text


Link = Annotated[
    str,
    StringConstraints(
        min_length=1, max_length=MAX_LINK_BYTES, pattern=r"^https?://[^\s\x00-\x1f]+$"
    ),
    AfterValidator(_short_enough),
]


class QrIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: Link


@lru_cache(maxsize=CACHED)
def qr_svg(text: str) -> bytes:
    """The QR code of `text` as an SVG document (the last `CACHED` kept)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=5, border=2, xmldecl=False, title="QR code of the link"
    )
    return out.getvalue()


@router.post(
    "/api/qr",
    response_class=Response,
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "the QR code"},
        422: {"model": S.ErrorOut},
        429: {"model": S.ErrorOut, "description": "too many QR codes from this address"},
    },
    dependencies=[Depends(limited("qr", "QR codes"))],
    summary="A link as a QR code (SVG), for phones to open it",
)
def qr_code(body: QrIn) -> Response:
    return Response(
        qr_svg(body.text), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )
