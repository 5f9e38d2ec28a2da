"""A simple client-side player: picks among a view's `legal_actions` only.

Scoring actions first, then answers to pending choices, then gathering, then a
random move; ends the turn when nothing better is left. Enough to finish a game
with a low `end_prestige` in a few hundred commands.
"""

import random
from typing import Any

FIRST = ("complete_quest", "deliver", "build", "buy_villa")
THEN = (
    "draft_pick",
    "pick_business",
    "choose_artifact",
    "quest_choice",
    "discard_quest",
    "interact",
    "harvest",
)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = view["legal_actions"]
    if not legal:
        return None
    for kinds in (FIRST, THEN):
        found = [a for a in legal if a["type"] in kinds]
        if found:
            if kinds is THEN and rng.random() < 0.25:
                break
            return rng.choice(found)
    moves = [a for a in legal if a["type"] == "move"]
    if moves and rng.random() < 0.85:
        return rng.choice(moves)
    rest = [a for a in legal if a["type"] in ("work", "end_turn")]
    return rng.choice(rest or legal)
