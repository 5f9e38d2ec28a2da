"""Artifacts: choosing one of the two tiles drawn, and using an artifact's power."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.games.kit import Check, Events, Handler, RuleError, err, pending_head

from . import commands as K
from . import effects as fx
from .common import free_check, spend_action, turn_check
from .content import Content
from .state import State


class ChooseArtifact(Handler[State, Content, K.ChooseArtifact]):
    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.ChooseArtifact]:
        if s.pending and s.pending[0]["kind"] == "artifact":
            for a in s.pending[0]["options"]:
                yield K.ChooseArtifact(a)

    def check(self, s: State, c: Content, seat: int, cmd: K.ChooseArtifact) -> Check:
        pend = pending_head(s.pending, seat, "artifact")
        if isinstance(pend, RuleError):
            return pend
        if cmd.artifact not in pend["options"]:
            return err("not_offered", f"{cmd.artifact} is not one of the two tiles drawn")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.ChooseArtifact, ev: Events) -> None:
        pend = s.pending.pop(0)
        p = s.players[seat]
        p.artifacts.append(cmd.artifact)
        s.discards["artifacts"].extend(a for a in pend["options"] if a != cmd.artifact)
        ev.append({"type": "artifact", "seat": seat, "artifact": cmd.artifact})


class UseArtifact(Handler[State, Content, K.UseArtifact]):
    """Ruling R26: a power without an action cost may be used at any time, like a
    black-market card; one that costs an action only on your turn."""

    def listing(self, s: State, c: Content, seat: int) -> Sequence[K.UseArtifact]:
        return super().listing(s, c, seat) if s.players[seat].artifacts else ()

    def candidates(self, s: State, c: Content, seat: int) -> Iterable[K.UseArtifact]:
        for a in dict.fromkeys(s.players[seat].artifacts):
            if c.artifact[a].activate:
                yield K.UseArtifact(a)

    def check(self, s: State, c: Content, seat: int, cmd: K.UseArtifact) -> Check:
        refused = free_check(s, seat)
        if refused:
            return refused
        p = s.players[seat]
        if cmd.artifact not in p.artifacts:
            return err("not_yours", f"you do not own {cmd.artifact}")
        power = c.artifact[cmd.artifact].activate
        if power is None:
            return err("no_power", f"{c.artifact[cmd.artifact].name} has no power to use")
        if cmd.artifact in p.powers_spent or (
            power.once_per == "turn" and cmd.artifact in p.powers_used
        ):
            return err(
                "power_used", f"{c.artifact[cmd.artifact].name} is used once per {power.once_per}"
            )
        if power.action:
            refused = turn_check(s, seat)
            if refused:
                return refused
        why = fx.unmet(s, c, p, power.requires)
        if why:
            return err("conditions_not_met", why)
        if not fx.holds(p, power.cost):
            return err("cannot_afford", f"the power costs {fx.bundle_words(power.cost)}")
        return None

    def do(self, s: State, c: Content, seat: int, cmd: K.UseArtifact, ev: Events) -> None:
        p = s.players[seat]
        power = c.artifact[cmd.artifact].activate
        assert power is not None
        if power.action:
            spend_action(s)
        if seat == s.turn_seat:
            s.move_left = 0
        (p.powers_spent if power.once_per == "game" else p.powers_used).append(cmd.artifact)
        fx.pay(s, p, power.cost)
        ev.append({"type": "artifact_used", "seat": seat, "artifact": cmd.artifact})
        fx.apply_rewards(s, c, p, power.reward, ev)
