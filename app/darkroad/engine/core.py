"""Constants, the content registry, the rules edition, and what every handler shares:
the gate helpers and the `Handler` base (the kit's, typed for the Dark Road)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, TypeVar

from app.games import kit, rng

from .. import actions as A
from ..content import Content, load
from ..errors import RuleError
from ..state import ACTIVATE, PLAY, State

Events = list[dict[str, Any]]
Check = RuleError | None
K = TypeVar("K", bound=kit.Command)
intern = kit.intern
err = kit.err

ROUNDS = 13
REMOVAL_ROUNDS = (4, 7, 9, 10)
LAST_ROUNDS = (11, 12, 13)
HERO_SLOTS = 3
COMMISSION_SLOTS = 3
LANTERN_SLOTS = 4
INVENTORY_SLOTS = 3
MAX_ILLUMINATED = 2
STARTING_GOOD_VALUE = (5, 4, 3, 2)
STARTING_COINS = 5
ROUTES = ("dark_road", "shortcut")
SHORTCUT_LANTERNS = 3
STORAGE_UPGRADE_VP = 1  # ruling R35
# The rules edition a game is played by (ruling R40). 1: the engine before issue 25's fixes,
# kept so that games stored before them replay exactly; 2: with them (the Lovebug lantern
# counts toward a shortcut, slot #2 chooses its illuminated die, the pooled illuminated die
# counts toward the 2, a turn activates at least one district, Threy Cat duplicates any die).
RULES: Final = 2
LEGACY_OPTION_KEYS = frozenset({"max_players", "buildings", "deed_choice", "drafting"})

PACKS: kit.Packs[Content] = kit.Packs(load, lambda c: c.name)


def register(content: Content) -> None:
    """Make a content pack loaded from elsewhere (tests) known by its name."""
    PACKS.register(content)


def adopt(content: Content | str) -> Content:
    """The pack `content` names, or a pack loaded elsewhere (a test's), registered."""
    if isinstance(content, str):
        return PACKS.of(content)
    PACKS.register(content)
    return content


def content_of(s: State) -> Content:
    return PACKS.of(s.content)


def rules(s: State) -> int:
    """The rules edition of this game (ruling R40): 1 for a game stored before it existed."""
    edition: int = s.options.get("rules", 1)
    return edition


def draw_deed(s: State) -> str:
    return s.decks["deeds"].pop(0)


def roll(s: State, faces: tuple[Any, ...] | list[Any]) -> Any:
    s.rng, i = rng.below(s.rng, len(faces))
    return faces[i]


# --- the gate --------------------------------------------------------------------------------


def pending_choice(s: State, seat: int, *kinds: str) -> dict[str, Any] | RuleError:
    if not s.pending or s.pending[0]["kind"] not in kinds:
        return err("no_such_choice", f"there is no {kinds[0].replace('_', ' ')} choice now")
    if s.pending[0]["seat"] != seat:
        return err("not_your_choice", f"seat {s.pending[0]['seat']} is choosing, not you")
    return s.pending[0]


def turn_check(s: State, seat: int, step: str | None = None) -> Check:
    if s.phase != PLAY:
        return err("wrong_phase", f"not during a turn (phase: {s.phase})")
    if seat != s.turn_seat:
        return err("not_your_turn", f"it is seat {s.turn_seat}'s turn, not seat {seat}'s")
    if s.pending:
        return err("pending_choice", "a choice must be made first")
    if step and s.step != step:
        return err("wrong_step", f"this is the {s.step} step, not {step}")
    return None


def activation_check(s: State, seat: int, target: str) -> Check:
    refused = turn_check(s, seat, ACTIVATE)
    if refused:
        return refused
    if s.acts_left <= 0 or target not in s.acts:
        return err("not_adjacent", f"{target} cannot be activated now (open: {s.acts})")
    return None


def use_target(s: State, c: Content, target: str) -> None:
    s.acts_left -= 1
    if rules(s) >= 2:  # R36's count; rules 1 never kept it (its stored snapshots lack it)
        s.acts_used += 1
    if target in c.building:
        s.acts = [t for t in s.acts if t not in c.building]
    else:
        s.acts.remove(target)
    if s.acts_left <= 0:
        s.acts = []


AUTO_PLACE = A.PlaceGood()


class Handler(kit.Handler[State, Content, K]):
    """A Dark Road command type's rules (the kit's `Handler`: `candidates`, `check`, `do`,
    and `listing` overridden by a few hot handlers; `tests/darkroad/test_listing.py` proves
    at every state of many games that an override equals the candidates passing `check`)."""

    cmd: type[K]


_ONLY: dict[type[Any], Any] = {}  # each command type without fields: its one command


class OneCommand(Handler[K]):
    """A command without fields: its one candidate, listed when its check passes (no
    generator, no new command: the default listing's answer, straight)."""

    def __init__(self) -> None:
        self.listed = (self.only(),)  # what `listing` answers when the check passes

    def only(self) -> K:
        cmd: K | None = _ONLY.get(self.cmd)
        if cmd is None:
            cmd = _ONLY[self.cmd] = self.cmd()
        return cmd

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[K]:
        yield self.only()

    def listing(self, s: State, c: Content, seat: int) -> tuple[K, ...]:
        listed = self.listed
        return listed if self.check(s, c, seat, listed[0]) is None else ()


# Filled by `dispatch`: every handler by command type (R36's `can_activate` reads it).
HANDLERS: dict[str, Handler[Any]] = {}
TARGET_KINDS = {
    "bazaar": ("bazaar",),
    "commissions": ("take_commission",),
    "dark_market": ("dark_market",),
    "inn": ("inn",),
    "excursions": ("ruins", "caravan"),
}
