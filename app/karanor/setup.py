"""Setting up a game of Karanor: the room options and the deal (homes, stories, decks,
the market of a two-player game, the draft hands, the first seat)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from app.games import rng
from app.games.kit import Events, GameOptions, GameSetup, err, normalise

from . import effects as fx
from .common import PACKS
from .content import Content
from .state import Business, Player, State


class Options(GameOptions):
    """The room options of a Karanor game."""

    max_players: int = Field(default=4, ge=2, le=6, description="2 to 6 seats")
    public_quests: bool = Field(default=False, description="quest cards face up")
    two_player_market: bool = Field(default=True, description="the 2-player market")
    start_seat: Annotated[int, Field(ge=0, le=5)] | Literal["random"] = Field(
        default="random", description='first player: a seat number or "random"'
    )
    end_prestige: int | None = Field(
        default=None, ge=1, le=30, description="prestige that ends the game (null: the rules')"
    )
    coach: bool = Field(
        default=False, description='"What would you do?": the hard bot advises each person'
    )


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option filled in and checked. :raises RuleError: `bad_options`."""
    return normalise(Options, options)


def _deal(
    c: Content, opts: dict[str, Any], seed: int, players: list[str], given: Mapping[str, Any] | None
) -> State:
    """Set up a game: homes and stories dealt, decks shuffled, the draft dealt."""
    n = len(players)
    if opts["start_seat"] != "random" and opts["start_seat"] >= n:
        raise err("bad_options", f"start_seat {opts['start_seat']} but only {n} players")
    r = seed & ((1 << 64) - 1)
    few = n <= 3  # cards marked 4+ leave the game with 2-3 players

    def deck(cards: Iterable[Any]) -> list[str]:
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


# new_game(options, seed, players, content="base") -> State, 2 to 6 seats (the kit's setup).
new_game: GameSetup[Content, State] = GameSetup(PACKS, Options, (2, 6), _deal)
