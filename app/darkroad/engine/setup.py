"""Options and "Setting up the Game" (steps 1-21), with the setup choices (drafting,
keeping a deed)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import Field, field_validator

from app.games import kit, rng

from .. import actions as A
from ..content import Content, load
from ..errors import RuleError
from ..state import Player, State
from .core import (
    LEGACY_OPTION_KEYS,
    PACKS,
    RULES,
    STARTING_COINS,
    STARTING_GOOD_VALUE,
    Check,
    Events,
    Handler,
    draw_deed,
    err,
    pending_choice,
)
from .flow import settle
from .gains import gain_good, good_at, good_valued, join_hero

# --- options and setup -----------------------------------------------------------------


class Options(kit.GameOptions):
    """The room options of a Dark Road game, declared once: defaults, bounds, the schema."""

    max_players: int = Field(default=4, ge=1, le=4, description="1 to 4 seats (bots may fill)")
    buildings: Literal["first_game", "random"] | list[str] = Field(
        default="first_game", description='"first_game", "random" or a list of 4 building ids'
    )
    deed_choice: bool = Field(default=False, description="draw 2 deeds, keep 1")
    drafting: bool = Field(default=False, description="draft steeds and starting heroes")
    rules: Literal[1, 2] = Field(
        default=RULES, description="rules edition: 2; 1 is how games begun before 2 replay"
    )
    coach: bool = Field(
        default=False, description='"What would you do?": the hard bot advises each person'
    )

    @field_validator("buildings")
    @classmethod
    def _four_buildings(cls, b: str | list[str]) -> str | list[str]:
        if isinstance(b, list):
            known = {x.id for x in load().buildings}
            if len(b) != 4 or len(set(b)) != 4 or not set(b) <= known:
                raise ValueError("a list of 4 different building ids")
        return b


DEFAULT_OPTIONS: dict[str, Any] = Options().model_dump(mode="json")


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check the room options.

    :raises RuleError: `bad_options` naming the option at fault.
    """
    return kit.normalise(Options, options)


def _deal(
    c: Content, opts: dict[str, Any], seed: int, players: list[str], given: Mapping[str, Any] | None
) -> State:
    """Set up the board and every player (rulebook "Setting up the Game", steps 1-21)."""
    stored_before = given is not None and given.keys() >= LEGACY_OPTION_KEYS
    if stored_before and "rules" not in (given or {}):
        opts["rules"] = 1  # options stored, normalised, before the edition existed (R40)
    n = len(players)
    r = seed & ((1 << 64) - 1)

    def shuffled(ids: list[str]) -> list[str]:
        nonlocal r
        r = rng.shuffle(r, ids)
        return ids

    def roll(faces: tuple[int, ...] | list[int]) -> int:
        nonlocal r
        r, i = rng.below(r, len(faces))
        return faces[i]

    s = State(content=c.name, options=opts, seed=seed, rng=0, players=[])
    s.supply = {str(k): v for k, v in c.board.supply.items()}
    s.goods_supply = dict.fromkeys(c.goods, c.board.goods_per_type)
    # 3. Buildings, assigned randomly to the four building spaces.
    if opts["buildings"] == "first_game":
        chosen = list(c.first_game)
    elif opts["buildings"] == "random":
        chosen = shuffled([b.id for b in c.buildings])[:4]
    else:
        chosen = list(opts["buildings"])
    s.buildings = shuffled(chosen)
    # 4. The Great Bazaar: a random good at $5, dice on $5..$1, the last $1 section empty.
    first = roll(list(range(6)))
    s.wheel_rot = (-first) % 6
    s.market = dict.fromkeys(c.goods, 0)
    for pos in range(5):
        s.market[good_at(c, s, pos)] += 1
    # 5. Commissions in six face-up stacks by town, each shuffled.
    s.stacks = {t: shuffled([k.id for k in c.commissions if k.town == t]) for t in c.towns}
    # 6, 10. Ruins marker bottom-left, dark market marker south.
    s.ruins_pos = 0
    s.dm_pos = next(i for i, sp in enumerate(c.board.dark_market) if sp.space == "south")
    # 7. The two event decks.
    s.decks = {
        "dark_road": shuffled([e.id for e in c.events if e.deck == "dark_road"]),
        "shortcut": shuffled([e.id for e in c.events if e.deck == "shortcut"]),
        "companions": shuffled([x.id for x in c.companions]),
        "heroes": shuffled([h.id for h in c.heroes if not h.starting]),
        "deeds": shuffled([d.id for d in c.deeds]),
    }
    s.discards = {"dark_road": [], "shortcut": []}
    # 8. Coins and the upgrades on the good-fortune track.
    s.fortune_coins = c.board.fortune_coins
    s.upgrades_track = [u.id for u in c.upgrades]
    # 9. Three companions, a travel die on the one farthest from the deck.
    s.row = [s.decks["companions"].pop(0) for _ in range(3)]
    s.row_die = [False, False, True]
    s.supply["travel"] -= 1
    # 11, 12. Four heroes at the inn, two deeds in the courtyard.
    s.inn = [s.decks["heroes"].pop(0) for _ in range(4)]
    s.courtyard = [s.decks["deeds"].pop(0) for _ in range(2)]
    steeds = shuffled([x.id for x in c.steeds])
    starters = shuffled([h.id for h in c.heroes if h.starting])
    for seat, name in enumerate(players):
        p = Player(seat=seat, name=name, coins=STARTING_COINS + seat, position=4)
        # 16. Night dice 1/2/3 locked, 4 rolled into the reserve, 1 illuminated die.
        p.locked = [1, 2, 3]
        p.reserve = sorted(roll(c.board.night_faces) for _ in range(4))
        s.supply["night"] -= 7
        p.special = [roll(c.board.illuminated_faces)]
        s.supply["illuminated"] -= 1
        p.horseshoes = 1
        s.supply["horseshoes"] -= 1
        s.players.append(p)
    s.rng = r
    ev: Events = []
    for p in s.players:
        # 19. The starting good by seat order (the coins of seats 2-4 are in `coins` above).
        gain_good(s, c, p, good_valued(c, s, STARTING_GOOD_VALUE[p.seat]), False)
    if opts["drafting"]:
        s.setup_stacks = [[steeds[i], starters[i]] for i in range(n + 1)]
        for seat in range(n):
            s.pending.append({"kind": "draft", "seat": seat})
    else:
        for p in s.players:
            p.steeds = [steeds.pop(0)]
            join_hero(s, c, p, starters.pop(0), ev)
    s.unused_steeds = [x for x in steeds if not any(x in q.steeds for q in s.players)]
    for p in s.players:
        # 17. The secret deed (advanced: draw 2, keep 1).
        if opts["deed_choice"]:
            s.pending.append(
                {"kind": "keep_deed", "seat": p.seat, "options": [draw_deed(s) for _ in range(2)]}
            )
        else:
            p.deeds.append(draw_deed(s))
    settle(s, c, ev)
    return s


# new_game(options, seed, players, content="base") -> State, 1 to 4 seats (the kit's setup).
new_game: kit.GameSetup[Content, State] = kit.GameSetup(PACKS, Options, (1, 4), _deal)


# --- setup choices ------------------------------------------------------------------------------


class Draft(Handler[A.Draft]):
    """Drafting Variant: take one steed + starting-hero stack, in seat order."""

    cmd = A.Draft

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.Draft]:
        for i, stack in enumerate(s.setup_stacks):
            if stack:
                yield A.Draft(i)

    def check(self, s: State, c: Content, seat: int, cmd: A.Draft) -> Check:
        pend = pending_choice(s, seat, "draft")
        if isinstance(pend, RuleError):
            return pend
        if not 0 <= cmd.stack < len(s.setup_stacks) or not s.setup_stacks[cmd.stack]:
            return err("not_offered", f"stack {cmd.stack} is not on the table")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.Draft, ev: Events) -> None:
        s.pending.pop(0)
        steed, hero = s.setup_stacks[cmd.stack]
        s.setup_stacks[cmd.stack] = []
        p = s.players[seat]
        p.steeds = [steed]
        ev.append({"type": "drafted", "seat": seat, "steed": steed, "hero": hero})
        join_hero(s, c, p, hero, ev)
        if not any(x["kind"] == "draft" for x in s.pending):
            s.setup_stacks = []
            s.unused_steeds = [
                x.id for x in c.steeds if not any(x.id in q.steeds for q in s.players)
            ]


class KeepDeed(Handler[A.KeepDeed]):
    """Setup 17 (advanced): keep one of the two deeds drawn; the other goes under the deck."""

    cmd = A.KeepDeed

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[A.KeepDeed]:
        if s.pending and s.pending[0]["kind"] == "keep_deed":
            for d in s.pending[0]["options"]:
                yield A.KeepDeed(d)

    def check(self, s: State, c: Content, seat: int, cmd: A.KeepDeed) -> Check:
        pend = pending_choice(s, seat, "keep_deed")
        if isinstance(pend, RuleError):
            return pend
        if cmd.deed not in pend["options"]:
            return err("not_offered", f"{cmd.deed} is not one of the two deeds you drew")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: A.KeepDeed, ev: Events) -> None:
        pend = s.pending.pop(0)
        s.players[seat].deeds.append(cmd.deed)
        other = [d for d in pend["options"] if d != cmd.deed]
        s.decks["deeds"].extend(other)  # the other to the bottom of the deck
        ev.append({"type": "deed_kept", "seat": seat})
        ev.append({"type": "deed_kept", "seat": seat, "deed": cmd.deed, "to": seat})
