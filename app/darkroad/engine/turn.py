"""The turn's own steps: 1 Plan (the reset, the bump and the slot's action), 2 Move,
and 4 Rest (`end_turn`, the upkeep, the next seat, the final travel's start)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .. import actions as A
from ..content import Content
from ..state import ACTIVATE, FINAL, MOVE, PLAN, Player, State
from .core import (
    HANDLERS,
    LAST_ROUNDS,
    REMOVAL_ROUNDS,
    ROUNDS,
    TARGET_KINDS,
    Check,
    Events,
    Handler,
    OneCommand,
    err,
    intern,
    roll,
    rules,
    turn_check,
)
from .gains import (
    gain_coins,
    gain_good,
    gain_lanterns,
    gain_prestige,
    has_steed,
    rotate,
    upgrade_kind,
)

# --- step 1: plan ---------------------------------------------------------------------------


def final_rounds(s: State) -> bool:
    return s.round in LAST_ROUNDS


def _can_reset(p: Player) -> bool:
    """Not reset yet this turn, and the three locked dice match (ruling R4)."""
    return not p.reset_done and None not in p.locked and len(set(p.locked)) == 1


class ResetDice(OneCommand[A.ResetDice]):
    """Plan: reset the locked dice to 1/2/3 when all three match (ruling R4)."""

    cmd = A.ResetDice

    def listing(self, s: State, c: Content, seat: int) -> tuple[A.ResetDice, ...]:
        """`check`'s tests without its refusals (listed at every plan step, and the
        dice seldom match)."""
        if turn_check(s, seat, PLAN) or not _can_reset(s.players[seat]):
            return ()
        return self.listed

    def check(self, s: State, c: Content, seat: int, cmd: A.ResetDice) -> Check:
        refused = turn_check(s, seat, PLAN)
        if refused:
            return refused
        p = s.players[seat]
        if p.reset_done:
            return err("already_reset", "the locked dice were already reset this turn")
        if not _can_reset(p):
            return err("dice_differ", f"the locked dice {p.locked} do not all match")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.ResetDice, ev: Events) -> None:
        p = s.players[seat]
        p.locked = [1, 2, 3]
        p.reset_done = True
        ev.append({"type": "dice_reset", "seat": seat})


def _plan_options(s: State, c: Content, p: Player, slot: int) -> tuple[str | None, ...]:
    if slot == 1:
        return c.goods if final_rounds(s) else (None,)
    if slot == 2:
        if not p.special:
            return ("lantern",)
        return ("lantern", "both") if upgrade_kind(c, p, "slot2") else ("lantern", "illuminated")
    if upgrade_kind(c, p, "slot3"):
        return ("coins", "prestige")
    return ("coins", "rotate")


_PLANS: dict[tuple[Any, ...], tuple[A.Plan, ...]] = {}  # `Plan.listing`'s, by its question
_PLANS_MAX = 4096  # emptied past this


class Plan(Handler[A.Plan]):
    """Plan: bump a locked die with a reserve die and take that slot's special action."""

    cmd = A.Plan

    def listing(self, s: State, c: Content, seat: int) -> Sequence[A.Plan]:
        """The candidates whose locked slot holds a die, remembered by what `candidates`
        and that test read: the reserve's values, the illuminated values (rules 2), the
        last rounds, the slot upgrades, which slots are empty."""
        p = s.players[seat]
        ups = bool(p.upgrades)
        key = (
            c,
            frozenset(p.reserve),
            frozenset(p.special) if rules(s) >= 2 else None,
            bool(p.special),
            final_rounds(s),
            ups and upgrade_kind(c, p, "slot2"),
            ups and upgrade_kind(c, p, "slot3"),
            *[d is None for d in p.locked],
        )
        found = _PLANS.get(key)
        if found is None:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            found = _PLANS[key] = tuple(
                x for x in self.candidates(s, c, seat) if p.locked[x.slot - 1] is not None
            )
        return found

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Plan]:
        p = s.players[seat]
        dice = sorted(set(p.reserve)) if p.reserve else [None]
        # Rules 2: the illuminated die moved by slot #2 is named by its value.
        lit: list[int | None] = [*sorted(set(p.special))] if rules(s) >= 2 else [None]
        for slot in (1, 2, 3):
            for die in dice:
                for opt in _plan_options(s, c, p, slot):
                    if opt in ("illuminated", "both"):
                        for v in lit:
                            yield intern(A.Plan, slot, die, opt, v)
                    else:
                        yield intern(A.Plan, slot, die, opt)

    def check(self, s: State, c: Content, seat: int, cmd: A.Plan) -> Check:
        refused = turn_check(s, seat, PLAN)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.slot not in (1, 2, 3):
            return err("bad_slot", f"slot {cmd.slot}: the locked slots are 1, 2 and 3")
        if p.locked[cmd.slot - 1] is None:
            return err("empty_slot", f"locked slot {cmd.slot} is empty")
        if p.reserve:
            if cmd.die not in p.reserve:
                return err("no_such_die", f"no night die of value {cmd.die} in your reserve")
        elif cmd.die is not None:
            return err("no_such_die", "your reserve is empty: bump a locked die without a die")
        if cmd.option not in _plan_options(s, c, p, cmd.slot):
            return err("bad_option", f"{cmd.option!r} is not an option of slot {cmd.slot}")
        if cmd.illuminated is not None:
            if cmd.option not in ("illuminated", "both"):
                return err("bad_option", "only slot #2's illuminated option moves a die")
            if cmd.illuminated not in p.special:
                return err("no_such_die", f"no illuminated {cmd.illuminated} in your reserve")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Plan, ev: Events) -> None:
        p = s.players[seat]
        i = cmd.slot - 1
        p.pool_night = p.locked[i]
        if cmd.die is not None:
            p.reserve.remove(cmd.die)
            p.locked[i] = cmd.die
        else:
            p.locked[i] = None
        ev.append({"type": "plan", "seat": seat, "slot": cmd.slot, "die": p.pool_night})
        up = cmd.slot == 1 and upgrade_kind(c, p, "slot1")
        if cmd.slot == 1:
            good = cmd.option or c.board.crafting[cmd.die if cmd.die is not None else 0]
            gain_good(s, c, p, good, up)
        elif cmd.slot == 2:
            if cmd.option in ("lantern", "both"):
                gain_lanterns(s, c, p, 1, ev)
            if cmd.option in ("illuminated", "both"):
                # None: the die gained first (how rules 1 chose, and old commands say).
                i = 0 if cmd.illuminated is None else p.special.index(cmd.illuminated)
                p.pool_illuminated = p.special.pop(i)
        elif cmd.option == "coins":
            gain_coins(s, p, 3 if upgrade_kind(c, p, "slot3") else 2, ev, "plan")
        elif cmd.option == "prestige":
            gain_prestige(s, p, 1, ev)
        else:
            rotate(s)
            ev.append({"type": "wheel_rotated", "seat": seat})
        s.step = MOVE


# --- step 2: move -----------------------------------------------------------------------------


class Move(Handler[A.Move]):
    """Move: by one die of the action pool (or Sugarfoot's 3), then at most one horseshoe."""

    cmd = A.Move

    def listing(self, s: State, c: Content, seat: int) -> list[A.Move]:
        p = s.players[seat]
        shoes = (0, 1, -1) if p.horseshoes and not p.horseshoe_used else (0,)
        dice = ["night"] if p.pool_night is not None else []
        if p.pool_illuminated is not None:
            dice.append("illuminated")
        if has_steed(c, p, "move_three"):
            dice.append("steed")
        return [intern(A.Move, d, h) for d in dice for h in shoes]

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Move]:
        p = s.players[seat]
        shoes = (0, 1, -1) if p.horseshoes and not p.horseshoe_used else (0,)
        for die in ("night", "illuminated", "steed"):
            for h in shoes:
                yield A.Move(die, h)

    def check(self, s: State, c: Content, seat: int, cmd: A.Move) -> Check:
        refused = turn_check(s, seat, MOVE)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.die == "night" and p.pool_night is None:
            return err("no_such_die", "no night die in your action pool")
        if cmd.die == "illuminated" and p.pool_illuminated is None:
            return err("no_such_die", "no illuminated die in your action pool")
        if cmd.die == "steed" and not has_steed(c, p, "move_three"):
            return err("no_steed", "only Sugarfoot moves exactly 3 spaces")
        if cmd.die not in ("night", "illuminated", "steed"):
            return err("bad_die", f"{cmd.die!r}: move by night, illuminated or steed")
        if cmd.horseshoe not in (-1, 0, 1):
            return err("bad_horseshoe", "a horseshoe moves 1 space: -1, 0 or +1")
        if cmd.horseshoe and (p.horseshoes < 1 or p.horseshoe_used):
            return err("no_horseshoe", "no horseshoe to spend this turn")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Move, ev: Events) -> None:
        p = s.players[seat]
        steps = {"night": p.pool_night, "illuminated": p.pool_illuminated, "steed": 3}[cmd.die]
        assert steps is not None
        p.position = (p.position + steps + cmd.horseshoe) % 5
        if cmd.horseshoe:
            p.horseshoes -= 1
            s.supply["horseshoes"] += 1
            p.horseshoe_used = True
        # "to" marks a private event (view.events_for): the space is "space".
        ev.append({"type": "moved", "seat": seat, "space": p.position, "steps": steps})
        ring = c.board.ringway
        s.acts = [ring[p.position], ring[(p.position + 1) % 5]]
        if p.pool_illuminated is None:
            s.acts_left = 1
        else:
            if has_steed(c, p, "any_building"):
                s.acts += list(s.buildings)
            elif p.position < 4:
                s.acts.append(s.buildings[p.position])
            s.acts_left = 3 if len(s.acts) > 2 else 2
        s.acts_used = 0
        s.step = ACTIVATE


# --- step 4: rest ------------------------------------------------------------------------------


def can_activate(s: State, c: Content, seat: int) -> bool:
    """Whether any open district or building can be activated now (ruling R36): the first
    candidate passing `check` is enough (the Bazaar and the Excursions always can)."""
    if "bazaar" in s.acts or "excursions" in s.acts:
        return True
    for k in dict.fromkeys(k for t in s.acts for k in TARGET_KINDS.get(t, ("building",))):
        h = HANDLERS[k]
        if any(h.check(s, c, seat, x) is None for x in h.candidates(s, c, seat)):
            return True
    return False


class EndTurn(OneCommand[A.EndTurn]):
    """Rest: dice back, market rerolled, cards refilled, the next seat (ruling R36: rules 2
    first asks for one activation, if any can be made)."""

    cmd = A.EndTurn

    def check(self, s: State, c: Content, seat: int, cmd: A.EndTurn) -> Check:
        refused = turn_check(s, seat, ACTIVATE)
        if refused:
            return refused
        if rules(s) >= 2 and not s.acts_used and can_activate(s, c, seat):
            return err("must_activate", "activate 1 or both of the adjacent districts first")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.EndTurn, ev: Events) -> None:
        rest(s, c, s.players[seat], ev)


def _reroll_market(s: State, c: Content) -> None:
    """Each set-aside market die is rolled into a section holding fewer than 2 dice."""
    while s.market_aside:
        g = roll(s, c.goods)
        if s.market[g] < 2:
            s.market[g] += 1
            s.market_aside -= 1


def _refill(s: State) -> None:
    # Companions slide away from the deck, the row refills, the farthest gets a die.
    cards = [(x, d) for x, d in zip(s.row, s.row_die, strict=True) if x is not None]
    while len(cards) < 3 and s.decks["companions"]:
        cards.insert(0, (s.decks["companions"].pop(0), False))
    pad = 3 - len(cards)
    s.row = [None] * pad + [x for x, _ in cards]
    s.row_die = [False] * pad + [d for _, d in cards]
    if s.row[2] is not None and not s.row_die[2] and s.supply["travel"] > 0:
        s.row_die[2] = True
        s.supply["travel"] -= 1
    for i, h in enumerate(s.inn):
        if h is None and s.decks["heroes"]:
            s.inn[i] = s.decks["heroes"].pop(0)
    for i, d in enumerate(s.courtyard):
        if d is None and s.decks["deeds"]:
            s.courtyard[i] = s.decks["deeds"].pop(0)


def rest(s: State, c: Content, p: Player, ev: Events) -> None:
    assert p.pool_night is not None
    p.spent.append(p.pool_night)
    p.pool_night = None
    if p.pool_illuminated is not None:
        p.pool_illuminated = None
        s.supply["illuminated"] += 1
    _reroll_market(s, c)
    _refill(s)
    if s.round in REMOVAL_ROUNDS:
        # Ruling R3: the reserve is empty exactly at the end of rounds 4, 7, 9 and 10.
        assert not p.reserve, f"seat {p.seat} has dice left in round {s.round}"
        p.spent.pop()
        p.removed += 1
        s.supply["night"] += 1
        p.reserve = sorted(roll(s, c.board.night_faces) for _ in p.spent)
        p.spent = []
    p.horseshoe_used = False
    p.free_shortcut = False
    p.reset_done = False
    s.acts, s.acts_left = [], 0
    ev.append({"type": "turn_ended", "seat": p.seat, "round": s.round})
    nxt = (p.seat + 1) % s.n
    if nxt == 0:
        s.round += 1
        if s.round > ROUNDS:
            start_final(s, c, ev)
            return
        ev.append({"type": "round", "round": s.round})
    s.turn_seat = nxt
    s.step = PLAN


def start_final(s: State, c: Content, ev: Events) -> None:
    """Rulebook "Game End": everyone travels once more, delivering only."""
    s.phase = FINAL
    s.travel = {
        "leader": 0,
        "route": None,
        "town": None,
        "final": True,
        "stage": "visit",
        "travellers": list(range(s.n)),
        "visiting": list(range(s.n)),
        "event": None,
        "dice": [],
        "order": [],
    }
    ev.append({"type": "final_travel"})
