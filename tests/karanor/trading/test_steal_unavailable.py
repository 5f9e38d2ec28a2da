"""An offer invalidated by a black-market steal (engine level, base content).

The API cannot hand a seat a chosen black-market card nor put two merchants on one
territory on demand, so this one is built with the engine's scenario helpers, on the
real `base` pack the server plays, and read through `view()` as a browser would.
"""

from __future__ import annotations

import pytest

from app.karanor import engine
from app.karanor.content import load
from app.karanor.errors import RuleError
from app.karanor.view import view
from tests.karanor.scenario import draft, put

BASE = load("base")


def test_pickpocketed_offer_shows_unavailable() -> None:
    """Trading Between Players: "you cannot hastily trade a resource that is being stolen
    from you by a Black Market card": the offer is unavailable while its gold is gone."""
    s = draft(engine.new_game({"start_seat": 0, "end_prestige": 30}, 7, ["Ana", "Bo", "Cy"], BASE))
    town = s.players[0].position
    put(s, 0, gold=3)
    put(s, 1, position=town, black_market=["pickpocketing"])
    events = engine.apply(s, 0, {"type": "offer", "to": None, "give": {"gold": 3}, "want": {}})
    oid = events[0]["offer"]
    assert view(s, 2)["offers"][0]["can_accept"] is True

    events = engine.apply(s, 1, {"type": "play_black_market", "card": "pickpocketing", "target": 0})
    assert {"type": "offer_status", "offer": oid, "status": "unavailable"} in events
    for seat in (0, 1, 2, None):
        shown = view(s, seat)["offers"][0]
        assert shown["status"] == "unavailable"
        if seat in (1, 2):
            assert shown["can_accept"] is False
    with pytest.raises(RuleError) as refused:
        engine.apply(s, 2, {"type": "accept", "offer": oid})
    assert refused.value.code == "offer_unavailable"
