"""The draft (setup): each merchant keeps one of three business cards, passes two to the
right, keeps one of those; then the first turn begins."""

from __future__ import annotations

from collections.abc import Iterable

from app.games.kit import Check, Events, Handler, err

from . import commands as K
from .content import Content
from .state import ACTION, DRAFT, State
from .turns import begin_turn


class DraftPick(Handler[State, Content, K.DraftPick]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.DraftPick]:
        if s.phase == DRAFT:
            for card in s.players[seat].draft_hand:
                yield K.DraftPick(card)

    def check(self, s: State, c: Content, seat: int, cmd: K.DraftPick) -> Check:
        if s.phase != DRAFT:
            return err("wrong_phase", "the draft is over")
        p = s.players[seat]
        if p.draft_done:
            return err("already_picked", "you have picked this round; wait for the others")
        if cmd.card not in p.draft_hand:
            return err("not_in_hand", f"{cmd.card} is not among the cards offered to you")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.DraftPick, ev: Events) -> None:
        p = s.players[seat]
        p.draft_hand.remove(cmd.card)
        p.business_hand.append(cmd.card)
        p.draft_done = True
        ev.append({"type": "draft_picked", "seat": seat})
        ev.append({"type": "draft_pick", "to": seat, "card": cmd.card})
        if not all(q.draft_done for q in s.players):
            return
        for q in s.players:
            q.draft_done = False
        if s.draft_round == 1:
            # Keep 1, pass 2 to the player on your right: seat i+1 sits on seat i's
            # left (play goes to i+1), so seat i receives from seat i+1.
            hands = [q.draft_hand for q in s.players]
            for i, q in enumerate(s.players):
                q.draft_hand = hands[(i + 1) % s.n]
            s.draft_round = 2
            ev.append({"type": "draft_passed"})
            return
        for q in s.players:
            s.discards["business"].extend(q.draft_hand)
            q.draft_hand = []
        s.phase = ACTION
        ev.append({"type": "draft_done"})
        begin_turn(s, c, s.start_seat, ev)
