"""`KitGame`: the platform's `Game` interface over a game's `Rules`, every member given
a generic default, so a game written on the kit states only what is its own.

A game subclasses `KitGame` and sets its identity (`id`, `title`, `min_players`,
`max_players`, `content_pack`), `options_model`, `rules`, `setup` (its
`new_game(options, seed, players, content)`), `state_type` (with `to_dict` /
`from_dict`) and `bots` (kind -> factory of a seeded bot); then writes `public_part`,
`view` and `catalogue`. Anything else it may override: `bot_move` (the default plays
the first kind of `bots` with a seed drawn from the state's, the salt and the seat),
`play` (how bots play a whole game), `watch` and `figures` (what `simulate` adds),
`content_counts`.
"""

from __future__ import annotations

import copy
import gc
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from app.games.base import BotMove, Events

from . import bots as kit_bots
from . import simulation
from . import view as kit_view
from .commands import Command
from .content import ContentError
from .options import GameOptions, normalise
from .rules import Rules
from .takeback import Marks, StateCopy

SEED_MASK = (1 << 63) - 1


class KitGame:
    """The generic half of a game object (see the module docstring)."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    content_pack: ClassVar[str] = "base"
    # The game's translations (its `locale/` folder): the title in every language.
    locale: ClassVar[Path | None] = None
    options_model: ClassVar[type[GameOptions]]
    rules: Rules[Any, Any]
    setup: Callable[..., Any]  # new_game(options, seed, players, content)
    state_type: Any
    bots: Mapping[str, Callable[[int], Any]]
    # Take-backs (app.games.base.TakeBacks): the command types a seat may take back when
    # `can_take_back` finds they revealed nothing; the state's keys holding hidden piles
    # (a card drawn changes one) and what every seat shares and may answer (offers).
    take_backs: ClassVar[frozenset[str]] = frozenset()
    hidden_piles: ClassVar[tuple[str, ...]] = ("decks", "stacks")
    shared_choices: ClassVar[tuple[str, ...]] = ("offers",)
    # Private events (`"to"`) that only tell the seat its own hidden count (Dark Road's
    # coins behind the screen): to the acting seat itself, they reveal nothing. Any
    # other private event ends what may be taken back (it may show the seat a card).
    own_private: ClassVar[frozenset[str]] = frozenset()

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        return tuple(self.bots)

    @property
    def command_schema(self) -> Mapping[str, Any]:
        return self.rules.commands.schema()

    # --- options and setup ---------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return normalise(self.options_model, options)

    def seat_limit(self, options: Mapping[str, Any]) -> int:
        return int(options.get("max_players", self.max_players))

    def new_game(self, options: Mapping[str, Any], seed: int, players: Sequence[str]) -> Any:
        return self.setup(dict(options), seed, list(players), self.content_pack)

    # --- commands ------------------------------------------------------------------

    def parse_command(self, data: Any) -> Command:
        return self.rules.commands.parse(data)

    def command_json(self, command: Command) -> dict[str, Any]:
        return self.rules.commands.to_json(command)

    def apply(self, state: Any, seat: int, command: Any) -> Events:
        return self.rules.apply(state, seat, command)

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        to_json = self.rules.commands.to_json
        return [to_json(c) for c in self.rules.legal_actions(state, seat)]

    # --- take-backs -------------------------------------------------------------------

    def may_take_back(self, state: Any, seat: int, command: Any) -> bool:
        """Worth keeping a copy before `apply`: the command's kind may be taken back."""
        return getattr(command, "type", None) in self.take_backs

    def take_back_copy(self, state: Any, seat: int) -> StateCopy:
        """The state before a command of `seat` that may be taken back: its `to_dict`,
        kept as bytes until read (`app.games.kit.takeback`)."""
        return StateCopy(state, seat, self._compared)

    @property
    def _compared(self) -> tuple[str, ...]:
        return (*self.hidden_piles, *self.shared_choices)

    def take_back_mark(self, state: Any, seat: int) -> Marks:
        """What `can_take_back` compares of `state` for `seat` (the platform keeps the one
        of the state a command left, and judges the seat's next command against it
        instead of a copy made before it)."""
        return Marks.of_state(state, seat, self._compared)

    def can_take_back(
        self,
        before: Any,
        state: Any,
        seat: int,
        command: Any,
        events: Events,
        *,
        after: Marks | None = None,
    ) -> bool:
        """The command just applied revealed nothing and touched no one else: a kind the
        game lets be taken back, the RNG not drawn from (no die, no shuffle), no hidden
        pile changed (no card drawn or turned), no private event (nothing shown to one
        seat; the game's `own_private` to the seat itself excepted), every event the
        seat's own, the other seats' state, the offers and the other seats' pending
        choices as they were, and the seat still to act. `before` is
        the state before it (`take_back_copy`, any `to_dict`, or its `take_back_mark`);
        `after`, if given, is `state`'s `take_back_mark` for `seat`."""
        if not self.may_take_back(state, seat, command):
            return False
        own = self.own_private
        for event in events:
            if event.get("seat", seat) != seat:
                return False
            if "to" in event and not (event["to"] == seat and event.get("type") in own):
                return False
        if seat not in self.to_act(state):
            return False
        keys = self._compared
        if isinstance(before, Marks) and before.seat == seat:
            old = before
        elif isinstance(before, StateCopy) and before.marks.seat == seat:
            old = before.marks
        else:
            old = Marks.of_dict(before, seat, keys)
        if old.rng != getattr(state, "rng", None):
            return False
        now = after if after is not None and after.seat == seat else None
        if now is None:
            now = Marks.of_state(state, seat, keys)
        return now.same_but_seat(old)

    # --- reading the state ---------------------------------------------------------

    def public_part(self, state: Any) -> Any:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None, public: Any) -> dict[str, Any]:
        raise NotImplementedError

    def events_for(self, events: Events, seat: int | None) -> Events:
        return kit_view.events_for(events, seat)

    def to_act(self, state: Any) -> list[int]:
        return self.rules.to_act(state)

    def is_over(self, state: Any) -> bool:
        return self.rules.is_over(state)

    def to_dict(self, state: Any) -> dict[str, Any]:
        out: dict[str, Any] = state.to_dict()
        return out

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        """The state of a snapshot; an option added since it was stored reads its default,
        as `new_game` fills it in for the replay of the same log (an option a game adds
        later must leave the rules of a game begun without it unchanged at its default)."""
        state = self.state_type.from_dict(dict(data))
        options = getattr(state, "options", None)
        if isinstance(options, dict):
            for name, value in self._option_defaults().items():
                options.setdefault(name, copy.deepcopy(value))
        return state

    @classmethod
    def _option_defaults(cls) -> dict[str, Any]:
        cached: dict[str, Any] | None = cls.__dict__.get("_defaults_cache")
        if cached is None:
            cached = cls.options_model().model_dump(mode="json")
            cls._defaults_cache = cached  # type: ignore[attr-defined]
        return cached

    def catalogue(self, lang: str) -> dict[str, Any]:
        raise NotImplementedError

    # --- bots ----------------------------------------------------------------------

    def bot(self, kind: str, seed: int, budget: Any = None) -> Any:
        """A bot of `kind` ("hard" searches within `budget`, a `search.Budget`)."""
        if kind == "hard" and budget is not None and "hard" in self.bots:
            return self.bots["hard"](seed, budget)  # type: ignore[call-arg]
        return kit_bots.make(self.bots, kind, seed)

    def seat_bot(
        self, level: str, state: Any, salt: int, seat: int, budget: float | None = None
    ) -> Any:
        """The bot of a seat at `level` (a level `bots` does not name: its first kind),
        seeded from the state's seed, the salt and the seat."""
        from .search import Budget

        seed = (state.seed * 31 + salt * 7 + seat) & SEED_MASK
        kind = level if level in self.bots else next(iter(self.bots))
        limit = Budget(seconds=budget) if kind == "hard" and budget is not None else None
        return self.bot(kind, seed, limit)

    def bot_move(
        self,
        state: Any,
        bot_seats: frozenset[int],
        salt: int,
        levels: Mapping[int, str] | None = None,
        budget: float | None = None,
    ) -> BotMove | None:
        """The command of the seat the game waits for, if a bot's, at its level."""
        waiting = self.waiting_bot(state, bot_seats)
        if waiting is None:
            return None
        seat, legal = waiting
        bot = self.seat_bot((levels or {}).get(seat, "normal"), state, salt, seat, budget)
        return BotMove(seat, bot.decide(state, seat, legal))

    def waiting_bot(self, state: Any, bot_seats: frozenset[int]) -> tuple[int, list[Any]] | None:
        """The first seat the game waits for that a bot holds, with its legal commands."""
        if not bot_seats or self.rules.is_over(state):
            return None
        for seat in self.rules.to_act(state):
            if seat in bot_seats:
                legal = self.rules.legal_actions(state, seat)
                if legal:
                    return seat, legal
        return None

    def play(
        self,
        state: Any,
        players: Sequence[Any],
        *,
        max_rounds: int,
        on_command: kit_bots.OnCommand | None,
    ) -> int:
        """Play `state` to its end with one bot per seat; the commands applied."""
        return kit_bots.play(self.rules, state, players, on_command=on_command)

    # --- the coach ---------------------------------------------------------------------

    def coach(
        self, state: Any, seat: int, lang: str, budget: float | None = None
    ) -> dict[str, Any] | None:
        """ "What would you do?" for `seat`: the hard bot's choice among the seat's legal
        actions (`action`, as `legal_actions` lists it), a one-line `reason` in `lang`,
        and its word on each open offer the seat may answer (`offers`). None: the game
        has no searching bot."""
        if "hard" not in self.bots:
            return None
        tr = self.translator(lang)
        out: dict[str, Any] = {
            "action": None,
            "reason": None,
            "offers": self.coach_offers(state, seat, tr),
        }
        legal = self.rules.legal_actions(state, seat)
        if not legal or self.rules.is_over(state):
            return out
        bot = self.seat_bot("hard", state, 0, seat, budget)
        cmd = bot.decide(state, seat, legal)
        gain = float(bot.gain(state, seat, cmd))  # `SearchingBot.gain`, or the game's own
        out["action"] = self.legal_actions(state, seat)[legal.index(cmd)]
        out["reason"] = self.coach_reason(tr, cmd, gain)
        return out

    def translator(self, lang: str) -> Any:
        from app.games import i18n

        locale = getattr(self, "locale", None)
        return i18n.translator(locale, lang) if locale else i18n.Translator(lang, {})

    # The coach's line on its choice, in the game's own words and units (marked for the
    # game's catalogue): when it gains (`{gain}`, one decimal), and when nothing gains more.
    coach_gain: ClassVar[str] = ""
    coach_hold: ClassVar[str] = ""

    def coach_reason(self, tr: Any, cmd: Any, gain: float) -> str:
        """The coach's one line on its choice (`coach_gain` / `coach_hold`)."""
        from .search import coach_reason

        if not self.coach_gain:
            return str(tr.gettext("The coach would do this."))
        return coach_reason(tr, gain, self.coach_gain, self.coach_hold)

    def coach_offers(self, state: Any, seat: int, tr: Any) -> list[dict[str, Any]]:
        """The coach's word on each open offer `seat` may answer (a game with trades)."""
        return []

    # --- tools (the command line) --------------------------------------------------

    def content_counts(self, pack: str) -> dict[str, int]:
        """How much the pack holds. :raises ContentError: the pack is broken."""
        content = self.rules.packs.load(pack)
        counts = getattr(content, "counts", None)
        if counts is None:
            raise ContentError(f"{pack}: {self.id} does not count its content")
        out: dict[str, int] = counts()
        return out

    def figures(self, finished: list[Any], players: int, watcher: Any) -> dict[str, Any]:
        """What `simulate` adds about the finished games: wins by seat. `watcher` is what
        `watch` gave (None without `stats`): a game adds its own tallies by overriding
        both."""
        wins = [0] * players
        for s in finished:
            o = self.rules.outcome(s)
            for w in o.winners if o else ():
                wins[w] += 1
        return {"wins_by_seat": wins}

    def watch(self) -> kit_bots.OnCommand | None:
        """With `simulate --stats`, a callback seeing every command (None: none)."""
        return None

    def simulate(
        self,
        games: int,
        players: int,
        *,
        seed: int = 0,
        bots: str = "random",
        options: Mapping[str, Any] | None = None,
        content: str | None = None,
        max_rounds: int = 80,
        stats: bool = False,
        budget: Any = None,
        jobs: int = 1,
    ) -> dict[str, Any]:
        """Play `games` games of `players` bots of kind `bots` (one kind for every seat,
        or a comma list, one per seat), in process: the figures `karanor simulate`
        prints (the engine's speed, the content's balance, wins per seat with their
        95% intervals, a searching bot's decision times). `budget`: the searching
        bot's `search.Budget`. `jobs` > 1: the games are shared among that many forked
        processes (`simulation`); each game is seeded by its number alone, so the
        figures are those of one process (but the speed's: the wall clock is shared, the
        CPU time summed).

        :raises ValueError: an unknown bot kind, a player count the game refuses, `jobs`
            below 1 or with `stats` (tallied in one process).
        """
        kinds = [k.strip() for k in bots.split(",")] if "," in bots else [bots] * players
        if len(kinds) != players:
            raise ValueError(f"{self.id}: {len(kinds)} bot levels for {players} players")
        if not self.min_players <= players <= self.max_players or games < 1:
            raise ValueError(
                f"{self.id}: players must be {self.min_players}-{self.max_players}"
                " and games at least 1"
            )
        if jobs < 1 or (jobs > 1 and stats):
            raise ValueError(f"{self.id}: jobs must be at least 1, and 1 with stats")
        for kind in set(kinds):
            self.bot(kind, 0)  # an unknown kind fails before the clock starts
        pack = content or self.content_pack
        self.rules.packs.of(pack)  # read once per process, like imports: not timed
        room = {"max_players": players} if "max_players" in self.options_model.model_fields else {}
        opts = self.normalise_options({**room, **(options or {})})
        watcher = self.watch() if stats else None
        plan = simulation.Plan(self, opts, kinds, pack, seed, max_rounds, budget, watcher)
        # What stays to the end (the process's modules, the packs, the finished games) is
        # set aside from the cyclic collector, as a long-running server would after its
        # start: the figures measure the rules, not the collector re-reading what stays.
        gc.collect()
        gc.freeze()
        start = time.perf_counter()
        try:
            played = simulation.run(plan, games, jobs)
            seconds = time.perf_counter() - start
        finally:
            gc.unfreeze()
        commands, cpu, wins = played.commands, played.cpu, played.wins(players)
        finished, times, cpu_times = played.finished, played.times, played.cpu_times
        return {
            "game": self.id,
            "games": games,
            "players": players,
            "bots": bots,
            **({"jobs": jobs} if jobs > 1 else {}),
            "finished": len(finished),
            "commands": commands,
            "seconds": round(seconds, 3),
            "games_per_second": round(games / seconds, 2) if seconds else None,
            "commands_per_second": round(commands / seconds, 1) if seconds else None,
            # CPU time of this process (with jobs, of the processes that played, summed):
            # steadier than the wall clock on a shared machine
            "cpu_seconds": round(cpu, 3),
            "commands_per_cpu_second": round(commands / cpu, 1) if cpu else None,
            **self.figures(finished, players, watcher),
            "wins": [round(w, 2) for w in wins],
            "win_share_ci95": [list(kit_bots.wilson(w, len(finished))) for w in wins],
            **({"decision_ms": kit_bots.percentiles(times)} if times else {}),
            **({"decision_cpu_ms": kit_bots.percentiles(cpu_times)} if cpu_times else {}),
        }
