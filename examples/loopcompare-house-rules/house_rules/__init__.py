"""An example loopcompare plugin: the "three and done" house rule.

A ruleset is a subclass of :class:`rulesets.base.Ruleset` (here of the current CR, since the
house rule amends it) registered in the ``loopcompare.rulesets`` entry-point group.  It
overrides only the hooks its text changes, and cites its own rule text (``texts/``) so reports
quote it like any built-in rule.
"""

from __future__ import annotations

from loopcompare.rulesets.base import Decision, Settlement, Source
from loopcompare.rulesets.outcome import Result
from loopcompare.rulesets.scenario import CutPoint
from loopcompare.rulesets.shortcuts import Cr2024

LIMIT = 3


class ThreeAndDone(Cr2024):
    """House rule H.1: a loop players keep going stops after three iterations.

    Amends CR 729 (2024): where the CR would let a player name any number, the house rule
    caps every loop that players sustain at three iterations; the player who would act next
    in the fourth iteration must do something else.  Mandatory loops are still draws (H.2).
    """

    key = "house-three"
    aliases = ("three-and-done",)
    name = "House rule: three and done"
    document = "Kitchen-table house rule H.1 (an example plugin)"
    citation = "examples/loopcompare-house-rules (not an official document)"
    effective = "2024-06-07"
    in_force = ("2024-06-07", None)
    amends = None  # a line of its own, not a step in the official history
    rule_ids = ("H.1", "H.2")
    sources = (Source("house-three.txt", package="house_rules"), Source("2024-06-07_cr_729.txt"))
    summary = "Loops that players keep going stop after three iterations."

    def dependent(self, ctx: Settlement, involved: tuple[str, ...]) -> Decision:
        """H.1 caps the CR's procedure at three iterations."""
        return self._capped(ctx, super().dependent(ctx, involved), involved[0])

    def one_controller(self, ctx: Settlement, controller: str) -> Decision:
        """H.1 caps a one-player loop too."""
        return self._capped(ctx, super().one_controller(ctx, controller), controller)

    def _capped(self, ctx: Settlement, decision: Decision, first: str) -> Decision:
        point = decision.point
        if point is None or (not point.unbounded and point.iterations < LIMIT):
            return decision
        cap = ctx.facts.own_point(first, LIMIT)
        if ctx.facts.at_or_before(point, cap):
            return decision
        ctx.say("H.1", f"the loop stops after {LIMIT} iterations: {first} must do something else instead.")
        return Decision(Result.SHORTCUT, CutPoint(LIMIT, cap.steps), first)


__all__ = ["ThreeAndDone"]
