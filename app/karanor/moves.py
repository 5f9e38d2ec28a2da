"""The Move action: where a pawn can go (land steps, sea crossings paid in gold), the
cheapest paths, and a Move split over several commands (ruling R2)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.games.kit import Check, Events, Handler, RuleError, err

from . import commands as K
from . import effects as fx
from .common import spend_action, turn_check
from .content import Content
from .state import Player, State


def reach(s: State, c: Content, p: Player, steps: int) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every territory within `steps` of the pawn, with the cheapest path (gold, then
    steps) the player can pay for: {territory: (gold, path)}. Do not mutate the result."""
    sea = fx.sea_cost(c, p)
    # Gold beyond what `steps` crossings could cost changes nothing: cap it in the key.
    key = (p.position, steps, sea, min(p.gold, steps * sea))
    cache = c.memo.get("reach")
    if cache is None:
        cache = c.memo["reach"] = {}
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
    memo = c.memo.get("crossings")
    if memo is None:
        memo = c.memo["crossings"] = {}
    key = (start, path)
    if key in memo:
        known: int | None = memo[key]
        return known
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


_MOVES: dict[tuple[str, ...], K.Move] = {}  # commands are values: one object per path


def _move(path: tuple[str, ...]) -> K.Move:
    cmd = _MOVES.get(path)
    if cmd is None:
        cmd = _MOVES[path] = K.Move(path[-1], path)
    return cmd


def move_listing(c: Content, p: Player, move_left: int, fresh: int, sea: int) -> tuple[K.Move, ...]:
    """The Moves `p` may make: the steps left of the Move in progress, then a new Move of
    `fresh` steps (0: no action left), sorted by destination. Cached like `reach()`; the
    gold is capped at what the longer of the two could cost."""
    key = (p.position, move_left, fresh, sea, min(p.gold, max(move_left, fresh) * sea))
    cache = c.memo.get("move_listing")
    if cache is None:
        cache = c.memo["move_listing"] = {}
    found = cache.get(key)
    if found is None:
        cont = _reach(c, p.position, move_left, sea, min(p.gold, move_left * sea))
        new = _reach(c, p.position, fresh, sea, min(p.gold, fresh * sea))
        found = cache[key] = tuple(
            _move((cont.get(dest) or new[dest])[1]) for dest in sorted(cont.keys() | new.keys())
        )
    return found


class Move(Handler[State, Content, K.Move]):
    """Ruling R2: a Move may be split; the steps left of the Move in progress are
    used first, at no action, until another action or a card ends it."""

    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.Move]:
        if turn_check(s, seat, action=False):
            return
        p = s.players[seat]
        cont = reach(s, c, p, s.move_left) if s.move_left else {}
        fresh = reach(s, c, p, fx.move_steps(c, p)) if s.actions_left > 0 else {}
        for dest in sorted(cont.keys() | fresh.keys()):
            yield _move((cont.get(dest) or fresh[dest])[1])

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.Move]:
        p = s.players[seat]
        steps, sea = fx.move_and_sea(c, p)
        return move_listing(c, p, s.move_left, steps if s.actions_left > 0 else 0, sea)

    def _plan(
        self, s: State, c: Content, p: Player, cmd: K.Move
    ) -> tuple[int, tuple[str, ...], bool, int] | RuleError:
        """(gold, path, continues the Move in progress, steps of a new Move) or the refusal."""
        if cmd.to not in c.territory:
            return err("unknown_territory", f"no territory {cmd.to!r} on the map")
        if cmd.to == p.position:
            return err("already_there", f"you are already at {c.territory[cmd.to].name}")
        steps, sea = fx.move_and_sea(c, p)
        if cmd.path is not None:
            if cmd.path[-1] != cmd.to:
                return err("bad_path", "a path ends at its destination")
            crossings = sea_crossings(c, p.position, cmd.path)
            if crossings is None:
                return err("bad_path", f"{'-'.join(cmd.path)} is not a walk between neighbours")
            gold = crossings * sea
            if gold > p.gold:
                return err("not_enough_gold", f"that path crosses the sea for {gold} gold")
            if len(cmd.path) <= s.move_left:
                return gold, cmd.path, True, steps
            if len(cmd.path) > steps:
                return err("too_far", f"a Move goes {steps} territories at most")
            return gold, cmd.path, False, steps
        if s.move_left:
            found = reach(s, c, p, s.move_left).get(cmd.to)
            if found:
                return found[0], found[1], True, steps
        found = reach(s, c, p, steps).get(cmd.to)
        if not found:
            return err(
                "unreachable",
                f"{c.territory[cmd.to].name} is out of reach this Move "
                f"({steps} territories, sea crossings "
                f"{sea} gold each, {p.gold} gold held)",
            )
        return found[0], found[1], False, steps

    # The plan of the last passing check, kept for the `do` that follows it in `apply`
    # (a Move's path search is most of its cost): (state, command, version, plan).
    _checked: tuple[State, K.Move, int, tuple[int, tuple[str, ...], bool, int]] | None = None

    def check(self, s: State, c: Content, seat: int, cmd: K.Move) -> Check:
        refused = turn_check(s, seat, action=False)
        if refused:
            return refused
        plan = self._plan(s, c, s.players[seat], cmd)
        if isinstance(plan, RuleError):
            return plan
        if not plan[2] and s.actions_left <= 0:
            return err("no_actions_left", "no actions left this turn for a new Move")
        self._checked = (s, cmd, s.commands, plan)
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.Move, ev: Events) -> None:
        p = s.players[seat]
        kept = self._checked
        if kept is not None and kept[0] is s and kept[1] is cmd and kept[2] == s.commands:
            plan: tuple[int, tuple[str, ...], bool, int] | RuleError = kept[3]
        else:
            plan = self._plan(s, c, p, cmd)
        self._checked = None
        assert not isinstance(plan, RuleError)
        gold, path, continues, steps = plan
        if continues:
            s.move_left -= len(path)
        else:
            spend_action(s)
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
