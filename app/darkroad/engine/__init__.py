"""The rules of Merchants of the Dark Road: `new_game`, `legal_actions`, `apply`, `outcome`.

A package whose modules follow the turn and the components (docs/architecture.md has
the map): `setup` (options, "Setting up the Game"), `turn` (Plan, Move, Rest),
`districts` (the five districts), `caravans` (Yurg's Excursions' caravan), `buildings`
and `companions` (one table entry each), `wagon` (storage and the wagon's limits),
`gains` (every gain and cost), `flow` (what follows every command), `scoring`, and
`dispatch` (the handlers by type, the gate and the loop). Each command type has one
handler on the kit's `Handler` (`candidates`, `check`, `do`); a listed command is
always accepted and a refused one changes nothing.

Outside tools play the engine through this module: its names stay where they were.
"""

from ..content import Content, load
from ..errors import RuleError
from ..state import ACTIVATE, FINAL, MOVE, OVER, PLAN, PLAY, SETUP, Player, State
from .core import (
    HANDLERS,
    LAST_ROUNDS,
    MAX_ILLUMINATED,
    REMOVAL_ROUNDS,
    ROUNDS,
    RULES,
    SHORTCUT_LANTERNS,
    TARGET_KINDS,
    Check,
    Events,
    Handler,
    content_of,
    register,
    rules,
)
from .dispatch import (
    ANSWERS,
    RULES_LOOP,
    STEP_KINDS,
    apply,
    check,
    legal_actions,
    outcome,
    to_act,
    turn_kinds,
)
from .districts import bazaar_cost, match_requests, shortcut_lanterns
from .flow import settle
from .gains import (
    apply_effect,
    cheap_goods,
    gain_coins,
    gain_commission,
    gain_good,
    gain_illuminated,
    gain_lanterns,
    gain_prestige,
    gain_resource,
    gain_upgrade,
    has_steed,
    illuminated_held,
    inventory_slots,
    join_hero,
    lantern_slots,
    lose_hero,
    return_piece,
    ruins_goods,
    value,
)
from .scoring import deed_reward, final_scoring, loyal_gifts, measure, score
from .setup import DEFAULT_OPTIONS, Options, new_game, normalise_options
from .turn import can_activate, final_rounds
from .wagon import DiscardGood

__all__ = [
    "ACTIVATE", "ANSWERS", "DEFAULT_OPTIONS", "Options", "FINAL", "HANDLERS", "LAST_ROUNDS",
    "MAX_ILLUMINATED", "MOVE", "OVER", "PLAN", "PLAY", "REMOVAL_ROUNDS", "ROUNDS", "RULES",
    "RULES_LOOP",
    "SETUP", "SHORTCUT_LANTERNS", "STEP_KINDS", "TARGET_KINDS", "Check", "Content",
    "DiscardGood", "Events", "Handler", "Player", "RuleError", "State", "apply",
    "apply_effect", "bazaar_cost", "can_activate", "cheap_goods", "check", "content_of",
    "deed_reward", "final_rounds", "final_scoring", "gain_coins", "gain_commission",
    "gain_good", "gain_illuminated", "gain_lanterns", "gain_prestige", "gain_resource",
    "gain_upgrade", "has_steed", "illuminated_held", "inventory_slots", "join_hero",
    "lantern_slots", "legal_actions", "load", "lose_hero", "loyal_gifts", "match_requests",
    "measure", "new_game", "normalise_options", "outcome", "register", "return_piece",
    "rules", "ruins_goods", "score", "settle", "shortcut_lanterns", "to_act", "turn_kinds",
    "value",
]  # fmt: skip
