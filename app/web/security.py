"""Response headers every answer carries, and who the client is (address, https).

See docs/security.md for the threat model these serve.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import orjson
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
# FastAPI's /docs and /redoc load their scripts from a CDN and start them inline; they show
# no user data, so they get a looser policy of their own (still no framing, no base).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; worker-src 'self' blob:; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
DOCS_PATHS = ("/docs", "/redoc")

# Every answer but a hashed subresource; a page's adds the policies about documents.
_ANY = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_COMMON = [
    *_ANY,
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


# A static script, style sheet or image under its hashed name (app/web/assets.py): never
# a document, so the policies about documents (CSP, framing, referrer, opener,
# permissions) do nothing on it; nosniff stays. ~500 bytes less on each of the ~40
# files of a first visit.
_HASHED_SUBRESOURCE = re.compile(r"^/static/[A-Za-z0-9_./-]+\.[0-9a-f]{10}\.(js|css|png)$")
_SUBRESOURCE = [(b"x-content-type-options", b"nosniff")]


# The API's answers (JSON, the QR code's SVG) are data, never a page's document: a policy
# that allows nothing (what an API answer opened by itself in a tab may do) and no
# framing; the page-only policies (opener, permissions) do nothing on them. ~280 bytes
# less on each of a first visit's API answers (issue 31's 150 KB).
API_CSP = "default-src 'none'; frame-ancestors 'none'"
_API = [*_ANY, (b"content-security-policy", API_CSP.encode())]


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer on `path` carries."""
    if _HASHED_SUBRESOURCE.match(path):
        return _SUBRESOURCE
    if path.startswith("/api/"):
        return _API
    csp = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP
    return [*_COMMON, (b"content-security-policy", csp.encode())]


class SecurityHeadersMiddleware:
    """Adds CSP, nosniff, Referrer-Policy and X-Frame-Options to every HTTP answer
    (unless the route set its own value)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {key.lower() for key, _ in headers}
                headers.extend((k, v) for k, v in extra if k not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Sec-Fetch-Site values of a request made by a page of another origin.
_FOREIGN_FETCH = frozenset({"cross-site", "same-site"})


def origin_allowed(headers: Headers, allowed: list[str]) -> bool:
    """A browser's request comes from our own origin (its `Origin` names the host it
    was sent to) or one of `allowed`. Without `Origin`, `Sec-Fetch-Site` decides when a
    browser sent it; a request with neither is not a browser's (it holds a token, not a
    cookie) and passes."""
    origin = headers.get("origin")
    if origin is None:
        return headers.get("sec-fetch-site", "same-origin").lower() not in _FOREIGN_FETCH
    origin = origin.strip().rstrip("/")
    if origin.lower() in {o.strip().rstrip("/").lower() for o in allowed}:
        return True
    host = headers.get("host", "").strip().lower()
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        return False
    return bool(host) and netloc == host


class OriginCheckMiddleware:
    """CSRF defence: a state-changing request (POST, PUT, PATCH, DELETE) that a browser
    sent from a page of another origin is refused with 403 `forbidden_origin` before any
    route runs. The seat cookie is SameSite=Lax, which a page on another port of the
    same host (same site) does not stop."""

    def __init__(self, app: ASGIApp, allowed_origins: list[str] | None = None) -> None:
        self.app = app
        self.allowed = list(allowed_origins or [])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method", "GET").upper() not in STATE_CHANGING
            or origin_allowed(Headers(scope=scope), self.allowed)
        ):
            await self.app(scope, receive, send)
            return
        body = orjson.dumps(
            {
                "error": {
                    "code": "forbidden_origin",
                    "message": "this request came from a page of another origin",
                }
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def client_address(scope: Scope) -> str:
    """The client's address (uvicorn already applied trusted proxy headers to it)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def is_https(scope: Scope, settings: Settings) -> bool:
    """Served over https: directly, or behind a proxy we trust that says so."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    if settings.trust_proxy:
        proto = Headers(scope=scope).get("x-forwarded-proto", "")
        return proto.split(",")[0].strip().lower() == "https"
    return False
