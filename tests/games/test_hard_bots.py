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
from app.karanor.hard import CLOSE, TunedPlan, final_turn, win_chance
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


def karanor_last_turns(seeds: range) -> list[Any]:
    """Positions of 4-player greedy games where the end is triggered and the seat on turn
    (its last turn: the round ends before it plays again) has a choice: the first such
    decision of each seat's turn."""
    out = []
    for seed in seeds:
        s = KARANOR.setup(KARANOR.normalise_options({}), seed, list("ABCD"), "base")
        bots = [KGreedy(seed * 10 + i) for i in range(4)]
        seen = set()
        while s.result is None:
            who = KE.to_act(s)[0]
            legal = KE.legal_actions(s, who)
            last = s.end_triggered_by is not None and s.phase == ACTION and not s.pending
            if last and who == s.turn_seat and len(legal) > 1 and who not in seen:
                seen.add(who)
                out.append(s.copy())
            KE.apply(s, who, bots[who].decide(s, who, legal))
    return out


def greedy_line(s: Any, seat: int) -> tuple[int, int]:
    """The (prestige, gold) the seat ends its turn with, playing the tuned valuation's best
    at every step (no noise)."""
    x = s.copy()
    while x.result is None and KE.to_act(x) == [seat]:
        if x.turn_seat != seat and not (x.pending and x.pending[0]["seat"] == seat):
            break
        plan = TunedPlan(x, seat)
        KE.apply(x, seat, max(KE.legal_actions(x, seat), key=plan.score))
    return x.players[seat].prestige, x.players[seat].gold


def line_of(s: Any, seat: int, first: Any) -> tuple[int, int]:
    """The best (prestige, gold) `final_turn`'s search finds after `first`."""
    from app.karanor.hard import _final_line

    key = _final_line(s, seat, first, 1, None, {})
    assert key is not None
    return key


def test_karanor_hard_bot_plays_its_last_turn_for_prestige_then_gold() -> None:
    """Rulebook, "End of the Game": once a player reaches 10 prestige, play goes on to the
    start player's turn, and the most prestige wins, then the most gold (rule 23). In its
    last turn the hard bot searches its own commands to the turn's end for the line ending
    with the most prestige, then gold: never less than its valuation's line in the same
    world, and more in some positions (what the valuation weighs for later turns is worth
    nothing then)."""
    positions = karanor_last_turns(range(1, 7))
    assert len(positions) >= 8
    better = 0
    for s in positions:
        seat = s.turn_seat
        legal = KE.legal_actions(s, seat)
        result = final_turn(s, seat, legal)
        assert result is not None
        chosen, found = result
        assert chosen in legal and found == line_of(s, seat, chosen)
        greedy = greedy_line(s, seat)
        assert found >= greedy, (found, greedy)
        better += found > greedy
    assert better >= 1
    # Past its deadline it gives up (the bot then plays its valuation's choice).
    s = positions[0]
    assert final_turn(s, s.turn_seat, KE.legal_actions(s, s.turn_seat), deadline=0.0) is None
    bot = KHard(3, Budget(iterations=None, seconds=0.0))
    assert bot.decide(s, s.turn_seat, KE.legal_actions(s, s.turn_seat)) in KE.legal_actions(
        s, s.turn_seat
    )


def test_karanor_hard_bot_takes_the_turn_that_ends_the_game_as_its_last() -> None:
    """A turn in which the seat may reach the end's prestige is its last too (the round
    ends before it plays again): within `NEAR` of the end, the hard bot plays the last
    turn's line when that line reaches the end, and its valuation's search otherwise."""
    from app.karanor import effects as fx
    from app.karanor.common import content_of
    from app.karanor.hard import NEAR, SEARCH

    s = karanor_midgame()
    end = fx.end_prestige(s, content_of(s))
    legal = KE.legal_actions(s, 0)
    bot = KHard(5, TINY)
    s.players[0].prestige = end - NEAR - 1
    before = bot.rng.getstate()
    assert bot.closing(s, 0, legal) is None and bot.rng.getstate() == before  # not searched
    s.players[0].prestige = end - 1
    chosen = bot.closing(s, 0, legal)
    world = SEARCH.determinise(s, 0, random.Random(KHard(5, TINY).rng.getrandbits(63)))
    line = final_turn(world, 0, legal)
    assert line is not None
    if line[1][0] >= end:
        assert chosen == line[0]
    else:
        assert chosen is None
    # Reaching the end from one short is found in some of these turns.
    reached = 0
    for seed in range(1, 7):
        t = karanor_midgame(seed)
        t.players[0].prestige = end - 1
        moves = KE.legal_actions(t, 0)
        got = KHard(seed, TINY).closing(t, 0, moves)
        assert got is None or got in moves
        reached += got is not None
    assert reached >= 1
    # One decision, one time figure, whether the last turn's line or the search decided.
    for seed in range(1, 4):
        t = karanor_midgame(seed)
        t.players[0].prestige = end - 1
        timed = KHard(seed, TINY)
        timed.decide(t, 0, KE.legal_actions(t, 0))
        assert len(timed.times) == len(timed.cpu_times) == 1


def test_karanor_hard_bots_last_turn_is_decided_on_what_its_seat_sees() -> None:
    for s in karanor_last_turns(range(1, 3)):
        seat = s.turn_seat
        t = karanor_secrets_changed(s, seat)
        assert s.to_dict() != t.to_dict()
        view = KARANOR.view(s, seat, KARANOR.public_part(s))
        assert view == KARANOR.view(t, seat, KARANOR.public_part(t))
        legal = KE.legal_actions(s, seat)
        for seed in (1, 2):
            first = KHard(seed, TINY).decide(s, seat, legal)
            assert first == KHard(seed, TINY).decide(t, seat, legal)


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
