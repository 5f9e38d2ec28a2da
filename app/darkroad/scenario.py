"""Build a Dark Road position through functions: for tests, bug reports and tutorials.

A scenario starts from a real game (`started`: setup done, every choice answered) and is
then shaped with documented steps instead of assignments to the state's fields:

    s = scenario.started(players=2, seed=7)
    scenario.set_player(s, 0, coins=6, lanterns=2, steeds=["lovebug"], special=[1, 3])
    scenario.give_good(s, 0, "potion")              # stored, first fit
    scenario.at_activate(s, 0, position=3)          # plan and move done: step 3
    scenario.stack_deck(s, "dark_road", ["event_id"])  # the next card drawn
    scenario.gain_good(s, 0, "book")                # gained as the rules gain it

Steps named `gain_*`, `join_hero`, `lose_hero` and `apply_effect` go through the engine's
own gains and then `settle` (the pass every command ends with), so the choices the rules
raise (store a good, discard a hero or a resource...) are waiting as in a real game. The
`set_*` steps overwrite what they name and nothing else: a position they build may be one
no game reaches, which is what a rule test sometimes needs.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from . import engine as E
from . import storage as st
from .content import Effect
from .state import MOVE, PLAY, Player, State

Events = list[dict[str, Any]]

# The seat fields `set_player` may set, each a plain value or a list of ids/values.
PLAYER_FIELDS = frozenset(
    {
        "coins", "prestige", "lanterns", "quartz", "horseshoes", "reserve", "locked",
        "special", "position", "heroes", "commissions", "deeds", "steeds", "upgrades",
        "delivered_commissions", "delivered_heroes", "pool_night", "pool_illuminated",
    }
)  # fmt: skip


def started(players: int = 2, seed: int = 7, **options: Any) -> State:
    """A game of `players` seats whose setup choices are made (starting goods stored where
    they first fit, the first listed answer otherwise): seat 0 is to plan round 1."""
    s = E.new_game(options, seed, [f"P{i}" for i in range(players)])
    while s.phase != PLAY:
        seat = E.to_act(s)[0]
        acts = E.legal_actions(s, seat)
        auto = [a for a in acts if isinstance(a, A.PlaceGood) and a.area is None]
        E.apply(s, seat, auto[0] if auto else acts[0])
    return s


def _seat(s: State, seat: int) -> Player:
    if not 0 <= seat < s.n:
        raise ValueError(f"seat {seat} is not in this {s.n}-seat game")
    return s.players[seat]


def set_player(s: State, seat: int, **fields: Any) -> None:
    """Overwrite the named fields of a seat (`PLAYER_FIELDS`); companions are set with
    `set_companions`, goods with `give_good`."""
    p = _seat(s, seat)
    unknown = set(fields) - PLAYER_FIELDS
    if unknown:
        raise ValueError(f"set_player: unknown field(s) {sorted(unknown)}")
    for name, value in fields.items():
        setattr(p, name, list(value) if isinstance(value, list | tuple) else value)


# The board's fields `set_board` may set: plain values and lists are replaced, the supplies
# (dicts) take the counts given and keep the others.
BOARD_FIELDS = frozenset({"round", "inn", "courtyard", "fortune_coins", "supply", "goods_supply"})


def set_board(s: State, **fields: Any) -> None:
    """Overwrite the named board fields (`BOARD_FIELDS`): `set_board(s, round=11,
    supply={"lanterns": 0})`."""
    unknown = set(fields) - BOARD_FIELDS
    if unknown:
        raise ValueError(f"set_board: unknown field(s) {sorted(unknown)}")
    for name, value in fields.items():
        if isinstance(value, dict):
            getattr(s, name).update(value)
        else:
            setattr(s, name, list(value) if isinstance(value, list | tuple) else value)


def set_building(s: State, space: int, building: str) -> None:
    """Put `building` at wagon space `space` (0-3), in place of the one there."""
    if not 0 <= space < len(s.buildings):
        raise ValueError(f"no building space {space}")
    s.buildings[space] = building


def set_companions(s: State, seat: int, companions: list[str]) -> None:
    """The seat's companions, in this order, none of their abilities used yet."""
    _seat(s, seat).companions = [{"id": x, "used": []} for x in companions]


def set_turn(s: State, seat: int, step: str = "plan") -> None:
    """Make it `seat`'s turn, at `step` (plan, move or activate), no choice pending."""
    s.turn_seat = _seat(s, seat).seat
    s.step = step
    s.pending = []


def at_activate(s: State, seat: int, position: int, illuminated: int | None = None) -> None:
    """`seat`'s wagon at `position` in the activate step, as after plan and move: a night
    die of 1 (and an illuminated die of value `illuminated`) in the action pool, moved by
    the night die from the space before."""
    p = _seat(s, seat)
    set_turn(s, seat, MOVE)
    p.pool_night = 1
    p.pool_illuminated = illuminated
    p.position = (position - 1) % 5
    E.apply(s, seat, A.Move("night", 0))


def clear_goods(s: State, seat: int) -> None:
    """Return every good stored on the seat's wagon to the supply."""
    p = _seat(s, seat)
    for q in list(p.pieces):
        E.return_piece(s, p, q)


def give_good(s: State, seat: int, good: str, up: bool = False) -> int:
    """Store a good from the supply where it first fits, with no choice; its piece id."""
    c = E.content_of(s)
    p = _seat(s, seat)
    where = st.first_fit(c, p, good)
    if where is None:
        raise ValueError(f"no room for {good} on seat {seat}'s wagon")
    s.goods_supply[good] -= 1
    pid = p.next_piece
    p.next_piece += 1
    area, x, y, o = where
    p.pieces.append({"id": pid, "good": good, "up": up, "area": area, "x": x, "y": y, "o": o})
    return pid


def stack_deck(s: State, deck: str, top: list[str]) -> None:
    """Put these cards, in this order, on top of `deck` (dark_road, shortcut, companions,
    heroes, deeds), taking them out of wherever else in that deck they were."""
    if deck not in s.decks:
        raise ValueError(f"no deck {deck!r}")
    rest = [x for x in s.decks[deck] if x not in top]
    s.decks[deck] = [*top, *rest]


def set_travel(s: State, dice: list[int], event: str | None = None) -> None:
    """The caravan under way rolls `dice` (and draws `event`), replacing what it had."""
    if s.travel is None:
        raise ValueError("no caravan is under way")
    s.travel["dice"] = sorted(dice)
    if event is not None:
        s.travel["event"] = event


def settle(s: State) -> Events:
    """The engine's after-command pass: raised choices queued, goods to store asked,
    inventory limits applied, the caravan moved on. Returns its events."""
    ev: Events = []
    E.settle(s, E.content_of(s), ev)
    return ev


def gain_good(s: State, seat: int, good: str, up: bool = False) -> Events:
    """The seat gains a good from the supply (a `store` choice follows)."""
    E.gain_good(s, E.content_of(s), _seat(s, seat), good, up)
    return settle(s)


def gain(s: State, seat: int, kind: str, amount: int = 1) -> Events:
    """The seat gains (or with a negative `amount` pays) lanterns, quartz, horseshoes or
    coins as the rules do: capped by the supply and the wagon's slots."""
    c, p = E.content_of(s), _seat(s, seat)
    ev: Events = []
    if kind == "lanterns":
        E.gain_lanterns(s, c, p, amount, ev)
    elif kind in ("quartz", "horseshoes"):
        E.gain_resource(s, p, kind, amount, ev)
    elif kind == "coins":
        E.gain_coins(s, p, amount, ev, "scenario")
    else:
        raise ValueError(f"gain: {kind!r} is lanterns, quartz, horseshoes or coins")
    return ev + settle(s)


def gain_illuminated(s: State, seat: int) -> Events:
    """The seat gains an illuminated die (rolled; lost beyond the 2 allowed)."""
    ev: Events = []
    E.gain_illuminated(s, E.content_of(s), _seat(s, seat), ev)
    return ev + settle(s)


def gain_commission(s: State, seat: int, town: str) -> Events:
    """The seat takes the top commission of `town`'s stack."""
    ev: Events = []
    E.gain_commission(s, E.content_of(s), _seat(s, seat), town, ev)
    return ev + settle(s)


def gain_upgrade(s: State, seat: int, upgrade: str) -> Events:
    """The seat takes a wagon upgrade from the good-fortune track."""
    ev: Events = []
    E.gain_upgrade(s, E.content_of(s), _seat(s, seat), upgrade, ev)
    return ev + settle(s)


def join_hero(s: State, seat: int, hero: str) -> Events:
    """A hero joins the seat's wagon with its bonus (a discard is asked over 3)."""
    ev: Events = []
    E.join_hero(s, E.content_of(s), _seat(s, seat), hero, ev)
    return ev + settle(s)


def lose_hero(s: State, seat: int, hero: str) -> Events:
    """A hero leaves the seat's wagon; the good it stored must be stored again."""
    E.lose_hero(s, E.content_of(s), _seat(s, seat), hero)
    return settle(s)


def apply_effect(s: State, seat: int, effect: Effect) -> Events:
    """One effect of the content (an event face, a benefit) applied to the seat."""
    ev: Events = []
    E.apply_effect(s, E.content_of(s), _seat(s, seat), effect, ev)
    return ev + settle(s)


def score_now(s: State) -> Events:
    """End the game here: final scoring as after the final travel."""
    ev: Events = []
    E.final_scoring(s, E.content_of(s), ev)
    return ev
