"""Notices by Apprise URL (issue 29): a `json://` target on loopback receives the same
notices when the setting allows private addresses, is refused when it does not, and the
URL (a seat's secret) appears in no view, log line, metric or error."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import orjson
import pytest

from tests.helpers.server import ServerProcess, free_port
from tests.notices.fakes import FakePushService
from tests.notices.test_web_push import NOTICES, Table, eventually

SECRET = "s3cr3t-hook-7f1c"
BROKEN = "br0ken-hook-94ad"


@pytest.fixture
def hook() -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.close()


def test_an_apprise_url_gets_the_notices_and_stays_secret(
    serve: Callable[..., ServerProcess], hook: FakePushService
) -> None:
    server = serve(**NOTICES, KARANOR_LOG_LEVEL="debug")
    table = Table(server)
    url = f"json://127.0.0.1:{hook.port}/hook/{SECRET}"
    r = table.notices(1, "PUT", url=url)
    assert r.status_code == 200, r.text
    assert [t["kind"] for t in r.json()["targets"]] == ["url"]
    # Ann's URL points at a port where nothing listens: it fails, and Ann is told.
    broken = f"json://127.0.0.1:{free_port()}/hook/{BROKEN}"
    assert table.notices(0, "PUT", url=broken).status_code == 200

    table.add(0)  # Bo's turn
    (first,) = hook.wait_for(f"/hook/{SECRET}", 1, timeout=10.0)
    sent = orjson.loads(first.body)
    assert sent["title"] == "Race to N"
    assert sent["message"] == f"The game waits for you.\n{server.url}/r/{table.code}"
    table.add(1)  # Ann's turn: her URL fails four times, then her seat is told
    failure = eventually(lambda: table.notices(0).json()["targets"][0]["failure"], timeout=20)
    assert failure == "not_delivered"
    table.add(0)  # the game goes on, and Bo's notices with it
    hook.wait_for(f"/hook/{SECRET}", 2, timeout=10.0)

    seen = [
        r.text
        for r in (
            table.notices(0),
            table.notices(1),
            table.http.get(
                f"/api/rooms/{table.code}/view",
                headers={"Authorization": f"Bearer {table.tokens[0]}"},
            ),
            table.http.get(
                f"/api/rooms/{table.code}/view",
                headers={"Authorization": f"Bearer {table.tokens[1]}"},
            ),
            table.http.get(f"/api/rooms/{table.code}"),
            table.http.get("/metrics"),
            table.notices(1, "PUT", url=url + "x" * 3000),  # an error about the URL
        )
    ]
    seen.append(server.log_text())
    assert 'karanor_notices_total{kind="url",outcome="sent"}' in seen[5]
    for text in seen:
        assert SECRET not in text and BROKEN not in text


def test_a_private_address_is_refused_unless_the_setting_allows_it(
    serve: Callable[..., ServerProcess], hook: FakePushService
) -> None:
    server = serve(KARANOR_GAMES="tests.games.toy:GAME", KARANOR_NOTICE_KINDS="web_push,json")
    table = Table(server)
    for host in ("127.0.0.1", "localhost", "[::1]"):  # the name is resolved, not read
        url = f"json://{host}:{hook.port}/hook/{SECRET}"
        r = table.notices(1, "PUT", url=url)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "notice_address_not_allowed"
        assert SECRET not in r.text
    r = table.notices(1, "PUT", url=f"form://127.0.0.1:{hook.port}/hook/{SECRET}")
    assert r.json()["error"]["code"] == "notice_kind_not_allowed"  # only web_push and json
    r = table.notices(
        1, "PUT", web_push={"endpoint": hook.url("/push"), "keys": {"p256dh": "x", "auth": "y"}}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] in (
        "notice_url_invalid",
        "notice_address_not_allowed",
    )
    assert table.notices(1).json()["targets"] == []
    table.add(0)
    assert SECRET not in server.log_text()
