"""Black Market Cards (rulebook, Cards and Objects) and rulings R15, R30."""

from __future__ import annotations

from app.karanor import effects as fx
from app.karanor import engine
from app.karanor.content import Reward, load
from tests.karanor.scenario import MINI, draft, give_turn, legal, play, put, refuse, scenario


def bm_plays(s, seat, card):
    return [c for c in legal(s, seat) if c["type"] == "play_black_market" and c["card"] == card]


def test_pickpocketing_takes_three_gold_on_the_same_territory(s2):
    """Black Market Cards, example Pickpocketing: "To be used when you are on the same
    territory as another player. Take 3 gold coins from them"; "Using a Black Market card
    costs no actions"."""
    put(s2, 0, position="forest", black_market=["pickpocketing"])
    put(s2, 1, position="forest", gold=5)
    events = play(s2, 0, {"type": "play_black_market", "card": "pickpocketing", "target": 1})
    assert s2.players[0].gold == 3 and s2.players[1].gold == 2
    assert s2.actions_left == 4 and s2.players[0].black_market == []
    assert s2.discards["black_market"] == ["pickpocketing"]
    assert events[-1] == {"type": "steal", "seat": 0, "target": 1, "gold": 3}


def test_pickpocketing_takes_all_when_fewer(s2):
    """Pickpocketing: "Take 3 gold coins from them" (R30: a steal takes what the target has,
    up to the printed amount)."""
    put(s2, 0, position="forest", black_market=["pickpocketing"])
    put(s2, 1, position="forest", gold=2)
    play(s2, 0, {"type": "play_black_market", "card": "pickpocketing", "target": 1})
    assert s2.players[0].gold == 2 and s2.players[1].gold == 0


def test_pickpocketing_needs_the_same_territory(s2):
    """Pickpocketing: "when you are on the same territory as another player"."""
    put(s2, 0, position="forest", black_market=["pickpocketing"])
    put(s2, 1, position="hub", gold=5)
    refuse(s2, 0, {"type": "play_black_market", "card": "pickpocketing", "target": 1}, "bad_target")
    refuse(s2, 0, {"type": "play_black_market", "card": "pickpocketing"}, "bad_target")
    assert bm_plays(s2, 0, "pickpocketing") == []
    refuse(s2, 0, {"type": "play_black_market", "card": "bm_tax", "target": 1}, "not_in_hand")


def test_any_time_card_played_off_turn(s2):
    """Black Market Cards: "They may be played at any time, even when it is not your
    turn!" (R15: each command is atomic; no response window)."""
    put(s2, 0, position="forest", gold=4)
    put(s2, 1, position="forest", black_market=["pickpocketing"])
    assert bm_plays(s2, 1, "pickpocketing") == [
        {"type": "play_black_market", "card": "pickpocketing", "target": 0}
    ]
    play(s2, 1, {"type": "play_black_market", "card": "pickpocketing", "target": 0})
    assert s2.players[1].gold == 3 and s2.turn_seat == 0 and s2.actions_left == 4


def test_own_turn_card_refused_off_turn(s2):
    """Black Market Cards: "You only need to respect the usage condition printed on the card": a
    card for your own turn is refused on another's (R15: any seat may play a card, subject to its
    `when`)."""
    put(s2, 0, resources={"ore": 1})
    put(s2, 1, black_market=["bm_thief"])
    refuse(
        s2,
        1,
        {"type": "play_black_market", "card": "bm_thief", "target": 0, "resource": "ore"},
        "not_your_turn",
    )


def test_off_turn_card_refused_on_own_turn(s2):
    """Black Market Cards: "respect the usage condition printed on the card": a card for
    another's turn is refused on your own (R15: subject to its `when`)."""
    put(s2, 0, black_market=["bm_fire"])
    put(s2, 1, resources={"wood": 2})
    refuse(
        s2,
        0,
        {"type": "play_black_market", "card": "bm_fire", "target": 1, "resource": "wood"},
        "card_timing",
    )
    give_turn(s2, 1)
    play(s2, 0, {"type": "play_black_market", "card": "bm_fire", "target": 1, "resource": "wood"})
    assert s2.players[1].resources["wood"] == 0


def test_card_with_an_action_cost_spends_one(s3):
    """Black Market Cards: "Using a Black Market card costs no actions, unless the card
    states otherwise" (Scandal costs 1 action)."""
    put(s3, 0, black_market=["bm_scandal", "bm_scandal"])
    put(s3, 1, prestige=2)
    play(s3, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 1})
    assert s3.actions_left == 3 and s3.players[1].prestige == 1
    s3.actions_left = 0
    refuse(
        s3, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 1}, "no_actions_left"
    )


def test_target_the_leader(s3):
    """Black Market Cards: "respect the usage condition printed on the card": Scandal and
    Fire target the merchant with the most prestige."""
    put(s3, 0, black_market=["bm_scandal"])
    put(s3, 1, prestige=3)
    put(s3, 2, prestige=1)
    assert bm_plays(s3, 0, "bm_scandal") == [
        {"type": "play_black_market", "card": "bm_scandal", "target": 1}
    ]
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 2}, "bad_target")
    play(s3, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 1})
    assert s3.players[1].prestige == 2


def test_target_in_the_same_city(s3):
    """Black Market Cards: the usage condition of Tax: a merchant in the city you are in."""
    put(s3, 0, position="hub", black_market=["bm_tax"])
    put(s3, 1, position="hub", gold=5)
    put(s3, 2, position="forest", gold=5)
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_tax", "target": 2}, "bad_target")
    put(s3, 0, position="forest")
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_tax", "target": 2}, "bad_target")
    put(s3, 0, position="hub")
    play(s3, 0, {"type": "play_black_market", "card": "bm_tax", "target": 1})
    assert s3.players[1].gold == 3 and s3.players[0].gold == 0


def test_target_anyone_and_steal_a_named_resource(s3):
    """Black Market Cards: Thief targets any merchant, wherever they are; the player names
    a resource the target holds."""
    put(s3, 0, position="a_city", black_market=["bm_thief"])
    put(s3, 2, position="d_city", resources={"ore": 2, "wine": 1})
    plays = bm_plays(s3, 0, "bm_thief")
    assert {(c["target"], c["resource"]) for c in plays} == {(2, "ore"), (2, "wine")}
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_thief", "target": 2}, "bad_target")
    refuse(
        s3,
        0,
        {"type": "play_black_market", "card": "bm_thief", "target": 2, "resource": "wood"},
        "bad_target",
    )
    refuse(
        s3,
        0,
        {"type": "play_black_market", "card": "bm_thief", "target": 0, "resource": "ore"},
        "bad_target",
    )
    play(s3, 0, {"type": "play_black_market", "card": "bm_thief", "target": 2, "resource": "ore"})
    assert s3.players[0].resources["ore"] == 1 and s3.players[2].resources["ore"] == 1


def test_diplomat_cannot_be_targeted(s3):
    """Badge Tiles: badges are "bonuses"; the Diplomat shields its owner from black-market
    effects (R30: a Diplomat badge shields its owner from every card that targets a
    player)."""
    put(s3, 0, position="forest", black_market=["pickpocketing", "bm_ambush"])
    put(s3, 1, position="forest", gold=5, badges=["diplomat"])
    refuse(s3, 0, {"type": "play_black_market", "card": "pickpocketing", "target": 1}, "bad_target")
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_ambush", "target": 1}, "bad_target")
    assert {c["target"] for c in bm_plays(s3, 0, "bm_ambush")} == {2}


def test_a_card_against_a_protected_leader_has_no_target(s3):
    """Black Market Cards are "meant to hinder the progress of the other players"; a card
    aimed at the other player with the most prestige names that player (R30: protection
    shields the leader and does not pass the attack on to the next player: the card then
    has no target)."""
    put(s3, 0, black_market=["bm_scandal"])
    put(s3, 1, prestige=5, badges=["diplomat"])
    put(s3, 2, prestige=3)
    assert bm_plays(s3, 0, "bm_scandal") == []
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 2}, "bad_target")
    refuse(s3, 0, {"type": "play_black_market", "card": "bm_scandal", "target": 1}, "bad_target")
    put(s3, 1, badges=[])
    assert {c["target"] for c in bm_plays(s3, 0, "bm_scandal")} == {1}


def test_protecting_artifact_cannot_be_targeted():
    """Artifacts: the Mirror of Lac Miroir's passive protection (R30: a protecting artifact
    shields its owner from every card that targets a player, as the Diplomat badge does);
    base pack, where the protecting artifacts are."""
    s = draft(engine.new_game({"start_seat": 0}, 5, ["Ana", "Bo", "Cy"], load("base")))
    here = s.players[0].position
    put(s, 0, black_market=["pickpocketing"])
    put(s, 1, position=here, gold=5, artifacts=["mirror_of_lac_miroir"])
    put(s, 2, position=here, gold=5)
    assert {c["target"] for c in bm_plays(s, 0, "pickpocketing")} == {2}
    refuse(s, 0, {"type": "play_black_market", "card": "pickpocketing", "target": 1}, "bad_target")
    put(s, 1, artifacts=[])
    assert {c["target"] for c in bm_plays(s, 0, "pickpocketing")} == {1, 2}


def test_lose_actions_shortens_the_targets_next_turn(s2):
    """Black Market Cards are "meant to hinder the progress of the other players": Ambush
    takes an action from the target's next turn (R30: lost actions come off the target's
    next turn)."""
    put(s2, 0, black_market=["bm_ambush"])
    play(s2, 0, {"type": "play_black_market", "card": "bm_ambush", "target": 1})
    assert s2.actions_left == 4
    play(s2, 0, {"type": "end_turn"})
    assert s2.turn_seat == 1 and s2.actions_left == 3
    play(s2, 1, {"type": "end_turn"})
    play(s2, 0, {"type": "end_turn"})
    assert s2.actions_left == 4


def test_actions_gained_off_turn_come_on_the_next_turn(s2):
    """R30: "actions gained off-turn are added to your next turn"; gained on your own turn,
    they are added to this one."""
    ev: list = []
    fx.apply_rewards(s2, MINI, s2.players[1], (Reward(extra_actions=1),), ev)
    assert s2.actions_left == 4 and s2.players[1].bonus_actions == 1
    fx.apply_rewards(s2, MINI, s2.players[0], (Reward(extra_actions=1),), ev)
    assert s2.actions_left == 5 and s2.players[0].bonus_actions == 0
    play(s2, 0, {"type": "end_turn"})
    assert s2.turn_seat == 1 and s2.actions_left == 5
    play(s2, 1, {"type": "end_turn"})
    assert s2.turn_seat == 0 and s2.actions_left == 4
    play(s2, 0, {"type": "end_turn"})
    assert s2.actions_left == 4


def test_send_home_with_a_requirement_and_a_cost(s2):
    """Black Market Cards: "respect the usage condition printed on the card": Exile, from a
    city and for 2 gold, sends the target back to their home city."""
    put(s2, 0, position="forest", gold=2, black_market=["bm_exile"])
    put(s2, 1, position="cave")
    cmd = {"type": "play_black_market", "card": "bm_exile", "target": 1}
    refuse(s2, 0, cmd, "conditions_not_met")
    put(s2, 0, position="hub", gold=1)
    refuse(s2, 0, cmd, "cannot_afford")
    put(s2, 0, gold=2)
    play(s2, 0, cmd)
    assert s2.players[1].position == s2.players[1].home and s2.players[0].gold == 0


def test_give_a_badge_to_the_target():
    """Black Market Cards: Hex (a 4+ card) gives its target the curse badge."""
    s = scenario(4)
    put(s, 2, black_market=["bm_hex"])
    curses = s.badge_supply["curse"]
    play(s, 2, {"type": "play_black_market", "card": "bm_hex", "target": 3})
    assert s.players[3].badges == ["curse"] and s.badge_supply["curse"] == curses - 1


def test_reward_card_without_target(s2):
    """Black Market Cards: a card may simply reward its player (Smuggler: a diamond, and a
    curse badge returned)."""
    put(s2, 0, black_market=["bm_smuggler"], badges=["curse"])
    refuse(s2, 0, {"type": "play_black_market", "card": "bm_smuggler", "target": 1}, "bad_target")
    play(s2, 0, {"type": "play_black_market", "card": "bm_smuggler"})
    assert s2.players[0].resources["diamond"] == 1 and s2.players[0].badges == []


def test_every_card_text_says_whom_the_engine_lets_it_target(s4):
    """Black Market Cards: each card's text names its target, and the engine targets
    exactly that: another player, never the one who plays it — also when the player who
    plays a card "against the player with the most prestige" leads themselves (the text
    says "the other player with the most prestige")."""
    from app.karanor import texts
    from app.karanor.black_market import bm_targets
    from app.karanor.engine import content_of

    c = content_of(s4)
    for card in c.black_market:
        if card.target == "none":
            continue
        words = texts.TARGET[card.target]
        assert "another" in words or "the other" in words, card.id
        assert words in texts.black_market(c, card), card.id
        # Seat 0 leads with 9 prestige; seats 1 and 2 share the others' best, 5.
        put(s4, 0, position="forest", prestige=9)
        put(s4, 1, position="forest", prestige=5)
        put(s4, 2, position="forest", prestige=5)
        put(s4, 3, position="hub", prestige=1)
        targets = bm_targets(s4, c, 0, card.target)
        assert 0 not in targets, card.id
        if card.target == "leader":
            assert targets == [1, 2], card.id  # the other players with the most prestige
