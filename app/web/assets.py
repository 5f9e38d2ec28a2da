"""The static files as they travel (issue 31): named by their content, cached for a year,
compressed once.

At start-up every file under static/ is read once. Each gets a hashed name beside its
own (`js/main.js` -> `js/main.3f2a9c1b0d.js`): the hash covers the file and every file
it names, however far (its ES module imports, relative, and the `/static/...` paths
written in it), so a change anywhere below a module renames the module too. A file's
references are rewritten to the hashed names of what they name, so a page that loads
`main.<hash>.js` loads only hashed files after it: all of them immutable, cached a year
(`Cache-Control: public, max-age=31536000, immutable`) and never asked for again.

The plain names are served as well, revalidated at every use (`no-cache` with an
`ETag`): the service worker's list (static/sw.js), the offline page, the manifest's
icons, any old page still open. A module's plain name answers
`export * from "./name.<hash>.js"`: whoever imports it by its plain name shares the
instance (and the state) of the module the page runs.

Why rewritten at start-up rather than an import map or a bundle: the pages' CSP is
`script-src 'self'` with no inline script (an import map is inline); a bundle would need
a build step with a JavaScript tool the server does not otherwise need. The module graph
is made flat instead by `<link rel="modulepreload">` of every module a page's entry
imports (`preloads`): the browser asks for them all at once instead of level by level.

Text files are gzipped once (level 9) and sent compressed to clients that accept it.
Pages name the hashed files through the templates' `asset()`; scripts find the hashed
name of what they import by a computed path (a game's module, its style sheets, the
icons) in the page's `data-assets` (`dynamic_map`).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import posixpath
import re
from dataclasses import dataclass, replace
from email.utils import formatdate
from functools import cache
from pathlib import Path

import orjson
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

from app.paths import static_dir

PREFIX = "/static/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSIBLE = {".js", ".css", ".svg", ".json", ".html", ".txt", ".webmanifest", ".map"}
# `from "./x.js"`, `import "./x.js"`, `export ... from "../x.js"`: a relative module.
_IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*)(["'])(\.{1,2}/[^"'\s]+)\2""")
# A literal site path of a static file inside a script or style sheet.
_STATIC_PATH = re.compile(r"/static/([A-Za-z0-9_./-]+\.[a-z0-9]+)")
_HASH_LEN = 10
# The room page's modules imported at their first use (static/js/main.js `later`).
LATER = frozenset({"js/lobby.js", "js/replay.js", "js/coach.js", "js/notices.js", "js/story.js"})


@dataclass(frozen=True)
class Asset:
    path: str  # relative to static/, e.g. "js/main.js"
    hashed: str  # e.g. "js/main.3f2a9c1b0d.js"
    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str
    modified: str


def hashed_name(path: str, digest: str) -> str:
    stem, dot, ext = path.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot and "/" not in ext else f"{path}.{digest}"


class Assets:
    """Every static file, read once, under its own and its hashed name."""

    def __init__(self, root: Path) -> None:
        self.root = root
        raw: dict[str, bytes] = {}
        for file in sorted(root.rglob("*")):
            if file.is_file():
                raw[file.relative_to(root).as_posix()] = file.read_bytes()
        deps = {path: self._references(path, body, raw) for path, body in raw.items()}
        own = {path: hashlib.sha256(body).hexdigest() for path, body in raw.items()}
        names: dict[str, str] = {}
        digests: dict[str, str] = {}
        for path in raw:
            closure = self._closure(path, deps)
            digest = hashlib.sha256(
                "\n".join([own[path], *sorted(own[p] for p in closure)]).encode()
            ).hexdigest()[:_HASH_LEN]
            digests[path] = digest
            names[path] = hashed_name(path, digest)
        self.names = names
        self.by_path: dict[str, Asset] = {}
        self.by_hashed: dict[str, Asset] = {}
        modified = formatdate(usegmt=True)
        for path, body in raw.items():
            text_body = self._rewrite(path, body, names)
            ext = posixpath.splitext(path)[1]
            media = mimetypes.guess_type(path)[0] or "application/octet-stream"
            if media.startswith("text/") or media in ("application/javascript", "image/svg+xml"):
                media += "; charset=utf-8"
            packed = gzip.compress(text_body, 9, mtime=0) if ext in COMPRESSIBLE else None
            if packed is not None and len(packed) >= len(text_body):
                packed = None
            asset = Asset(
                path=path,
                hashed=names[path],
                body=text_body,
                gzipped=packed,
                media_type=media,
                etag=f'"{digests[path]}"',
                modified=modified,
            )
            self.by_hashed[names[path]] = asset
            if ext == ".js":
                # The plain name of a module re-exports the hashed one: a script that
                # imports `/static/js/i18n.js` gets the very module the page runs
                # (one instance, one state), never a second copy of it.
                shim = f'export * from "./{posixpath.basename(names[path])}";\n'.encode()
                asset = replace(asset, body=shim, gzipped=None)
            self.by_path[path] = asset
        self._deps = deps

    # --- the graph ----------------------------------------------------------------------

    @staticmethod
    def _references(path: str, body: bytes, raw: dict[str, bytes]) -> list[str]:
        """The static files `path` names: its relative imports and /static/ paths."""
        if not path.endswith((".js", ".css")):
            return []
        text = body.decode("utf-8", errors="replace")
        out: list[str] = []
        if path.endswith(".js"):
            base = posixpath.dirname(path)
            for match in _IMPORT.finditer(text):
                target = posixpath.normpath(posixpath.join(base, match.group(3)))
                if target in raw:
                    out.append(target)
        for match in _STATIC_PATH.finditer(text):
            if match.group(1) in raw:
                out.append(match.group(1))
        return out

    @staticmethod
    def _closure(path: str, deps: dict[str, list[str]]) -> set[str]:
        seen: set[str] = set()
        todo = list(deps.get(path, ()))
        while todo:
            p = todo.pop()
            if p in seen or p == path:
                continue
            seen.add(p)
            todo.extend(deps.get(p, ()))
        return seen

    @staticmethod
    def _rewrite(path: str, body: bytes, names: dict[str, str]) -> bytes:
        if not path.endswith((".js", ".css")):
            return body
        text = body.decode("utf-8")
        base = posixpath.dirname(path)

        def module(match: re.Match[str]) -> str:
            spec = match.group(3)
            target = posixpath.normpath(posixpath.join(base, spec))
            if target not in names:
                return match.group(0)
            new = posixpath.join(posixpath.dirname(spec), posixpath.basename(names[target]))
            if not new.startswith("."):
                new = "./" + new
            return f"{match.group(1)}{match.group(2)}{new}{match.group(2)}"

        def site(match: re.Match[str]) -> str:
            target = match.group(1)
            return PREFIX + names[target] if target in names else match.group(0)

        if path.endswith(".js"):
            text = _IMPORT.sub(module, text)
        text = _STATIC_PATH.sub(site, text)
        return text.encode("utf-8")

    # --- what pages use -----------------------------------------------------------------

    def url(self, path: str) -> str:
        """The hashed URL of a static file (its plain URL if there is no such file)."""
        path = path.removeprefix(PREFIX).lstrip("/")
        return PREFIX + self.names.get(path, path)

    def preloads(self, entry: str) -> list[str]:
        """The hashed URLs of every module `entry` imports, however far (not itself)."""
        entry = entry.removeprefix(PREFIX).lstrip("/")
        found = self._closure(entry, self._deps)
        return sorted(PREFIX + self.names[p] for p in found if p.endswith(".js"))

    def dynamic_map(self) -> str:
        """JSON {plain URL: hashed URL} of what scripts load by a computed path: each
        game's page, help, lobby and end-screen modules (`endgame.js`, which a game may
        load at its first end screen) and its style sheets, and the platform's modules
        the room page loads at their first use (`LATER`)."""
        wanted = {
            p: PREFIX + h
            for p, h in self.names.items()
            if (
                p.startswith("js/games/")
                and p.endswith(("/index.js", "/help.js", "/lobby.js", "/endgame.js", ".css"))
            )
            or p in LATER
        }
        return orjson.dumps({PREFIX + p: h for p, h in sorted(wanted.items())}).decode()

    # --- serving ------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI app mounted at /static."""
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        path = path.lstrip("/")
        if scope.get("method") not in ("GET", "HEAD"):
            response: Response = PlainTextResponse("Method Not Allowed", status_code=405)
        else:
            response = self.response(path, Headers(scope=scope))
        await response(scope, receive, send)

    def response(self, path: str, headers: Headers) -> Response:
        asset = self.by_hashed.get(path)
        immutable = asset is not None
        if asset is None:
            asset = self.by_path.get(path)
        if asset is None:
            return PlainTextResponse("Not Found", status_code=404)
        # Under its hashed name a file never changes: nothing to revalidate it with.
        out = (
            {"Cache-Control": IMMUTABLE}
            if immutable
            else {"Cache-Control": REVALIDATE, "ETag": asset.etag, "Last-Modified": asset.modified}
        )
        if asset.gzipped is not None:
            out["Vary"] = "Accept-Encoding"
        if not immutable and asset.etag in _etags(headers.get("if-none-match", "")):
            return Response(status_code=304, headers=out)
        body = asset.body
        if asset.gzipped is not None and "gzip" in headers.get("accept-encoding", ""):
            body = asset.gzipped
            out["Content-Encoding"] = "gzip"
        return Response(body, media_type=asset.media_type, headers=out)


def _etags(value: str) -> set[str]:
    return {v.strip().removeprefix("W/") for v in value.split(",") if v.strip()}


@cache
def assets() -> Assets:
    """The process's static files, read at the first use (the app's creation)."""
    return Assets(static_dir())
