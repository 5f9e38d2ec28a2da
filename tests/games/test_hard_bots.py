"""The searching bots (issue 30, level "hard"): they decide from what their seat may know
(two states that differ only in what the seat cannot see give the same decision for the
same seed), they trade on value (Karanor), and they play whole games through every kind
of command their turn offers. Tiny iteration budgets, no clocks: fast and deterministic."""

from __future__ import annotations

import random
from typing import Any

from app.darkroad import engine as DE
from app.darkroad.bots import GreedyBot as DRGreedy
from app.darkroad.game import GAME as DARKROAD
from app.darkroad.hard import SEARCH as DR_SEARCH
from app.darkroad.hard import HardBot as DRHard
from app.games.kit.search import Budget
from app.karanor import commands as K
from app.karanor import engine as KE
from app.karanor.bots import GreedyBot as KGreedy
from app.karanor.game import GAME as KARANOR
from app.karanor.hard import CLOSE, TunedPlan, win_chance
from app.karanor.hard import SEARCH as K_SEARCH
from app.karanor.hard import HardBot as KHard
from app.karanor.state import ACTION
from app.karanor.valuation import Plan

TINY = Budget(iterations=10, seconds=None)  # no clock: the same decision on any machine


def karanor_midgame(seed: int = 4, seat: int = 0) -> Any:
    """A 3-player game played by greedy bots until `seat` acts in its turn, round 3."""
    s = KARANOR.setup(KARANOR.normalise_options({"max_players": 3}), seed, ["A", "B", "C"], "base")
    bots = [KGreedy(i) for i in range(3)]
    while not (s.phase == ACTION and s.round >= 3 and s.turn_seat == seat and not s.pending):
        who = KE.to_act(s)[0]
        KE.apply(s, who, bots[who].decide(s, who, KE.legal_actions(s, who)))
    return s


def karanor_secrets_changed(s: Any, seat: int) -> Any:
    """`s` with everything `seat` cannot see changed: another seat's quest and
    black-market cards swapped with the decks', every deck's order, the RNG."""
    t = s.copy()
    other = t.players[(seat + 1) % t.n]
    for hand, deck in ((other.quests, "quests"), (other.black_market, "black_market")):
        if hand and t.decks[deck]:
            hand[0], t.decks[deck][0] = t.decks[deck][0], hand[0]
    for name in t.decks:
        t.decks[name].reverse()
    t.rng ^= 0x5DEECE66D
    t.seed += 1
    return t


def test_karanor_hard_bot_decides_on_what_its_seat_sees(monkeypatch: Any) -> None:
    # Every candidate searched, not only the close calls: the search has a choice to make.
    monkeypatch.setattr(type(K_SEARCH), "close", 1e9)
    s = karanor_midgame()
    t = karanor_secrets_changed(s, 0)
    assert s.to_dict() != t.to_dict()
    assert KARANOR.view(s, 0, KARANOR.public_part(s)) == KARANOR.view(t, 0, KARANOR.public_part(t))
    # Every world the search deals is the same from both states...
    worlds = [K_SEARCH.determinise(x, 0, random.Random(9)).to_dict() for x in (s, t)]
    assert worlds[0] == worlds[1]
    # ...so is the decision, whatever the secrets, for the same seed.
    legal = KE.legal_actions(s, 0)
    assert legal == KE.legal_actions(t, 0) and len(legal) > 1
    for seed in (1, 2, 3):
        first = KHard(seed, TINY).decide(s, 0, legal)
        assert first == KHard(seed, TINY).decide(t, 0, legal)
        assert first in legal


def test_karanor_hard_bot_searches_the_close_calls_of_its_valuation() -> None:
    """The search may only overrule its valuation (the tuned weights) between commands
    that valuation finds within `CLOSE` gold of its best: the first candidate is the
    valuation's own choice, every other one is that close."""
    s = karanor_midgame()
    legal = KE.legal_actions(s, 0)
    plan = TunedPlan(s, 0)
    cands = K_SEARCH.candidates(s, 0, legal)
    best = max(plan.score(a) for a in legal)
    assert plan.score(cands[0]) == best
    assert all(plan.score(a) >= best - CLOSE for a in cands)
    far = [a for a in legal if plan.score(a) < best - CLOSE]
    assert far and not set(map(repr, far)) & set(map(repr, cands))


def test_karanor_tuned_weights_are_the_hard_bots_alone() -> None:
    """The hard bot plays the tuned weights; the greedy ("normal") bot the defaults."""
    assert issubclass(TunedPlan, Plan) and KGreedy.valuation is Plan
    assert KHard.valuation is TunedPlan
    tuned = {k for k in vars(TunedPlan) if not k.startswith("_")}
    assert tuned and all(getattr(TunedPlan, k) != getattr(Plan, k) for k in tuned)


def test_karanor_win_chance_sums_to_one_and_follows_prestige() -> None:
    s = karanor_midgame()
    chances = [win_chance(s, q) for q in range(s.n)]
    assert abs(sum(chances) - 1.0) < 1e-9
    t = s.copy()
    t.players[1].prestige += 5
    assert win_chance(t, 1) > win_chance(s, 1) and win_chance(t, 0) < win_chance(s, 0)
    t.result = {"winners": [1, 2]}
    assert [win_chance(t, q) for q in range(3)] == [0.0, 0.5, 0.5]


def test_karanor_hard_bot_accepts_good_offers_and_refuses_bad_ones() -> None:
    s = karanor_midgame(seat=1)
    me = s.players[0]
    me.resources["wood"] = me.resources.get("wood", 0) + 1
    s.players[1].gold += 20
    bot = KHard(1, TINY)
    # Seat 1 (on its turn) asks seat 0 for one wood for a fortune: seat 0 accepts.
    KE.apply(s, 1, K.Offer(give={"gold": 15}, want={"resources": {"wood": 1}}, to=(0,)))
    assert bot.answer(s, 0) == K.Accept(s.offers[-1]["id"])
    KE.apply(s, 1, K.Withdraw(s.offers[-1]["id"]))
    # The same wood for one gold and a promise: refused.
    KE.apply(s, 1, K.Offer(give={"gold": 0}, want={"resources": {"wood": 1}}, to=(0,)))
    assert bot.answer(s, 0) == K.Decline(s.offers[-1]["id"])


def test_karanor_a_whole_game_with_a_hard_bot() -> None:
    s = KARANOR.setup(KARANOR.normalise_options({"max_players": 2}), 3, ["A", "B"], "base")
    hard = KHard(7, Budget(iterations=4, seconds=None))
    played: set[str] = set()

    def seen(state: Any, seat: int, cmd: Any, events: Any) -> None:
        if seat == 0:
            played.add(cmd.type)

    KARANOR.play(s, [hard, KGreedy(8)], max_rounds=80, on_command=seen)
    assert s.result is not None and hard.times
    assert {"move", "end_turn", "draft_pick"} <= played


def darkroad_midgame(players: int = 2, seed: int = 5, seat: int = 0) -> Any:
    s = DARKROAD.setup(
        DARKROAD.normalise_options({"max_players": players}),
        seed,
        [f"P{i}" for i in range(players)],
        "base",
    )
    bots = [DRGreedy(i) for i in range(players)]
    while not (s.round >= 3 and s.turn_seat == seat and not s.pending):
        who = DE.to_act(s)[0]
        DE.apply(s, who, bots[who].decide(s, who))
    return s


def darkroad_secrets_changed(s: Any, seat: int) -> Any:
    """`s` with what `seat` cannot see changed (ruling R28): another seat's coins and a
    deed swapped with the deck's, every deck's order, the stacks under their top card,
    the RNG (the dice to come)."""
    t = s.copy()
    other = t.players[(seat + 1) % len(t.players)]
    other.coins += 3
    other.deeds = list(other.deeds)
    if other.deeds and t.decks["deeds"]:
        other.deeds[0], t.decks["deeds"][0] = t.decks["deeds"][0], other.deeds[0]
    for name in t.decks:
        t.decks[name].reverse()
    for town, stack in t.stacks.items():
        t.stacks[town] = stack[:1] + stack[1:][::-1]
    t.rng ^= 0x5DEECE66D
    t.seed += 1
    return t


def test_darkroad_hard_bot_decides_on_what_its_seat_sees() -> None:
    s = darkroad_midgame()
    t = darkroad_secrets_changed(s, 0)
    assert s.to_dict() != t.to_dict()
    assert DARKROAD.view(s, 0, DARKROAD.public_part(s)) == DARKROAD.view(
        t, 0, DARKROAD.public_part(t)
    )
    worlds = [DR_SEARCH.determinise(x, 0, random.Random(9)).to_dict() for x in (s, t)]
    assert worlds[0] == worlds[1]
    legal = DE.legal_actions(s, 0)
    assert legal == DE.legal_actions(t, 0)
    for seed in (1, 2, 3):
        first = DRHard(seed, TINY).decide(s, 0, legal)
        assert first == DRHard(seed, TINY).decide(t, 0, legal)
        assert first in legal


def test_darkroad_a_whole_game_with_a_hard_bot() -> None:
    s = DARKROAD.setup(DARKROAD.normalise_options({"max_players": 2}), 4, ["A", "B"], "base")
    hard = DRHard(7, Budget(iterations=4, seconds=None))
    played: set[str] = set()

    def seen(state: Any, seat: int, cmd: Any, events: Any) -> None:
        if seat == 0:
            played.add(cmd.type)

    DARKROAD.play(s, [hard, DRGreedy(8)], max_rounds=80, on_command=seen)
    assert s.phase == DE.OVER and hard.times
    # Caravans, storage and joining a caravan included (seed 4 plays them all).
    assert {"plan", "move", "caravan", "place_good", "join", "end_turn"} <= played, played


def test_the_coachs_numbers_are_written_as_its_language_writes_them() -> None:
    from app.games.i18n import Translator

    assert Translator("en", {}).decimal(2.84) == "2.8"
    assert Translator("fr", {}).decimal(2.84) == "2,8"


def test_a_rooms_time_setting_caps_the_bot_that_simulate_measured() -> None:
    """A room gives its hard bots a time setting only (`seat_bot(..., budget)`): they try
    their designed number of moves (Dark Road: 48 at two seats, 24 beyond), not more, as
    `simulate` without `--iterations` measures them (the setting used to give 200)."""
    from app.darkroad import hard

    for players, designed in ((2, hard.TWO_SEATS_ITERATIONS), (4, hard.DEFAULT_ITERATIONS)):
        s = darkroad_midgame(players)
        bot = DARKROAD.seat_bot("hard", s, 0, 0, budget=60.0)
        assert bot.budget.iterations is None and bot.budget.seconds == 60.0
        legal = DE.legal_actions(s, 0)
        assert len(legal) > 1
        bot.decide(s, 0, legal)
        last = bot.last
        assert last is not None and not last.capped
        k = len(last.means)
        assert designed <= last.iterations < designed + k, (players, last.iterations, k)
    # Karanor's, the same way (120 tries; most decisions are the prior's, unsearched).
    s = karanor_midgame()
    kbot = KARANOR.seat_bot("hard", s, 0, 0, budget=60.0)
    assert kbot.budget.iterations is None
    from app.karanor.hard import DEFAULT_ITERATIONS as KARANOR_TRIES

    assert kbot.designed(s) == KARANOR_TRIES
