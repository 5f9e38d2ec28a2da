"""What each seat may see (rulebook, Setup: business cards "secret until you build them";
Interact: quests secret or shared, R14)."""

from __future__ import annotations

import json

from app.karanor.view import events_for, view
from tests.karanor.scenario import play, put, scenario


def hidden_position(**options):
    """Three merchants with business, quest and black-market cards, and seat 0 choosing
    between two artifact tiles."""
    s = scenario(3, **options)
    put(s, 0, quests=["q_plain", "q_fork"], black_market=["bm_tax"])
    put(s, 1, quests=["q_easy1"], black_market=["pickpocketing", "bm_thief"])
    put(s, 2, quests=["campfire"], black_market=["bm_ambush"])
    s.decks["artifacts"] = [a for a in s.decks["artifacts"] if a not in ("art_lamp", "art_charm")]
    s.pending = [{"kind": "artifact", "seat": 0, "options": ["art_lamp", "art_charm"]}]
    return s


def secrets_of(s, seat, *, quests=True):
    p = s.players[seat]
    ids = list(p.business_hand) + list(p.black_market)
    if quests:
        ids += p.quests
    for x in s.pending:
        if x["seat"] == seat:
            ids += x.get("options", [])
    return ids


def keys_of(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from keys_of(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from keys_of(v)


def test_spectator_sees_no_private_part():
    """Setup: "we advise keeping your Business cards secret": a spectator has no hand, no
    actions."""
    s = hidden_position()
    for who in (None, 7, -1):
        v = view(s, who)
        assert v["seat"] is None and v["private"] is None and v["legal_actions"] == []
    v = view(s, None)
    assert [p["hand_counts"] for p in v["players"]] == [
        {"business": 2, "quests": 2, "black_market": 1},
        {"business": 2, "quests": 1, "black_market": 2},
        {"business": 2, "quests": 1, "black_market": 1},
    ]


def test_a_seat_sees_its_own_hand():
    """Interact with an Inhabitant: "Keep the card until you have fulfilled the objective":
    a merchant reads their own cards and their own pending choice."""
    s = hidden_position()
    mine = view(s, 0)["private"]
    assert mine["business_cards"] == s.players[0].business_hand
    assert mine["quests"] == ["q_plain", "q_fork"] and mine["black_market"] == ["bm_tax"]
    assert mine["pending"] == {"kind": "artifact", "seat": 0, "options": ["art_lamp", "art_charm"]}
    assert view(s, 1)["private"]["pending"] is None
    assert view(s, 1)["turn"]["pending"] == {"seat": 0, "kind": "artifact"}


def test_no_other_seats_card_ids_anywhere():
    """Setup: business cards "secret until you build them"; Interact: quests kept secret
    (R14: unless the room shares them); black-market cards and offered artifact tiles are
    their holder's alone."""
    s = hidden_position()
    for viewer in (0, 1, 2, None):
        text = json.dumps(view(s, viewer))
        for other in range(3):
            if other == viewer:
                continue
            for card in secrets_of(s, other):
                assert f'"{card}"' not in text, (viewer, other, card)


def test_public_quests_option_shows_quests_only():
    """Interact with an Inhabitant: "You may read the text of your quest aloud ... or keep
    your objective secret" (R14: a room option); the other cards stay secret."""
    s = hidden_position(public_quests=True)
    v = view(s, 1)
    assert v["players"][0]["quests"] == ["q_plain", "q_fork"]
    assert v["players"][2]["quests"] == ["campfire"]
    text = json.dumps(v)
    for other in (0, 2):
        for card in secrets_of(s, other, quests=False):
            assert f'"{card}"' not in text


def test_seed_rng_and_deck_order_never_shown():
    """Setup: "Prepare X+1 Delivery cards face down": decks are face down, so a view holds
    neither the seed nor the RNG, and decks only as counts."""
    s = hidden_position()
    for viewer in (0, 1, None):
        v = view(s, viewer)
        keys = set(keys_of(v))
        assert "rng" not in keys and "seed" not in keys
        assert all(isinstance(n, int) for n in v["board"]["decks"].values())
        assert v["board"]["deliveries_left"] == len(s.decks["deliveries"])
        text = json.dumps(v)
        for deck in s.decks.values():
            for card in deck:
                assert f'"{card}"' not in text, card


def test_private_events_only_for_their_seat(s2):
    """Interact with an Inhabitant: the quest drawn is "keep[ed] secret" unless read aloud:
    the draw is told to the others only as a count."""
    put(s2, 0, position="forest")
    s2.decks["quests"].append("q_plain")
    events = play(s2, 0, {"type": "interact"})
    assert '"q_plain"' in json.dumps(events_for(events, 0))
    for other in (1, None):
        seen = events_for(events, other)
        assert '"q_plain"' not in json.dumps(seen)
        assert {"type": "draw", "seat": 0, "deck": "quests", "count": 1} in seen


def test_shared_public_part_gives_the_same_views(s3):
    """view(s, seat, public=public_part(s)) is exactly view(s, seat): the public part is
    computed once per version and shared by every viewer (Performance issue)."""
    from app.karanor.view import public_part

    common = public_part(s3)
    for seat in (None, 0, 1, 2):
        assert view(s3, seat, public=common) == view(s3, seat)
    assert "private" not in common and "legal_actions" not in common
