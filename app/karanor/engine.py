"""The rules of Merchants of Karanor: new_game, legal_actions, apply, outcome.

Each command type has one small handler with three parts:

* `candidates(s, c, seat)` proposes commands that might be legal,
* `check(s, c, seat, cmd)` returns the `RuleError` that refuses it, or None,
* `do(s, c, seat, cmd, ev)` changes the state (only ever after a passing check).

`legal_actions` is the candidates that pass `check`; `apply` runs `check` then
`do`. The same code lists and checks, so a listed command is always accepted
and a refused one leaves the state untouched.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.games import rng

from . import actions as A
from . import effects as fx
from . import trades
from .content import Content, load
from .errors import RuleError
from .state import ACTION, DRAFT, GAME_OVER, Business, Player, State

Events = list[dict[str, Any]]
Check = RuleError | None

_REGISTRY: dict[str, Content] = {}


def register(content: Content) -> None:
    """Make a content pack loaded from elsewhere (tests) known by its name."""
    _REGISTRY[content.name] = content


def content_of(s: State) -> Content:
    return _REGISTRY.get(s.content) or load(s.content)


# --- options and setup -------------------------------------------------------------


DEFAULT_OPTIONS: dict[str, Any] = {
    "max_players": 4,
    "public_quests": False,
    "two_player_market": True,
    "start_seat": "random",
    "end_prestige": None,
}


def normalise_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and validate the room options.

    :raises RuleError: `bad_options` naming the option at fault.
    """
    out = dict(DEFAULT_OPTIONS)
    for k, v in (options or {}).items():
        if k not in DEFAULT_OPTIONS:
            raise RuleError("bad_options", f"unknown option {k!r}")
        out[k] = v
    if (
        not isinstance(out["max_players"], int)
        or isinstance(out["max_players"], bool)
        or not (2 <= out["max_players"] <= 6)
    ):
        raise RuleError("bad_options", "max_players must be an integer from 2 to 6")
    for k in ("public_quests", "two_player_market"):
        if not isinstance(out[k], bool):
            raise RuleError("bad_options", f"{k} must be true or false")
    st = out["start_seat"]
    if st != "random" and (not isinstance(st, int) or isinstance(st, bool) or not 0 <= st < 6):
        raise RuleError("bad_options", "start_seat must be a seat number from 0 to 5 or 'random'")
    ep = out["end_prestige"]
    if ep is not None and (not isinstance(ep, int) or isinstance(ep, bool) or not 1 <= ep <= 30):
        raise RuleError("bad_options", "end_prestige must be null or an integer from 1 to 30")
    return out


def new_game(
    content: Content | str, options: dict[str, Any] | None, seed: int, players: list[str]
) -> State:
    """Set up a game: homes and stories dealt, decks shuffled, the draft dealt.

    :raises RuleError: `bad_options` for options or a player count the rules refuse.
    """
    c = content if isinstance(content, Content) else load(content)
    if isinstance(content, Content):
        register(content)
    opts = normalise_options(options)
    n = len(players)
    if not 2 <= n <= 6:
        raise RuleError("bad_options", f"{n} players: the game takes 2 to 6")
    if opts["start_seat"] != "random" and opts["start_seat"] >= n:
        raise RuleError("bad_options", f"start_seat {opts['start_seat']} but only {n} players")
    r = seed & ((1 << 64) - 1)
    few = n <= 3  # cards marked 4+ leave the game with 2-3 players

    def deck(cards: Any) -> list[str]:
        nonlocal r
        ids = [x.id for x in cards if not (few and getattr(x, "four_plus", False))]
        r = rng.shuffle(r, ids)
        return ids

    homes, stories = deck(c.homes), deck(c.stories)
    s = State(content=c.name, options=opts, seed=seed, rng=0, players=[])
    s.supply = {str(k): v for k, v in c.rules.supply.items()}
    s.badge_supply = {b.id: b.count for b in c.badges}
    s.decks = {
        "quests": deck(c.quests),
        "black_market": deck(c.black_market),
        "business": deck(c.business),
        "artifacts": deck(c.artifacts),
        "deliveries": deck(c.deliveries)[: n + 1],
    }
    s.discards = {k: [] for k in ("quests", "sequels", "black_market", "business", "artifacts")}
    s.delivery = s.decks["deliveries"].pop()
    s.inhabitants = {i.territory: i.id for i in c.inhabitants}
    s.partners_free = list(c.rules.partners)
    ev: Events = []
    for seat, name in enumerate(players):
        home = c.home[homes[seat]]
        story = c.story[stories[seat]]
        p = Player(
            seat=seat,
            name=name,
            home=home.city,
            home_tile=home.id,
            story=story.id,
            position=home.city,
            gold=story.gold,
            revenue=story.revenue,
            resources=dict.fromkeys(c.rules.supply, 0),
        )
        p.businesses.append(Business(city=home.city, card=None))
        for res, k in story.resources.items():
            fx.take_resources(s, p, res, k)
        s.players.append(p)
        if story.badge:
            fx.give_badge(s, c, p, story.badge, ev)
    if n == 2 and opts["two_player_market"]:
        s.market = {res: 0 for res in c.rules.partners}
        for res in s.market:
            if s.supply[res]:
                s.supply[res] -= 1
                s.market[res] = 1
    s.business_display = [s.decks["business"].pop() for _ in range(3)]
    for p in s.players:
        p.draft_hand = [s.decks["business"].pop() for _ in range(3)]
    if opts["start_seat"] == "random":
        r, start = rng.below(r, n)
    else:
        start = opts["start_seat"]
    s.start_seat = s.turn_seat = start
    s.rng = r
    s.prestige_history = [[0] * n]
    return s


# --- common checks -----------------------------------------------------------------


def _err(code: str, msg: str) -> RuleError:
    return RuleError(code, msg)


def _turn(s: State, seat: int, *, action: bool = True) -> Check:
    """The checks of every turn action, in order: phase, turn, actions left."""
    if s.phase != ACTION:
        return _err("wrong_phase", f"not in the action phase (phase: {s.phase})")
    if seat != s.turn_seat:
        return _err("not_your_turn", f"it is seat {s.turn_seat}'s turn, not seat {seat}'s")
    if action and s.actions_left <= 0:
        return _err("no_actions_left", "no actions left this turn: end the turn")
    return None


def _spend_action(s: State) -> None:
    s.actions_left -= 1
    s.move_left = 0  # starting another action ends a Move in progress


def _pending(s: State, seat: int, kind: str) -> dict[str, Any] | RuleError:
    if not s.pending or s.pending[0]["kind"] != kind:
        return _err("no_such_choice", f"there is no {kind.replace('_', ' ')} choice to make now")
    if s.pending[0]["seat"] != seat:
        return _err("not_your_choice", f"seat {s.pending[0]['seat']} is choosing, not you")
    return s.pending[0]


class Handler:
    """`listing` is what `legal_actions` shows for this kind once the turn state allows
    the kind (phase, seat, pending choice and actions left as `legal_actions` selects
    kinds): by default the candidates that pass `check`. Hot handlers override it with
    a direct construction; `tests/karanor/test_listing.py` proves at every state of many
    games that each override equals the candidates passing `check`."""

    cmd: type[A.Command] = A.Command
    gated = True  # the common checks of `_gate` come first (game over, seat, pending, draft)

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Command]:
        yield from ()

    def listing(self, s: State, c: Content, seat: int) -> Sequence[A.Command]:
        return [x for x in self.candidates(s, c, seat) if self.check(s, c, seat, x) is None]

    def check(self, s: State, c: Content, seat: int, cmd: Any) -> Check:
        raise NotImplementedError

    def do(self, s: State, c: Content, seat: int, cmd: Any, ev: Events) -> None:
        raise NotImplementedError


@functools.lru_cache(maxsize=8192)
def _mk(cls: type[A.Command], *args: Any) -> Any:
    """An interned command (commands are frozen values: listings reuse them)."""
    return cls(*args)


def _choice_ok(s: State, c: Content, p: Player, choice: Any) -> bool:
    """`_choice_error(...) is None` without building the refusal."""
    return fx.unmet(s, c, p, choice.requires) is None and fx.holds(p, choice.cost)


# --- the draft ------------------------------------------------------------------------


class DraftPick(Handler):
    cmd = A.DraftPick

    def candidates(self, s, c, seat):
        if s.phase == DRAFT:
            for card in s.players[seat].draft_hand:
                yield A.DraftPick(card)

    def check(self, s, c, seat, cmd):
        if s.phase != DRAFT:
            return _err("wrong_phase", "the draft is over")
        p = s.players[seat]
        if p.draft_done:
            return _err("already_picked", "you have picked this round; wait for the others")
        if cmd.card not in p.draft_hand:
            return _err("not_in_hand", f"{cmd.card} is not among the cards offered to you")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        p.draft_hand.remove(cmd.card)
        p.business_hand.append(cmd.card)
        p.draft_done = True
        ev.append({"type": "draft_picked", "seat": seat})
        ev.append({"type": "draft_pick", "to": seat, "card": cmd.card})
        if not all(q.draft_done for q in s.players):
            return
        for q in s.players:
            q.draft_done = False
        if s.draft_round == 1:
            # Keep 1, pass 2 to the player on your right: seat i+1 sits on seat i's
            # left (play goes to i+1), so seat i receives from seat i+1.
            hands = [q.draft_hand for q in s.players]
            for i, q in enumerate(s.players):
                q.draft_hand = hands[(i + 1) % s.n]
            s.draft_round = 2
            ev.append({"type": "draft_passed"})
            return
        for q in s.players:
            s.discards["business"].extend(q.draft_hand)
            q.draft_hand = []
        s.phase = ACTION
        ev.append({"type": "draft_done"})
        _begin_turn(s, c, s.start_seat, ev)


# --- pending choices -----------------------------------------------------------------


class ChooseArtifact(Handler):
    cmd = A.ChooseArtifact

    def candidates(self, s, c, seat):
        if s.pending and s.pending[0]["kind"] == "artifact":
            for a in s.pending[0]["options"]:
                yield A.ChooseArtifact(a)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "artifact")
        if isinstance(pend, RuleError):
            return pend
        if cmd.artifact not in pend["options"]:
            return _err("not_offered", f"{cmd.artifact} is not one of the two tiles drawn")
        return None

    def do(self, s, c, seat, cmd, ev):
        pend = s.pending.pop(0)
        p = s.players[seat]
        p.artifacts.append(cmd.artifact)
        s.discards["artifacts"].extend(a for a in pend["options"] if a != cmd.artifact)
        ev.append({"type": "artifact", "seat": seat, "artifact": cmd.artifact})


def _choice_error(s: State, c: Content, p: Player, choice: Any) -> Check:
    why = fx.unmet(s, c, p, choice.requires)
    if why:
        return _err("conditions_not_met", f"{choice.label}: {why}")
    if not fx.holds(p, choice.cost):
        return _err("cannot_afford", f"{choice.label}: costs {fx.bundle_words(choice.cost)}")
    return None


class QuestChoice(Handler):
    cmd = A.QuestChoice

    def candidates(self, s, c, seat):
        if s.pending and s.pending[0]["kind"] == "quest_choice":
            card = s.pending[0]["card"]
            for i in range(len(c.quest[card].immediate)):
                yield A.QuestChoice(card, i)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "quest_choice")
        if isinstance(pend, RuleError):
            return pend
        if cmd.card != pend["card"]:
            return _err("not_offered", f"the choice to make is on {pend['card']}")
        q = c.quest[cmd.card]
        if not 0 <= cmd.option < len(q.immediate):
            return _err("bad_option", f"{q.name} has options 0 to {len(q.immediate) - 1}")
        return _choice_error(s, c, s.players[seat], q.immediate[cmd.option])

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        p = s.players[seat]
        q = c.quest[cmd.card]
        choice = q.immediate[cmd.option]
        fx.pay(s, p, choice.cost)
        # Ruling R12: the card is shown once it leaves play; kept in hand it stays secret.
        shown = not q.complete or s.options.get("public_quests")
        ev.append(
            {
                "type": "quest_choice",
                "seat": seat,
                "option": cmd.option,
                **({"card": cmd.card} if shown else {}),
            }
        )
        fx.apply_rewards(s, c, p, choice.reward, ev)
        _after_immediate(s, c, p, cmd.card, ev)


def _after_immediate(s: State, c: Content, p: Player, card: str, ev: Events) -> None:
    """Ruling R12: a quest that also has completion choices stays in the hand."""
    if c.quest[card].complete:
        p.quests.append(card)
    else:
        _discard_quest(s, c, card)


def _discard_quest(s: State, c: Content, card: str) -> None:
    """Sequels have a discard pile of their own: they never join the quest deck."""
    s.discards["sequels" if card in c.sequel_ids else "quests"].append(card)


class DiscardQuest(Handler):
    cmd = A.DiscardQuest

    def candidates(self, s, c, seat):
        if s.pending and s.pending[0]["kind"] == "quest_discard":
            for card in s.players[seat].quests:
                yield A.DiscardQuest(card)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "quest_discard")
        if isinstance(pend, RuleError):
            return pend
        if cmd.card not in s.players[seat].quests:
            return _err("not_in_hand", f"{cmd.card} is not one of your quests")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        s.players[seat].quests.remove(cmd.card)
        _discard_quest(s, c, cmd.card)
        ev.append({"type": "quest_discarded", "seat": seat})
        ev.append({"type": "quest_discarded_card", "to": seat, "card": cmd.card})


class PickBusiness(Handler):
    cmd = A.PickBusiness

    def candidates(self, s, c, seat):
        if s.pending and s.pending[0]["kind"] == "business_pick":
            for card in s.business_display:
                yield A.PickBusiness(card)
            if fx.can_draw(s, "business"):
                yield A.PickBusiness("deck")

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "business_pick")
        if isinstance(pend, RuleError):
            return pend
        if cmd.card == "deck":
            if not fx.can_draw(s, "business"):
                return _err("deck_empty", "the business deck is empty: pick a displayed card")
        elif cmd.card not in s.business_display:
            return _err("not_displayed", f"{cmd.card} is not on display")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        p = s.players[seat]
        if cmd.card == "deck":
            got = fx.draw(s, "business")
            p.business_hand.extend(got)
            ev.append({"type": "business_blind", "seat": seat})
            ev.append({"type": "drew", "to": seat, "deck": "business", "cards": got})
        else:
            i = s.business_display.index(cmd.card)
            p.business_hand.append(cmd.card)
            refill = fx.draw(s, "business")
            if refill:
                s.business_display[i] = refill[0]
            else:
                s.business_display.pop(i)
            ev.append(
                {
                    "type": "business_taken",
                    "seat": seat,
                    "card": cmd.card,
                    "display": list(s.business_display),
                }
            )


# --- the seven actions ----------------------------------------------------------------


def reach(s: State, c: Content, p: Player, steps: int) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every territory within `steps` of the pawn, with the cheapest path (gold, then
    steps) the player can pay for: {territory: (gold, path)}. Do not mutate the result."""
    sea = fx.sea_cost(c, p)
    # Gold beyond what `steps` crossings could cost changes nothing: cap it in the key.
    key = (p.position, steps, sea, min(p.gold, steps * sea))
    cache = c.memo.setdefault("reach", {})
    found = cache.get(key)
    if found is None:
        found = cache[key] = _reach(c, p.position, steps, sea, key[3])
    return found


def _reach(
    c: Content, start: str, steps: int, sea: int, gold_held: int
) -> dict[str, tuple[int, tuple[str, ...]]]:
    best: dict[str, tuple[int, tuple[str, ...]]] = {start: (0, ())}
    frontier = dict(best)
    neighbours = c.neighbours
    for _ in range(steps):
        nxt: dict[str, tuple[int, tuple[str, ...]]] = {}
        for u, (gold, path) in frontier.items():
            for v, by_sea in neighbours[u]:
                g = gold + sea if by_sea else gold
                if g > gold_held:
                    continue
                old = best.get(v)
                if old is None or g < old[0]:
                    best[v] = nxt[v] = (g, (*path, v))
        frontier = nxt
        if not frontier:
            break
    del best[start]
    return best


def sea_crossings(c: Content, start: str, path: tuple[str, ...]) -> int | None:
    """Sea routes taken walking `path` from `start`, or None if two steps are not
    adjacent. Remembered for walks of a Move's length (the listed paths)."""
    memo = c.memo.setdefault("crossings", {})
    key = (start, path)
    if key in memo:
        return memo[key]
    crossings: int | None = _walk(c, start, path)
    if len(path) <= MEMO_PATH_STEPS:  # a client's long made-up walk is not kept
        memo[key] = crossings
    return crossings


MEMO_PATH_STEPS = 4  # at most ~40 x 4^4 walks remembered, whatever clients send


def _walk(c: Content, start: str, path: tuple[str, ...]) -> int | None:
    crossings, here = 0, start
    for t in path:
        step = next((by_sea for v, by_sea in c.neighbours.get(here, ()) if v == t), None)
        if step is None:
            return None
        crossings += step
        here = t
    return crossings


_HARVEST = (A.Harvest(),)
_WORK = (A.Work(),)
_INTERACT = (A.Interact(),)
_DELIVER = (A.Deliver(),)
_END_TURN = (A.EndTurn(),)
_MOVES: dict[tuple[str, ...], A.Move] = {}  # commands are values: one object per path


def _move(path: tuple[str, ...]) -> A.Move:
    cmd = _MOVES.get(path)
    if cmd is None:
        cmd = _MOVES[path] = A.Move(path[-1], path)
    return cmd


def move_listing(c: Content, p: Player, move_left: int, fresh: int, sea: int) -> tuple[A.Move, ...]:
    """The Moves `p` may make: the steps left of the Move in progress, then a new Move of
    `fresh` steps (0: no action left), sorted by destination. Cached like `reach()`; the
    gold is capped at what the longer of the two could cost."""
    key = (p.position, move_left, fresh, sea, min(p.gold, max(move_left, fresh) * sea))
    cache = c.memo.setdefault("move_listing", {})
    found = cache.get(key)
    if found is None:
        cont = _reach(c, p.position, move_left, sea, min(p.gold, move_left * sea))
        new = _reach(c, p.position, fresh, sea, min(p.gold, fresh * sea))
        found = cache[key] = tuple(
            _move((cont.get(dest) or new[dest])[1]) for dest in sorted(cont.keys() | new.keys())
        )
    return found


class Move(Handler):
    """Ruling R2: a Move may be split; the steps left of the Move in progress are
    used first, at no action, until another action or a card ends it."""

    cmd = A.Move

    def candidates(self, s, c, seat):
        if _turn(s, seat, action=False):
            return
        p = s.players[seat]
        cont = reach(s, c, p, s.move_left) if s.move_left else {}
        fresh = reach(s, c, p, fx.move_steps(c, p)) if s.actions_left > 0 else {}
        for dest in sorted(cont.keys() | fresh.keys()):
            yield _move((cont.get(dest) or fresh[dest])[1])

    def listing(self, s, c, seat):
        p = s.players[seat]
        steps, sea = fx.move_and_sea(c, p)
        return move_listing(c, p, s.move_left, steps if s.actions_left > 0 else 0, sea)

    def _plan(
        self, s: State, c: Content, p: Player, cmd: A.Move
    ) -> tuple[int, tuple, bool, int] | RuleError:
        """(gold, path, continues the Move in progress, steps of a new Move) or the refusal."""
        if cmd.to not in c.territory:
            return _err("unknown_territory", f"no territory {cmd.to!r} on the map")
        if cmd.to == p.position:
            return _err("already_there", f"you are already at {c.territory[cmd.to].name}")
        steps, sea = fx.move_and_sea(c, p)
        if cmd.path is not None:
            if cmd.path[-1] != cmd.to:
                return _err("bad_path", "a path ends at its destination")
            crossings = sea_crossings(c, p.position, cmd.path)
            if crossings is None:
                return _err("bad_path", f"{'-'.join(cmd.path)} is not a walk between neighbours")
            gold = crossings * sea
            if gold > p.gold:
                return _err("not_enough_gold", f"that path crosses the sea for {gold} gold")
            if len(cmd.path) <= s.move_left:
                return gold, cmd.path, True, steps
            if len(cmd.path) > steps:
                return _err("too_far", f"a Move goes {steps} territories at most")
            return gold, cmd.path, False, steps
        if s.move_left:
            found = reach(s, c, p, s.move_left).get(cmd.to)
            if found:
                return found[0], found[1], True, steps
        found = reach(s, c, p, steps).get(cmd.to)
        if not found:
            return _err(
                "unreachable",
                f"{c.territory[cmd.to].name} is out of reach this Move "
                f"({steps} territories, sea crossings "
                f"{sea} gold each, {p.gold} gold held)",
            )
        return found[0], found[1], False, steps

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat, action=False)
        if err:
            return err
        plan = self._plan(s, c, s.players[seat], cmd)
        if isinstance(plan, RuleError):
            return plan
        if not plan[2] and s.actions_left <= 0:
            return _err("no_actions_left", "no actions left this turn for a new Move")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        plan = self._plan(s, c, p, cmd)
        assert not isinstance(plan, RuleError)
        gold, path, continues, steps = plan
        if continues:
            s.move_left -= len(path)
        else:
            _spend_action(s)
            s.move_left = steps - len(path)
        p.gold -= gold
        p.position = cmd.to
        ev.append(
            {
                "type": "move",
                "seat": seat,
                "path": list(path),
                "gold": gold,
                "action": not continues,
            }
        )


class Harvest(Handler):
    cmd = A.Harvest

    def candidates(self, s, c, seat):
        if c.territory[s.players[seat].position].resource:
            yield A.Harvest()

    def listing(self, s, c, seat):
        res = c.territory[s.players[seat].position].resource
        return _HARVEST if res and s.supply[res] > 0 else ()

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        t = c.territory[s.players[seat].position]
        if t.resource is None:
            return _err("no_resource_here", f"nothing to harvest at {t.name}")
        if s.supply[t.resource] <= 0:
            return _err("supply_empty", f"the {t.resource} supply is exhausted")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        _spend_action(s)
        res = c.territory[p.position].resource
        assert res is not None
        n = c.rules.harvest + fx.mods(c, p)["harvest"]
        got = fx.take_resources(s, p, res, max(1, n))
        ev.append(
            {
                "type": "harvest",
                "seat": seat,
                "resource": res,
                "count": got,
                "territory": p.position,
            }
        )


class Work(Handler):
    cmd = A.Work

    def candidates(self, s, c, seat):
        yield A.Work()

    def listing(self, s, c, seat):
        return () if fx.mods(c, s.players[seat])["no_work"] else _WORK

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        if fx.mods(c, s.players[seat])["no_work"]:
            return _err("cannot_work", "a badge forbids you to work")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        _spend_action(s)
        gold = max(0, 1 + fx.mods(c, p)["work"])
        p.gold += gold
        ev.append({"type": "work", "seat": seat, "gold": gold})


def _build_costs(c: Content) -> dict[str, tuple[tuple[A.Build, int, int, tuple], ...]]:
    """Each business card's Build commands (plain, then with the bonus) with what they
    cost: (command, gold, gold the build discount lowers, resources)."""
    table = c.memo.get("build_costs")
    if table is None:
        table = c.memo["build_costs"] = {}
        for card_id, card in c.business_card.items():
            need = dict(card.cost.resources)
            costs = [(A.Build(card_id, False), 0, card.cost.gold, tuple(need.items()))]
            if card.bonus:
                for r, k in card.bonus.cost.resources.items():
                    need[r] = need.get(r, 0) + k
                bonus = (A.Build(card_id, True), card.bonus.cost.gold, card.cost.gold)
                costs.append((*bonus, tuple(need.items())))
            table[card_id] = tuple(costs)
    return table


class Build(Handler):
    cmd = A.Build

    def candidates(self, s, c, seat):
        p = s.players[seat]
        if p.position in c.cities:
            for card in p.business_hand:
                yield A.Build(card, False)
                if c.business_card[card].bonus:
                    yield A.Build(card, True)

    def listing(self, s, c, seat):
        p = s.players[seat]
        if (
            not p.business_hand
            or p.position not in c.cities
            or p.has_business_in(p.position)
            or p.pawns() >= c.rules.pawns_per_player
        ):
            return ()
        off = fx.mods(c, p)["build_discount"]
        held = p.resources
        out = []
        table = _build_costs(c)
        for card_id in p.business_hand:
            for cmd, gold, discounted, need in table[card_id]:
                if p.gold >= gold + max(0, discounted - off) and all(
                    held.get(r, 0) >= k for r, k in need
                ):
                    out.append(cmd)
        return out

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        p = s.players[seat]
        if cmd.card not in p.business_hand:
            return _err("not_in_hand", f"{cmd.card} is not one of your business cards")
        card = c.business_card[cmd.card]
        if p.position not in c.cities:
            return _err("not_in_city", "a business is built in one of the 7 cities")
        if p.has_business_in(p.position):
            return _err(
                "already_built_here",
                f"you already have a business in "
                f"{c.territory[p.position].name} (one per player per city)",
            )
        if p.pawns() >= c.rules.pawns_per_player:
            return _err("no_pawns_left", f"all {c.rules.pawns_per_player} of your pawns are placed")
        if cmd.bonus and not card.bonus:
            return _err("no_bonus", f"{card.name} has no optional bonus")
        off = fx.mods(c, p)["build_discount"]
        total_gold = max(0, card.cost.gold - off) + (
            card.bonus.cost.gold if cmd.bonus and card.bonus else 0
        )
        need = dict(card.cost.resources)
        if cmd.bonus and card.bonus:
            for r, k in card.bonus.cost.resources.items():
                need[r] = need.get(r, 0) + k
        if p.gold < total_gold or any(p.resources.get(r, 0) < k for r, k in need.items()):
            return _err(
                "cannot_afford",
                f"{card.name} costs {fx.bundle_words(card.cost)}"
                + (
                    f" plus {fx.bundle_words(card.bonus.cost)} for the bonus"
                    if cmd.bonus and card.bonus
                    else ""
                ),
            )
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        card = c.business_card[cmd.card]
        _spend_action(s)
        paid = fx.pay(s, p, card.cost, gold_off=fx.mods(c, p)["build_discount"])
        p.business_hand.remove(cmd.card)
        p.businesses.append(Business(city=p.position, card=cmd.card))
        ev.append(
            {
                "type": "build",
                "seat": seat,
                "card": cmd.card,
                "city": p.position,
                "bonus": cmd.bonus,
                "gold": paid,
            }
        )
        fx.apply_rewards(s, c, p, card.opening, ev)
        if cmd.bonus and card.bonus:
            fx.pay(s, p, card.bonus.cost)
            fx.apply_rewards(s, c, p, card.bonus.reward, ev)
        if s.business_display or fx.can_draw(s, "business"):
            s.pending.append({"kind": "business_pick", "seat": seat})


class Interact(Handler):
    cmd = A.Interact

    def candidates(self, s, c, seat):
        if s.players[seat].position in s.inhabitants:
            yield A.Interact()

    def listing(self, s, c, seat):
        if s.players[seat].position in s.inhabitants and fx.can_draw(s, "quests"):
            return _INTERACT
        return ()

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        where = s.players[seat].position
        if where not in s.inhabitants:
            return _err("no_inhabitant", f"no inhabitant at {c.territory[where].name}")
        if not fx.can_draw(s, "quests"):
            return _err("deck_empty", "the quest deck is empty")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        _spend_action(s)
        who = s.inhabitants.pop(p.position)
        ev.append({"type": "interact", "seat": seat, "inhabitant": who, "territory": p.position})
        fx.give_quests(s, c, p, 1, ev)


def _completions(c: Content) -> dict[str, tuple[tuple[A.CompleteQuest, str | None, Any], ...]]:
    """Each quest's completion commands, each with the territory its choice requires (a
    quick refusal before the whole check; most completions are tied to one place)."""
    table = c.memo.get("completions")
    if table is None:
        table = c.memo["completions"] = {
            card: tuple(
                (A.CompleteQuest(card, i), next((x.at for x in ch.requires if x.at), None), ch)
                for i, ch in enumerate(q.complete)
            )
            for card, q in c.quest.items()
        }
    return table


class CompleteQuest(Handler):
    cmd = A.CompleteQuest

    def candidates(self, s, c, seat):
        for card in s.players[seat].quests:
            for i in range(len(c.quest[card].complete)):
                yield A.CompleteQuest(card, i)

    def listing(self, s, c, seat):
        p = s.players[seat]
        if not p.quests:
            return ()
        here = p.position
        table = _completions(c)
        return [
            cmd
            for card in p.quests
            for cmd, at, choice in table[card]
            if (at is None or at == here) and _choice_ok(s, c, p, choice)
        ]

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        p = s.players[seat]
        if cmd.card not in p.quests:
            return _err("not_in_hand", f"{cmd.card} is not one of your quests")
        q = c.quest[cmd.card]
        if not 0 <= cmd.option < len(q.complete):
            return _err("bad_option", f"{q.name} has completion options 0 to {len(q.complete) - 1}")
        return _choice_error(s, c, p, q.complete[cmd.option])

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        q = c.quest[cmd.card]
        choice = q.complete[cmd.option]
        _spend_action(s)
        fx.pay(s, p, choice.cost)
        p.quests.remove(cmd.card)
        ev.append({"type": "quest_done", "seat": seat, "card": cmd.card, "option": cmd.option})
        fx.apply_rewards(s, c, p, choice.reward, ev)
        if q.prestige:
            fx.gain_prestige(s, c, p, q.prestige, ev)
        _discard_quest(s, c, cmd.card)
        if q.sequel:
            if _sequel_out(s, q.sequel):
                # Ruling R13c: the sequel card exists once; a first part completed again
                # (back through the reshuffled discards) gives none while it is out.
                ev.append({"type": "sequel_out", "seat": seat, "card": q.sequel})
            else:
                # Ruling R13: the sequel goes straight to the hand, counts toward the limit.
                ev.append({"type": "sequel", "seat": seat, "card": q.sequel})
                fx.receive_quest(s, c, p, q.sequel, ev)


def _sequel_out(s: State, card: str) -> bool:
    """Whether the sequel card `card` is already somewhere: in a hand (shared quests are
    hands shown to all), waiting as a choice, or discarded."""
    return (
        card in s.discards["sequels"]
        or any(card in p.quests for p in s.players)
        or any(x.get("card") == card for x in s.pending)
    )


class Deliver(Handler):
    cmd = A.Deliver

    def candidates(self, s, c, seat):
        if s.delivery and c.delivery[s.delivery].city == s.players[seat].position:
            yield A.Deliver()

    def listing(self, s, c, seat):
        if not s.delivery:
            return ()
        d = c.delivery[s.delivery]
        p = s.players[seat]
        if d.city != p.position or any(p.resources.get(r, 0) < k for r, k in d.resources.items()):
            return ()
        return _DELIVER

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        if s.delivery is None:
            return _err("no_delivery", "every delivery has been made")
        d = c.delivery[s.delivery]
        p = s.players[seat]
        if p.position != d.city:
            return _err("wrong_city", f"the delivery goes to {c.territory[d.city].name}")
        if any(p.resources.get(r, 0) < k for r, k in d.resources.items()):
            need = ", ".join(f"{k} {r}" for r, k in d.resources.items())
            return _err("cannot_afford", f"the delivery needs {need}")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        assert s.delivery is not None
        d = c.delivery[s.delivery]
        _spend_action(s)
        for r, k in d.resources.items():
            p.resources[r] -= k
            s.supply[r] += k
        gold = d.gold + fx.mods(c, p)["delivery_gold"]
        p.gold += gold
        ev.append({"type": "deliver", "seat": seat, "card": d.id, "gold": gold})
        fx.gain_prestige(s, c, p, d.prestige, ev)
        s.delivery = s.decks["deliveries"].pop() if s.decks["deliveries"] else None
        ev.append({"type": "delivery_revealed", "card": s.delivery})


class RecruitPartner(Handler):
    cmd = A.RecruitPartner

    def candidates(self, s, c, seat):
        for res in s.partners_free:
            yield A.RecruitPartner(res)

    def listing(self, s, c, seat):
        if not s.partners_free:
            return ()
        p = s.players[seat]
        if p.gold < max(0, c.rules.partner_cost - fx.mods(c, p)["partner_discount"]):
            return ()
        return [_mk(A.RecruitPartner, res) for res in s.partners_free]

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        if cmd.resource not in s.partners_free:
            return _err("partner_taken", f"no {cmd.resource} partner is free")
        p = s.players[seat]
        cost = max(0, c.rules.partner_cost - fx.mods(c, p)["partner_discount"])
        if p.gold < cost:
            return _err("not_enough_gold", f"a partner costs {cost} gold")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        _spend_action(s)
        cost = max(0, c.rules.partner_cost - fx.mods(c, p)["partner_discount"])
        p.gold -= cost
        s.partners_free.remove(cmd.resource)
        p.partners[cmd.resource] = False
        ev.append({"type": "partner", "seat": seat, "resource": cmd.resource, "gold": cost})


class BuyVilla(Handler):
    cmd = A.BuyVilla

    def candidates(self, s, c, seat):
        v = c.territory[s.players[seat].position].villa
        if v:
            yield A.BuyVilla(v.id)

    def listing(self, s, c, seat):
        p = s.players[seat]
        v = c.territory[p.position].villa
        if (
            not v
            or v.id in s.villa_owner
            or c.villas.get(v.id) != p.position
            or p.pawns() >= c.rules.pawns_per_player
            or p.gold < max(0, c.rules.villa_cost - fx.mods(c, p)["villa_discount"])
        ):
            return ()
        return (_mk(A.BuyVilla, v.id),)

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat)
        if err:
            return err
        p = s.players[seat]
        where = c.villas.get(cmd.villa)
        if where is None:
            return _err("unknown_villa", f"no villa {cmd.villa!r}")
        if p.position != where:
            return _err("not_here", f"that villa stands at {c.territory[where].name}")
        if cmd.villa in s.villa_owner:
            return _err("villa_owned", "that villa already belongs to a merchant")
        if p.pawns() >= c.rules.pawns_per_player:
            return _err("no_pawns_left", f"all {c.rules.pawns_per_player} of your pawns are placed")
        cost = max(0, c.rules.villa_cost - fx.mods(c, p)["villa_discount"])
        if p.gold < cost:
            return _err("not_enough_gold", f"the villa costs {cost} gold")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        _spend_action(s)
        cost = max(0, c.rules.villa_cost - fx.mods(c, p)["villa_discount"])
        p.gold -= cost
        p.villas.append(cmd.villa)
        s.villa_owner[cmd.villa] = seat
        ev.append({"type": "villa", "seat": seat, "villa": cmd.villa, "gold": cost})
        fx.gain_prestige(s, c, p, 1, ev)


def market_prices(
    market: dict[str, int],
    maximum: int,
    buy: A.Pairs,
    sell: A.Pairs,
    price_buy: int,
    price_sell: int,
) -> tuple[int, int] | str:
    """(gold paid, gold earned) for a market visit, or why it is refused.

    The first token bought from a full pile costs 2; the first sold to an empty
    pile earns 2 (rulebook, Market, "Price variance")."""
    pay = earn = 0
    for res, k in buy:
        pile = market.get(res)
        if pile is None:
            return f"the market does not trade {res}"
        if pile < k:
            return f"the market holds {pile} {res}"
        for i in range(k):
            pay += 2 if (i == 0 and pile == maximum) else price_buy
    for res, k in sell:
        pile = market.get(res)
        if pile is None:
            return f"the market does not trade {res}"
        if pile + k > maximum:
            return f"the market holds at most {maximum} {res}"
        for i in range(k):
            earn += 2 if (i == 0 and pile == 0) else price_sell
    return pay, earn


def _market_visits(c: Content, traded: tuple[str, ...]) -> tuple[A.Market, ...]:
    """Every well-formed visit to a market trading `traded`: buy 1-2, sell 1-2, or buy 1
    and sell 1 of another resource. Built once; listings only price them."""
    memo = c.memo.setdefault("market_visits", {})
    found = memo.get(traded)
    if found is None:
        singles = [((r, 1),) for r in traded]
        doubles = [((r, 2),) for r in traded] + [
            ((a, 1), (b, 1)) for a, b in itertools.combinations(traded, 2)
        ]
        found = memo[traded] = (
            *(A.Market(buy=b) for b in singles + doubles),
            *(A.Market(sell=sl) for sl in singles + doubles),
            *(
                A.Market(buy=b, sell=sl)
                for b, sl in itertools.product(singles, singles)
                if b[0][0] != sl[0][0]
            ),
        )
    return found


class Market(Handler):
    """Two players only: buy 1-2, sell 1-2, or buy 1 and sell 1 (rulebook, Market)."""

    cmd = A.Market

    def listing(self, s, c, seat):
        if s.market is None:
            return ()
        p = s.players[seat]
        r = c.rules
        out = []
        for cmd in _market_visits(c, tuple(s.market)):
            prices = market_prices(
                s.market, r.market_max, cmd.buy, cmd.sell, r.market_buy, r.market_sell
            )
            if (
                not isinstance(prices, str)
                and all(p.resources.get(res, 0) >= k for res, k in cmd.sell)
                and p.gold + prices[1] >= prices[0]
            ):
                out.append(cmd)
        return out

    def candidates(self, s, c, seat):
        if s.market is not None:
            yield from _market_visits(c, tuple(s.market))

    def check(self, s, c, seat, cmd):
        if s.market is None:
            return _err("no_market", "the market is used only in two-player games with the option")
        err = _turn(s, seat)
        if err:
            return err
        nb, ns = sum(k for _, k in cmd.buy), sum(k for _, k in cmd.sell)
        if (nb, ns) not in ((1, 0), (2, 0), (0, 1), (0, 2), (1, 1)):
            return _err("bad_market", "buy 1 or 2, sell 1 or 2, or buy 1 and sell 1")
        if nb and ns and cmd.buy[0][0] == cmd.sell[0][0]:
            return _err("bad_market", "buying and selling the same resource in one visit")
        prices = market_prices(
            s.market, c.rules.market_max, cmd.buy, cmd.sell, c.rules.market_buy, c.rules.market_sell
        )
        if isinstance(prices, str):
            return _err("bad_market", prices)
        p = s.players[seat]
        if any(p.resources.get(r, 0) < k for r, k in cmd.sell):
            return _err("cannot_afford", "you do not hold what you want to sell")
        if p.gold + prices[1] < prices[0]:
            return _err("not_enough_gold", f"buying costs {prices[0]} gold")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        assert s.market is not None
        prices = market_prices(
            s.market,
            c.rules.market_max,
            cmd.buy,
            cmd.sell,
            c.rules.market_buy,
            c.rules.market_sell,
        )
        assert not isinstance(prices, str)
        pay, earn = prices
        _spend_action(s)
        for r, k in cmd.sell:
            p.resources[r] -= k
            s.market[r] += k
        for r, k in cmd.buy:
            p.resources[r] = p.resources.get(r, 0) + k
            s.market[r] -= k
        p.gold += earn - pay
        ev.append(
            {
                "type": "market",
                "seat": seat,
                "buy": dict(cmd.buy),
                "sell": dict(cmd.sell),
                "paid": pay,
                "earned": earn,
            }
        )


class EndTurn(Handler):
    cmd = A.EndTurn

    def candidates(self, s, c, seat):
        yield A.EndTurn()

    def listing(self, s, c, seat):
        return _END_TURN

    def check(self, s, c, seat, cmd):
        return _turn(s, seat, action=False)

    def do(self, s, c, seat, cmd, ev):
        _revenue(s, c, s.players[seat], ev)
        nxt = (seat + 1) % s.n
        if nxt == s.start_seat:
            s.prestige_history.append([p.prestige for p in s.players])
            if s.end_triggered_by is not None:
                _finish(s, c, ev)
                return
            s.round += 1
        _begin_turn(s, c, nxt, ev)


def _revenue(s: State, c: Content, p: Player, ev: Events) -> None:
    """Revenue phase: the revenue track plus each partner (a resource, or 1 gold once
    promoted). Ruling R5: a partner's resource is lost if the supply is empty."""
    gold = max(0, p.revenue + fx.mods(c, p)["revenue"])
    got: dict[str, int] = {}
    for res, promoted in p.partners.items():
        if promoted:
            gold += 1
        elif fx.take_resources(s, p, res, 1):
            got[res] = 1
    p.gold += gold
    ev.append({"type": "revenue_phase", "seat": p.seat, "gold": gold, "resources": got})


def _begin_turn(s: State, c: Content, seat: int, ev: Events) -> None:
    p = s.players[seat]
    s.turn_seat = seat
    s.actions_left = max(
        0, c.rules.actions_per_turn + fx.mods(c, p)["actions"] + p.bonus_actions - p.lost_actions
    )
    p.bonus_actions = p.lost_actions = 0
    s.move_left = 0
    for q in s.players:
        q.powers_used.clear()
    ev.append({"type": "turn", "seat": seat, "round": s.round, "actions": s.actions_left})


def _finish(s: State, c: Content, ev: Events) -> None:
    s.phase = GAME_OVER
    s.pending.clear()
    fx.close_offers(s, "closed", ev)
    o = outcome(s)
    assert o is not None
    s.result = {"winners": list(o.winners), "scores": list(o.scores)}
    ev.append({"type": "game_over", "winners": list(o.winners)})


# --- free plays: no action unless the card says so -------------------------------------


def _free(s: State, seat: int) -> Check:
    if s.phase != ACTION:
        return _err("wrong_phase", f"not in the action phase (phase: {s.phase})")
    return None


class PromotePartner(Handler):
    """Ruling R18: each partner may be promoted once, at any time, at no action."""

    cmd = A.PromotePartner

    def candidates(self, s, c, seat):
        for res, promoted in s.players[seat].partners.items():
            if not promoted:
                yield A.PromotePartner(res)

    def listing(self, s, c, seat):
        partners = s.players[seat].partners
        return [_mk(A.PromotePartner, r) for r, promoted in partners.items() if not promoted]

    def check(self, s, c, seat, cmd):
        err = _free(s, seat)
        if err:
            return err
        p = s.players[seat]
        if cmd.resource not in p.partners:
            return _err("not_your_partner", f"you have no {cmd.resource} partner")
        if p.partners[cmd.resource]:
            return _err("already_promoted", f"your {cmd.resource} partner is already promoted")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.players[seat].partners[cmd.resource] = True
        ev.append({"type": "promote", "seat": seat, "resource": cmd.resource})


def bm_targets(s: State, c: Content, seat: int, kind: str) -> list[int]:
    """Who a black-market card may target ('protect' shields a player)."""
    p = s.players[seat]
    others = [q for q in s.players if q.seat != seat and not fx.mods(c, q)["protect"]]
    if kind == "any":
        return [q.seat for q in others]
    if kind == "same_territory":
        return [q.seat for q in others if q.position == p.position]
    if kind == "same_city":
        return [q.seat for q in others if q.position == p.position and p.position in c.cities]
    if kind == "leader":
        top = max((q.prestige for q in s.players if q.seat != seat), default=0)
        return [q.seat for q in others if q.prestige == top]
    return []


class PlayBlackMarket(Handler):
    cmd = A.PlayBlackMarket

    def listing(self, s, c, seat):
        p = s.players[seat]
        if not p.black_market:
            return ()
        on_turn = seat == s.turn_seat
        out = []
        for card_id in dict.fromkeys(p.black_market):
            card = c.black_market_card[card_id]
            if (
                (card.when == "own_turn" and not on_turn)
                or (card.when == "off_turn" and on_turn)
                or (card.action and not (on_turn and s.actions_left > 0))
                or fx.unmet(s, c, p, card.requires) is not None
                or not fx.holds(p, card.cost)
            ):
                continue
            if card.target == "none":
                out.append(_mk(A.PlayBlackMarket, card_id, None, None))
                continue
            for t in bm_targets(s, c, seat, card.target):
                if card.names_resource:
                    for res, k in s.players[t].resources.items():
                        if k > 0:
                            out.append(_mk(A.PlayBlackMarket, card_id, t, res))
                else:
                    out.append(_mk(A.PlayBlackMarket, card_id, t, None))
        return out

    def candidates(self, s, c, seat):
        p = s.players[seat]
        for card_id in dict.fromkeys(p.black_market):
            card = c.black_market_card[card_id]
            if card.target == "none":
                yield A.PlayBlackMarket(card_id)
                continue
            for t in bm_targets(s, c, seat, card.target):
                if card.names_resource:
                    for res, k in s.players[t].resources.items():
                        if k > 0:
                            yield A.PlayBlackMarket(card_id, t, res)
                else:
                    yield A.PlayBlackMarket(card_id, t)

    def check(self, s, c, seat, cmd):
        err = _free(s, seat)
        if err:
            return err
        p = s.players[seat]
        if cmd.card not in p.black_market:
            return _err("not_in_hand", f"{cmd.card} is not one of your black-market cards")
        card = c.black_market_card[cmd.card]
        if card.when == "own_turn" and seat != s.turn_seat:
            return _err("not_your_turn", f"{card.name} is played on your own turn")
        if card.when == "off_turn" and seat == s.turn_seat:
            return _err("card_timing", f"{card.name} is played during another player's turn")
        if card.action:
            err = _turn(s, seat)
            if err:
                return err
        why = fx.unmet(s, c, p, card.requires)
        if why:
            return _err("conditions_not_met", f"{card.name}: {why}")
        if not fx.holds(p, card.cost):
            return _err("cannot_afford", f"{card.name} costs {fx.bundle_words(card.cost)}")
        if card.target == "none":
            if cmd.target is not None or cmd.resource is not None:
                return _err("bad_target", f"{card.name} has no target")
            return None
        if cmd.target is None:
            return _err("bad_target", f"{card.name} needs a target")
        if cmd.target not in bm_targets(s, c, seat, card.target):
            return _err(
                "bad_target",
                f"seat {cmd.target} cannot be targeted by {card.name} now "
                f"(target: {card.target.replace('_', ' ')})",
            )
        if card.names_resource:
            if cmd.resource is None or s.players[cmd.target].resources.get(cmd.resource, 0) <= 0:
                return _err("bad_target", f"{card.name}: name a resource the target holds")
        elif cmd.resource is not None:
            return _err("bad_target", f"{card.name} names no resource")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        card = c.black_market_card[cmd.card]
        if card.action:
            _spend_action(s)
        if seat == s.turn_seat:
            s.move_left = 0  # playing a card ends your Move in progress
        fx.pay(s, p, card.cost)
        p.black_market.remove(cmd.card)
        s.discards["black_market"].append(cmd.card)
        ev.append(
            {
                "type": "black_market",
                "seat": seat,
                "card": cmd.card,
                "target": cmd.target,
                "resource": cmd.resource,
            }
        )
        fx.apply_rewards(s, c, p, card.reward, ev)
        if cmd.target is not None:
            fx.apply_hits(s, c, p, s.players[cmd.target], card.hit, cmd.resource, ev)


class UseArtifact(Handler):
    """Ruling R26: a power without an action cost may be used at any time, like a
    black-market card; one that costs an action only on your turn."""

    cmd = A.UseArtifact

    def listing(self, s, c, seat):
        return super().listing(s, c, seat) if s.players[seat].artifacts else ()

    def candidates(self, s, c, seat):
        for a in dict.fromkeys(s.players[seat].artifacts):
            if c.artifact[a].activate:
                yield A.UseArtifact(a)

    def check(self, s, c, seat, cmd):
        err = _free(s, seat)
        if err:
            return err
        p = s.players[seat]
        if cmd.artifact not in p.artifacts:
            return _err("not_yours", f"you do not own {cmd.artifact}")
        power = c.artifact[cmd.artifact].activate
        if power is None:
            return _err("no_power", f"{c.artifact[cmd.artifact].name} has no power to use")
        if cmd.artifact in p.powers_spent or (
            power.once_per == "turn" and cmd.artifact in p.powers_used
        ):
            return _err(
                "power_used", f"{c.artifact[cmd.artifact].name} is used once per {power.once_per}"
            )
        if power.action:
            err = _turn(s, seat)
            if err:
                return err
        why = fx.unmet(s, c, p, power.requires)
        if why:
            return _err("conditions_not_met", why)
        if not fx.holds(p, power.cost):
            return _err("cannot_afford", f"the power costs {fx.bundle_words(power.cost)}")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        power = c.artifact[cmd.artifact].activate
        assert power is not None
        if power.action:
            _spend_action(s)
        if seat == s.turn_seat:
            s.move_left = 0
        (p.powers_spent if power.once_per == "game" else p.powers_used).append(cmd.artifact)
        fx.pay(s, p, power.cost)
        ev.append({"type": "artifact_used", "seat": seat, "artifact": cmd.artifact})
        fx.apply_rewards(s, c, p, power.reward, ev)


# --- trades ---------------------------------------------------------------------------


class Trade(Handler):
    """Offers, counters, acceptances, refusals and withdrawals (`trades.py`): free-form,
    so never listed; their own gate (`trades.closed_reason`) replaces the turn's."""

    gated = False

    def __init__(self, cmd: type[A.Command]) -> None:
        self.cmd = cmd

    def candidates(self, s, c, seat):
        return iter(())

    def check(self, s, c, seat, cmd):
        return trades.check(s, c, seat, cmd)

    def do(self, s, c, seat, cmd, ev):
        trades.do(s, c, seat, cmd, ev)


# --- dispatch ------------------------------------------------------------------------

HANDLERS: dict[str, Handler] = {
    h.cmd.type: h
    for h in (
        DraftPick(), ChooseArtifact(), QuestChoice(), DiscardQuest(), PickBusiness(),
        Move(), Harvest(), Work(), Build(), Interact(), CompleteQuest(), Deliver(),
        RecruitPartner(), BuyVilla(), Market(), EndTurn(), PromotePartner(),
        PlayBlackMarket(), UseArtifact(),
        *(Trade(t) for t in (A.Offer, A.Accept, A.Decline, A.Withdraw, A.Counter)),
    )
}  # fmt: skip
ANSWERS = {
    "artifact": "choose_artifact",
    "quest_choice": "quest_choice",
    "quest_discard": "discard_quest",
    "business_pick": "pick_business",
}
TURN_ORDER = (
    "move", "harvest", "work", "build", "interact", "complete_quest", "deliver",
    "recruit_partner", "buy_villa", "market", "play_black_market", "use_artifact",
    "promote_partner", "end_turn",
)  # fmt: skip
# A shortcut for listing only (check() still decides): which kinds can be legal off-turn,
# and which on your turn once no action is left.
OFF_TURN = ("play_black_market", "use_artifact", "promote_partner")
NO_ACTION_LEFT = ("move", *OFF_TURN, "end_turn")


def _gate(s: State, seat: int, kind: str) -> Check:
    """Checks common to every command, in a fixed order: game over, seat, pending choice."""
    if s.phase == GAME_OVER:
        return _err("game_over", "the game is over")
    if not isinstance(seat, int) or not 0 <= seat < len(s.players):
        return _err("not_a_player", f"seat {seat!r} is not in this game")
    if s.pending:
        head = s.pending[0]
        if ANSWERS[head["kind"]] != kind:
            who = "you" if head["seat"] == seat else f"seat {head['seat']}"
            return _err(
                "pending_choice",
                f"{who} must first make a choice ({head['kind'].replace('_', ' ')})",
            )
    elif kind in ANSWERS.values():
        return _err("no_such_choice", "there is no choice to make now")
    if s.phase == DRAFT and kind != "draft_pick":
        return _err("wrong_phase", "the draft comes first: pick a business card")
    return None


def listed_kinds(s: State, seat: int) -> tuple[str, ...]:
    """The command kinds that can be legal for `seat` now, in listing order (a shortcut
    for listing only: `check` still decides)."""
    if s.phase == GAME_OVER or not 0 <= seat < s.n:
        return ()
    if s.pending:
        if s.pending[0]["seat"] != seat:
            return ()
        return (ANSWERS[s.pending[0]["kind"]],)
    if s.phase == DRAFT:
        return ("draft_pick",)
    if seat != s.turn_seat:
        return OFF_TURN
    if s.actions_left <= 0:
        return NO_ACTION_LEFT
    return TURN_ORDER


def legal_actions(s: State, seat: int) -> list[A.Command]:
    """Every complete command `seat` may send now (trades excepted: they are free-form)."""
    kinds = listed_kinds(s, seat)
    if not kinds:
        return []
    c = content_of(s)
    out: list[A.Command] = []
    for listing in _LISTINGS.get(kinds) or [HANDLERS[k].listing for k in kinds]:
        out.extend(listing(s, c, seat))
    return out


_LISTINGS: dict[tuple[str, ...], tuple[Any, ...]] = {
    kinds: tuple(HANDLERS[k].listing for k in kinds)
    for kinds in (TURN_ORDER, NO_ACTION_LEFT, OFF_TURN)
}


def check(s: State, seat: int, cmd: A.Command) -> RuleError | None:
    """Why `cmd` is refused, or None if `apply` would accept it."""
    return _check(s, content_of(s), HANDLERS[cmd.type], seat, cmd)


def _check(s: State, c: Content, h: Handler, seat: int, cmd: A.Command) -> Check:
    if h.gated:
        err = _gate(s, seat, cmd.type)
        if err:
            return err
    return h.check(s, c, seat, cmd)


def apply(s: State, seat: int, cmd: A.Command | dict[str, Any]) -> tuple[State, Events]:
    """Apply one command for `seat`; returns the (same, updated) state and its events.

    :raises RuleError: the command is refused; the state is untouched.
    """
    if not isinstance(cmd, A.Command):
        cmd = A.parse(cmd)
    c = content_of(s)
    h = HANDLERS[cmd.type]
    err = _check(s, c, h, seat, cmd)
    if err:
        raise err
    ev: Events = []
    h.do(s, c, seat, cmd, ev)
    _settle(s, c, ev)
    s.commands += 1
    return s, ev


def _settle(s: State, c: Content, ev: Events) -> None:
    """After every command: impossible immediate choices resolve by themselves, hand
    limits call for discards, offers that can't be honoured show as unavailable."""
    while s.pending and s.pending[0]["kind"] == "quest_choice":
        head = s.pending[0]
        p = s.players[head["seat"]]
        q = c.quest[head["card"]]
        if any(_choice_error(s, c, p, ch) is None for ch in q.immediate):
            break
        s.pending.pop(0)  # Ruling R12b: no option can be taken, the choice lapses.
        ev.append({"type": "quest_choice_lapsed", "seat": p.seat})
        _after_immediate(s, c, p, head["card"], ev)
    floor = fx.quest_limit_floor(c)
    for p in s.players:
        if (
            len(p.quests) > floor
            and len(p.quests) > fx.quest_limit(c, p)
            and not any(x["kind"] == "quest_discard" and x["seat"] == p.seat for x in s.pending)
        ):
            s.pending.append({"kind": "quest_discard", "seat": p.seat})
    if s.offers:
        trades.refresh(s, c, ev)


# --- outcome --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]
    scores: tuple[dict[str, int], ...]


def outcome(s: State) -> Outcome | None:
    """None while the game runs; else the winners (most prestige, then most gold; a
    remaining tie is shared) and every seat's score."""
    if s.phase != GAME_OVER:
        return None
    scores = tuple({"seat": p.seat, "prestige": p.prestige, "gold": p.gold} for p in s.players)
    best = max((p.prestige, p.gold) for p in s.players)
    winners = tuple(p.seat for p in s.players if (p.prestige, p.gold) == best)
    return Outcome(winners, scores)
