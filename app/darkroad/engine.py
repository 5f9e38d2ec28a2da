"""The rules of Merchants of the Dark Road: new_game, legal_actions, apply, outcome.

Each command type has one handler with `candidates` (commands that might be legal),
`check` (the `RuleError` refusing one, or None) and `do` (the change, only after a passing
check). `legal_actions` lists the candidates that pass `check`; `apply` runs `_gate`, `check`
then `do`, so a listed command is always accepted and a refused one changes nothing.

Every decision is a command: the turn's steps (plan, move, activate, end_turn), and the
pending choices (`state.pending`, first entry answered first) that include other seats'
off-turn decisions (joining a caravan, taking a travel die, visiting a town, storing a
good gained on the road).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

from app.games import rng

from . import actions as A
from . import storage as st
from .content import Content, Effect, load
from .errors import RuleError
from .state import ACTIVATE, FINAL, MOVE, OVER, PLAN, PLAY, SETUP, Player, State

Events = list[dict[str, Any]]
Check = RuleError | None

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

_REGISTRY: dict[str, Content] = {}


def register(content: Content) -> None:
    """Make a content pack loaded from elsewhere (tests) known by its name."""
    _REGISTRY[content.name] = content


def content_of(s: State) -> Content:
    return _REGISTRY.get(s.content) or load(s.content)


def _err(code: str, msg: str) -> RuleError:
    return RuleError(code, msg)


# --- options and setup -----------------------------------------------------------------

DEFAULT_OPTIONS: dict[str, Any] = {
    "max_players": 4,
    "buildings": "first_game",  # first_game | random | a list of 4 building ids
    "deed_choice": False,  # draw 2 deeds, keep 1
    "drafting": False,  # draft steed + starting hero stacks
}


def normalise_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check the room options.

    :raises RuleError: `bad_options` naming the option at fault.
    """
    out = dict(DEFAULT_OPTIONS)
    for k, v in (options or {}).items():
        if k not in DEFAULT_OPTIONS:
            raise _err("bad_options", f"unknown option {k!r}")
        out[k] = v
    mp = out["max_players"]
    if not isinstance(mp, int) or isinstance(mp, bool) or not 1 <= mp <= 4:
        raise _err("bad_options", "max_players must be an integer from 1 to 4")
    for k in ("deed_choice", "drafting"):
        if not isinstance(out[k], bool):
            raise _err("bad_options", f"{k} must be true or false")
    b = out["buildings"]
    if isinstance(b, list | tuple):
        known = {x.id for x in load().buildings}
        if len(b) != 4 or len(set(b)) != 4 or not all(isinstance(x, str) and x in known for x in b):
            raise _err("bad_options", "buildings: a list of 4 different building ids")
        out["buildings"] = list(b)
    elif b not in ("first_game", "random"):
        raise _err("bad_options", "buildings must be first_game, random or a list of 4 ids")
    return out


def new_game(
    options: dict[str, Any] | None,
    seed: int,
    players: list[str],
    content: Content | str = "base",
) -> State:
    """Set up the board and every player (rulebook "Setting up the Game", steps 1-21).

    :raises RuleError: `bad_options` for options or a player count the rules refuse.
    """
    c = content if isinstance(content, Content) else load(content)
    if isinstance(content, Content):
        register(content)
    opts = normalise_options(options)
    n = len(players)
    if not 1 <= n <= 4:
        raise _err("bad_options", f"{n} players: the game takes 1 to 4")
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
        s.market[_good_at(c, s, pos)] += 1
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
        _gain_good(s, c, p, _good_valued(c, s, STARTING_GOOD_VALUE[p.seat]), False)
    if opts["drafting"]:
        s.setup_stacks = [[steeds[i], starters[i]] for i in range(n + 1)]
        for seat in range(n):
            s.pending.append({"kind": "draft", "seat": seat})
    else:
        for p in s.players:
            p.steeds = [steeds.pop(0)]
            _join_hero(s, c, p, starters.pop(0), ev)
    s.unused_steeds = [x for x in steeds if not any(x in q.steeds for q in s.players)]
    for p in s.players:
        # 17. The secret deed (advanced: draw 2, keep 1).
        if opts["deed_choice"]:
            s.pending.append(
                {"kind": "keep_deed", "seat": p.seat, "options": [_draw_deed(s) for _ in range(2)]}
            )
        else:
            p.deeds.append(_draw_deed(s))
    _settle(s, c, ev)
    return s


def _draw_deed(s: State) -> str:
    return s.decks["deeds"].pop(0)


def _roll(s: State, faces: tuple[Any, ...] | list[Any]) -> Any:
    s.rng, i = rng.below(s.rng, len(faces))
    return faces[i]


# --- the market wheel ----------------------------------------------------------------------


def _good_at(c: Content, s: State, pos: int) -> str:
    """The good whose section sits at wheel position `pos` (0 is the $5 position)."""
    return c.goods[(pos - s.wheel_rot) % 6]


def value(c: Content, s: State, good: str) -> int:
    """A good's current value on the market wheel (ruling R10)."""
    return c.board.wheel_values[(c.good_index[good] + s.wheel_rot) % 6]


def _good_valued(c: Content, s: State, v: int) -> str:
    return next(g for g in c.goods if value(c, s, g) == v)


def cheap_goods(c: Content, s: State) -> list[str]:
    """The goods currently worth $1 (two sections)."""
    return [g for g in c.goods if value(c, s, g) == 1]


def _rotate(s: State) -> None:
    s.wheel_rot = (s.wheel_rot + 1) % 6


# --- gains and costs ---------------------------------------------------------------------


def _ask(s: State, pend: dict[str, Any]) -> None:
    """Raise a choice that comes before the choices already waiting."""
    s.asks.append(pend)


def _coins(s: State, p: Player, delta: int, ev: Events, why: str) -> None:
    if delta < 0:
        delta = -min(p.coins, -delta)
    if delta:
        p.coins += delta
        ev.append({"type": "coins", "seat": p.seat, "delta": delta, "why": why, "to": p.seat})


def _prestige(s: State, p: Player, delta: int, ev: Events) -> None:
    if delta < 0:
        delta = -min(p.prestige, -delta)
    if delta:
        p.prestige += delta
        ev.append({"type": "prestige", "seat": p.seat, "delta": delta})


def lantern_slots(c: Content, p: Player) -> int:
    if not p.upgrades:
        return LANTERN_SLOTS
    return LANTERN_SLOTS - sum(1 for u in p.upgrades if c.upgrade[u].kind == "lantern")


def inventory_slots(c: Content, p: Player) -> int:
    if not p.upgrades:
        return INVENTORY_SLOTS
    return INVENTORY_SLOTS - sum(1 for u in p.upgrades if c.upgrade[u].kind == "inventory")


def _lanterns(s: State, c: Content, p: Player, delta: int, ev: Events) -> None:
    if delta > 0:
        delta = min(delta, s.supply["lanterns"], lantern_slots(c, p) - p.lanterns)
    else:
        delta = -min(p.lanterns, -delta)
    if delta:
        p.lanterns += delta
        s.supply["lanterns"] -= delta
        ev.append({"type": "lanterns", "seat": p.seat, "delta": delta})


def _resource(s: State, p: Player, kind: str, delta: int, ev: Events) -> None:
    """Quartz or horseshoes; over the inventory limit, `_settle` asks what to discard."""
    held = p.quartz if kind == "quartz" else p.horseshoes
    delta = min(delta, s.supply[kind]) if delta > 0 else -min(held, -delta)
    if not delta:
        return
    if kind == "quartz":
        p.quartz += delta
    else:
        p.horseshoes += delta
    s.supply[kind] -= delta
    ev.append({"type": kind, "seat": p.seat, "delta": delta})


def _gain_illuminated(s: State, c: Content, p: Player, ev: Events) -> None:
    """Ruling R5: a third illuminated die is not taken (it stays in the supply)."""
    if s.supply["illuminated"] <= 0 or len(p.special) >= MAX_ILLUMINATED:
        ev.append({"type": "illuminated_lost", "seat": p.seat})
        return
    v = _roll(s, c.board.illuminated_faces)
    s.supply["illuminated"] -= 1
    p.special.append(v)
    ev.append({"type": "illuminated", "seat": p.seat, "value": v})


def _gain_good(s: State, c: Content, p: Player, good: str, up: bool) -> None:
    """A good from the supply joins the seat's incoming goods: a `store` choice follows."""
    if s.goods_supply[good] <= 0:
        return  # ruling R30: the supply of each good is 14 tiles
    s.goods_supply[good] -= 1
    p.incoming.append({"good": good, "up": up})


def _return_piece(s: State, p: Player, piece: dict[str, Any]) -> None:
    p.pieces.remove(piece)
    if piece["good"] != "upgrade":
        s.goods_supply[piece["good"]] += 1


def _apply_effect(s: State, c: Content, p: Player, e: Effect, ev: Events) -> None:
    if e.coins is not None:
        _coins(s, p, e.coins, ev, "effect")
    elif e.prestige is not None:
        _prestige(s, p, e.prestige, ev)
    elif e.lanterns is not None:
        _lanterns(s, c, p, e.lanterns, ev)
    elif e.quartz is not None:
        _resource(s, p, "quartz", e.quartz, ev)
    elif e.horseshoes is not None:
        _resource(s, p, "horseshoes", e.horseshoes, ev)
    elif e.good is not None:
        _gain_good(s, c, p, e.good, e.upgraded)
    elif e.any_good:
        _ask(s, {"kind": "choose_good", "seat": p.seat, "options": list(c.goods), "up": e.upgraded})
    elif e.cheap_good:
        _ask(s, {"kind": "choose_good", "seat": p.seat, "options": cheap_goods(c, s), "up": False})
    elif e.lose_good:
        if st.goods_of(p) or any(g["good"] != "upgrade" for g in p.incoming):
            _ask(s, {"kind": "lose_good", "seat": p.seat})
    elif e.illuminated:
        _gain_illuminated(s, c, p, ev)


def _effects(s: State, c: Content, p: Player, effects: tuple[Effect, ...], ev: Events) -> None:
    for e in effects:
        _apply_effect(s, c, p, e, ev)


def _join_hero(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    """A hero joins the wagon and gives its bonus; over 3 heroes a discard is asked first
    (the bonus is lost if the new hero is the one discarded)."""
    p.heroes.append(hero)
    ev.append({"type": "hero_joined", "seat": p.seat, "hero": hero})
    if len(p.heroes) > HERO_SLOTS:
        _ask(s, {"kind": "hero_overflow", "seat": p.seat, "new": hero})
    else:
        _hero_bonus(s, c, p, hero, ev)


def _hero_bonus(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    bonus = c.hero[hero].bonus
    if bonus == "lantern":
        _lanterns(s, c, p, 1, ev)
    elif bonus == "horseshoe":
        _resource(s, p, "horseshoes", 1, ev)


def _lose_hero(s: State, c: Content, p: Player, hero: str) -> None:
    """A hero leaves the wagon; the good it stored goes back to the incoming goods."""
    p.heroes.remove(hero)
    area = st.HERO + hero
    for q in [q for q in p.pieces if q["area"] == area]:
        p.pieces.remove(q)
        p.incoming.insert(0, {"good": q["good"], "up": q["up"]})


def _gain_commission(s: State, c: Content, p: Player, town: str, ev: Events) -> None:
    k = s.stacks[town].pop(0)
    p.commissions.append(k)
    ev.append({"type": "commission", "seat": p.seat, "commission": k})
    if len(p.commissions) > COMMISSION_SLOTS:
        _ask(s, {"kind": "commission_overflow", "seat": p.seat})


def _deed_pick_ok(s: State, pick: str | None) -> bool:
    if pick == "top":
        return bool(s.decks["deeds"])
    return pick in ("0", "1") and s.courtyard[int(pick)] is not None


def _gain_deed(s: State, c: Content, p: Player, pick: str, ev: Events) -> None:
    """A deed from courtyard slot 0/1 with its banner bonus, or the blind top card."""
    if pick == "top":
        d = _draw_deed(s)
        p.deeds.append(d)
        ev.append({"type": "deed", "seat": p.seat, "from": "top"})
        ev.append({"type": "deed_drawn", "seat": p.seat, "deed": d, "to": p.seat})
        return
    i = int(pick)
    taken = s.courtyard[i]
    assert taken is not None
    s.courtyard[i] = None
    p.deeds.append(taken)
    ev.append({"type": "deed", "seat": p.seat, "from": f"slot {i}"})
    ev.append({"type": "deed_taken", "seat": p.seat, "deed": taken, "to": p.seat})
    _apply_effect(s, c, p, c.banners[i], ev)


def _has_upgrade_room(c: Content, p: Player) -> bool:
    velvet = any(c.steed[x].ability == "many_upgrades" for x in p.steeds)
    return velvet or not p.upgrades


def _upgrade_ok(s: State, c: Content, p: Player, pick: str | None) -> bool:
    if pick not in s.upgrades_track or not _has_upgrade_room(c, p):
        return False
    kind = c.upgrade[pick].kind
    if kind == "inventory":
        return bool(s.unused_steeds)
    return True


def _gain_upgrade(s: State, c: Content, p: Player, pick: str, ev: Events) -> None:
    s.upgrades_track.remove(pick)
    p.upgrades.append(pick)
    ev.append({"type": "upgrade", "seat": p.seat, "upgrade": pick})
    if any(c.steed[x].ability == "many_upgrades" for x in p.steeds):
        _prestige(s, p, 2, ev)
    kind = c.upgrade[pick].kind
    if kind == "lantern" and p.lanterns > lantern_slots(c, p):
        _lanterns(s, c, p, lantern_slots(c, p) - p.lanterns, ev)
    elif kind == "storage":  # ruling R35: the tile is stored like a good, never discarded
        p.incoming.insert(0, {"good": "upgrade", "up": False})
    elif kind == "inventory":
        _ask(s, {"kind": "choose_steed", "seat": p.seat})


def _dark_market_gain(
    s: State, c: Content, p: Player, steps: int, pick: str | None, ev: Events
) -> None:
    s.dm_pos = (s.dm_pos + steps) % 4
    space = c.board.dark_market[s.dm_pos]
    ev.append({"type": "dark_market", "seat": p.seat, "space": space.space})
    if space.goods:
        for g in space.goods:
            _gain_good(s, c, p, g, False)
    elif pick and pick.startswith("commission:"):
        _gain_commission(s, c, p, pick.split(":", 1)[1], ev)
    elif pick and pick.startswith("deed:"):
        _gain_deed(s, c, p, pick.split(":", 1)[1], ev)


def _dark_market_picks(s: State, c: Content, steps: int) -> list[str | None]:
    pos = (s.dm_pos + steps) % 4
    if c.board.dark_market[pos].goods:
        return [None]
    out: list[str | None] = [f"commission:{t}" for t in c.towns if s.stacks[t]]
    out += [f"deed:{d}" for d in ("0", "1", "top") if _deed_pick_ok(s, d)]
    return out


def _dark_market_pick_ok(s: State, c: Content, steps: int, pick: str | None) -> bool:
    return pick in _dark_market_picks(s, c, steps)


def ruins_goods(c: Content, s: State, steps: int) -> list[str]:
    goods = c.board.ruins[(s.ruins_pos + steps) % 4].goods
    return list(goods) if goods else list(c.goods)


def _ruins_gain(s: State, c: Content, p: Player, steps: int, good: str, ev: Events) -> None:
    s.ruins_pos = (s.ruins_pos + steps) % 4
    ev.append({"type": "ruins", "seat": p.seat, "space": c.board.ruins[s.ruins_pos].space})
    _gain_good(s, c, p, good, True)


def _ruins_result(s: State, c: Content, p: Player, ev: Events) -> None:
    """Roll the ruins die and gain its result (ruling R15)."""
    face = _roll(s, c.board.ruins_die)
    ev.append({"type": "ruins_die", "seat": p.seat, "face": face})
    if face == "illuminated":
        face = _roll(s, c.board.ruins_die)
        ev.append({"type": "ruins_die", "seat": p.seat, "face": face, "reroll": True})
        if face == "illuminated":
            _gain_illuminated(s, c, p, ev)
            return
    if face == "again":
        _ask(s, {"kind": "ruins_again", "seat": p.seat})
    elif face == "cheap_good":
        _ask(s, {"kind": "choose_good", "seat": p.seat, "options": cheap_goods(c, s), "up": False})
    elif face == "quartz":
        _resource(s, p, "quartz", 1, ev)
    elif face == "two_coins":
        _coins(s, p, 2, ev, "ruins")
    elif face == "hero" and (any(s.inn) or s.decks["heroes"]):
        _ask(s, {"kind": "take_hero", "seat": p.seat})


def _oracle(s: State, c: Content, p: Player, ev: Events) -> None:
    i = _roll(s, list(range(6)))
    ev.append({"type": "oracle", "seat": p.seat, "face": i})
    _effects(s, c, p, c.board.oracle_die[i], ev)


def _region_benefit(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    town = c.hero_town[c.hero[hero].type]
    _effects(s, c, p, c.board.region_benefits[c.town[town].region], ev)


def _deliver_hero(s: State, c: Content, p: Player, hero: str, ev: Events) -> None:
    town = c.hero_town[c.hero[hero].type]
    _lose_hero(s, c, p, hero)
    p.delivered_heroes.append(hero)
    _note_delivery(c, p, town)
    ev.append({"type": "hero_delivered", "seat": p.seat, "hero": hero, "town": town})
    _region_benefit(s, c, p, hero, ev)


def _note_delivery(c: Content, p: Player, town: str) -> None:
    if town not in p.towns_delivered:
        p.towns_delivered.append(town)
    region = c.town[town].region
    p.region_deliveries[region] = p.region_deliveries.get(region, 0) + 1


def has_steed(c: Content, p: Player, ability: str) -> bool:
    return any(c.steed[x].ability == ability for x in p.steeds)


def _upgrade_kind(c: Content, p: Player, kind: str) -> bool:
    return any(c.upgrade[u].kind == kind for u in p.upgrades)


# --- the gate --------------------------------------------------------------------------------


def _pending(s: State, seat: int, *kinds: str) -> dict[str, Any] | RuleError:
    if not s.pending or s.pending[0]["kind"] not in kinds:
        return _err("no_such_choice", f"there is no {kinds[0].replace('_', ' ')} choice now")
    if s.pending[0]["seat"] != seat:
        return _err("not_your_choice", f"seat {s.pending[0]['seat']} is choosing, not you")
    return s.pending[0]


def _turn(s: State, seat: int, step: str | None = None) -> Check:
    if s.phase != PLAY:
        return _err("wrong_phase", f"not during a turn (phase: {s.phase})")
    if seat != s.turn_seat:
        return _err("not_your_turn", f"it is seat {s.turn_seat}'s turn, not seat {seat}'s")
    if s.pending:
        return _err("pending_choice", "a choice must be made first")
    if step and s.step != step:
        return _err("wrong_step", f"this is the {s.step} step, not {step}")
    return None


def _activation(s: State, seat: int, target: str) -> Check:
    err = _turn(s, seat, ACTIVATE)
    if err:
        return err
    if s.acts_left <= 0 or target not in s.acts:
        return _err("not_adjacent", f"{target} cannot be activated now (open: {s.acts})")
    return None


def _use_target(s: State, c: Content, target: str) -> None:
    s.acts_left -= 1
    if target in c.building:
        s.acts = [t for t in s.acts if t not in c.building]
    else:
        s.acts.remove(target)
    if s.acts_left <= 0:
        s.acts = []


_AUTO_PLACE = A.PlaceGood()


@functools.lru_cache(maxsize=16384)
def _mk(cls: type[A.Command], *args: Any) -> Any:
    """An interned command (frozen values: the listing reuses them)."""
    return cls(*args)


class Handler:
    """`listing` is what `legal_actions` shows for this kind once the gate has let the kind
    through: by default the candidates that pass `check`. A few hot handlers override it with
    a direct construction; `tests/darkroad/test_listing.py` proves at every state of many
    games that the override equals the candidates passing `check`."""

    cmd: type[A.Command] = A.Command

    def candidates(self, s: State, c: Content, seat: int) -> Iterator[Any]:
        yield from ()

    def listing(self, s: State, c: Content, seat: int) -> list[Any]:
        return [x for x in self.candidates(s, c, seat) if self.check(s, c, seat, x) is None]

    def check(self, s: State, c: Content, seat: int, cmd: Any) -> Check:
        raise NotImplementedError

    def do(self, s: State, c: Content, seat: int, cmd: Any, ev: Events) -> None:
        raise NotImplementedError


# --- setup choices ------------------------------------------------------------------------------


class Draft(Handler):
    """Drafting Variant: take one steed + starting-hero stack, in seat order."""

    cmd = A.Draft

    def candidates(self, s, c, seat):
        for i, stack in enumerate(s.setup_stacks):
            if stack:
                yield A.Draft(i)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "draft")
        if isinstance(pend, RuleError):
            return pend
        if not 0 <= cmd.stack < len(s.setup_stacks) or not s.setup_stacks[cmd.stack]:
            return _err("not_offered", f"stack {cmd.stack} is not on the table")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        steed, hero = s.setup_stacks[cmd.stack]
        s.setup_stacks[cmd.stack] = []
        p = s.players[seat]
        p.steeds = [steed]
        ev.append({"type": "drafted", "seat": seat, "steed": steed, "hero": hero})
        _join_hero(s, c, p, hero, ev)
        if not any(x["kind"] == "draft" for x in s.pending):
            s.setup_stacks = []
            s.unused_steeds = [
                x.id for x in c.steeds if not any(x.id in q.steeds for q in s.players)
            ]


class KeepDeed(Handler):
    """Setup 17 (advanced): keep one of the two deeds drawn; the other goes under the deck."""

    cmd = A.KeepDeed

    def candidates(self, s, c, seat):
        if s.pending and s.pending[0]["kind"] == "keep_deed":
            for d in s.pending[0]["options"]:
                yield A.KeepDeed(d)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "keep_deed")
        if isinstance(pend, RuleError):
            return pend
        if cmd.deed not in pend["options"]:
            return _err("not_offered", f"{cmd.deed} is not one of the two deeds you drew")
        return None

    def do(self, s, c, seat, cmd, ev):
        pend = s.pending.pop(0)
        s.players[seat].deeds.append(cmd.deed)
        other = [d for d in pend["options"] if d != cmd.deed]
        s.decks["deeds"].extend(other)  # the other to the bottom of the deck
        ev.append({"type": "deed_kept", "seat": seat})
        ev.append({"type": "deed_kept", "seat": seat, "deed": cmd.deed, "to": seat})


# --- step 1: plan ---------------------------------------------------------------------------


def final_rounds(s: State) -> bool:
    return s.round in LAST_ROUNDS


class ResetDice(Handler):
    """Plan: reset the locked dice to 1/2/3 when all three match (ruling R4)."""

    cmd = A.ResetDice

    def candidates(self, s, c, seat):
        yield A.ResetDice()

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat, PLAN)
        if err:
            return err
        p = s.players[seat]
        if p.reset_done:
            return _err("already_reset", "the locked dice were already reset this turn")
        if None in p.locked or len(set(p.locked)) != 1:
            return _err("dice_differ", f"the locked dice {p.locked} do not all match")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        p.locked = [1, 2, 3]
        p.reset_done = True
        ev.append({"type": "dice_reset", "seat": seat})


def _plan_options(s: State, c: Content, p: Player, slot: int) -> list[str | None]:
    if slot == 1:
        return list(c.goods) if final_rounds(s) else [None]
    if slot == 2:
        if _upgrade_kind(c, p, "slot2"):
            return ["lantern", "both"] if p.special else ["lantern"]
        return ["lantern", "illuminated"] if p.special else ["lantern"]
    if _upgrade_kind(c, p, "slot3"):
        return ["coins", "prestige"]
    return ["coins", "rotate"]


class Plan(Handler):
    """Plan: bump a locked die with a reserve die and take that slot's special action."""

    cmd = A.Plan

    def listing(self, s, c, seat):
        p = s.players[seat]
        return [x for x in self.candidates(s, c, seat) if p.locked[x.slot - 1] is not None]

    def candidates(self, s, c, seat):
        p = s.players[seat]
        dice = sorted(set(p.reserve)) if p.reserve else [None]
        for slot in (1, 2, 3):
            for die in dice:
                for opt in _plan_options(s, c, p, slot):
                    yield _mk(A.Plan, slot, die, opt)

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat, PLAN)
        if err:
            return err
        p = s.players[seat]
        if cmd.slot not in (1, 2, 3):
            return _err("bad_slot", f"slot {cmd.slot}: the locked slots are 1, 2 and 3")
        if p.locked[cmd.slot - 1] is None:
            return _err("empty_slot", f"locked slot {cmd.slot} is empty")
        if p.reserve:
            if cmd.die not in p.reserve:
                return _err("no_such_die", f"no night die of value {cmd.die} in your reserve")
        elif cmd.die is not None:
            return _err("no_such_die", "your reserve is empty: bump a locked die without a die")
        if cmd.option not in _plan_options(s, c, p, cmd.slot):
            return _err("bad_option", f"{cmd.option!r} is not an option of slot {cmd.slot}")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        i = cmd.slot - 1
        p.pool_night = p.locked[i]
        if cmd.die is not None:
            p.reserve.remove(cmd.die)
            p.locked[i] = cmd.die
        else:
            p.locked[i] = None
        ev.append({"type": "plan", "seat": seat, "slot": cmd.slot, "die": p.pool_night})
        up = cmd.slot == 1 and _upgrade_kind(c, p, "slot1")
        if cmd.slot == 1:
            good = cmd.option if cmd.option else c.board.crafting[cmd.die]
            _gain_good(s, c, p, good, up)
        elif cmd.slot == 2:
            if cmd.option in ("lantern", "both"):
                _lanterns(s, c, p, 1, ev)
            if cmd.option in ("illuminated", "both"):
                p.pool_illuminated = p.special.pop(0)
        elif cmd.option == "coins":
            _coins(s, p, 3 if _upgrade_kind(c, p, "slot3") else 2, ev, "plan")
        elif cmd.option == "prestige":
            _prestige(s, p, 1, ev)
        else:
            _rotate(s)
            ev.append({"type": "wheel_rotated", "seat": seat})
        s.step = MOVE


# --- step 2: move -----------------------------------------------------------------------------


class Move(Handler):
    """Move: by one die of the action pool (or Sugarfoot's 3), then at most one horseshoe."""

    cmd = A.Move

    def listing(self, s, c, seat):
        p = s.players[seat]
        shoes = (0, 1, -1) if p.horseshoes and not p.horseshoe_used else (0,)
        dice = ["night"] if p.pool_night is not None else []
        if p.pool_illuminated is not None:
            dice.append("illuminated")
        if has_steed(c, p, "move_three"):
            dice.append("steed")
        return [_mk(A.Move, d, h) for d in dice for h in shoes]

    def candidates(self, s, c, seat):
        p = s.players[seat]
        shoes = (0, 1, -1) if p.horseshoes and not p.horseshoe_used else (0,)
        for die in ("night", "illuminated", "steed"):
            for h in shoes:
                yield A.Move(die, h)

    def check(self, s, c, seat, cmd):
        err = _turn(s, seat, MOVE)
        if err:
            return err
        p = s.players[seat]
        if cmd.die == "night" and p.pool_night is None:
            return _err("no_such_die", "no night die in your action pool")
        if cmd.die == "illuminated" and p.pool_illuminated is None:
            return _err("no_such_die", "no illuminated die in your action pool")
        if cmd.die == "steed" and not has_steed(c, p, "move_three"):
            return _err("no_steed", "only Sugarfoot moves exactly 3 spaces")
        if cmd.die not in ("night", "illuminated", "steed"):
            return _err("bad_die", f"{cmd.die!r}: move by night, illuminated or steed")
        if cmd.horseshoe not in (-1, 0, 1):
            return _err("bad_horseshoe", "a horseshoe moves 1 space: -1, 0 or +1")
        if cmd.horseshoe and (p.horseshoes < 1 or p.horseshoe_used):
            return _err("no_horseshoe", "no horseshoe to spend this turn")
        return None

    def do(self, s, c, seat, cmd, ev):
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
        s.step = ACTIVATE


# --- step 3: the districts ----------------------------------------------------------------------


class Bazaar(Handler):
    """The Great Bazaar: opens the visit (rotate, change a die, then buy)."""

    cmd = A.Bazaar

    def candidates(self, s, c, seat):
        yield A.Bazaar()

    def check(self, s, c, seat, cmd):
        return _activation(s, seat, "bazaar")

    def do(self, s, c, seat, cmd, ev):
        _use_target(s, c, "bazaar")
        s.pending.insert(0, {"kind": "bazaar", "seat": seat, "rotated": False, "changed": False})
        ev.append({"type": "activated", "seat": seat, "target": "bazaar"})


class BazaarRotate(Handler):
    """The Great Bazaar: rotate the wheel one space, once per visit."""

    cmd = A.BazaarRotate

    def candidates(self, s, c, seat):
        yield A.BazaarRotate()

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "bazaar")
        if isinstance(pend, RuleError):
            return pend
        if pend["rotated"]:
            return _err("already_done", "the wheel was already rotated on this visit")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending[0]["rotated"] = True
        _rotate(s)
        ev.append({"type": "wheel_rotated", "seat": seat})


class BazaarChange(Handler):
    """The Great Bazaar: set one market die to another face (at most 2 per section)."""

    cmd = A.BazaarChange

    def listing(self, s, c, seat):
        if s.pending[0]["changed"]:
            return []
        return [
            _mk(A.BazaarChange, src, g)
            for src in c.goods
            if s.market[src]
            for g in c.goods
            if g != src and s.market[g] < 2
        ]

    def candidates(self, s, c, seat):
        for src in c.goods:
            if s.market[src]:
                for g in c.goods:
                    yield A.BazaarChange(src, g)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "bazaar")
        if isinstance(pend, RuleError):
            return pend
        if pend["changed"]:
            return _err("already_done", "a market die was already changed on this visit")
        if cmd.source not in s.market or not s.market[cmd.source]:
            return _err("no_such_die", f"no market die on the {cmd.source} section")
        if cmd.good not in s.market or cmd.good == cmd.source:
            return _err("bad_face", f"{cmd.good!r}: choose another good's face")
        if s.market[cmd.good] >= 2:
            return _err("section_full", f"the {cmd.good} section already holds 2 dice")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending[0]["changed"] = True
        s.market[cmd.source] -= 1
        s.market[cmd.good] += 1
        ev.append(
            {"type": "market_die_changed", "seat": seat, "from": cmd.source, "good": cmd.good}
        )


def bazaar_cost(s: State, c: Content, p: Player, goods: tuple[str, ...]) -> int:
    """Each section's price counted once (the second good of a section is free);
    Brembizánt takes $2 off, never below zero."""
    cost = sum(value(c, s, g) for g in set(goods))
    if has_steed(c, p, "bazaar_discount"):
        cost = max(0, cost - 2)
    return cost


@functools.lru_cache(maxsize=4096)
def _buy_cmd(goods: tuple[str, ...]) -> A.BazaarBuy:
    return A.BazaarBuy(goods)


class BazaarBuy(Handler):
    """The Great Bazaar: buy goods, each section's price paid once; ends the visit."""

    cmd = A.BazaarBuy

    def listing(self, s, c, seat):
        p = s.players[seat]
        budget = p.coins + (2 if has_steed(c, p, "bazaar_discount") else 0)
        combos: list[tuple[tuple[str, ...], int]] = [((), 0)]
        for g in c.goods:
            k = s.market[g]
            if not k:
                continue
            v = value(c, s, g)
            grown = []
            for goods, cost in combos:
                grown.append((goods, cost))
                grown.append(((*goods, g), cost + v))
                if k == 2:
                    grown.append(((*goods, g, g), cost + v))
            combos = grown
        return [_buy_cmd(goods) for goods, cost in combos if cost <= budget]

    def candidates(self, s, c, seat):
        avail = [g for g in c.goods for _ in range(s.market[g])]
        seen: set[tuple[str, ...]] = set()
        for k in range(len(avail) + 1):
            for combo in combinations(avail, k):
                if combo not in seen:
                    seen.add(combo)
                    yield A.BazaarBuy(combo)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "bazaar")
        if isinstance(pend, RuleError):
            return pend
        for g in set(cmd.goods):
            if g not in s.market or cmd.goods.count(g) > s.market[g]:
                return _err("not_available", f"not enough {g} dice on the wheel")
        cost = bazaar_cost(s, c, s.players[seat], cmd.goods)
        if cost > s.players[seat].coins:
            return _err("cannot_afford", f"{list(cmd.goods)} cost {cost} coins")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        p = s.players[seat]
        _coins(s, p, -bazaar_cost(s, c, p, cmd.goods), ev, "bazaar")
        for g in cmd.goods:
            s.market[g] -= 1
            s.market_aside += 1
            _gain_good(s, c, p, g, False)
        ev.append({"type": "bought", "seat": seat, "goods": list(cmd.goods)})


class TakeCommission(Handler):
    """The Queen's Commissions: the top commission of a stack of your choice."""

    cmd = A.TakeCommission

    def listing(self, s, c, seat):
        return [_mk(A.TakeCommission, t) for t in c.towns if s.stacks[t]]

    def candidates(self, s, c, seat):
        for t in c.towns:
            yield A.TakeCommission(t)

    def check(self, s, c, seat, cmd):
        err = _activation(s, seat, "commissions")
        if err:
            return err
        if cmd.town not in s.stacks or not s.stacks[cmd.town]:
            return _err("empty_stack", f"no commission left for {cmd.town}")
        return None

    def do(self, s, c, seat, cmd, ev):
        _use_target(s, c, "commissions")
        _gain_commission(s, c, s.players[seat], cmd.town, ev)


class DarkMarket(Handler):
    """The Dark Market: move the marker 1-4 spaces at a coin each, gain that space."""

    cmd = A.DarkMarket

    def listing(self, s, c, seat):
        coins = s.players[seat].coins
        return [
            _mk(A.DarkMarket, k, pick)
            for k in range(1, min(4, coins) + 1)
            for pick in _dark_market_picks(s, c, k)
        ]

    def candidates(self, s, c, seat):
        for steps in range(1, 5):
            for pick in _dark_market_picks(s, c, steps):
                yield A.DarkMarket(steps, pick)

    def check(self, s, c, seat, cmd):
        err = _activation(s, seat, "dark_market")
        if err:
            return err
        if not 1 <= cmd.steps <= 4:
            return _err("bad_steps", "move the marker 1 to 4 spaces")
        if cmd.steps > s.players[seat].coins:
            return _err("cannot_afford", f"{cmd.steps} spaces cost {cmd.steps} coins")
        if not _dark_market_pick_ok(s, c, cmd.steps, cmd.pick):
            return _err("bad_pick", f"{cmd.pick!r} is not offered on that space")
        return None

    def do(self, s, c, seat, cmd, ev):
        _use_target(s, c, "dark_market")
        p = s.players[seat]
        _coins(s, p, -cmd.steps, ev, "dark_market")
        _dark_market_gain(s, c, p, cmd.steps, cmd.pick, ev)


def match_requests(
    c: Content, p: Player, requests: tuple[str, ...], pieces: tuple[int, ...]
) -> list[dict[str, Any]] | None:
    """The pieces if each meets a distinct request (one good per request), else None."""
    left = list(requests)
    out = []
    by_id = {q["id"]: q for q in p.pieces}
    if len(set(pieces)) != len(pieces):
        return None
    for i in pieces:
        q = by_id.get(i)
        if q is None or q["good"] not in left:
            return None
        left.remove(q["good"])
        out.append(q)
    return out


def _request_candidates(p: Player, requests: tuple[str, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to meet some requests, one per distinct (good, side) choice."""
    opts: list[list[int | None]] = []
    for g in requests:
        kinds: dict[bool, int] = {}
        for q in p.pieces:
            if q["good"] == g and q["up"] not in kinds:
                kinds[q["up"]] = q["id"]
        opts.append([None, *kinds.values()])
    seen: set[tuple[int, ...]] = set()
    for combo in product(*opts):
        ids = tuple(sorted(x for x in combo if x is not None))
        if ids and len(set(ids)) == len(ids) and ids not in seen:
            seen.add(ids)
            yield ids


class Inn(Handler):
    """The Ringway Inn: sell requested goods to a hero, who joins the wagon."""

    cmd = A.Inn

    def listing(self, s, c, seat):
        return list(self.candidates(s, c, seat))

    def candidates(self, s, c, seat):
        p = s.players[seat]
        for i, h in enumerate(s.inn):
            if h:
                for ids in _request_candidates(p, c.hero[h].requests):
                    yield A.Inn(i, ids)

    def check(self, s, c, seat, cmd):
        err = _activation(s, seat, "inn")
        if err:
            return err
        if not 0 <= cmd.slot < len(s.inn) or s.inn[cmd.slot] is None:
            return _err("no_such_hero", f"no hero in inn slot {cmd.slot}")
        if not cmd.goods:
            return _err("sell_one", "sell at least one good")
        h = s.inn[cmd.slot]
        assert h is not None
        if match_requests(c, s.players[seat], c.hero[h].requests, cmd.goods) is None:
            return _err("not_requested", f"goods {list(cmd.goods)} do not meet {h}'s requests")
        return None

    def do(self, s, c, seat, cmd, ev):
        _use_target(s, c, "inn")
        p = s.players[seat]
        h = s.inn[cmd.slot]
        assert h is not None
        sold = match_requests(c, p, c.hero[h].requests, cmd.goods) or []
        earned = 0
        for q in sold:
            earned += value(c, s, q["good"]) + (1 if q["up"] else 0)
            _return_piece(s, p, q)
        ups = sum(1 for q in sold if q["up"])
        ev.append({"type": "sold", "seat": seat, "hero": h, "goods": [q["good"] for q in sold]})
        _coins(s, p, earned, ev, "inn")
        _resource(s, p, "quartz", ups, ev)
        s.inn[cmd.slot] = None
        _join_hero(s, c, p, h, ev)


def _visit_excursions(s: State, c: Content, p: Player, ev: Events) -> None:
    if has_steed(c, p, "excursion_lantern"):
        _lanterns(s, c, p, 1, ev)


class Ruins(Handler):
    """The Ruins of Yin, and the ruins die's "again" (answering a `ruins_again` choice)."""

    cmd = A.Ruins

    def candidates(self, s, c, seat):
        p = s.players[seat]
        for steps in range(1, 2 + len(p.heroes)):
            for g in ruins_goods(c, s, steps):
                yield A.Ruins(steps, g)

    def check(self, s, c, seat, cmd):
        again = bool(s.pending) and s.pending[0]["kind"] == "ruins_again"
        if again:
            pend = _pending(s, seat, "ruins_again")
            if isinstance(pend, RuleError):
                return pend
        else:
            err = _activation(s, seat, "excursions")
            if err:
                return err
        p = s.players[seat]
        if not 1 <= cmd.steps <= 1 + len(p.heroes):
            return _err("bad_steps", f"move the marker 1 to {1 + len(p.heroes)} spaces")
        if cmd.good not in ruins_goods(c, s, cmd.steps):
            return _err("bad_good", f"{cmd.good!r} is not offered on that space")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        if s.pending and s.pending[0]["kind"] == "ruins_again":
            s.pending.pop(0)
            _ruins_gain(s, c, p, cmd.steps, cmd.good, ev)
            return
        _use_target(s, c, "excursions")
        _visit_excursions(s, c, p, ev)
        _ruins_gain(s, c, p, cmd.steps, cmd.good, ev)
        s.pending.insert(0, {"kind": "ruins_die", "seat": seat})


class RuinsDie(Handler):
    """Ruins of Yin: return a lantern to roll the ruins die, or not."""

    cmd = A.RuinsDie

    def candidates(self, s, c, seat):
        yield A.RuinsDie(True)
        yield A.RuinsDie(False)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "ruins_die")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.roll and not p.lanterns and not _upgrade_kind(c, p, "lantern"):
            return _err("no_lantern", "rolling the ruins die costs a lantern")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        if not cmd.roll:
            return
        p = s.players[seat]
        if not _upgrade_kind(c, p, "lantern"):
            _lanterns(s, c, p, -1, ev)
        _ruins_result(s, c, p, ev)


class TakeHero(Handler):
    """Ruins die: a face-up hero or the deck top joins without a sale."""

    cmd = A.TakeHero

    def candidates(self, s, c, seat):
        for i in (-1, 0, 1, 2, 3):
            yield A.TakeHero(i)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "take_hero")
        if isinstance(pend, RuleError):
            return pend
        if cmd.slot == -1:
            return None if s.decks["heroes"] else _err("empty_deck", "the hero deck is empty")
        if not 0 <= cmd.slot < len(s.inn) or s.inn[cmd.slot] is None:
            return _err("no_such_hero", f"no hero in inn slot {cmd.slot}")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        if cmd.slot == -1:
            h = s.decks["heroes"].pop(0)
        else:
            h = s.inn[cmd.slot]
            s.inn[cmd.slot] = None
        assert h is not None
        _join_hero(s, c, s.players[seat], h, ev)


# --- the caravan ------------------------------------------------------------------------------


class Caravan(Handler):
    """Yurg's Excursions: lead a caravan (companion, route, destination)."""

    cmd = A.Caravan

    def listing(self, s, c, seat):
        p = s.players[seat]
        comps = [i for i in range(3) if s.row[i] is not None]
        if s.decks["companions"]:
            comps.append(-1)
        routes = ROUTES if p.free_shortcut or p.lanterns >= SHORTCUT_LANTERNS else ROUTES[:1]
        return [_mk(A.Caravan, i, r, t) for i in comps for r in routes for t in c.towns]

    def candidates(self, s, c, seat):
        for comp in (0, 1, 2, -1):
            for route in ROUTES:
                for t in c.towns:
                    yield A.Caravan(comp, route, t)

    def check(self, s, c, seat, cmd):
        err = _activation(s, seat, "excursions")
        if err:
            return err
        if cmd.companion == -1:
            if not s.decks["companions"]:
                return _err("empty_deck", "the companion deck is empty")
        elif not 0 <= cmd.companion < 3 or s.row[cmd.companion] is None:
            return _err("no_such_companion", f"no companion in row slot {cmd.companion}")
        if cmd.route not in ROUTES:
            return _err("bad_route", f"{cmd.route!r}: the route is dark_road or shortcut")
        if cmd.town not in c.town:
            return _err("bad_town", f"{cmd.town!r} is not an outlying town")
        p = s.players[seat]
        if cmd.route == "shortcut" and not p.free_shortcut and p.lanterns < SHORTCUT_LANTERNS:
            return _err("no_lantern", "a shortcut costs 3 lanterns")
        return None

    def do(self, s, c, seat, cmd, ev):
        _use_target(s, c, "excursions")
        p = s.players[seat]
        _visit_excursions(s, c, p, ev)
        extra = 0
        if cmd.companion == -1:
            comp = s.decks["companions"].pop(0)
        else:
            comp = s.row[cmd.companion]
            assert comp is not None
            s.row[cmd.companion] = None
            if s.row_die[cmd.companion]:
                s.row_die[cmd.companion] = False
                extra = 1
        p.companions.append({"id": comp, "used": []})
        if cmd.route == "shortcut":
            if p.free_shortcut:
                p.free_shortcut = False
            else:
                _lanterns(s, c, p, -SHORTCUT_LANTERNS, ev)
        ev.append(
            {
                "type": "caravan",
                "seat": seat,
                "companion": comp,
                "route": cmd.route,
                "town": cmd.town,
            }
        )
        s.supply["travel"] += extra  # the companion's die joins the pool via `dice`
        others = [(seat + i) % s.n for i in range(1, s.n)]
        s.travel = {
            "leader": seat,
            "route": cmd.route,
            "town": cmd.town,
            "companion": comp,
            "extra_die": extra,
            "travellers": [seat],
            "asking": others,
            "stage": "join",
            "event": None,
            "dice": [],
            "order": [],
            "visiting": [],
            "final": False,
        }


class Join(Handler):
    """A caravan: each other seat says yes or no, in seat order."""

    cmd = A.Join

    def candidates(self, s, c, seat):
        yield A.Join(True)
        yield A.Join(False)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "join")
        return pend if isinstance(pend, RuleError) else None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        assert s.travel is not None
        if cmd.yes:
            s.travel["travellers"].append(seat)
        ev.append({"type": "join", "seat": seat, "yes": cmd.yes})


def _start_event(s: State, c: Content, ev: Events) -> None:
    t = s.travel
    assert t is not None
    deck = t["route"]
    if not s.decks[deck]:  # ruling R18: an empty event deck is its discards reshuffled
        s.decks[deck] = s.discards[deck]
        s.discards[deck] = []
        s.rng = rng.shuffle(s.rng, s.decks[deck])
    t["event"] = s.decks[deck].pop(0)
    n = len(t["travellers"]) + t["extra_die"]
    n = min(n, s.supply["travel"])
    s.supply["travel"] -= n
    t["dice_held"] = n
    t["dice"] = sorted(_roll(s, c.board.travel_faces) for _ in range(n))
    leader = t["leader"]
    ring = [(leader + i) % s.n for i in range(s.n)]
    if t["route"] == "shortcut":
        ring = ring[1:] + ring[:1]
    t["order"] = [x for x in ring if x in t["travellers"]]
    t["stage"] = "dice"
    ev.append({"type": "event", "event": t["event"], "dice": list(t["dice"])})


def _boost_abilities(c: Content, p: Player, ability: str) -> list[dict[str, Any]]:
    return [
        x
        for x in p.companions
        if c.companion[x["id"]].kind == "loyal"
        and ability in c.companion[x["id"]].abilities
        and ability not in x["used"]
    ]


class RerollTravel(Handler):
    """A caravan: spend a lantern to reroll the remaining travel dice."""

    cmd = A.RerollTravel

    def candidates(self, s, c, seat):
        yield A.RerollTravel()

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "travel_die")
        if isinstance(pend, RuleError):
            return pend
        if s.players[seat].lanterns < 1:
            return _err("no_lantern", "a reroll costs a lantern")
        return None

    def do(self, s, c, seat, cmd, ev):
        t = s.travel
        assert t is not None
        _lanterns(s, c, s.players[seat], -1, ev)
        t["dice"] = sorted(_roll(s, c.board.travel_faces) for _ in t["dice"])
        ev.append({"type": "travel_reroll", "seat": seat, "dice": list(t["dice"])})


class TakeTravelDie(Handler):
    """A caravan: take a travel die and gain (or pay) the event's effect for it."""

    cmd = A.TakeTravelDie

    def candidates(self, s, c, seat):
        t = s.travel
        if not t or not s.pending or s.pending[0]["kind"] != "travel_die":
            return
        p = s.players[seat]
        own = seat == s.turn_seat and p.quartz > 0
        whispers = (False, True) if has_steed(c, p, "travel_plus_one") else (False,)
        boosts = (0, 1, 2) if own and _boost_abilities(c, p, "travel_boost") else (0,)
        twins = (False, True) if own and _boost_abilities(c, p, "twin_travel_die") else (False,)
        for v in sorted(set(t["dice"])):
            for whisper, boost, twin in product(whispers, boosts, twins):
                yield A.TakeTravelDie(v, whisper, boost, twin)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "travel_die")
        if isinstance(pend, RuleError):
            return pend
        t = s.travel
        assert t is not None
        p = s.players[seat]
        if cmd.value not in t["dice"]:
            return _err("no_such_die", f"no travel die shows {cmd.value} (dice: {t['dice']})")
        if cmd.whisper and not has_steed(c, p, "travel_plus_one"):
            return _err("no_steed", "only Whisper adds 1 to a travel die")
        if cmd.boost not in (0, 1, 2):
            return _err("bad_boost", "a boost adds 1 or 2")
        own = seat == s.turn_seat  # companions only on your own turn
        if cmd.boost and not (own and p.quartz and _boost_abilities(c, p, "travel_boost")):
            return _err("no_companion", "no companion to add to your travel die now")
        if cmd.twin and not (own and p.quartz and _boost_abilities(c, p, "twin_travel_die")):
            return _err("no_companion", "no Threy Cat to duplicate your travel die now")
        if cmd.twin and cmd.boost and p.quartz < 2:
            return _err("no_quartz", "two gifts need two blazing quartz")
        if cmd.value + cmd.whisper + cmd.boost > 6:
            return _err("too_high", "a travel die cannot go above 6")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        t = s.travel
        assert t is not None
        p = s.players[seat]
        t["dice"].remove(cmd.value)
        face = cmd.value + cmd.whisper + cmd.boost
        for used, ability in ((cmd.boost, "travel_boost"), (cmd.twin, "twin_travel_die")):
            if used:
                _gift(s, p, _boost_abilities(c, p, ability)[0], ability, ev)
        ev.append({"type": "travel_die", "seat": seat, "value": cmd.value, "face": face})
        ev_card = c.event[t["event"]]
        for _ in range(2 if cmd.twin else 1):
            _effects(s, c, p, ev_card.faces[face], ev)


def _gift(s: State, p: Player, comp: dict[str, Any], ability: str, ev: Events) -> None:
    p.quartz -= 1
    comp["used"].append(ability)
    ev.append({"type": "gift", "seat": p.seat, "companion": comp["id"], "ability": ability})


def _visit_options(s: State, c: Content, seat: int) -> list[str | None]:
    t = s.travel
    assert t is not None
    if t["final"]:
        return [*c.towns, None]
    if seat == t["leader"]:
        return [t["town"], None]
    return [t["town"], c.twin(t["town"]), None]


class Visit(Handler):
    """Visiting towns: the declared town, its region's other town (not the leader), or pass."""

    cmd = A.Visit

    def candidates(self, s, c, seat):
        if s.travel and s.pending and s.pending[0]["kind"] == "visit":
            for town in _visit_options(s, c, seat):
                yield A.Visit(town)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "visit")
        if isinstance(pend, RuleError):
            return pend
        if cmd.town not in _visit_options(s, c, seat):
            return _err("bad_town", f"you may not visit {cmd.town!r} with this caravan")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        ev.append({"type": "visit", "seat": seat, "town": cmd.town})
        if cmd.town is not None and _can_deliver(c, s.players[seat], cmd.town):
            s.pending.insert(0, {"kind": "deliver", "seat": seat, "town": cmd.town})


def _can_deliver(c: Content, p: Player, town: str) -> bool:
    """Whether anything can be delivered to `town` (else the visit needs no more choices)."""
    if any(c.hero_town[c.hero[h].type] == town for h in p.heroes):
        return True
    held = {q["good"] for q in p.pieces}
    return any(
        c.commission[k].town == town and held & set(c.commission[k].requests) for k in p.commissions
    )


class DeliverCommission(Handler):
    """Delivering Commissions: 1/3/6 prestige, +1 per upgraded good."""

    cmd = A.DeliverCommission

    def candidates(self, s, c, seat):
        if not s.pending or s.pending[0]["kind"] != "deliver":
            return
        p = s.players[seat]
        for k in p.commissions:
            if c.commission[k].town == s.pending[0]["town"]:
                for ids in _request_candidates(p, c.commission[k].requests):
                    yield A.DeliverCommission(k, ids)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "deliver")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.commission not in p.commissions:
            return _err("no_such_commission", f"{cmd.commission} is not on your wagon")
        if c.commission[cmd.commission].town != pend["town"]:
            return _err("wrong_town", f"{cmd.commission} goes to another town")
        if not cmd.goods:
            return _err("deliver_one", "deliver at least one good")
        if match_requests(c, p, c.commission[cmd.commission].requests, cmd.goods) is None:
            return _err("not_requested", f"goods {list(cmd.goods)} do not meet the commission")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        k = c.commission[cmd.commission]
        goods = match_requests(c, p, k.requests, cmd.goods) or []
        ups = sum(1 for q in goods if q["up"])
        for q in goods:
            _return_piece(s, p, q)
        p.commissions.remove(k.id)
        p.delivered_commissions.append(k.id)
        p.full_commissions += len(goods) == 3
        p.upgraded_delivered += ups
        _note_delivery(c, p, k.town)
        ev.append(
            {"type": "commission_delivered", "seat": seat, "commission": k.id, "goods": len(goods)}
        )
        _prestige(s, p, (0, 1, 3, 6)[len(goods)] + ups, ev)
        if has_steed(c, p, "commission_quartz"):
            _resource(s, p, "quartz", ups, ev)


class DeliverHero(Handler):
    """Delivering Heroes: the region's benefit."""

    cmd = A.DeliverHero

    def candidates(self, s, c, seat):
        for h in s.players[seat].heroes:
            yield A.DeliverHero(h)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "deliver")
        if isinstance(pend, RuleError):
            return pend
        if cmd.hero not in s.players[seat].heroes:
            return _err("no_such_hero", f"{cmd.hero} is not on your wagon")
        if c.hero_town[c.hero[cmd.hero].type] != pend["town"]:
            return _err("wrong_town", f"{cmd.hero} travels to another town")
        return None

    def do(self, s, c, seat, cmd, ev):
        _deliver_hero(s, c, s.players[seat], cmd.hero, ev)


class DoneDelivering(Handler):
    """Ends a visit's deliveries."""

    cmd = A.DoneDelivering

    def candidates(self, s, c, seat):
        yield A.DoneDelivering()

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "deliver")
        return pend if isinstance(pend, RuleError) else None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)


FORTUNES = ("die", "deed", "coins", "upgrade")


class Fortune(Handler):
    """Good fortune A-D for the caravan's leader (1 on the dark road, 2 on a shortcut)."""

    cmd = A.Fortune

    def candidates(self, s, c, seat):
        yield A.Fortune("die")
        yield A.Fortune("coins")
        for d in ("0", "1", "top"):
            yield A.Fortune("deed", d)
        for u in s.upgrades_track:
            yield A.Fortune("upgrade", u)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "fortune")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.kind not in FORTUNES:
            return _err("bad_fortune", f"{cmd.kind!r}: a good fortune is die, deed, coins, upgrade")
        if cmd.kind == "deed" and not _deed_pick_ok(s, cmd.pick):
            return _err("bad_pick", f"deed {cmd.pick!r} is not available")
        if cmd.kind == "upgrade" and not _upgrade_ok(s, c, p, cmd.pick):
            return _err("bad_pick", f"upgrade {cmd.pick!r} cannot be taken now")
        if cmd.kind in ("die", "coins") and cmd.pick is not None:
            return _err("bad_pick", f"{cmd.kind} takes no pick")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        p = s.players[seat]
        ev.append({"type": "fortune", "seat": seat, "kind": cmd.kind})
        if cmd.kind == "die":
            _gain_illuminated(s, c, p, ev)
        elif cmd.kind == "deed":
            assert cmd.pick is not None
            _gain_deed(s, c, p, cmd.pick, ev)
        elif cmd.kind == "coins":
            amount = 5 if s.fortune_coins else 3  # ruling R25: the 5 coins on the track
            s.fortune_coins = 0
            _coins(s, p, amount, ev, "fortune")
        else:
            assert cmd.pick is not None
            _gain_upgrade(s, c, p, cmd.pick, ev)


class ChooseSteed(Handler):
    """The inventory upgrade's second steed, from the unused ones."""

    cmd = A.ChooseSteed

    def candidates(self, s, c, seat):
        for x in s.unused_steeds:
            yield A.ChooseSteed(x)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "choose_steed")
        if isinstance(pend, RuleError):
            return pend
        if cmd.steed not in s.unused_steeds:
            return _err("not_offered", f"{cmd.steed} is not an unused steed")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        s.unused_steeds.remove(cmd.steed)
        s.players[seat].steeds.append(cmd.steed)
        ev.append({"type": "steed", "seat": seat, "steed": cmd.steed})


# --- buildings ----------------------------------------------------------------------------------


def _building_options(
    s: State, c: Content, p: Player, b: str
) -> Iterator[tuple[str | None, str | None, str | None]]:
    """(pay, pick, pick2) for each way to use the building; checked again by `_building_ok`."""
    cheap = cheap_goods(c, s)
    if b in ("quartz_mine", "oracle", "lanternworks_none"):
        yield (None, None, None)
    elif b == "surveyor":
        yield ("coins", None, None)
        yield ("quartz", None, None)
    elif b == "icebreaker_harbor":
        for g in c.goods:
            yield (None, g, None)
    elif b == "guildhall":
        for pay in ("coins", "lantern"):
            for g in c.goods:
                for g2 in cheap:
                    yield (pay, g, g2)
    elif b == "candle_quartz":
        pays = ["coins"] + [str(q["id"]) for q in _cheap_pieces(c, s, p)]
        picks = [f"hero:{i}" for i in range(4)] + [f"commission:{t}" for t in c.towns]
        for pay in pays:
            for pick in picks:
                yield (pay, pick, None)
    elif b == "lanternworks":
        for g in cheap:
            yield (None, g, None)
    elif b == "mansion":
        items = ("lantern", "quartz", "coins")
        yield (None, None, None)
        for give in items:
            for get in items:
                if give != get:
                    yield (give, get, None)
    elif b == "workshop":
        for q in st.goods_of(p):
            if not q["up"]:
                yield (None, str(q["id"]), None)
        yield (None, None, None)
    elif b == "filigree":
        pays = ["coins"] + [str(q["id"]) for q in st.goods_of(p)]
        for pay in pays:
            for g in cheap:
                yield (pay, g, None)


MANSION_ITEMS = ("lantern", "quartz", "coins")


def _mansion_trades(pay: str | None, pick: str | None) -> list[tuple[str, str]] | None:
    """The Mansion's trades: `pay` and `pick` list what is given and got, comma-separated
    ("coins,lantern" / "quartz,quartz"); none at all is allowed."""
    if pay is None and pick is None:
        return []
    gives, gets = (pay or "").split(","), (pick or "").split(",")
    if len(gives) != len(gets) or len(gives) > 8:
        return None
    trades = list(zip(gives, gets, strict=True))
    if any(a not in MANSION_ITEMS or b not in MANSION_ITEMS or a == b for a, b in trades):
        return None
    return trades


def _cheap_pieces(c: Content, s: State, p: Player) -> list[dict[str, Any]]:
    cheap = cheap_goods(c, s)
    return [q for q in st.goods_of(p) if not q["up"] and q["good"] in cheap]


def _piece(p: Player, ref: str | None) -> dict[str, Any] | None:
    if ref is None or not ref.isdigit():
        return None
    return next((q for q in p.pieces if q["id"] == int(ref) and q["good"] != "upgrade"), None)


def _building_ok(s: State, c: Content, p: Player, cmd: A.Building) -> str | None:
    """Why the building cannot be used this way, or None."""
    b, pay, pick, pick2 = cmd.building, cmd.pay, cmd.pick, cmd.pick2
    cheap = cheap_goods(c, s)
    if b in ("quartz_mine", "oracle"):
        return None if (pay, pick, pick2) == (None, None, None) else "takes no choice"
    if b == "surveyor":
        if pay == "coins":
            return None if p.coins >= 2 else "needs 2 coins"
        if pay == "quartz":
            return None if p.quartz >= 1 else "needs a blazing quartz"
        return "pay coins or quartz"
    if b == "icebreaker_harbor":
        return None if pick in c.goods and not s.market[pick] else "a good not on the wheel"
    if b == "guildhall":
        if pay == "coins" and p.coins < 2 or pay == "lantern" and p.lanterns < 1:
            return "cannot pay"
        if pay not in ("coins", "lantern"):
            return "pay coins or lantern"
        return None if pick in c.goods and pick2 in cheap else "a good and a $1 good"
    if b == "candle_quartz":
        if pay == "coins":
            if p.coins < 2:
                return "needs 2 coins"
        elif not any(str(q["id"]) == pay for q in _cheap_pieces(c, s, p)):
            return "pay 2 coins or a basic $1 good"
        if pick and pick.startswith("hero:") and pick[5:].isdigit():
            i = int(pick[5:])
            return None if i < len(s.inn) and s.inn[i] else "no such hero"
        if pick and pick.startswith("commission:"):
            return None if s.stacks.get(pick[11:]) else "no such commission"
        return "pick hero:<slot> or commission:<town>"
    if b == "lanternworks":
        return None if pick in cheap else "a good worth $1"
    if b == "mansion":
        trades = _mansion_trades(pay, pick)
        if trades is None:
            return "trade lantern, quartz or coins for another, one for one"
        have = {"lantern": p.lanterns, "quartz": p.quartz, "coins": p.coins // 2}
        for give, get in trades:
            if have[give] < 1:
                return f"no {give} left to trade"
            have[give] -= 1
            have[get] += 1
        return None
    if b == "workshop":
        if pick is None:
            return None
        q = _piece(p, pick)
        return None if q and not q["up"] else "a basic good in your storage"
    if b == "filigree":
        if pay == "coins":
            if p.coins < 2:
                return "needs 2 coins"
        elif _piece(p, pay) is None:
            return "pay 2 coins or a good"
        return None if pick in cheap else "a good worth $1"
    return "unknown building"


class BuildingH(Handler):
    """The connected building (any building with Longshadow), with an illuminated die."""

    cmd = A.Building

    def candidates(self, s, c, seat):
        p = s.players[seat]
        for b in s.acts:
            if b in c.building:
                for pay, pick, pick2 in _building_options(s, c, p, b):
                    yield A.Building(b, pay, pick, pick2)

    def check(self, s, c, seat, cmd):
        err = _activation(s, seat, cmd.building)
        if err:
            return err
        if cmd.building not in c.building:
            return _err("not_a_building", f"{cmd.building} is not a building")
        why = _building_ok(s, c, s.players[seat], cmd)
        if why:
            return _err("bad_choice", f"{cmd.building}: {why}")
        return None

    def do(self, s, c, seat, cmd, ev):
        _use_target(s, c, cmd.building)
        p = s.players[seat]
        b, pay, pick, pick2 = cmd.building, cmd.pay, cmd.pick, cmd.pick2
        ev.append({"type": "activated", "seat": seat, "target": b})
        if b == "quartz_mine":
            _resource(s, p, "quartz", 1, ev)
        elif b == "surveyor":
            if pay == "coins":
                _coins(s, p, -2, ev, b)
            else:
                _resource(s, p, "quartz", -1, ev)
            _prestige(s, p, 3, ev)
        elif b == "icebreaker_harbor":
            _gain_good(s, c, p, pick, False)
        elif b == "guildhall":
            if pay == "coins":
                _coins(s, p, -2, ev, b)
            else:
                _lanterns(s, c, p, -1, ev)
            _gain_good(s, c, p, pick, False)
            _gain_good(s, c, p, pick2, False)
        elif b == "oracle":
            _oracle(s, c, p, ev)
        elif b == "candle_quartz":
            if pay == "coins":
                _coins(s, p, -2, ev, b)
            else:
                q = _piece(p, pay)
                assert q is not None
                _return_piece(s, p, q)
            assert pick is not None
            if pick.startswith("hero:"):
                i = int(pick[5:])
                h = s.inn[i]
                s.inn[i] = None
                assert h is not None
                _join_hero(s, c, p, h, ev)
            else:
                _gain_commission(s, c, p, pick[11:], ev)
        elif b == "lanternworks":
            _gain_good(s, c, p, pick, False)
            _lanterns(s, c, p, 1, ev)
            _prestige(s, p, 1, ev)
        elif b == "mansion":
            for give, get in _mansion_trades(pay, pick) or []:
                for item, sign in ((give, -1), (get, 1)):
                    if item == "lantern":
                        _lanterns(s, c, p, sign, ev)
                    elif item == "quartz":
                        _resource(s, p, "quartz", sign, ev)
                    else:
                        _coins(s, p, 2 * sign, ev, b)
        elif b == "workshop":
            q = _piece(p, pick)
            if q is not None:
                q["up"] = True
                ev.append({"type": "upgraded", "seat": seat, "good": q["good"]})
            _lanterns(s, c, p, 1, ev)
        elif b == "filigree":
            if pay == "coins":
                _coins(s, p, -2, ev, b)
            else:
                q = _piece(p, pay)
                assert q is not None
                _return_piece(s, p, q)
            _gain_good(s, c, p, pick, True)


# --- companions -------------------------------------------------------------------------------


def _companion_picks(
    s: State, c: Content, p: Player, ability: str
) -> list[tuple[str | None, str | None]]:
    """(pick, gift) for each way to use an ability, before checking."""
    if ability == "deliver_hero":
        return [(h, None) for h in p.heroes]
    if ability == "gain_commission":
        return [(t, None) for t in c.towns]
    if ability == "gain_hero":
        return [(str(i), None) for i in range(4)]
    if ability == "harbor_good":
        return [(g, None) for g in c.goods if not s.market[g]]
    if ability == "basic_good":
        return [(g, None) for g in c.goods]
    if ability == "ruins_step":
        return [(g, None) for g in ruins_goods(c, s, 1)]
    if ability == "deed":
        return [(d, None) for d in ("0", "1", "top")]
    if ability == "upgrade_or_dark_market":
        out: list[tuple[str | None, str | None]] = []
        for h in p.heroes:
            out += [(f"upgrade:{u}", h) for u in s.upgrades_track]
            out += [(f"dark_market:{x}", h) for x in _dark_market_picks(s, c, 1)]
        return out
    return [(None, None)]


def _companion_ok(s: State, c: Content, p: Player, cmd: A.UseCompanion) -> str | None:
    held = next((x for x in p.companions if x["id"] == cmd.companion), None)
    if held is None:
        return f"{cmd.companion} is not your companion"
    card = c.companion[cmd.companion]
    if cmd.ability not in card.abilities:
        return f"{card.name} has no ability {cmd.ability!r}"
    if cmd.ability in ("twin_travel_die", "travel_boost"):
        return "this ability is used as you take a travel die"
    if cmd.ability in held["used"]:
        return f"{cmd.ability} was already used"
    if (cmd.pick, cmd.gift) not in _companion_picks(s, c, p, cmd.ability):
        return f"{cmd.pick!r} is not a choice of {cmd.ability}"
    return _gift_ok(p, card.gift, cmd.gift) or _companion_pick_ok(s, c, p, cmd.ability, cmd.pick)


def _gift_ok(p: Player, gift: str, hero: str | None) -> str | None:
    """Why the companion's gift cannot be given, or None."""
    if gift == "quartz" and p.quartz < 1:
        return "the gift is a blazing quartz"
    if gift == "horseshoe" and p.horseshoes < 1:
        return "the gift is a horseshoe"
    if gift == "potion" and not any(q["good"] == "potion" for q in p.pieces):
        return "the gift is a potion"
    if gift == "hero" and hero not in p.heroes:
        return "the gift is a hero on your wagon"
    return None


def _companion_pick_ok(s: State, c: Content, p: Player, a: str, pick: str | None) -> str | None:
    """Why an offered pick of ability `a` cannot be taken now, or None."""
    if a == "deliver_hero":
        return None
    if a == "gain_commission":
        return None if s.stacks.get(pick or "") else "that stack is empty"
    if a == "gain_hero":
        return None if s.inn[int(pick)] else "no hero in that slot"  # type: ignore[arg-type]
    if a == "illuminated_die":
        return None
    if a == "craft_upgraded":
        return None if p.locked[0] is not None else "locked slot 1 is empty"
    if a == "deed":
        return None if _deed_pick_ok(s, pick) else "that deed is not available"
    if a == "free_shortcut":
        return None if not p.free_shortcut else "already free this turn"
    if a == "upgrade_or_dark_market":
        assert pick is not None
        if pick.startswith("upgrade:"):
            return None if _upgrade_ok(s, c, p, pick[8:]) else "that upgrade cannot be taken"
        return None
    return None


class UseCompanion(Handler):
    """A companion's ability on your own turn (loyal: a quartz, once; stray: passed on)."""

    cmd = A.UseCompanion

    def listing(self, s, c, seat):
        if seat != s.turn_seat or s.pending or s.travel or s.phase != PLAY:
            return []
        p = s.players[seat]
        out = []
        for x in p.companions:
            card = c.companion[x["id"]]
            for a in card.abilities:
                if a in x["used"] or a in ("twin_travel_die", "travel_boost"):
                    continue
                for pick, gift in _companion_picks(s, c, p, a):
                    if not _gift_ok(p, card.gift, gift) and not _companion_pick_ok(
                        s, c, p, a, pick
                    ):
                        out.append(A.UseCompanion(x["id"], a, pick, gift))
        return out

    def candidates(self, s, c, seat):
        p = s.players[seat]
        for x in p.companions:
            for a in c.companion[x["id"]].abilities:
                if a in x["used"]:
                    continue
                for pick, gift in _companion_picks(s, c, p, a):
                    yield A.UseCompanion(x["id"], a, pick, gift)

    def check(self, s, c, seat, cmd):
        if s.phase != PLAY:
            return _err("wrong_phase", "companions act during the game's turns")
        if seat != s.turn_seat:
            return _err("not_your_turn", "companions act only on your own turn")
        if s.pending or s.travel:
            return _err("pending_choice", "finish the choice in progress first")
        why = _companion_ok(s, c, s.players[seat], cmd)
        return _err("bad_companion", why) if why else None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        held = next(x for x in p.companions if x["id"] == cmd.companion)
        card = c.companion[cmd.companion]
        a, pick = cmd.ability, cmd.pick
        if card.kind == "loyal":
            _gift(s, p, held, a, ev)
        else:
            ev.append({"type": "stray", "seat": seat, "companion": card.id, "ability": a})
            if card.gift == "quartz":
                _resource(s, p, "quartz", -1, ev)
            elif card.gift == "horseshoe":
                _resource(s, p, "horseshoes", -1, ev)
            elif card.gift == "potion":
                pots = sorted((q for q in p.pieces if q["good"] == "potion"), key=lambda q: q["up"])
                _return_piece(s, p, pots[0])
            else:
                assert cmd.gift is not None
                _lose_hero(s, c, p, cmd.gift)
                s.decks["heroes"].append(cmd.gift)
            p.companions.remove(held)
            if s.n > 1:  # passed to the left; ruling R20: alone, it goes under the deck
                s.players[(seat + 1) % s.n].companions.append({"id": card.id, "used": []})
            else:
                s.decks["companions"].append(card.id)
        if a == "deliver_hero":
            assert pick is not None
            _deliver_hero(s, c, p, pick, ev)
        elif a == "gain_commission":
            assert pick is not None
            _gain_commission(s, c, p, pick, ev)
        elif a == "two_lanterns":
            _lanterns(s, c, p, 2, ev)
        elif a == "illuminated_die":
            _gain_illuminated(s, c, p, ev)
        elif a == "gain_hero":
            i = int(pick or 0)
            h = s.inn[i]
            s.inn[i] = None
            assert h is not None
            _join_hero(s, c, p, h, ev)
        elif a in ("harbor_good", "basic_good"):
            assert pick is not None
            _gain_good(s, c, p, pick, False)
        elif a == "ruins_step":
            assert pick is not None
            _ruins_gain(s, c, p, 1, pick, ev)
        elif a == "oracle":
            _oracle(s, c, p, ev)
        elif a == "craft_upgraded":
            die = p.locked[0]
            assert die is not None
            _gain_good(s, c, p, c.board.crafting[die], True)
        elif a == "deed":
            assert pick is not None
            _gain_deed(s, c, p, pick, ev)
        elif a == "free_shortcut":
            p.free_shortcut = True
        elif a == "upgrade_or_dark_market":
            assert pick is not None
            if pick.startswith("upgrade:"):
                _gain_upgrade(s, c, p, pick[8:], ev)
            else:
                rest = pick[len("dark_market:") :]
                _dark_market_gain(s, c, p, 1, None if rest == "None" else rest, ev)
        elif a == "ruins_die":
            _ruins_result(s, c, p, ev)


# --- storage commands ------------------------------------------------------------------------


def _can_rearrange(s: State, seat: int) -> Check:
    """Ruling R8: rearranging is free on your own turn and whenever you are storing a good."""
    if s.phase == OVER:
        return _err("game_over", "the game is over")
    if s.pending and s.pending[0]["kind"] == "store" and s.pending[0]["seat"] == seat:
        return None
    if s.phase == PLAY and seat == s.turn_seat and not s.pending:
        return None
    return _err("not_now", "rearrange on your turn or while storing a good")


@functools.lru_cache(maxsize=4096)
def _place_cmd(where: st.Placement) -> A.PlaceGood:
    """Interned commands: listing a placement builds no new object."""
    return A.PlaceGood(*where)


class PlaceGood(Handler):
    """Store the first incoming good where the command says, or anywhere it fits."""

    cmd = A.PlaceGood

    def listing(self, s, c, seat):
        p = s.players[seat]
        good = p.incoming[0]["good"]
        explicit = [_place_cmd(w) for w in st.placements(c, p, good)]
        if explicit or _auto_layout(c, p):
            return [_AUTO_PLACE, *explicit]
        return []

    def candidates(self, s, c, seat):
        p = s.players[seat]
        if not s.pending or s.pending[0]["kind"] != "store" or not p.incoming:
            return
        yield A.PlaceGood()
        for area, x, y, o in st.placements(c, p, p.incoming[0]["good"]):
            yield A.PlaceGood(area, x, y, o)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "store")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        good = p.incoming[0]["good"]
        if cmd.area is None:
            if st.first_fit(c, p, good) or _auto_layout(c, p):
                return None
            return _err("no_room", f"the {good} does not fit: discard something")
        if not st.fits(c, p, good, (cmd.area, cmd.x, cmd.y, cmd.o)):
            return _err("no_room", f"the {good} does not fit at {cmd.area} ({cmd.x}, {cmd.y})")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        g = p.incoming.pop(0)
        piece = {"id": p.next_piece, "good": g["good"], "up": g["up"]}
        p.next_piece += 1
        where = (cmd.area, cmd.x, cmd.y, cmd.o) if cmd.area else st.first_fit(c, p, g["good"])
        if where is None:
            layout = st.repack(c, p, [*p.pieces, {**piece, "area": "main", "x": 0, "y": 0, "o": 0}])
            assert layout is not None
            p.pieces = layout
        else:
            p.pieces.append(
                {**piece, "area": where[0], "x": where[1], "y": where[2], "o": where[3]}
            )
        ev.append({"type": "stored", "seat": seat, "good": g["good"], "up": g["up"]})
        if not p.incoming:
            s.pending.pop(0)


def _auto_layout(c: Content, p: Player) -> list[dict[str, Any]] | None:
    g = p.incoming[0]
    return st.repack(c, p, [*p.pieces, {"id": -1, "good": g["good"], "up": g["up"]}])


class DiscardGood(Handler):
    """Make room: discard the incoming good or a stored one (never the upgrade tile)."""

    cmd = A.DiscardGood

    def listing(self, s, c, seat):
        return list(self.candidates(s, c, seat))

    def candidates(self, s, c, seat):
        p = s.players[seat]
        if p.incoming and p.incoming[0]["good"] != "upgrade":
            yield A.DiscardGood(None)
        for q in st.goods_of(p):
            yield A.DiscardGood(q["id"])

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "store")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.piece is None and p.incoming[0]["good"] == "upgrade":
            return _err("cannot_discard", "the storage upgrade cannot be discarded")
        if cmd.piece is not None and _piece(p, str(cmd.piece)) is None:
            return _err("no_such_good", f"no good {cmd.piece} in your storage")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        if cmd.piece is None:
            g = p.incoming.pop(0)
            s.goods_supply[g["good"]] += 1
            ev.append({"type": "discarded", "seat": seat, "good": g["good"]})
            if not p.incoming:
                s.pending.pop(0)
        else:
            q = _piece(p, str(cmd.piece))
            assert q is not None
            _return_piece(s, p, q)
            ev.append({"type": "discarded", "seat": seat, "good": q["good"]})


class Rearrange(Handler):
    """A whole new storage layout (ruling R8)."""

    cmd = A.Rearrange

    def check(self, s, c, seat, cmd):
        err = _can_rearrange(s, seat)
        if err:
            return err
        p = s.players[seat]
        layout = _layout(c, p, cmd.layout)
        if layout is None:
            return _err("bad_layout", "the layout must place every stored piece once, legally")
        return None

    def do(self, s, c, seat, cmd, ev):
        p = s.players[seat]
        layout = _layout(c, p, cmd.layout)
        assert layout is not None
        p.pieces = layout
        ev.append({"type": "rearranged", "seat": seat})


def _layout(c: Content, p: Player, flat: tuple[int, ...]) -> list[dict[str, Any]] | None:
    if len(flat) != 5 * len(p.pieces):
        return None
    names = [a for a, _, _ in st.areas(c, p)]
    by_id = {q["id"]: q for q in p.pieces}
    out = []
    for i in range(0, len(flat), 5):
        pid, ai, x, y, o = flat[i : i + 5]
        if pid not in by_id or not 0 <= ai < len(names):
            return None
        out.append({**by_id.pop(pid), "area": names[ai], "x": x, "y": y, "o": o})
    if by_id or not st.legal(c, p, out):
        return None
    return out


# --- other answers ------------------------------------------------------------------------------


class DiscardHero(Handler):
    """Over 3 heroes: discard one (the new one: no bonus) to the bottom of the deck."""

    cmd = A.DiscardHero

    def candidates(self, s, c, seat):
        for h in s.players[seat].heroes:
            yield A.DiscardHero(h)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "hero_overflow")
        if isinstance(pend, RuleError):
            return pend
        if cmd.hero not in s.players[seat].heroes:
            return _err("no_such_hero", f"{cmd.hero} is not on your wagon")
        return None

    def do(self, s, c, seat, cmd, ev):
        pend = s.pending.pop(0)
        p = s.players[seat]
        _lose_hero(s, c, p, cmd.hero)
        s.decks["heroes"].append(cmd.hero)  # to the bottom of the hero deck
        ev.append({"type": "hero_discarded", "seat": seat, "hero": cmd.hero})
        if cmd.hero != pend["new"]:
            _hero_bonus(s, c, p, pend["new"], ev)


class DiscardCommission(Handler):
    """Over 3 commissions: discard one under its town's stack."""

    cmd = A.DiscardCommission

    def candidates(self, s, c, seat):
        for k in s.players[seat].commissions:
            yield A.DiscardCommission(k)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "commission_overflow")
        if isinstance(pend, RuleError):
            return pend
        if cmd.commission not in s.players[seat].commissions:
            return _err("no_such_commission", f"{cmd.commission} is not on your wagon")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        s.players[seat].commissions.remove(cmd.commission)
        s.stacks[c.commission[cmd.commission].town].append(cmd.commission)
        ev.append({"type": "commission_discarded", "seat": seat, "commission": cmd.commission})


class DiscardResource(Handler):
    """Over 3 inventory items: discard a quartz or a horseshoe."""

    cmd = A.DiscardResource

    def candidates(self, s, c, seat):
        yield A.DiscardResource("quartz")
        yield A.DiscardResource("horseshoes")

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "inventory_overflow")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        held = {"quartz": p.quartz, "horseshoes": p.horseshoes}
        if not held.get(cmd.resource):
            return _err("no_such_resource", f"no {cmd.resource} to discard")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        _resource(s, s.players[seat], cmd.resource, -1, ev)


class ChooseGood(Handler):
    """A good of your choice (any good, or one worth $1)."""

    cmd = A.ChooseGood

    def candidates(self, s, c, seat):
        if s.pending and s.pending[0]["kind"] == "choose_good":
            for g in s.pending[0]["options"]:
                yield A.ChooseGood(g)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "choose_good")
        if isinstance(pend, RuleError):
            return pend
        if cmd.good not in pend["options"]:
            return _err("not_offered", f"{cmd.good!r} is not one of {pend['options']}")
        return None

    def do(self, s, c, seat, cmd, ev):
        pend = s.pending.pop(0)
        _gain_good(s, c, s.players[seat], cmd.good, pend["up"])


class LoseGood(Handler):
    """An event's cost: lose a good of your choice."""

    cmd = A.LoseGood

    def candidates(self, s, c, seat):
        p = s.players[seat]
        for q in st.goods_of(p):
            yield A.LoseGood(q["id"])
        for i, g in enumerate(p.incoming):
            if g["good"] != "upgrade":
                yield A.LoseGood(-1 - i)

    def check(self, s, c, seat, cmd):
        pend = _pending(s, seat, "lose_good")
        if isinstance(pend, RuleError):
            return pend
        p = s.players[seat]
        if cmd.piece < 0:
            i = -1 - cmd.piece
            if i < len(p.incoming) and p.incoming[i]["good"] != "upgrade":
                return None
            return _err("no_such_good", f"no incoming good {cmd.piece}")
        if _piece(p, str(cmd.piece)) is None:
            return _err("no_such_good", f"no good {cmd.piece} in your storage")
        return None

    def do(self, s, c, seat, cmd, ev):
        s.pending.pop(0)
        p = s.players[seat]
        if cmd.piece < 0:
            g = p.incoming.pop(-1 - cmd.piece)
            s.goods_supply[g["good"]] += 1
            ev.append({"type": "lost_good", "seat": seat, "good": g["good"]})
            return
        q = _piece(p, str(cmd.piece))
        assert q is not None
        _return_piece(s, p, q)
        ev.append({"type": "lost_good", "seat": seat, "good": q["good"]})


# --- step 4: rest ------------------------------------------------------------------------------


class EndTurn(Handler):
    """Rest: dice back, market rerolled, cards refilled, the next seat (ruling R36)."""

    cmd = A.EndTurn

    def candidates(self, s, c, seat):
        yield A.EndTurn()

    def check(self, s, c, seat, cmd):
        return _turn(s, seat, ACTIVATE)

    def do(self, s, c, seat, cmd, ev):
        _rest(s, c, s.players[seat], ev)


def _reroll_market(s: State, c: Content) -> None:
    """Each set-aside market die is rolled into a section holding fewer than 2 dice."""
    while s.market_aside:
        g = _roll(s, c.goods)
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


def _rest(s: State, c: Content, p: Player, ev: Events) -> None:
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
        p.reserve = sorted(_roll(s, c.board.night_faces) for _ in p.spent)
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
            _start_final(s, c, ev)
            return
        ev.append({"type": "round", "round": s.round})
    s.turn_seat = nxt
    s.step = PLAN


def _start_final(s: State, c: Content, ev: Events) -> None:
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


# --- after every command -----------------------------------------------------------------------


def _advance(s: State, c: Content, ev: Events) -> None:
    """Move the caravan (or the final travel) on when nobody has a choice to make."""
    t = s.travel
    while t is not None and not s.pending:
        if t["stage"] == "join":
            if t["asking"]:
                s.pending.append({"kind": "join", "seat": t["asking"].pop(0)})
                return
            _start_event(s, c, ev)
            continue
        if t["stage"] == "dice":
            if t["order"]:
                s.pending.append({"kind": "travel_die", "seat": t["order"].pop(0)})
                return
            s.supply["travel"] += t["dice_held"]
            t["dice"] = []
            s.discards[t["route"]].append(t["event"])
            t["stage"] = "visit"
            leader = t["leader"]
            ring = [(leader + i) % s.n for i in range(s.n)]
            t["visiting"] = [x for x in ring if x in t["travellers"]]
            continue
        if t["stage"] == "visit":
            if t["visiting"]:
                s.pending.append({"kind": "visit", "seat": t["visiting"].pop(0)})
                return
            if t["final"]:
                s.travel = None
                _score(s, c, ev)
                return
            t["stage"] = "fortune"
            t["fortunes"] = 2 if t["route"] == "shortcut" else 1
            continue
        if t["stage"] == "fortune":
            if t["fortunes"]:
                t["fortunes"] -= 1
                s.pending.append({"kind": "fortune", "seat": t["leader"]})
                return
            s.travel = None
            ev.append({"type": "caravan_done"})
            return


def _stale(s: State, pend: dict[str, Any]) -> bool:
    """A choice that has lost its object (a good to store or to lose that is gone)."""
    p = s.players[pend["seat"]]
    if pend["kind"] == "store":
        return not p.incoming
    if pend["kind"] == "lose_good":
        return not st.goods_of(p) and all(g["good"] == "upgrade" for g in p.incoming)
    return False


def _settle(s: State, c: Content, ev: Events) -> None:
    """After every command: new choices first, goods to store, limits, the caravan."""
    if s.asks:
        s.pending[0:0] = s.asks
        s.asks = []
    if s.pending:
        s.pending = [x for x in s.pending if not _stale(s, x)]
    front: list[dict[str, Any]] = []
    for p in s.players:
        if not p.incoming and p.quartz + p.horseshoes <= 2:
            continue  # nothing to store, no inventory overflow possible
        if p.incoming and not any(x["kind"] == "store" and x["seat"] == p.seat for x in s.pending):
            front.append({"kind": "store", "seat": p.seat})
        if p.quartz + p.horseshoes > inventory_slots(c, p) and not any(
            x["kind"] == "inventory_overflow" and x["seat"] == p.seat for x in s.pending
        ):
            if p.quartz and p.horseshoes:
                front.append({"kind": "inventory_overflow", "seat": p.seat})
            else:  # one kind only: nothing to choose, the extra goes back
                kind = "quartz" if p.quartz else "horseshoes"
                _resource(s, p, kind, inventory_slots(c, p) - p.quartz - p.horseshoes, ev)
    if front:
        s.pending[0:0] = front
    _advance(s, c, ev)
    if s.phase == SETUP and not s.pending:
        s.phase = PLAY
        s.step = PLAN
        ev.append({"type": "game_started"})


# --- scoring -----------------------------------------------------------------------------------


def measure(s: State, c: Content, p: Player, m: str) -> int:
    if m == "full_commissions":
        return p.full_commissions
    if m == "commissions_delivered":
        return len(p.delivered_commissions)
    if m == "heroes_delivered":
        return len(p.delivered_heroes)
    if m.startswith("region_"):
        return p.region_deliveries.get(m[7:], 0)
    if m == "towns_delivered":
        return len(p.towns_delivered)
    if m == "quartz_held":
        return p.quartz
    if m == "lanterns_held":
        return p.lanterns
    if m == "horseshoes_held":
        return p.horseshoes
    if m == "upgraded_stored":
        return sum(1 for q in st.goods_of(p) if q["up"])
    if m == "goods_stored":
        return len(st.goods_of(p))
    if m == "loyal_gifts":
        return loyal_gifts(c, p)
    if m == "companions":
        return len(p.companions)
    if m == "upgraded_delivered":
        return p.upgraded_delivered
    if m == "wagon_upgrades":
        return len(p.upgrades)
    if m == "illuminated_held":
        return len(p.special)
    raise ValueError(m)


def loyal_gifts(c: Content, p: Player) -> int:
    return sum(len(x["used"]) for x in p.companions if c.companion[x["id"]].kind == "loyal")


def deed_reward(s: State, c: Content, p: Player, deed: str) -> int:
    d = c.deed[deed]
    got = measure(s, c, p, d.measure)
    if d.per:
        return got * d.amount
    return d.amount if got >= d.threshold else 0


def score(s: State, c: Content, p: Player) -> dict[str, int]:
    """Final scoring: min(coins, prestige) + victory points (deeds revealed)."""
    coins, prestige, vp = p.coins, p.prestige, 0
    for d in p.deeds:
        amount = deed_reward(s, c, p, d)
        kind = c.deed[d].reward
        if kind == "coins":
            coins += amount
        elif kind == "prestige":
            prestige += amount
        else:
            vp += amount
    vp += len(p.special)
    vp += STORAGE_UPGRADE_VP * sum(1 for u in p.upgrades if c.upgrade[u].kind == "storage")
    base = min(coins, prestige)
    return {
        "seat": p.seat,
        "coins": coins,
        "prestige": prestige,
        "base": base,
        "discarded": max(coins, prestige),
        "vp": vp,
        "total": base + vp,
        "gifts": loyal_gifts(c, p),
        "commissions": len(p.delivered_commissions),
        "heroes": len(p.delivered_heroes),
    }


def _key(x: dict[str, int]) -> tuple[int, ...]:
    return (x["total"], x["discarded"], x["gifts"], x["commissions"], x["heroes"])


def _score(s: State, c: Content, ev: Events) -> None:
    scores = [score(s, c, p) for p in s.players]
    best = max(_key(x) for x in scores)
    winners = [x["seat"] for x in scores if _key(x) == best]
    s.result = {
        "scores": scores,
        "winners": winners,
        "deeds": {str(p.seat): list(p.deeds) for p in s.players},
    }
    s.phase = OVER
    ev.append({"type": "game_over", "winners": winners, "scores": scores})


# --- dispatch ---------------------------------------------------------------------------------

HANDLERS: dict[str, Handler] = {
    h.cmd.type: h
    for h in (
        Draft(), KeepDeed(), ResetDice(), Plan(), Move(), Bazaar(), BazaarRotate(),
        BazaarChange(), BazaarBuy(), TakeCommission(), DarkMarket(), Inn(), Ruins(), Caravan(),
        BuildingH(), UseCompanion(), EndTurn(), PlaceGood(), DiscardGood(), Rearrange(),
        DiscardHero(), DiscardCommission(), DiscardResource(), ChooseGood(), LoseGood(),
        RuinsDie(), TakeHero(), ChooseSteed(), Join(), RerollTravel(), TakeTravelDie(), Visit(),
        DeliverCommission(), DeliverHero(), DoneDelivering(), Fortune(),
    )
}  # fmt: skip
ANSWERS: dict[str, tuple[str, ...]] = {
    "draft": ("draft",),
    "keep_deed": ("keep_deed",),
    "store": ("place_good", "discard_good", "rearrange"),
    "bazaar": ("bazaar_rotate", "bazaar_change", "bazaar_buy"),
    "hero_overflow": ("discard_hero",),
    "commission_overflow": ("discard_commission",),
    "inventory_overflow": ("discard_resource",),
    "choose_good": ("choose_good",),
    "lose_good": ("lose_good",),
    "ruins_die": ("ruins_die",),
    "ruins_again": ("ruins",),
    "take_hero": ("take_hero",),
    "choose_steed": ("choose_steed",),
    "join": ("join",),
    "travel_die": ("reroll_travel", "take_travel_die"),
    "visit": ("visit",),
    "deliver": ("deliver_commission", "deliver_hero", "done_delivering"),
    "fortune": ("fortune",),
}
ANSWER_ONLY = frozenset(k for v in ANSWERS.values() for k in v) - {"ruins", "rearrange"}
STEP_KINDS: dict[str, tuple[str, ...]] = {
    PLAN: ("reset_dice", "plan", "use_companion"),
    MOVE: ("move", "use_companion"),
    ACTIVATE: (
        "bazaar", "take_commission", "dark_market", "inn", "ruins", "caravan", "building",
        "use_companion", "end_turn",
    ),
}  # fmt: skip


def _gate(s: State, seat: int, kind: str) -> Check:
    """Checks common to every command, in order: unknown, game over, seat, pending choice."""
    if kind not in HANDLERS:
        return _err("unknown_command", f"unknown command type {kind!r}")
    if s.phase == OVER:
        return _err("game_over", "the game is over")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.n:
        return _err("not_a_player", f"seat {seat!r} is not in this game")
    if s.pending:
        head = s.pending[0]
        if kind not in ANSWERS[head["kind"]]:
            who = "you" if head["seat"] == seat else f"seat {head['seat']}"
            return _err(
                "pending_choice", f"{who} must first choose ({head['kind'].replace('_', ' ')})"
            )
        if head["seat"] != seat:
            return _err("not_your_choice", f"seat {head['seat']} is choosing, not you")
    elif kind in ANSWER_ONLY:
        return _err("no_such_choice", "there is no choice to make now")
    return None


def to_act(s: State) -> list[int]:
    """The seats the game waits for: the head of the pending choices, else the turn seat."""
    if s.phase == OVER:
        return []
    if s.pending:
        return [s.pending[0]["seat"]]
    return [s.turn_seat]


TARGET_KINDS = {
    "bazaar": ("bazaar",),
    "commissions": ("take_commission",),
    "dark_market": ("dark_market",),
    "inn": ("inn",),
    "excursions": ("ruins", "caravan"),
}


def _turn_kinds(s: State, c: Content, p: Player) -> tuple[str, ...]:
    """A shortcut for listing only (check still decides): the kinds worth trying now."""
    comp = ("use_companion",) if p.companions else ()
    if s.step == PLAN:
        return ("reset_dice", "plan", *comp)
    if s.step == MOVE:
        return ("move", *comp)
    out: list[str] = []
    for t in s.acts:
        out.extend(TARGET_KINDS.get(t, ("building",)))
    return (*dict.fromkeys(out), *comp, "end_turn")


def legal_actions(s: State, seat: int) -> list[A.Command]:
    """Every complete command `seat` may send now (explicit `rearrange` layouts excepted:
    `place_good` without an area is the listed way to repack)."""
    if s.phase == OVER or not 0 <= seat < s.n:
        return []
    c = content_of(s)
    if s.pending:
        head = s.pending[0]
        if head["seat"] != seat:
            return []
        kinds = ANSWERS[head["kind"]]
    elif s.phase != PLAY or seat != s.turn_seat:
        return []
    else:
        kinds = _turn_kinds(s, c, s.players[seat])
    out: list[A.Command] = []
    for kind in kinds:
        out.extend(HANDLERS[kind].listing(s, c, seat))
    return out


def check(s: State, seat: int, cmd: A.Command) -> Check:
    """Why `cmd` is refused, or None if `apply` would accept it."""
    err = _gate(s, seat, cmd.type)
    if err:
        return err
    return HANDLERS[cmd.type].check(s, content_of(s), seat, cmd)


def apply(s: State, seat: int, cmd: A.Command | dict[str, Any]) -> Events:
    """Apply one command of `seat` in place; returns its events.

    :raises RuleError: the command is refused; the state is untouched.
    """
    if not isinstance(cmd, A.Command):
        cmd = A.parse(cmd)
    err = check(s, seat, cmd)
    if err:
        raise err
    c = content_of(s)
    ev: Events = []
    HANDLERS[cmd.type].do(s, c, seat, cmd, ev)
    _settle(s, c, ev)
    s.commands += 1
    return ev


def outcome(s: State) -> dict[str, Any] | None:
    """None while the game runs; else the winners (shared when the tie-breaks still tie)
    and every seat's score."""
    return s.result if s.phase == OVER else None
