"""Merchants of the Dark Road behind the platform's game interface, on the game kit.

`KitGame` supplies every generic member (commands as JSON, the loop, bots' moves,
`simulate`); this module states what is the Dark Road's own: its identity, options,
rules loop, setup, bots, views and the catalogue the client draws from.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from app.games import i18n, kit
from app.games.base import Events
from app.games.kit import marked as _

from . import engine, hard, texts, view
from .content import counts, load, load_in
from .state import State

CONTENT_PACK = "base"
# The game's translations: locale/<lang>.po (English is the source language).
LOCALE = Path(__file__).resolve().parent / "locale"
Options = engine.Options


class DarkRoad(kit.KitGame):
    """The game object the registry hosts as `darkroad`."""

    id = "darkroad"
    title = _("Merchants of the Dark Road")
    locale = LOCALE
    # The page names the move first ("The coach: Rest."); these say why.
    coach_gain = _(
        "At the end of your turn you stand about {gain} points better against your best rival"
        " than now."
    )
    coach_hold = _("Nothing gains more by the end of your turn.")
    min_players = 1
    max_players = 4
    content_pack = CONTENT_PACK
    options_model = Options
    rules = engine.RULES_LOOP
    setup = staticmethod(engine.new_game)
    state_type = State
    bots = hard.LEVELS
    # What a seat may take back when it revealed nothing (KitGame.can_take_back): the
    # steps of its own turn; never a die (reset, reroll, ruins, travel), a draft, a
    # caravan asked of others, the inn or a commission (cards turned), a fortune or the
    # end of a turn.
    take_backs = frozenset(
        {
            "plan", "move", "bazaar", "bazaar_rotate", "bazaar_change", "bazaar_buy",
            "building", "use_companion", "place_good", "discard_good", "visit",
            "deliver_commission", "deliver_hero", "done_delivering",
        }
    )  # fmt: skip
    # Coins are behind the screen: a coins event goes to its seat alone, and tells it
    # nothing it did not know (a Bazaar purchase, a delivery's pay may be taken back).
    own_private = frozenset({"coins"})
    locale = LOCALE

    def public_part(self, state: State) -> dict[str, Any]:
        return view.public_part(state)

    def view(self, state: State, seat: int | None, public: Any) -> dict[str, Any]:
        return view.view(state, seat, public=public)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return self.rules.commands.listing_json(engine.legal_actions(state, seat))

    def content_counts(self, pack: str) -> dict[str, int]:
        return counts(load(pack))

    def watch(self) -> kit.bots.OnCommand | None:
        """With `simulate --stats`: the scores are read from the finished games, so the
        watcher only says that stats were asked for."""
        return _no_watch

    def invitations(self, state: State, events: Events) -> dict[int, str]:
        """Seats this version asks to answer (the platform's notices): the seat now asked
        whether it joins a caravan ("join")."""
        head = state.pending[0] if state.pending else None
        if head is not None and head.get("kind") == "join":
            return {int(head["seat"]): "join"}
        return {}

    def figures(self, finished: list[Any], players: int, watcher: Any) -> dict[str, Any]:
        from .simulate import figures

        return figures(finished, players, watcher is not None)

    def catalogue(self, lang: str = "en") -> dict[str, Any]:
        return _catalogue(lang)


def _no_watch(s: Any, seat: int, cmd: Any, events: Any) -> None:
    """`simulate --stats` needs no per-command tally for the Dark Road."""


@functools.cache
def _catalogue(lang: str) -> dict[str, Any]:
    """The content the client needs to draw the board and explain every card, its texts
    in `lang` (the pack's names in `lang` from its locale/<lang>.yaml, rule texts of the
    cards through app/darkroad/texts.py)."""
    c = load_in(CONTENT_PACK, lang)
    data = {
        "game": "darkroad",
        "lang": lang,
        # The game's client strings in `lang` (static/js/i18n.js looks them up).
        "messages": i18n.messages(LOCALE, lang),
        "pack": c.name,
        "board": c.board.model_dump(),
        "shapes": {g: [list(map(list, o)) for o in shapes] for g, shapes in c.shapes.items()},
        "heroes": [x.model_dump() for x in c.heroes],
        "companions": [x.model_dump() for x in c.companions],
        "steeds": [x.model_dump() for x in c.steeds],
        "deeds": [x.model_dump() for x in c.deeds],
        "deed_banners": [x.model_dump(exclude_none=True) for x in c.banners],
        "events": [x.model_dump() for x in c.events],
        "commissions": [x.model_dump() for x in c.commissions],
        "buildings": [x.model_dump() for x in c.buildings],
        "first_game": list(c.first_game),  # the suggested first game's four buildings
        "upgrades": [x.model_dump() for x in c.upgrades],
        # The rules' numbers the page shows (the round track), from the engine, not copied.
        "rules": {
            "rounds": engine.ROUNDS,
            "removal_rounds": list(engine.REMOVAL_ROUNDS),
            "last_rounds": list(engine.LAST_ROUNDS),
        },
    }
    return texts.localise(data, c, i18n.translator(LOCALE, lang))


GAME = DarkRoad()
