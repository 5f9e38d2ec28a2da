"""Static files named by their content (app/web/assets.py, issue 31): a change below a
module renames it, its imports name the hashed files, the hashed name is cached a year
and the plain one revalidated, text goes gzipped to clients that take it."""

from __future__ import annotations

import gzip
from pathlib import Path

from starlette.datastructures import Headers

from app.web.assets import IMMUTABLE, Assets


def tree(root: Path, files: dict[str, str]) -> Assets:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return Assets(root)


FILES = {
    "js/main.js": 'import { a } from "./a.js";\nimport "./games/x/index.js";\nconsole.log(a);\n',
    "js/a.js": 'import { b } from "./b.js";\nexport const a = b + "/static/icons.svg#x";\n',
    "js/b.js": "export const b = 'b';\n" + "// padding\n" * 200,
    "js/games/x/index.js": 'import { a } from "../../a.js";\nexport const styles = ["x.css"];\n',
    "js/games/x/x.css": ".x { color: red; }\n",
    "icons.svg": "<svg></svg>",
}


def test_a_change_below_a_module_renames_it_and_its_importers(tmp_path: Path) -> None:
    before = tree(tmp_path / "one", FILES)
    after = tree(tmp_path / "two", {**FILES, "js/b.js": "export const b = 'B';\n"})
    for path in ("js/main.js", "js/a.js", "js/b.js", "js/games/x/index.js"):
        assert before.url(path) != after.url(path), path
    # Files that name nothing that changed keep their names.
    for path in ("icons.svg", "js/games/x/x.css"):
        assert before.url(path) == after.url(path), path


def test_imports_and_site_paths_name_the_hashed_files(tmp_path: Path) -> None:
    assets = tree(tmp_path, FILES)
    main = assets.by_hashed[assets.names["js/main.js"]].body.decode()
    assert f'from "./{Path(assets.names["js/a.js"]).name}"' in main
    assert f'import "./games/x/{Path(assets.names["js/games/x/index.js"]).name}"' in main
    index = assets.by_hashed[assets.names["js/games/x/index.js"]].body.decode()
    assert f'from "../../{Path(assets.names["js/a.js"]).name}"' in index
    a = assets.by_hashed[assets.names["js/a.js"]].body.decode()
    assert assets.url("icons.svg") + "#x" in a
    # Every module the entry imports, however far, is preloaded.
    assert assets.preloads("js/main.js") == sorted(
        assets.url(p) for p in ("js/a.js", "js/b.js", "js/games/x/index.js")
    )
    # What scripts load by a computed path: a game's module and style sheet.
    mapping = assets.dynamic_map()
    assert (
        assets.url("js/games/x/index.js") in mapping and assets.url("js/games/x/x.css") in mapping
    )


def test_hashed_is_immutable_plain_revalidates_and_shares_the_module(tmp_path: Path) -> None:
    assets = tree(tmp_path, FILES)
    hashed = assets.names["js/b.js"]
    r = assets.response(hashed, Headers({"accept-encoding": "gzip, br"}))
    assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE
    assert r.headers["content-encoding"] == "gzip"
    assert gzip.decompress(r.body).decode() == FILES["js/b.js"]
    plain = assets.response("js/b.js", Headers({}))
    assert plain.headers["cache-control"] == "no-cache" and "content-encoding" not in plain.headers
    # The plain name re-exports the hashed module: one instance whichever name is used.
    assert plain.body.decode() == f'export * from "./{Path(hashed).name}";\n'
    again = assets.response("js/b.js", Headers({"if-none-match": plain.headers["etag"]}))
    assert again.status_code == 304
    assert assets.response("js/none.js", Headers({})).status_code == 404
    assert assets.response("../secret", Headers({})).status_code == 404


def test_hashed_scripts_carry_nosniff_only_documents_the_whole_policy() -> None:
    from app.web.security import security_headers

    hashed = dict(security_headers("/static/js/main.0123456789.js"))
    assert hashed == {b"x-content-type-options": b"nosniff"}
    for path in ("/static/js/main.js", "/r/CODE", "/static/icons.0123456789.svg"):
        assert b"content-security-policy" in dict(security_headers(path)), path


def test_a_room_page_names_its_game_s_modules_styles_and_content(
    migrated_database_url: str,
) -> None:
    """The room page of an existing room preloads what its game's board needs (the
    game's module and all it imports, its style sheets, its content in the page's
    language at its version, the room and the game list), so none of it waits for the
    scripts to find it; a page of
    a room that does not exist names nothing of any game."""
    import re

    from fastapi.testclient import TestClient

    from app.config import Settings
    from app.main import create_app
    from app.web.assets import assets
    from app.web.games import content_version

    found = assets()
    app = create_app(Settings(database_url=migrated_database_url))
    with TestClient(app) as client:
        for game in ("karanor", "darkroad"):
            code = client.post("/api/rooms", json={"name": "Ana", "game": game}).json()["code"]
            for path in (f"/r/{code}", f"/r/{code}/replay"):
                page = client.get(path, headers={"Accept-Language": "fr"}).text
                modules = set(re.findall(r'<link rel="modulepreload" href="([^"]+)"', page))
                entry = f"js/games/{game}/index.js"
                assert {found.url(entry), *found.preloads(entry)} <= modules, path
                assert found.url(f"js/games/{game}/{game}.css") in re.findall(
                    r'<link rel="preload" as="style" href="([^"]+)"', page
                )
                content = re.findall(
                    r'<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)"', page
                )
                version = content_version(game, "fr")
                assert content == [
                    f"/api/games/{game}/content?lang=fr&amp;v={version}",
                    f"/api/rooms/{code}",
                    "/api/games",
                ], content
                # The other game's code is not preloaded.
                other = "darkroad" if game == "karanor" else "karanor"
                assert not any(f"/js/games/{other}/" in m for m in modules)
        nowhere = client.get("/r/nosuchroom0000").text
        assert 'rel="modulepreload" href="/static/js/games/' not in nowhere
        assert 'as="fetch"' not in nowhere
