"""The Draft System (rulebook, Setup) and ruling R27."""

from __future__ import annotations

import json

from app.karanor import commands as K
from app.karanor import engine
from app.karanor.state import ACTION, DRAFT
from app.karanor.view import view
from tests.karanor.scenario import legal, new, play, refuse


def test_keep_one_pass_two_to_the_right_then_keep_one_of_two():
    """The Draft System: "They choose one card to keep and pass the remaining 2 cards to
    the player on their right. With the 2 cards received, each player repeats the
    operation and keeps 1 of the 2" (R27: turns go to the next seat number, your left, so
    "your right" is seat i-1: seat i receives the leftovers of seat i+1)."""
    s = new(3, seed=4, start_seat=0)
    hands = [list(p.draft_hand) for p in s.players]
    picks = [h[1] for h in hands]  # keep the middle card, to check the order kept
    for seat in range(3):
        play(s, seat, {"type": "draft_pick", "card": picks[seat]})
    leftovers = [[c for c in hands[i] if c != picks[i]] for i in range(3)]
    assert s.draft_round == 2
    for i, p in enumerate(s.players):
        assert p.draft_hand == leftovers[(i + 1) % 3]
        assert p.business_hand == [picks[i]]
    second = [p.draft_hand[1] for p in s.players]
    for seat in range(3):
        play(s, seat, {"type": "draft_pick", "card": second[seat]})
    for i, p in enumerate(s.players):
        assert p.business_hand == [picks[i], second[i]]
        assert p.draft_hand == []
    assert s.phase == ACTION


def test_leftover_cards_are_discarded_and_hands_hold_two():
    """The Draft System: "each player ends up with 2 Business cards in hand. Discard the
    remaining cards."""
    s = new(4, seed=8, start_seat=0)
    dealt = {c for p in s.players for c in p.draft_hand}
    for _ in range(2):
        for seat in range(4):
            play(s, seat, {"type": "draft_pick", "card": s.players[seat].draft_hand[-1]})
    kept = {c for p in s.players for c in p.business_hand}
    assert all(len(p.business_hand) == 2 for p in s.players)
    assert sorted(s.discards["business"]) == sorted(dealt - kept)
    assert len(s.discards["business"]) == 4


def test_picks_and_draft_hands_are_secret():
    """Setup: "we advise keeping your Business cards secret until you build them": no
    other seat's view shows a seat's draft hand nor the card it kept (R27: picks are
    simultaneous and secret; others see only who has picked)."""
    s = new(3, seed=2, start_seat=0)
    hand0 = list(s.players[0].draft_hand)
    for other in (1, 2, None):
        text = json.dumps(view(s, other))
        assert not any(f'"{c}"' in text for c in hand0)
    play(s, 0, {"type": "draft_pick", "card": hand0[0]})
    for other in (1, 2, None):
        text = json.dumps(view(s, other))
        assert not any(f'"{c}"' in text for c in hand0)
    assert view(s, 1)["turn"]["drafted"] == [True, False, False]
    for seat in (1, 2):
        play(s, seat, {"type": "draft_pick", "card": s.players[seat].draft_hand[0]})
    for other in (1, 2, None):
        text = json.dumps(view(s, other))
        assert not any(f'"{c}"' in text for c in s.players[0].business_hand)


def test_no_turn_action_during_the_draft():
    """Start of the Adventure: the adventure starts "Once setup is complete": no action,
    end of turn nor trade before the draft is over (R27: trading opens after the draft)."""
    s = new(2, seed=1, start_seat=0)
    refuse(s, 0, {"type": "work"}, "wrong_phase")
    refuse(s, 0, {"type": "end_turn"}, "wrong_phase")
    refuse(s, 0, {"type": "move", "to": "forest"}, "wrong_phase")
    refuse(s, 0, {"type": "offer", "to": [1], "give": {"gold": 1}, "want": {}}, "trading_closed")
    assert {c["type"] for c in legal(s, 0)} == {"draft_pick"}
    assert len(legal(s, 0)) == 3


def test_one_pick_per_round():
    """The Draft System: "They choose one card to keep": a second pick in the same round
    waits for the others; a card not offered cannot be kept."""
    s = new(2, seed=1, start_seat=0)
    p = s.players[0]
    play(s, 0, {"type": "draft_pick", "card": p.draft_hand[0]})
    refuse(s, 0, {"type": "draft_pick", "card": p.draft_hand[0]}, "already_picked")
    assert legal(s, 0) == []
    refuse(s, 1, {"type": "draft_pick", "card": p.draft_hand[0]}, "not_in_hand")
    assert s.phase == DRAFT and s.draft_round == 1


def test_draft_pick_after_the_draft_is_refused():
    """The Draft System happens once, "At the start of the game"."""
    s = new(2, seed=1, start_seat=0)
    for _ in range(2):
        for seat in range(2):
            play(s, seat, {"type": "draft_pick", "card": s.players[seat].draft_hand[0]})
    card = s.players[0].business_hand[0]
    refuse(s, 0, {"type": "draft_pick", "card": card}, "wrong_phase")
    assert engine.check(s, 0, K.DraftPick(card)).code == "wrong_phase"
