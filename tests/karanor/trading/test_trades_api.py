"""Trading Between Players over the API: a real server process, HTTP and WebSocket,
on SQLite and on PostgreSQL (see conftest.py).

Rulebook, Trading Between Players: anything but cards and prestige may change hands,
at any time, even off-turn; never while an action or card is being resolved, and
never once the end of the game was triggered (R22, R28, R29 in docs/rulings.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.helpers.server import ServerProcess
from tests.karanor.trading.table import Socket, Table, auth, new_id

pytestmark = pytest.mark.slow


@pytest.fixture
def table(shared_server: ServerProcess) -> Iterator[Table]:
    t = Table.open(shared_server)
    yield t
    t.close()


def test_no_trade_during_the_draft(shared_server: ServerProcess) -> None:
    """R27: "Trading opens after the draft" (trades are refused with trading_closed)."""
    t = Table.open(shared_server, draft=False)
    try:
        offer = {"type": "offer", "to": None, "give": {"gold": 1}, "want": {}}
        t.refused(0, offer, "trading_closed")
    finally:
        t.close()


def test_offer_and_accept_move_goods_in_both_views(table: Table) -> None:
    """Trading Between Players: "exchange, sell and buy anything"; one step moves both sides."""
    buyer, seller, res = table.trader_pair()
    third = ({0, 1, 2} - {buyer, seller}).pop()
    before = {s: table.holdings(s) for s in (buyer, seller)}
    oid = table.offer(
        buyer, {"gold": 2}, {"resources": {res: 1}}, [seller], note="<b>2 gold</b> for it"
    )

    mine, theirs, other = (table.offer_in(s, oid) for s in (buyer, seller, third))
    assert mine["status"] == theirs["status"] == other["status"] == "open"
    assert mine["from"] == buyer and mine["to"] == [seller]
    assert mine["note"] == "<b>2 gold</b> for it"
    assert mine["give"]["gold"] == 2 and mine["want"]["resources"] == {res: 1}
    assert "can_accept" not in mine  # nobody accepts their own offer
    assert theirs["can_accept"] is True
    assert other["can_accept"] is False  # not addressed to the third seat
    spectator = table.offer_in(None, oid)
    assert "can_accept" not in spectator
    # What the buyer may still offer is what it holds (the offer reserves nothing).
    assert table.view(buyer)["private"]["tradeable"]["gold"] == before[buyer]["gold"]

    events = table.ok(seller, {"type": "accept", "offer": oid})["events"]
    trade = next(e for e in events if e["type"] == "trade")
    assert (trade["seat"], trade["from"], trade["offer"]) == (seller, buyer, oid)
    for viewer in (buyer, seller, third):
        assert table.holdings(buyer, viewer)["gold"] == before[buyer]["gold"] - 2
        assert table.holdings(buyer, viewer)[res] == before[buyer][res] + 1
        assert table.holdings(seller, viewer)["gold"] == before[seller]["gold"] + 2
        assert table.holdings(seller, viewer)[res] == before[seller][res] - 1
        done = table.offer_in(viewer, oid)
        assert done["status"] == "accepted" and done["accepted_by"] == seller
        assert "can_accept" not in done
    table.refused(seller, {"type": "accept", "offer": oid}, "offer_closed")


def test_decline_withdraw_and_counter_over_http(table: Table) -> None:
    """Offers are declined by their addressees, withdrawn by their authors, and countered:
    a counter goes back to the author with its own give and want, and declines the original."""
    buyer, seller, res = table.trader_pair()
    before = {s: table.holdings(s) for s in (buyer, seller)}

    oid = table.offer(buyer, {"gold": 1}, {"resources": {res: 1}}, [seller])
    table.ok(seller, {"type": "decline", "offer": oid})
    declined = table.offer_in(buyer, oid)
    assert declined["status"] == "declined" and declined["declined_by"] == [seller]
    table.refused(seller, {"type": "decline", "offer": oid}, "offer_closed")
    table.refused(seller, {"type": "accept", "offer": oid}, "offer_closed")

    oid = table.offer(buyer, {"gold": 1}, {"resources": {res: 1}}, [seller])
    table.refused(seller, {"type": "withdraw", "offer": oid}, "not_your_offer")
    table.ok(buyer, {"type": "withdraw", "offer": oid})
    assert table.offer_in(seller, oid)["status"] == "withdrawn"
    table.refused(buyer, {"type": "withdraw", "offer": oid}, "offer_closed")
    table.refused(seller, {"type": "accept", "offer": oid}, "offer_closed")

    oid = table.offer(buyer, {"gold": 1}, {"resources": {res: 1}}, [seller])
    counter = {"type": "counter", "offer": oid, "give": {"resources": {res: 1}}}
    answer = table.ok(seller, {**counter, "want": {"gold": 2}, "note": "two, not one"})
    cid = table.made(answer, seller)
    original, answer = table.offer_in(buyer, oid), table.offer_in(buyer, cid)
    assert original["status"] == "declined"
    assert answer["from"] == seller and answer["to"] == [buyer] and answer["counter_of"] == oid
    assert answer["note"] == "two, not one" and answer["can_accept"] is True
    table.refused(seller, {"type": "accept", "offer": cid}, "not_addressed")
    table.ok(buyer, {"type": "accept", "offer": cid})
    for viewer in (buyer, seller):
        assert table.holdings(buyer, viewer)["gold"] == before[buyer]["gold"] - 2
        assert table.holdings(seller, viewer)[res] == before[seller][res] - 1
        assert table.holdings(buyer, viewer)[res] == before[buyer][res] + 1


def test_refusals_name_the_rule(table: Table) -> None:
    """Every refused trade names its rule; nothing changes (R29: never cards nor prestige;
    an offer gives or asks something; only what one holds)."""
    buyer, seller, res = table.trader_pair()
    third = ({0, 1, 2} - {buyer, seller}).pop()
    gold = table.holdings(buyer)["gold"]
    offer = {"type": "offer", "to": [seller], "want": {}}
    table.refused(buyer, {**offer, "give": {"gold": gold + 1}}, "cannot_afford")
    table.refused(buyer, {**offer, "give": {"artifacts": ["art_never_held"]}}, "bad_bundle")
    table.refused(buyer, {**offer, "give": {"prestige": 1}}, "bad_bundle")
    table.refused(buyer, {**offer, "give": {"resources": {"gems": 1}}}, "bad_bundle")
    table.refused(buyer, {**offer, "give": {"gold": -1}}, "bad_bundle")
    table.refused(buyer, {**offer, "give": {}, "want": {"cards": ["x"]}}, "bad_bundle")
    table.refused(buyer, {**offer, "give": {}}, "empty_offer")
    table.refused(buyer, {**offer, "give": {"gold": 0, "resources": {res: 0}}}, "empty_offer")
    table.refused(buyer, {**offer, "to": [buyer], "give": {"gold": 1}}, "bad_target")
    table.refused(buyer, {**offer, "to": [7], "give": {"gold": 1}}, "bad_target")
    for verb in ("accept", "decline", "withdraw"):
        table.refused(buyer, {"type": verb, "offer": 999}, "unknown_offer")
    table.refused(
        buyer, {"type": "counter", "offer": 999, "give": {}, "want": {"gold": 1}}, "unknown_offer"
    )

    # More wanted than the acceptor holds; an offer to someone else.
    held = table.holdings(seller)[res]
    oid = table.offer(buyer, {"gold": 1}, {"resources": {res: held + 1}}, [seller])
    assert table.offer_in(seller, oid)["can_accept"] is False
    table.refused(seller, {"type": "accept", "offer": oid}, "cannot_afford")
    table.refused(third, {"type": "accept", "offer": oid}, "not_addressed")
    table.refused(third, {"type": "decline", "offer": oid}, "not_addressed")
    table.refused(
        third, {"type": "counter", "offer": oid, "give": {}, "want": {"gold": 1}}, "not_addressed"
    )
    table.refused(buyer, {"type": "accept", "offer": oid}, "not_addressed")
    assert table.offer_in(buyer, oid)["status"] == "open"

    # HTTP-level answers for what is not a command at all.
    r = table.http.post(
        f"/api/rooms/{table.code}/commands",
        json={"id": new_id(), "command": {"type": "offer", "give": "all", "want": {}}},
        headers=auth(table.tokens[buyer]),
    )
    assert 400 <= r.status_code < 500 and r.json()["error"]["code"], r.text
    r = httpx.post(
        f"{table.server.url}/api/rooms/{table.code}/commands",
        json={"id": new_id(), "command": {"type": "accept", "offer": 1}},
    )
    assert r.status_code == 401, r.text


def test_promising_the_same_goods_twice_makes_the_second_unavailable(table: Table) -> None:
    """An offer whose author no longer holds what it gives shows "unavailable" and cannot be
    accepted; it opens again when the goods come back (trades.refresh)."""
    buyer, seller, _ = table.trader_pair()
    third = ({0, 1, 2} - {buyer, seller}).pop()
    gold = table.holdings(buyer)["gold"]
    first = table.offer(buyer, {"gold": gold}, {}, [seller], note="all my gold")
    second = table.offer(buyer, {"gold": gold}, {}, [third], note="all my gold, again")
    table.ok(seller, {"type": "accept", "offer": first})
    gone = table.offer_in(third, second)
    assert gone["status"] == "unavailable" and gone["can_accept"] is False
    table.refused(third, {"type": "accept", "offer": second}, "offer_unavailable")
    # Withdrawing an unavailable offer is allowed; accepting it afterwards is not.
    table.ok(buyer, {"type": "withdraw", "offer": second})
    table.refused(third, {"type": "accept", "offer": second}, "offer_closed")
    # Gold given back: a new offer of the same bundle is possible again.
    table.ok(seller, {"type": "offer", "to": [buyer], "give": {"gold": gold}, "want": {}})
    back = [o for o in table.view(buyer)["offers"] if o["from"] == seller]
    table.ok(buyer, {"type": "accept", "offer": back[-1]["id"]})
    assert table.holdings(buyer)["gold"] == gold


def test_open_offer_two_accepts_at_once_one_wins(table: Table) -> None:
    """An offer to anyone: "the first acceptance wins"; the other acceptor gets offer_closed,
    and the goods move once."""
    author = 0
    gold = table.holdings(author)["gold"]
    assert gold >= 1
    oid = table.offer(author, {"gold": 1}, {}, None, note="first come, first served")
    for seat in (1, 2):
        assert table.offer_in(seat, oid)["can_accept"] is True
    before = {s: table.holdings(s)["gold"] for s in (0, 1, 2)}

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=table.server.url, timeout=20) as http:
            calls = [
                http.post(
                    f"/api/rooms/{table.code}/commands",
                    json={"id": new_id(), "command": {"type": "accept", "offer": oid}},
                    headers=auth(table.tokens[seat]),
                )
                for seat in (1, 2)
            ]
            return list(await asyncio.gather(*calls))

    answers = asyncio.run(race())
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 400], [r.text for r in answers]
    loser = next(r for r in answers if r.status_code == 400)
    assert loser.json()["error"]["code"] == "offer_closed"
    winner = 1 if answers[0].status_code == 200 else 2
    done = table.offer_in(0, oid)
    assert done["status"] == "accepted" and done["accepted_by"] == winner
    after = {s: table.holdings(s)["gold"] for s in (0, 1, 2)}
    assert after[0] == before[0] - 1 and after[winner] == before[winner] + 1
    assert after[3 - winner] == before[3 - winner]


def test_trading_over_websockets(table: Table) -> None:
    """The same commands over the socket: acks, coded errors, and each seat's pushed view
    following the goods."""
    buyer, seller, res = table.trader_pair()
    third = ({0, 1, 2} - {buyer, seller}).pop()
    before = {s: table.holdings(s) for s in (buyer, seller)}

    async def play() -> None:
        b, s, c = [await Socket.connect(table.ws_url(seat)) for seat in (buyer, seller, third)]
        try:
            # Refusals arrive as errors paired with the command id; nothing changes.
            for sock, cmd, code in [
                (
                    b,
                    {"type": "offer", "to": [seller], "give": {"gold": 999}, "want": {}},
                    "cannot_afford",
                ),
                (b, {"type": "offer", "to": [seller], "give": {}, "want": {}}, "empty_offer"),
                (
                    b,
                    {"type": "offer", "to": [buyer], "give": {"gold": 1}, "want": {}},
                    "bad_target",
                ),
                (
                    b,
                    {"type": "offer", "to": None, "give": {"prestige": 1}, "want": {}},
                    "bad_bundle",
                ),
                (b, {"type": "accept", "offer": 999}, "unknown_offer"),
            ]:
                answer = await sock.command(cmd)
                assert answer["type"] == "error" and answer["code"] == code, (cmd, answer)
                assert answer["message"]

            # Offer, then decline.
            ack = await b.command(
                {
                    "type": "offer",
                    "to": [seller],
                    "give": {"gold": 1},
                    "want": {"resources": {res: 1}},
                }
            )
            assert ack["type"] == "ack", ack
            view = await s.at_version(ack["version"])
            oid = view["offers"][-1]["id"]
            assert view["offers"][-1]["can_accept"] is True
            assert (await s.command({"type": "decline", "offer": oid}))["type"] == "ack"
            again = await s.command({"type": "decline", "offer": oid})
            assert again["code"] == "offer_closed"
            wrong = await c.command({"type": "accept", "offer": oid})
            assert wrong["code"] == "not_addressed"

            # Offer, then withdraw (only by its author).
            ack = await b.command(
                {"type": "offer", "to": None, "give": {"gold": 1}, "want": {"resources": {res: 1}}}
            )
            view = await b.at_version(ack["version"])
            oid = view["offers"][-1]["id"]
            assert (await s.command({"type": "withdraw", "offer": oid}))["code"] == "not_your_offer"
            assert (await b.command({"type": "withdraw", "offer": oid}))["type"] == "ack"
            view = await c.at_version(ack["version"] + 1)
            assert next(o for o in view["offers"] if o["id"] == oid)["status"] == "withdrawn"

            # Offer, counter, accept the counter: both sockets see the goods move.
            ack = await b.command(
                {
                    "type": "offer",
                    "to": [seller],
                    "give": {"gold": 1},
                    "want": {"resources": {res: 1}},
                }
            )
            oid = (await s.at_version(ack["version"]))["offers"][-1]["id"]
            ack = await s.command(
                {
                    "type": "counter",
                    "offer": oid,
                    "give": {"resources": {res: 1}},
                    "want": {"gold": 2},
                }
            )
            assert ack["type"] == "ack", ack
            view = await b.at_version(ack["version"])
            counter = view["offers"][-1]
            assert counter["counter_of"] == oid and counter["from"] == seller
            assert counter["can_accept"] is True
            assert next(o for o in view["offers"] if o["id"] == oid)["status"] == "declined"
            ack = await b.command({"type": "accept", "offer": counter["id"]})
            assert ack["type"] == "ack", ack
            for sock in (b, s, c):
                view = await sock.at_version(ack["version"])
                players = view["players"]
                assert players[buyer]["gold"] == before[buyer]["gold"] - 2
                assert players[seller]["gold"] == before[seller]["gold"] + 2
                assert players[buyer]["resources"].get(res, 0) == before[buyer][res] + 1
                assert players[seller]["resources"].get(res, 0) == before[seller][res] - 1
                done = next(o for o in view["offers"] if o["id"] == counter["id"])
                assert done["status"] == "accepted" and done["accepted_by"] == buyer
            late = await s.command({"type": "withdraw", "offer": counter["id"]})
            assert late["code"] == "offer_closed"
        finally:
            for sock in (b, s, c):
                await sock.close()

    asyncio.run(play())


def test_two_socket_accepts_at_once_one_wins(table: Table) -> None:
    """Two seats accept one open offer over their sockets in the same instant."""
    oid = table.offer(0, {"gold": 1}, {}, None)

    async def race() -> list[dict]:
        socks = [await Socket.connect(table.ws_url(seat)) for seat in (1, 2)]
        try:
            ids = await asyncio.gather(*(k.send({"type": "accept", "offer": oid}) for k in socks))
            return list(
                await asyncio.gather(*(k.answer(i) for k, i in zip(socks, ids, strict=True)))
            )
        finally:
            for k in socks:
                await k.close()

    answers = asyncio.run(race())
    assert sorted(a["type"] for a in answers) == ["ack", "error"], answers
    assert next(a for a in answers if a["type"] == "error")["code"] == "offer_closed"
    winner = 1 if answers[0]["type"] == "ack" else 2
    assert table.offer_in(0, oid)["accepted_by"] == winner
