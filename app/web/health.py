"""Operations routes: liveness, readiness, the server's own addresses, Prometheus metrics.

- `GET /healthz`: the process answers (liveness: restart it when this fails).
- `GET /readyz`: the database answers and its schema is at the revision this version of
  the program needs (readiness: send it traffic only when this succeeds).
- `GET /api/server`: version, and the addresses friends on the same network can open.
- `GET /metrics`: the Prometheus figures of this process (`app.metrics`).

`/readyz` (a query) and `/metrics` answer 429 `rate_limited` past `ops_per_minute` from
one address (`app.web.limits`), far above any probe's or scraper's pace.
"""

import logging
from typing import Any

from fastapi import APIRouter, Depends, Response
from fastapi.responses import JSONResponse

from app import __version__, metrics
from app.netinfo import listen_urls
from app.web.deps import ServiceDep, SettingsDep
from app.web.limits import limited
from app.web.schemas import ErrorOut

router = APIRouter(tags=["operations"])
_OPS_LIMIT = [Depends(limited("ops", "probes"))]
_TOO_MANY: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorOut, "description": "too many from this address"}
}
log = logging.getLogger(__name__)


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """Liveness: 200 while the process serves requests."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    responses={
        503: {"description": "database unreachable or schema not at this version's"},
        **_TOO_MANY,
    },
    dependencies=_OPS_LIMIT,
)
async def readyz(service: ServiceDep) -> JSONResponse:
    """Readiness: the database answers and its schema is at head."""
    found = await service.readiness()
    ready = found.pop("ready")
    return JSONResponse({"status": "ok" if ready else "error", **found}, 200 if ready else 503)


@router.get("/api/server")
def server_info(settings: SettingsDep) -> dict[str, Any]:
    """This server's version, and the addresses (and base URLs) friends on the same network
    can open: every LAN address when it listens on all interfaces."""
    urls = listen_urls(settings.host, settings.port)
    lan = urls[1:] if len(urls) > 1 else ([] if _loopback(settings.host) else urls)
    addresses = [url.split("//", 1)[1].rsplit(":", 1)[0].strip("[]") for url in lan]
    return {"version": __version__, "addresses": addresses, "urls": lan}


def _loopback(host: str) -> bool:
    return host in ("127.0.0.1", "::1", "localhost") or host.startswith("127.")


@router.get("/metrics", response_class=Response, responses=_TOO_MANY, dependencies=_OPS_LIMIT)
def prometheus_metrics() -> Response:
    """This process's figures in Prometheus's text format (see app/metrics.py)."""
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)
