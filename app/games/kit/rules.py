"""The one check -> list -> apply loop, and the handler every command type has.

Each command type has one `Handler` with three parts:

* `candidates(s, c, seat)` proposes commands that might be legal,
* `check(s, c, seat, cmd)` returns the `RuleError` refusing one, or None,
* `do(s, c, seat, cmd, ev)` changes the state (only ever after a passing check).

`Rules.legal_actions` lists, for the kinds the game says are worth trying now
(`kinds`), each handler's `listing` (by default its candidates passing `check`);
`Rules.apply` runs the game's `gate` (the checks common to every command), the
handler's `check`, then `do` and the game's `settle`. The same code lists and checks,
so a listed command is always accepted and a refused one leaves the state untouched.

A game subclasses `Rules` and fills in `gate`, `kinds`, `settle`, `to_act`, `is_over`
and `outcome`; everything else is here.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from app.games.base import Events, RuleError

from .commands import Command, Commands
from .content import Packs

Check = RuleError | None
K = TypeVar("K", bound=Command)


class KitState(Protocol):
    """What the loop reads of a game's state: its content pack's name and the count of
    accepted commands (the version)."""

    content: str
    commands: int


S = TypeVar("S", bound=KitState)
C = TypeVar("C")


def err(code: str, message: str) -> RuleError:
    """A refusal: a stable snake_case `code` and a message for a person."""
    return RuleError(code, message)


@functools.lru_cache(maxsize=16384)
def intern(cls: type[Any], *args: Any) -> Any:
    """One shared command per value (commands are frozen: listings reuse them, and the
    JSON cache finds them by identity)."""
    return cls(*args)


def pending_head(
    pending: Sequence[Mapping[str, Any]], seat: int, *kinds: str
) -> Mapping[str, Any] | RuleError:
    """The first pending choice if it is one of `kinds` and `seat`'s, else the refusal
    (`no_such_choice`, `not_your_choice`). Pending choices are dicts with `kind` and
    `seat`, answered first in, first out."""
    if not pending or pending[0]["kind"] not in kinds:
        return err("no_such_choice", f"there is no {kinds[0].replace('_', ' ')} choice to make now")
    if pending[0]["seat"] != seat:
        return err("not_your_choice", f"seat {pending[0]['seat']} is choosing, not you")
    return pending[0]


class Handler(Generic[S, C, K]):
    """One command type's rules. `listing` is what `legal_actions` shows for this kind
    once `kinds` allows it: by default the candidates that pass `check`; a hot handler
    may override it with a direct construction (each game's tests prove, at every state
    of many games, that an override equals the candidates passing `check`)."""

    cmd: type[K]  # taken from the class's third type argument unless set
    gated = True  # the game's `gate` comes first

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            args = typing.get_args(base)
            if len(args) == 3 and isinstance(args[2], type) and issubclass(args[2], Command):
                setattr(cls, "cmd", args[2])  # noqa: B010 - typed as type[K] above

    def candidates(self, s: S, c: C, seat: int) -> Iterable[K]:
        return ()

    def listing(self, s: S, c: C, seat: int) -> Sequence[K]:
        return [x for x in self.candidates(s, c, seat) if self.check(s, c, seat, x) is None]

    def check(self, s: S, c: C, seat: int, cmd: K) -> Check:
        raise NotImplementedError

    def do(self, s: S, c: C, seat: int, cmd: K, ev: Events) -> None:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winners (a tie shares) and every seat's score (a
    game's own figures: prestige, gold, points by source...)."""

    winners: tuple[int, ...]
    scores: tuple[Mapping[str, int], ...]


class Rules(Generic[S, C]):
    """A game's rules: its handlers, commands and content, and the loop over them."""

    def __init__(
        self,
        handlers: Iterable[Handler[S, C, Any]],
        commands: Commands,
        packs: Packs[C],
    ) -> None:
        self.handlers: dict[str, Handler[S, C, Any]] = {h.cmd.type: h for h in handlers}
        self.commands = commands
        self.packs = packs
        self._listers: dict[tuple[str, ...], tuple[Any, ...]] = {}
        self._packs_known = packs._known  # `packs.of` without its call, on the hot paths

    # --- what a game fills in ----------------------------------------------------------

    def gate(self, s: S, seat: int, kind: str) -> Check:
        """The checks common to every gated command (game over, seat, pending choice)."""
        return None

    def kinds(self, s: S, c: C, seat: int) -> tuple[str, ...]:
        """The command kinds worth listing for `seat` now, in listing order (a shortcut
        for listing only: `check` still decides)."""
        raise NotImplementedError

    def settle(self, s: S, c: C, ev: Events) -> None:
        """After every accepted command: what follows by itself (lapsed choices...)."""

    def to_act(self, s: S) -> list[int]:
        """The seats the game waits for now (empty once it is over)."""
        raise NotImplementedError

    def is_over(self, s: S) -> bool:
        raise NotImplementedError

    def outcome(self, s: S) -> Outcome | None:
        """None while the game runs; else its winners and scores."""
        raise NotImplementedError

    # --- the loop ------------------------------------------------------------------------

    def content_of(self, s: S) -> C:
        return self.packs.of(s.content)

    def legal_actions(self, s: S, seat: int) -> list[Command]:
        """Every complete command `seat` may send now (free-form ones excepted)."""
        c = self._packs_known.get(s.content)
        if c is None:
            c = self.packs.of(s.content)
        kinds = self.kinds(s, c, seat)
        if not kinds:
            return []
        listers = self._listers.get(kinds)
        if listers is None:
            listers = self._listers[kinds] = tuple(self.handlers[k].listing for k in kinds)
        out: list[Command] = []
        for listing in listers:
            out += listing(s, c, seat)
        return out

    def check(self, s: S, seat: int, cmd: Command) -> Check:
        """Why `cmd` is refused, or None if `apply` would accept it."""
        h = self.handlers.get(cmd.type)
        if h is None:
            return err("unknown_command", f"unknown command type {cmd.type!r}")
        return self._check(s, self.packs.of(s.content), h, seat, cmd)

    def _check(self, s: S, c: C, h: Handler[S, C, Any], seat: int, cmd: Command) -> Check:
        if h.gated:
            refused = self.gate(s, seat, cmd.type)
            if refused:
                return refused
        return h.check(s, c, seat, cmd)

    def apply(self, s: S, seat: int, cmd: Command | dict[str, Any]) -> Events:
        """Apply one command of `seat` in place (a JSON form is parsed first); returns its
        events.

        :raises RuleError: the command is refused; the state is untouched.
        """
        if not isinstance(cmd, Command):
            cmd = self.commands.parse(cmd)
        h = self.handlers.get(cmd.type)
        if h is None:
            raise err("unknown_command", f"unknown command type {cmd.type!r}")
        c = self._packs_known.get(s.content)
        if c is None:
            c = self.packs.of(s.content)
        # `_check` inline: this is the hottest path of every game and every search
        refused = self.gate(s, seat, cmd.type) if h.gated else None
        if refused is None:
            refused = h.check(s, c, seat, cmd)
        if refused:
            raise refused
        ev: Events = []
        h.do(s, c, seat, cmd, ev)
        self.settle(s, c, ev)
        s.commands += 1
        return ev

    def apply_listed(self, s: S, seat: int, cmd: Command) -> Events:
        """`apply` for a command `legal_actions(s, seat)` listed, `s` unchanged since:
        the listing ran the gate and the handler's check (each game's
        `tests/<game>/test_listing.py` proves every listed command passes `check`), so
        they are not run again, as catanatron's `execute` takes an action it finds among
        the playable ones. The bots' loop (`kit.bots.play`) calls it for a command it
        finds, by identity, in the list it gave the bot; anything else (a client's
        command, a bot's own offer) goes through `apply`."""
        c = self._packs_known.get(s.content)
        if c is None:
            c = self.packs.of(s.content)
        ev: Events = []
        self.handlers[cmd.type].do(s, c, seat, cmd, ev)
        self.settle(s, c, ev)
        s.commands += 1
        return ev


def no_candidates() -> Iterator[Any]:
    """An empty candidate stream (a free-form command is never listed)."""
    return iter(())
