"""Merchants of Karanor behind the platform's game interface, on the game kit
(`app.games.kit.KitGame`): the kit gives every member; this module states what is
Karanor's own (identity, options, rules, bots' policy at a table, the catalogue)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from app.games import i18n, kit
from app.games.base import BotMove, Events
from app.games.kit import marked as _

from . import engine, hard, simulate, texts, view
from .bots import GreedyBot
from .bots import play as play_bots
from .content import RESOURCES, load_in, load_pack
from .hard import LEVELS
from .setup import Options
from .state import ACTION, GAME_OVER, State

CONTENT_PACK = "base"
# The game's translations: locale/<lang>.po (English is the source language).
LOCALE = Path(__file__).resolve().parent / "locale"
BOT_PROPOSAL_CHANCE = 0.15  # a bot on its turn sometimes opens with a trade offer
OFF_TURN_PLAYS = ("play_black_market", "use_artifact")


class Karanor(kit.KitGame):
    """The game object the registry hosts as `karanor`."""

    id = "karanor"
    title = _("Merchants of Karanor")
    locale = LOCALE
    # The page names the move first ("The coach: Work (+1 gold)."); these say why.
    coach_gain = _("By its plans, this brings you about {gain} gold's worth.")
    coach_hold = _("By its plans, nothing else brings you more now.")
    min_players = 2
    max_players = 6
    content_pack = CONTENT_PACK
    options_model = Options
    resources: ClassVar[tuple[str, ...]] = RESOURCES
    rules = engine.RULES
    setup = staticmethod(engine.new_game)
    state_type = State
    bots = LEVELS
    # What a seat may take back when it revealed nothing (KitGame.can_take_back): the
    # actions of its turn; never the end of a turn, a draft pick, a pending choice, a
    # black-market card, an artifact power or a trade.
    take_backs = frozenset(
        {"move", "harvest", "work", "build", "deliver", "recruit_partner", "buy_villa", "market"}
    )
    locale = LOCALE

    def public_part(self, state: State) -> dict[str, Any]:
        return view.public_part(state)

    def view(self, state: State, seat: int | None, public: Any) -> dict[str, Any]:
        return view.view(state, seat, public=public)

    def invitations(self, state: State, events: Events) -> dict[int, str]:
        """Seats this version asks to answer (the platform's notices): an offer's
        addressees ("offer"; an offer to anyone asks every other seat)."""
        asked: dict[int, str] = {}
        for event in events:
            if event.get("type") == "offer":
                to = event.get("addressees")
                seats = to if to is not None else range(len(state.players))
                asked.update((int(s), "offer") for s in seats if s != event.get("seat"))
        return asked

    def bot_move(
        self,
        state: State,
        bot_seats: frozenset[int],
        salt: int,
        levels: Mapping[int, str] | None = None,
        budget: float | None = None,
    ) -> BotMove | None:
        """The seat the game waits for (now and then opening its turn with an offer for
        a token it needs), else a reply to an offer made to a bot, else an off-turn
        black-market card or artifact power worth playing; each seat's bot at its level
        (`levels`, default "normal": the greedy bot)."""
        s = state
        if not bot_seats or s.phase == GAME_OVER:
            return None

        def _bot(s: State, salt: int, seat: int) -> GreedyBot:
            level = (levels or {}).get(seat, "normal")
            bot: GreedyBot = self.seat_bot(level, s, salt, seat, budget)
            return bot

        waiting = self.waiting_bot(s, bot_seats)
        if waiting is not None:
            seat, legal = waiting
            player = _bot(s, salt, seat)
            own_turn = s.phase == ACTION and not s.pending and seat == s.turn_seat
            if own_turn and player.rng.random() < BOT_PROPOSAL_CHANCE:
                offer = player.propose(s, seat)
                if offer is not None:
                    return BotMove(seat, offer)
            return BotMove(seat, player.decide(s, seat, legal))
        for seat in sorted(bot_seats):
            reply = _bot(s, salt, seat).answer(s, seat)
            if reply is not None:
                return BotMove(seat, reply)
        if s.phase == ACTION and not s.pending:
            for seat in sorted(bot_seats - {s.turn_seat}):
                free = [a for a in engine.legal_actions(s, seat) if a.type in OFF_TURN_PLAYS]
                play = _bot(s, salt, seat).react(s, seat, free) if free else None
                if play is not None:
                    return BotMove(seat, play)
        return None

    def coach_offers(self, state: State, seat: int, tr: Any) -> list[dict[str, Any]]:
        return hard.coach_offers(state, seat, tr)

    def play(
        self,
        state: State,
        players: Sequence[Any],
        *,
        max_rounds: int,
        on_command: kit.bots.OnCommand | None,
    ) -> int:
        return play_bots(state, players, max_rounds=max_rounds, on_command=on_command)

    def watch(self) -> simulate.Tally:
        return simulate.Tally()

    def figures(self, finished: list[Any], players: int, watcher: Any) -> dict[str, Any]:
        """Rounds, wins by position and (with `--stats`) docs/balance.md's tallies."""
        return simulate.figures(finished, players, watcher)

    def content_counts(self, pack: str) -> dict[str, int]:
        """A pack by name or folder, read afresh (not the cached one) and counted."""
        return load_pack(pack).counts()

    def catalogue(self, lang: str) -> dict[str, Any]:
        return _catalogue(lang)


def _point(pt: Any) -> list[float | int]:
    """A map point as the page gets it: a whole coordinate written `95`, not `95.0` (the
    map's ~8,000 numbers are whole: 1.3 KB less of a first visit, gzipped)."""
    return [int(v) if float(v).is_integer() else v for v in pt]


@functools.cache
def _catalogue(lang: str) -> dict[str, Any]:
    """What the client needs to draw the map and explain every card."""
    c = load_in(CONTENT_PACK, lang)
    m = c.map
    return {
        "game": "karanor",
        "lang": lang,
        "title": i18n.translator(LOCALE, lang).gettext(Karanor.title),
        # The game's client strings in `lang` (static/js/i18n.js looks them up).
        "messages": i18n.messages(LOCALE, lang),
        "pack": c.name,
        "map": {
            "width": m.width,
            "height": m.height,
            "territories": [
                {
                    **t.model_dump(),
                    "center": _point(t.center),
                    "shape": [_point(pt) for pt in t.shape],
                    "article": c.articles.get(t.id, ""),
                }
                for t in m.territories
            ],
            "land": [list(pair) for pair in m.land],
            "sea_routes": [list(pair) for pair in m.sea_routes],
            "coast": [[_point(pt) for pt in line] for line in m.coast],
            "cities": list(c.cities),
        },
        "rules": c.rules.model_dump(),
        "resources": list(RESOURCES),
        "villas": dict(c.villa_name),
        "articles": dict(c.articles),  # entry id -> its article in `lang` (le, la, l', les)
        "catalogue": texts.catalogue(c, i18n.translator(LOCALE, lang)),
    }


GAME = Karanor()
