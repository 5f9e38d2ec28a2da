"""Every error as `{"error": {"code", "message"}}`, and the request size limit.

Nothing a client sends may produce a 500: validation is a 422 `bad_request`; the
rooms service raises only `PlatformError` (a rule refusal is a 400 with the game's
code, a database outage a 503 `unavailable`), mapped here by its status.
"""

import logging
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.rooms.errors import PlatformError
from app.web.security import security_headers

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024

_STATUS_CODES = {
    400: "bad_request",
    401: "bad_token",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "bad_request",
    429: "rate_limited",
}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _validation_message(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(x) for x in item.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "malformed request"


def install_error_handlers(app: FastAPI) -> None:
    async def platform(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, PlatformError)
        return error_response(exc.status, exc.code, exc.message)

    async def validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, "bad_request", _validation_message(exc))

    async def http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 400:
            # FastAPI's only own 400: a body it could not parse (not UTF-8, not JSON).
            return error_response(422, "bad_request", "the body is not valid JSON")
        code = _STATUS_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        response = error_response(exc.status_code, code, message)
        for key, value in (exc.headers or {}).items():
            response.headers[key] = value
        return response

    async def internal(request: Request, exc: Exception) -> JSONResponse:
        # Only reached if `InternalErrorMiddleware` itself failed: Starlette's outermost
        # middleware answers, outside the headers middleware, so the headers go here.
        log.exception("unhandled error", exc_info=exc)
        response = internal_error()
        for key, value in security_headers(request.url.path):
            response.headers.setdefault(key.decode(), value.decode())
        return response

    app.add_exception_handler(PlatformError, platform)
    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(HTTPException, http)
    app.add_exception_handler(Exception, internal)


def internal_error() -> JSONResponse:
    return error_response(500, "internal_error", "something went wrong on the server")


class InternalErrorMiddleware:
    """An exception no handler took becomes a 500 `internal_error` here, inside the
    security headers middleware (so the answer has the headers), logged once; Starlette's
    own last-resort handler sits outside every middleware and logs it twice."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await internal_error()(scope, receive, send)


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyLimitMiddleware:
    """Refuse request bodies over `limit` bytes with 413 `too_large`: at once when
    Content-Length says so, else as soon as the streamed body passes the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(send)
                return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body: dict[str, Any] = {
            "error": {
                "code": "too_large",
                "message": f"the request body is larger than {self.limit} bytes",
            }
        }
        data = orjson.dumps(body)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": data})
