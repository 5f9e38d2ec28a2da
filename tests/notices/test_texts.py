"""A notice's words (app/notices/texts.py) and the games' invitations hooks."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from app.darkroad.game import GAME as DARKROAD
from app.karanor.game import GAME as KARANOR
from app.notices.texts import Fact, compose


def test_several_facts_of_a_room_make_one_notice_in_the_seats_language() -> None:
    at = datetime(2026, 12, 3, 17, 30, tzinfo=ZoneInfo("UTC")).timestamp()
    facts = [Fact("turn", "abc", "Race to N"), Fact("offer", "abc", "Race to N"),
             Fact("reminder", "abc", "Race to N", at)]  # fmt: skip
    notice = compose(facts, "fr", "Europe/Paris")
    assert notice.title == "Race to N" and notice.path == "/r/abc" and notice.tag == "abc"
    lines = notice.body.split("\n")
    assert lines[:2] == ["La partie vous attend.", "Une offre vous est faite."]
    # 17:30 UTC is 18:30 in Paris in December, said in French.
    assert lines[2].startswith("Il reste un quart de votre tour") and "18:30" in lines[2]
    assert "déc." in lines[2]
    english = compose(facts, "en", "America/New_York").body
    assert "12:30" in english and "The game waits for you." in english
    # An unknown zone falls back to UTC rather than failing.
    assert "17:30" in compose(facts[2:], "en", "Nowhere/Else").body


def test_karanor_names_an_offers_addressees() -> None:
    state = KARANOR.new_game(KARANOR.normalise_options({"max_players": 3}), 1, ["A", "B", "C"])
    to_one = [{"type": "offer", "seat": 0, "offer": 1, "addressees": [2]}]
    assert KARANOR.invitations(state, to_one) == {2: "offer"}
    to_anyone = [{"type": "offer", "seat": 1, "offer": 2, "addressees": None}]
    assert KARANOR.invitations(state, to_anyone) == {0: "offer", 2: "offer"}
    assert KARANOR.invitations(state, [{"type": "offer_declined", "seat": 2}]) == {}


def test_dark_road_names_the_seat_asked_to_join_a_caravan() -> None:
    state = DARKROAD.new_game(DARKROAD.normalise_options({}), 1, ["A", "B", "C"])
    assert DARKROAD.invitations(state, []) == {}
    state.pending = [{"kind": "join", "seat": 2}]
    assert DARKROAD.invitations(state, []) == {2: "join"}
