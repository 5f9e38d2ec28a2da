"""The game kit: what every game of this server is written with.

A game is a package (`app/<game>/`) of plain modules that import only `app.games`:

* **commands** (`kit.commands`): each command a frozen, slotted dataclass deriving
  `Command`, declared `@command("type")`, with typed fields (`Id`, `Int`, `Literal` enums, tuples),
  gathered once in `Commands(title, classes, upcast=...)`. That one declaration parses
  a client's JSON (strict; an unread field or a wrong type is `bad_command`; older
  shapes rewritten by `upcast`), writes the wire form, caches listed forms and gives
  the OpenAPI schema.
* **options** (`kit.options`): `class Options(GameOptions)`, every option with its
  default and bounds; `normalise` turns a fault into `bad_options`.
* **content** (`kit.content`): the game's `load(name)` (cached) behind `Packs`, which
  also knows packs registered by tests; `read_yaml` / `validate` / `ContentError`.
* **rules** (`kit.rules`): one `Handler` per command type (`candidates`, `check`,
  `do`, optionally a faster `listing`), and a `Rules` subclass filling in `gate`,
  `kinds`, `settle`, `to_act`, `is_over`, `outcome`; `Rules` runs the one
  check -> list -> apply loop (`legal_actions`, `check`, `apply` returning events).
  `err(code, message)` builds the one `RuleError`; `intern` shares listed commands;
  `pending_head` answers "is this seat's choice the one waiting?".
* **bots** (`kit.bots`): `RandomBot` and the `pick` policy, `make` from a table of
  kinds, `play` (the bots' loop) — a game adds its own greedy bot.
* **state** (`kit.state`): `GameState[Player]`, the head of every state (content,
  options, seed, rng, players; `n`, `to_dict`); `view_head` and `seat_view_head`, the
  first keys of the public part and of a seat's view.
* **setup** (`kit.setup`): `GameSetup(packs, Options, seats, deal)`, the game's
  `new_game(options, seed, players, content)`: pack adopted, options normalised, seat
  count checked; the game's `deal` sets up the rest.
* **view** (`kit.view`): `viewer`, `pending_of`, `events_for`.
* **the game object** (`kit.game.KitGame`): the platform's `Game` over all of the
  above, with defaults for every member (`simulate`, whose games `kit.simulation`
  plays, in one process or several; `content_counts`, `bot_move`...);
  the game sets its identity, `rules`, `setup` (its `new_game(options, seed, players,
  content)`), `state_type`, `bots`, and writes `public_part`, `view`, `catalogue`.

One signature everywhere: `new_game(options, seed, players, content)`, `apply(s, seat,
cmd) -> events`, `outcome(s) -> Outcome | None`, `to_act(s) -> seats`. See
tests/games/toy.py for a whole game in under 150 lines, and docs/architecture.md.
"""

from app.games.base import Events, RuleError

from .bots import RandomBot, make, pick, play
from .commands import Command, Commands, Id, Int, Note, Wire, command
from .content import ContentError, Packs, marked, read_yaml, validate
from .game import KitGame
from .options import GameOptions, normalise
from .rules import Check, Handler, Outcome, Rules, err, intern, no_candidates, pending_head
from .setup import GameSetup
from .state import GameState, seat_view_head, view_head
from .view import events_for, pending_of, viewer

__all__ = [
    "Check", "Command", "Commands", "ContentError", "Events", "GameOptions", "GameSetup",
    "GameState", "Handler", "Id", "Int", "KitGame", "Note", "Outcome", "Packs", "RandomBot",
    "RuleError", "Rules", "marked",
    "Wire", "command", "err", "events_for", "intern", "make", "no_candidates", "normalise",
    "pending_head", "pending_of", "pick", "play", "read_yaml", "seat_view_head", "validate",
    "view_head", "viewer",
]  # fmt: skip
