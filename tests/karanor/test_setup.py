"""Setup: rulebook sections Setup, Start of the Adventure, Notes for 2 and 3 Players."""

from __future__ import annotations

import json

import pytest

from app.karanor import engine
from app.karanor.errors import RuleError
from app.karanor.state import DRAFT, Business
from tests.karanor.scenario import MINI, NAMES, PARTNERS, new


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_each_merchant_gets_home_story_pawns_and_draft_cards(n):
    """Setup: "Give each player: 1 Home City tile, 1 Story tile, 3 Business cards" and "Place your
    player pawn and one business pawn on your Home City"; Start of the Adventure: "Give each player
    the resources, gold coins and bonuses shown on their Story tile" and the revenue marker "at the
    level indicated"; prestige "on space 0" (R20: the story tile's level)."""
    s = new(n, seed=11 + n)
    assert s.phase == DRAFT
    assert len({p.home for p in s.players}) == n
    assert len({p.story for p in s.players}) == n
    for p in s.players:
        story = MINI.story[p.story]
        assert MINI.home[p.home_tile].city == p.home
        assert p.position == p.home
        assert p.businesses == [Business(city=p.home, card=None)]
        assert p.gold == story.gold
        assert p.revenue == story.revenue
        assert {r: k for r, k in p.resources.items() if k} == dict(story.resources)
        assert p.badges == ([story.badge] if story.badge else [])
        assert p.prestige == 0
        assert p.partners == {} and p.villas == [] and p.artifacts == []
        assert p.business_hand == [] and p.quests == [] and p.black_market == []
        assert len(p.draft_hand) == 3


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_board_display_deliveries_partners_inhabitants(n):
    """Setup: "Place 3 Business cards face up", "Place 21 inhabitant tokens on the board",
    "Prepare X+1 Delivery cards face down, X being the number of players. Turn the first
    card face up. Prepare the 6 partner tokens" (R19)."""
    s = new(n, seed=3)
    assert len(s.business_display) == 3
    assert s.delivery is not None
    assert 1 + len(s.decks["deliveries"]) == n + 1
    assert s.delivery not in s.decks["deliveries"]
    assert sorted(s.partners_free) == sorted(PARTNERS) and len(s.partners_free) == 6
    assert s.inhabitants == {i.territory: i.id for i in MINI.inhabitants}
    dealt = s.business_display + s.decks["business"] + [c for p in s.players for c in p.draft_hand]
    assert sorted(dealt) == sorted(b.id for b in MINI.business)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_story_tokens_come_from_the_supply(n):
    """Start of the Adventure: the story's resources are tokens of the supply (105 resource
    tokens in Components); with 2 players the Market takes one of each but diamond (R25)."""
    s = new(n, seed=5)
    for r, total in MINI.rules.supply.items():
        held = sum(p.resources[r] for p in s.players)
        market = (s.market or {}).get(r, 0)
        assert s.supply[r] + held + market == total


@pytest.mark.parametrize("n", [2, 3])
def test_four_plus_cards_removed_with_two_or_three_players(n):
    """Notes for 2 and 3 Players: "Some Quest, Black Market or Artifact cards bear the
    mention 4+. Simply remove them from the game before starting"."""
    text = json.dumps(new(n, seed=9).to_dict())
    for card in ("art_horn", "q_rich", "bm_hex"):
        assert f'"{card}"' not in text


@pytest.mark.parametrize("n", [4, 5, 6])
def test_four_plus_cards_kept_with_four_or_more(n):
    """Notes for 2 and 3 Players: 4+ cards "will only be interesting in games of 4
    players or more": they stay in the decks."""
    s = new(n, seed=9)
    assert "art_horn" in s.decks["artifacts"]
    assert "q_rich" in s.decks["quests"]
    assert "bm_hex" in s.decks["black_market"]


def test_start_seat_option_chooses_the_first_player():
    """The Turn: "The last player to have bargained for something starts the game":
    online the host picks the start seat (R24)."""
    s = new(3, start_seat=2)
    assert s.start_seat == 2 and s.turn_seat == 2
    for _ in range(2):
        for seat in range(3):
            events = engine.apply(
                s, seat, {"type": "draft_pick", "card": s.players[seat].draft_hand[0]}
            )
    assert s.turn_seat == 2 and s.actions_left == 4
    assert events[-1] == {"type": "turn", "seat": 2, "round": 1, "actions": 4}


def test_random_start_seat_is_drawn_from_the_seed():
    """R24: without a chosen start seat the first player is drawn at random (from the
    seed, so a replay repeats it)."""
    starts = {new(4, seed=seed).start_seat for seed in range(24)}
    assert starts <= {0, 1, 2, 3} and len(starts) > 1
    assert new(4, seed=77).start_seat == new(4, seed=77).start_seat


@pytest.mark.parametrize(
    ("options", "n"),
    [
        ({"colour": "red"}, 2),
        ({"max_players": 7}, 2),
        ({"max_players": 1}, 2),
        ({"max_players": True}, 2),
        ({"public_quests": "yes"}, 2),
        ({"two_player_market": 1}, 2),
        ({"start_seat": 2}, 2),
        ({"start_seat": -1}, 3),
        ({"start_seat": "first"}, 3),
        ({"end_prestige": 0}, 3),
        ({"end_prestige": 31}, 3),
        ({"end_prestige": "10"}, 3),
        ({}, 1),
        ({}, 7),
    ],
)
def test_bad_options_refused(options, n):
    """Rules by Number of Players: the game takes 2 to 6 merchants; room options outside
    their ranges are refused with `bad_options`."""
    with pytest.raises(RuleError) as info:
        engine.new_game(options, 1, list((NAMES * 2)[:n]), MINI)
    assert info.value.code == "bad_options"
